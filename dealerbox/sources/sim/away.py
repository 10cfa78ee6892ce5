"""Players who step away from a simulated cash table and come back (Blinds 9): the ``sit-out`` tap takes a seat
out of the deal from the next hand on, ``wait-for-bb`` deals it in again at the hand whose big blind reaches it,
so it owes nothing. The seat keeps its chips and its place; the moving button passes it while it is not
dealt in (Blinds 1a: it goes to the next player the hand deals in).

A player arriving mid-session (Blinds 4, 7) is one of these too: waiting for the big blind, or ``new``: dealt in
from the first hand it does not sit between the big blind and the button, posting a big blind where it sits."""

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
    new: set[int] = field(default_factory=set)        # arrived, to post a big blind where they sit (Blinds 4)
    posting: set[int] = field(default_factory=set)    # new seats dealt in this hand out of the big blind: post one
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

    def arrive(self, seat: int, wait: bool) -> None:
        """A player sat down in ``seat`` mid-session (the ``sit`` tap is the simulator's): they wait for the big
        blind (the ``wait-for-bb`` tap), or post one where they sit as soon as the button has passed them."""
        if wait:
            self.sitting_out.add(seat)
            self.wait_for_bb(seat)
        else:
            self.new.add(seat)

    def clear(self) -> None:
        self.making_up.clear()
        self.new.clear()
        self.posting.clear()
        self.sitting_out.clear()
        self.waiting.clear()
        self.returning.clear()
        self.taps.clear()

    def dealt_in(self, button: int, seated: list[int]) -> list[int]:
        """The seats dealt in this hand: everyone not away, and the first seat waiting (clockwise from the
        button) that the big blind reaches; that seat is back from now on."""
        active = [s for s in seated if s not in self.sitting_out]
        self.posting.clear()
        if not active:
            return sorted(seated)
        for w in sorted(self.waiting, key=lambda s: (s - button - 1) % 100):
            if big_blind(button, active + [w]) == w:
                self.waiting.discard(w)
                self.sitting_out.discard(w)
                return self._new_dealt_in(button, sorted(active + [w]))
        for r in sorted(self.returning):
            players = sorted(active + [r])
            small = _after(button, players)
            if len(players) == 2 or r not in (button, small):
                self.returning.discard(r)
                self.sitting_out.discard(r)
                active.append(r)
        return self._new_dealt_in(button, sorted(active))

    def deals_in(self, button: int, seated: list[int], seat: int) -> bool:
        """Whether the hand with the button at ``button`` would deal ``seat`` in, as ``dealt_in`` decides, without
        changing anything: the moving button goes only to such a seat (Blinds 1a, 7)."""
        active = [s for s in seated if s not in self.sitting_out]
        if not active:
            return seat in seated
        players: list[int] | None = None
        for w in sorted(self.waiting, key=lambda s: (s - button - 1) % 100):
            if big_blind(button, active + [w]) == w:
                players = sorted(active + [w])
                break
        if players is None:
            for r in sorted(self.returning):
                if len(active) + 1 == 2 or r not in (button, _after(button, sorted(active + [r]))):
                    active.append(r)
            players = sorted(active)
        small = button if len(players) == 2 and button in players else _after(button, players)
        held = seat in self.new and len(players) > 2 and seat in (button, small)
        return seat in players and not held

    def _new_dealt_in(self, button: int, players: list[int]) -> list[int]:
        """Blinds 7: a new player between the big blind and the button (the button or the small blind, at a table
        of three or more) is not dealt in until the button has passed; once dealt in out of the big blind, they
        post one (``posting``)."""
        small = button if len(players) == 2 and button in players else _after(button, players)
        held = {s for s in self.new & set(players) if len(players) > 2 and s in (button, small)}
        dealt = [s for s in players if s not in held]
        for s in self.new & set(dealt):
            self.new.discard(s)
            if s != big_blind(button, dealt) and len(dealt) > 2:    # heads-up the blinds are the two players
                self.posting.add(s)
        return dealt
