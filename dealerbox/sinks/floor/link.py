"""FloorLink: the one owner of the MQTT client. Takes :class:`runtime.bus.Update` objects from the engine
side (``submit`` never blocks), spools every event and alert to the durable outbox, and publishes them to
``dealerbox/<site>/<table>/...`` over MQTT 5 with paho-mqtt 2.x (VERSION2 callbacks).

Two threads:

- the *spooler* turns updates into payloads and writes them to SQLite (before any publish);
- the *publisher* owns the socket: connects with backoff, publishes the birth status and the state, drains
  the outbox in order (QoS 1, a window of in-flight messages, a rate cap on late messages), deletes a row on
  its PUBACK, and validates floor commands arriving on ``.../cmd``.

A fresh paho client is made for every connection so that paho never re-sends a message on its own: the
outbox is the only source of retries, which is what lets a late message say ``replayed: true``.
"""

from __future__ import annotations

import json
import logging
import queue
import random
import select
import socket
import sqlite3
import ssl
import threading
import time
import uuid
from collections import deque
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

import paho.mqtt.client as mqtt
from paho.mqtt.packettypes import PacketTypes
from paho.mqtt.properties import Properties

from ...config import Config
from ...engine.events import FindingRaised
from ...engine.inputs import DealerInput
from ...record.anchor import anchor_payload
from . import contract as c
from .outbox import Outbox, OutboxError

log = logging.getLogger("dealerbox.floor")

KEEPALIVE_S = 15
CONNACK_TIMEOUT_S = 10.0
GROUP_MAX = 2000         # updates per outbox transaction: bounds one commit's size after a long backlog
_STOP = object()


@dataclass(frozen=True, slots=True)
class FloorCommand:
    """A floor command that passed every check; the runtime turns an ``ack`` into the dealer's ``ack`` input."""
    cmd: str                 # "ack" | "refresh"
    finding: str | None
    sender: str
    boot: str
    seq: int
    at: float

    def as_input(self, t: float) -> DealerInput | None:
        return DealerInput(t, "ack", ref=self.finding) if self.cmd == "ack" else None


def publish_properties(kind: str) -> Properties:
    """MQTT 5 properties: JSON content type, the schema as a user property, an expiry on state."""
    props = Properties(PacketTypes.PUBLISH)
    props.ContentType = c.CONTENT_TYPE
    props.PayloadFormatIndicator = 1
    props.UserProperty = [("schema", f"dealerbox.floor.{kind}/{c.VERSION}")]
    if kind == "state":
        props.MessageExpiryInterval = c.STATE_EXPIRY_S
    return props


_PROPERTIES = {kind: publish_properties(kind) for kind in c.KINDS}   # read-only once built: shared by publishes


def read_password(path: str) -> str:
    try:
        return Path(path).read_text(encoding="utf-8").splitlines()[0].strip()
    except (OSError, IndexError, UnicodeDecodeError) as e:
        raise OutboxError(f"{path}: cannot read the floor password ({e}); check floor.password_file") from None


def configure_security(client: mqtt.Client, username: str, password_file: str, tls: bool, ca_file: str,
                       cert_file: str, key_file: str) -> None:
    """Credentials and TLS on a paho client; a bad file raises OutboxError naming the config field."""
    if username:
        client.username_pw_set(username, read_password(password_file) if password_file else None)
    if tls:
        for field, path in (("ca_file", ca_file), ("cert_file", cert_file), ("key_file", key_file)):
            if path and not Path(path).is_file():
                raise OutboxError(f"floor.{field}: {path} does not exist")
        try:
            client.tls_set(ca_certs=ca_file or None, certfile=cert_file or None, keyfile=key_file or None)
        except (ssl.SSLError, OSError, ValueError) as e:
            raise OutboxError(f"floor.tls: cannot load the certificates ({e}); check floor.ca_file, "
                              f"floor.cert_file and floor.key_file") from None


