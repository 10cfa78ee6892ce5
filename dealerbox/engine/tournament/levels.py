"""A tournament table's level clock in the engine (Tournaments 4, 6, 7): the part :class:`Levels` owns it.

The engine holds a :class:`dealerbox.tournament.clock.Clock`, started at the table's first deal or set by the
floor's clock (a logged ``floor-clock`` input, so a replay sees what the live table saw). Time is only the
inputs' timestamps. Each hand takes its level once, when it starts (Tournaments 7: a level that ends during a
hand changes nothing in it), and the hand's blinds, ante and big-blind ante are that level's: the betting reads
them from ``TableBetting.game`` as it reads a cash table's. When the clock enters a new level or a break the
engine says so (``LevelStarted``, ``BreakStarted``, the ``tournament.6`` prompt); posts read from the chips
that do not match the hand's level are ``tournament.7``; an entrant away since the start is reported to the
floor at the next level or after half an hour (``tournament.4``).

The tournament package validates with jsonschema, which a cash table never loads: it is imported here only
when a tournament is played.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import replace
from typing import TYPE_CHECKING

from .. import events as te
from .. import inputs as ev
from ..cards.misdeal import Ruling as EngineRuling
from ..state import TournamentView
from ..betting import TableBetting
from ..play import Play
from ..referee import Referee
from ..seating import Seating
from ...config import Config
from .entrants import Entrants

if TYPE_CHECKING:
    from ...tournament.clock import Clock, ClockView
    from ...tournament.config import Level, Tournament
    from ...tournament.ruling import Ruling

FLOOR_CLOCK_FIELDS: dict[str, type | tuple[type, ...]] = {"level": int, "left": (int, float), "running": bool}
FLOOR_CLOCK_AWAY_S = 35.0   # the floor sends its clock every 10 s: three missed, it is away

LevelEnded = Callable[[float, int, int], list[te.TableEvent]]


def _no_race(t: float, old: int, new: int) -> list[te.TableEvent]:
    return []


class Levels:
    """The level clock of the ``event`` (None: a table marked a tournament table without its file follows the
    floor's level only); the level's amounts go to ``betting``; the away seats are ``entrants``'. When a level
    ends, ``level_ended`` (the chip race's) is told."""

    def __init__(self, config: Config, event: Tournament | None, play: Play, referee: Referee, seating: Seating,
                 betting: TableBetting, entrants: Entrants, level_ended: LevelEnded = _no_race) -> None:
        self.config = config
        self.event = event
        self.play = play
        self.referee = referee
        self.seating = seating
        self.betting = betting
        self.entrants = entrants
        self.level_ended = level_ended
        self.clock: Clock | None = None
        self.clock_seen: ClockView | None = None    # the clock as last looked at: a change is a new level or break
        self.hand_level: Level | None = None        # the level the running (or last) hand was dealt at
        self.hand_stacks: dict[int, int] = {}       # stacks as the hand started, before any post
        self.players_left: int | None = None        # in the whole event, from the floor's clock
        self.tables_left: int | None = None
        self.floor_clock_refused = 0                # floor clock payloads that could not be followed
        self.floor_clock_at: float | None = None    # when the floor's clock was last followed
        self.floor_level: int | None = None         # the level the floor's clock last said (no event file)
        self.absent: dict[int, tuple[float, int]] = {}   # seat away since the first deal -> (since, level then)

    def level(self) -> int:
        """The level playing now: the level clock once it runs, else the floor clock's (a table marked a
        tournament table without an event file has no clock), else the first."""
        if self.clock_seen is not None:
            return self.clock_seen.level
        return self.floor_level or 1

    def hand_starts(self, stacks: dict[int, int]) -> None:
        """A hand starts with these stacks (before any post): the busts and places are judged against them."""
        self.hand_stacks = stacks

    def players_out(self, left: int) -> None:
        """Players went out here: the clock's count of the event, less them, until the clock says again."""
        self.players_left = left

    def players_left_or_many(self) -> int:
        """Players left in the event; unknown (no clock from the floor yet) counts as more than two."""
        return self.players_left if self.players_left is not None else 1_000_000

    # --- the clock ---------------------------------------------------------------------------------------
    def tick(self, t: float) -> list[te.TableEvent]:
        """Look at the clock at ``t``: a new level or break is announced once (Tournaments 6)."""
        assert self.clock is not None
        self.clock = self.clock.at(t)             # time left is kept as of the last input: the view paints from it
        view = self.clock.view(t)
        before, self.clock_seen = self.clock_seen, view
        out: list[te.TableEvent] = []
        if before is None or (before.level, before.is_break) != (view.level, view.is_break):
            out.append(self._period_event(t, view))
            if before is not None:
                from ...tournament.levels import level_prompt
                out += self.rulings(t, [level_prompt(before, view)])
                out += self.level_ended(t, before.level, view.level)   # chips coloured up: the race (8a)
        if self.absent:
            out += self._absent_reports(t, view)
        return out

    def _period_event(self, t: float, view: ClockView) -> te.TableEvent:
        assert self.event is not None
        tid = self.event.id
        if view.is_break:
            return te.BreakStarted(t, self.play.hand_no, tid, view.level, view.left)
        lv = view.current
        return te.LevelStarted(t, self.play.hand_no, tid, lv.number, lv.small_blind, lv.big_blind, lv.ante,
                               lv.big_blind_ante, view.left)

    def _start_clock(self, t: float) -> list[te.TableEvent]:
        from ...tournament.clock import Clock
        assert self.event is not None
        self.clock = Clock.start(self.event, t)
        return self.tick(t)

    def floor_clock_seen(self, e: ev.DealerInput) -> None:
        """The floor's level, for a table marked a tournament table without its event file (it has no level
        clock of its own). The level clock counts a payload that does not read, and keeps the players left."""
        try:
            clock = json.loads(e.detail or "")
        except ValueError:
            return
        level = clock.get("level") if isinstance(clock, dict) else None
        if isinstance(level, int) and level >= 1:
            self.floor_level = level

    def floor_clock(self, e: ev.DealerInput) -> list[te.TableEvent]:
        """The floor's clock payload (schemas/floor/clock.json): follow its level, time left and running, and keep
        the players and tables left in the event. A payload the clock cannot follow is counted and left aside;
        the table's own clock keeps running. A table marked a tournament table without its event file keeps the
        counts only (it has no levels to follow); a cash table ignores the clock."""
        if self.event is None and not self.config.is_tournament:
            return []
        try:
            payload = json.loads(e.detail or "")
            for name, kind in FLOOR_CLOCK_FIELDS.items():
                if not isinstance(payload.get(name), kind) or isinstance(payload.get(name), bool) != (kind is bool):
                    raise ValueError(f"floor-clock: field {name!r} is missing or not a {kind}")
            out: list[te.TableEvent] = []
            if self.event is not None:
                out = [] if self.clock is not None else self._start_clock(e.t)
                assert self.clock is not None
                self.clock = self.clock.follow(e.t, payload["level"], float(payload["left"]), payload["running"],
                                               bool(payload.get("is_break", False)))
        except (ValueError, AttributeError, TypeError):
            self.floor_clock_refused += 1
            return []
        for name in ("players_left", "tables_left"):
            value = payload.get(name)
            if isinstance(value, int) and not isinstance(value, bool):
                if name == "players_left":
                    self.players_left = value
                else:
                    self.tables_left = value
        if self.event is None:
            return []
        self.floor_clock_at = e.t
        return out + self.tick(e.t)

    def end_level_tap(self, t: float) -> list[te.TableEvent]:
        """The dealer ends the level (or the break) at the room's signal (Tournaments 6): the next period starts
        now, whole. Only while the floor's clock is away: a clock the floor runs is the floor's to move."""
        rule = self.referee.rule
        if self.clock is None:
            return rule(t, [EngineRuling("tournament.6", "continues", "No level is running yet: the clock starts "
                                         "with the first deal", (), severity="info")])
        if self.floor_clock_at is not None and t - self.floor_clock_at < FLOOR_CLOCK_AWAY_S:
            return rule(t, [EngineRuling("tournament.6", "continues", "The floor runs this event's clock: ask the "
                                         "floor to end the level", (), severity="info")])
        c = self.clock.at(t)
        if c.index + 1 >= len(c.periods):
            return rule(t, [EngineRuling("tournament.6", "continues", "This is the last level: there is none to "
                                         "end it for", (), severity="info")])
        self.clock = replace(c, index=c.index + 1, left=c.periods[c.index + 1].seconds, since=t)
        return self.tick(t)

    # --- a hand at its level -----------------------------------------------------------------------------
    def level_for_hand(self, t: float) -> list[te.TableEvent]:
        """A hand starts: take its level (Tournaments 7) and play its amounts; the first deal starts the clock."""
        out: list[te.TableEvent] = []
        if self.clock is None:
            out += self._start_clock(t)
        clock = self.clock
        assert clock is not None
        if self.play.hand_no is None and self.play.hands_before == 0:    # the event's first deal at this table
            self.absent = {s: (t, clock.view(t).level) for s in self.entrants.away}   # away, dealt in (9)
        lv = clock.level_for_deal(t)
        self.hand_level = lv
        self.betting.play_level(replace(self.config.game, small_blind=lv.small_blind, big_blind=lv.big_blind,
                                    ante=lv.ante, big_blind_ante=lv.big_blind_ante, small_bet=lv.big_blind,
                                    big_bet=2 * lv.big_blind))
        return out

    def posts_at_level(self, t: float) -> list[te.TableEvent]:
        """The first card left the shoe: every post read from the chips against the hand's level (Tournaments 7).
        A short all-in post is right (Tournaments 19 says so); a post of another level is corrected."""
        hb, lv = self.play.hb, self.hand_level
        if lv is None or hb is None or hb.lost:
            return []
        from ...tournament.levels import wrong_level_posts
        names = {"sb": "small blind", "bb": "big blind"}
        posted: dict[tuple[int, str], int] = {}
        for seat, (kind, _) in hb.required.items():
            if kind in names and hb.seats[seat].posted == kind:
                posted[(seat, names[kind])] = hb.seats[seat].wager
        for seat, paid in hb.ante_paid.items():
            posted[(seat, "big blind ante" if hb.big_blind_ante else "ante")] = paid
        stacks = {s: self.hand_stacks.get(s, 0) for s in hb.order}
        small = hb.positions.small_blind if hb.positions.small_blind in hb.seats else None
        big = hb.positions.big_blind
        if big is None:
            return []
        # a post not made at all is Blinds 10 (flagged as the deal starts); only posts put in are judged here
        made = tuple(f"Seat {seat} posted {amount} as the {what};" for (seat, what), amount in posted.items())
        # a post that put the player all in is Tournaments 19's, whatever the order its chips were read in
        rulings = [r for r in wrong_level_posts(lv, posted, stacks, small, big)
                   if r.ruling.startswith(made) and not hb.seats[r.seats[0]].all_in]
        for seat, (kind, _) in hb.required.items():   # a blind short of the level is brought up, as the words say
            if kind in names and any(r.seats[0] == seat and names[kind] in r.ruling for r in rulings):
                hb.posting.bring_up(seat, lv.small_blind if kind == "sb" else lv.big_blind)
        return self.rulings(t, list(rulings))

    # --- Tournaments 4 -----------------------------------------------------------------------------------
    def _absent_reports(self, t: float, view: ClockView) -> list[te.TableEvent]:
        from ...tournament.levels import absent_entrant_report
        out: list[te.TableEvent] = []
        away = self.entrants.away
        for seat, (since, level) in list(self.absent.items()):
            if seat not in away:
                del self.absent[seat]       # arrived: nothing to report
                continue
            r = absent_entrant_report(seat, since, level, t, view)
            if r is not None:
                del self.absent[seat]       # told once; the floor decides
                out += self.rulings(t, [r])
        return out

    # --- rulings and the view ----------------------------------------------------------------------------
    def rulings(self, t: float, rulings: list[Ruling | None]) -> list[te.TableEvent]:
        """Raise the tournament package's rulings as the engine raises its own (outcome applied)."""
        return self.referee.rule(t, [EngineRuling(r.rule, r.outcome, r.ruling, r.seats, severity=r.severity)
                                     for r in rulings if r is not None])

    def _players_at_table(self) -> int:
        """The players still in the event at this table: a player all in has no chips in front of them but
        plays on until the hand ends (only then is a player out, Tournaments 35)."""
        h = self.play.hand
        in_hand = set(h.order) if h is not None and self.play.running() else set()
        stacks = self.betting.stacks
        return sum(1 for s in self.seating.occupied if stacks.get(s, 0) > 0 or s in in_hand)

    def view(self) -> TournamentView | None:
        """What the screen and the floor show of the event; None at a cash table or before the clock starts."""
        clock, c, event = self.clock, self.clock_seen, self.event
        if clock is None or c is None or event is None:
            return None
        lv, nxt = c.current, c.next
        players = self.players_left
        if players is None and len(event.tables) <= 1:
            players = self._players_at_table()   # a single-table event: the table is the event
        return TournamentView(
            tournament=event.id, level=c.level, small_blind=lv.small_blind, big_blind=lv.big_blind,
            ante=lv.ante, big_blind_ante=lv.big_blind_ante, left_s=clock.left, at=clock.since,
            running=clock.running, on_break=c.is_break, next_level=nxt.number if nxt else None,
            next_small_blind=nxt.small_blind if nxt else 0, next_big_blind=nxt.big_blind if nxt else 0,
            next_ante=nxt.ante if nxt else 0, next_big_blind_ante=nxt.big_blind_ante if nxt else 0,
            next_is_break=c.next_is_break, players_left=players, tables_left=self.tables_left,
            rebuys_owed=tuple(sorted(self.entrants.rebuys_owed)))
