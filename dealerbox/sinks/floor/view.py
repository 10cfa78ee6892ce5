"""FloorView: the reference floor dashboard. Subscribes to ``dealerbox/<site>/+/...``, validates every payload
(cheaply: the fields it files and shows; the full
schema on a sample), deduplicates by (table, kind, boot, seq), notices gaps, keeps every table's status and
state and a feed of alerts, and sends ``ack`` / ``refresh`` commands. ``dealerbox floor`` is its terminal
front end; the end-to-end tests use it as "the dashboard".

>>> view = FloorView("127.0.0.1", 1883, site="demo")   # doctest: +SKIP
>>> view.start(); view.wait_until(lambda v: "T01" in v.tables, 5); view.ack("T01", "h12-3")  # doctest: +SKIP
"""

from __future__ import annotations

import json
import logging
import ssl
import threading
import time
import uuid
from collections import deque
from dataclasses import dataclass, field
from collections.abc import Callable

import paho.mqtt.client as mqtt
from paho.mqtt.packettypes import PacketTypes
from paho.mqtt.properties import Properties

from . import contract as c
from .link import publish_properties, read_password

log = logging.getLogger("dealerbox.floor.view")

STREAMS = ("event", "alert")      # the ordered, outboxed kinds whose seqs must have no holes
# A view runs for days: everything it keeps per message is bounded (the newest kept, the rest counted).
HISTORY = 10_000                  # messages / raw: the newest few seconds of a big floor, for tests and debugging
EVENTS_KEPT = 5_000               # per table
ALERTS_KEPT = 1_000               # per table
FEED_KEPT = 1_000
FULL_CHECK_EVERY = 100            # one message in this many also goes through the full JSON Schema
MAX_PAYLOAD = 256 * 1024          # a table's biggest state is a few KiB; anything this big is refused and counted


def judge(topic: str, raw: bytes) -> tuple[str, str, str, dict] | tuple[str, str | None]:
    """The checks every floor reader makes (this console view and the web dashboard): a floor topic, a sane
    size, JSON, the contract's display check, and a payload that names the table of its topic.
    (site, table, kind, payload) when usable, else (why, kind or None)."""
    parsed = c.parse_topic(topic)
    if parsed is None:
        return ("not a floor topic", None)
    site, table, kind = parsed
    if len(raw) > MAX_PAYLOAD:
        return (f"oversized payload ({len(raw)} bytes > {MAX_PAYLOAD})", kind)
    try:
        payload = json.loads(raw)
    except (UnicodeDecodeError, ValueError, RecursionError) as e:
        # ValueError also covers an integer of more than 4,300 digits; RecursionError, a payload nested too
        # deep: either, raised past here, rolled back a whole burst of the dashboard's filing
        return (f"malformed JSON: {str(e)[:200]}", kind)
    errors = c.display_errors(kind, payload)
    if not errors and (payload.get("table") != table or payload.get("site") != site):
        errors = [f"payload says {payload.get('site')}/{payload.get('table')}, topic says {site}/{table}"]
    if errors:
        return (errors[0], kind)
    return site, table, kind, payload


def phase_text(state: dict) -> str:
    """The phase a floor view shows: a draw game's round as the dealer's screen names it ("Draw 1", "Bet 2"),
    else the state's phase."""
    draw = state.get("draw")
    named = draw.get("round") if isinstance(draw, dict) else None
    return named if isinstance(named, str) and named else str(state.get("phase") or "")


def draw_text(seat: dict) -> str:
    """A draw game's seat in the draw being dealt: "drew 2", "pat" (drew none), "to draw", or ""."""
    drawn = seat.get("drawn")
    if isinstance(drawn, int) and not isinstance(drawn, bool):
        return f"drew {drawn}" if drawn else "pat"
    return "to draw" if seat.get("to_draw") is True else ""


def open_count(state: dict, acknowledged: set[str] | frozenset[str] = frozenset()) -> int:
    """How many findings a table's state says are open: its ``findings_open`` count, or, in a state made before
    the count was added, the unacknowledged findings it lists (``acknowledged``: ids the view saw acknowledged
    since that state)."""
    count = state.get("findings_open")
    if isinstance(count, int):
        return count
    return sum(1 for f in state.get("findings", []) if not f.get("acknowledged") and f.get("id") not in acknowledged)


