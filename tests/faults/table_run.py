"""Whole hands through the real Pipeline, one staged fault each: the Cards and Showdown rows a sensor raises.

The simulator (dealerbox/sources/sim) plays clean random hands with pokerkit as referee and stages one
irregularity per hand where a real dealer errs (a boxed card, a card of another deck, a joker, a deal out of
sequence, the first card to the wrong seat, a premature flop, an odd chip in a wager...), then acts out the
ruling's remedy as a dealer would: a scrap card replaced, the board redealt, a misdeal or a void hand with
every chip back, a chip handed back. Its hands become protocol frames, encoded to bytes and fed to the
Pipeline (decoder, tag registry, engine) exactly as a live port's; the dealer's taps go in as inputs.

Each hand is checked against the simulator's account (``Expected``): the expected rule at the fault (the
first finding above ``info``, and only findings at that same moment), nothing else above ``info`` for the
rest of the hand, one ``HandEnded`` with the outcome the remedy implies, and the stacks the remedy implies
(pokerkit's when the remedy restores the clean hand; every chip back to its owner for a misdeal or void).

The simulator cannot stage every card fault; tests/faults/staged_cards.py and staged_misdeals.py stage the rest
by editing a clean hand's frames with spare cards (cards the clean hand never moves), so that once the remedy
is done the clean hand's account still holds. A fault ruled a misdeal is followed by the redeal of the clean
hand (two ``HandEnded``: the misdeal with every chip back, then the clean hand), and the table's later hands
are moved later in time to match.

Tables of 2 to 10 seats: every ``CHUNK`` hands a fresh simulator seats a new table (seat count, stacks and
button at random), so the seat counts, short stacks (all-ins, side pots) and streets vary.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, replace

from dealerbox.config import from_dict
from dealerbox.engine import inputs as ev
from dealerbox.engine.events import TableEvent
from dealerbox.pipeline import Pipeline
from dealerbox.sources.choreography import board_hello
from dealerbox.sources.sim.outcome import SimulatedHand
from dealerbox.sources.simulator import Simulator
from dealerbox.tags import CardTag, demo_registry
from dealerbox.wire import protocol as p
from tests.faults.odd_chip import OddChipMisplaced, check_odd_chips
from tests.faults.out_of_turn import check_raise_out_of_turn
from tests.faults.staged_cards import (button_moved_after_action, card_after_the_hand, card_dropped,
                                      card_to_a_hand_after_action, deck_short, exposed_in_deal,
                                      folded_card_on_the_board, four_card_flop, hole_card_on_the_board,
                                      muck_picked, mucked_unshown, premature_street)
from tests.faults.staged_misdeals import (button_misplaced, card_to_empty_seat, deal_short, dealt_out,
                                         first_card_exposed,
                                         heads_up_blinds_reversed, stub_cards_flashed, two_boxed_cards,
                                         two_extra_cards)
from tests.faults.wrong_push import PUSH_FAULTS

VARIANTS = ("nlhe", "plhe", "flhe", "plo")
SPLIT_VARIANTS = ("o8", "plo8", "plo5-8")    # Omaha high-low eight or better (issue 33)
# the info rows every split game's showdown raises (how the pot splits): the split-game slice counts them
SPLIT_INFO = ("highlow.1", "highlow.2", "ties.5c")
SPLIT_KINDS = ("wrong-award", "boxed-card", "short-call")     # the classes the split-game slice stages
# the info rows every showdown raises (the order of showing, cards speak) and a tied pot's odd chip (Ties 5a): the
# showdown slice plays SHOWDOWN_KINDS in every game, counts them and checks each tied pot (tests/faults/odd_chip.py)
SHOWDOWN_INFO = ("showdown.7", "showdown.2", "ties.5a")
SHOWDOWN_KINDS = ("exposed-tap",)
SEATS = 10
CHUNK = 8          # hands per simulated table before a new one is seated
LOUD = ("dealer", "floor")
Inputs = list[ev.EngineInput]      # one hand's sensor events and taps, in time order

# fault class -> the rule ids its ruling may carry at the moment of the fault
EXPECTED: dict[str, frozenset[str]] = {
    "boxed-card": frozenset({"irregularity.7"}),
    # the simulator's duplicate has another deck's back: two true facts of one card, one void ruling
    "duplicate-card": frozenset({"irregularity.4", "irregularity.3"}),
    "other-deck": frozenset({"irregularity.3"}),
    "joker": frozenset({"irregularity.8"}),
    # a skip of the very first seat is the first card to the wrong seat
    "out-of-sequence": frozenset({"misdeal.1f", "misdeal.1h"}),
    "first-card-wrong-seat": frozenset({"misdeal.1h"}),
    "premature-flop": frozenset({"holdem.3"}),
    "string-raise": frozenset({"betting.14"}),
    # a short call that matches the bet before a raise is ruled by Betting 12
    "short-call": frozenset({"betting.16", "betting.12"}),
    "foreign-chip": frozenset({"procedures.3"}),
    "unknown-chip": frozenset({"procedures.3"}),
    "small-chip": frozenset({"betting.7"}),
}


def wrong_award(hand: SimulatedHand, rng: random.Random) -> Inputs | None:
    """The dealer first taps a pot to a seat the cards do not give it to, then taps it right."""
    for i, tap in enumerate(hand.inputs):
        if isinstance(tap, ev.DealerInput) and tap.action == "award":
            # not a winner of any pot: in a split game a tap may name one half, so the low winner is no wrong award
            winning = {s for pot in hand.expected.pots for s in pot.winners} | set(tap.seats)
            losers = [s for s in hand.expected.dealt_in if s not in winning]
            if not losers:
                return None
            wrong = ev.DealerInput(tap.t, "award", ref=tap.ref, seats=(rng.choice(losers),))
            return hand.inputs[:i] + [wrong] + hand.inputs[i:]
    return None


def exposed_tap(hand: SimulatedHand, rng: random.Random) -> Inputs | None:
    """The dealer taps ``exposed`` on a player's hole card (flashed) at some check during the betting."""
    checks = [i for i, x in enumerate(hand.inputs) if isinstance(x, ev.DealerInput) and x.action == "check"]
    held = hand.expected.hole_cards
    if not checks or not held:
        return None
    i = rng.choice(checks)
    seat = rng.choice(sorted(held))
    return hand.inputs[:i] + [ev.DealerInput(hand.inputs[i].t, "exposed", card=held[seat][0])] + hand.inputs[i:]


