"""Gaps in a table's alert sequence, shown on the floor. Every alert a table publishes carries its own seq
(1, 2, 3... per boot), so an alert that never came while later ones did is a hole the floor can see. The seqs
filed are kept in the store's database (``alert_seqs``: shared by every dashboard instance on it); a seq still
missing ``after`` seconds (the tables resend an unfiled alert well before) is filed as a floor alert of rule
``floor.alert-gap`` on that table, so it shows on the map and in the queue like any floor alert, and is
resolved by ``floor`` once the missing alerts arrive. Runs on the filing thread."""

from __future__ import annotations

import logging
import time
from collections.abc import Callable

import sqlalchemy as sa

from .floor import FloorIngest
from .store import Alert, alerts

log = logging.getLogger("dealerbox.dashboard")

RULE = "floor.alert-gap"
GAP_AFTER_S = 90.0          # three of the tables' first receipt waits: a lost alert is normally back by then
CHECK_EVERY_S = 2.0
MAX_RANGE = 10_000          # a jump larger than this in one go is a new dashboard, not a loss worth a line each

meta = sa.MetaData()
alert_seqs = sa.Table("alert_seqs", meta, sa.Column("site", sa.String(32), primary_key=True),
                      sa.Column("table_id", sa.String(32), primary_key=True),
                      sa.Column("boot", sa.String(64), primary_key=True),
                      sa.Column("seq", sa.Integer, primary_key=True, autoincrement=False),
                      sa.Column("filed_at", sa.Float, nullable=False))

Key = tuple[str, str, str]            # (site, table, boot)


