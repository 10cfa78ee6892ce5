"""A player arriving mid-session (issue 18; Blinds 4, 7): sessions of clean simulated hands through the real
Pipeline, one new player sitting down in an empty seat of the running game, and the property over the whole
session: the expected rule at the fault, nothing else above ``info`` in that hand or any later one, and every
hand ending with pokerkit's stacks (the new player's live big blind out of position refereed by pokerkit too:
``Simulator.seat_player``, a negative blind in its ``raw_blinds_or_straddles``).

Three classes: the new player waits for the big blind (quiet); posts a big blind where they sit and plays as
soon as the button has passed them (quiet); and the fault, the dealer deals the new player in between the big
blind and the button, at the place in the deal their seat would have: ruled ``blinds.7`` at that card (the
misdeal of Misdeals 1i), and the remedy carried out (cards gathered, blinds back, the hand dealt again without
them, staged_misdeals.redealt); the player then waits for the button to pass and plays, quiet.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator
from dataclasses import replace

from dealerbox.config import from_dict
from dealerbox.sources.sim.away import big_blind
from dealerbox.sources.sim.outcome import SimulatedHand
from dealerbox.sources.simulator import Simulator
from dealerbox.tags import demo_registry
from tests.faults.refereed import RefereedSession
from tests.faults.sessions import check_ended, each_session, feed_answering, hello_table
from tests.faults.staged_cards import Inputs, deal_entries, from_shoe, spare_cards
from tests.faults.staged_misdeals import redealt
from tests.faults.table_run import LOUD, SEATS, VARIANTS, Cascade

SESSION = 8
KINDS = ("new-player-waits-for-the-big-blind", "new-player-posts-and-plays", "new-player-dealt-in-between",
         "new-player-passed-over")
EXPECTED = {"new-player-waits-for-the-big-blind": frozenset(), "new-player-posts-and-plays": frozenset(),
            "new-player-dealt-in-between": frozenset({"blinds.7"}),
            # dealt out though entitled (Misdeals 1j in words): the next card is out of sequence first
            "new-player-passed-over": frozenset({"misdeal.1f"})}


def _clockwise(button: int, seat: int) -> int:
    return (seat - button - 1) % SEATS


def _next_button(sim: Simulator) -> int:
    """Where the simulator's moving button goes next: the next seated player the hand deals in (Blinds 1a)."""
    assert sim.button is not None
    seated = sorted(sim.stacks)
    after = [s for s in seated if s > sim.button] + [s for s in seated if s <= sim.button]
    return next((s for s in after if sim.away.deals_in(s, seated, s)), after[0])


def between_next_hand(sim: Simulator, seat: int) -> bool:
    """Whether a player sitting in empty ``seat`` now would sit between the big blind and the button of the next
    hand: the small blind's seat, the new seat counted (Blinds 7). The button itself never goes to a new player:
    it moves to the next player the hand deals in (Blinds 1a)."""
    button = _next_button(sim)
    players = sorted(set(s for s in sim.stacks if s not in sim.away.sitting_out) | {seat})
    small = next((s for s in players if s > button), players[0])
    return len(players) > 2 and seat == small and seat != big_blind(button, players)


def just_after_the_button(sim: Simulator, seat: int) -> bool:
    """``seat`` is the first seat taken after the last hand's button, the new seat counted: where the engine used to
    move the button (issue 31), which now passes it by."""
    assert sim.button is not None
    taken = set(sim.stacks) | {seat}
    return next(s for s in (((sim.button + k - 1) % SEATS) + 1 for k in range(1, SEATS + 1)) if s in taken) == seat


def seat_new_player(kind: str, sim: Simulator) -> int | None:
    """The class's arrival, before the next hand; None when the table has no room for it: no empty seat (no seat
    between the blinds, for the fault), or fewer than three players to join (heads-up with the button on a seat
    not dealt in, the simulator's blinds are not the engine's: no arrival's concern)."""
    empty = [s for s in range(1, SEATS + 1) if s not in sim.stacks]
    active = [s for s in sim.stacks if s not in sim.away.sitting_out]
    if kind == "new-player-dealt-in-between":
        empty = [s for s in empty if between_next_hand(sim, s)]
    if not empty or len(active) < 3 or sim.finished:
        return None
    seat = sim.rng.choice(empty)
    sim.seat_player(seat, wait_for_bb=kind == "new-player-waits-for-the-big-blind")
    return seat


def dealt_in_between(hand: SimulatedHand, seat: int, rng: random.Random) -> Inputs | None:
    """The dealer deals the new seat in although it sits between the big blind and the button: its first card
    comes where the clockwise deal would reach it. Ruled a misdeal; gathered, blinds back, dealt again without
    it (the clean hand). None when the seat is not held out of this hand."""
    exp = hand.expected
    deal = deal_entries(hand.inputs)
    if seat in exp.dealt_in or len(deal) < len(exp.dealt_in) + 1:
        return None
    place = sum(1 for s in exp.dealt_in if _clockwise(exp.button, s) < _clockwise(exp.button, seat))
    k = deal[place]
    (card,) = spare_cards(hand.inputs, rng, 1)
    inputs = hand.inputs
    return redealt(inputs, inputs[:k - 2] + from_shoe(inputs[k - 2].t, f"seat{seat}", card))


