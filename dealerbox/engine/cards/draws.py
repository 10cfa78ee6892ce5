"""A draw game's record of its draws, kept by the hand (``Hand.draws``): the draw under way, and what each seat
threw away and was given in each (docs/draw.md; followed by ``cards.draw.DrawFlow``).

>>> d = Draws()
>>> d.begin()
>>> d.thrown_away(3, "a"), d.thrown_away(3, "b"), d.given(3), d.given(3)
(None, None, False, True)
>>> d.number, d.drawn(3), d.owed(3)
(1, 2, 0)
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(slots=True)
class Draws:
    """A hand's draws: the one under way (or the last), and what each seat threw and was given in each."""
    number: int = 0                # the draw under way or last dealt (1, 2, 3); 0: none yet
    dealing: bool = False          # the draw is being dealt: no betting action on its round yet
    thrown: list[dict[int, int]] = field(default_factory=list)   # [draw] seat -> cards discarded
    received: list[dict[int, int]] = field(default_factory=list)  # [draw] seat -> replacements dealt
    discards: set[str] = field(default_factory=set)              # uids thrown away in a draw (in the muck)
    pat: list[set[int]] = field(default_factory=list)            # [draw] seats the dealer tapped as standing pat
    lifted: set[str] = field(default_factory=set)   # uids that left the muck in a draw and reached no antenna yet

    def begin(self) -> None:
        """The next draw begins: the betting round before it is complete."""
        self.number += 1
        self.dealing = True
        self.thrown.append({})
        self.received.append({})
        self.pat.append(set())

    def betting_began(self) -> None:
        """A betting action on the round after the draw: the draw is over."""
        self.dealing = False

    def thrown_away(self, seat: int, uid: str) -> None:
        """``seat`` threw card ``uid`` away in the draw under way."""
        now = self.thrown[-1]
        now[seat] = now.get(seat, 0) + 1
        self.discards.add(uid)

    def set_aside(self, uid: str) -> None:
        """Card ``uid``, dealt face up in the draw, is out of play and goes to the muck: dead there like a discard,
        so it may be shuffled back into a stub run short (docs/draw.md), but it is no seat's discard."""
        self.discards.add(uid)

    def given(self, seat: int) -> bool:
        """A card from the stub reached ``seat`` in the draw: True when its draw is now complete."""
        now = self.received[-1]
        now[seat] = now.get(seat, 0) + 1
        return now[seat] == self.thrown[-1].get(seat, 0)

    def fell(self, uid: str) -> None:
        """Card ``uid`` left the muck and reached no antenna: during a draw (the only time its leaving is not ruled
        at once) it is judged where it lands (``landed``)."""
        if self.dealing:
            self.lifted.add(uid)

    def landed(self, uid: str) -> bool:
        """Card ``uid`` reached an antenna: True when it was one lifted off the muck in a draw (``fell``)."""
        if uid not in self.lifted:
            return False
        self.lifted.discard(uid)
        return True

    def stood_pat(self, seat: int) -> bool:
        """The dealer tapped ``stand-pat`` for ``seat`` in the draw under way: True the first time (it threw
        nothing: a seat that already threw cards is no stander)."""
        if not self.number or not self.dealing or seat in self.pat[-1] or self.thrown[-1].get(seat):
            return False
        self.pat[-1].add(seat)
        return True

    def complete(self, live: list[int]) -> bool:
        """Every one of ``live`` has had its turn in the draw under way: given all the cards it threw, or tapped
        as standing pat (docs/draw.md: how a draw with nobody left to bet ends)."""
        if not self.number or not self.dealing or not live:
            return False
        thrown, pat = self.thrown[-1], self.pat[-1]
        return all(s in pat or (thrown.get(s, 0) > 0 and self.owed(s) == 0) for s in live)

    def owed(self, seat: int) -> int:
        """Cards ``seat`` threw in the draw under way and has not been given yet (negative: given too many)."""
        if not self.number:
            return 0
        return self.thrown[-1].get(seat, 0) - self.received[-1].get(seat, 0)

    def drawn(self, seat: int, draw: int = 0) -> int:
        """Cards ``seat`` was given in draw ``draw`` (0: the one under way or last)."""
        if not self.number:
            return 0
        return self.received[(draw or self.number) - 1].get(seat, 0)

    def done(self, seat: int) -> int | None:
        """In the draw being dealt: the cards ``seat`` was given, once it has all it threw (0: tapped as standing
        pat); None while its turn is not done (or no draw is being dealt)."""
        if not self.number or not self.dealing:
            return None
        if seat in self.pat[-1]:
            return 0
        thrown = self.thrown[-1].get(seat, 0)
        return self.drawn(seat) if thrown and self.owed(seat) <= 0 else None

    def turn(self, order: list[int] | tuple[int, ...], live: set[int]) -> int | None:
        """Whose turn it is in the draw being dealt: a seat given part of its cards, else the first of ``live``
        (in ``order``) after the last seat that threw or stood pat. None when no draw is being dealt."""
        if not self.number or not self.dealing:
            return None
        thrown, pat = self.thrown[-1], self.pat[-1]
        seen = [i for i, s in enumerate(order) if s in thrown or s in pat]
        if seen and self.owed(order[seen[-1]]) > 0:
            return order[seen[-1]]
        return next((s for s in order[seen[-1] + 1 if seen else 0:] if s in live), None)

    def seats_drawn(self) -> tuple[tuple[int, int], ...]:
        """The draw under way (or last): (seat, cards thrown) for each seat that threw any, in the order seen."""
        return tuple(self.thrown[-1].items()) if self.number else ()
