"""The dashboard's memory: users, tables, alerts and their handling, per-hand events and a journal of what was
pushed to browsers (its ids are the SSE ``id:`` so a browser that reconnects with ``Last-Event-ID`` gets what it
missed). SQLAlchemy Core, so one set of statements runs on SQLite (the default, WAL, created on first start) and
on PostgreSQL (by URL). Schema changes are numbered steps recorded in ``schema_migrations``.
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Callable, Iterator
from dataclasses import dataclass

import sqlalchemy as sa
from sqlalchemy import event as sa_event
from sqlalchemy.dialects import postgresql, sqlite

from .schema import (ALERT_COLUMNS, LIFE_CYCLE_COLUMNS, MIGRATIONS, ROLES, SCHEMA_LOCK, alert_indexes, alerts, anchors,
                     counters, hand_events, journal, life_cycle, meta, migrations, refusals, sessions, settings,
                     tables, users)

__all__ = ["ALERT_COLUMNS", "LIFE_CYCLE_COLUMNS", "MIGRATIONS", "ROLES", "Alert", "Store", "alerts", "anchors",
           "counters", "hand_events", "journal", "meta", "refusals", "sessions", "settings", "tables", "users"]


# Bursts are filed with prebuilt statements run as executemany: building a statement per message costs more
# than the SQL itself at a few thousand messages a second.
MAX_KEY = 2**31 - 1           # the largest id or hand number a column holds (PostgreSQL's integer)
_HEARD = (tables.update().where(tables.c.site == sa.bindparam("k_site"), tables.c.table_id == sa.bindparam("k_table"))
          .values(last_seen=sa.bindparam("at"), received=tables.c.received + sa.bindparam("n")))
_STATED = (tables.update().where(tables.c.site == sa.bindparam("k_site"), tables.c.table_id == sa.bindparam("k_table"))
           .values(last_seen=sa.bindparam("at"), received=tables.c.received + sa.bindparam("n"),
                   state=sa.bindparam("state"), state_at=sa.bindparam("at"), status="online"))
_LOG = journal.insert()              # a prebuilt statement: building one per row cost more than the insert
# read after every filed burst (the SSE tail): building the select each time cost a third of filing one alert
_JOURNAL_AFTER = (sa.select(journal.c.id, journal.c.kind, journal.c.site, journal.c.data)
                  .where(journal.c.id > sa.bindparam("last")).order_by(journal.c.id).limit(sa.bindparam("n")))
_BUMP = counters.update().where(counters.c.name == sa.bindparam("k_name")).values(
    value=counters.c.value + sa.bindparam("by"))
_ALERT_KEY = [alerts.c.site, alerts.c.table_id, alerts.c.boot, alerts.c.finding]       # alerts_once
_ANCHOR_KEY = [anchors.c.site, anchors.c.table_id, anchors.c.origin, anchors.c.part, anchors.c.n, anchors.c.head]
_STATUS = (tables.update().where(tables.c.site == sa.bindparam("k_site"), tables.c.table_id == sa.bindparam("k_table"))
           .values(last_seen=sa.bindparam("at"), received=tables.c.received + sa.bindparam("n"),
                   status=sa.bindparam("status"), reason=sa.bindparam("reason")))


def _sqlite_pragmas(dbapi_connection, _record) -> None:
    cur = dbapi_connection.cursor()
    cur.execute("PRAGMA journal_mode=WAL")       # readers (page views) never wait for the subscriber's writes
    cur.execute("PRAGMA synchronous=NORMAL")     # a power cut may lose the last commits, never corrupt the file
    cur.execute("PRAGMA busy_timeout=5000")
    cur.close()


@dataclass
class Alert:
    id: int
    site: str
    table_id: str
    boot: str
    finding: str
    rule: str | None
    citation: str | None
    severity: str | None
    ruling: str | None
    seats: str | None
    hand: int | None
    raised_at: float
    acked_by: str | None
    acked_at: float | None
    assigned_to: str | None
    resolved_by: str | None
    resolved_at: float | None
    note: str | None
    escalated_at: float | None
    seen_by: str | None = None
    seen_at: float | None = None
    assigned_by: str | None = None
    assigned_at: float | None = None
    table_acked_by: str | None = None
    table_acked_at: float | None = None

    @property
    def open(self) -> bool:
        return self.acked_at is None and self.resolved_at is None

    def as_json(self) -> dict:
        return {k: getattr(self, k) for k in ALERT_COLUMNS}


class Store:
    """One database, by URL: ``sqlite:///path.db`` (default) or ``postgresql+psycopg://user@host:port/db``."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.engine = sa.create_engine(url, future=True)
        if self.engine.dialect.name == "sqlite":
            sa_event.listen(self.engine, "connect", _sqlite_pragmas)
        self._add_alert = self.insert(alerts).on_conflict_do_nothing(index_elements=_ALERT_KEY).returning(alerts.c.id)
        self.migrate()

    @contextlib.contextmanager
    def schema_lock(self) -> Iterator[sa.Connection]:
        """A transaction holding the database's schema lock, for creating tables: two instances starting at once
        on one new database (PostgreSQL: an advisory lock; SQLite: BEGIN IMMEDIATE) create them one after the
        other, and the second finds them made."""
        with self.engine.begin() as conn:
            if self.engine.dialect.name == "postgresql":
                conn.execute(sa.text("SELECT pg_advisory_xact_lock(:key)"), {"key": SCHEMA_LOCK})
            elif self.engine.dialect.name == "sqlite":
                conn.exec_driver_sql("BEGIN IMMEDIATE")     # pysqlite opens no transaction before DDL itself
            yield conn

    def insert(self, table: sa.Table) -> postgresql.Insert | sqlite.Insert:
        """An INSERT that can say ON CONFLICT (both PostgreSQL and SQLite have it): the atomic form of "insert
        unless it is there", which two instances on one database cannot race."""
        if self.engine.dialect.name == "postgresql":
            return postgresql.insert(table)
        return sqlite.insert(table)

    def migrate(self) -> None:
        with self.schema_lock() as conn:
            migrations.create(conn, checkfirst=True)
            done = {r[0] for r in conn.execute(sa.select(migrations.c.version))}
            for version in sorted(MIGRATIONS):
                if version in done:
                    continue
                if version == 1:
                    meta.create_all(conn, checkfirst=True)
                elif version == 2:
                    anchors.create(conn, checkfirst=True)
                elif version == 3:
                    life_cycle(conn)
                elif version == 4:
                    alert_indexes(conn)
                conn.execute(migrations.insert().values(version=version, applied_at=0.0))

    def versions(self) -> list[int]:
        with self.engine.connect() as conn:
            return sorted(r[0] for r in conn.execute(sa.select(migrations.c.version)))

    def close(self) -> None:
        self.engine.dispose()

    # --- users --------------------------------------------------------------------------------------------

    def put_user(self, name: str, role: str, password_hash: str | None) -> None:
        """Add a user or change one's role and (unless None) password; a new password ends their sessions."""
        if role not in ROLES:
            raise ValueError(f"role: {role!r} is not one of {', '.join(ROLES)}")
        if not name or len(name) > 64 or not name.isprintable() or name != name.strip():
            raise ValueError("name: 1 to 64 printable characters, no leading or trailing space")
        with self.engine.begin() as conn:
            if role != "admin":
                self._keep_an_admin(conn, name, f"role: {name} is the last admin: make another user admin first")
            if password_hash is None:
                if not conn.execute(users.update().where(users.c.name == name).values(role=role)).rowcount:
                    raise ValueError(f"password: {name} is a new user: give a password")
                return
            new = self.insert(users).values(name=name, role=role, password_hash=password_hash)
            conn.execute(new.on_conflict_do_update(index_elements=[users.c.name],
                                                   set_={"role": role, "password_hash": password_hash}))
            conn.execute(sessions.delete().where(sessions.c.user == name))

    def remove_user(self, name: str) -> bool:
        """Remove a user and end every session of theirs; False when there was none of that name."""
        with self.engine.begin() as conn:
            self._keep_an_admin(conn, name, f"remove: {name} is the last admin: make another user admin first")
            conn.execute(sessions.delete().where(sessions.c.user == name))
            return bool(conn.execute(users.delete().where(users.c.name == name)).rowcount)

    def _keep_an_admin(self, conn: sa.Connection, name: str, why: str) -> None:
        """ValueError(why) when ``name`` is the only admin: a floor with none could never manage its users again."""
        admins = [r[0] for r in conn.execute(sa.select(users.c.name).where(users.c.role == "admin").limit(2))]
        if admins == [name]:
            raise ValueError(why)

    # --- sessions (the cookie carries a random token; only its hash is kept) ------------------------------

    def open_session(self, token_hash: str, user: str, csrf: str, now: float, ttl: float) -> None:
        with self.engine.begin() as conn:
            conn.execute(sessions.delete().where(sessions.c.expires_at < now))    # the expired go as new ones come
            conn.execute(sessions.insert().values(token_hash=token_hash, user=user, csrf=csrf, created_at=now,
                                                  expires_at=now + ttl))

    def session(self, token_hash: str, now: float) -> tuple[str, str, str] | None:
        """(user, role as the store has it now, CSRF token) of a live session, or None."""
        q = (sa.select(sessions.c.user, users.c.role, sessions.c.csrf)
             .join(users, users.c.name == sessions.c.user)
             .where(sessions.c.token_hash == token_hash, sessions.c.expires_at > now))
        with self.engine.connect() as conn:
            row = conn.execute(q).first()
        return (row[0], row[1], row[2]) if row else None

    def end_session(self, token_hash: str) -> None:
        with self.engine.begin() as conn:
            conn.execute(sessions.delete().where(sessions.c.token_hash == token_hash))

    def user(self, name: str) -> tuple[str, str] | None:
        """(role, password hash) or None."""
        with self.engine.connect() as conn:
            row = conn.execute(sa.select(users.c.role, users.c.password_hash).where(users.c.name == name)).first()
        return (row[0], row[1]) if row else None

    def user_names(self) -> list[tuple[str, str]]:
        with self.engine.connect() as conn:
            return [(r[0], r[1]) for r in conn.execute(sa.select(users.c.name, users.c.role).order_by(users.c.name))]

    def setting(self, name: str, make: Callable[[], str]) -> str:
        """A stored setting, made and kept on first use (the session signing key survives a restart). Two
        instances starting at once both offer one; the first kept is the one both use."""
        with self.engine.begin() as conn:
            row = conn.execute(sa.select(settings.c.value).where(settings.c.name == name)).first()
            if row:
                return row[0]
            conn.execute(self.insert(settings).values(name=name, value=make())
                         .on_conflict_do_nothing(index_elements=[settings.c.name]))
            return conn.execute(sa.select(settings.c.value).where(settings.c.name == name)).scalar_one()

    # --- anchors ------------------------------------------------------------------------------------------

    def keep_anchor(self, conn: sa.Connection, payload: dict, now: float) -> bool:
        """File one signed head (already checked against anchor.json); False when it was kept before (the
        broker hands the retained one to every new subscription)."""
        new = self.insert(anchors).values(site=payload["site"], table_id=payload["table"], origin=payload["origin"],
                                          part=payload["part"], n=payload["n"], head=payload["head"],
                                          payload=json.dumps(payload, sort_keys=True), received_at=now)
        return conn.execute(new.on_conflict_do_nothing(index_elements=_ANCHOR_KEY).returning(anchors.c.id)) \
            .first() is not None

    def anchors(self, site: str | None = None, table: str | None = None) -> list[dict]:
        """The signed heads kept, as published, oldest first: the list ``dealerbox verify --anchors`` reads."""
        q = sa.select(anchors.c.payload).order_by(anchors.c.id)
        if site:
            q = q.where(anchors.c.site == site)
        if table:
            q = q.where(anchors.c.table_id == table)
        with self.engine.connect() as conn:
            return [json.loads(r[0]) for r in conn.execute(q)]

    # --- counters -----------------------------------------------------------------------------------------

    def bump(self, conn: sa.Connection, name: str, by: int = 1) -> None:
        if conn.execute(_BUMP, {"k_name": name, "by": by}).rowcount == 0:
            # the counter's first bump: two instances may make it at once, so the insert adds on a conflict
            new = self.insert(counters).values(name=name, value=by)
            conn.execute(new.on_conflict_do_update(index_elements=[counters.c.name],
                                                   set_={"value": counters.c.value + new.excluded.value}))

    def counters(self) -> dict[str, int]:
        with self.engine.connect() as conn:
            return {r[0]: r[1] for r in conn.execute(sa.select(counters.c.name, counters.c.value))}

    def refused(self, conn: sa.Connection, site: str | None, table: str | None, topic: str, reason: str,
                at: float) -> None:
        conn.execute(refusals.insert().values(at=at, site=site, table_id=table, topic=topic[:200], reason=reason[:300]))

    def refusals(self, limit: int = 50, before: int | None = None) -> list[dict]:
        """The newest refused messages, a page at a time (``before``: the last id of the previous page)."""
        q = sa.select(refusals).order_by(refusals.c.id.desc()).limit(limit)
        if before is not None:
            q = q.where(refusals.c.id < before)
        with self.engine.connect() as conn:
            return [dict(r._mapping) for r in conn.execute(q)]

    # --- tables -------------------------------------------------------------------------------------------

    def touch_table(self, conn: sa.Connection, site: str, table: str, at: float, *, invalid: bool = False,
                    count: int = 1, **values: object) -> None:
        key = (tables.c.site == site) & (tables.c.table_id == table)
        inc = {"invalid": tables.c.invalid + count} if invalid else {"received": tables.c.received + count}
        if conn.execute(tables.update().where(key).values(last_seen=at, **inc, **values)).rowcount == 0:
            new = self.insert(tables).values(site=site, table_id=table, last_seen=at,
                                             received=0 if invalid else count, invalid=count if invalid else 0,
                                             **values)
            conn.execute(new.on_conflict_do_update(index_elements=[tables.c.site, tables.c.table_id],
                                                   set_={"last_seen": at, **inc, **values}))

    def tables(self, site: str | None = None) -> list[dict]:
        q = sa.select(tables).order_by(tables.c.site, tables.c.table_id)
        if site:
            q = q.where(tables.c.site == site)
        with self.engine.connect() as conn:
            out = [dict(r._mapping) for r in conn.execute(q)]
        for row in out:
            row["state"] = json.loads(row["state"]) if row["state"] else None
        return out

    def state_times(self) -> list[tuple[str, str, float | None]]:
        """(site, table, when its state last came) of every table: what the staleness sweep needs, cheaply."""
        with self.engine.connect() as conn:
            return [(r[0], r[1], r[2]) for r in conn.execute(
                sa.select(tables.c.site, tables.c.table_id, tables.c.state_at))]

    def table_keys(self) -> set[tuple[str, str]]:
        with self.engine.connect() as conn:
            return {(r[0], r[1]) for r in conn.execute(sa.select(tables.c.site, tables.c.table_id))}

    def add_tables(self, conn: sa.Connection, keys: list[tuple[str, str]], at: float) -> None:
        """Rows for tables heard of for the first time, in one statement (1,000 of them after a start); a row
        another instance made meanwhile stays as it is."""
        new = self.insert(tables).on_conflict_do_nothing(index_elements=[tables.c.site, tables.c.table_id])
        conn.execute(new, [{"site": s, "table_id": t, "last_seen": at, "received": 0, "invalid": 0}
                                       for s, t in keys])

    def file_burst(self, conn: sa.Connection, at: float, heard: dict[tuple[str, str], int],
                   states: dict[tuple[str, str], tuple[str, int]], events: list[dict],
                   statuses: dict[tuple[str, str], tuple[str, str, int]] | None = None) -> None:
        """Counts per table, the latest status and state per table and the events of one burst, in four
        statements."""
        if states:
            conn.execute(_STATED, [{"k_site": s, "k_table": t, "at": at, "state": st, "n": n}
                                        for (s, t), (st, n) in states.items()])
        rest = [{"k_site": s, "k_table": t, "at": at, "n": n} for (s, t), n in heard.items() if (s, t) not in states]
        if rest:
            conn.execute(_HEARD, rest)
        if statuses:       # after the states, which say "online": a last will in the same burst wins
            conn.execute(_STATUS, [{"k_site": s, "k_table": t, "at": at, "status": st, "reason": why, "n": n}
                                   for (s, t), (st, why, n) in statuses.items()])
        if events:
            conn.execute(hand_events.insert(), events)

    def table(self, site: str, table: str) -> dict | None:
        with self.engine.connect() as conn:
            row = conn.execute(sa.select(tables).where(tables.c.site == site, tables.c.table_id == table)).first()
        if row is None:
            return None
        out = dict(row._mapping)
        out["state"] = json.loads(out["state"]) if out["state"] else None
        return out

    def sites(self) -> list[str]:
        with self.engine.connect() as conn:
            return [r[0] for r in conn.execute(sa.select(tables.c.site).distinct().order_by(tables.c.site))]

    # --- alerts -------------------------------------------------------------------------------------------

    def add_alert(self, conn: sa.Connection, row: dict) -> int | None:
        """The new alert's id, or None when this (site, table, boot, finding) is already filed (by this instance
        or, a moment ago, by another on the same database: the unique key decides, not a look first)."""
        # one prebuilt statement, the row as parameters: building `.values(row)` per alert and a look first cost
        # more than both SQL statements (46 % of the filing thread at 500 tables, py-spy, 2026-11-27)
        key = conn.execute(self._add_alert, row).first()
        return None if key is None else int(key[0])

    def alert_of(self, conn: sa.Connection, site: str, table: str, boot: str, finding: str) -> Alert | None:
        row = conn.execute(sa.select(alerts).where(alerts.c.site == site, alerts.c.table_id == table,
                                                   alerts.c.boot == boot, alerts.c.finding == finding)).first()
        return Alert(**row._mapping) if row else None

    def alert(self, alert_id: int) -> Alert | None:
        if not 0 < alert_id <= MAX_KEY:       # an id out of the column's range (from a URL) is no alert
            return None
        with self.engine.connect() as conn:
            row = conn.execute(sa.select(alerts).where(alerts.c.id == alert_id)).first()
        return Alert(**row._mapping) if row else None

    def alerts(self, *, site: str | None = None, table: str | None = None, rule: str | None = None,
               severity: str | None = None, supervisor: str | None = None, since: float | None = None,
               until: float | None = None, open_only: bool = False, limit: int = 500, offset: int = 0) -> list[Alert]:
        q = sa.select(alerts)
        for column, value in ((alerts.c.site, site), (alerts.c.table_id, table), (alerts.c.rule, rule),
                              (alerts.c.severity, severity)):
            if value:
                q = q.where(column == value)
        if supervisor:
            q = q.where((alerts.c.acked_by == supervisor) | (alerts.c.assigned_to == supervisor)
                        | (alerts.c.resolved_by == supervisor))
        if since is not None:
            q = q.where(alerts.c.raised_at >= since)
        if until is not None:
            q = q.where(alerts.c.raised_at <= until)
        if open_only:
            q = q.where(alerts.c.acked_at.is_(None) & alerts.c.resolved_at.is_(None))
        # escalated first, then newest first
        q = q.order_by(alerts.c.escalated_at.is_(None), alerts.c.id.desc()).limit(limit).offset(offset)
        with self.engine.connect() as conn:
            return [Alert(**r._mapping) for r in conn.execute(q)]

    def mark_seen(self, conn: sa.Connection, alert_ids: list[int], user: str, at: float) -> list[tuple[int, str]]:
        """Note ``user`` as the first to see each alert not seen before; (id, site) of those."""
        # one statement: two supervisors on two instances looking at once cannot both be first
        q = (alerts.update().where(alerts.c.id.in_(alert_ids), alerts.c.seen_at.is_(None))
             .values(seen_by=user, seen_at=at).returning(alerts.c.id, alerts.c.site))
        return sorted((r[0], r[1]) for r in conn.execute(q))

    def alert_states(self, alert_ids: list[int]) -> list[tuple[int, str, str, str | None, bool]]:
        """(id, site, table, severity, open) of each alert named: what a tile and the alarm need of it."""
        if not alert_ids:
            return []
        q = sa.select(alerts.c.id, alerts.c.site, alerts.c.table_id, alerts.c.severity,
                      alerts.c.acked_at.is_(None) & alerts.c.resolved_at.is_(None)).where(alerts.c.id.in_(alert_ids))
        with self.engine.connect() as conn:
            return [(r[0], r[1], r[2], r[3], bool(r[4])) for r in conn.execute(q)]

    def floor_calls(self) -> dict[str, int]:
        """Open floor alerts per site (sites with none left out), counted in the store: every instance on it
        sounds the same alarm."""
        q = (sa.select(alerts.c.site, sa.func.count()).where(
            alerts.c.severity == "floor", alerts.c.acked_at.is_(None), alerts.c.resolved_at.is_(None))
            .group_by(alerts.c.site))
        with self.engine.connect() as conn:
            return {r[0]: r[1] for r in conn.execute(q)}

    def update_alert(self, conn: sa.Connection, alert_id: int, **values: object) -> None:
        conn.execute(alerts.update().where(alerts.c.id == alert_id).values(**values))

    def claim_alert(self, alert_id: int, unset: tuple[str, ...], **values: object) -> bool:
        """Set ``values`` on the alert only while every column in ``unset`` is still NULL, in one statement;
        False when someone (a colleague on another instance, another instance's escalation) got there first."""
        q = alerts.update().where(alerts.c.id == alert_id, *(alerts.c[name].is_(None) for name in unset))
        with self.engine.begin() as conn:
            return conn.execute(q.values(**values)).rowcount == 1

    def due_for_escalation(self, now: float, timeout: float) -> list[Alert]:
        q = sa.select(alerts).where(alerts.c.severity == "floor", alerts.c.acked_at.is_(None),
                                    alerts.c.resolved_at.is_(None), alerts.c.escalated_at.is_(None),
                                    alerts.c.raised_at <= now - timeout)
        with self.engine.connect() as conn:
            return [Alert(**r._mapping) for r in conn.execute(q)]

    # --- hands --------------------------------------------------------------------------------------------

    def add_event(self, conn: sa.Connection, site: str, table: str, data: dict, at: float) -> None:
        conn.execute(hand_events.insert().values(site=site, table_id=table, hand=data.get("hand"),
                                                 name=data["event"], data=json.dumps(data), at=at))

    def hands(self, site: str, table: str, limit: int = 20) -> list[dict]:
        """The newest hands: number, event count and their findings."""
        q = (sa.select(hand_events.c.hand, sa.func.count(), sa.func.min(hand_events.c.at))
             .where(hand_events.c.site == site, hand_events.c.table_id == table, hand_events.c.hand.is_not(None))
             .group_by(hand_events.c.hand).order_by(hand_events.c.hand.desc()).limit(limit))
        with self.engine.connect() as conn:
            rows = conn.execute(q).all()
        found: dict[int | None, list[Alert]] = {}
        for a in self.alerts(site=site, table=table, limit=2000):
            found.setdefault(a.hand, []).append(a)
        return [{"hand": r[0], "events": r[1], "at": r[2], "findings": found.get(r[0], [])} for r in rows]

    def hand(self, site: str, table: str, hand: int) -> list[dict]:
        if not 0 <= hand <= MAX_KEY:
            return []
        q = (sa.select(hand_events.c.data).where(hand_events.c.site == site, hand_events.c.table_id == table,
                                                 hand_events.c.hand == hand).order_by(hand_events.c.id))
        with self.engine.connect() as conn:
            return [json.loads(r[0]) for r in conn.execute(q)]

    # --- journal (what browsers are pushed) -------------------------------------------------------------

    def log(self, conn: sa.Connection, kind: str, site: str | None, data: dict, at: float) -> int:
        key = conn.execute(_LOG, {"at": at, "kind": kind, "site": site, "data": json.dumps(data)}).inserted_primary_key
        assert key is not None       # an insert always has one
        return int(key[0])

    def log_many(self, conn: sa.Connection, kind: str, rows: list[tuple[str | None, dict]], at: float) -> list[int]:
        """Journal many rows of one kind in one statement (a burst's tile pushes); their ids, in order."""
        if not rows:
            return []
        found = conn.execute(_LOG.returning(journal.c.id, sort_by_parameter_order=True),
                             [{"at": at, "kind": kind, "site": site, "data": json.dumps(data)} for site, data in rows])
        return [r[0] for r in found]

    def journal_after(self, last_id: int, limit: int = 500) -> list[tuple[int, str, str | None, str]]:
        with self.engine.connect() as conn:
            return [(r[0], r[1], r[2], r[3]) for r in conn.execute(_JOURNAL_AFTER, {"last": last_id, "n": limit})]

    def last_journal_id(self) -> int:
        with self.engine.connect() as conn:
            return conn.execute(sa.select(sa.func.coalesce(sa.func.max(journal.c.id), 0))).scalar_one()
