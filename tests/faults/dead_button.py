"""A dead-button table (issue 31; Blinds 1b): sessions of clean simulated hands through the real Pipeline at a
table configured ``table.button = "dead"``, players leaving and arriving between hands, and the property over the
whole session: nothing above ``info``, every hand ending with pokerkit's stacks, and our own referee
(tests/faults/referee/, which places the button and blinds from the rule text) agreeing hand after hand on the
button, who is dealt in, the posts, the pots and the stacks.

Blinds 1b rules nothing of its own: the engine says at ``info`` where it puts the blinds when the dead button
makes a difference (no small blind, or the button before an empty seat). The leaves are what make it: before a
random hand, the player who had last hand's big blind leaves (the next small blind is dead: nobody sits in its
place) or the one who had the small blind (the next button stands before the empty seat), while four or more
players remain (three or more play on: heads-up is Blinds 3's, not 1b's). A new player arrives now and then in
an empty seat well after the next big blind (posting a big blind where they sit, dealt in at once: Blinds 4b),
so that the table keeps its players.
"""

from __future__ import annotations

import random
from collections import Counter

from dealerbox.config import from_dict
from dealerbox.sources.simulator import Simulator
from dealerbox.tags import demo_registry
from tests.faults.refereed import RefereedSession
from tests.faults.sessions import check_ended, each_session, feed_answering, hello_table
from tests.faults.table_run import LOUD, SEATS, VARIANTS, Cascade

SESSION = 10
KINDS = ("big-blind-leaves", "small-blind-leaves")
# the info row each class is there to bring about (its test asserts it); nothing above info is ruled
INFO_RULED = {"big-blind-leaves": frozenset({"blinds.1"}), "small-blind-leaves": frozenset({"blinds.1"})}
EXPECTED: dict[str, frozenset[str]] = {kind: frozenset() for kind in KINDS}


def _after(seat: int, among: list[int]) -> int:
    among = sorted(among)
    return next((s for s in among if s > seat), among[0])


def _clockwise(a: int, seat: int) -> int:
    return (seat - a) % SEATS


def leaves(kind: str, sim: Simulator) -> int | None:
    """The class's leave, before the next hand: last hand's big blind (or small blind) gets up, when four or more
    players sit; None when it cannot (no hand played yet, too few players, or its seat already empty)."""
    places = sim.blind_places
    if places is None or len(sim.stacks) < 4 or sim.away.sitting_out:
        return None
    small, big = places
    seat = big if kind == "big-blind-leaves" else small
    if seat not in sim.stacks:
        return None
    sim.unseat(seat)
    return seat


def arrives(sim: Simulator, rng: random.Random) -> int | None:
    """A new player sits in an empty seat after the next hand's big blind and the player after it, and before the
    next button, and posts a big blind where they sit (Blinds 4b: dealt in at once, nowhere near the blinds)."""
    places = sim.blind_places
    if places is None or len(sim.stacks) >= 6 or sim.away.sitting_out:
        return None
    button, last_big = places       # the next button (Blinds 1b), last hand's big blind
    players = sorted(sim.stacks)
    if len(players) < 3:
        return None
    big = _after(last_big, players)
    first = _after(big, players)    # the seat after the big blind: a new player before it would take its place
    empty = [s for s in range(1, SEATS + 1) if s not in sim.stacks
             and _clockwise(first, s) < _clockwise(first, button) and s != first and s != button]
    if not empty:
        return None
    seat = rng.choice(empty)
    sim.seat_player(seat)
    return seat


def play_session(kind: str, variant: str, seed: str, stats: Counter) -> None:
    """One session at a fresh dead-button table, a player of the class's blind leaving before a random hand after
    the first (and each later hand it can, with a chance); raises Cascade at the first breach of the property."""
    rng = random.Random(seed)
    config = from_dict({"game": {"variant": variant}, "table": {"seats": SEATS, "button": "dead"}})
    registry = demo_registry()
    sim = Simulator(config, registry, seed=seed, irregularities=0.0)
    pipe, encoder = hello_table(config, registry)
    referee = RefereedSession(config.game, SEATS, stats, button="dead")    # Blinds 1b from the rule text
    first_leave = rng.randint(2, SESSION // 2)
    hands = sim.play(SESSION)
    left = 0
    for number in range(1, SESSION + 1):
        if number >= first_leave and (not left or rng.random() < 0.4) and leaves(kind, sim) is not None:
            left += 1
            stats[f"left ({kind})"] += 1
        if number > 2 and rng.random() < 0.3 and arrives(sim, rng) is not None:
            stats[f"arrived ({kind})"] += 1
        hand = next(hands)
        events = feed_answering(pipe, encoder, hand)
        referee.check(hand, events)
        where = (variant, kind, seed, hand.number)
        loud = [e for e in events if e.kind == "FindingRaised" and e.severity in LOUD]
        if loud:
            raise Cascade(f"{where}: findings at a dead-button table: {[(e.t, e.rule, e.ruling) for e in loud]}")
        for e in events:
            if e.kind == "FindingRaised" and e.severity == "info":
                stats[f"info {e.rule} ({kind})"] += 1
        ended = [e for e in events if e.kind == "HandEnded"]
        exp = hand.expected
        check_ended(where, ended, exp)
        stats["hands"] += 1
        stats[f"hands after a leave ({kind})"] += left > 0
    stats["sessions"] += 1


def run(kinds: tuple[str, ...], sessions: int, seed: int, variants: tuple[str, ...] = VARIANTS,
        stats: Counter | None = None) -> Counter:
    """``sessions`` sessions per class and variant; raises Cascade at the first session that breaks the property.
    Stats: sessions, hands, leaves and arrivals, the dead small blinds and buttons before an empty seat refereed,
    the info rulings."""
    return each_session(play_session, kinds, sessions, seed, variants, stats)
