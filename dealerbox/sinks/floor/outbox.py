"""The durable outbox: every event and alert is written here BEFORE it is published, and deleted only when
the broker acknowledges it (PUBACK). On reconnect or restart the rows go out again in ``id`` order.

An alert is done only when the floor has filed it: on its PUBACK it moves to ``unfiled``, where it waits for
the dashboard's receipt (``.../receipt``, receipts.py) and is published again, marked replayed, whenever it
falls due (a broker that lost it, a dashboard that was away). A PUBACK only says the broker has it.

Durability choices (SQLite):

- ``journal_mode=WAL``: the spooler's inserts and the publisher's deletes do not block each other, and a
  crash mid-write leaves the last committed transaction intact (WAL is never half-applied).
- The spooler's connection uses ``synchronous=FULL``: each commit fsyncs the WAL, so a row survives a power
  cut the moment ``insert`` returns (NORMAL in WAL mode may lose the last commits on power loss).
- The publisher's connection uses ``synchronous=NORMAL``: losing a delete to a power cut only means one
  message is sent twice, and the dashboard deduplicates by (boot, seq). Synchronous is per connection.
- ``AUTOINCREMENT``: ids are never reused, so order holds across restarts.
- The publisher never waits for the spooler's lock to delete acknowledged rows: while the spooler commits
  (its fsync can take tens of ms on a busy card), SQLite's busy handler would sleep the publisher in steps
  of 1, 2, 5, 10, 20... ms, and the next alert would wait with it (measured: up to 50 ms of the frame ->
  floor alert tail). ``delete`` keeps the ids instead and deletes them with the next call; ``after`` never
  returns a row that is only waiting for its delete, and ``close`` deletes what is left.
- An alert is published while its group's COMMIT fsyncs, not after (``insert(before_commit=...)``): the
  fsync was the largest part of the frame -> floor alert tail. A power cut before the commit loses nothing
  more than before (the alert was in flight either way; now the floor may have it). The row is still
  committed and deleted on its PUBACK; a PUBACK that comes before the commit finds the write lock held and
  the delete waits for the next call, as above. Ids are written explicitly and never handed out twice in
  a run, even by a group that rolled back, so a PUBACK can never delete another row.

One :class:`Outbox` object per thread (sqlite3 connections are not shared between threads).
"""

from __future__ import annotations

import json
import sqlite3
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from collections.abc import Callable

SCHEMA = """
CREATE TABLE IF NOT EXISTS outbox (
    id       INTEGER PRIMARY KEY AUTOINCREMENT,
    topic    TEXT    NOT NULL,
    kind     TEXT    NOT NULL,      -- event | alert
    priority INTEGER NOT NULL,      -- 0 dropped first when full, 1 next, 2 never dropped (alerts, notices)
    boot     TEXT    NOT NULL,
    seq      INTEGER NOT NULL,
    session  INTEGER NOT NULL,      -- link session it was written in; -1 while disconnected
    payload  TEXT    NOT NULL
);
CREATE INDEX IF NOT EXISTS outbox_by_priority ON outbox(priority, id);
-- alerts the broker acknowledged that the floor has not yet filed (no receipt): sent again when due
CREATE TABLE IF NOT EXISTS unfiled (
    id       INTEGER PRIMARY KEY,   -- its id in outbox: a resend's PUBACK finds it by the same id
    topic    TEXT    NOT NULL,
    boot     TEXT    NOT NULL,
    seq      INTEGER NOT NULL,
    session  INTEGER NOT NULL,
    payload  TEXT    NOT NULL,
    due      REAL    NOT NULL,      -- wall time (UNIX s) it goes out again unless a receipt came first
    tries    INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS unfiled_by_due ON unfiled(due);
CREATE INDEX IF NOT EXISTS unfiled_by_seq ON unfiled(boot, seq);
-- a receipt quicker than the PUBACK finds its alert still here: only alert rows are indexed
CREATE INDEX IF NOT EXISTS outbox_alerts ON outbox(boot, seq) WHERE kind = 'alert';
-- rows written under another table's (or site's) topics: kept for a technician to look at, never sent
CREATE TABLE IF NOT EXISTS quarantine (
    id       INTEGER PRIMARY KEY,
    topic    TEXT    NOT NULL,
    kind     TEXT    NOT NULL,
    priority INTEGER NOT NULL,
    boot     TEXT    NOT NULL,
    seq      INTEGER NOT NULL,
    session  INTEGER NOT NULL,
    payload  TEXT    NOT NULL
);
"""


