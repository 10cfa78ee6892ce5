"""The publisher half of the floor link: owns the socket. Connects with backoff, publishes the birth status
and the state (coalesced, never ahead of a waiting alert), drains the outbox through :mod:`.drain` (alerts
handed over before their commit first, then the rows in order), deletes a row on its PUBACK, and hands
messages on ``.../cmd`` to the command desk.

A fresh paho client is made for every connection so that paho never re-sends a message on its own: the
outbox is the only source of retries, which is what lets a late message say ``replayed: true``.
"""

from __future__ import annotations

import json
import logging
import random
import select
import socket
import ssl
import time
from typing import Any, Protocol
from collections.abc import Callable

import paho.mqtt.client as mqtt

from ...record.clock import clock_status
from . import contract as c
from .drain import Bucket, Drain
from .holecards import HoleCards
from .outbox import OutboxError
from .parts import LatestState, LinkControl, LinkCounters, LinkIdentity, LinkState, OutboxDepth
from .security import client_id, configure_security, publish_properties

log = logging.getLogger("dealerbox.floor")

KEEPALIVE_S = 15
CONNACK_TIMEOUT_S = 10.0
# The state (the whole table, encoded) goes at most this often: encoding it after every step could hold an
# alert committed meanwhile for 5-60 ms on a loaded box. The latest state always goes; only steps coalesce.
STATE_GAP_S = 0.25


def close_socket(client: mqtt.Client) -> None:
    """Drop the connection without DISCONNECT: the broker then publishes the last will."""
    sock = client.socket()
    if sock is not None:
        try:
            sock.shutdown(socket.SHUT_RDWR)  # type: ignore[attr-defined]  # paho's SocketLike omits what a socket has
        except OSError:
            pass
        sock.close()


def wait_io(client: mqtt.Client, wake: socket.socket, timeout: float) -> None:
    """Wait up to ``timeout`` for the socket or a poke on ``wake``, then let paho read, write and tick."""
    sock = client.socket()
    if sock is None:
        return
    if getattr(sock, "pending", None) and sock.pending():  # type: ignore[attr-defined]  # only an ssl socket has it
        timeout = 0  # TLS: bytes already decrypted, select would not see them
    want = [sock] if client.want_write() else []
    try:
        readable, writable, _ = select.select([sock, wake], want, [], max(0.0, timeout))
    except (OSError, ValueError):
        readable, writable = [sock], []
    if wake in readable:
        try:
            while wake.recv(4096):
                pass
        except (BlockingIOError, OSError):
            pass
    if sock in readable:
        client.loop_read()
    if client.socket() is not None and (sock in writable or client.want_write()):
        client.loop_write()
    if client.socket() is not None:
        client.loop_misc()



def goodbye(client: mqtt.Client, wake: socket.socket, topic: str, payload: str, retain: bool) -> None:
    """Clean stop: offline status (retained unless a review), wait for its PUBACK briefly, DISCONNECT (no
    will), then close."""
    info = client.publish(topic, payload, qos=1, retain=retain, properties=publish_properties("status"))
    deadline = time.monotonic() + 2.0
    while not info.is_published() and client.socket() is not None and time.monotonic() < deadline:
        wait_io(client, wake, 0.05)
    client.disconnect()
    deadline = time.monotonic() + 1.0
    while client.socket() is not None and time.monotonic() < deadline:
        wait_io(client, wake, 0.05)
    close_socket(client)


class Inbox(Protocol):
    """Where the publisher hands what arrives on the topics it subscribes (the link's desks)."""

    def subscriptions(self) -> tuple[str, ...]: ...

    def receive(self, topic: str, payload: bytes) -> object: ...


