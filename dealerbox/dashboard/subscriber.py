"""The dashboard's broker connection, off the event loop: paho's own network thread reads and acknowledges the
floor topics, and one filing thread files what arrived in bursts. The event loop (pages and SSE streams) is only
told when a burst is filed and when the connection comes or goes.

Once a burst is filed, each table whose alerts it held gets a receipt (``dealerbox/<site>/<table>/receipt``,
sinks/floor/receipts.py): the terminal keeps an alert in its outbox until the floor has filed it, so an alert
the broker lost, or one a dashboard instance took with it when it died, is sent again.

Several instances behind one address share the streams through an MQTT 5 shared subscription
(``BrokerSettings.share``): each alert and event goes to one of them, all file into one database. Retained
status and state are not delivered on a shared subscription, so every instance takes those itself.

Profiled at 500 tables (about 1,000 messages a second), reading MQTT through aiomqtt on the event loop was its
largest cost: one socket read, one Message, one queue hand-over and, for QoS 1, a PUBACK writer registered and
removed per message, while 50 SSE streams waited for their turn. Here that work happens between threads.
"""

from __future__ import annotations

import json
import logging
import ssl
import sys
import threading
import time
from dataclasses import dataclass, field
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion
from paho.mqtt.packettypes import PacketTypes
from paho.mqtt.properties import Properties

from ..sinks.floor.contract import ROOT, parse_topic
from ..sinks.floor.contract import topic as topic_of
from ..sinks.floor.receipts import receipt_payload
from ..sinks.floor.security import publish_properties

if TYPE_CHECKING:
    from .gaps import AlertGaps

log = logging.getLogger("dealerbox.dashboard")
SESSION_EXPIRY_S = 3600           # the broker queues alerts for us while we restart
BATCH_MAX = 1000                  # alerts filed in one transaction at most
ROUTINE_BATCH_MAX = 250           # states, statuses and events: a smaller bite, so an alert never waits long
# Routine messages alone are gathered for up to ROUTINE_GATHER_S (or until ROUTINE_GATHER wait) before they are
# filed: a burst of 2 cost 458 us a message, one of 50 151 us (bench/dashboard_filing.py --burst), and a room
# that is filed as it trickles in leaves the filer no room for a start. An alert is never held: it wakes the filer
# at once and is filed first.
ROUTINE_GATHER = 100
ROUTINE_GATHER_S = 0.05
PUBLISH_WAIT_S = 10.0
GAP_CHECK_S = 2.0                 # a quiet filing thread looks for missing alerts this often
RECEIPT_MAX = 1000                # alerts named in one receipt (the schema's maxItems)

RECEIPT_PROPS = publish_properties("receipt")   # JSON, UTF-8, schema dealerbox.floor.receipt/1
# The dashboard's three busy threads (paho's reader, the filer, the event loop) share one interpreter lock. paho
# reads a packet in several socket reads, and after each it waits for the lock: with the filer and the event loop
# both busy (a start), up to the switch interval each time, 5 ms by default. At 1 ms paho read a rush of 3,000
# QoS 1 messages beside two busy threads 1.4 to 4.3 times faster (bench/dashboard_switch.py, docs/performance.md).
SWITCH_INTERVAL_S = 0.001


def share_the_lock_often() -> None:
    """Set the interpreter's thread switch interval for a dashboard process (process-wide: its entry points)."""
    sys.setswitchinterval(SWITCH_INTERVAL_S)


@dataclass
class BrokerSettings:
    host: str = "127.0.0.1"
    port: int = 1883
    site: str = "+"                      # "+" watches every site (a central dashboard behind bridges)
    username: str | None = None
    password: str | None = None
    tls: bool = False
    ca_file: str | None = None
    cert_file: str | None = None
    key_file: str | None = None
    client_id: str | None = None         # default dealerbox-dashboard-<name>: a stable id keeps the broker session
    share: str | None = None             # a shared-subscription group: instances with the same group split the streams

    def filters(self) -> list[tuple[str, int]]:
        base = f"{ROOT}/{self.site}/+"
        shared = f"$share/{self.share}/" if self.share else ""
        # state is retained and superseded every second: QoS 0 spares a PUBACK per snapshot (half the traffic of
        # a busy room); the streams that must not be lost stay QoS 1. Retained messages never come on a shared
        # subscription: status and state are taken by every instance
        return [(f"{base}/status", 1), (f"{base}/state", 0), (f"{shared}{base}/event", 1),
                (f"{shared}{base}/alert", 1),
                (f"{shared}{base}/anchor", 1)]     # every signed log head, kept for verify --anchors (store.anchors)