def check_out_of_turn(hand: SimulatedHand, rng: random.Random) -> Inputs | None:
    """Of two checks in a row, the second seat taps its check before the first: it stands (Betting 10), and
    the dealer does not tap it again in its turn."""
    inputs = hand.inputs
    pairs = []
    for i, first in enumerate(inputs):
        if not (isinstance(first, ev.DealerInput) and first.action == "check"):
            continue
        for j in range(i + 1, len(inputs)):
            nxt = inputs[j]
            if isinstance(nxt, ev.DealerInput):
                if nxt.action == "check":
                    pairs.append((i, j))
                break
            if getattr(nxt, "zone", "").startswith(("bet", "pot", "burn", "board")):
                break       # chips moved or a card was turned between the two: not two checks in a row
    if not pairs:
        return None
    i, j = rng.choice(pairs)
    early = ev.DealerInput(inputs[i].t, "check", seat=inputs[j].seat)
    return inputs[:i] + [early] + inputs[i:j] + inputs[j + 1:]


def extra_card(hand: SimulatedHand, rng: random.Random) -> Inputs | None:
    """Right after the deal the dealer pitches one card too many, to the first seat: the card that would have
    been the flop's burn. The remedy (Hold'em 5): it goes to the burn, and no second burn before the flop."""
    inputs = hand.inputs
    burn = next((i for i, x in enumerate(inputs) if isinstance(x, ev.ZoneEntered) and x.zone == "burn"), None)
    if burn is None:
        return None     # nobody saw a flop
    card = inputs[burn].tag
    moves = {i for i in range(max(0, burn - 3), burn + 1) if getattr(inputs[i], "tag", None) == card}
    last = max(i for i, x in enumerate(inputs[:burn])
               if isinstance(x, ev.ZoneEntered) and x.zone.startswith("seat") and isinstance(x.tag, CardTag))
    t, seat = inputs[last].t, f"seat{hand.expected.dealt_in[0]}"
    if last + 1 < len(inputs) and inputs[last + 1].t - t < 1.0:
        return None     # the next motion follows too soon to slip the card in between
    extra = [ev.CardFaceSensed(t + 0.1, "shoe", card, False), ev.ZoneLeft(t + 0.1, "shoe", card),
             ev.ZoneEntered(t + 0.3, seat, card),
             ev.ZoneLeft(t + 0.7, seat, card), ev.ZoneEntered(t + 0.8, "burn", card)]    # the remedy
    rest = [x for i, x in enumerate(inputs) if i not in moves]   # every dropped index comes after ``last``
    return rest[:last + 1] + extra + rest[last + 1:]


