"""Players who step away from a simulated cash table and come back (Blinds 9): the ``sit-out`` tap takes a seat
out of the deal from the next hand on, ``wait-for-bb`` deals it in again at the hand whose big blind reaches it,
so it owes nothing. The seat keeps its chips and its place: the button still moves through it."""

from __future__ import annotations

from dataclasses import dataclass, field


def _after(seat: int, among: list[int]) -> int:
    return next((s for s in among if s > seat), among[0])


def big_blind(button: int, players: list[int]) -> int:
    """The seat that posts the big blind among ``players`` with the button at ``button`` (heads-up the button
    posts the small blind, Blinds 3; the button may sit in front of a seat not dealt in)."""
    players = sorted(players)
    small = button if len(players) == 2 and button in players else _after(button, players)
    return _after(small, players)


@dataclass
class Away:
    """The seats sitting out, and those of them waiting for the big blind; taps to emit before the next hand."""
    sitting_out: set[int] = field(default_factory=set)
    waiting: set[int] = field(default_factory=set)
    returning: set[int] = field(default_factory=set)
    making_up: set[int] = field(default_factory=set)    # returning seats that post the blinds they missed
    taps: list[tuple[str, int]] = field(default_factory=list)

    def sit_out(self, seat: int) -> None:
        self.sitting_out.add(seat)
        self.taps.append(("sit-out", seat))

    def wait_for_bb(self, seat: int) -> None:
        if seat in self.sitting_out:
            self.waiting.add(seat)
            self.taps.append(("wait-for-bb", seat))

    def back_in(self, seat: int) -> None:
        """The ``back-in`` tap: dealt in again from the next hand the seat is not between the big blind and the
        button (Blinds 7), owing the blinds it missed (Blinds 9)."""
        if seat in self.sitting_out:
            self.returning.add(seat)
            self.taps.append(("back-in", seat))

    def back_in_posting(self, seat: int) -> None:
        """The ``back-in`` tap of a player who makes up what it missed before the deal (Blinds 9: the big blind
        live, a missed small blind dead, in one motion), rather than wait for the big blind."""
        if seat in self.sitting_out:
            self.back_in(seat)
            self.making_up.add(seat)

    def clear(self) -> None:
        self.making_up.clear()
        self.sitting_out.clear()
        self.waiting.clear()
        self.returning.clear()
        self.taps.clear()

    def dealt_in(self, button: int, seated: list[int]) -> list[int]:
        """The seats dealt in this hand: everyone not away, and the first seat waiting (clockwise from the
        button) that the big blind reaches; that seat is back from now on."""
        active = [s for s in seated if s not in self.sitting_out]
        if not active:
            return sorted(seated)
        for w in sorted(self.waiting, key=lambda s: (s - button - 1) % 100):
            if big_blind(button, active + [w]) == w:
                self.waiting.discard(w)
                self.sitting_out.discard(w)
                return sorted(active + [w])
        for r in sorted(self.returning):
            players = sorted(active + [r])
            small = _after(button, players)
            if len(players) == 2 or r not in (button, small):
                self.returning.discard(r)
                self.sitting_out.discard(r)
                active.append(r)
        return sorted(active)
