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
# CONNACK reasons that mean the alert connection's user is not set up (a password file of an earlier release):
# client id not valid, bad user name or password, not authorized, banned, bad authentication method
REFUSED = frozenset({133, 134, 135, 138, 140})
SESSION_TAKEN_OVER = 142

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
    alerts_apart: bool = True            # alerts on a connection of their own (Subscriber); False: on the main one
    alerts_username: str | None = None   # its broker user: default <username>-alerts (docs/mosquitto/acl)
    alerts_password: str | None = None   # default: the password above
    alerts_cert_file: str | None = None  # its own client certificate, where the broker names a client by its CN
    alerts_key_file: str | None = None

    def filters(self, alerts: bool = True) -> list[tuple[str, int]]:
        """The main connection's subscriptions; with ``alerts`` (one connection) the alert stream's too."""
        base = f"{ROOT}/{self.site}/+"
        shared = f"$share/{self.share}/" if self.share else ""
        # state is retained and superseded every second: QoS 0 spares a PUBACK per snapshot (half the traffic of
        # a busy room); the streams that must not be lost stay QoS 1. Retained messages never come on a shared
        # subscription: status and state are taken by every instance
        return [(f"{base}/status", 1), (f"{base}/state", 0), (f"{shared}{base}/event", 1),
                *(self.alert_filters() if alerts else []),
                (f"{shared}{base}/anchor", 1)]     # every signed log head, kept for verify --anchors (store.anchors)

    def alert_filters(self) -> list[tuple[str, int]]:
        shared = f"$share/{self.share}/" if self.share else ""
        return [(f"{shared}{ROOT}/{self.site}/+/alert", 1)]

    def alerts_user(self) -> str | None:
        """The alert connection's broker user: under use_username_as_clientid a user is a client id, so it cannot be
        the main connection's (the two would knock each other off)."""
        return self.alerts_username or (f"{self.username}-alerts" if self.username else None)

    def alerts_connection(self) -> bool:
        """Whether the alerts get a connection of their own: not when asked not to, nor where the broker would name
        it as the main one, so that each took the other's client id in turn (mosquitto closes the older without a
        reason a client can tell): the same user, or the same client certificate (use_identity_as_username)."""
        same_user = self.username is not None and self.alerts_user() == self.username
        same_cert = self.tls and bool(self.cert_file) and not self.alerts_cert_file
        return self.alerts_apart and not same_user and not same_cert


