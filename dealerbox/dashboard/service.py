"""The running dashboard: the store, the MQTT subscriber (subscriber.py: paho, MQTT 5, reconnecting), escalation on an
injected clock, the commands it publishes (ack over the table's ``cmd`` topic, escalations on their own topic),
and the wake-up that tells every SSE stream there is something new in the journal."""

from __future__ import annotations

import asyncio
import bisect
import json
import logging
import secrets
import threading
import time
import uuid
from dataclasses import dataclass, field
from typing import Any
from collections.abc import Callable

from paho.mqtt.packettypes import PacketTypes
from paho.mqtt.properties import Properties

from ..sinks.floor import contract as c
from ..tournament.floor import TournamentFloor
from .floor import ESCALATION, FloorIngest
from .gaps import GAP_AFTER_S, AlertGaps
from .store import Alert, Store
from .subscriber import BrokerSettings, Subscriber
from .tournaments import CLOCK_EVERY_S, TournamentHost

JournalRow = tuple[int, str, str | None, str]     # (id, kind, site, data as JSON)

log = logging.getLogger("dealerbox.dashboard")
ESCALATE_AFTER_S = 60.0
TAIL_KEPT = 5000                  # newest journal rows kept in memory for the SSE streams
HOLE_WAIT_S = 5.0                 # a journal id missing this long was rolled back, not committed late
JOURNAL_WATCH_S = 0.25            # how often the journal is checked for what other instances on the database wrote
ESCALATION_SCHEMA = "dealerbox.floor.escalation/1"




def escalation_payload(boot: str, seq: int, alert: Alert, now: float, after_s: float, sender: str) -> dict:
    return {"v": 1, "kind": ESCALATION, "site": alert.site, "table": alert.table_id, "boot": boot, "seq": seq,
            "t": now, "at": now, "from": sender, "after_s": after_s,
            "alert": {"boot": alert.boot, "finding": alert.finding, "rule": alert.rule, "citation": alert.citation,
                      "severity": alert.severity, "ruling": alert.ruling, "hand": alert.hand,
                      "raised_at": alert.raised_at}}


def _props(schema: str) -> Properties:
    props = Properties(PacketTypes.PUBLISH)
    props.ContentType = c.CONTENT_TYPE
    props.PayloadFormatIndicator = 1
    props.UserProperty = [("schema", schema)]
    return props


