"""A hand's boards beyond the first: the runs agreed after an all-in (run it twice or three times) and a bomb
pot's second board. Both are house practices (table settings ``game.run_it`` and ``game.bomb_pots``, off by
default; No-Limit and Pot-Limit 14 and House Policies 15 allow dealing twice or three times when all in).

The board zone is one antenna, so a card's board is told by the order cards reach it (docs/engine.md,
"Two or more boards"):

- **runs**: the first run completes board 1 (the live board the hand already follows) to five cards; then each
  further run is dealt in full, in order, and shares the cards that were out when the runs were agreed;
- **a double board** (a bomb pot on two boards): each street goes to board 1 first, then to board 2.

>>> b = Boards()
>>> b.agree(2, 3)
>>> b.route(["a"] * 4), b.route(["a"] * 5), b.count
(1, 2, 2)
>>> d = Boards()
>>> d.start_double()
>>> d.route(["a"]), d.route(["a", "b", "c"]), d.route(["a", "b", "c", "d"])
(1, 2, 2)
"""

from __future__ import annotations

from dataclasses import dataclass, field

STREET_AT = {3: "flop", 4: "turn", 5: "river"}


@dataclass(slots=True)
class Boards:
    """Boards 2.. of a hand (card uids in the order dealt), and what the showdown read on each."""
    runs: int = 1                  # runs agreed (1: none)
    common: int = 0                # board cards every run shares: the board when the runs were agreed
    double: bool = False           # a bomb pot dealt on two boards from the flop
    bomb: int = 0                  # a bomb pot's post per player; 0: not a bomb pot
    extra: list[list[str]] = field(default_factory=list)            # boards 2.., their own cards
    ranks: list[dict[int, tuple[int, str]]] = field(default_factory=list)  # [board] seat -> (rank, category)
    lows: list[dict[int, tuple[int, str]]] = field(default_factory=list)   # [board] seat -> low read (split games)
    halves: list[list[tuple[tuple[int, ...], ...]]] = field(default_factory=list)  # [board][pot] (high[, low])

    @property
    def count(self) -> int:
        """How many boards the hand is dealt on."""
        return self.runs if self.runs > 1 else (2 if self.double else 1)

    def agree(self, runs: int, common: int) -> None:
        self.runs, self.common = runs, common
        self.extra = [[] for _ in range(runs - 1)]

    def start_double(self) -> None:
        self.double = True
        self.extra = [[]]

    def card_dealt(self, board: int, uid: str) -> None:
        """A card turned onto board ``board`` (2 or more)."""
        self.extra[board - 2].append(uid)

    def flop_withdrawn(self) -> list[str]:
        """Board 2's flop goes back to be dealt again (a double board's four-card flop): its cards."""
        flop = list(self.extra[0])
        self.extra[0].clear()
        return flop

    def start_bomb(self, post: int, boards: int) -> None:
        """A bomb pot: every player posts ``post``; ``boards`` 2 deals it on two boards from the flop."""
        self.bomb = post
        if boards == 2:
            self.start_double()

    def read(self, ranks: list[dict[int, tuple[int, str]]], lows: list[dict[int, tuple[int, str]]]) -> None:
        """The showdown read every board (board 1 first): each board's ranks, and its lows in a split game."""
        self.ranks, self.lows = ranks, lows

    def judged(self, halves: list[list[tuple[tuple[int, ...], ...]]]) -> None:
        """Each board's winners of each pot (and half), board 1 first."""
        self.halves = halves

    def thrown_away(self, seat: int) -> None:
        """A hand thrown away unshown: its reading on every board is gone."""
        for read in (*self.ranks, *self.lows):
            read.pop(seat, None)

    def route(self, board1: list[str]) -> int:
        """The board (1-based) the next card turned belongs to; 0 when every board is complete."""
        n1 = len(board1)
        if self.runs > 1:
            if n1 < 5:
                return 1
            own = 5 - self.common
            return next((k + 2 for k, cards in enumerate(self.extra) if len(cards) < own), 0)
        if self.double:
            n2 = len(self.extra[0])
            if n1 in (3, 4, 5) and n2 < n1:
                return 2             # board 1's street is out: board 2 catches up
            return 1 if n1 < 5 else 0
        return 1 if n1 < 5 else 0

    def cards(self, board: int, board1: list[str]) -> list[str]:
        """Board ``board`` (1-based) as uids: a run shares the common cards with board 1."""
        if board == 1:
            return board1
        own = self.extra[board - 2]
        return board1[:self.common] + own if self.runs > 1 else own

    def complete(self, board1: list[str]) -> bool:
        """Every board has its five cards (a hand with one board: board 1 has)."""
        return len(board1) >= 5 and all(len(self.cards(b, board1)) >= 5 for b in range(2, self.count + 1))

    def street_of(self, board: int, board1: list[str]) -> str:
        return STREET_AT.get(len(self.cards(board, board1)), "flop")