@dataclass
class Stream:
    """Seqs seen on one (table, kind, boot): what arrived, what is missing, what came twice. Everything at
    or below ``highest`` has arrived unless it is in ``missing`` (or announced dropped), so no set of every
    seq ever seen is kept."""
    highest: int = 0
    missing: set[int] = field(default_factory=set)
    dropped: set[int] = field(default_factory=set)   # announced by the terminal (FloorEventsDropped)

    def accept(self, seq: int) -> bool:
        """False for a duplicate; records a gap when seq jumps ahead."""
        if seq <= self.highest:
            if seq not in self.missing:
                return False
            self.missing.discard(seq)
            return True
        if seq > self.highest + 1:
            self.missing.update(s for s in range(self.highest + 1, seq) if s not in self.dropped)
        self.highest = max(self.highest, seq)
        return True


@dataclass
class TableView:
    site: str
    table: str
    status: dict | None = None
    state: dict | None = None
    boot: str | None = None
    streams: dict[tuple[str, str], Stream] = field(default_factory=dict)   # (kind, boot) -> Stream
    events: deque[dict] = field(default_factory=lambda: deque(maxlen=EVENTS_KEPT))  # deduplicated, arrival order
    alerts: deque[dict] = field(default_factory=lambda: deque(maxlen=ALERTS_KEPT))
    acknowledged: set[str] = field(default_factory=set)

    @property
    def online(self) -> bool:
        return bool(self.status and self.status["status"] == "online")

    def gaps(self) -> dict[tuple[str, str], list[int]]:
        return {key: sorted(s.missing) for key, s in self.streams.items() if s.missing}