def card_into_another_hand(hand: SimulatedHand, rng: random.Random) -> Inputs | None:
    """A folding player's card lands on another seat's cards instead of the muck (Dead Hands 3: the thrown card
    is dead); the dealer moves it to the muck and the hand plays on."""
    inputs = hand.inputs
    folds = [i for i, x in enumerate(inputs) if isinstance(x, ev.ZoneEntered) and x.zone == "muck"
             and isinstance(inputs[i - 1], ev.ZoneLeft) and inputs[i - 1].zone.startswith("seat")
             and inputs[i - 1].tag == x.tag and (i + 1 == len(inputs) or inputs[i + 1].t - x.t >= 0.12)]
    if not folds:
        return None
    i = rng.choice(folds)
    arrived = inputs[i]
    other = rng.choice([f"seat{s}" for s in hand.expected.dealt_in if f"seat{s}" != inputs[i - 1].zone])
    thrown = [ev.ZoneEntered(arrived.t, other, arrived.tag),
              ev.ZoneLeft(arrived.t + 0.05, other, arrived.tag), ev.ZoneEntered(arrived.t + 0.1, "muck", arrived.tag)]
    return inputs[:i] + thrown + inputs[i + 1:]


# faults the simulator does not stage, made on its clean hands by editing the dealer's taps
MUTATIONS: dict[str, Callable[[SimulatedHand, random.Random], Inputs | tuple[Inputs, dict[int, int]] | None]] = {
    "wrong-award": wrong_award, "exposed-tap": exposed_tap, "check-out-of-turn": check_out_of_turn,
    "extra-card": extra_card, "card-into-another-hand": card_into_another_hand,
    "premature-turn-or-river": premature_street, "exposed-in-deal": exposed_in_deal,
    "mucked-unshown": mucked_unshown, "first-card-exposed": first_card_exposed,
    "stub-cards-flashed": stub_cards_flashed, "card-after-the-hand": card_after_the_hand,
    "card-dropped": card_dropped, "four-card-flop": four_card_flop, "deal-short": deal_short,
    "card-to-empty-seat": card_to_empty_seat, "button-misplaced": button_misplaced,
    "button-moved-after-action": button_moved_after_action, "deck-short": deck_short, "muck-picked": muck_picked,
    "two-extra-cards": two_extra_cards, "heads-up-blinds-reversed": heads_up_blinds_reversed,
    "two-boxed-cards": two_boxed_cards, "card-to-a-hand-after-action": card_to_a_hand_after_action,
    "dealt-out": dealt_out, "hole-card-on-board": hole_card_on_the_board,
    "folded-card-on-board": folded_card_on_the_board}
