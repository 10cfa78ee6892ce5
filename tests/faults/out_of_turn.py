"""The check out of turn that is followed by a forbidden raise (issue 31, Betting 10), edited into a clean simulated
hand: a seat taps its check at an earlier check's moment (binding once the checks between are made: nobody bet,
called or raised; its turn passes), then someone bets; at the checker's next turn, where the clean hand has it
call, one more chip goes in with the call, a raise it may not make. The engine rules it ``betting.10`` and the wager
a call; the dealer hands the chip back (the remedy), and the hand goes on as the clean hand, so pokerkit's stacks
still hold."""

from __future__ import annotations

import random

from dealerbox.engine import inputs as ev
from dealerbox.sources.sim.outcome import SimulatedHand
from dealerbox.tags import ChipTag, demo_registry

Inputs = list[ev.EngineInput]
MOTION_GAP = 0.3        # the simulator's chips of one motion arrive closer than this
BACK = 1.2              # the extra chip goes back this long after it went in: after the motion closed and was ruled


def _checks_then_call(hand: SimulatedHand) -> list[tuple[int, int, int]]:
    """(an earlier check, a seat's check, that seat's call) as indices of ``expected.actions``: on one street a check
    with only checks and folds between an earlier check and it (nobody bet, called or raised, so a check tapped at
    the earlier one's moment binds), and the seat's next action on that street a call that leaves it chips behind."""
    acts = hand.expected.actions
    exp = hand.expected
    out = []
    for k, (street, seat, kind, _) in enumerate(acts):
        if kind != "check":
            continue
        later = next((n for n in range(k + 1, len(acts)) if acts[n][1] == seat or acts[n][0] != street), None)
        if later is None or acts[later][0] != street or acts[later][2] != "call":
            continue
        put_in = sum(max([to for st, s, _, to in acts[:later + 1] if s == seat and st == s_street] +
                         ([exp.blinds.get(seat, 0)] if s_street == "preflop" else []), default=0)
                     for s_street in dict.fromkeys(a[0] for a in acts[:later + 1]))
        if exp.stacks_before.get(seat, 0) - put_in < 1:
            continue
        for e in range(k - 1, -1, -1):
            if acts[e][0] != street or acts[e][2] not in ("check", "fold"):
                break
            if acts[e][2] == "check":
                out.append((e, k, later))
    return out


def _spare_chip(inputs: Inputs) -> ChipTag | None:
    """A house chip of the smallest value that the hand never moves on an antenna (it sits in the rack)."""
    used = {x.tag.uid for x in inputs if isinstance(getattr(x, "tag", None), ChipTag)}
    houses = {x.tag.house for x in inputs if isinstance(getattr(x, "tag", None), ChipTag)}
    registry = demo_registry()
    for house in sorted(houses):
        chips = registry.chips_of(house).chips
        free = sorted((v, u) for u, v in chips.items() if u not in used)
        if free:
            tag = registry.lookup(free[0][1])
            return tag if isinstance(tag, ChipTag) else None
    return None


def check_raise_out_of_turn(hand: SimulatedHand, rng: random.Random) -> Inputs | None:
    """A seat's check is tapped at an earlier check's moment, before its turn (Betting 10; only checks and folds
    come between, so it binds), then at that seat's next turn its call carries one chip too many, which the dealer
    hands back once ruled. None when the hand has no such moment with room for it."""
    inputs = hand.inputs
    taps = [i for i, x in enumerate(inputs) if isinstance(x, ev.DealerInput) and x.action == "check"]
    checks = [k for k, a in enumerate(hand.expected.actions) if a[2] == "check"]
    if len(taps) != len(checks):
        return None
    tap_of = dict(zip(checks, taps, strict=True))
    chip = _spare_chip(inputs)
    options = []
    for first, second, _ in _checks_then_call(hand):
        i, j = tap_of[first], tap_of[second]
        seat = hand.expected.actions[second][1]
        if inputs[j].seat != seat or j <= i:
            continue
        zone = f"bet{seat}"
        start = next((n for n in range(j + 1, len(inputs)) if isinstance(inputs[n], ev.ZoneEntered)
                      and inputs[n].zone in (zone, "burn", "board")), None)
        if start is None or inputs[start].zone != zone or not isinstance(inputs[start].tag, ChipTag):
            continue
        last = start
        while (last + 1 < len(inputs) and isinstance(inputs[last + 1], ev.ZoneEntered)
               and inputs[last + 1].zone == zone and inputs[last + 1].t - inputs[last].t <= MOTION_GAP):
            last += 1
        t = inputs[last].t
        if last + 1 < len(inputs) and inputs[last + 1].t - t < BACK + 0.3:
            continue        # the next motion follows too soon to hand the chip back in between
        options.append((i, j, last, zone, t))
    if chip is None or not options:
        return None
    i, j, last, zone, t = rng.choice(options)
    early = ev.DealerInput(inputs[i].t, "check", seat=inputs[j].seat)
    staged = [ev.ZoneEntered(t + 0.05, zone, chip), ev.ZoneLeft(t + BACK, zone, chip)]
    return inputs[:i] + [early] + inputs[i:j] + inputs[j + 1:last + 1] + staged + inputs[last + 1:]