@dataclass(frozen=True, slots=True)
class Row:
    id: int
    topic: str
    kind: str
    priority: int
    boot: str
    seq: int
    session: int
    payload: str


_ENCODER = json.JSONEncoder(separators=(",", ":"))   # the link marks a late row by rewriting '"replayed":false'


class OutboxError(RuntimeError):
    """The outbox file cannot be opened or used; the message names the file and what to do."""


BUSY_WAIT_MS = 10_000   # how long a write waits for the other connection's lock (the spooler's inserts)
CACHE_KIB = 1024        # SQLite page cache per connection (KiB): appends and in-order reads need little
RECEIPT_WAIT_S = 30.0   # an alert the floor has not filed this long after its PUBACK goes out again
RECEIPT_WAIT_MAX_S = 600.0   # the wait doubles with each resend up to this (a floor away for a day)


class Outbox:
    def __init__(self, path: str | Path, synchronous: str = "FULL", max_pages: int | None = None,
                 checkpoints: bool = True, receipt_wait: float = RECEIPT_WAIT_S) -> None:
        self.path = Path(path)
        self.receipt_wait = receipt_wait
        self.receipt_wait_max = max(receipt_wait, RECEIPT_WAIT_MAX_S)
        self._acked: set[int] = set()   # acknowledged rows whose delete waits for the lock (see module doc)
        self._next_id = 1               # the next row id this connection writes (never reused in a run)
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self.db = sqlite3.connect(self.path, timeout=BUSY_WAIT_MS / 1000, isolation_level=None,
                                      check_same_thread=True)
            self.db.execute("PRAGMA journal_mode=WAL")
            # a fixed page cache: the outbox may hold a day of hands after an outage, the memory must not follow
            self.db.execute(f"PRAGMA cache_size=-{CACHE_KIB}")
            self.db.execute(f"PRAGMA synchronous={synchronous}")
            if not checkpoints:
                # the WAL checkpoint (copy to the main file + its fsync) then runs on the other connection's
                # commits, off the path every alert takes before it is published
                self.db.execute("PRAGMA wal_autocheckpoint=0")
            if max_pages:
                # Stands in for a small disk: SQLite then fails with SQLITE_FULL exactly as on a full card.
                self.db.execute(f"PRAGMA max_page_count={int(max_pages)}")
            self.db.executescript(SCHEMA)
        except (sqlite3.Error, OSError) as e:
            raise OutboxError(f"{self.path}: cannot open the floor outbox ({e}); check floor.outbox and the "
                              f"directory's permissions and free space") from None

    def close(self) -> None:
        if self._acked:
            try:
                self.delete([], wait=True)
            except sqlite3.Error:
                pass  # the rows stay and go out again, marked replayed: the floor drops them by (boot, seq)
        self.db.close()

    def depth(self) -> int:
        return int(self.db.execute("SELECT COUNT(*) FROM outbox").fetchone()[0])

    def insert(self, rows: list[tuple[str, str, int, str, int, int, dict[str, Any]]], trim: int = 0,
               below_priority: int = 0, dropped: list[Row] | None = None,
               before_commit: Callable[[list[Row]], None] | None = None) -> list[int]:
        """Write (topic, kind, priority, boot, seq, session, payload) rows in one transaction; their ids.
        ``trim`` > 0: in the same transaction, delete that many of the oldest rows with priority <
        ``below_priority`` (lowest priority first, the new rows included) and append them to ``dropped``.
        ``before_commit`` is handed the written rows (ids known) before the COMMIT and its fsync, so the
        link can publish an alert while the disk syncs (see the module doc)."""
        ids = []
        written: list[Row] = []
        dumps = _ENCODER.encode
        self.db.execute("BEGIN IMMEDIATE")
        try:
            # ids this object handed out are never handed out again, even when the group rolls back: the
            # publisher may already hold one (before_commit), and its PUBACK must never delete another row
            stored = self.db.execute("SELECT seq FROM sqlite_sequence WHERE name = 'outbox'").fetchone()
            next_id = max(self._next_id, (stored[0] if stored else 0) + 1)
            for topic, kind, prio, boot, seq, session, payload in rows:
                text = dumps(payload)
                self.db.execute(
                    "INSERT INTO outbox(id, topic, kind, priority, boot, seq, session, payload) "
                    "VALUES (?,?,?,?,?,?,?,?)", (next_id, topic, kind, prio, boot, seq, session, text))
                ids.append(next_id)
                if before_commit is not None:
                    written.append(Row(next_id, topic, kind, prio, boot, seq, session, text))
                next_id += 1
            self._next_id = next_id
            if trim > 0:
                gone = self._select_oldest(trim, below_priority)
                self.db.executemany("DELETE FROM outbox WHERE id = ?", [(r.id,) for r in gone])
                if dropped is not None:
                    dropped.extend(gone)
                    if written:
                        gone_ids = {r.id for r in gone}
                        written = [r for r in written if r.id not in gone_ids]
            if before_commit is not None and written:
                before_commit(written)
            self.db.execute("COMMIT")   # the one fsync of the group (synchronous=FULL)
        except BaseException:
            if self.db.in_transaction:  # SQLITE_FULL has already rolled back by itself
                self.db.execute("ROLLBACK")
            raise
        return ids

    def checkpoint(self) -> None:
        """Copy the WAL into the main file where no reader needs it (PASSIVE: never waits on the other
        connection), so the WAL does not grow while nobody else checkpoints."""
        try:
            self.db.execute("PRAGMA wal_checkpoint(PASSIVE)")
        except sqlite3.OperationalError:
            pass  # busy or a full disk: the next idle moment tries again

    def drop_oldest(self, count: int, below_priority: int) -> list[Row]:
        """Delete up to ``count`` of the oldest rows with priority < ``below_priority``, lowest priority first."""
        rows = self._select_oldest(count, below_priority)
        if rows:
            self.db.execute("BEGIN IMMEDIATE")
            self.db.executemany("DELETE FROM outbox WHERE id = ?", [(r.id,) for r in rows])
            self.db.execute("COMMIT")
        return rows

    def _select_oldest(self, count: int, below_priority: int) -> list[Row]:
        return [Row(*r) for r in self.db.execute(
            "SELECT id, topic, kind, priority, boot, seq, session, payload FROM outbox WHERE priority < ? "
            "ORDER BY priority, id LIMIT ?", (below_priority, count))]

    def quarantine_foreign(self, own_topics: tuple[str, ...]) -> tuple[int, list[str]]:
        """Move every row whose topic is not one of ``own_topics`` (an outbox copied from another table, or a
        table.id changed with rows pending) to ``quarantine``: (how many, the foreign topics)."""
        marks = ",".join("?" * len(own_topics))
        self.db.execute("BEGIN IMMEDIATE")
        try:
            topics = [r[0] for r in self.db.execute(
                f"SELECT DISTINCT topic FROM outbox WHERE topic NOT IN ({marks}) ORDER BY topic", own_topics)]
            self.db.execute(f"INSERT OR REPLACE INTO quarantine SELECT * FROM outbox WHERE topic NOT IN ({marks})",
                            own_topics)
            n = self.db.execute(f"DELETE FROM outbox WHERE topic NOT IN ({marks})", own_topics).rowcount
            n += self.db.execute(f"DELETE FROM unfiled WHERE topic NOT IN ({marks})", own_topics).rowcount
            self.db.execute("COMMIT")
        except BaseException:
            if self.db.in_transaction:
                self.db.execute("ROLLBACK")
            raise
        return n, topics

    def after(self, last_id: int, limit: int) -> list[Row]:
        """The next rows to publish, in order (never one already acknowledged whose delete is pending)."""
        rows = [Row(*r) for r in self.db.execute(
            "SELECT id, topic, kind, priority, boot, seq, session, payload FROM outbox WHERE id > ? "
            "ORDER BY id LIMIT ?", (last_id, limit))]
        return [r for r in rows if r.id not in self._acked] if self._acked else rows

    @property
    def pending_deletes(self) -> int:
        return len(self._acked)

    def delete(self, ids: list[int], wait: bool = False, now: float | None = None) -> int:
        """Delete acknowledged rows, with those a busy lock held back before; how many left the outbox (an
        alert moves to ``unfiled``). Unless ``wait``, a lock held by the other connection is not waited for: the
        ids are kept for the next call."""
        self._acked.update(ids)
        if not self._acked:
            return 0
        if not wait:
            self.db.execute("PRAGMA busy_timeout=0")
        try:
            self.db.execute("BEGIN IMMEDIATE")
        except sqlite3.OperationalError as e:
            if getattr(e, "sqlite_errorcode", None) != sqlite3.SQLITE_BUSY:
                raise
            return 0   # the spooler is committing: these go with the next acknowledgement
        finally:
            if not wait:
                self.db.execute(f"PRAGMA busy_timeout={BUSY_WAIT_MS}")
        try:
            keys = [(i,) for i in self._acked]
            now = time.time() if now is None else now
            # an alert waits for the floor's receipt in unfiled; a resend's PUBACK only puts its next try off
            self.db.executemany(
                "UPDATE unfiled SET tries = tries + 1, due = ? + min(?, ? * (1 << min(tries, 10))) WHERE id = ?",
                [(now, self.receipt_wait_max, self.receipt_wait, i) for i in self._acked])
            if self.receipt_wait > 0:   # 0: nobody files these (a review copy), the PUBACK is the end
                self.db.executemany(
                    "INSERT OR IGNORE INTO unfiled(id, topic, boot, seq, session, payload, due, tries) "
                    "SELECT id, topic, boot, seq, session, payload, ?, 1 FROM outbox WHERE id = ? AND kind = 'alert'",
                    [(now + self.receipt_wait, i) for i in self._acked])
            n = self.db.executemany("DELETE FROM outbox WHERE id = ?", keys).rowcount
            self.db.execute("COMMIT")
        except BaseException:
            if self.db.in_transaction:
                self.db.execute("ROLLBACK")
            raise
        self._acked.clear()
        return n

    # --- alerts waiting for the floor's receipt ------------------------------------------------------------

    def unfiled(self) -> int:
        """How many alerts the broker has that the floor has not yet filed."""
        return int(self.db.execute("SELECT COUNT(*) FROM unfiled").fetchone()[0])

    def due_unfiled(self, now: float, limit: int, skip: set[int] | frozenset[int] = frozenset()) -> list[Row]:
        """Unfiled alerts due to go out again (oldest first), at most ``limit``, none of ``skip`` (in flight)."""
        rows = self.db.execute(
            "SELECT id, topic, 'alert', 2, boot, seq, session, payload FROM unfiled WHERE due <= ? ORDER BY id "
            "LIMIT ?", (now, limit + len(skip))).fetchall()
        return [Row(*r) for r in rows if r[0] not in skip][:limit]

    def resend_unfiled(self, now: float) -> None:
        """Every unfiled alert due at once (a new session: whatever the broker held may be gone)."""
        self._write("UPDATE unfiled SET due = ? WHERE due > ?", [(now, now)])

    def filed(self, pairs: list[tuple[str, int]]) -> tuple[int, int]:
        """The floor filed these (boot, alert seq): they leave the outbox for good. Returns (how many left
        ``unfiled``, how many left ``outbox`` itself: a receipt quicker than the PUBACK), or raises
        sqlite3.OperationalError (SQLITE_BUSY) when the spooler holds the lock: try again later."""
        if not pairs:
            return 0, 0
        self.db.execute("PRAGMA busy_timeout=0")
        try:
            self.db.execute("BEGIN IMMEDIATE")
        finally:
            self.db.execute(f"PRAGMA busy_timeout={BUSY_WAIT_MS}")
        try:
            gone = self.db.executemany("DELETE FROM unfiled WHERE boot = ? AND seq = ?", pairs).rowcount
            early = self.db.executemany("DELETE FROM outbox WHERE kind = 'alert' AND boot = ? AND seq = ?",
                                        pairs).rowcount
            self.db.execute("COMMIT")
        except BaseException:
            if self.db.in_transaction:
                self.db.execute("ROLLBACK")
            raise
        return gone, early

    def _write(self, sql: str, params: list[tuple[object, ...]]) -> None:
        self.db.execute("BEGIN IMMEDIATE")
        try:
            self.db.executemany(sql, params)
            self.db.execute("COMMIT")
        except BaseException:
            if self.db.in_transaction:
                self.db.execute("ROLLBACK")
            raise