EXPECTED["hole-card-on-board"] = frozenset({"irregularity.12"})
EXPECTED["folded-card-on-board"] = frozenset()      # a folded hand's discard: ruled at info, then mucked
EXPECTED["dealt-out"] = frozenset({"misdeal.1j"})
EXPECTED["card-to-a-hand-after-action"] = frozenset({"misdeal.2", "dead-hand.1d"})
EXPECTED["two-boxed-cards"] = frozenset({"irregularity.7", "misdeal.1c"})
EXPECTED["deck-short"] = frozenset()
EXPECTED["muck-picked"] = frozenset({"procedures.22"})
EXPECTED["two-extra-cards"] = frozenset({"holdem.5", "misdeal.1d"})
EXPECTED["heads-up-blinds-reversed"] = frozenset({"blinds.3"})
EXPECTED["button-misplaced"] = frozenset({"misdeal.1g"})
EXPECTED["button-moved-after-action"] = frozenset({"misdeal.2", "irregularity.1"})
EXPECTED["card-after-the-hand"] = frozenset()      # info: a reminder to the dealer, nothing to undo
EXPECTED["card-dropped"] = frozenset()
EXPECTED["four-card-flop"] = frozenset({"holdem.2"})
EXPECTED["deal-short"] = frozenset({"misdeal.1e"})
EXPECTED["card-to-empty-seat"] = frozenset({"misdeal.1i"})
EXPECTED["first-card-exposed"] = frozenset({"holdem.1"})
EXPECTED["stub-cards-flashed"] = frozenset({"misdeal.1b"})
# classes ruled a misdeal that the harness redeals: the hand ends twice (misdeal, then the clean hand)
REDEALT = frozenset({"dealt-out", "first-card-exposed", "stub-cards-flashed", "deal-short", "card-to-empty-seat",
                     "button-misplaced", "two-extra-cards", "heads-up-blinds-reversed", "two-boxed-cards"})
EXPECTED["mucked-unshown"] = frozenset({"showdown.1"})
# classes whose remedy gives other stacks than the simulator's clean hand: the table carries on with the remedy's
# stacks (carry_on), and the next FOLLOWING hands are played clean and checked like any hand (nothing above info,
# pokerkit's stacks from the remedy's) before the class is staged again
CARRIED_ON = frozenset({"mucked-unshown"})
FOLLOWING = 2
EXPECTED["premature-turn-or-river"] = frozenset({"holdem.4"})
EXPECTED["exposed-in-deal"] = frozenset({"holdem.1"})
EXPECTED["wrong-award"] = frozenset({"showdown.3"})
EXPECTED["check-out-of-turn"] = frozenset({"betting.10"})
# the check out of turn, then at the checker's next turn a raise it may not make (issue 31): ruled at the check and
# again, once, at the raise (RULED_AGAIN), whose remedy (the chip over the call handed back) the hand carries out
MUTATIONS["check-raise-out-of-turn"] = check_raise_out_of_turn
EXPECTED["check-raise-out-of-turn"] = frozenset({"betting.10"})
RULED_AGAIN = {"check-raise-out-of-turn": "betting.10"}
EXPECTED["extra-card"] = frozenset({"holdem.5", "irregularity.11"})
EXPECTED["card-into-another-hand"] = frozenset({"dead-hand.3"})
EXPECTED["exposed-tap"] = frozenset()       # a flashed card is ruled at info: nothing for the dealer to do
# wrong chip pushes, each with its remedy carried out (tests/faults/wrong_push.py, issue 31)
MUTATIONS.update(PUSH_FAULTS)
EXPECTED.update(dict.fromkeys(PUSH_FAULTS, frozenset({"showdown.3"})))
INFO_EXPECTED = {"exposed-tap": "irregularity.12", "card-dropped": "irregularity.14",
                 "card-after-the-hand": "procedures.23", "deck-short": "irregularity.10",
                 "folded-card-on-board": "irregularity.12"}
CARD_KINDS = ("boxed-card", "duplicate-card", "other-deck", "joker", "out-of-sequence", "first-card-wrong-seat",
              "premature-flop")
CHIP_KINDS = ("string-raise", "short-call", "foreign-chip", "unknown-chip", "small-chip")
OUTCOME = {"played": "complete", "misdeal": "misdeal", "void": "void"}
# a chip below the smallest that plays needs a game whose smallest chip is not the enrolment's smallest
GAME = {"small-chip": {"smallest_chip": 5, "small_blind": 5, "big_blind": 10, "small_bet": 10, "big_bet": 20,
                       "buy_in": 1000}}


class Cascade(AssertionError):
    """A hand broke the property: the wrong rule at the fault, a second loud finding, or wrong stacks."""


@dataclass
class HandReport:
    kind: str
    reached: bool          # the fault's chance came up in this hand
    at_fault: list[str]
    elsewhere: list[tuple[float, str, str]]     # (t, rule, ruling) of every later finding above info
    outcome: str | None
    stacks_ok: bool


