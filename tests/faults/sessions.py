"""Faults that span hands (issue 18): sessions of several clean simulated hands through the real Pipeline, one
fault injected between or in one hand of the session, and the property checked over the whole session, not just
the hand: the expected rule at the moment of the fault, nothing else above ``info`` for the rest of that hand
AND every following hand of the session, and every hand ending with the stacks the remedy implies (pokerkit's,
hand after hand, because each remedy here restores the clean play).

A class is a function that, given the simulator between two hands (``before`` the hand numbered ``at``), makes
the fault happen in that hand; ``EXPECTED`` names the rules its ruling may carry (empty: the class is a near miss
that must stay quiet). ``SESSION`` hands per session; the fault comes at a random hand of it, never the first
(the first loads the shoe and seats the table).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable

from dealerbox.config import from_dict
from dealerbox.pipeline import Pipeline
from dealerbox.sources.choreography import board_hello
from dealerbox.sources.simulator import Simulator
from dealerbox.tags import demo_registry
from dealerbox.wire import protocol as p
from tests.faults.table_run import LOUD, OUTCOME, SEATS, VARIANTS, Cascade, feed

SESSION = 6


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


# fault class -> how it is made between two hands (True: it was made for the hand about to be played)
CLASSES: dict[str, Callable[[Simulator, int, int], bool]] = {
    "deck-changed-early": deck_changed_early, "deck-changed-after-a-round": deck_changed_after_a_round,
    "kill-not-posted": at_a_kill_table, "half-kill-not-posted": at_a_kill_table}
# the rules its ruling may carry (empty: a near miss, quiet)
EXPECTED: dict[str, frozenset[str]] = {
    "deck-changed-early": frozenset({"procedures.21"}),
    "deck-changed-after-a-round": frozenset(),
    "kill-not-posted": frozenset({"kill.6"}), "half-kill-not-posted": frozenset({"kill.6"})}
# classes whose fault the table's own play brings about, in any hand: each hand is judged on its own
STANDING = {"kill-not-posted", "half-kill-not-posted"}
# longer sessions: a near miss that needs the deck to play a full round first, kills that need two pots won in a row
LENGTH = {"deck-changed-after-a-round": 14, "kill-not-posted": 12, "half-kill-not-posted": 12}
GAME = {"kill-not-posted": {"kill": "full"}, "half-kill-not-posted": {"kill": "half", "kill_qualifier": 4}}


def play_session(kind: str, variant: str, seed: str, stats: Counter) -> None:
    """One session of SESSION hands at a fresh table with ``kind`` injected at one random hand after the first;
    raises Cascade at the first breach of the property."""
    rng = random.Random(seed)
    config = from_dict({"game": {"variant": variant, **GAME.get(kind, {})}, "table": {"seats": SEATS}})
    registry = demo_registry()
    sim = Simulator(config, registry, seed=seed, irregularities=0.0)
    pipe, encoder = Pipeline(config, registry), p.Encoder()
    pipe.feed_bytes(0.0, encoder.encode(board_hello(SEATS)))
    at = rng.randint(2, SESSION)
    length = LENGTH.get(kind, SESSION)
    injected, deck_hands, after = False, 0, 0
    hands = sim.play(length)
    for number in range(1, length + 1):
        if not injected and number >= at:
            injected = CLASSES[kind](sim, number, deck_hands)
            at = number     # a near miss waits for its moment: it is made at the first hand it fits
        hand = next(hands)
        deck_hands = 1 if injected and number == at else deck_hands + 1
        events = feed(pipe, encoder, hand)
        where = (variant, kind, seed, hand.number)
        loud = [e for e in events if e.kind == "FindingRaised" and e.severity in LOUD]
        if kind in STANDING and loud:
            at, injected = number, True     # the table's play made the fault in this hand
        if injected and number == at:
            stats[f"injected {kind}"] += 1
            after = 0
        elif injected:
            after += 1
        if injected and number == at and EXPECTED[kind]:
            first = loud[0].t if loud else None
            at_fault = {e.rule for e in loud if e.t == first}
            if not at_fault or not at_fault <= EXPECTED[kind]:
                raise Cascade(f"{where}: at the fault {sorted(at_fault)}, expected {sorted(EXPECTED[kind])}")
            loud = [e for e in loud if e.t != first]
        if loud:
            stage = "the fault's hand" if number == at else ("a later hand" if injected else "a clean hand")
            raise Cascade(f"{where}: findings in {stage}: {[(e.t, e.rule, e.ruling) for e in loud]}")
        ended = [e for e in events if e.kind == "HandEnded"]
        exp = hand.expected
        if len(ended) != 1 or ended[0].outcome != OUTCOME[exp.outcome]:
            raise Cascade(f"{where}: hand ended {[e.outcome for e in ended]}, expected {OUTCOME[exp.outcome]}")
        if {s: ended[0].stacks.get(s) for s in exp.stacks} != exp.stacks:
            raise Cascade(f"{where}: stacks {ended[0].stacks}, the remedy implies {exp.stacks}")
        stats["hands"] += 1
        stats[f"seats {len(exp.dealt_in)}"] += 1
        stats[f"hands after a fault {kind}"] += 1 if injected and number > at else 0
    stats["sessions"] += 1
    if not injected:
        stats[f"not reached {kind}"] += 1


def run(kinds: tuple[str, ...], sessions: int, seed: int, variants: tuple[str, ...] = VARIANTS,
        stats: Counter | None = None) -> Counter:
    """``sessions`` sessions per class and variant; raises Cascade at the first session that breaks the
    property. Stats: sessions, hands, injected per class, hands played after the fault, seat counts."""
    stats = Counter() if stats is None else stats
    for variant in variants:
        for kind in kinds:
            for n in range(sessions):
                play_session(kind, variant, f"{seed}-{variant}-{kind}-{n}", stats)
    return stats
