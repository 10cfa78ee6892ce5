"""The spooler half of the floor link: turns engine updates into payloads and writes them to the durable
outbox (one transaction and one fsync per group); hands the group's alerts to the publisher while that
fsync runs, and everything else is published once committed; applies the outbox cap, lowest priority
first, and tells the floor what it dropped."""

from __future__ import annotations

import logging
import queue
import sqlite3
import time
from typing import Any

from . import contract as c
from ...engine.events import FindingAcknowledged
from .anchors import AnchorBooks
from .drain import Drain
from .holecards import HoleCards
from .parts import LatestState, LinkControl, LinkCounters, LinkIdentity, LinkState, OutboxDepth, TableUpdate
from .outbox import Outbox, Row
from .updates import UpdateQueue
from ...upkeep.bounded import KnownFindings


log = logging.getLogger("dealerbox.floor")

GROUP_MAX = 2000         # updates per outbox transaction: bounds one commit's size after a long backlog
STOP = object()          # put on the update queue by stop()/abandon()
CHECKPOINT_EVERY = 1000  # spooler commits between WAL checkpoints when it is never idle


class Spooler:
    """Given who the table is, the link's state (its session, where to say an outbox error), the counters, the
    outbox's depth, the latest state, the link's control (stop, poke), the queue of updates, the drain (to hand
    alerts over before their commit), the signed heads' books, the hole-card sender and the findings the floor may
    acknowledge; owns the outbox cap's bookkeeping (drops waiting to be told, alerts not yet written). Runs on
    its own thread."""

    def __init__(self, ident: LinkIdentity, state: LinkState, counters: LinkCounters, depth: OutboxDepth,
                 latest: LatestState, control: LinkControl, updates: UpdateQueue, drain: Drain,
                 anchors: AnchorBooks, holecards: HoleCards, known_findings: KnownFindings,
                 max_pages: int | None) -> None:
        self.ident, self._state, self._counters, self._depth = ident, state, counters, depth
        self._latest, self._control, self.updates, self._drain = latest, control, updates, drain
        self._anchors, self._holecards = anchors, holecards
        self.known_findings, self.max_pages = known_findings, max_pages
        self._pending_drops: list[tuple[str, int]] = []
        self._pending_reason = "outbox-full"
        self._last_notice = 0.0
        self._unspooled: list[tuple[Any, ...]] = []   # alerts a full disk kept in memory, retried next group

    def run(self) -> None:
        # No automatic WAL checkpoint on this connection: its copy and fsync of the main file would land on
        # the commit an alert is waiting for (the p99 of frame -> floor alert). The publisher's connection
        # checkpoints on its deletes; while the floor is away this one does it when idle, or every
        # CHECKPOINT_EVERY commits, so the WAL stays bounded through an outage.
        db = Outbox(self.ident.outbox_path, "FULL", self.max_pages, checkpoints=False)
        unchecked = 0
        try:
            stopping = False
            while not self._control.abandoned and not stopping:
                try:
                    # the timeout only paces the drop notice; a submitted update wakes this at once
                    batch = [self.updates.get(timeout=0.5)]
                except queue.Empty:
                    batch = []
                # Group commit: everything queued at this moment goes in one transaction and one fsync,
                # so a burst costs one disk sync rather than one per update.
                while len(batch) < GROUP_MAX:
                    try:
                        batch.append(self.updates.get_nowait())
                    except queue.Empty:
                        break
                if STOP in batch:
                    stopping = True
                    batch = batch[:batch.index(STOP)]
                if self._control.abandoned:
                    break
                if batch:
                    try:
                        self._spool(db, batch)
                        unchecked += 1
                    except sqlite3.Error as e:
                        log.error("%s", self._state.error(f"{self.ident.outbox_path}: outbox write failed ({e})"))
                if unchecked and (not batch or unchecked >= CHECKPOINT_EVERY):
                    db.checkpoint()
                    unchecked = 0
                self._flush_notice(db, force=False)
            if not self._control.abandoned:
                self._flush_notice(db, force=True)
        finally:
            db.close()

    def _spool(self, db: Outbox, updates: list[Any]) -> None:
        """Payloads for every update of one group, written in one transaction, then the publisher woken."""
        at = self.ident.clock()
        session = self._state.spool_session()
        rows: list[tuple] = []
        holecards: list[dict] = []
        latest = None
        for update in updates:
            if isinstance(update, dict):   # a signed head (FloorLink.submit_anchor): never dropped, in order
                rows.append(self._anchors.row(self.ident.site, self.ident.topic("anchor"), self.ident.boot,
                                                   session, update))
                continue
            try:
                n_rows, n_holecards = len(rows), len(holecards)
                self._payloads(update, at, session, rows, holecards)
                latest = update
            except Exception as e:  # a malformed update must not stop the spooler for the next ones
                del rows[n_rows:], holecards[n_holecards:]
                self._counters.add("bad_updates")
                log.exception("%s", self._state.error(f"floor link: could not spool an update "
                                                      f"({type(e).__name__}: {e})"))
        if rows or self._unspooled:
            self._store(db, rows)
        if latest is not None:
            self._latest.spooled(latest.state, dict(latest.health or {}))
            self._holecards.add(holecards)
        self._control.poke()

    def _payloads(self, update: TableUpdate, at: float, session: int, rows: list[tuple], holecards: list[dict]) -> None:
        for event in update.events:
            payload = c.event_payload(self.ident.env, event, at)
            rows.append((self.ident.topic("event"), "event", c.priority(event.kind), self.ident.boot,
                         payload["seq"], session, payload))
            if c.is_alert(event):
                alert = c.alert_payload(self.ident.env, event, payload["seq"], at)
                rows.append((self.ident.topic("alert"), "alert", c.PRIORITY_KEEP, self.ident.boot,
                             alert["seq"], session, alert))
                # the floor acknowledges what it was alerted to: an info finding (most of them, 921 of 921 in 720
                # simulated hands) is no alert, and is acknowledgeable only while the table still shows it (below)
                self.known_findings.raised(event.id, floor_call=event.severity == "floor")
            elif isinstance(event, FindingAcknowledged):
                self.known_findings.acknowledged(event.id)
            if self.ident.hole_cards and c.holds_hole_cards(event):
                holecards.append(c.holecards_payload(self.ident.env, event, at))
            self._latest.saw(float(event.t))
        for finding in update.state.findings:
            self.known_findings.seen(finding.id)

    def _store(self, db: Outbox, rows: list[tuple], cap: bool = True) -> None:
        rows = self._unspooled + rows
        self._unspooled = []
        over = self._depth.rows + len(rows) - self.ident.fc.outbox_max if cap else 0
        try:
            # the cap is applied in the same transaction, over the stored rows and this group alike, so a
            # group larger than the room left still drops lowest priority, oldest first
            trimmed: list = []
            db.insert(rows, trim=over, below_priority=c.PRIORITY_KEEP, dropped=trimmed,
                      before_commit=self._hand_over if self._state.connected else None)
            inserted = len(rows)
            self._dropped(trimmed, "outbox-full")
        except sqlite3.OperationalError as e:
            if getattr(e, "sqlite_errorcode", None) != sqlite3.SQLITE_FULL:
                raise
            self._counters.add("disk_full")
            log.error("%s", self._state.outbox_trouble(
                f"{self.ident.outbox_path}: disk full; dropping low-value events to keep alerts "
                f"(free space on that disk or lower floor.outbox_max)"))
            freed = db.drop_oldest(max(64, 4 * len(rows)), c.PRIORITY_KEEP)
            self._dropped(freed, "disk-full")
            keep = [r for r in rows if r[2] == c.PRIORITY_KEEP]
            lost = [r for r in rows if r[2] != c.PRIORITY_KEEP]
            self._note_drops([(r[3], r[4]) for r in lost if r[1] == "event"], "disk-full")
            try:
                db.insert(keep)
                inserted = len(keep)
            except sqlite3.OperationalError:
                self._unspooled = keep  # alerts wait in memory and are retried with the next update
                inserted = 0
        self._depth.added(inserted)
        self._counters.add("spooled", inserted)

    def _hand_over(self, written: list[Row]) -> None:
        """Give the group's alerts to the publisher before the COMMIT's fsync (outbox.py says why it is safe)."""
        if self._drain.hand_over([r for r in written if r.kind == "alert"]):
            self._control.poke()

    def _dropped(self, rows: list, reason: str) -> None:
        if rows:
            self._depth.removed(len(rows))
            self._note_drops([(r.boot, r.seq) for r in rows if r.kind == "event"], reason)

    def _note_drops(self, pairs: list[tuple[str, int]], reason: str) -> None:
        if pairs:
            self._counters.add("dropped", len(pairs))
            self._pending_drops.extend(pairs)
            self._pending_reason = reason
            log.warning("floor outbox %s: dropped %d low-value events (%d in all)", reason, len(pairs),
                        self._counters["dropped"])

    def _flush_notice(self, db: Outbox, force: bool) -> None:
        """One FloorEventsDropped notice per second at most, naming every dropped seq."""
        now = time.monotonic()
        if not self._pending_drops or (not force and now - self._last_notice < 1.0):
            return
        pairs, self._pending_drops = sorted(self._pending_drops), []
        self._last_notice = now
        payload = c.dropped_payload(self.ident.env, self._latest.last_t, self.ident.clock(), c.seq_ranges(pairs),
                                    len(pairs), self._counters["dropped"], self._pending_reason)
        self._store(db, [(self.ident.topic("event"), "event", c.PRIORITY_KEEP, self.ident.boot,
                          payload["seq"], self._state.spool_session(), payload)],
                    cap=False)  # a notice may overshoot the cap by one row rather than drop an event unreported
        self._control.poke()