def feed(pipe: Pipeline, encoder: p.Encoder, hand: SimulatedHand) -> list[TableEvent]:
    """One simulated hand through the Pipeline: frames as bytes, taps as the dealer's inputs."""
    events: list[TableEvent] = []
    for t, m in hand.messages:
        if isinstance(m, ev.DealerInput):
            events += pipe.feed_input(m)
        else:
            events += pipe.feed_bytes(t, encoder.encode(m))
    return events


def judge(kind: str, hand: SimulatedHand, events: list[TableEvent], reached: bool) -> HandReport:
    exp = hand.expected
    loud = [e for e in events if e.kind == "FindingRaised" and e.severity in LOUD]
    ended = [e for e in events if e.kind == "HandEnded"]
    at_fault: list[str] = []
    elsewhere = [(e.t, e.rule, e.ruling) for e in loud]
    if kind in INFO_EXPECTED and reached:
        reached = any(e.kind == "FindingRaised" and e.rule == INFO_EXPECTED[kind] for e in events)
        if not reached:
            elsewhere.append((0.0, INFO_EXPECTED[kind], "the fault was not ruled at all"))
    elif reached and loud:
        first = loud[0].t
        # a misdealt deal is one fault however many cards it took (two extra cards: the first is ruled the
        # burn card, the second makes it a misdeal): its rulings, up to the misdeal, are the fault's
        last = ended[0].t if kind in REDEALT and ended and ended[0].outcome == "misdeal" else first
        fault = [e for e in loud if e.t == first or first <= e.t <= last and e.rule in EXPECTED[kind]]
        at_fault = [e.rule for e in fault]
        elsewhere = [(e.t, e.rule, e.ruling) for e in loud if e not in fault]
        if kind in RULED_AGAIN:     # the fault's second ruling, exactly once, later in the hand
            again = [x for x in elsewhere if x[1] == RULED_AGAIN[kind]][:1]
            at_fault += [x[1] for x in again]
            elsewhere = [x for x in elsewhere if x not in again] or (
                [] if again else [(first, RULED_AGAIN[kind], "the fault's second ruling was not raised")])
    if kind in REDEALT and reached:
        # the misdeal gives every chip back, then the redeal is the clean hand
        misdealt = len(ended) == 2 and ended[0].outcome == "misdeal" and \
            {s: ended[0].stacks.get(s) for s in exp.stacks_before} == exp.stacks_before
        ended = ended[1:] if misdealt else []
    outcome = ended[0].outcome if len(ended) == 1 else None
    stacks_ok = outcome is not None and {s: ended[0].stacks.get(s) for s in exp.stacks} == exp.stacks
    return HandReport(kind, reached, at_fault, elsewhere, outcome, stacks_ok)


def check(report: HandReport, hand: SimulatedHand, where: tuple) -> None:
    """Raise Cascade unless the hand keeps the property."""
    exp = hand.expected
    if report.reached and EXPECTED[report.kind] and (not report.at_fault or
                                                      not set(report.at_fault) <= EXPECTED[report.kind]):
        raise Cascade(f"{where}: at the fault {report.at_fault}, expected one of {sorted(EXPECTED[report.kind])}")
    if report.elsewhere:
        raise Cascade(f"{where}: findings after the fault's ruling: {report.elsewhere}")
    if report.outcome != OUTCOME[exp.outcome]:
        raise Cascade(f"{where}: hand ended {report.outcome}, the remedy implies {OUTCOME[exp.outcome]}")
    if not report.stacks_ok:
        raise Cascade(f"{where}: stacks differ from the remedy's {exp.stacks}")


def carry_on(sim: Simulator, remedied: dict[int, int]) -> None:
    """The simulated table takes the stacks the remedy left (``remedied``) in place of its clean hand's (the
    simulator's own, ``sim.stacks``), so its next hands start where the engine's do: a seat the remedy took chips
    from hands them to the rack, a seat it gave chips to is paid from the rack."""
    chips = sim.chips
    for seat, stack in remedied.items():
        delta = stack - sim.stacks[seat]
        if delta < 0:
            for uid in chips.pay(seat, -delta):
                chips.bank.setdefault(chips.value[uid], []).append(uid)
        elif delta > 0:
            chips.fill(seat, delta)
        sim.stacks[seat] = stack