class Session:
    """The publisher: given who the table is, the link's state (which it keeps up to date), the counters, the
    outbox's depth, the latest state, the link's control (stop, wake), the drain that sends outbox rows, the
    hole-card sender, the inbox for what arrives and the link's health; owns the paho client and what only
    one connection knows (the CONNACK, the acknowledgements to settle). Runs on the publisher thread."""

    def __init__(self, ident: LinkIdentity, state: LinkState, counters: LinkCounters, depth: OutboxDepth,
                 latest: LatestState, control: LinkControl, drain: Drain, holecards: HoleCards, inbox: Inbox,
                 health: Callable[[], dict[str, Any]], *, window: int, reconnect_min: float,
                 reconnect_max: float) -> None:
        self.ident, self._state, self._counters, self._depth = ident, state, counters, depth
        self._latest, self._control = latest, control
        self._drain, self._holecards, self._inbox = drain, holecards, inbox
        self.health = health
        self.window, self.reconnect_min, self.reconnect_max = window, reconnect_min, reconnect_max
        self._connack: tuple[bool, str, Any] | None = None
        self._last_refused = False
        self._acked: list[int] = []
        self._refused: list[tuple[str | None, str]] = []
        self._session_refused = False

    def run(self) -> None:
        """The publisher thread: one connection after another, with backoff, until the link stops."""
        db = self._drain.open()
        backoff = self.reconnect_min
        try:
            while not self._control.stopping:
                began = time.monotonic()
                was_up, refused = self._session_once()
                if self._control.stopping:
                    break
                # only a connection that lasted resets the backoff: one dropped at once must not spin
                lasted = was_up and time.monotonic() - began > 10 * self.reconnect_min
                backoff = self.reconnect_min if lasted else min(backoff * 2, self.reconnect_max)
                delay = self.reconnect_max if refused else backoff
                self._control.wait(delay * random.uniform(0.8, 1.2))  # jitter: tables don't reconnect in step
        finally:
            db.close()

    def _make_client(self) -> mqtt.Client:
        ident, fc = self.ident, self.ident.fc
        client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id=client_id(ident.site, ident.table),
                             protocol=mqtt.MQTTv5)
        configure_security(client, fc.username, fc.password_file, fc.tls, fc.ca_file, fc.cert_file, fc.key_file)
        will = c.status_payload(ident.env, "offline", "will", self._latest.last_t, ident.clock(), clock_status())
        client.will_set(self.ident.topic("status"), json.dumps(will), qos=1, retain=self.ident.retain,
                        properties=publish_properties("status"))
        client.on_connect = self._on_connect
        client.on_publish = self._on_publish
        client.on_message = self._on_message
        client.on_disconnect = self._on_disconnect
        client.max_inflight_messages_set(self.window)
        return client

    def _session_once(self) -> tuple[bool, bool]:
        """One connection, from connect to loss. Returns (was connected, refused by the broker)."""
        client = self._connect()
        if client is None:
            return False, self._last_refused
        if not self._birth(client):
            return True, True
        self._serve(client)
        self._settle_acks()
        self._holecards.session_ended()
        self._state.down()
        self._drain.session_over()
        if self._session_refused:
            return True, True   # mosquitto drops a client after refusing its publish: retry slowly
        if not self._control.stopping:
            self._state.set_link("down", f"lost the floor broker {self.ident.fc.host}:{self.ident.fc.port}")
        return True, False

    def _connect(self) -> mqtt.Client | None:
        """A client connected and CONNACKed, or None (``_last_refused`` says whether the broker refused)."""
        where = f"{self.ident.fc.host}:{self.ident.fc.port}"
        self._last_refused = False
        try:
            client = self._make_client()
        except OutboxError as e:
            self._state.set_link("config-error", str(e))
            log.error("%s", e)
            self._last_refused = True
            return None
        self._state.set_link("connecting")
        self._connack = None
        try:
            client.connect(self.ident.fc.host, self.ident.fc.port, keepalive=KEEPALIVE_S, clean_start=True)
        except (OSError, ssl.SSLError, ValueError) as e:
            self._counters.add("connect_failures")
            self._state.set_link("down", f"cannot reach the floor broker {where}: {e}")
            return None
        deadline = time.monotonic() + CONNACK_TIMEOUT_S
        while self._connack is None and client.socket() is not None and not self._control.stopping:
            if time.monotonic() > deadline:
                break
            self._io(client, 0.2)
        if self._connack is None or not self._connack[0]:
            self._counters.add("connect_failures")
            reason = self._connack[1] if self._connack else "no answer"
            refused = self._connack is not None
            hint = " (check floor.username and floor.password_file against the broker's password file)" \
                if refused else ""
            self._state.set_link("refused" if refused else "down", f"floor broker {where} refused the connection: "
                                 f"{reason}{hint}" if refused else f"floor broker {where}: {reason}")
            close_socket(client)
            self._last_refused = refused
            return None
        return client

    def _birth(self, client: mqtt.Client) -> bool:
        """Count the session, subscribe to commands, publish the birth status and wait for its PUBACK; False
        (and the socket closed) when the broker refused it."""
        # Subscribe before saying "connected": whoever waits for that then publishes to us (a floor command,
        # a tournament instruction) must find the subscription already on its way to the broker.
        # commands (none on a review copy: there is no dealer to act on them), a tournament table's own topics
        for topic in self._inbox.subscriptions():
            client.subscribe(topic, qos=1)
        self._drain.new_session(live=not self.ident.review)   # live: every unfiled alert is due again
        self._state.up()
        self._session_refused = False
        self._counters.add("connects")
        self._state.online()
        hello = c.status_payload(self.ident.env, "online", "birth", self._latest.last_t, self.ident.clock(),
                                 clock_status())
        birth = self._publish_json(client, "status", hello, retain=self.ident.retain)
        # Wait for the birth's PUBACK before draining: it proves the ACL lets us publish. mosquitto closes the
        # connection right after refusing a publish, so a refusal is best caught before anything else is sent.
        deadline = time.monotonic() + CONNACK_TIMEOUT_S
        while not birth.is_published() and client.socket() is not None and time.monotonic() < deadline \
                and not self._control.stopping:
            self._io(client, 0.1)
        self._settle_acks()
        if client.socket() is None or self._session_refused:
            self._state.down()
            if not self._session_refused:
                self._session_refused = True
                fc = self.ident.fc
                self._state.set_link("refused", f"the floor broker {fc.host}:{fc.port} closed the connection "
                                          f"right after accepting it: most likely its ACL refuses user "
                                          f"{self.ident.fc.username!r} for {self.ident.topic('status')}; "
                                          f"check floor.username and table.id")
            close_socket(client)
            return False
        return True

    def _serve(self, client: mqtt.Client) -> None:
        """Drain the outbox, keep the state fresh and send hole cards until the socket goes or we stop."""
        receive_max = getattr(self._connack[2], "ReceiveMaximum", None) if self._connack else None
        window = max(1, min(self.window, receive_max or self.window))
        self._latest.due_again()
        bucket = Bucket(self.ident.fc.replay_rate)
        last_id = 0
        drain_deadline = None
        last_state = time.monotonic() - STATE_GAP_S   # the first state goes at once
        state_mid: int | None = None   # the state in flight: the next one waits for its PUBACK
        while client.socket() is not None:
            control = self._control
            if control.stopping:
                if control.abandoned:
                    close_socket(client)
                    break
                if drain_deadline is None:
                    drain_deadline = time.monotonic() + (control.drain_timeout if control.drain else 0)
                if time.monotonic() >= drain_deadline or (self._depth.rows == 0 and not self._drain.inflight):
                    self._goodbye(client)
                    break
            self._settle_acks()
            timeout, last_id = self._drain.pump(client, bucket, last_id, window)
            now = time.monotonic()
            if now - last_state >= c.STATE_HEARTBEAT_S:
                self._latest.due_again()
            if self._drain.express and len(self._drain.inflight) < window:
                timeout = 0.0   # an alert came while we pumped: it goes before any state is encoded
            elif self._drain.in_flight(state_mid):
                # A floor slower than the states come (a congested link, a broker that cannot keep up): the
                # newest state waits in LatestState for this one's PUBACK, which wakes the loop, rather than a
                # queue of whole table states (52 kB each with a day's open floor calls) piling up in paho.
                pass
            elif now - last_state >= STATE_GAP_S:
                mid = self._publish_state(client)
                if mid is not None:
                    last_state, state_mid = now, mid
            elif self._latest.waiting:
                timeout = min(timeout, last_state + STATE_GAP_S - now)   # the coalesced state's turn
            self._holecards.publish(client, self._publish_json)
            self._io(client, timeout if not control.stopping else min(timeout, 0.05))

    def _publish_json(self, client: mqtt.Client, kind: str, payload: dict,
                      retain: bool = False) -> mqtt.MQTTMessageInfo:
        name = self.ident.topic(kind)
        info = client.publish(name, json.dumps(payload, separators=(",", ":")), qos=1, retain=retain,
                              properties=publish_properties(kind))
        self._drain.sent(info.mid, name)
        return info

    def _publish_state(self, client: mqtt.Client) -> int | None:
        """Publish the latest state if there is a new one; its message id, or None."""
        body = self._latest.take()
        if body is None:
            return None
        state, t, reader = body
        payload = c.state_payload(self.ident.env, state, t, self.ident.clock(), reader, self.health())
        info = self._publish_json(client, "state", payload, retain=self.ident.retain)
        self._counters.add("states_published")
        return info.mid if info.rc == mqtt.MQTT_ERR_SUCCESS else None

    def _settle_acks(self) -> None:
        acked, self._acked = self._acked, []
        refused, self._refused = self._refused, []
        for topic, reason in refused:
            if topic == self.ident.topic("holecards"):
                self._holecards.refused(reason)
                continue
            self._counters.add("publish_refused")
            self._session_refused = True
            error = (f"the broker refused a publish to {topic} ({reason}); check the ACL for "
                     f"user {self.ident.fc.username!r} and table.id {self.ident.table!r}")
            self._state.set_link("refused", error)
            log.error("floor %s/%s: %s", self.ident.site, self.ident.table, error)
        n, early = self._drain.settle(acked)
        if early:
            self._depth.removed(early)
        if n is not None:
            self._counters.add("acked", n)
            if self._depth.removed(n) == 0:
                self._latest.due_again()  # the floor's copy of our health should show the drained outbox

    def _io(self, client: mqtt.Client, timeout: float) -> None:
        wait_io(client, self._control.wake_r, timeout)

    def _goodbye(self, client: mqtt.Client) -> None:
        payload = c.status_payload(self.ident.env, "offline", "stopped", self._latest.last_t, self.ident.clock(),
                                   clock_status())
        goodbye(client, self._control.wake_r, self.ident.topic("status"), json.dumps(payload), self.ident.retain)

    # paho callbacks: they run inside loop_read/loop_write on the publisher thread

    def _on_message(self, client: mqtt.Client, userdata: object, message: mqtt.MQTTMessage) -> None:
        self._inbox.receive(message.topic, bytes(message.payload))

    def _on_connect(self, client: mqtt.Client, userdata: object, flags: object, reason_code: Any,
                    properties: object) -> None:
        self._connack = (not reason_code.is_failure, str(reason_code), properties)

    def _on_disconnect(self, client: mqtt.Client, userdata: object, flags: object, reason_code: object,
                       properties: object) -> None:
        pass  # the session loop sees the socket gone

    def _on_publish(self, client: mqtt.Client, userdata: object, mid: int, reason_code: Any,
                    properties: object) -> None:
        failed = bool(reason_code.is_failure)
        row, topic = self._drain.answered(mid, failed)
        if failed:
            # the row stays in the outbox: a broker that refuses is misconfigured, and the data is kept
            self._refused.append((topic, str(reason_code)))
        else:
            self._holecards.acknowledged(mid)
            if row is not None:
                self._acked.append(row)