class AlertGaps:
    """``filed(alerts)`` after each burst (site, table, boot, seq of every alert in it); ``check()`` now and
    then: files and resolves the gap alerts; ``told()`` is called when it changed the journal."""

    def __init__(self, ingest: FloorIngest, clock: Callable[[], float] = time.time, after: float = GAP_AFTER_S,
                 told: Callable[[], object] = lambda: None) -> None:
        self.ingest, self.store, self.clock, self.after, self.told = ingest, ingest.store, clock, after, told
        with self.store.schema_lock() as conn:      # two instances starting at once: one creates it
            meta.create_all(conn, checkfirst=True)
        self.low: dict[Key, int] = {}                 # every seq up to this one is filed (per key, this instance)
        self.noticed: dict[tuple[Key, int], float] = {}   # a missing seq and when this instance first saw it
        # The seqs this instance filed above ``low``: a run whose seqs came one after the other has none, and
        # needs no look in the store. Only a hole in what this instance filed (another instance may have filed
        # the rest) puts the run on ``watch`` for the next check. A look is two queries; looking at every run
        # each check was a third of the filing thread at 500 tables (py-spy, bench/dashboard.py)
        self.above: dict[Key, set[int]] = {}
        self.watch: set[Key] = set()
        self._next = 0.0
        self._note = self.store.insert(alert_seqs).on_conflict_do_nothing()    # built once: filed() runs per burst

    def filed(self, alerts: list[tuple[str, str, str, int]]) -> None:
        """Remember the seqs of a filed burst (another instance may have filed some already)."""
        if not alerts:
            return
        now = self.clock()
        rows = [{"site": s, "table_id": t, "boot": b, "seq": q, "filed_at": now} for s, t, b, q in sorted(set(alerts))]
        with self.store.engine.begin() as conn:
            # one statement for the burst; a seq filed before (a redelivery, another instance) keeps its row
            conn.execute(self._note, rows)
        for s, t, b, q in alerts:
            if q > self.low.setdefault((s, t, b), 0):
                self.above.setdefault((s, t, b), set()).add(q)
        for key in {(s, t, b) for s, t, b, _ in alerts}:
            self._advance(key, self.low[key])

    def _advance(self, key: Key, low: int) -> None:
        """Move ``low`` over the seqs filed in a row; a seq left above it means a hole: watch the run."""
        above = {q for q in self.above.pop(key, set()) if q > low}
        while low + 1 in above:
            low += 1
            above.discard(low)
        self.low[key] = low
        if above:
            self.above[key] = above
            self.watch.add(key)

    def check(self, force: bool = False) -> None:
        """Find what is missing below each table's newest alert; file a gap alert for what stayed missing."""
        now = self.clock()
        if not force and now < self._next:
            return
        self._next = now + CHECK_EVERY_S
        changed = False
        looked, self.watch = self.watch, set()
        with self.store.engine.begin() as conn:
            for key in sorted(looked):
                key_changed, still_missing = self._check(conn, key, now)
                changed |= key_changed
                if still_missing:
                    self.watch.add(key)
        if changed:
            self.told()

    @staticmethod
    def _where(key: Key) -> list[sa.ColumnElement[bool]]:
        return [alert_seqs.c.site == key[0], alert_seqs.c.table_id == key[1], alert_seqs.c.boot == key[2]]

    def _check(self, conn: sa.Connection, key: Key, now: float) -> tuple[bool, bool]:
        """(whether the journal changed, whether seqs are still missing) for one table's run."""
        low = self.low[key]
        seqs = [r[0] for r in conn.execute(sa.select(alert_seqs.c.seq).where(*self._where(key),
                                                                              alert_seqs.c.seq > low)
                                           .order_by(alert_seqs.c.seq).limit(MAX_RANGE))]
        missing: list[int] = []
        expect = low + 1
        for q in seqs:
            missing += range(expect, min(q, expect + MAX_RANGE))
            expect = q + 1
        if seqs and not missing:
            self._advance(key, seqs[-1])
        elif missing:
            self._advance(key, missing[0] - 1)
        gone = set(missing)
        open_gaps = self._open(conn, key)
        changed = self._resolve(conn, key, open_gaps, gone, now)
        for (k, q) in [n for n in self.noticed if n[0] == key and n[1] not in gone]:
            del self.noticed[(k, q)]
        due = [q for q in missing if now - self.noticed.setdefault((key, q), now) >= self.after
               and not any(first <= q <= last for first, last, _ in open_gaps)]
        for first, last in _runs(due):
            changed |= self._raise(conn, key, first, last, now)
        return changed, bool(missing)

    def _open(self, conn: sa.Connection, key: Key) -> list[tuple[int, int, int]]:
        """(first, last, alert id) of this table's unresolved gap alerts, whichever instance filed them."""
        rows = conn.execute(sa.select(alerts.c.id, alerts.c.finding).where(
            alerts.c.site == key[0], alerts.c.table_id == key[1], alerts.c.boot == key[2], alerts.c.rule == RULE,
            alerts.c.resolved_at.is_(None)))
        out = []
        for alert_id, finding in rows:
            first, _, last = finding.removeprefix("gap-").partition("-")
            if first.isdigit() and last.isdigit():
                out.append((int(first), int(last), alert_id))
        return out

    def _raise(self, conn: sa.Connection, key: Key, first: int, last: int, now: float) -> bool:
        site, table, boot = key
        which = f"alert {first}" if first == last else f"alerts {first} to {last}"
        row = {"site": site, "table_id": table, "boot": boot, "finding": f"gap-{first}-{last}", "rule": RULE,
               "citation": "", "severity": "floor", "seats": "[]", "hand": None, "raised_at": now,
               "ruling": f"{which} of this table's run {boot[:8]} never reached the floor while later ones did; "
                         f"check the table's floor link (its outbox still holds what the floor has not filed)"}
        alert_id = self.store.add_alert(conn, row)
        if alert_id is None:      # another instance on this database filed it first
            return False
        self.ingest.board.alert_opened((site, table), alert_id, "floor")
        self.store.log(conn, "alert", site, {"id": alert_id}, now)
        log.warning("floor: %s of %s/%s (run %s) missing for %.0f s", which, site, table, boot[:8], self.after)
        return True

    def _resolve(self, conn: sa.Connection, key: Key, open_gaps: list[tuple[int, int, int]], missing: set[int],
                 now: float) -> bool:
        changed = False
        for first, last, alert_id in open_gaps:
            if any(first <= q <= last for q in missing):
                continue
            self.store.update_alert(conn, alert_id, resolved_by="floor", resolved_at=now,
                                    note="the missing alerts arrived")
            self.ingest.board.alert_closed((key[0], key[1]), alert_id)
            self.store.log(conn, "alert", key[0], {"id": alert_id}, now)
            changed = True
        return changed

    def gap_alerts(self, open_only: bool = True) -> list[Alert]:
        """The floor's gap alerts, as the store holds them."""
        return self.store.alerts(rule=RULE, open_only=open_only)


def _runs(seqs: list[int]) -> list[tuple[int, int]]:
    """Contiguous (first, last) runs of sorted seqs."""
    out: list[tuple[int, int]] = []
    for q in seqs:
        if out and q == out[-1][1] + 1:
            out[-1] = (out[-1][0], q)
        else:
            out.append((q, q))
    return out
