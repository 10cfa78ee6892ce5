"""Tournament rulings at one table: the draw for the button, dead button, heads-up blinds, short forced
posts and finishing places (Tournaments 19, 29, 30, 31, 35). Pure: seats, stacks and cards in, data out.

>>> button_by_high_card({1: "Kd", 3: "Ks", 7: "9h"}).seats
(3,)
>>> [p.amount for p in forced_posts({1: 500, 2: 150}, small_blind=1, big_blind=2, level_amounts=(100, 200, 0, 0))]
[100, 150]
"""

from __future__ import annotations

from dataclasses import dataclass

# the posting order: one home, below the engine (forced_posts is named again for the doctest above)
from ..rulebook import Post, forced_posts as forced_posts, short_post_ruling
from .ruling import Ruling, card_order, clockwise


def button_by_high_card(drawn: dict[int, str], puck: int | None = None) -> Ruling:
    """When play starts the button goes to the highest card drawn, suits breaking ties (Tournaments 29); a
    puck already at another seat for the first deal is ``misdeal.1g``."""
    if not drawn:
        raise ValueError("no cards drawn for the button")
    winner = max(drawn, key=lambda s: card_order(drawn[s]))
    if puck is not None and puck != winner:
        return Ruling("tournament.29", "dealer", "misdeal",
                      f"Misdeal: the button belongs at seat {winner} ({drawn[winner]}, high card), not seat {puck}. "
                      f"Cards back to the shoe, reshuffle; every chip goes back to whoever put it in; move the "
                      f"button to seat {winner} and redeal", (winner,))
    return Ruling("tournament.29", "info", "continues", f"Button to seat {winner}: high card {drawn[winner]}",
                  (winner,))


@dataclass(frozen=True, slots=True)
class Positions:
    button: int
    small_blind: int
    big_blind: int
    dead_button: bool           # the button seat is empty
    dead_small_blind: bool      # the small blind seat is empty: no small blind this deal


def dead_button(last_small_blind: int, last_big_blind: int, occupied: set[int], seats: int) -> Positions:
    """Next deal under the dead button (Tournaments 30): the big blind moves on to the next player, the small
    blind takes last deal's big blind seat and the button last deal's small blind seat, empty or not."""
    players = [s for s in clockwise(last_big_blind % seats + 1, seats) if s in occupied]
    if len(players) < 3:
        raise ValueError("dead button needs three or more players; heads-up uses heads_up()")
    return Positions(last_small_blind, last_big_blind, players[0], last_small_blind not in occupied,
                     last_big_blind not in occupied)


def heads_up(button: int, occupied: set[int]) -> Positions:
    """Two players with two blinds: the button posts the small blind, the other the big (Tournaments 31)."""
    if button not in occupied or len(occupied) != 2:
        raise ValueError(f"heads-up needs two players with the button on one of them, got {sorted(occupied)} "
                         f"and button {button}")
    other = next(s for s in occupied if s != button)
    return Positions(button, button, other, False, False)


def check_blinds(expected: Positions, small_blind: int | None, big_blind: int, action_started: bool) -> Ruling | None:
    """Blinds posted at the wrong seats: a misdeal if caught before the action, else the hand plays on
    (Tournaments 30, 31). None when they are right."""
    want_sb = None if expected.dead_small_blind else expected.small_blind
    if small_blind == want_sb and big_blind == expected.big_blind:
        return None
    rule = "tournament.31" if expected.small_blind == expected.button and not expected.dead_button else "tournament.30"
    where = f"small blind {want_sb if want_sb is not None else 'none'}, big blind {expected.big_blind}"
    if action_started:
        return Ruling(rule, "floor", "continues", f"Blinds were misplaced (should be {where}); action started: "
                      "the hand plays on, fix them next deal", (expected.big_blind,))
    return Ruling(rule, "dealer", "misdeal", f"Blinds misplaced before any action: misdeal; should be {where}. "
                  "Cards back to the shoe, reshuffle; every chip goes back to whoever put it in; post the blinds "
                  "there and redeal", (expected.big_blind,))


