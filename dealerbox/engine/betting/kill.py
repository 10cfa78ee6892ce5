"""Kill pots (Kill Pots 1-12): the kill button, legs, the qualifying second leg, the required kill.

A :class:`KillTracker` lives across hands. After each hand ``record_win`` is told who won what; before the
next deal ``required`` says which seat must post the kill (2x the big blind for a full kill, 1.5x for a half
kill) and by how much the limits scale.
"""

from __future__ import annotations

from dataclasses import dataclass, field

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
    due_rule: str = "kill.3"      # the row that made the kill due: a second leg (3), a split (4), a win (7)

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

    def record_win(self, winners: tuple[int, ...], won: int, killer: int | None, agreed: tuple[int, ...] = ()) -> str:
        """After a hand: ``winners`` of the main pot, ``won`` = chips the sole winner took beyond what they
        put in; ``killer`` = who killed this hand; ``agreed`` = new players dealt into this killed pot, who
        played it by agreeing to kill the next one (Kill Pots 12). Returns the reason if a kill is due next hand."""
        reason = self._record_win(winners, won, killer)
        if self.enabled and self.due is None and killer is not None:
            new = next((s for s in agreed if s != killer), None)
            if new is not None:
                # Kill Pots 12, within Kill Pots 11 (one kill a deal): a kill the pot's result forces comes first
                self.due, self.due_rule = new, "kill.12"
                return f"seat {new} played the last killed pot as a new player: it agreed to kill this one " \
                       "(Kill Pots 12)"
        return reason

    def _record_win(self, winners: tuple[int, ...], won: int, killer: int | None) -> str:
        self.killer_last = killer
        self.due = None
        if winners:
            self.away = None      # another pot was won while the leg holder was away: the streak is over
        if not self.enabled or not winners:
            return ""
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
            return (f"seat {w} won a second pot in a row of at least {self.qualifier}: must kill the next pot "
                    f"(Kill Pots 3)")
        self.holder = w
        return ""
