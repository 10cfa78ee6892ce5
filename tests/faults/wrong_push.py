"""Wrong chip pushes (issue 31): the simulated dealer pushes chips where the cards do not send them, then carries out
the ruling's remedy (the chips pulled back into the pot and pushed to the seat they belong to). Made on the
simulator's clean hands by editing the chip motions of the push, so the hand's account (pokerkit's stacks) still
holds once the remedy is done; tests/faults/table_run.py plays them through the real Pipeline and checks
``showdown.3`` at the wrong push, nothing above ``info`` after it in the hand or the next hands, and the stacks.

- ``wrong-push-to-a-loser``: a pot's share pushed to a seat that wins nothing (usually the whole pot);
- ``wrong-push-side-pot``: a side pot's share (all of it, or all but a chip) pushed to the all-in player who won
  the main pot and cannot win it;
- ``wrong-push-uncalled``: the uncalled part of a bet gathered into the pot instead of going back, then pushed
  with the pot to its winner; the remedy gives it back to its bettor;
- ``wrong-push-split``: a pot split between winners paid unevenly: part of one winner's share pushed to another.

A push edit needs a hand whose push allows it (a loser, a side pot the main pot's winner cannot win, an uncalled
bet, a split pot): other hands are left clean (``None``).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, replace

from dealerbox.engine import inputs as ev
from dealerbox.sources.sim.outcome import SimulatedHand
from dealerbox.tags import ChipTag

Inputs = list[ev.EngineInput]
PULL = 0.8          # the remedy starts this long after the wrong push landed
TRAVEL = 0.4        # a chip's travel from one zone to another
REMEDY = 3.0        # what the remedy adds to the hand: everything after it comes this much later


@dataclass
class Sweep:
    """Chips pushed from the pot into one bet zone in one motion: the inputs' indices of their arrivals."""
    seat: int
    pot: int                 # the index of the pot (``Expected.pots``) they are a share of
    arrivals: list[int]

    def chips(self, inputs: Inputs) -> list[ChipTag]:
        out = []
        for i in self.arrivals:
            tag = inputs[i].tag
            assert isinstance(tag, ChipTag)
            out.append(tag)
        return out


def sweeps(hand: SimulatedHand) -> list[Sweep] | None:
    """The push of the hand, sweep by sweep, each named with its pot and seat as the simulator pushed them (per pot,
    per seat with a share); None when the chip motions do not read as that push."""
    inputs = hand.inputs
    last_left: dict[str, str] = {}       # chip uid -> the zone it last left
    runs: list[tuple[str, list[int]]] = []
    for i, x in enumerate(inputs):
        if isinstance(x, ev.ZoneLeft) and isinstance(x.tag, ChipTag):
            last_left[x.tag.uid] = x.zone
        elif isinstance(x, ev.ZoneEntered) and isinstance(x.tag, ChipTag):
            pushed = x.zone.startswith("bet") and last_left.get(x.tag.uid) == "pot"
            if pushed and runs and runs[-1][0] == x.zone and runs[-1][1][-1] == i - 1:
                runs[-1][1].append(i)
            elif pushed:
                runs.append((x.zone, [i]))
    shares = [(k, seat, amount) for k, pot in enumerate(hand.expected.pots)
              for seat, amount in pot.shares.items() if amount > 0]
    if len(shares) != len(runs):
        return None
    out = []
    for (k, seat, amount), (zone, arrivals) in zip(shares, runs, strict=True):
        sweep = Sweep(seat, k, arrivals)
        if zone != f"bet{seat}" or sum(c.value for c in sweep.chips(inputs)) != amount:
            return None
        out.append(sweep)
    return out


def redirected(inputs: Inputs, sweep: Sweep, chips: list[ChipTag], wrong: int, right: int,
               extra: list[ChipTag] | None = None) -> Inputs:
    """``chips`` of ``sweep`` land in seat ``wrong``'s bet zone instead (``extra``: chips that were not in the push at
    all, pushed to ``wrong`` with it); then the remedy: pulled back into the pot, pushed to seat ``right``. Every
    input after the push comes ``REMEDY`` seconds later."""
    uids = {c.uid for c in chips}
    last = sweep.arrivals[-1]
    t = inputs[last].t
    out = [replace(x, zone=f"bet{wrong}") if i in sweep.arrivals and x.tag.uid in uids else x
           for i, x in enumerate(inputs[:last + 1])]
    moved = chips + (extra or [])
    if extra:
        first = sweep.arrivals[0]
        t0 = out[first].t
        out = (out[:first] + [ev.ZoneLeft(t0 - TRAVEL, "pot", c) for c in extra] + out[first:]
               + [ev.ZoneEntered(t, f"bet{wrong}", c) for c in extra])
    pull, push = t + PULL, t + PULL + 2 * TRAVEL + 0.4
    out += [ev.ZoneLeft(pull, f"bet{wrong}", c) for c in moved]
    out += [ev.ZoneEntered(pull + TRAVEL, "pot", c) for c in moved]
    out += [ev.ZoneLeft(push, "pot", c) for c in moved]
    out += [ev.ZoneEntered(push + TRAVEL, f"bet{right}", c) for c in moved]
    return out + [replace(x, t=x.t + REMEDY) for x in inputs[last + 1:]]