def short_post_rulings(posts: list[Post]) -> tuple[Ruling, ...]:
    """One ruling per short post: all-in for what was posted, no make-up owed (Tournaments 19)."""
    return tuple(Ruling("tournament.19", "info", "continues", short_post_ruling(p.seat, p.amount, p.due, p.what),
                        (p.seat,))
                 for p in posts if p.amount < p.due)


@dataclass(frozen=True, slots=True)
class Elimination:
    seat: int
    place: int                  # 1 = winner
    chips_at_start: int


def finishing_places(busted: dict[int, int],
                     remaining_before: int) -> tuple[tuple[Elimination, ...], tuple[Ruling, ...]]:
    """Places for the players broke in one hand (Tournaments 35): with ``remaining_before`` players left when
    it was dealt, the busts take the lowest places, more chips at the start of the hand placing higher.
    Equal starting stacks are the floor's call: they share the better place here and a floor ruling asks."""
    if len(busted) > remaining_before or remaining_before < 1:
        raise ValueError(f"{len(busted)} eliminations but only {remaining_before} players were left")
    order = sorted(busted, key=lambda s: busted[s], reverse=True)
    best = remaining_before - len(busted) + 1
    out: list[Elimination] = []
    for seat in order:
        tied = next(j for j, s in enumerate(order) if busted[s] == busted[seat])
        out.append(Elimination(seat, best + tied, busted[seat]))
    rulings = [Ruling("tournament.35", "info", "continues",
                      f"Seat {e.seat} is out in place {e.place} (started the hand with {e.chips_at_start})", (e.seat,))
               for e in out]
    ties = sorted({e.place for e in out if sum(1 for o in out if o.place == e.place) > 1})
    for place in ties:
        seats = tuple(e.seat for e in out if e.place == place)
        rulings.append(Ruling("tournament.35", "floor", "continues",
                              f"Seats {', '.join(map(str, seats))} started the hand with equal chips: the floor "
                              f"decides place {place}", seats))
    return tuple(out), tuple(rulings)


def raise_cap(max_raises: int, players_in_event: int) -> int | None:
    """The limit cap at a tournament table: it holds even heads-up (no ``betting.4``) until only two players
    remain in the whole event, then it is lifted (Tournaments 22). None: no cap."""
    return None if players_in_event <= 2 else max_raises


def raise_past_cap(max_raises: int, players_in_event: int, raises: int, seat: int) -> Ruling | None:
    """A raise past the cap goes back (Tournaments 22); None when it is within it or the cap is lifted."""
    cap = raise_cap(max_raises, players_in_event)
    if cap is None or raises <= cap:
        return None
    return Ruling("tournament.22", "dealer", "wager-corrected",
                  f"The cap is a bet and {cap} raises, heads-up too, until two players remain in the event: "
                  "the extra raise goes back", (seat,))


def foreign_chip(chip_values: set[int], value: int, house_ok: bool, seat: int) -> Ruling | None:
    """A chip outside the tournament's chip set (a cash chip, another house's) does not play and must leave
    the table (Tournaments 24); None for a tournament chip."""
    if house_ok and value in chip_values:
        return None
    what = "another house's chip" if not house_ok else f"a {value} chip, not in this tournament's set"
    return Ruling("tournament.24", "dealer", "wager-corrected", f"Seat {seat} has {what}: it does not play and "
                  "leaves the table", (seat,))


def cards_shown_during_deal(seat: int, players_in_event: int) -> Ruling | None:
    """A player showing cards during the deal (dealer tap): the hand stays live and the floor weighs a
    penalty; not once only two players remain in the event (Tournaments 21)."""
    if players_in_event <= 2:
        return None
    return Ruling("tournament.21", "floor", "continues",
                  f"Seat {seat} showed cards during the deal: the hand is live, the floor decides any penalty", (seat,))


def deck_changed(old_deck: str | None, new_deck: str, dealer_changed: bool, damaged_card: bool) -> Ruling | None:
    """Decks change with the dealer or for a damaged card, never on request (Tournaments 28, in place of
    ``procedures.21``): a new deck id without either tap is flagged."""
    if old_deck is None or new_deck == old_deck or dealer_changed or damaged_card:
        return None
    return Ruling("tournament.28", "dealer", "continues",
                  f"Deck {old_deck} was changed for {new_deck} without a dealer change or a damaged card: "
                  "decks are not changed on request")
