"""The floor's side of a tournament, pure: read each table's retained state, decide the moves, build the
``tournament`` and ``clock`` payloads. The ``dealerbox tournament`` command is the MQTT shell around it.

Topics (additive to the floor contract, docs/asyncapi.yaml):
``dealerbox/<site>/<table>/tournament`` (floor to table, QoS 1) and
``dealerbox/<site>/tournament/<tournament>/clock`` (floor to the tables, retained).

:class:`TournamentFloor` is one tournament as the floor runs it (plans and clock); the ``dealerbox tournament``
command and the dashboard (``dealerbox dashboard --tournament FILE``) are two shells around the same object.
"""

from __future__ import annotations

import json
import logging
from dataclasses import dataclass, field
from functools import cache
from importlib import resources

import jsonschema
from referencing import Registry, Resource

from .clock import Clock, ClockView
from .config import Level, Tournament
from .seating import Move, Plan, TableSeats, plan

log = logging.getLogger("dealerbox.tournament")
SETTLE_S = 120.0                # a move not seen done in the tables' states by then is planned afresh
Payload = dict[str, object]


def instruction_topic(site: str, table: str) -> str:
    return f"dealerbox/{site}/{table}/tournament"


def clock_topic(site: str, tournament: str) -> str:
    return f"dealerbox/{site}/tournament/{tournament}/clock"


@cache
def validator(kind: str) -> jsonschema.Draft202012Validator:
    """The schema of ``tournament`` or ``clock`` payloads, with the floor envelope's definitions."""
    folder = resources.files("dealerbox.schemas").joinpath("floor")
    schemas = {n: json.loads(folder.joinpath(f"{n}.json").read_text(encoding="utf-8"))
               for n in ("envelope", "tournament", "clock")}
    registry = Registry().with_resources((s["$id"], Resource.from_contents(s)) for s in schemas.values())
    return jsonschema.Draft202012Validator(schemas[kind], registry=registry)


def schema_errors(kind: str, payload: object) -> list[str]:
    return [f"{'.'.join(map(str, e.absolute_path)) or '(top level)'}: {e.message}"
            for e in validator(kind).iter_errors(payload)]


def seats_from_state(table: str, state: object, seats_per_table: int) -> TableSeats | None:
    """A table's seats from its retained state payload; None when the payload is not a usable state."""
    if not isinstance(state, dict) or not isinstance(state.get("seats"), list):
        return None
    occupied = set()
    for s in state["seats"]:
        if not isinstance(s, dict) or not isinstance(s.get("seat"), int) or not 1 <= s["seat"] <= seats_per_table:
            return None
        if s.get("occupied") is True:
            occupied.add(s["seat"])
    button = state.get("button")
    return TableSeats(table, seats_per_table, frozenset(occupied), button if isinstance(button, int) else None)


def _amounts(level: Level) -> Payload:
    return {"small_blind": level.small_blind, "big_blind": level.big_blind, "ante": level.ante,
            "big_blind_ante": level.big_blind_ante}


def clock_payload(site: str, tournament: str, view: ClockView, *, boot: str, seq: int, at: float,
                  players_left: int | None = None, tables_left: int | None = None) -> Payload:
    nxt = None if view.next is None else {"level": view.next.number, **_amounts(view.next)}
    return {"v": 1, "kind": "clock", "site": site, "tournament": tournament, "boot": boot, "seq": seq, "at": at,
            "level": view.level, "is_break": view.is_break, "left": round(view.left, 3), "running": view.running,
            **_amounts(view.current), "next": nxt, "next_is_break": view.next_is_break,
            "players_left": players_left, "tables_left": tables_left}


@dataclass
class Pending:
    """A plan sent and not yet seen done: each sender's count must fall and each receiver's rise to this."""
    senders: dict[str, int]
    receivers: dict[str, int]
    deadline: float


