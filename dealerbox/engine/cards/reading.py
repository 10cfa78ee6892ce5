"""The showdown's reading of a hand in words and winners: each pot's winners from the hands read, by board (a
hand dealt on two or more boards) and by half (high and low in a split game), and the lines the rulings and the
screen show for them. Pure functions over a :class:`Hand` (``judge`` returns what the hand then records);
``engine.hand_flow`` reads the cards into it.
"""

from __future__ import annotations

from .boards import Boards
from .hand import Award, Hand
from .showdown import pot_halves, pot_winners


Halves = list[tuple[tuple[int, ...], ...]]   # per pot: its winners of each half (high[, low])


def judge(pots: list[tuple[int, tuple[int, ...]]], award: Award, boards: Boards, split_game: bool) -> tuple[
        list[tuple[int, ...]], Halves, list[Halves] | None]:
    """Each pot's winners from the hands read: in a split game by halves (high, low); on two or more boards by
    board (each board judged as its own showdown); a pot's winners are then everyone who wins some part of it.
    Returns the winners, board 1's halves (none in a high-only game) and each board's halves (None: one board),
    for :meth:`Hand.decided_as` and :meth:`Hand.rewon`."""
    if boards.count > 1 and boards.ranks:
        by_board: list[Halves] = [pot_halves(pots, ranks, lows) if split_game
                                  else [(w,) for w in pot_winners(pots, ranks)]
                                  for ranks, lows in zip(boards.ranks, boards.lows, strict=True)]
        winners = [tuple(sorted({s for halves in per_board for half in halves for s in half}))
                   for per_board in zip(*by_board, strict=True)]
        return winners, by_board[0] if split_game else [], by_board
    if not split_game:
        return pot_winners(pots, award.ranks), [], None
    halves = pot_halves(pots, award.ranks, award.lows)
    return [tuple(sorted({s for half in pot for s in half})) for pot in halves], halves, None


def pot_name(i: int) -> str:
    return "main pot" if i == 0 else f"side pot {i}"


def shown_rank(h: Hand, seat: int, split_game: bool) -> str:
    """The hand as the screen names it: ``Flush``; a split game adds its low: ``Flush, low 7-5-4-2-A``; a hand
    dealt on two or more boards names each board's: ``board 1: Flush; board 2: Two Pair``."""
    def one(ranks: dict[int, tuple[int, str]], lows: dict[int, tuple[int, str]]) -> str:
        high = ranks[seat][1]
        if not split_game:
            return high
        low = lows.get(seat)
        return f"{high}, low {low[1]}" if low else f"{high}, no low"
    boards = h.boards
    if boards.count < 2 or not boards.ranks:
        return one(h.award.ranks, h.award.lows)
    return "; ".join(f"board {b + 1}: {one(ranks, lows)}"
                     for b, (ranks, lows) in enumerate(zip(boards.ranks, boards.lows, strict=True)) if seat in ranks)


def halves_text(h: Hand, i: int) -> str:
    """``High: seat 3 Flush · Low: seat 5 7-5-4-2-A`` for pot ``i`` of a split game ("no low" when none)."""
    halves = h.award.halves[i] if i < len(h.award.halves) else ()
    if not halves or not halves[0]:
        return "no hand shown"
    ranks, lows = h.award.ranks, h.award.lows
    high = f"High: seat {' and '.join(map(str, halves[0]))} {ranks[halves[0][0]][1]}"
    if len(halves) == 1:
        return f"{high} · Low: none"
    return f"{high} · Low: seat {' and '.join(map(str, halves[1]))} {lows[halves[1][0]][1]}"


def board_winners_text(halves: tuple[tuple[int, ...], ...]) -> str:
    """One board's part of a pot: ``seat 3``, ``seats 3 and 5``; a split game's ``high seat 3, low seat 5``."""
    def seats(w: tuple[int, ...]) -> str:
        return ("seats " if len(w) > 1 else "seat ") + " and ".join(map(str, w))
    if not halves or not halves[0]:
        return "no hand shown"
    if len(halves) == 1:
        return seats(halves[0])
    return f"high {seats(halves[0])}, low {seats(halves[1])}"


def boards_text(h: Hand) -> str:
    """Every pot's part on each board: ``board 1 main pot to seat 3; board 2 main pot to seat 5``."""
    parts = []
    for b, per_pot in enumerate(h.boards.halves):
        for i, halves in enumerate(per_pot):
            words = board_winners_text(halves)
            parts.append(f"board {b + 1} {pot_name(i)}: {words}" if words == "no hand shown"
                         else f"board {b + 1} {pot_name(i)} to {words}")
    return "; ".join(parts)


def board_lines(h: Hand) -> tuple[str, ...]:
    """At the showdown of a hand dealt on two or more boards, a short line per board for the screen: ``Board 1: S3
    Flush``; a split game's ``Board 2: high S3 Flush, low S5 7-5-4-2-A``; with side pots each pot by name
    (``Board 1: main S3 Flush · side 1 S5 Straight``)."""
    boards, out = h.boards, []
    for b, per_pot in enumerate(boards.halves):
        ranks = boards.ranks[b] if b < len(boards.ranks) else {}
        lows = boards.lows[b] if b < len(boards.lows) else {}

        def who(w: tuple[int, ...], read: dict[int, tuple[int, str]]) -> str:
            seats = " ".join(f"S{s}" for s in w)
            return f"{seats} {read[w[0]][1]}" if w[0] in read else seats
        pots = []
        for i, halves in enumerate(per_pot):
            if not halves or not halves[0]:
                text = "no hand shown"
            elif len(halves) == 1:
                text = who(halves[0], ranks)
            else:
                text = f"high {who(halves[0], ranks)}, low {who(halves[1], lows)}"
            pots.append(text if len(per_pot) == 1 else ("main " if i == 0 else f"side {i} ") + text)
        out.append(f"Board {b + 1}: " + " · ".join(pots))
    return tuple(out)


def winners_text(h: Hand) -> str:
    parts = []
    for i, w in enumerate(h.winners):
        name = pot_name(i)
        if h.boards.count < 2 and h.award.halves and i < len(h.award.halves) and w:
            parts.append(f"{name}: {halves_text(h, i)}")
            continue
        parts.append(f"{name} to seat {' and '.join(map(str, w))}" if w else f"{name}: no hand shown")
    return "; ".join(parts)