@dataclass
class Subscriber:
    """``file(batch, backlog, alert_waiting)`` runs on the filing thread for each burst (``backlog``: more is already
    waiting; ``alert_waiting()``, given while a backlog waits: an alert came meanwhile) and returns how many of
    ``batch`` it filed, the rest going back to the front of the queue; ``told(connected, note)`` runs on a paho
    thread whenever a connection changes (the caller hands both over to its event loop).

    Alerts come on a connection of their own (``BrokerSettings.alerts_apart``), with its own client id, broker
    user and paho thread: on the one connection an alert raised while a start's 500 retained statuses and
    states came in was read behind all of them (TCP keeps the order), and that was the largest part of its
    wait. Refused by the broker (a password file without the alert user), or told its client id was taken over,
    it gives way: the main connection takes the alerts (``BrokerSettings.alerts_connection`` says when there is
    none to begin with)."""
    broker: BrokerSettings
    client_id: str
    file: Callable[[list[tuple[str, bytes]], bool, Callable[[], bool] | None], int]
    told: Callable[[bool, str], None]
    connected: bool = False
    # exact topics handled on paho's thread instead of being filed (a hosted tournament's retained clock)
    aside: dict[str, Callable[[bytes], None]] = field(default_factory=dict)
    gaps: AlertGaps | None = None        # told the alert seqs of every filed burst; checked on the filing thread
    _inbox: list[tuple[str, bytes]] = field(default_factory=list)
    _alerts: list[tuple[str, bytes]] = field(default_factory=list)      # filed ahead of everything else
    _ready: threading.Condition = field(default_factory=threading.Condition)
    _stopping: bool = False
    alerts_client: mqtt.Client | None = None     # the alert connection while it is apart, else None
    _up: dict[str, bool] = field(default_factory=dict)     # "main", "alerts": connected

    def start(self) -> None:
        shared = bool(self.broker.share)
        self.client = self._client(self.client_id, self.broker.username, self.broker.password, self._on_connect,
                                   "main", self.broker.cert_file, self.broker.key_file)
        if self.broker.alerts_connection():
            self.alerts_client = self._client(f"{self.client_id}-alerts", self.broker.alerts_user(),
                                              self.broker.alerts_password or self.broker.password,
                                              self._on_alerts_connect, "alerts", self.broker.alerts_cert_file,
                                              self.broker.alerts_key_file)
            self.alerts_client.on_subscribe = self._on_alerts_subscribe
        self._filer = threading.Thread(target=self._file_forever, name="dashboard-filer", daemon=True)
        self._filer.start()
        for c in (self.client, self.alerts_client):
            if c is not None:
                connect = Properties(PacketTypes.CONNECT)
                # One of several instances keeps no session: what the broker would queue for a dead one goes to
                # the others instead, and what it had in flight the tables send again (no receipt came)
                connect.SessionExpiryInterval = 0 if shared else SESSION_EXPIRY_S
                c.connect_async(self.broker.host, self.broker.port, keepalive=10, clean_start=shared,
                                properties=connect)
                c.loop_start()

    def _client(self, client_id: str, username: str | None, password: str | None, on_connect: Callable[..., None],
                which: str, cert_file: str | None, key_file: str | None) -> mqtt.Client:
        c = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=client_id, protocol=mqtt.MQTTv5)
        if username:
            c.username_pw_set(username, password)
        if self.broker.tls:
            c.tls_set(ca_certs=self.broker.ca_file, certfile=cert_file, keyfile=key_file, cert_reqs=ssl.CERT_REQUIRED)
        c.reconnect_delay_set(0.5, 5)  # type: ignore[arg-type]  # paho sleeps float seconds; its hint says int
        c.on_connect = on_connect
        c.on_disconnect = lambda _c, _u, _f, reason, _p: self._on_disconnect(which, reason)
        c.on_connect_fail = lambda _c, _u: self._on_connect_fail(which)
        c.on_message = self._on_message
        return c

    def stop(self) -> None:
        with self._ready:
            self._stopping = True
            self._ready.notify()
        for c in (self.client, self.alerts_client):
            if c is not None:
                c.disconnect()
                c.loop_stop()
        self._filer.join(5)

    def publish(self, topic: str, payload: dict[str, Any], props: Properties,
                retain: bool = False) -> mqtt.MQTTMessageInfo:
        """Queue a QoS 1 publish (queued in call order); ConnectionError at once when the broker is not
        connected."""
        if not self._up.get("main"):
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

    # --- paho's network threads ----------------------------------------------------------------------

    def _on_connect(self, client: mqtt.Client, _userdata: object, _flags: object, reason: object,
                    _props: object) -> None:
        if getattr(reason, "is_failure", False):
            self._tell("main", False, f"refused by {self.broker.host}:{self.broker.port}: {reason}")
            return
        apart = self.alerts_client is not None
        client.subscribe(self.broker.filters(alerts=not apart) + [(topic, 1) for topic in self.aside])
        if apart:    # a session of an earlier release subscribed to alerts here: they come on their own now
            client.unsubscribe([f for f, _qos in self.broker.alert_filters()])
        self._tell("main", True, f"connected to {self.broker.host}:{self.broker.port}")
        if apart and self.alerts_client is None:    # it gave way meanwhile, seeing this connection not yet up
            client.subscribe(self.broker.alert_filters())

    def _on_alerts_connect(self, client: mqtt.Client, _userdata: object, _flags: object, reason: object,
                           _props: object) -> None:
        if getattr(reason, "is_failure", False):
            if getattr(reason, "value", 0) in REFUSED:
                self._alerts_together(f"the broker refused its user {self.broker.alerts_user()!r}: {reason}")
            else:
                self._tell("alerts", False, f"alerts refused by {self.broker.host}:{self.broker.port}: {reason}")
            return
        client.subscribe(self.broker.alert_filters())
        self._tell("alerts", True, f"connected to {self.broker.host}:{self.broker.port}")

    def _on_alerts_subscribe(self, _client: mqtt.Client, _userdata: object, _mid: int, codes: list[Any],
                             _props: object) -> None:
        refused = [code for code in codes if getattr(code, "is_failure", False)]
        if refused:
            self._alerts_together(f"the broker refused {self.broker.alerts_user()!r} the alert topics: {refused[0]}")

    def _alerts_together(self, why: str) -> None:
        """The alert connection gives way: the main connection takes the alerts (one line says why and what to do)."""
        with self._ready:
            alerts, self.alerts_client = self.alerts_client, None
        if alerts is None:
            return
        log.warning("floor broker: alerts come on the main connection (%s); give the dashboard its alert user "
                    "(docs/mosquitto/acl) so an alert never waits behind a start's states", why)
        self._up.pop("alerts", None)
        alerts.disconnect()
        alerts.loop_stop()        # from its own thread paho only marks it to end; from another it waits for it
        if self._up.get("main"):  # else the main connection subscribes to them when it connects
            self.client.subscribe(self.broker.alert_filters())
            self._tell("main", True, f"connected to {self.broker.host}:{self.broker.port} (alerts on the same "
                                     "connection)")

    def _on_disconnect(self, which: str, reason: object) -> None:
        if self._stopping or (which == "alerts" and self.alerts_client is None):
            return      # stopping, or the alert connection gave way
        if getattr(reason, "value", 0) == SESSION_TAKEN_OVER and self.alerts_client is not None:
            # another connection under our client id (a broker that says so: mosquitto 2.0 just closes the older)
            self._alerts_together(f"the {which} connection's client id was taken over: {reason}")
            if which == "alerts":
                return
        self._tell(which, False, f"lost {self.broker.host}:{self.broker.port}: {reason}")

    def _on_connect_fail(self, which: str) -> None:
        # paho retries by itself; the health page says why nothing arrives meanwhile
        if not self._stopping and not (which == "alerts" and self.alerts_client is None):
            self._tell(which, False, f"lost {self.broker.host}:{self.broker.port}: cannot connect, retrying")

    def _tell(self, which: str, connected: bool, note: str) -> None:
        """Connected once every connection is; a note names the alert connection when it is the one that changed
        alone."""
        self._up[which] = connected
        wanted = ("main", "alerts") if self.alerts_client is not None else ("main",)
        self.connected = all(self._up.get(w) for w in wanted)
        if connected and not self.connected:
            note = f"{which} connection up, the other not yet: {note}"
        elif which == "alerts" and not connected:
            note = f"alert connection {note}"
        self.told(self.connected, note)

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

    def alert_waiting(self) -> bool:
        """An alert waits to be filed (read without the lock: a list's length is one read)."""
        return bool(self._alerts)

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
        filed = self.file_some(batch, backlog)
        if filed:
            self._receipts(filed)
            self._check_gaps()

    def file_some(self, batch: list[tuple[str, bytes]], backlog: bool) -> list[tuple[str, bytes]] | None:
        """File ``batch``; while a backlog waits (a start), only as much of it as comes before an alert that arrived
        meanwhile, the rest going back to the front of the queue to follow that alert. What was filed, or None when
        filing failed. (Not in a steady room: its bursts are small, and cutting them for the 50 alerts a second of
        500 tables cost more transactions than the alerts gained.)"""
        try:
            done = self.file(batch, backlog, self.alert_waiting if backlog else None)
        except Exception:   # one bad burst (a database hiccup) must not stop filing for good
            # no receipt: the tables send these alerts again
            log.exception("filing %d floor messages failed", len(batch))
            return None
        if done < len(batch):
            with self._ready:
                self._inbox[:0] = batch[done:]
        return batch[:done]

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