def run(kinds: tuple[str, ...], hands: int, seed: int, variants: tuple[str, ...] = VARIANTS,
        stats: Counter | None = None) -> Counter:
    """``hands`` hands per fault class and variant, each with that fault staged; raises Cascade at the first
    hand that breaks the property. Stats: hands, reached and judged per class, seat counts, outcomes, the hands
    checked after a CARRIED_ON class's remedy, the info rulings of the showdown (SPLIT_INFO, SHOWDOWN_INFO) and the tied
    pots whose odd chip was checked (tests/faults/odd_chip.py)."""
    stats = Counter() if stats is None else stats
    registry = demo_registry()
    for variant in variants:
        for kind in kinds:
            config = from_dict({"game": {"variant": variant, **GAME.get(kind, {})}, "table": {"seats": SEATS}})
            fed, chunk = 0, 0
            while fed < hands:
                count = min(CHUNK, hands - fed)
                mutate = MUTATIONS.get(kind)
                rng = random.Random(f"{seed}-{variant}-{kind}-{chunk}")
                sim = Simulator(config, registry, seed=f"{seed}-{variant}-{kind}-{chunk}",
                                irregularities=0.0 if mutate else [kind] * count)
                pipe, encoder = Pipeline(config, registry), p.Encoder()
                pipe.feed_bytes(0.0, encoder.encode(board_hello(SEATS)))
                late = 0.0      # how much later than the simulator's clock the staged hands have run
                following = 0   # clean hands still to check after a CARRIED_ON class's remedy (not counted in fed)
                carried: dict[int, int] = {}    # the stacks the last hand ended with, once a remedy moved chips
                played = 0
                for hand in sim.play():
                    played += 1
                    fed += 0 if following else 1
                    if late:
                        hand = SimulatedHand(hand.number, [replace(x, t=x.t + late) for x in hand.inputs],
                                             hand.expected)
                    reached = hand.expected.irregularity is not None
                    if following:
                        reached = False
                        # the hand after the remedy starts from its stacks (a seat left with none buys in again)
                        started = {s: carried[s] for s in hand.expected.stacks_before if carried.get(s)}
                        if {s: hand.expected.stacks_before[s] for s in started} != started:
                            raise Cascade(f"{(variant, kind, seed, chunk, hand.number)}: the hand after the remedy "
                                          f"starts {hand.expected.stacks_before}, the remedy left {carried}")
                        carried = {}
                    elif mutate is not None:
                        staged = mutate(hand, rng)
                        reached = staged is not None
                        if isinstance(staged, tuple):   # the remedy moved chips: the stacks it implies
                            staged, stacks = staged
                            hand = SimulatedHand(hand.number, staged, replace(hand.expected, stacks=stacks))
                        elif staged is not None:
                            late += max(0.0, staged[-1].t - hand.inputs[-1].t)    # a redeal takes longer
                            hand = SimulatedHand(hand.number, staged, hand.expected)
                    events = feed(pipe, encoder, hand)
                    report = judge(kind, hand, events, reached)
                    stats["hands"] += 1
                    for e in events:
                        if e.kind == "FindingRaised" and e.rule in SPLIT_INFO + SHOWDOWN_INFO:
                            stats[f"info {e.rule}"] += 1
                    stats[f"seats {len(hand.expected.dealt_in)}"] += 1
                    if not report.reached and not following:
                        stats[f"not reached {kind}"] += 1
                    where = (variant, kind, seed, chunk, hand.number)
                    check(report, hand, where)
                    try:
                        check_odd_chips(hand, events, config.game.smallest_chip, stats, where)
                    except OddChipMisplaced as e:
                        raise Cascade(str(e)) from None
                    if following:
                        following -= 1
                        stats[f"hands after {kind}"] += 1
                    if report.reached:
                        stats[f"injected {kind}"] += 1
                        stats[f"outcome {report.outcome}"] += 1
                    if reached and kind in CARRIED_ON:
                        # the simulated table's stacks become the remedy's; the next hands are checked from them
                        carry_on(sim, hand.expected.stacks)
                        carried, following = dict(hand.expected.stacks), FOLLOWING
                    if played >= count and not following:
                        break
                chunk += 1
    return stats
