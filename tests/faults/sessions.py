"""Faults that span hands (issue 18): sessions of several clean simulated hands through the real Pipeline, one
fault injected between or in one hand of the session, and the property checked over the whole session, not just
the hand: the expected rule at the moment of the fault, nothing else above ``info`` for the rest of that hand
AND every following hand of the session, and every hand ending with the stacks the remedy implies (pokerkit's,
hand after hand, because each remedy here restores the clean play).

A class is made in up to four ways: ``CLASSES`` acts on the simulator between two hands (from a random hand of
the session, never the first, which loads the shoe and seats the table, until it fits); ``LATER`` goes on acting
between the later hands (a player coming back); ``EDITS`` edits the hand about to be fed, where the engine's
state says it fits (the kill due); ``STANDING`` names the fault the table's own play brings about in any hand
(a kill due and never posted, a player dealt in owing), with ``REMEDY`` carried out after its hand. ``EXPECTED``
names the rules the fault's ruling may carry (empty: a near miss, quiet from start to end); ``INFO_RULED`` the
info rulings a quiet class is there to bring about. The killed-pot and make-up classes live in
tests/faults/kill_sessions.py; ``SIMULATOR`` keeps the kill-not-posted tables' simulator from posting kills;
``VARIANTS_OF`` deals the split-game kill classes (a scoop forcing the kill, Kill Pots 8) in limit Omaha high-low
whatever variants the run is given.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable
from dataclasses import replace

from dealerbox.config import Config, from_dict
from dealerbox.engine import inputs as ev
from dealerbox.engine.events import HandEnded, QuestionAsked, TableEvent
from dealerbox.engine.betting.questions import ALL_WAGER
from dealerbox.pipeline import Pipeline
from dealerbox.sources.choreography import board_hello
from dealerbox.sources.sim.chips import TableChips
from dealerbox.sources.sim.outcome import Expected, SimulatedHand
from dealerbox.sources.simulator import Simulator
from dealerbox.tags import JOKERS, CardTag, TagRegistry, demo_registry
from dealerbox.wire import protocol as p
from tests.faults import kill_sessions as ks
from tests.faults.refereed import STRUCTURE as REFEREED, RefereedSession
from tests.faults.table_run import LOUD, OUTCOME, SEATS, VARIANTS, Cascade

SESSION = 6
Inputs = list[ev.EngineInput]


def deck_changed_early(sim: Simulator, at: int, dealt: int) -> bool:
    """The dealer swaps the deck before it has played a full round (Procedures 21), with no reason tapped:
    the ruling lets the hand play on. Injected only where the deck has played fewer hands than players."""
    if dealt >= len(sim.stacks):
        return False
    sim.change_deck()
    return True


def deck_changed_after_a_round(sim: Simulator, at: int, dealt: int) -> bool:
    """The near miss: the deck is swapped once it has played a full round; nothing to rule."""
    if dealt < len(sim.stacks):
        return False
    sim.change_deck()
    return True


def at_a_kill_table(sim: Simulator, at: int, dealt: int) -> bool:
    """Nothing to do between hands: at a kill table the simulator never posts a kill, so every kill that falls
    due (a player winning a second pot in a row, Kill Pots 3) is a required kill not posted (Kill Pots 6)."""
    return False


def kill_by_another_seat(hand: SimulatedHand, pipe: Pipeline, registry: TagRegistry,
                         chips: TableChips) -> Inputs | None:
    """In a hand that must be killed, another seat (dealt in, in no blind) puts the kill in before the deal and
    takes it back when told (Kill Pots 11: one kill per deal, and it is not theirs); the seat that must kill
    does not (the simulator plays no killed hand), so the deal brings the standing Kill Pots 6 as well."""
    kill = pipe.engine.betting.kill
    exp = hand.expected
    if kill.due is None or kill.due not in exp.dealt_in:
        return None
    others = [s for s in exp.dealt_in if s != kill.due and s not in exp.blinds]
    inputs = hand.inputs
    first = next((i for i, x in enumerate(inputs) if isinstance(x, (ev.ZoneLeft, ev.CardFaceSensed))
                  and x.zone == "shoe" and isinstance(x.tag, CardTag)), None)
    if not others or not first or inputs[first].t - inputs[first - 1].t < 1.2:
        return None     # nobody to post it, or no room before the deal to put it in and take it back
    amount = kill.amount(pipe.engine.betting.game.big_blind)
    uids = ks.chips_worth(chips, amount)
    if not uids:
        return None
    seat, t = others[0], inputs[first - 1].t + 0.2
    tags = [registry.lookup(uid) for uid in uids]
    put = [ev.ZoneEntered(t + 0.02 * i, f"bet{seat}", tag) for i, tag in enumerate(tags)]
    back = [ev.ZoneLeft(t + 0.6 + 0.02 * i, f"bet{seat}", tag) for i, tag in enumerate(tags)]
    return inputs[:first] + put + back + inputs[first:]


def joker_kept(hand: SimulatedHand, pipe: Pipeline, registry: TagRegistry, chips: TableChips) -> Inputs | None:
    """A joker is dealt in place of a player's hole card and not replaced (Irregularities 8 ruled, its remedy
    missed); the player acts on it (Dead Hands 1e: the hand is dead, its chips stay in). Staged only where the
    player's first action is a check or a call and the next a fold, so the clean hand's chips and cards still
    hold; the real card stays in the stub, and the joker leaves the game at the cleanup."""
    exp = hand.expected
    for seat in exp.dealt_in:
        mine = [i for i, (_, s, _, _) in enumerate(exp.actions) if s == seat]
        if len(mine) < 2 or exp.actions[mine[0]][2] not in ("call", "check") or exp.actions[mine[1]][2] != "fold":
            continue
        # two others still in when it folds, and still able to bet (they act after it): its death (earlier) leaves
        # the rest of the action as it was (a bet made only at the dead seat, the others all in, would not be)
        folded = {s for _, s, kind, _ in exp.actions[:mine[1]] if kind == "fold"}
        acting_after = {s for _, s, _, _ in exp.actions[mine[1] + 1:] if s != seat}
        if len(set(exp.dealt_in) - folded - {seat}) >= 2 and len(acting_after) >= 2:
            break
    else:
        return None
    deck = next(d for d in registry.decks if exp.hole_cards[seat][0] in d.cards.values())
    real = deck.uid_of(exp.hole_cards[seat][0])
    joker = registry.lookup(next(u for u, card in deck.cards.items() if card in JOKERS))
    staged: Inputs = []
    for x in hand.inputs:
        tag = getattr(x, "tag", None)
        if isinstance(tag, CardTag) and tag.uid == real:
            if isinstance(x, ev.ZoneEntered) and x.zone == "shoe":
                continue        # the joker is taken out of the game, not put back into the shoe
            x = replace(x, tag=joker)
        staged.append(x)
    return staged


def sits_out(sim: Simulator, at: int, dealt: int) -> bool:
    """A player (not the button, at a table of three or more) steps away: the blinds pass them by (Blinds 9)."""
    seated = [s for s in sorted(sim.stacks) if s != sim.button and s not in sim.away.sitting_out]
    if len(seated) < 3 or sim.finished:
        return False
    sim.away.sit_out(sim.rng.choice(seated))
    return True


def waits_for_the_big_blind(sim: Simulator, hands_since: int) -> None:
    """Two hands after stepping away, the player asks to be dealt in again at the big blind (owing nothing)."""
    if hands_since == 2:
        for seat in sorted(sim.away.sitting_out):
            sim.away.wait_for_bb(seat)


def comes_back_without_posting(sim: Simulator, hands_since: int) -> None:
    """Two hands after stepping away, the player taps back in and is dealt in without posting what they owe."""
    if hands_since == 2:
        for seat in sorted(sim.away.sitting_out):
            sim.away.back_in(seat)


def under_the_pot_limit_option(sim: Simulator, at: int, dealt: int) -> bool:
    """Nothing to do: the table plays with Pot-Limit 6's option (the small blind counted as a big blind when the
    pot is sized preflop), and every clean hand, sized by pokerkit without it, is within the larger limit."""
    return True


# fault class -> how it is made between two hands (True: it was made for the hand about to be played)
CLASSES: dict[str, Callable[[Simulator, int, int], bool]] = {
    "deck-changed-early": deck_changed_early, "deck-changed-after-a-round": deck_changed_after_a_round,
    "kill-not-posted": at_a_kill_table, "half-kill-not-posted": at_a_kill_table,
    "kill-by-another-seat": at_a_kill_table, "sit-out-and-wait-for-the-big-blind": sits_out,
    "back-in-without-posting": sits_out, "pot-limit-6-option": under_the_pot_limit_option,
    "joker-kept": lambda sim, at, dealt: False, "killed-hands": ks.every_kill_posted,
    "half-killed-hands": ks.every_kill_posted, "killer-splits": ks.killer_splits,
    "short-call-in-a-killed-pot": at_a_kill_table,
    "leg-holder-steps-away": ks.leg_holder_steps_away, "kill-button-misplaced": at_a_kill_table,
    "sit-out-and-make-up": sits_out, "make-up-short": sits_out,
    "new-player-in-a-killed-pot": ks.new_player_at_a_killed_table,
    "scooped-hands": ks.every_kill_posted, "scoop-kill-not-posted": at_a_kill_table,
    "lowball-killed-hands": ks.every_kill_posted, "lowball-kill-after-a-third-card": at_a_kill_table,
    "lowball-kill-short": at_a_kill_table}
# what happens between the later hands of a session, after the class's first move
LATER = {"sit-out-and-wait-for-the-big-blind": waits_for_the_big_blind,
         "back-in-without-posting": comes_back_without_posting, "sit-out-and-make-up": ks.makes_up_the_blinds,
         "make-up-short": ks.makes_up_the_blinds, "killer-splits": ks.stages_the_board_again,
         "new-player-in-a-killed-pot": ks.seats_another_at_a_kill}
# the rules its ruling may carry (empty: a near miss, quiet)
EXPECTED: dict[str, frozenset[str]] = {
    "deck-changed-early": frozenset({"procedures.21"}),
    "deck-changed-after-a-round": frozenset(), "sit-out-and-wait-for-the-big-blind": frozenset(),
    "back-in-without-posting": frozenset(), "pot-limit-6-option": frozenset(),
    "kill-not-posted": frozenset({"kill.6"}), "half-kill-not-posted": frozenset({"kill.6"}),
    "kill-by-another-seat": frozenset({"kill.11"}), "joker-kept": frozenset({"irregularity.8"}),
    "killed-hands": frozenset(), "half-killed-hands": frozenset(), "killer-splits": frozenset(),
    "leg-holder-steps-away": frozenset(),
    "short-call-in-a-killed-pot": frozenset({"kill.9"}), "kill-button-misplaced": frozenset({"kill.1", "kill.3"}),
    "sit-out-and-make-up": frozenset(), "make-up-short": frozenset({"blinds.9"}),
    "new-player-in-a-killed-pot": frozenset(), "scooped-hands": frozenset(),
    "scoop-kill-not-posted": frozenset({"kill.6"}), "lowball-killed-hands": frozenset(),
    "lowball-kill-after-a-third-card": frozenset({"kill.10"}), "lowball-kill-short": frozenset({"kill.10"})}
# rulings a class's hand may carry, once, after its fault's: the standing fault of the table (no kill is ever
# posted); the joker's second ruling, when the player acts on it (which MUST follow)
LATER_IN_THE_HAND = {"kill-by-another-seat": frozenset({"kill.6"}), "joker-kept": frozenset({"dead-hand.1e"})}
MUST_FOLLOW = {"joker-kept"}
# the info rulings a quiet class is there to bring about (its test asserts them): each kill announced at its
# hand's start, for a second leg (Kill Pots 3), a killer who won (7) or split (4); missed blinds made up (Blinds 9)
INFO_RULED = {"killed-hands": frozenset({"kill.3", "kill.7"}), "killer-splits": frozenset({"kill.3", "kill.4"}),
              "half-killed-hands": frozenset({"kill.3", "kill.7"}),
              "leg-holder-steps-away": frozenset({"kill.3"}), "sit-out-and-make-up": frozenset({"blinds.9"}),
              "scooped-hands": frozenset({"kill.8"}), "scoop-kill-not-posted": frozenset({"kill.8"}),
              "lowball-killed-hands": frozenset({"kill.10"})}
# faults made by editing the hand about to be fed (the engine's state before it says whether they fit)
EDITS = {"kill-by-another-seat": kill_by_another_seat, "joker-kept": joker_kept,
         "short-call-in-a-killed-pot": ks.short_call_in_a_killed_pot,
         "kill-button-misplaced": ks.kill_button_misplaced, "make-up-short": ks.make_up_short,
         "lowball-kill-after-a-third-card": ks.lowball_kill_after_a_third_card,
         "lowball-kill-short": ks.lowball_kill_short}
# classes whose table's own play brings about a fault in any hand (the rules it may carry): each hand is judged
# on its own
STANDING = {"kill-not-posted": frozenset({"kill.6"}), "half-kill-not-posted": frozenset({"kill.6"}),
            "kill-by-another-seat": frozenset({"kill.6"}), "back-in-without-posting": frozenset({"blinds.10"}),
            "new-player-in-a-killed-pot": frozenset({"kill.12"}), "scoop-kill-not-posted": frozenset({"kill.6"})}


def waits_for_the_big_blind_instead(sim: Simulator, seats: tuple[int, ...]) -> None:
    """The remedy of Blinds 10 after the hand: the seat still owes; rather than post it next deal (dead money
    the referee cannot play), the player takes the other way Blinds 9 gives, and waits for the big blind."""
    for seat in seats:
        sim.away.sit_out(seat)
        sim.away.wait_for_bb(seat)


# the remedy the session's later hands carry out, after the standing fault's ruling
REMEDY = {"back-in-without-posting": waits_for_the_big_blind_instead}
# standing faults that may be ruled in one hand of the session only: a second ruling is a cascade across hands
ONCE = {"back-in-without-posting"}
# longer sessions: a near miss that needs the deck to play a full round first, kills that need two pots won in a row
LENGTH = {"deck-changed-after-a-round": 14, "kill-not-posted": 12, "half-kill-not-posted": 12,
          "kill-by-another-seat": 12, "sit-out-and-wait-for-the-big-blind": 12,
          "back-in-without-posting": 12, "joker-kept": 8, "killed-hands": 16, "half-killed-hands": 16,
          "killer-splits": 16,
          "short-call-in-a-killed-pot": 16, "leg-holder-steps-away": 12, "sit-out-and-make-up": 12,
          "make-up-short": 12, "new-player-in-a-killed-pot": 16, "scooped-hands": 16, "scoop-kill-not-posted": 16,
          "lowball-killed-hands": 10, "lowball-kill-after-a-third-card": 8, "lowball-kill-short": 8}
# how each class's simulator plays: the kill-not-posted tables leave every due kill unposted
SIMULATOR = {"kill-not-posted": {"post_kills": False}, "half-kill-not-posted": {"post_kills": False},
             "kill-by-another-seat": {"post_kills": False}, "scoop-kill-not-posted": {"post_kills": False}}
# the game each class's table plays (besides the variant)
LOWBALL_KILL = {"kill": "full", "lowball_kill": True}
GAME = {"pot-limit-6-option": {"sb_counts_as_bb": True}, "kill-not-posted": {"kill": "full"},
        "kill-by-another-seat": {"kill": "full"}, "half-kill-not-posted": {"kill": "half", "kill_qualifier": 4},
        "killed-hands": {"kill": "full"}, "killer-splits": {"kill": "full"},
        "half-killed-hands": {"kill": "half", "kill_qualifier": 4},
        "short-call-in-a-killed-pot": {"kill": "full"}, "leg-holder-steps-away": {"kill": "full"},
        "kill-button-misplaced": {"kill": "full"}, "new-player-in-a-killed-pot": {"kill": "full"},
        "scooped-hands": {"kill": "full"}, "scoop-kill-not-posted": {"kill": "full"},
        "lowball-killed-hands": LOWBALL_KILL, "lowball-kill-after-a-third-card": LOWBALL_KILL,
        "lowball-kill-short": {**LOWBALL_KILL, "buy_in": 40}}
# the split-game classes deal limit Omaha high-low: a scoop of a big pot forces the kill (Kill Pots 8), not legs
# lowball's optional kill (Kill Pots 10) is dealt at limit deuce-to-seven triple draw with the house option on; the
# short-stack class buys in small, so that some stacks hold fewer than four kills
VARIANTS_OF = {"scooped-hands": ("o8",), "scoop-kill-not-posted": ("o8",), "lowball-killed-hands": ("27td",),
               "lowball-kill-after-a-third-card": ("27td",), "lowball-kill-short": ("27td",)}


def feed_answering(pipe: Pipeline, encoder: p.Encoder, hand: SimulatedHand) -> list[TableEvent]:
    """One hand through the Pipeline, the dealer answering the one question a returning player's chips raise
    (Blinds 9/10: is the dead blind owed among them?): all of it played, as the simulated player meant it; the
    dead blind is owed next deal."""
    events: list[TableEvent] = []
    for t, m in hand.messages:
        out = pipe.feed_input(m) if isinstance(m, ev.DealerInput) else pipe.feed_bytes(t, encoder.encode(m))
        events += out
        for q in out:
            if isinstance(q, QuestionAsked) and q.rule == "blinds.9":
                events += pipe.feed_input(ev.DealerInput(t, "answer", ref=q.id, choice=ALL_WAGER))
    return events


def hello_table(config: Config, registry: TagRegistry) -> tuple[Pipeline, p.Encoder]:
    """A fresh Pipeline for ``config`` that has heard the board say hello, and the encoder that speaks for the
    board: where every session starts."""
    pipe, encoder = Pipeline(config, registry), p.Encoder()
    pipe.feed_bytes(0.0, encoder.encode(board_hello(SEATS)))
    return pipe, encoder


def check_ended(where: tuple, ended: list[HandEnded], exp: Expected, whose: str = "pokerkit's") -> None:
    """Raises Cascade unless the hand ended once, as ``exp`` says, with its stacks (``whose``: where they come
    from, pokerkit or the fault's remedy)."""
    if len(ended) != 1 or ended[0].outcome != OUTCOME[exp.outcome]:
        raise Cascade(f"{where}: hand ended {[e.outcome for e in ended]}, expected {OUTCOME[exp.outcome]}")
    if {s: ended[0].stacks.get(s) for s in exp.stacks} != exp.stacks:
        raise Cascade(f"{where}: stacks {ended[0].stacks}, {whose} {exp.stacks}")


def play_session(kind: str, variant: str, seed: str, stats: Counter) -> None:
    """One session of SESSION hands at a fresh table with ``kind`` injected at one random hand after the first;
    raises Cascade at the first breach of the property."""
    rng = random.Random(seed)
    config = from_dict({"game": {"variant": variant, **GAME.get(kind, {})}, "table": {"seats": SEATS}})
    registry = demo_registry()
    sim = Simulator(config, registry, seed=seed, irregularities=0.0, **SIMULATOR.get(kind, {}))
    pipe, encoder = hello_table(config, registry)
    # our own referee, beside pokerkit (issue 31), where it knows the game (not draw games: pokerkit's alone)
    referee = RefereedSession(config.game, SEATS, stats) if variant in REFEREED else None
    at = rng.randint(2, SESSION)
    length = LENGTH.get(kind, SESSION)
    injected, deck_hands, ruled_once, made = False, 0, False, 0
    gone: set[int] = set()      # seats that stepped away and are not yet dealt in again
    hands = sim.play(length)
    for number in range(1, length + 1):
        if injected and kind in LATER:
            LATER[kind](sim, number - made)
        if not injected and number >= at:
            injected = CLASSES[kind](sim, number, deck_hands)
            at = made = number     # a near miss waits for its moment: it is made at the first hand it fits
        hand = next(hands)
        # a class made by an edit carries its rulings in the edited hand only (its move between hands is quiet)
        expected = EXPECTED[kind] if injected and number == at and kind not in EDITS else frozenset()
        due = pipe.engine.betting.kill.due     # the seat that must kill this hand, if any
        edited = EDITS[kind](hand, pipe, registry, sim.chips) if kind in EDITS else None
        if edited is not None:
            hand = SimulatedHand(hand.number, edited, hand.expected)
            at, injected, expected = number, True, EXPECTED[kind]
        deck_hands = 1 if injected and number == at else deck_hands + 1
        events = feed_answering(pipe, encoder, hand)
        if referee is not None:
            referee.check(hand, events)
        stats["dealer questions answered"] += sum(1 for e in events if isinstance(e, QuestionAsked))
        for e in events:
            if e.kind == "FindingRaised" and e.severity == "info":
                stats[f"info {e.rule} ({kind})"] += 1
        where = (variant, kind, seed, hand.number)
        loud = [e for e in events if e.kind == "FindingRaised" and e.severity in LOUD]
        if kind in STANDING and loud and not expected:
            # the table's play made its standing fault in this hand (a kill due and not posted, a player back)
            if kind in ONCE and ruled_once:
                raise Cascade(f"{where}: {kind} ruled again in a later hand: {[(e.rule, e.ruling) for e in loud]}")
            ruled_once = kind in ONCE
            at, injected, expected = number, True, STANDING[kind]
            if kind in REMEDY:
                REMEDY[kind](sim, loud[0].seats)
            stats[f"standing fault {kind}" if kind in EDITS else f"injected {kind}"] += 1
            if due is not None and due in hand.expected.blinds:
                stats[f"kill posted short: only the blind ({kind})"] += 1     # a killer in a blind seat
        elif expected:
            stats[f"injected {kind}"] += 1
        if expected:
            first = loud[0].t if loud else None
            at_fault = {e.rule for e in loud if e.t == first}
            if not at_fault or not at_fault <= expected:
                raise Cascade(f"{where}: at the fault {sorted(at_fault)}, expected {sorted(expected)}")
            for rule in at_fault:
                stats[f"ruled {rule} ({kind})"] += 1
            loud = [e for e in loud if e.t != first]
            later = [e for e in loud if e.rule in LATER_IN_THE_HAND.get(kind, ())]
            if len(later) > 1 or kind in MUST_FOLLOW and not later:
                raise Cascade(f"{where}: {[e.rule for e in later]} after the fault, expected one of "
                              f"{sorted(LATER_IN_THE_HAND[kind])}")
            for e in later:
                stats[f"ruled {e.rule} ({kind})"] += 1
            loud = [e for e in loud if e not in later]
        elif injected and number == at:
            stats[f"injected {kind}"] += 1      # a near miss: quiet
        if loud:
            stage = "the fault's hand" if number == at else ("a later hand" if injected else "a clean hand")
            raise Cascade(f"{where}: findings in {stage}: {[(e.t, e.rule, e.ruling) for e in loud]}")
        ended = [e for e in events if e.kind == "HandEnded"]
        exp = hand.expected
        check_ended(where, ended, exp, "the remedy implies")
        stats["hands"] += 1
        stats[f"seats {len(exp.dealt_in)}"] += 1
        if kind in LATER:
            back = gone & set(exp.dealt_in)
            stats[f"back in play ({kind})"] += len(back)
            gone = (gone - back) | sim.away.sitting_out
        stats[f"hands after a fault {kind}"] += 1 if injected and number > at else 0
    stats["sessions"] += 1
    if not injected:
        stats[f"not reached {kind}"] += 1


def run(kinds: tuple[str, ...], sessions: int, seed: int, variants: tuple[str, ...] = VARIANTS,
        stats: Counter | None = None) -> Counter:
    """``sessions`` sessions per class and variant; raises Cascade at the first session that breaks the
    property. Stats: sessions, hands, injected per class, hands played after the fault, seat counts."""
    return each_session(play_session, kinds, sessions, seed, variants, stats)


def each_session(play: Callable[[str, str, str, Counter], None], kinds: tuple[str, ...], sessions: int, seed: int,
                 variants: tuple[str, ...], stats: Counter | None) -> Counter:
    """``play`` (a harness' play_session) run for every variant, class and session number, each with its own seed
    string, so one failing session can be played again alone."""
    stats = Counter() if stats is None else stats
    for kind in kinds:
        for variant in VARIANTS_OF.get(kind, variants):
            for n in range(sessions):
                play(kind, variant, f"{seed}-{variant}-{kind}-{n}", stats)
    return stats