class _Bucket:
    """Token bucket for the replay rate cap (messages per second)."""

    def __init__(self, rate: float) -> None:
        self.rate = max(float(rate), 1.0)
        self.capacity = max(1.0, self.rate / 5)
        self.tokens = self.capacity
        self.stamp = time.monotonic()

    def take(self) -> float:
        """0 when a message may go now, else seconds until it may."""
        now = time.monotonic()
        self.tokens = min(self.capacity, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens >= 1:
            self.tokens -= 1
            return 0.0
        return (1 - self.tokens) / self.rate


class FloorLink:
    """``FloorLink(config).start()``; ``submit(update)`` from the engine side; ``health()`` for the screen;
    ``commands`` is a queue of :class:`FloorCommand`; ``stop()`` drains and says goodbye."""

    def __init__(self, config: Config, boot_id: str | None = None, clock: Callable[[], float] = time.time, *,
                 reconnect_min: float = 0.5, reconnect_max: float = 30.0, window: int = 20,
                 max_pages: int | None = None) -> None:
        self.config = config
        self.fc = config.floor
        self.site = c.check_name("table.site", config.table.site)
        self.table = c.check_name("table.id", config.table.id)
        self.boot = c.check_name("boot id", boot_id or uuid.uuid4().hex)
        self.clock = clock
        self.env = c.Envelope(self.site, self.table, self.boot)
        self.commands: queue.Queue[FloorCommand] = queue.Queue()
        self.reconnect_min, self.reconnect_max, self.window = reconnect_min, reconnect_max, window
        self.max_pages = max_pages
        self._updates: queue.Queue = queue.Queue()
        self._lock = threading.Lock()
        self._wake_r, self._wake_w = socket.socketpair()
        self._wake_r.setblocking(False)
        self._wake_w.setblocking(False)
        self._stop_evt = threading.Event()
        self._abandon = False
        self._drain = True
        self._drain_timeout = 5.0
        self._threads: list[threading.Thread] = []
        self._net_db: Outbox | None = None
        # publisher state (publisher thread only)
        self._session = 0
        self._connected = False
        self._connack: tuple[bool, str, Any] | None = None
        self._inflight: dict[int, int] = {}
        self._acked: list[int] = []
        self._refused: list[tuple[str | None, str]] = []
        self._topics: dict[int, str] = {}      # mid -> topic of everything in flight, to name a refusal
        self._session_refused = False
        self._seen_cmds: deque[tuple[str, int]] = deque(maxlen=1024)
        # shared between the threads (under _lock)
        self._state_body: tuple[Any, float, dict] | None = None
        self._state_dirty = False
        self._refresh = False
        self._holecards: deque[dict] = deque(maxlen=1000)
        self._known_findings: set[str] = set()
        self._pending_drops: list[tuple[str, int]] = []
        self._pending_reason = "outbox-full"
        self._last_notice = 0.0
        self._unspooled: list[tuple] = []
        self._last_t = 0.0
        self._link = "stopped"
        self._since = self.clock()
        self.last_error = ""
        self.counters = {
            "submitted": 0, "spooled": 0, "published": 0, "acked": 0, "replayed": 0, "dropped": 0,
            "disk_full": 0, "publish_refused": 0, "connects": 0, "connect_failures": 0,
            "commands_accepted": 0, "commands_refused": 0, "holecards_published": 0, "holecards_lost": 0,
            "states_published": 0, "bad_updates": 0,
        }
        self.refusals: deque[str] = deque(maxlen=50)
        self._depth = 0

    # --- the engine side ----------------------------------------------------------------------------

    def start(self) -> "FloorLink":
        """Open the outbox (raises OutboxError with the file name if it cannot) and start both threads."""
        path = Path(self.fc.outbox)
        # each thread opens its own connection; opening here first surfaces a bad path before any thread runs
        probe = Outbox(path, "FULL", self.max_pages)
        self._depth = probe.depth()
        probe.close()
        self._set_link("connecting")
        for name, target in (("floor-spool", self._spool_loop), ("floor-publish", self._net_loop)):
            th = threading.Thread(target=target, name=f"{name}-{self.table}", daemon=True)
            th.start()
            self._threads.append(th)
        return self

    def submit(self, update: Any) -> None:
        """Queue one bus Update; never blocks (the queue is unbounded and the spooler persists it)."""
        self._updates.put(update)
        self.counters["submitted"] += 1

    def health(self) -> dict[str, Any]:
        with self._lock:
            return {"link": self._link, "connected": self._connected, "since": self._since,
                    "outbox_depth": self._depth, "inflight": len(self._inflight), "queued": self._updates.qsize(),
                    "boot": self.boot, "last_error": self.last_error, **self.counters}

    def stop(self, timeout: float = 5.0, drain: bool = True) -> None:
        """Spool what was submitted, publish what the broker will take within ``timeout`` (``drain``), send
        ``offline`` and disconnect. What is left stays in the outbox for the next start."""
        self._drain, self._drain_timeout = drain, timeout
        self._updates.put(_STOP)
        if self._threads:
            self._threads[0].join(timeout + 5)
        self._stop_evt.set()
        self._poke()
        for th in self._threads[1:]:
            th.join(timeout + 5)
        self._threads = []
        self._set_link("stopped")

    def abandon(self) -> None:
        """Stop as if the terminal were killed: no drain, no goodbye; the socket just closes (the broker
        publishes the last will). Rows already in SQLite stay there."""
        self._abandon = True
        self._updates.put(_STOP)
        self._stop_evt.set()
        self._poke()
        for th in self._threads:
            th.join(10)
        self._threads = []
        self._set_link("stopped")

    # --- spooler --------------------------------------------------------------------------------------

    def _spool_loop(self) -> None:
        db = Outbox(self.fc.outbox, "FULL", self.max_pages)
        try:
            stopping = False
            while not self._abandon and not stopping:
                try:
                    # the timeout only paces the drop notice; a submitted update wakes this at once
                    batch = [self._updates.get(timeout=0.5)]
                except queue.Empty:
                    batch = []
                # Group commit: everything queued at this moment goes in one transaction and one fsync,
                # so a burst costs one disk sync rather than one per update.
                while len(batch) < GROUP_MAX:
                    try:
                        batch.append(self._updates.get_nowait())
                    except queue.Empty:
                        break
                if _STOP in batch:
                    stopping = True
                    batch = batch[:batch.index(_STOP)]
                if self._abandon:
                    break
                if batch:
                    try:
                        self._spool(db, batch)
                    except sqlite3.Error as e:
                        self.last_error = f"{self.fc.outbox}: outbox write failed ({e})"
                        log.error("%s", self.last_error)
                self._flush_notice(db, force=False)
            if not self._abandon:
                self._flush_notice(db, force=True)
        finally:
            db.close()

    def _spool(self, db: Outbox, updates: list[Any]) -> None:
        """Payloads for every update of one group, written in one transaction, then the publisher woken."""
        at = self.clock()
        session = self._session if self._connected else -1
        rows: list[tuple] = []
        holecards: list[dict] = []
        latest = None
        for update in updates:
            try:
                n_rows, n_holecards = len(rows), len(holecards)
                self._payloads(update, at, session, rows, holecards)
                latest = update
            except Exception as e:  # a malformed update must not stop the spooler for the next ones
                del rows[n_rows:], holecards[n_holecards:]
                self.counters["bad_updates"] += 1
                self.last_error = f"floor link: could not spool an update ({type(e).__name__}: {e})"
                log.exception("%s", self.last_error)
        if rows or self._unspooled:
            self._store(db, rows)
        if latest is not None:
            with self._lock:
                self._state_body = (latest.state, self._last_t, dict(latest.health or {}))
                self._state_dirty = True
                self._holecards.extend(holecards)
        self._poke()

    def _payloads(self, update: Any, at: float, session: int, rows: list[tuple], holecards: list[dict]) -> None:
        for event in update.events:
            payload = c.event_payload(self.env, event, at)
            rows.append((c.topic(self.site, self.table, "event"), "event", c.priority(event.kind), self.boot,
                         payload["seq"], session, payload))
            if c.is_alert(event):
                alert = c.alert_payload(self.env, event, payload["seq"], at)
                rows.append((c.topic(self.site, self.table, "alert"), "alert", c.PRIORITY_KEEP, self.boot,
                             alert["seq"], session, alert))
            if isinstance(event, FindingRaised):
                self._known_findings.add(event.id)
            if self.fc.hole_cards_topic and event.SECRET_FIELDS:
                holecards.append(c.holecards_payload(self.env, event, at))
            self._last_t = max(self._last_t, float(event.t))
        for finding in update.state.findings:
            self._known_findings.add(finding.id)

    def _store(self, db: Outbox, rows: list[tuple], cap: bool = True) -> None:
        rows = self._unspooled + rows
        self._unspooled = []
        over = self._depth + len(rows) - self.fc.outbox_max if cap else 0
        try:
            # the cap is applied in the same transaction, over the stored rows and this group alike, so a
            # group larger than the room left still drops lowest priority, oldest first
            trimmed: list = []
            db.insert(rows, trim=over, below_priority=c.PRIORITY_KEEP, dropped=trimmed)
            inserted = len(rows)
            self._dropped(trimmed, "outbox-full")
        except sqlite3.OperationalError as e:
            if getattr(e, "sqlite_errorcode", None) != sqlite3.SQLITE_FULL:
                raise
            self.counters["disk_full"] += 1
            self.last_error = (f"{self.fc.outbox}: disk full; dropping low-value events to keep alerts "
                               f"(free space on that disk or lower floor.outbox_max)")
            log.error("%s", self.last_error)
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
        with self._lock:
            self._depth += inserted
            self.counters["spooled"] += inserted

    def _dropped(self, rows: list, reason: str) -> None:
        if rows:
            with self._lock:
                self._depth -= len(rows)
            self._note_drops([(r.boot, r.seq) for r in rows if r.kind == "event"], reason)

    def _note_drops(self, pairs: list[tuple[str, int]], reason: str) -> None:
        if pairs:
            self.counters["dropped"] += len(pairs)
            self._pending_drops.extend(pairs)
            self._pending_reason = reason
            log.warning("floor outbox %s: dropped %d low-value events (%d in all)", reason, len(pairs),
                        self.counters["dropped"])

    def _flush_notice(self, db: Outbox, force: bool) -> None:
        """One FloorEventsDropped notice per second at most, naming every dropped seq."""
        now = time.monotonic()
        if not self._pending_drops or (not force and now - self._last_notice < 1.0):
            return
        pairs, self._pending_drops = sorted(self._pending_drops), []
        self._last_notice = now
        payload = c.dropped_payload(self.env, self._last_t, self.clock(), c.seq_ranges(pairs), len(pairs),
                                    self.counters["dropped"], self._pending_reason)
        self._store(db, [(c.topic(self.site, self.table, "event"), "event", c.PRIORITY_KEEP, self.boot,
                          payload["seq"], self._session if self._connected else -1, payload)],
                    cap=False)  # a notice may overshoot the cap by one row rather than drop an event unreported
        self._poke()

    # --- publisher ------------------------------------------------------------------------------------

    def _poke(self) -> None:
        try:
            self._wake_w.send(b"x")
        except (BlockingIOError, OSError):
            pass  # already awake or closing

    def _set_link(self, state: str, error: str = "") -> None:
        with self._lock:
            changed = state != self._link
            self._link = state
            if changed:
                self._since = self.clock()
            if error:
                self.last_error = error
        if changed:
            log.info("floor link %s/%s: %s%s", self.site, self.table, state, f" ({error})" if error else "")

    def _net_loop(self) -> None:
        self._net_db = Outbox(self.fc.outbox, "NORMAL")
        backoff = self.reconnect_min
        try:
            while not self._stop_evt.is_set():
                began = time.monotonic()
                was_up, refused = self._session_once()
                if self._stop_evt.is_set():
                    break
                # only a connection that lasted resets the backoff: one dropped at once must not spin
                lasted = was_up and time.monotonic() - began > 10 * self.reconnect_min
                backoff = self.reconnect_min if lasted else min(backoff * 2, self.reconnect_max)
                delay = self.reconnect_max if refused else backoff
                self._stop_evt.wait(delay * random.uniform(0.8, 1.2))  # jitter: tables don't reconnect in step
        finally:
            self._net_db.close()

    def _make_client(self) -> mqtt.Client:
        client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id=f"dealerbox-{self.site}-{self.table}",
                             protocol=mqtt.MQTTv5)
        configure_security(client, self.fc.username, self.fc.password_file, self.fc.tls, self.fc.ca_file,
                           self.fc.cert_file, self.fc.key_file)
        will = c.status_payload(self.env, "offline", "will", self._last_t, self.clock())
        client.will_set(c.topic(self.site, self.table, "status"), json.dumps(will), qos=1, retain=True,
                        properties=publish_properties("status"))
        client.on_connect = self._on_connect
        client.on_publish = self._on_publish
        client.on_message = self._on_message
        client.on_disconnect = self._on_disconnect
        client.max_inflight_messages_set(self.window)
        return client

    def _session_once(self) -> tuple[bool, bool]:
        """One connection, from connect to loss. Returns (was connected, refused by the broker)."""
        where = f"{self.fc.host}:{self.fc.port}"
        try:
            client = self._make_client()
        except OutboxError as e:
            self._set_link("config-error", str(e))
            log.error("%s", e)
            return False, True
        self._set_link("connecting")
        self._connack = None
        try:
            client.connect(self.fc.host, self.fc.port, keepalive=KEEPALIVE_S, clean_start=True)
        except (OSError, ssl.SSLError, ValueError) as e:
            self.counters["connect_failures"] += 1
            self._set_link("down", f"cannot reach the floor broker {where}: {e}")
            return False, False
        deadline = time.monotonic() + CONNACK_TIMEOUT_S
        while self._connack is None and client.socket() is not None and not self._stop_evt.is_set():
            if time.monotonic() > deadline:
                break
            self._io(client, 0.2)
        if self._connack is None or not self._connack[0]:
            self.counters["connect_failures"] += 1
            reason = self._connack[1] if self._connack else "no answer"
            refused = self._connack is not None
            hint = " (check floor.username and floor.password_file against the broker's password file)" \
                if refused else ""
            self._set_link("refused" if refused else "down", f"floor broker {where} refused the connection: "
                           f"{reason}{hint}" if refused else f"floor broker {where}: {reason}")
            self._close(client)
            return False, refused
        receive_max = getattr(self._connack[2], "ReceiveMaximum", None) or self.window
        window = max(1, min(self.window, receive_max))
        with self._lock:
            self._session += 1
            self._connected = True
            self._inflight = {}
            self._topics = {}
        self._session_refused = False
        self.counters["connects"] += 1
        self._set_link("connected")
        self.last_error = ""
        client.subscribe(c.topic(self.site, self.table, "cmd"), qos=1)
        birth = self._publish_json(client, "status", c.status_payload(self.env, "online", "birth", self._last_t,
                                                                      self.clock()), retain=True)
        # Wait for the birth's PUBACK before draining: it proves the ACL lets us publish. mosquitto closes the
        # connection right after refusing a publish, so a refusal is best caught before anything else is sent.
        deadline = time.monotonic() + CONNACK_TIMEOUT_S
        while not birth.is_published() and client.socket() is not None and time.monotonic() < deadline \
                and not self._stop_evt.is_set():
            self._io(client, 0.1)
        self._settle_acks()
        if client.socket() is None or self._session_refused:
            with self._lock:
                self._connected = False
            if not self._session_refused:
                self._session_refused = True
                self._set_link("refused", f"the floor broker {where} closed the connection right after accepting "
                                          f"it: most likely its ACL refuses user {self.fc.username!r} for "
                                          f"{c.topic(self.site, self.table, 'status')}; check floor.username and "
                                          f"table.id")
            self._close(client)
            return True, True
        with self._lock:
            self._state_dirty = self._state_body is not None
        bucket = _Bucket(self.fc.replay_rate)
        last_id = 0
        drain_deadline = None
        last_state = time.monotonic()
        while client.socket() is not None:
            if self._stop_evt.is_set():
                if self._abandon:
                    self._close(client)
                    break
                if drain_deadline is None:
                    drain_deadline = time.monotonic() + (self._drain_timeout if self._drain else 0)
                if time.monotonic() >= drain_deadline or (self._depth == 0 and not self._inflight):
                    self._goodbye(client)
                    break
            self._settle_acks()
            timeout, last_id = self._pump(client, bucket, last_id, window)
            if time.monotonic() - last_state >= c.STATE_HEARTBEAT_S:
                with self._lock:
                    self._state_dirty = self._state_body is not None
            if self._publish_state(client):
                last_state = time.monotonic()
            self._publish_holecards(client)
            self._io(client, timeout if not self._stop_evt.is_set() else min(timeout, 0.05))
        self._settle_acks()
        with self._lock:
            self._connected = False
            self._inflight = {}
            self._topics = {}
        if self._session_refused:
            return True, True   # mosquitto drops a client after refusing its publish: retry slowly
        if not self._stop_evt.is_set():
            self._set_link("down", f"lost the floor broker {where}")
        return True, False

    def _pump(self, client: mqtt.Client, bucket: _Bucket, last_id: int, window: int) -> tuple[float, int]:
        """Publish the next outbox rows in order; returns (how long the I/O wait may be, last id sent)."""
        room = window - len(self._inflight)
        if room <= 0:
            return 1.0, last_id
        for row in self._net_db.after(last_id, room):
            late = row.boot != self.boot or row.session != self._session
            if late:
                wait = bucket.take()
                if wait:
                    return wait, last_id
            # the envelope's flag is the first "replayed" in the text (wrap() puts it before the body)
            text = row.payload.replace('"replayed":false', '"replayed":true', 1) if late else row.payload
            info = client.publish(row.topic, text, qos=1, properties=_PROPERTIES[row.kind])
            if info.rc != mqtt.MQTT_ERR_SUCCESS:
                return 0.05, last_id
            with self._lock:
                self._inflight[info.mid] = row.id
                self._topics[info.mid] = row.topic
            last_id = row.id
            self.counters["published"] += 1
            self.counters["replayed"] += late
        return 1.0, last_id

    def _publish_json(self, client: mqtt.Client, kind: str, payload: dict, retain: bool = False) -> mqtt.MQTTMessageInfo:
        name = c.topic(self.site, self.table, kind)
        info = client.publish(name, json.dumps(payload, separators=(",", ":")), qos=1, retain=retain,
                              properties=publish_properties(kind))
        with self._lock:
            self._topics[info.mid] = name
        return info

    def _publish_state(self, client: mqtt.Client) -> bool:
        with self._lock:
            if not (self._state_dirty or self._refresh) or self._state_body is None:
                return False
            state, t, reader = self._state_body
            self._state_dirty = self._refresh = False
        payload = c.state_payload(self.env, state, t, self.clock(), reader, self.health())
        self._publish_json(client, "state", payload, retain=True)
        anchor = anchor_payload(self.site, reader)   # the log's latest signed head (issue 14, evidence)
        if anchor is not None and anchor != getattr(self, "_anchor_sent", None):
            self._publish_json(client, "anchor", anchor, retain=True)
            self._anchor_sent = anchor
        self.counters["states_published"] += 1
        return True

    def _publish_holecards(self, client: mqtt.Client) -> None:
        while True:
            with self._lock:
                if not self._holecards:
                    return
                payload = self._holecards.popleft()
            self._publish_json(client, "holecards", payload)
            self.counters["holecards_published"] += 1

    def _settle_acks(self) -> None:
        with self._lock:
            acked, self._acked = self._acked, []
            refused, self._refused = self._refused, []
        for topic, reason in refused:
            self.counters["publish_refused"] += 1
            self._session_refused = True
            self._set_link("refused", f"the broker refused a publish to {topic} ({reason}); check the ACL for "
                                      f"user {self.fc.username!r} and table.id {self.table!r}")
            log.error("floor %s/%s: %s", self.site, self.table, self.last_error)
        if acked:
            n = self._net_db.delete(acked)
            with self._lock:
                self._depth -= n
                self.counters["acked"] += n
                if self._depth == 0 and self._state_body is not None:
                    self._state_dirty = True  # the floor's copy of our health should show the drained outbox

    def _io(self, client: mqtt.Client, timeout: float) -> None:
        sock = client.socket()
        if sock is None:
            return
        if getattr(sock, "pending", None) and sock.pending():
            timeout = 0  # TLS: bytes already decrypted, select would not see them
        want = [sock] if client.want_write() else []
        try:
            readable, writable, _ = select.select([sock, self._wake_r], want, [], max(0.0, timeout))
        except (OSError, ValueError):
            readable, writable = [sock], []
        if self._wake_r in readable:
            try:
                while self._wake_r.recv(4096):
                    pass
            except (BlockingIOError, OSError):
                pass
        if sock in readable:
            client.loop_read()
        if client.socket() is not None and (sock in writable or client.want_write()):
            client.loop_write()
        if client.socket() is not None:
            client.loop_misc()

    def _close(self, client: mqtt.Client) -> None:
        sock = client.socket()
        if sock is not None:
            try:
                sock.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
            sock.close()

    def _goodbye(self, client: mqtt.Client) -> None:
        """Clean stop: retained offline status, wait for its PUBACK briefly, DISCONNECT (no will)."""
        payload = c.status_payload(self.env, "offline", "stopped", self._last_t, self.clock())
        info = client.publish(c.topic(self.site, self.table, "status"), json.dumps(payload), qos=1, retain=True,
                              properties=publish_properties("status"))
        deadline = time.monotonic() + 2.0
        while not info.is_published() and client.socket() is not None and time.monotonic() < deadline:
            self._io(client, 0.05)
        client.disconnect()
        deadline = time.monotonic() + 1.0
        while client.socket() is not None and time.monotonic() < deadline:
            self._io(client, 0.05)
        self._close(client)

    # paho callbacks: they run inside loop_read/loop_write on the publisher thread

    def _on_connect(self, client, userdata, flags, reason_code, properties) -> None:
        self._connack = (not reason_code.is_failure, str(reason_code), properties)

    def _on_disconnect(self, client, userdata, flags, reason_code, properties) -> None:
        pass  # the session loop sees the socket gone

    def _on_publish(self, client, userdata, mid, reason_code, properties) -> None:
        with self._lock:
            row = self._inflight.pop(mid, None)
            topic = self._topics.pop(mid, None)
            if reason_code.is_failure:
                # the row stays in the outbox: a broker that refuses is misconfigured, and the data is kept
                self._refused.append((topic, str(reason_code)))
            elif row is not None:
                self._acked.append(row)

    def _on_message(self, client, userdata, message) -> None:
        self.handle_command(message.topic, message.payload)

    def handle_command(self, topic: str, raw: bytes) -> FloorCommand | None:
        """Check one message from the command topic; accepted commands go to ``commands``."""
        try:
            data = json.loads(raw.decode("utf-8"))
        except (UnicodeDecodeError, json.JSONDecodeError) as e:
            return self._refuse(topic, f"malformed JSON ({e})")
        errors = c.schema_errors("cmd", data)
        if errors:
            return self._refuse(topic, f"schema: {errors[0]}")
        if data["site"] != self.site or data["table"] != self.table:
            return self._refuse(topic, f"addressed to {data['site']}/{data['table']}, this is {self.site}/{self.table}")
        if (data["boot"], data["seq"]) in self._seen_cmds:
            return self._refuse(topic, f"duplicate command {data['boot']}#{data['seq']}")
        if data["cmd"] == "ack" and data["finding"] not in self._known_findings:
            return self._refuse(topic, f"unknown finding {data['finding']}")
        self._seen_cmds.append((data["boot"], data["seq"]))
        command = FloorCommand(data["cmd"], data.get("finding"), data["from"], data["boot"], data["seq"], data["at"])
        if command.cmd == "refresh":
            with self._lock:
                self._refresh = True
        self.counters["commands_accepted"] += 1
        log.info("floor command accepted from %s: %s %s", command.sender, command.cmd, command.finding or "")
        self.commands.put(command)
        return command

    def _refuse(self, topic: str, reason: str) -> None:
        self.counters["commands_refused"] += 1
        self.refusals.append(reason)
        log.warning("floor command on %s refused: %s", topic, reason)
        return None
