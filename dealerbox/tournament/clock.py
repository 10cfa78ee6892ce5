"""The level clock as a pure value: every method takes the timestamp ``now`` and returns a new clock.

No wall clock inside (the terminal passes its source clock, the floor its own), so a recorded log replays to
the same levels. The clock runs through the tournament's periods (levels and breaks) in order; paused, its
time left stands still. A clock message from the floor replaces level, time left and running (follow the
floor). Which level a hand plays at is fixed when it is dealt (Tournaments 7): :meth:`Clock.level_for_deal`.

>>> from dealerbox.tournament.config import Tournament, Level
>>> t = Tournament("T", "T", 1000, (Level(1, 5, 10, 0, 0, 60.0), Level(2, 10, 20, 0, 0, 60.0)))
>>> c = Clock.start(t, now=0.0)
>>> c.view(90.0).level, c.view(90.0).left
(2, 30.0)
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from .config import Level, Tournament


@dataclass(frozen=True, slots=True)
class Period:
    """One stretch of the clock: a level, or a break after ``level`` (then ``is_break``)."""
    level: int
    seconds: float
    is_break: bool = False


@dataclass(frozen=True, slots=True)
class ClockView:
    """What the dealer's screen and the floor show."""
    level: int                  # the level playing, or during a break the one that follows it
    is_break: bool
    left: float                 # seconds left in this level or break
    running: bool
    current: Level
    next: Level | None          # None on the last level
    next_is_break: bool         # a break comes before the next level


def schedule(t: Tournament) -> tuple[Period, ...]:
    """Levels and breaks in the order they are played."""
    breaks = {b.after_level: b.seconds for b in t.breaks}
    out: list[Period] = []
    for lv in t.levels:
        out.append(Period(lv.number, lv.seconds))
        if lv.number in breaks:
            out.append(Period(lv.number, breaks[lv.number], is_break=True))
    return tuple(out)


@dataclass(frozen=True, slots=True)
class Clock:
    tournament: Tournament
    periods: tuple[Period, ...]
    index: int                  # into periods
    left: float                 # seconds left in periods[index] at ``since``
    running: bool
    since: float                # timestamp ``left`` was measured at

    @classmethod
    def start(cls, t: Tournament, now: float, running: bool = True) -> Clock:
        periods = schedule(t)
        return cls(t, periods, 0, periods[0].seconds, running, now)

    def at(self, now: float) -> Clock:
        """The clock advanced to ``now`` (earlier timestamps change nothing: a clock never runs back)."""
        if not self.running or now <= self.since:
            return self
        index, left, spent = self.index, self.left, now - self.since
        while spent >= left and index < len(self.periods) - 1:
            spent -= left
            index += 1
            left = self.periods[index].seconds
        # the last level has no end: it holds at zero until the floor moves it
        return replace(self, index=index, left=max(0.0, left - spent), since=now)

    def pause(self, now: float) -> Clock:
        return replace(self.at(now), running=False, since=now)

    def resume(self, now: float) -> Clock:
        return replace(self.at(now), running=True, since=now)

    def adjust(self, now: float, seconds: float) -> Clock:
        """Add (or with a negative value take) time from the current period; never below zero."""
        c = self.at(now)
        return replace(c, left=max(0.0, c.left + seconds)).at(now)

    def follow(self, now: float, level: int, left: float, running: bool, is_break: bool = False) -> Clock:
        """Take the floor's clock: its level (or the break after it), its time left, running or paused."""
        for i, p in enumerate(self.periods):
            if p.level == level and p.is_break == is_break:
                return replace(self, index=i, left=max(0.0, left), running=running, since=now)
        raise ValueError(f"clock message names level {level}{' break' if is_break else ''}, "
                         f"which is not in tournament {self.tournament.id}'s schedule")

    def view(self, now: float) -> ClockView:
        c = self.at(now)
        period = c.periods[c.index]
        playing = period.level + 1 if period.is_break else period.level
        upcoming = c.periods[c.index + 1] if c.index + 1 < len(c.periods) else None
        t = c.tournament
        if period.is_break:
            nxt = t.level(playing) if playing <= len(t.levels) else None
        else:
            nxt = t.level(period.level + 1) if period.level < len(t.levels) else None
        return ClockView(level=playing, is_break=period.is_break, left=c.left, running=c.running,
                         current=t.level(playing), next=nxt,
                         next_is_break=bool(upcoming and upcoming.is_break))

    def level_for_deal(self, deal_time: float) -> Level:
        """The level a hand dealt at ``deal_time`` plays at, to its end (Tournaments 7: a level ending mid-hand
        changes nothing in it). During a break, the level that follows it."""
        return self.view(deal_time).current
