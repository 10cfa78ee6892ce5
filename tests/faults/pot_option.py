"""Pot-Limit 6's option, refereed (issue 18): at a pot-limit table with ``game.sb_counts_as_bb`` the small blind
counts as a big blind when the pot is sized before the flop (while it is still the small blind's only wager and
the big blind has not acted), so the most a player may raise is the default pot plus the difference.

pokerkit's pot limit cannot size that pot, so the simulator plays such a table with pokerkit unsized (its
no-limit: the pots, the side pots and the winners are still pokerkit's) and keeps the raises within the
option's pot by its own RaiseRules (dealerbox/sources/raising.py, not the engine's code). ``option_pot_raises``
below is a third, independent count of the same pot, from the referee's account of the hand.

The fault: a raise to the option's pot made with one chip too many (the smallest chip) in the same motion: ruled
``pot-limit.6`` (cut back to the option's pot), the dealer hands the chip back, and the hand plays on as
pokerkit played it: nothing else above ``info``, pokerkit's stacks. The near miss: the clean hands of the same
tables, raising to exactly the option's pot (quiet).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import replace

from dealerbox.config import from_dict
from dealerbox.engine import inputs as ev
from dealerbox.engine.betting.chip_motions import DECLARE_HOLD
from dealerbox.pipeline import Pipeline
from dealerbox.sources.choreography import board_hello
from dealerbox.sources.sim.outcome import Expected, SimulatedHand
from dealerbox.sources.simulator import Simulator
from dealerbox.tags import ChipTag, TagRegistry, demo_registry
from dealerbox.wire import protocol as p
from tests.faults.staged_cards import Inputs
from tests.faults.table_run import LOUD, OUTCOME, SEATS, Cascade, feed

VARIANTS = ("plhe", "plo")
KINDS = ("pot-limit-6-over-the-option", "pot-limit-6-at-the-option")
EXPECTED = {"pot-limit-6-over-the-option": frozenset({"pot-limit.6"}), "pot-limit-6-at-the-option": frozenset()}
HANDS = 16          # hands per simulated table
MOTION_GAP = 0.3    # chips further apart than this are another motion


def option_pot_raises(exp: Expected, small_blind: int, big_blind: int) -> list[tuple[int, int, int]]:
    """(index in ``exp.actions``, seat, raise-to) of each raise before the flop made to exactly the most the
    option allows when that is more than the default sizing allows, the raiser keeping chips behind."""
    order = exp.dealt_in
    small, big = (order[-1], order[0]) if len(order) == 2 else (order[0], order[1])
    wagers = dict(exp.blinds)
    acted: set[int] = set()
    found = []
    for i, (street, seat, kind, to) in enumerate(exp.actions):
        if street != "preflop":
            break
        if kind == "raise":
            cur, before = max(wagers.values()), wagers.get(seat, 0)
            most = cur + sum(wagers.values()) + (cur - before)          # the default pot limit: pot after the call
            extra = big_blind - small_blind if wagers.get(small) == small_blind and big not in acted else 0
            if extra and to == most + extra and exp.stacks_before[seat] > to:
                found.append((i, seat, to))
        if kind != "fold":
            acted.add(seat)
            wagers[seat] = max(wagers.get(seat, 0), to)
    return found


def _motions(inputs: Inputs, zone: str) -> list[list[int]]:
    """Indices of the chips put into ``zone``, grouped by motion."""
    out: list[list[int]] = []
    for i, x in enumerate(inputs):
        if isinstance(x, ev.ZoneEntered) and x.zone == zone and isinstance(x.tag, ChipTag):
            if out and x.t - inputs[out[-1][-1]].t <= MOTION_GAP:
                out[-1].append(i)
            else:
                out.append([i])
    return out


def spare_chip(registry: TagRegistry, house: str, value: int, inputs: Inputs) -> ChipTag:
    """A chip of ``value`` the hand never moves on an antenna (it sits in a stack or the rack)."""
    used = {x.tag.uid for x in inputs if isinstance(getattr(x, "tag", None), ChipTag)}
    uid = next(u for u, v in sorted(registry.chips_of(house).chips.items()) if v == value and u not in used)
    tag = registry.lookup(uid)
    assert isinstance(tag, ChipTag)
    return tag


def over_the_option(hand: SimulatedHand, registry: TagRegistry, house: str, sb: int, bb: int,
                    unit: int, stats: Counter) -> Inputs | None:
    """One raise to the option's pot gets one chip of ``unit`` too many in its motion; a second later the dealer
    hands it back (the ruling's remedy). None when the hand has no such raise with room around its motion."""
    exp = hand.expected
    for i, seat, _ in option_pot_raises(exp, sb, bb):
        earlier = sum(1 for street, s, kind, _ in exp.actions[:i] if s == seat and kind in ("call", "raise"))
        motions = _motions(hand.inputs, f"bet{seat}")
        k = earlier + (1 if seat in exp.blinds else 0)
        if k >= len(motions):
            continue
        last = motions[k][-1]
        inputs = hand.inputs
        t = inputs[last].t
        # a raise said out loud first is complete once the hands rest (No-Limit 8): the chip goes back after
        first = motions[k][0]
        declared = any(isinstance(x, ev.DealerInput) and x.action == "declare-raise" for x in inputs[first - 2:first])
        back = DECLARE_HOLD + 0.4 if declared else 1.2
        if last + 1 < len(inputs) and inputs[last + 1].t - t < back + 0.3:
            continue        # the next motion follows too soon to hand the chip back in between
        chip = spare_chip(registry, house, unit, inputs)
        staged = [ev.ZoneEntered(t + 0.05, f"bet{seat}", chip), ev.ZoneLeft(t + back, f"bet{seat}", chip)]
        stats["the raise said first"] += int(declared)
        return inputs[:last + 1] + staged + inputs[last + 1:]
    return None


def run(kinds: tuple[str, ...], tables: int, seed: int, variants: tuple[str, ...] = VARIANTS,
        stats: Counter | None = None) -> Counter:
    """``tables`` tables of HANDS hands per class and variant, each table playing the option; in the fault class
    every hand that has a raise to the option's pot gets the chip too many. Raises Cascade at the first hand
    that breaks the property. Stats: hands, raises to the option's pot, injected, ruled."""
    stats = Counter() if stats is None else stats
    registry = demo_registry()
    for variant in variants:
        for kind in kinds:
            config = from_dict({"game": {"variant": variant, "sb_counts_as_bb": True}, "table": {"seats": SEATS}})
            g = config.game
            for n in range(tables):
                name = f"{seed}-{variant}-{kind}-{n}"
                sim = Simulator(config, registry, seed=name, irregularities=0.0)
                pipe, encoder = Pipeline(config, registry), p.Encoder()
                pipe.feed_bytes(0.0, encoder.encode(board_hello(SEATS)))
                late = 0.0
                for hand in sim.play(HANDS):
                    if late:
                        hand = SimulatedHand(hand.number, [replace(x, t=x.t + late) for x in hand.inputs],
                                             hand.expected)
                    stats["raises to the option's pot"] += len(option_pot_raises(hand.expected, g.small_blind,
                                                                                 g.big_blind))
                    staged = over_the_option(hand, registry, config.enrolment.house, g.small_blind, g.big_blind,
                                             g.smallest_chip, stats) if EXPECTED[kind] else None
                    if staged is not None:
                        late += staged[-1].t - hand.inputs[-1].t if staged[-1].t > hand.inputs[-1].t else 0.0
                        hand = SimulatedHand(hand.number, staged, hand.expected)
                    judge(kind, hand, feed(pipe, encoder, hand), staged is not None, stats, (variant, kind, name))
    return stats


def judge(kind: str, hand: SimulatedHand, events: list, injected: bool, stats: Counter, where: tuple) -> None:
    exp = hand.expected
    loud = [e for e in events if e.kind == "FindingRaised" and e.severity in LOUD]
    if injected:
        at_fault = [e for e in loud if e.t == loud[0].t] if loud else []
        if not at_fault or {e.rule for e in at_fault} != EXPECTED[kind]:
            raise Cascade(f"{where + (hand.number,)}: at the fault {[e.rule for e in at_fault]}, expected "
                          f"{sorted(EXPECTED[kind])}")
        stats[f"injected {kind}"] += 1
        stats[f"ruled pot-limit.6 ({kind})"] += 1
        loud = loud[len(at_fault):]
    if loud:
        raise Cascade(f"{where + (hand.number,)}: findings {[(e.t, e.rule, e.ruling) for e in loud]}")
    ended = [e for e in events if e.kind == "HandEnded"]
    if len(ended) != 1 or ended[0].outcome != OUTCOME[exp.outcome]:
        raise Cascade(f"{where + (hand.number,)}: hand ended {[e.outcome for e in ended]}")
    if {s: ended[0].stacks.get(s) for s in exp.stacks} != exp.stacks:
        raise Cascade(f"{where + (hand.number,)}: stacks {ended[0].stacks}, pokerkit's {exp.stacks}")
    stats["hands"] += 1
