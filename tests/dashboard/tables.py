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
