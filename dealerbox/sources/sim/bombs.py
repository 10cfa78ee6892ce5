"""When a simulated table deals a bomb pot (house practice, ``game.bomb_pots``): every ``simulator.bomb_every``-th
hand, on ``simulator.bomb_boards`` boards, and again after a bomb pot that was misdealt or voided."""

from __future__ import annotations

from dataclasses import dataclass

from ...config import Config
from .outcome import Expected, SimulatorError


@dataclass
class BombSchedule:
    """The table's bomb pots: ``every`` Nth hand (0: none), on ``boards`` boards, each player posting ``post``.

    >>> s = BombSchedule(3, 2, 10)
    >>> [s.post_for(n) for n in (1, 2, 3)]
    [0, 0, 10]
    """

    every: int = 0
    boards: int = 1
    post: int = 0
    redeal: bool = False       # the last bomb pot was misdealt or voided: the next hand is one again

    @classmethod
    def of(cls, config: Config, tournament: bool) -> BombSchedule:
        """The schedule of ``config`` (``simulator.bomb_every``, ``bomb_boards``), checked against the table: bomb
        pots are a cash table's house practice, and the simulator deals them where no kill is in play."""
        every, boards = config.simulator.bomb_every, config.simulator.bomb_boards
        if not every:
            return cls()
        where = "simulator.bomb_every"
        if not config.game.bomb_pots:
            raise SimulatorError(f"{where}: {every}, but the table does not play bomb pots; set game.bomb_pots")
        if tournament or config.game.kill != "none" or config.table.button == "dead":
            raise SimulatorError(f"{where}: the simulator deals bomb pots at a cash table with a moving button and "
                                 f"no kill")
        if boards not in (1, 2):
            raise SimulatorError(f"simulator.bomb_boards: {boards}; a bomb pot is dealt on 1 or 2 boards")
        return cls(every, boards, config.game.bomb_amount())

    @property
    def double(self) -> bool:
        """Some hands are dealt on two boards (the deck must hold three burns and ten board cards besides)."""
        return bool(self.every) and self.boards == 2

    def post_for(self, hand_no: int) -> int:
        """What every player posts in hand ``hand_no``: the bomb pot's post when one is due, else 0."""
        return self.post if self.redeal or (self.every and hand_no % self.every == 0) else 0

    def dealt(self, expected: Expected) -> None:
        """A hand ended: a bomb pot that was not played out is dealt again."""
        self.redeal = bool(expected.bomb) and expected.outcome != "played"