@dataclass
class Subscriber:
    """``file(batch, backlog)`` runs on the filing thread for each burst (``backlog``: more is already
    waiting); ``told(connected, note)`` on paho's thread whenever the connection changes (the caller hands
    both over to its event loop)."""
    broker: BrokerSettings
    client_id: str
    file: Callable[[list[tuple[str, bytes]], bool], None]
    told: Callable[[bool, str], None]
    connected: bool = False
    # exact topics handled on paho's thread instead of being filed (a hosted tournament's retained clock)
    aside: dict[str, Callable[[bytes], None]] = field(default_factory=dict)
    gaps: AlertGaps | None = None        # told the alert seqs of every filed burst; checked on the filing thread
    _inbox: list[tuple[str, bytes]] = field(default_factory=list)
    _alerts: list[tuple[str, bytes]] = field(default_factory=list)      # filed ahead of everything else
    _ready: threading.Condition = field(default_factory=threading.Condition)
    _stopping: bool = False

    def start(self) -> None:
        c = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=self.client_id, protocol=mqtt.MQTTv5)
        if self.broker.username:
            c.username_pw_set(self.broker.username, self.broker.password)
        if self.broker.tls:
            c.tls_set(ca_certs=self.broker.ca_file, certfile=self.broker.cert_file, keyfile=self.broker.key_file,
                      cert_reqs=ssl.CERT_REQUIRED)
        c.reconnect_delay_set(0.5, 5)  # type: ignore[arg-type]  # paho sleeps float seconds; its hint says int
        c.on_connect = self._on_connect
        c.on_disconnect = self._on_disconnect
        c.on_connect_fail = self._on_connect_fail
        c.on_message = self._on_message
        connect = Properties(PacketTypes.CONNECT)
        # One of several instances keeps no session: what the broker would queue for a dead one goes to the
        # others instead, and what it had in flight the tables send again (no receipt came)
        shared = bool(self.broker.share)
        connect.SessionExpiryInterval = 0 if shared else SESSION_EXPIRY_S
        self.client = c
        self._filer = threading.Thread(target=self._file_forever, name="dashboard-filer", daemon=True)
        self._filer.start()
        c.connect_async(self.broker.host, self.broker.port, keepalive=10, clean_start=shared, properties=connect)
        c.loop_start()

    def stop(self) -> None:
        with self._ready:
            self._stopping = True
            self._ready.notify()
        self.client.disconnect()
        self.client.loop_stop()
        self._filer.join(5)

    def publish(self, topic: str, payload: dict[str, Any], props: Properties,
                retain: bool = False) -> mqtt.MQTTMessageInfo:
        """Queue a QoS 1 publish (queued in call order); ConnectionError at once when the broker is not
        connected."""
        if not self.connected:
            raise ConnectionError("the floor broker is not connected: try again in a moment")
        info = self.client.publish(topic, json.dumps(payload), qos=1, retain=retain, properties=props)
        if info.rc != mqtt.MQTT_ERR_SUCCESS:
            raise ConnectionError(f"the floor broker refused a publish on {topic}: {mqtt.error_string(info.rc)}")
        return info

    def wait_published(self, info: mqtt.MQTTMessageInfo) -> None:
        """Block (on a worker thread) until the broker acknowledged ``info``."""
        try:
            info.wait_for_publish(PUBLISH_WAIT_S)
        except (RuntimeError, ValueError) as e:
            raise ConnectionError(f"the floor broker went away during a publish: {e}") from e
        if not info.is_published():
            raise ConnectionError(f"the floor broker did not acknowledge within {PUBLISH_WAIT_S:.0f} s")

    # --- paho's network thread ---------------------------------------------------------------------

    def _on_connect(self, client: mqtt.Client, _userdata: object, _flags: object, reason: object,
                    _props: object) -> None:
        if getattr(reason, "is_failure", False):
            self._tell(False, f"refused by {self.broker.host}:{self.broker.port}: {reason}")
            return
        client.subscribe(self.broker.filters() + [(topic, 1) for topic in self.aside])
        self._tell(True, f"connected to {self.broker.host}:{self.broker.port}")

    def _on_disconnect(self, _client: mqtt.Client, _userdata: object, _flags: object, reason: object,
                       _props: object) -> None:
        if not self._stopping:
            self._tell(False, f"lost {self.broker.host}:{self.broker.port}: {reason}")

    def _on_connect_fail(self, _client: mqtt.Client, _userdata: object) -> None:
        # paho retries by itself; the health page says why nothing arrives meanwhile
        if not self._stopping:
            self._tell(False, f"lost {self.broker.host}:{self.broker.port}: cannot connect, retrying")

    def _tell(self, connected: bool, note: str) -> None:
        self.connected = connected
        self.told(connected, note)

    def _on_message(self, _client: mqtt.Client, _userdata: object, message: mqtt.MQTTMessage) -> None:
        handle = self.aside.get(message.topic)
        raw = bytes(message.payload)    # already bytes from paho's reader: no copy
        if handle is not None:
            try:
                handle(raw)
            except Exception:     # raised out of a paho callback, it would end paho's network thread for good
                log.exception("a message on %s could not be taken; it is ignored", message.topic)
            return
        with self._ready:
            # an alert never waits behind a burst of states (500 tables' retained states after a start)
            if message.topic.endswith("/alert"):
                self._alerts.append((message.topic, raw))
                self._ready.notify()
            else:
                self._inbox.append((message.topic, raw))
                if len(self._inbox) in (1, ROUTINE_GATHER):   # the filer is told once, not for every state
                    self._ready.notify()

    # --- the filing thread ---------------------------------------------------------------------------

    def _file_forever(self) -> None:
        while True:
            with self._ready:
                while not self._inbox and not self._alerts and not self._stopping:
                    if not self._ready.wait(GAP_CHECK_S) and self.gaps is not None:
                        break     # quiet: look for alerts still missing
                if self._stopping:
                    return
                self._gather()
                if self._stopping:
                    return
                taken = self.take()
            if taken is None:
                self._check_gaps()
                continue
            self._file_one(*taken)

    def _gather(self) -> None:
        """With the lock held and only a few routine messages waiting: wait up to ROUTINE_GATHER_S for more, so
        they are filed in one transaction; an alert, ROUTINE_GATHER of them, or stopping ends the wait."""
        until = time.monotonic() + ROUTINE_GATHER_S
        while not self._alerts and 0 < len(self._inbox) < ROUTINE_GATHER and not self._stopping:
            left = until - time.monotonic()
            if left <= 0:
                return
            self._ready.wait(left)

    def take(self) -> tuple[list[tuple[str, bytes]], bool] | None:
        """The next burst to file and whether more waits behind it, or None: every waiting alert (up to
        BATCH_MAX) before any routine message, routine messages ROUTINE_BATCH_MAX at a time."""
        with self._ready:
            if self._alerts:
                batch, self._alerts = self._alerts[:BATCH_MAX], self._alerts[BATCH_MAX:]
            elif self._inbox:
                batch, self._inbox = self._inbox[:ROUTINE_BATCH_MAX], self._inbox[ROUTINE_BATCH_MAX:]
            else:
                return None
            return batch, bool(self._inbox or self._alerts)

    def _file_one(self, batch: list[tuple[str, bytes]], backlog: bool) -> None:
        try:
            self.file(batch, backlog)
        except Exception:   # one bad burst (a database hiccup) must not stop filing for good
            # no receipt: the tables send these alerts again
            log.exception("filing %d floor messages failed", len(batch))
            return
        self._receipts(batch)
        self._check_gaps()

    def _check_gaps(self) -> None:
        if self.gaps is not None:
            try:
                self.gaps.check()
            except Exception:   # a database hiccup: the next check tries again
                log.exception("checking the floor's alert sequences failed")

    def _receipts(self, batch: list[tuple[str, bytes]]) -> None:
        """Tell each table which of its alerts in this burst are filed (a duplicate too: it is in the store)."""
        filed: dict[tuple[str, str], list[tuple[str, int]]] = {}
        for topic, raw in batch:
            if not topic.endswith("/alert"):
                continue
            parsed = parse_topic(topic)
            try:
                payload = json.loads(raw)
            except (ValueError, RecursionError):
                continue     # refused by the filing: nothing was filed, nothing to confirm
            if parsed is None or not isinstance(payload, dict):
                continue
            boot, seq = payload.get("boot"), payload.get("seq")
            if isinstance(boot, str) and type(seq) is int and seq > 0:
                filed.setdefault((parsed[0], parsed[1]), []).append((boot, seq))
        if self.gaps is not None and filed:
            try:
                self.gaps.filed([(site, table, boot, seq) for (site, table), pairs in filed.items()
                                 for boot, seq in pairs])
            except Exception:   # two instances filing the same seq at once: the next burst's check sees it
                log.exception("noting the floor's alert sequences failed")
        unsent: list[str] = []
        why = ""
        for (site, table), pairs in filed.items():
            for at in range(0, len(pairs), RECEIPT_MAX):
                body = receipt_payload(site, table, self.client_id, time.time(), pairs[at:at + RECEIPT_MAX])
                info = self.client.publish(topic_of(site, table, "receipt"), json.dumps(body), qos=1,
                                           properties=RECEIPT_PROPS)
                if info.rc != mqtt.MQTT_ERR_SUCCESS:   # the table sends them again and we file them once
                    unsent.append(f"{site}/{table}")
                    why = mqtt.error_string(info.rc)
        if unsent:       # one line a burst: with the broker away, a line per table buried the log
            log.warning("receipts to %d table(s) not sent (%s, ...): %s; they send those alerts again", len(unsent),
                        ", ".join(unsent[:3]), why)
