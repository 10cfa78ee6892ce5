"""Kill pots (Kill Pots 1-12): the kill button, legs, the qualifying second leg, the required kill.

A :class:`KillTracker` lives across hands. After each hand ``record_win`` is told who won what; before the
next deal ``required`` says which seat must post the kill (2x the big blind for a full kill, 1.5x for a half
kill) and by how much the limits scale.

A split game (Omaha high-low) has no legs: a player who scoops a pot of at least a set size must kill the next
one (Kill Pots, introduction, and 8: five times the game's upper limit; ``game.kill_scoop`` sets the multiple).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ...config import GameConfig
from ..variants import variant

SCALE = {"full": 2.0, "half": 1.5}


@dataclass
class KillTracker:
    mode: str                     # "none" | "half" | "full"
    qualifier: int = 0            # Kill Pots 3: the second leg must win at least this much (0: any pot)
    holder: int | None = None     # seat holding the kill button (a leg up); None = neutral (Kill Pots 1)
    due: int | None = None        # seat that must kill the next pot
    killer_last: int | None = None  # seat that killed the hand just played
    history: list[str] = field(default_factory=list)
    away: int | None = None       # Kill Pots 5: seat that left holding a leg (kept until it returns)
    due_rule: str = "kill.3"      # the row that made it due: a second leg (3), a split (4), a win (7), a scoop (8)
    scoop_min: int | None = None  # Kill Pots 8, split games: a scoop of a pot this big forces a kill; None: legs

    @classmethod
    def for_game(cls, game: GameConfig) -> KillTracker:
        """The tracker a table dealing ``game`` keeps: legs (Kill Pots 3), or scoops in a split game (Kill Pots 8:
        ``kill_scoop`` times the upper limit, the big bet)."""
        split = variant(game.variant).split is not None
        return cls(game.kill, game.kill_qualifier, scoop_min=game.kill_scoop * game.big_bet if split else None)

    @property
    def enabled(self) -> bool:
        return self.mode in SCALE

    def amount(self, big_blind: int) -> int:
        return int(big_blind * SCALE.get(self.mode, 1.0))

    @property
    def scale(self) -> float:
        return SCALE.get(self.mode, 1.0)

    def seat_left(self, seat: int) -> None:
        """Kill Pots 1b: the winner quitting makes the button neutral. Kill Pots 5: a player who steps away
        with a leg up still has it on returning, so the leg is parked until the seat is taken again."""
        if self.holder == seat:
            self.holder = None
            self.away = seat

    def seat_taken(self, seat: int) -> None:
        """Kill Pots 5: the player back in the seat before anyone else won a pot gets the leg back."""
        if self.away == seat and self.holder is None:
            self.holder = seat
        self.away = None

    def record_win(self, winners: tuple[int, ...], won: int, killer: int | None, scooped: int = 0,
                   agreed: tuple[int, ...] = ()) -> str:
        """After a hand: ``winners`` of the main pot, ``won`` = chips the sole winner took beyond what they
        put in; ``killer`` = who killed this hand; ``scooped`` = the chips of the pots the sole winner took
        whole (both halves, or all of a pot with no low); ``agreed`` = new players dealt into this killed pot, who
        played it by agreeing to kill the next one (Kill Pots 12). Returns the reason if a kill is due next hand."""
        reason = self._record_win(winners, won, killer, scooped)
        if self.enabled and self.due is None and killer is not None:
            new = next((s for s in agreed if s != killer), None)
            if new is not None:
                # Kill Pots 12, within Kill Pots 11 (one kill a deal): a kill the pot's result forces comes first
                self.due, self.due_rule = new, "kill.12"
                return f"seat {new} played the last killed pot as a new player: it agreed to kill this one " \
                       "(Kill Pots 12)"
        return reason

    def _record_win(self, winners: tuple[int, ...], won: int, killer: int | None, scooped: int) -> str:
        self.killer_last = killer
        self.due = None
        if winners:
            self.away = None      # another pot was won while the leg holder was away: the streak is over
        if not self.enabled or not winners:
            return ""
        if self.scoop_min is not None:
            return self._record_scoop(winners, scooped)
        if len(winners) > 1:
            # Kill Pots 4: a split keeps a leg; a killer who splits must kill again. 1c: else neutral.
            if killer is not None and killer in winners:
                self.due, self.due_rule = killer, "kill.4"
                return f"seat {killer} killed this pot and split it: must kill again (Kill Pots 4)"
            if self.holder not in winners:
                self.holder = None
            return ""
        w = winners[0]
        if killer is not None and w == killer:
            self.holder, self.due, self.due_rule = w, w, "kill.7"
            return f"seat {w} killed this pot and won it: must kill again (Kill Pots 7)"
        if self.holder == w and won >= self.qualifier:
            self.due, self.due_rule = w, "kill.3"
            size = f" of at least {self.qualifier}" if self.qualifier else ""   # 0: the house counts every pot
            return f"seat {w} won a second pot in a row{size}: must kill the next pot (Kill Pots 3)"
        self.holder = w
        return ""

    def _record_scoop(self, winners: tuple[int, ...], scooped: int) -> str:
        """Kill Pots 8 (and the introduction): in a split game only a scoop of a pot of at least ``scoop_min``
        forces a kill; a pot split high and low, or a smaller scoop, forces none. No legs: the kill button
        marks only the seat that must kill (a killer who scoops a big pot again kills again, Kill Pots 7)."""
        assert self.scoop_min is not None
        self.holder = None
        if len(winners) != 1 or scooped < self.scoop_min:
            return ""
        w = winners[0]
        self.holder, self.due, self.due_rule = w, w, "kill.8"
        return (f"seat {w} scooped a pot of {scooped}, at least {self.scoop_min}: must kill the next pot "
                f"(Kill Pots 8)")