class FloorView:
    def __init__(self, host: str = "127.0.0.1", port: int = 1883, site: str = "demo", *, share: str | None = None,
                 username: str | None = None, password: str | None = None, password_file: str | None = None,
                 tls: bool = False, ca_file: str | None = None, cert_file: str | None = None,
                 key_file: str | None = None, name: str = "floor", client_id: str | None = None,
                 persistent: bool = False, clock: Callable[[], float] = time.time,
                 on_line: Callable[[str], None] | None = None, full_check_every: int = FULL_CHECK_EVERY,
                 history: int = HISTORY) -> None:
        self.host, self.port, self.site, self.share = host, port, c.check_name("site", site), share
        if share is not None:
            c.check_name("share group", share)
        self.name, self.clock, self.on_line = name, clock, on_line
        self.env = c.Envelope(self.site, c.check_name("floor name", name), uuid.uuid4().hex)
        self.tables: dict[str, TableView] = {}
        # the newest ``history`` messages: (topic, payload, retain, properties) and the bytes as received
        self.messages: deque[tuple[str, dict | None, bool, dict]] = deque(maxlen=history)
        self.raw: deque[tuple[str, bytes]] = deque(maxlen=history)
        self.invalid: deque[tuple[str, str]] = deque(maxlen=FEED_KEPT)
        self.received = 0
        self.duplicates = 0
        # 1 = every message through the full schema (slow); N = one in N; 0 = never. A sampled message that
        # passes the display check but not the schema is filed anyway and counted: the contract has drifted.
        self.full_check_every = full_check_every
        self.schema_mismatches: deque[tuple[str, str]] = deque(maxlen=FEED_KEPT)
        self.feed: deque[str] = deque(maxlen=FEED_KEPT)
        self.connected = threading.Event()      # connected and subscribed (SUBACK seen): nothing sent after is missed
        self._cond = threading.Condition()
        self.client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2,
                                  client_id=client_id or f"dealerbox-floor-{name}-{self.env.boot[:8]}",
                                  protocol=mqtt.MQTTv5, reconnect_on_failure=True)
        if username:
            self.client.username_pw_set(username, password if password is not None else
                                        (read_password(password_file) if password_file else None))
        if tls:
            self.client.tls_set(ca_certs=ca_file or None, certfile=cert_file or None, keyfile=key_file or None,
                                cert_reqs=ssl.CERT_REQUIRED)
        self.persistent = persistent
        self.client.reconnect_delay_set(0.1, 1.0)  # type: ignore[arg-type]  # paho's hints say int; it waits fractions fine
        self.client.on_connect = self._on_connect
        self.client.on_message = self._on_message
        self.client.on_disconnect = self._on_disconnect
        self.client.on_subscribe = self._on_subscribe

    # --- lifecycle --------------------------------------------------------------------------------------

    def start(self, timeout: float = 10.0) -> FloorView:
        """Connect and subscribe; raises ConnectionError naming the broker when it cannot."""
        props = Properties(PacketTypes.CONNECT)
        if self.persistent:
            props.SessionExpiryInterval = 3600  # the broker keeps our subscriptions and queues while we are away
        try:
            self.client.connect(self.host, self.port, keepalive=15, clean_start=not self.persistent,
                                properties=props)
        except (OSError, ssl.SSLError) as e:
            raise ConnectionError(f"cannot reach the floor broker {self.host}:{self.port}: {e}") from None
        self.client.loop_start()
        if not self.connected.wait(timeout):
            self.stop()
            raise ConnectionError(f"floor broker {self.host}:{self.port} did not accept us within {timeout}s "
                                  f"({self._refusal or 'no answer'})")
        return self

    _refusal = ""

    def stop(self) -> None:
        self.client.disconnect()
        self.client.loop_stop()

    def _filters(self) -> list[str]:
        base = f"{c.ROOT}/{self.site}/+"
        # status and state are retained and small: every member sees them all (a shared subscription would
        # not get retained messages). The event and alert streams are what a $share group splits.
        shared = f"$share/{self.share}/" if self.share else ""
        return [f"{base}/status", f"{base}/state", f"{shared}{base}/alert", f"{shared}{base}/event"]

    def _on_connect(self, client, userdata, flags, reason_code, properties) -> None:
        if reason_code.is_failure:
            self._refusal = str(reason_code)
            self._line(f"broker refused us: {reason_code}")
            return
        # The state is a retained snapshot each table republishes after every step and once a second: the
        # next one replaces a lost one, so it comes at QoS 0 (no PUBACK for 1,000 messages a second at
        # 1,000 tables). Status, events and alerts stay QoS 1: each of them counts.
        client.subscribe([(f, 0 if f.endswith("/state") else 1) for f in self._filters()])

    def _on_subscribe(self, client, userdata, mid, reason_codes, properties) -> None:
        # start() returns once the broker has the subscriptions, so a publish right after it is seen
        self.connected.set()

    def _on_disconnect(self, client, userdata, flags, reason_code, properties) -> None:
        self.connected.clear()

    # --- receiving ----------------------------------------------------------------------------------------

    def _on_message(self, client, userdata, message) -> None:
        props = {}
        if message.properties is not None:
            props = {k: v for k, v in message.properties.json().items() if v not in (None, [], "")}
        with self._cond:
            self.raw.append((message.topic, bytes(message.payload)))
            self.receive(message.topic, message.payload, message.retain, props)
            self._cond.notify_all()

    def receive(self, topic: str, raw: bytes, retain: bool = False, props: dict | None = None) -> None:
        """Take one message (public so a recorded capture can be replayed into a view)."""
        judged = judge(topic, raw)
        if len(judged) == 2:
            why, kind = judged
            self.invalid.append((topic, str(why)))
            if kind is None:
                return
            if str(why).startswith(("malformed JSON", "oversized")):
                self.messages.append((topic, None, retain, props or {}))
                return
            self.messages.append((topic, json.loads(raw), retain, props or {}))
            self.received += 1
            self._line(f"!! {topic}: invalid payload: {why}")
            return
        site, table, kind, payload = judged
        self.messages.append((topic, payload, retain, props or {}))
        self.received += 1
        if self.full_check_every and self.received % self.full_check_every == 0:
            full = c.schema_errors(kind, payload)
            if full:
                self.schema_mismatches.append((topic, full[0]))
                log.warning("floor %s: payload breaks the schema (filed anyway): %s", topic, full[0])
        tv = self.tables.setdefault(table, TableView(site, table))
        if kind == "status":
            was = tv.status["status"] if tv.status else None
            tv.status = payload
            if payload["status"] == "online":
                tv.boot = payload["boot"]
            if was != payload["status"]:
                self._line(f"{table} {payload['status']} ({payload['reason']}, boot {payload['boot'][:8]})")
        elif kind == "state":
            if tv.state is None or (payload["boot"], payload["seq"]) != (tv.state["boot"], tv.state["seq"]):
                if tv.state is None or payload["boot"] != tv.state["boot"] or payload["seq"] > tv.state["seq"]:
                    tv.state = payload
        elif kind in STREAMS:
            stream = tv.streams.setdefault((kind, payload["boot"]), Stream())
            if not stream.accept(payload["seq"]):
                self.duplicates += 1
                return
            if kind == "event":
                tv.events.append(payload)
                self._on_event(tv, payload)
            else:
                tv.alerts.append(payload)
                f = payload["finding"]
                late = " (late)" if payload.get("replayed") else ""
                self._line(f"ALERT {table} {f['id']} [{f['severity']}] {f['citation']}: {f['ruling']}{late}")

    def _on_event(self, tv: TableView, payload: dict) -> None:
        data = payload["data"]
        if data["event"] == c.DROPPED_NOTICE:
            for r in data["seqs"]:
                s = tv.streams.setdefault(("event", r["boot"]), Stream())
                dropped = set(range(r["first"], r["last"] + 1))
                s.dropped |= dropped
                s.missing -= dropped
            self._line(f"{tv.table}: terminal dropped {data['count']} low-value events ({data['reason']})")
        elif data["event"] == "FindingAcknowledged":
            tv.acknowledged.add(data["id"])
            by = data.get("by")
            self._line(f"{tv.table} {data['id']} acknowledged" + (f" by {c.inert(by, 64)}" if isinstance(by,
                                                                                                         str) else ""))

    def _line(self, text: str) -> None:
        stamp = time.strftime("%H:%M:%S", time.localtime(self.clock()))
        line = f"{stamp} {text}"
        self.feed.append(line)
        if self.on_line:
            self.on_line(line)

    # --- asking ---------------------------------------------------------------------------------------------

    def command(self, table: str, cmd: str, finding: str | None = None) -> dict:
        """Publish a command to one table (QoS 1); returns the payload sent."""
        payload = c.command_payload(self.env, cmd, self.clock(), self.name, finding, table=c.check_name("table", table))
        info = self.client.publish(c.topic(self.site, table, "cmd"), json.dumps(payload), qos=1,
                                   properties=publish_properties("cmd"))
        info.wait_for_publish(5)
        return payload

    def ack(self, table: str, finding: str) -> dict:
        return self.command(table, "ack", finding)

    def refresh(self, table: str) -> dict:
        return self.command(table, "refresh")

    # --- reading ----------------------------------------------------------------------------------------

    def wait_until(self, predicate: Callable[[FloorView], bool], timeout: float) -> bool:
        """Block until ``predicate(view)`` holds (checked after every message) or ``timeout`` passes."""
        deadline = time.monotonic() + timeout
        with self._cond:
            while not predicate(self):
                left = deadline - time.monotonic()
                if left <= 0:
                    return False
                self._cond.wait(min(left, 0.2))
            return True

    def events(self, table: str, name: str | None = None) -> list[dict]:
        tv = self.tables.get(table)
        with self._cond:   # the history is a deque the network thread appends to: copy it under the lock
            evs = list(tv.events) if tv else []
        return [e for e in evs if name is None or e["data"]["event"] == name]

    def gaps(self) -> dict[str, dict]:
        return {t: g for t, tv in self.tables.items() if (g := tv.gaps())}

    def render(self, feed_lines: int = 12) -> str:
        """The floor screen as text: one line per table, then the latest alerts and notices."""
        out = [f"dealerbox floor - site {self.site} - {len(self.tables)} tables"
               f"{' - share ' + self.share if self.share else ''} - {self.received} messages, "
               f"{self.duplicates} repeats dropped (QoS 1 redelivery, same site/table/boot/seq)", ""]
        out.append(f"{'table':8} {'status':8} {'hand':>5} {'phase':9} {'pot':>6} {'open':>4} {'outbox':>6} "
                   f"{'link':10} gaps")
        for name in sorted(self.tables):
            tv = self.tables[name]
            st = tv.state or {}
            link = (st.get("health") or {}).get("link", {}) if tv.online else {"link": "-", "outbox_depth": "-"}
            open_findings = open_count(st, tv.acknowledged)
            gaps = sum(len(v) for v in tv.gaps().values())
            out.append(f"{name:8} {(tv.status or {}).get('status', '?'):8} {str(st.get('hand', '-')):>5} "
                       f"{phase_text(st) or '-':9} {st.get('pot', 0):>6} {open_findings:>4} "
                       f"{link.get('outbox_depth', '-'):>6} {link.get('link', '-'):10} {gaps or ''}")
        out += ["", "alerts and notices:"] + [f"  {line}" for line in list(self.feed)[-feed_lines:]]
        return "\n".join(out)