def paid_in_full(pushes: list[Sweep], j: int, seat: int) -> bool:
    """``seat`` gets no share after sweep ``j``: it already holds all the cards give it."""
    return not any(s.seat == seat for s in pushes[j + 1:])


def to_a_loser(hand: SimulatedHand, rng: random.Random) -> Inputs | None:
    """The first share pushed (in a hand of one pot, the whole pot) goes to a seat that wins nothing."""
    pushes = sweeps(hand)
    winners = {s for pot in hand.expected.pots for s in pot.shares}
    losers = [s for s in hand.expected.dealt_in if s not in winners and s not in hand.expected.returned]
    if not pushes or not losers:
        return None
    first = pushes[0]
    return redirected(hand.inputs, first, first.chips(hand.inputs), rng.choice(losers), first.seat)


def side_pot(hand: SimulatedHand, rng: random.Random) -> Inputs | None:
    """A side pot's share pushed to the main pot's lone winner, who is all in for less and not eligible for it."""
    pushes, pots = sweeps(hand), hand.expected.pots
    if not pushes or len(pots) < 2 or len(pots[0].winners) != 1:
        return None
    main = pots[0].winners[0]
    chances = [j for j, s in enumerate(pushes) if s.pot > 0 and main not in pots[s.pot].eligible
               and s.seat != main and paid_in_full(pushes, j, main) and any(p.seat == main for p in pushes[:j])]
    if not chances:
        return None
    sweep = pushes[rng.choice(chances)]
    chips = sweep.chips(hand.inputs)
    # the whole share, or all but a chip of it (its winner holds some, not all: only an amount check sees it)
    part = chips if len(chips) == 1 or rng.random() < 0.3 else chips[:-1]
    return redirected(hand.inputs, sweep, part, main, sweep.seat)


def split_unevenly(hand: SimulatedHand, rng: random.Random) -> Inputs | None:
    """Part of one winner's share of a split pot pushed to another winner of it, who already holds its own."""
    pushes = sweeps(hand)
    if not pushes:
        return None
    pots = hand.expected.pots     # one per push of the simulator: a split game pushes each pot once per half
    chances = [(j, s.seat) for j, x in enumerate(pushes) for s in pushes[:j]
               if pots[s.pot].eligible == pots[x.pot].eligible and s.seat != x.seat
               and paid_in_full(pushes, j, s.seat)]
    if not chances:
        return None
    j, other = rng.choice(chances)
    sweep = pushes[j]
    chips = sweep.chips(hand.inputs)
    part = chips[:max(1, len(chips) // 2)]
    return redirected(hand.inputs, sweep, part, other, sweep.seat)


def uncalled_to_the_winner(hand: SimulatedHand, rng: random.Random) -> Inputs | None:
    """The uncalled part of a bet goes into the pot with the gather instead of back to its bettor, and is pushed
    with the pot to the last winner paid; the remedy pulls it back into the pot and pushes it to the bettor, who
    takes it."""
    pushes = sweeps(hand)
    returned = hand.expected.returned
    if not pushes or len(returned) != 1:
        return None
    (bettor, amount), = returned.items()
    inputs = hand.inputs
    # the chips handed back: a run of chips taken from the bettor's bet zone, never seen again in the hand
    runs: list[list[int]] = []
    for i, x in enumerate(inputs):
        if (isinstance(x, ev.ZoneLeft) and x.zone == f"bet{bettor}" and isinstance(x.tag, ChipTag)
                and not any(getattr(y, "tag", None) == x.tag for y in inputs[i + 1:])):
            if runs and runs[-1][-1] == i - 1:
                runs[-1].append(i)
            else:
                runs.append([i])
    taken = next((r for r in runs if sum(inputs[i].tag.value for i in r) == amount), None)
    if taken is None:
        return None
    gone = {i: inputs[i].tag for i in taken}
    after = taken[-1]
    into_pot = [i for i, x in enumerate(inputs) if i > after and isinstance(x, ev.ZoneEntered) and x.zone == "pot"]
    last = pushes[-1]
    if not into_pot or into_pot[0] > last.arrivals[0] or last.seat == bettor or inputs[into_pot[0]].t - \
            inputs[after].t > 3.0:
        return None
    gather_at = inputs[into_pot[0]].t
    chips = [gone[i] for i in taken]
    # the handed-back chips are gathered with the rest: they land in the pot as the gather does
    staged = inputs[:into_pot[0]] + [ev.ZoneEntered(gather_at, "pot", c) for c in chips] + inputs[into_pot[0]:]
    shift = len(chips)
    moved = Sweep(last.seat, last.pot, [i + shift for i in last.arrivals])
    out = redirected(staged, moved, [], last.seat, bettor, extra=chips)
    # the bettor takes its chips once they are back in its bet zone
    end = max(x.t for x in out if isinstance(x, ev.ZoneEntered) and x.zone == f"bet{bettor}"
              and isinstance(x.tag, ChipTag) and x.tag in chips)
    takes = [ev.ZoneLeft(end + 0.3, f"bet{bettor}", c) for c in chips]
    return sorted(out + takes, key=lambda x: x.t)


PUSH_FAULTS = {"wrong-push-to-a-loser": to_a_loser, "wrong-push-side-pot": side_pot,
               "wrong-push-uncalled": uncalled_to_the_winner, "wrong-push-split": split_unevenly}
