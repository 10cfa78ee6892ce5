"""Colour-up and the chip race (Tournaments 8a-8d), as pure functions over counts and the cards dealt.

>>> race = ChipRace(old_value=25, new_value=100, odd={1: 3, 4: 2}, left_without_chips=frozenset())
>>> deal_errors(race, [(1, "2c"), (1, "Kd"), (1, "5h"), (4, "As"), (4, "3d")])
()
>>> award(race, {1: ("2c", "Kd", "5h"), 4: ("As", "3d")}).chips
{4: 1, 1: 1}
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .config import Chip, Tournament
from .ruling import Ruling, card_order


def colour_up(t: Tournament, level_ended: int) -> tuple[tuple[Chip, int], ...]:
    """The chips to remove when ``level_ended`` ends, each with the value of the smallest chip still in play
    (the one full sets change into, and the race's prize) (Tournaments 8a)."""
    staying = t.chips_in_play(level_ended + 1)
    return tuple((c, staying[0].value) for c in t.colour_up_at(level_ended))


def colour_up_prompt(t: Tournament, level_ended: int) -> Ruling | None:
    """The dealer's prompt at a colour-up, or None when no chip leaves after this level."""
    leaving = colour_up(t, level_ended)
    if not leaving:
        return None
    text = "; ".join(f"remove the {c.colour} {c.value}s: change full sets of {new // c.value} for a {new}, "
                     "race the rest"
                     for c, new in leaving)
    return Ruling("tournament.8a", "dealer", "continues", f"Colour-up after level {level_ended}: {text}")


def chip_does_not_play(t: Tournament, level: int, value: int, seat: int) -> Ruling | None:
    """A raced-off chip bet after its colour-up does not play (Tournaments 8a, Betting 7)."""
    if any(c.value == value for c in t.chips_in_play(level)) or value not in {c.value for c in t.chips}:
        return None
    return Ruling("tournament.8a", "dealer", "wager-corrected",
                  f"A {value} chip was coloured up and does not play: take it back", (seat,))


@dataclass(frozen=True, slots=True)
class ChipRace:
    old_value: int                         # the chip raced off
    new_value: int                         # the chip it is raced for
    odd: dict[int, int]                    # seat -> odd old chips left after changing full sets
    left_without_chips: frozenset[int]     # seats whose odd chips are all they have


@dataclass(frozen=True, slots=True)
class RaceResult:
    chips: dict[int, int]                  # seat -> new chips won (one at most)
    order: tuple[int, ...]                 # seats in the order they were served
    rulings: tuple[Ruling, ...] = field(default=())


def deal_errors(race: ChipRace, dealt: list[tuple[int, str]]) -> tuple[Ruling, ...]:
    """Check the race deal: one card per odd chip, clockwise from seat 1, each player's cards all before the
    next player's (Tournaments 8b). Returns the faults to fix before any award; () when it is right."""
    expected = [seat for seat in sorted(race.odd) for _ in range(race.odd[seat])]
    got = [seat for seat, _ in dealt]
    if got == expected:
        return ()
    counts = {seat: got.count(seat) for seat in set(got) | set(race.odd)}
    wrong = tuple(sorted(s for s, n in counts.items() if n != race.odd.get(s, 0)))
    if wrong:
        return (Ruling("tournament.8b", "dealer", "continues",
                       "Race deal: wrong number of cards for seat(s) " + ", ".join(map(str, wrong))
                       + "; one card per odd chip before any award", wrong),)
    first_wrong = next(i for i, (a, b) in enumerate(zip(got, expected, strict=False)) if a != b)
    return (Ruling("tournament.8b", "dealer", "continues",
                   f"Race deal out of order at card {first_wrong + 1}: deal clockwise from seat 1, "
                   "all of a player's cards before the next player's", (got[first_wrong],)),)


def award(race: ChipRace, cards: dict[int, tuple[str, ...]]) -> RaceResult:
    """Award the new chips (Tournaments 8c, 8d): a seat left without chips first, then by the highest card
    (rank, then spades > hearts > diamonds > clubs), one chip per player; a leftover short of a full chip
    goes to the next highest card not yet served only if that player held at least half of it."""
    total = sum(n * race.old_value for n in race.odd.values())
    full, rest = divmod(total, race.new_value)
    best = {seat: max(cs, key=card_order) for seat, cs in cards.items() if cs}
    by_card = sorted(best, key=lambda s: card_order(best[s]), reverse=True)
    served: list[int] = [s for s in by_card if s in race.left_without_chips]
    rulings: list[Ruling] = []
    if served:
        rulings.append(Ruling("tournament.8c", "dealer", "continues",
                              "No player is raced out: seat(s) " + ", ".join(map(str, served))
                              + f" get a {race.new_value} first", tuple(served)))
    for seat in by_card:
        if len(served) >= full:
            break
        if seat not in served:
            served.append(seat)
    order = list(served)
    if rest and len(order) >= full:
        nxt = next((s for s in by_card if s not in order), None)
        if nxt is not None and race.odd.get(nxt, 0) * race.old_value * 2 >= race.new_value:
            order.append(nxt)
            rulings.append(Ruling("tournament.8d", "dealer", "continues",
                                  f"Leftover {rest}: seat {nxt} holds half a {race.new_value} or more and gets one",
                                  (nxt,)))
        elif nxt is not None:
            rulings.append(Ruling("tournament.8d", "dealer", "continues",
                                  f"Leftover {rest}: seat {nxt} held less than half a {race.new_value}; "
                                  "no chip for it", (nxt,)))
    text = ", ".join(f"seat {s} ({best.get(s, '-')})" for s in order) or "nobody"
    # the odd chips leave the table with the award: left in a bet zone, the next deal would bet a chip that no
    # longer plays (Tournaments 8a)
    words = f"Race: take every odd {race.old_value} off the table; one {race.new_value} each to {text}"
    rulings.insert(0, Ruling("tournament.8c", "dealer", "continues", words, tuple(order)))
    return RaceResult({s: 1 for s in order}, tuple(order), tuple(rulings))