def passed_over(hand: SimulatedHand, seat: int, rng: random.Random) -> Inputs | None:
    """At the new player's first hand the dealer deals around them, as if they were still waiting: the card
    that was theirs goes to the next seat. Ruled at that card (out of sequence), gathered, dealt again with
    them. None unless this is a hand the seat is dealt in."""
    exp = hand.expected
    deal = deal_entries(hand.inputs)
    if seat not in exp.dealt_in or len(deal) < len(exp.dealt_in) + 1:
        return None
    place = exp.dealt_in.index(seat)
    k, n = deal[place], deal[place + 1]
    inputs = hand.inputs
    nxt = inputs[n - 2:n + 1]       # the next card of the deal, from the shoe to the next seat
    return redealt(inputs, inputs[:k - 2] + [replace(x, t=x.t - (nxt[0].t - inputs[k - 2].t)) for x in nxt])


STAGED = {"new-player-dealt-in-between": dealt_in_between, "new-player-passed-over": passed_over}


def _later(hands: Iterator[SimulatedHand], late: list[float]) -> Iterator[SimulatedHand]:
    for hand in hands:
        yield SimulatedHand(hand.number, [replace(x, t=x.t + late[0]) for x in hand.inputs], hand.expected) \
            if late[0] else hand


def play_session(kind: str, variant: str, seed: str, stats: Counter) -> None:
    """One session at a fresh table: the new player arrives before a random hand after the first (or the first
    hand after it where the table has room); raises Cascade at the first breach of the property."""
    rng = random.Random(seed)
    config = from_dict({"game": {"variant": variant}, "table": {"seats": SEATS}})
    registry = demo_registry()
    sim = Simulator(config, registry, seed=seed, irregularities=0.0)
    pipe, encoder = hello_table(config, registry)
    referee = RefereedSession(config.game, SEATS, stats)     # our own referee, beside pokerkit (issue 31)
    arrive = rng.randint(2, SESSION // 2)
    seat: int | None = None
    faulted = False
    dealt: set[int] = set()     # the new player's seat once dealt in
    late = [0.0]    # how much later than the simulator's clock the staged hands have run
    hands = _later(sim.play(SESSION), late)
    for number in range(1, SESSION + 1):
        if seat is None and number >= arrive:
            seat = seat_new_player(kind, sim)
            if seat is not None and just_after_the_button(sim, seat):
                stats[f"arrived just after the button ({kind})"] += 1
        hand = next(hands)
        if seat is not None and seat not in sim.stacks:
            seat = None         # the table was seated afresh (too rich): everyone sits down anew
        staged = STAGED[kind](hand, seat, rng) if kind in STAGED and seat is not None and not faulted else None
        if staged is not None:
            late[0] += max(0.0, staged[-1].t - hand.inputs[-1].t)
            hand, faulted = SimulatedHand(hand.number, staged, hand.expected), True
            stats[f"injected {kind}"] += 1
        events = feed_answering(pipe, encoder, hand)
        referee.check(hand, events)
        where = (variant, kind, seed, hand.number, seat)
        loud = [e for e in events if e.kind == "FindingRaised" and e.severity in LOUD]
        ended = [e for e in events if e.kind == "HandEnded"]
        exp = hand.expected
        if staged is not None:
            at_fault = [e for e in loud if e.t == loud[0].t] if loud else []
            if not at_fault or {e.rule for e in at_fault} != EXPECTED[kind] or seat not in at_fault[0].seats:
                raise Cascade(f"{where}: at the fault {[(e.rule, e.seats) for e in at_fault]}, expected "
                              f"{sorted(EXPECTED[kind])} for seat {seat}")
            stats.update(f"ruled {e.rule} ({kind})" for e in at_fault)
            loud = loud[len(at_fault):]
            if len(ended) != 2 or ended[0].outcome != "misdeal" or \
                    {s: ended[0].stacks.get(s) for s in exp.stacks_before} != exp.stacks_before:
                raise Cascade(f"{where}: the misdeal gives every chip back: {[(e.outcome, e.stacks) for e in ended]}")
            ended = ended[1:]
        if loud:
            stage = "the fault's hand" if staged is not None else "a later hand" if faulted else "a clean hand"
            raise Cascade(f"{where}: findings in {stage}: {[(e.t, e.rule, e.ruling) for e in loud]}")
        check_ended(where, ended, exp)
        stats["hands"] += 1
        if seat is not None and seat in exp.dealt_in:
            first = seat not in dealt
            dealt.add(seat)
            stats[f"new player dealt in ({kind})"] += 1
            if first and seat == big_blind(exp.button, list(exp.dealt_in)):
                stats[f"first hand in the big blind ({kind})"] += 1
            if exp.blinds.get(seat) == config.game.big_blind and seat != big_blind(exp.button, list(exp.dealt_in)):
                stats[f"live big blind out of position ({kind})"] += 1
        stats[f"hands after the fault ({kind})"] += int(faulted and staged is None)
    stats["sessions"] += 1
    stats[f"arrived ({kind})"] += int(seat is not None)


def run(kinds: tuple[str, ...], sessions: int, seed: int, variants: tuple[str, ...] = VARIANTS,
        stats: Counter | None = None) -> Counter:
    """``sessions`` sessions per class and variant; raises Cascade at the first session that breaks the
    property. Stats: sessions, hands, arrivals, the new player's hands and live posts, the faults ruled."""
    return each_session(play_session, kinds, sessions, seed, variants, stats)