@dataclass
class PlannedMove:
    """One move the floor sent, as the tournament page lists it: done once the player left the seat and, when
    a seat was named, the seat at the other table is taken (seen in the two tables' states)."""
    plan: int
    instruction: str                # "move" (balancing, 14a/14b) or "break" (the table broke, 12)
    move: Move
    at: float
    done: bool = False

    def seen(self, tables: dict[str, TableSeats]) -> None:
        """Done once the player left the seat and the seat named at the other table is taken, in ``tables``."""
        m = self.move
        if self.done or m.from_table not in tables or m.to_table not in tables:
            return
        gone = m.from_seat is None or m.from_seat not in tables[m.from_table].occupied
        seated = m.to_seat is None or m.to_seat in tables[m.to_table].occupied
        self.done = gone and seated


@dataclass
class Director:
    """Keeps every table's seats and plans when they change. ``observe`` takes one state message and returns
    the (topic, payload) pairs to publish; no I/O here, the caller passes the time."""
    tournament: Tournament
    site: str
    boot: str
    name: str = "tournament"
    tables: dict[str, TableSeats] = field(default_factory=dict)
    broken: set[str] = field(default_factory=set)
    pending: Pending | None = None
    plans: int = 0
    seq: int = 0
    ignored: int = 0               # state payloads that could not be read (counted, never fatal)
    history: list[PlannedMove] = field(default_factory=list)

    def observe(self, table: str, state: object, now: float, at: float) -> list[tuple[str, Payload]]:
        if self.tournament.tables and table not in self.tournament.tables:
            return []
        seats = seats_from_state(table, state, self.tournament.seats_per_table)
        if seats is None:
            self.ignored += 1
            return []
        self.tables[table] = seats
        self._mark_done()
        return self.replan(now, at)

    def _mark_done(self) -> None:
        for pm in self.history:
            pm.seen(self.tables)

    def counts(self) -> dict[str, int]:
        return {n: len(t.occupied) for n, t in self.tables.items()}

    def players_left(self) -> int:
        return sum(self.counts().values())

    def tables_left(self) -> int:
        return sum(1 for n, t in self.tables.items() if n not in self.broken and t.occupied)

    def _settled(self, now: float) -> bool:
        p = self.pending
        if p is None or now >= p.deadline:
            return True
        c = self.counts()
        return (all(c.get(n, 0) <= want for n, want in p.senders.items())
                and all(c.get(n, 0) >= want for n, want in p.receivers.items()))

    def replan(self, now: float, at: float) -> list[tuple[str, Payload]]:
        """The messages for a new plan, or [] while the last one is still being carried out or none is due."""
        expected = set(self.tournament.tables) or set(self.tables)
        if not expected <= set(self.tables) or not self._settled(now):
            return []
        self.pending = None
        order = self.tournament.tables or tuple(sorted(self.tables))
        p = plan(self.tables, order, self.broken, self.tournament.redraw_at_tables)
        if not p.moves:
            return []
        self.plans += 1
        if p.breaking:
            self.broken.add(p.breaking)
        c = self.counts()
        senders = {m.from_table: c[m.from_table] - sum(1 for x in p.moves if x.from_table == m.from_table)
                   for m in p.moves}
        receivers = {m.to_table: c[m.to_table] + sum(1 for x in p.moves if x.to_table == m.to_table) for m in p.moves}
        self.pending = Pending(senders, receivers, now + SETTLE_S)
        self.history += [PlannedMove(self.plans, "break" if m.from_table == p.breaking else "move", m, at)
                         for m in p.moves]
        return self._messages(p, at)

    def _messages(self, p: Plan, at: float) -> list[tuple[str, Payload]]:
        out: list[tuple[str, Payload]] = []
        tables_left = len([n for n in self.tables if n not in self.broken])
        live = {n: c for n, c in self.counts().items() if n not in self.broken}   # the tables still in play

        def send(table: str, instruction: str, rule: str, moves: tuple[Move, ...]) -> None:
            self.seq += 1
            out.append((instruction_topic(self.site, table), {
                "v": 1, "kind": "tournament", "site": self.site, "table": table, "tournament": self.tournament.id,
                "boot": self.boot, "seq": self.seq, "at": at, "plan": self.plans, "instruction": instruction,
                "rule": rule, "moves": [{"from_table": m.from_table, "from_seat": m.from_seat,
                                         "to_table": m.to_table, "to_seat": m.to_seat} for m in moves],
                "tables_left": tables_left, "counts": live, "from": self.name}))

        involved = sorted({m.from_table for m in p.moves} | {m.to_table for m in p.moves})
        for table in involved:
            mine = tuple(m for m in p.moves if table in (m.from_table, m.to_table))
            if table == p.breaking:
                send(table, "break", "tournament.12", mine)
            else:
                send(table, "move", mine[0].rule, mine)
        if p.redraw:
            for table in sorted(n for n in self.tables if n not in self.broken):
                send(table, "redraw", "tournament.17", ())
        return out


