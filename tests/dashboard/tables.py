"""Simulated tables for the dashboard tests: a real FloorLink (outbox, paho, the contract) fed the updates of
tests.test_floor_contract.hand_updates, or raw bytes published straight to a topic for the hostile cases."""

from __future__ import annotations

import json
import time

import paho.mqtt.publish as publish

from dealerbox.engine.findings import FindingLog
from dealerbox.sinks.floor import contract as c
from dealerbox.sinks.floor.link import FloorLink
from tests.fixtures.broker import Mosquitto
from tests.test_floor_contract import hand_updates, link_config
from tests.conftest import scaled


def start_table(tmp_path, broker: Mosquitto, table: str, site: str = "demo") -> FloorLink:
    link = FloorLink(link_config(tmp_path, broker.port, table=table, site=site))
    link.start()
    return link


def play_hand(link: FloorLink, hand: int, alert: bool = True) -> set[str]:
    """Submit one hand; returns the hole and burn cards dealt (which must never reach the floor)."""
    ups, hole = hand_updates(hand, FindingLog(), alert=alert)
    for u in ups:
        link.submit(u)
    return hole


def send_raw(broker: Mosquitto, topic: str, payload: bytes | str) -> None:
    publish.single(topic, payload, qos=1, hostname=broker.host, port=broker.port)


def alert_bytes(site: str, table: str, finding: str, ruling: str, severity: str = "floor", seq: int = 1,
                boot: str = "rawboot", hand: int = 1) -> bytes:
    env = c.Envelope(site, table, boot)
    payload = env.wrap("alert", 1.0, time.time(), {"event_seq": seq, "finding": {
        "id": finding, "rule": "misdeal.1c", "citation": "Misdeals 1(c)", "severity": severity,
        "outcome": "continues", "ruling": ruling, "seats": [1], "cards": [], "hand": hand}}, seq=seq)
    return json.dumps(payload).encode()


def event_bytes(site: str, table: str, data: dict, seq: int, boot: str = "rawboot") -> bytes:
    """A table event as the floor link publishes it (``data``: the event, e.g. a FindingAcknowledged)."""
    env = c.Envelope(site, table, boot)
    return json.dumps(env.wrap("event", 1.0, time.time(), {"data": data}, seq=seq)).encode()


class ShiftTables:
    """Many tables on one paho client and one thread (a FloorLink each would be a thread, an outbox and a
    publisher per table): each table's floor alerts as the contract has them, kept until a receipt from the
    floor names them, and sent again after a reconnect and whenever ``resend()`` finds one waiting too long,
    as the terminal's outbox does. ``unfiled`` is what no receipt has named yet.

    A lost connection is replaced by a new client (a new clean session) on the next ``resend()``, which then
    sends everything unfiled at once: the floor must file each alert once however often it comes."""

    def __init__(self, broker: Mosquitto, site: str, tables: list[str], resend_after: float = 3.0) -> None:
        import threading

        self.broker, self.site, self.tables, self.resend_after = broker, site, tables, resend_after
        self.envs = {t: c.Envelope(site, t, f"shift-{t}-{time.monotonic_ns()}") for t in tables}
        self.seqs = {t: 0 for t in tables}
        self.unfiled: dict[tuple[str, str, int], tuple[str, bytes, float]] = {}   # (table, boot, seq) -> sent
        self.lock = threading.Lock()
        self.connects = 0
        self.lost = False
        self.fresh = False        # connected again: everything unfiled goes at once
        self.client = self._client()

    def _client(self):
        import paho.mqtt.client as mqtt

        client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id=f"shift-tables-{self.site}-{self.connects}",
                             protocol=mqtt.MQTTv5)
        client.on_connect = self._connected
        client.on_disconnect = lambda *_: setattr(self, "lost", True)
        client.on_message = self._receipt
        client.reconnect_delay_set(0.1, 1)
        client.connect_async(self.broker.host, self.broker.port)
        client.loop_start()
        return client

    def start(self) -> ShiftTables:
        deadline = time.monotonic() + scaled(15)
        while self.connects == 0:
            assert time.monotonic() < deadline, "the shift's tables did not connect"
            time.sleep(0.02)
        return self

    def stop(self) -> None:
        self.client.disconnect()
        self.client.loop_stop()

    def _connected(self, client, _userdata, _flags, reason, _props) -> None:
        if getattr(reason, "is_failure", False):
            return
        client.subscribe(f"{c.ROOT}/{self.site}/+/receipt", qos=1)
        self.connects += 1
        self.fresh = True

    def _receipt(self, _client, _userdata, message) -> None:
        body = json.loads(message.payload)
        with self.lock:
            for filed in body["filed"]:
                self.unfiled.pop((body["table"], filed["boot"], filed["seq"]), None)

    def raise_alerts(self, hand: int, tables: list[str] | None = None) -> int:
        """One floor alert at each table (all by default) for this hand; how many."""
        now = time.time()
        for t in tables or self.tables:
            self.seqs[t] += 1
            env = self.envs[t]
            body = {"event_seq": hand * 10, "finding": {
                "id": f"h{hand}-1", "rule": "misdeal.1c", "citation": "Misdeals 1(c)", "severity": "floor",
                "outcome": "misdeal", "ruling": "Two boxed cards: misdeal.", "seats": [3], "cards": [], "hand": hand}}
            payload = json.dumps(env.wrap("alert", float(hand), now, body, seq=self.seqs[t])).encode()
            topic = c.topic(self.site, t, "alert")
            with self.lock:
                self.unfiled[(t, env.boot, self.seqs[t])] = (topic, payload, time.monotonic())
            self.client.publish(topic, payload, qos=1)
        return len(tables or self.tables)

    def resend(self) -> int:
        """Publish again every unfiled alert sent ``resend_after`` seconds ago (all of them after a reconnect);
        how many are unfiled."""
        if self.lost:
            self.lost = False
            old, self.client = self.client, self._client()
            old.loop_stop()
        wait = 0.0 if self.fresh else self.resend_after
        self.fresh = False
        now = time.monotonic()
        with self.lock:
            due = [(key, topic, payload) for key, (topic, payload, at) in self.unfiled.items() if now - at >= wait]
            for key, topic, payload in due:
                self.unfiled[key] = (topic, payload, now)
            left = len(self.unfiled)
        for _key, topic, payload in due:
            self.client.publish(topic, payload, qos=1)
        return left