@dataclass
class Dashboard:
    store: Store
    broker: BrokerSettings | None = None
    clock: Callable[[], float] = time.time
    escalate_after: float = ESCALATE_AFTER_S
    name: str = "dashboard"
    boot: str = field(default_factory=lambda: uuid.uuid4().hex)
    tournaments: list[TournamentFloor] = field(default_factory=list)     # hosted directors (--tournament FILE)
    alert_gap_after: float = GAP_AFTER_S     # a table's alert missing this long becomes a floor alert (gaps.py)

    def __post_init__(self) -> None:
        self.ingest = FloorIngest(self.store)
        self.host = TournamentHost(self.tournaments)
        if self.host:
            self.ingest.state_seen = self._tournament_state
        self.subscriber: Subscriber | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self.connected = False
        self.broker_note = "not started"
        self.seqs: dict[str, int] = {}
        self.session_key = self.store.setting("session_key", lambda: secrets.token_urlsafe(32))
        self._wake: asyncio.Event | None = None
        self.stale: set[tuple[str, str]] = set()
        self._tail: list[JournalRow] = []
        self._tail_from = self.store.last_journal_id()
        self._tail_dirty = False
        self._wake_queued = False
        self._tail_lock = threading.Lock()   # the filing thread and the event loop both extend the tail
        self._hole: tuple[int, float] | None = None   # the first id missing from the journal, and since when
        # what the web side does with fresh journal rows on the filing thread (render the SSE bodies), so the
        # event loop only sends: set by create_app
        self.prepare: Callable[[list[JournalRow]], None] | None = None

    # --- telling the browsers -----------------------------------------------------------------------

    def journal_after(self, last: int) -> list[JournalRow]:
        """What the journal holds after ``last``. Every SSE stream asks after each wake-up, so the newest rows are
        read from the database once and kept; a stream far behind (a reconnect) reads the database itself."""
        if self._tail_dirty:
            self._tail_dirty = False
            self._extend_tail()
        tail = self._tail            # one reference: the filing thread swaps in a new list, never edits this one
        if tail and last >= tail[0][0] - 1:
            at = bisect.bisect_right(tail, last, key=lambda row: row[0])
            return tail[at:at + 500]
        if not tail and last >= self._tail_from:
            return []
        end = self._tail_end()      # never past the tail: beyond it a row may yet come in below one read
        return [row for row in self.store.journal_after(last) if row[0] <= end]

    def _extend_tail(self, own: frozenset[int] = frozenset()) -> list[JournalRow]:
        """Read what the journal gained since the tail's end into the tail; the rows read. The alerts they name
        are read back into the tile board first (another instance on the database may have changed them), so
        the bodies rendered from the board next show the store's open alerts and floor calls. Not those of ``own``,
        the journal ids this filing thread just wrote (the board has them: a read-back was 13 % of the thread)."""
        with self._tail_lock:
            tail = self._tail
            fresh = self._in_order(self.store.journal_after(tail[-1][0] if tail else self._tail_from, TAIL_KEPT))
            if len(fresh) == TAIL_KEPT:
                self._tail_dirty = True      # more than one read's worth: read on next time too
            if fresh:
                ids = [int(json.loads(data)["id"]) for j, kind, _, data in fresh if kind == "alert" and j not in own]
                if ids:
                    self.ingest.board.sync(lambda: self.store.alert_states(ids))
                self._tail = (tail + fresh)[-TAIL_KEPT:]
        return fresh

    def _in_order(self, rows: list[JournalRow]) -> list[JournalRow]:
        """The rows up to the first hole in the ids. Two instances writing one journal commit out of order: id 105
        may still be in the other's open transaction when 106 is read, and a stream that passed 106 would never
        get it. A hole is waited for up to HOLE_WAIT_S (then it was a rolled-back burst, and is passed)."""
        expect = (self._tail[-1][0] if self._tail else self._tail_from) + 1
        for at, row in enumerate(rows):
            if row[0] != expect:
                now = time.monotonic()
                if self._hole is None or self._hole[0] != expect:
                    self._hole = (expect, now)
                if now - self._hole[1] < HOLE_WAIT_S:
                    self._tail_dirty = True          # look again at the next wake-up
                    return rows[:at]
            expect = row[0] + 1
        return rows

    def _tail_end(self) -> int:
        tail = self._tail
        return tail[-1][0] if tail else self._tail_from

    def catch_up(self) -> list[JournalRow]:
        """On a worker thread: what other instances on the same database journalled since the tail's end (this
        one's filing thread reads its own at once), read and rendered; the rows read."""
        if self.store.last_journal_id() <= self._tail_end():
            return []
        fresh = self._extend_tail()
        if fresh and self.prepare is not None:
            self.prepare(fresh)
        return fresh

    async def run_journal_watch(self, every: float = JOURNAL_WATCH_S) -> None:
        """Every ``every`` seconds, push what another instance on the same database filed or changed (its
        alerts reach this one's browsers; the tiles and the alarm follow the store)."""
        while True:
            await asyncio.sleep(every)
            try:
                if await asyncio.to_thread(self.catch_up):
                    self.wake(tail_read=True)
            except Exception:     # a database hiccup: the next look tries again
                log.exception("reading the shared journal failed")

    def wake(self, *, tail_read: bool = False) -> None:
        """Tell every SSE stream there is news; ``tail_read`` when the filing thread already read it in."""
        if not tail_read:
            self._tail_dirty = True
        if self._wake is not None:
            self._wake.set()
            self._wake = asyncio.Event()

    async def wait(self, timeout: float) -> bool:
        """True when woken by news, False after ``timeout`` with none."""
        if self._wake is None:
            self._wake = asyncio.Event()
        try:
            async with asyncio.timeout(timeout):     # no task per wait, unlike wait_for: 50 streams wait at once
                await self._wake.wait()
            return True
        except TimeoutError:
            return False

    # --- receiving -----------------------------------------------------------------------------------------

    def receive(self, topic: str, raw: bytes) -> None:
        if self.ingest.receive(topic, raw, self.clock()).journal:
            self.wake()

    def _file_batch(self, batch: list[tuple[str, bytes]], backlog: bool = False,
                    alert_waiting: Callable[[], bool] | None = None) -> int:
        """On the filing thread: file a burst in one transaction, read the journal rows it made and have their
        SSE bodies rendered, all off the event loop (DB reads and templates kept it from sending), then wake
        the streams. A burst is cut short when ``alert_waiting()``; how many of ``batch`` were filed."""
        own, done = self.ingest.receive_until(batch, self.clock(), backlog=backlog, stop=alert_waiting)
        if not own:
            return done
        fresh = self._extend_tail(frozenset(own))
        if fresh and self.prepare is not None:
            self.prepare(fresh)
        # one wake-up in flight at a time: under load each call_soon_threadsafe is a socket write and a GIL
        # hand-over, and the streams read everything new when they wake anyway
        if not self._wake_queued:
            self._wake_queued = True
            if not self._on_loop(self._woken_by_filer):
                self._wake_queued = False
        return done

    def _woken_by_filer(self) -> None:
        self._wake_queued = False
        self.wake(tail_read=True)

    def _on_loop(self, call: Callable[[], None]) -> bool:
        """Run ``call`` on the event loop soon; False when there is no loop to run it."""
        loop = self._loop
        if loop is None or loop.is_closed():
            return False
        try:
            loop.call_soon_threadsafe(call)
        except RuntimeError:           # closed between the check and the call (shutting down)
            return False
        return True

    def sweep_stale(self) -> None:
        """A table that stops without its last will goes dead when its state expires: tell the browsers once."""
        now = self.clock()
        gone = []
        # every second on the event loop: from memory (a query of every table was 5 % of the loop at 500 tables)
        for site, table, state_at in self.ingest.board.state_times():
            key = (site, table)
            stale = state_at is not None and now - state_at > c.STATE_EXPIRY_S
            if stale and key not in self.stale:
                gone.append(key)
            if stale:
                self.stale.add(key)
            else:
                self.stale.discard(key)
        if gone:
            with self.store.engine.begin() as conn:
                for site, table in gone:
                    self.store.log(conn, "table", site, {"site": site, "table": table}, now)
            self.wake()

    async def run_mqtt(self) -> None:
        """Subscribe and file until cancelled; paho reconnects (and we resubscribe) after a lost broker."""
        b = self.broker
        if b is None:
            return
        self._loop = asyncio.get_running_loop()

        def told(connected: bool, note: str) -> None:
            self._on_loop(lambda: self._connection(connected, note))

        gaps = AlertGaps(self.ingest, self.clock, self.alert_gap_after, lambda: self._on_loop(self.wake))
        self.subscriber = Subscriber(b, b.client_id or f"dealerbox-dashboard-{self.name}", self._file_batch, told,
                                     aside=self.host.clock_readers(self.clock), gaps=gaps)
        self.subscriber.start()
        try:
            await asyncio.Event().wait()
        finally:
            # stopping joins paho's and the filing thread: not on the event loop
            await asyncio.to_thread(self.subscriber.stop)
            self.connected = False

    def _connection(self, connected: bool, note: str) -> None:
        self.connected = connected
        self._broker_state(note)

    def _broker_state(self, note: str) -> None:
        if note == self.broker_note:
            return
        self.broker_note = note
        log.info("floor broker: %s", note)
        with self.store.engine.begin() as conn:
            self.store.log(conn, "broker", None, {"connected": self.connected, "note": note}, self.clock())
        self.wake()

    # --- hosted tournaments ---------------------------------------------------------------------------

    def _tournament_state(self, site: str, table: str, state: dict) -> list[str]:
        return self.host.state_seen(site, table, state, self.clock(), self._queue)

    def _queue(self, topic: str, payload: dict, retain: bool) -> object:
        """Queue a tournament publish in call order (paho's queue); None when the broker is away."""
        if self.subscriber is None:
            return None
        try:
            schema = f"dealerbox.floor.{payload['kind']}/{c.VERSION}"
            return self.subscriber.publish(topic, payload, _props(schema), retain)
        except ConnectionError as e:
            log.warning("tournament message on %s not sent: %s", topic, e)
            return None

    async def clock_action(self, tournament_id: str, action: str) -> None:
        """Pause, resume or adjust a hosted clock; returns once the broker holds the new retained clock."""
        sent = self.host.clock_action(tournament_id, action, self.clock(), self._queue)
        await self._sent(sent)
        self._journal_tournament(tournament_id)

    async def _sent(self, sent: list[Any]) -> None:
        if any(info is None for info in sent) or self.subscriber is None:
            raise ConnectionError("the floor broker is not connected: the clock changed here, the tables get it "
                                  "on the next tick after it comes back")
        for info in sent:
            await asyncio.to_thread(self.subscriber.wait_published, info)

    def _journal_tournament(self, tournament_id: str) -> None:
        with self.store.engine.begin() as conn:
            self.store.log(conn, "tournament", self.host.get(tournament_id).floor.director.site,
                           {"id": tournament_id}, self.clock())
        self.wake()

    async def run_tournaments(self, every: float = CLOCK_EVERY_S) -> None:
        """Every hosted clock on its retained topic at start (after a moment for the one a previous run left)
        and every ``every`` seconds; a tick missed while the broker is away goes out on the next."""
        if not self.host:
            return
        while not self.connected:
            await asyncio.sleep(0.2)
        await self.host.retained_heard()
        while True:
            try:
                await self._sent(self.host.tick(self.clock(), self._queue))
                for tid in self.host.hosted:
                    self._journal_tournament(tid)
            except ConnectionError as e:
                log.warning("tournament clock not published: %s", e)
            await asyncio.sleep(every)

    # --- acting ----------------------------------------------------------------------------------------

    async def _publish(self, topic: str, payload: dict, props: Properties) -> None:
        if self.subscriber is None:
            raise ConnectionError("the floor broker is not connected: try again in a moment")
        info = self.subscriber.publish(topic, payload, props)
        await asyncio.to_thread(self.subscriber.wait_published, info)

    async def acknowledge(self, alert_id: int, user: str) -> Alert:
        """Claim the open alert for ``user`` (one statement: two supervisors on two instances cannot both), then
        tell the table; the claim is let go if the table cannot be told."""
        a = self._open_alert(alert_id)
        if not self.store.claim_alert(alert_id, ("acked_at", "resolved_at"), acked_by=user, acked_at=self.clock()):
            self._open_alert(alert_id)        # raises: acknowledged by whoever was first
        try:
            await self._tell_table(a, user)
        except BaseException:
            self._release(alert_id, acked_by=None, acked_at=None)
            raise
        return self._change(alert_id)

    def _release(self, alert_id: int, **values: object) -> None:
        with self.store.engine.begin() as conn:
            self.store.update_alert(conn, alert_id, **values)

    async def _tell_table(self, a: Alert, user: str) -> None:
        """The contract's ``ack`` on the table's ``cmd`` topic, awaited until the broker holds it: the terminal
        acknowledges the finding and keeps who sent it."""
        env = c.Envelope(a.site, c.check_name("dashboard name", self.name), self.boot, self.seqs)
        payload = c.command_payload(env, "ack", self.clock(), f"{self.name}:{user}"[:64], a.finding, table=a.table_id)
        await self._publish(c.topic(a.site, a.table_id, "cmd"), payload, _props("dealerbox.floor.cmd/1"))

    def assign(self, alert_id: int, to: str, by: str = "") -> Alert:
        role = (self.store.user(to) or ("",))[0]     # a viewer cannot act on an alert: nobody would follow it up
        if role not in ("supervisor", "admin"):
            raise ValueError(f"assign: {f'{to} is a {role}' if role else f'no user named {to!r}'}: assign it to a "
                             "supervisor or an admin")
        return self._change(alert_id, assigned_to=to, assigned_by=by or None, assigned_at=self.clock())

    async def resolve(self, alert_id: int, user: str, note: str) -> Alert:
        """Resolve with a note; an alert nobody on the floor acknowledged is acknowledged too, and the table is
        told (as by Acknowledge) unless it said it had acknowledged the finding itself."""
        if not note.strip():
            raise ValueError("resolve: write a note saying how it was settled")
        a = self.store.alert(alert_id)
        if a is None:
            raise LookupError(f"no alert {alert_id}")
        if a.resolved_at is not None:
            raise ValueError(f"alert {alert_id} is already resolved by {a.resolved_by}")
        if not self.store.claim_alert(alert_id, ("resolved_at",), resolved_by=user, resolved_at=self.clock(),
                                      note=note[:2000]):
            by = getattr(self.store.alert(alert_id), "resolved_by", None) or "someone"
            raise ValueError(f"alert {alert_id} was resolved by {by} a moment ago")
        if a.acked_at is None and self.store.claim_alert(alert_id, ("acked_at",), acked_by=user, acked_at=self.clock()):
            if a.table_acked_at is None:
                try:
                    await self._tell_table(a, user)
                except BaseException:
                    self._release(alert_id, acked_by=None, acked_at=None, resolved_by=None, resolved_at=None,
                                  note=None)
                    raise
        return self._change(alert_id)

    def seen(self, alert_ids: list[int], user: str) -> int:
        """Note who first saw each of ``alert_ids`` on a page (once: the first look is what counts); how many."""
        with self.store.engine.begin() as conn:
            fresh = self.store.mark_seen(conn, alert_ids[:200], user[:64], self.clock())
            for alert_id, site in fresh:
                self.store.log(conn, "alert", site, {"id": alert_id}, self.clock())
        if fresh:
            self.wake()
        return len(fresh)

    def _open_alert(self, alert_id: int) -> Alert:
        a = self.store.alert(alert_id)
        if a is None:
            raise LookupError(f"no alert {alert_id}")
        if not a.open:
            raise ValueError(f"alert {alert_id} is already acknowledged by {a.acked_by or a.resolved_by}")
        return a

    def _change(self, alert_id: int, **values: object) -> Alert:
        with self.store.engine.begin() as conn:
            if values:
                self.store.update_alert(conn, alert_id, **values)
            a = self.store.alert(alert_id)
            self.store.log(conn, "alert", a.site if a else None, {"id": alert_id}, self.clock())
        self.wake()
        found = self.store.alert(alert_id)
        assert found is not None
        if not found.open:
            self.ingest.board.alert_closed((found.site, found.table_id), found.id)
        return found

    async def escalate_due(self) -> list[Alert]:
        """Escalate every floor alert nobody acknowledged within ``escalate_after`` (by the injected clock)."""
        done = []
        for a in self.store.due_for_escalation(self.clock(), self.escalate_after):
            # claimed first: every instance on the database looks each second, one escalates
            if not self.store.claim_alert(a.id, ("escalated_at", "acked_at", "resolved_at"), escalated_at=self.clock()):
                continue
            self.seqs[ESCALATION] = self.seqs.get(ESCALATION, 0) + 1
            payload = escalation_payload(self.boot, self.seqs[ESCALATION], a, self.clock(), self.escalate_after,
                                         self.name)
            try:
                await self._publish(c.topic(a.site, a.table_id, ESCALATION), payload, _props(ESCALATION_SCHEMA))
            except ConnectionError:
                self._release(a.id, escalated_at=None)
                log.warning("escalation of %s/%s %s kept for later: broker down", a.site, a.table_id, a.finding)
                continue
            except BaseException:
                self._release(a.id, escalated_at=None)
                raise
            done.append(self._change(a.id))
        return done

    async def run_escalation(self, every: float = 1.0) -> None:
        while True:
            await asyncio.sleep(every)
            try:
                await self.escalate_due()
                self.sweep_stale()
                if self.ingest.sweep_anchors(self.clock()):   # enrolled tables ending hands they never sign
                    self.wake()
            except ConnectionError as e:
                log.warning("escalation publish failed: %s", e)