def follow_floor_clock(clock: Clock, payload: object, now: float, wall_now: float) -> tuple[Clock, str | None]:
    """A terminal's clock after a message on the clock topic: the floor's level, time left and running, less
    the time the message spent on the way when running. Returns the clock unchanged and the reason when the
    message is refused (not the schema, another tournament, a level outside the schedule)."""
    errors = schema_errors("clock", payload)
    if errors:
        return clock, f"clock message refused: {errors[0]}"
    assert isinstance(payload, dict)
    if payload["tournament"] != clock.tournament.id:
        return clock, f"clock message for tournament {payload['tournament']}, this table plays {clock.tournament.id}"
    # the floor measured 'left' at its 'at': a message that waited in the broker is that much older
    late = max(0.0, wall_now - float(payload["at"])) if payload["running"] else 0.0
    try:
        return clock.follow(now, payload["level"], max(0.0, payload["left"] - late), payload["running"],
                            payload["is_break"]), None
    except ValueError as e:
        return clock, f"clock message refused: {e}"


@dataclass
class TournamentFloor:
    """One tournament as the floor runs it, pure and not thread-safe (the shell holds a lock): the Director's
    plans and the level clock, each change returned as the (topic, payload) messages to publish, checked
    against their schemas. The caller passes the times: ``now`` drives the clock and the plans, ``at`` is the
    wall clock stamped on messages. Instructions go QoS 1 unretained, the clock retained."""
    director: Director
    clock: Clock
    clock_seq: int = 0
    refused: int = 0               # our own payloads that failed their schema: a bug, logged and never sent
    sent_clock: bool = False       # once we published a clock, a retained one from before is no longer followed

    @property
    def id(self) -> str:
        return self.director.tournament.id

    def observe(self, table: str, state: object, now: float, at: float) -> list[tuple[str, Payload]]:
        return self._checked(self.director.observe(table, state, now, at))

    def clock_message(self, now: float, at: float) -> list[tuple[str, Payload]]:
        """The clock as it stands, for the retained clock topic."""
        self.clock = self.clock.at(now)
        self.clock_seq += 1
        self.sent_clock = True
        d = self.director
        payload = clock_payload(d.site, self.id, self.clock.view(now), boot=d.boot, seq=self.clock_seq, at=at,
                                players_left=d.players_left() if d.tables else None,
                                tables_left=d.tables_left() if d.tables else None)
        return self._checked([(clock_topic(d.site, self.id), payload)])

    def pause(self, now: float, at: float) -> list[tuple[str, Payload]]:
        self.clock = self.clock.pause(now)
        return self.clock_message(now, at)

    def resume(self, now: float, at: float) -> list[tuple[str, Payload]]:
        self.clock = self.clock.resume(now)
        return self.clock_message(now, at)

    def adjust(self, now: float, at: float, seconds: float) -> list[tuple[str, Payload]]:
        self.clock = self.clock.adjust(now, seconds)
        return self.clock_message(now, at)

    def resume_from(self, payload: object, now: float, wall_now: float) -> str | None:
        """Before our first clock goes out, take the retained one a previous run left (a restarted floor
        carries on where it was instead of starting the event again at level 1). The reason when refused."""
        if self.sent_clock:
            return "the floor already runs this clock"
        if isinstance(payload, dict) and payload.get("boot") == self.director.boot:
            return "our own clock"
        self.clock, refused = follow_floor_clock(self.clock, payload, now, wall_now)
        return refused

    def _checked(self, out: list[tuple[str, Payload]]) -> list[tuple[str, Payload]]:
        kept = []
        for topic, payload in out:
            errors = schema_errors(str(payload["kind"]), payload)
            if errors:
                self.refused += 1
                log.error("not sending %s: %s", topic, "; ".join(errors))
            else:
                kept.append((topic, payload))
        return kept
