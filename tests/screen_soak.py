"""Simulated hands for the screen's soak test and bench: a seeded stream of updates (events and snapshots)
as the terminal's bus delivers them, every hand different (stacks, bets, board, hole cards shown, now and
then a finding), and a count of what the Screen holds on to."""

from __future__ import annotations

import gc
import random
import types
from collections.abc import Iterator

import pygame

from dealerbox.engine import events as te
from dealerbox.engine.state import FindingView, SeatView, TableState
from dealerbox.runtime.bus import Update

HEALTH = {"reader": {"connected": True, "seq_gaps": 0, "heartbeat_age_s": 0.4},
          "floor": {"connected": True, "outbox_depth": 0}}
RANKS, SUITS = "23456789TJQKA", "cdhs"


def hands(n: int, seed: int = 1, seats: int = 9, start: int = 1) -> Iterator[list[Update]]:
    """``n`` hands, each as the few updates the screen gets for it: pre-flop, flop, showdown, ended."""
    rng = random.Random(seed)
    stacks = {s: rng.randrange(100, 5000) for s in range(1, seats + 1)}
    t = 0.0
    for hand in range(start, start + n):
        t += 60.0
        deck = [r + s for r in RANKS for s in SUITS]
        rng.shuffle(deck)
        button = hand % seats + 1
        dealt = tuple(sorted(stacks))
        bets = {s: rng.choice((0, 2, 5, 10, rng.randrange(1, 400))) for s in dealt}
        for s in dealt:
            stacks[s] = max(1, stacks[s] - bets[s])
        board = tuple(deck[:5])
        winners = tuple(sorted(rng.sample(dealt, rng.choice((1, 1, 1, 2)))))
        pot = sum(bets.values())
        finding = None
        if hand % 7 == 0:
            finding = FindingView(f"h{hand}-1", "holdem.1", "Hold'em 1", rng.choice(("dealer", "floor", "info")),
                                  "card-replaced", f"Hand {hand}: a hole card was exposed; replace it.",
                                  seats=(rng.choice(dealt),), cards=(deck[9],))

        # this hand's facts bound now: view() is called while the hand is built, below
        def view(phase: str, *, hand: int = hand, deck: list[str] = deck, dealt: tuple[int, ...] = dealt,
                 bets: dict[int, int] = bets, button: int = button, **extra) -> TableState:
            seat_views = tuple(SeatView(s, occupied=True, stack=stacks[s], bet=bets[s] if phase == "preflop" else 0,
                                        in_hand=True, cards_held=2,
                                        shown=tuple(deck[10 + 2 * s:12 + 2 * s]) if phase == "showdown" else ())
                               for s in dealt)
            return TableState(hand=hand, phase=phase, game="nlhe", button=button, deck_id="SOAK", seats=seat_views,
                              **extra)

        started = [te.HandStarted(t, hand, button, dealt, "nlhe")] + \
            [te.ActionTaken(t + 1, hand, s, "bet" if bets[s] else "check", bets[s], bets[s], "preflop") for s in dealt]
        flop = [te.BoardCardDealt(t + 2, hand, "flop", c) for c in board[:3]]
        if finding is not None:
            flop.append(te.FindingRaised(t + 2, hand, finding.id, finding.rule, finding.citation, finding.severity,
                                         finding.outcome, finding.ruling, finding.seats, finding.cards))
        award = te.Pot(pot, dealt, winners, {w: pot // len(winners) for w in winners})
        for w in winners:
            stacks[w] += pot // len(winners)
        ended = [te.HandShown(t + 3, hand, s, tuple(deck[10 + 2 * s:12 + 2 * s]), "High card") for s in dealt] + \
            [te.PotAwarded(t + 4, hand, 0, award), te.HandEnded(t + 5, hand, "complete", (award,), dict(stacks), board)]
        if finding is not None:
            ended.append(te.FindingAcknowledged(t + 5, hand, finding.id))
        findings = (finding,) if finding is not None else ()
        yield [Update(tuple(started), view("preflop", pot=0, to_act=dealt[0]), HEALTH),
               Update(tuple(flop), view("flop", board=board[:3], pot=pot, findings=findings), HEALTH),
               Update((), view("showdown", board=board, pot=pot, winners={w: pot // len(winners) for w in winners},
                               findings=findings), HEALTH),
               Update(tuple(ended), view("ended", board=board), HEALTH)]


def held(root: object) -> tuple[int, int, int]:
    """(objects, pygame surfaces, bytes of their pixels) reachable from ``root``, not counting modules,
    classes and functions (shared code, not state)."""
    seen: set[int] = set()
    stack = [root]
    objects = surfaces = pixels = 0
    skip = (types.ModuleType, type, types.FunctionType, types.BuiltinFunctionType, types.MethodType)
    while stack:
        obj = stack.pop()
        if id(obj) in seen or isinstance(obj, skip):
            continue
        seen.add(id(obj))
        objects += 1
        if isinstance(obj, pygame.Surface):
            surfaces += 1
            pixels += obj.get_pitch() * obj.get_height()
        stack.extend(gc.get_referents(obj))
    return objects, surfaces, pixels
