"""Helpers for tournament floor tests: a tournament file and state payloads as a table publishes them."""

from __future__ import annotations

import json
import threading
from pathlib import Path

import paho.mqtt.client as mqtt

from dealerbox.sinks.floor import contract as c
from tests.conftest import scaled
from tests.waiting import wait_until

TOURNAMENT_TOML = """
[tournament]
id = "SUN-500"
name = "Sunday test"
starting_stack = 10000
seats_per_table = 9
tables = ["T03", "T02", "T01"]
redraw_at_tables = [2, 1]

[[levels]]
small_blind = 50
big_blind = 100
minutes = 20

[[levels]]
small_blind = 100
big_blind = 200
big_blind_ante = 200
minutes = 20

[[chips]]
value = 50
colour = "blue"
"""


def tournament_file(tmp_path: Path) -> Path:
    path = tmp_path / "sunday.toml"
    path.write_text(TOURNAMENT_TOML)
    return path


def state(table: str, occupied: set[int], button: int, seq: int = 1, site: str = "demo") -> dict:
    """A retained state payload as the terminal composes it, checked against the contract's schema."""
    seats = [{"seat": s, "occupied": s in occupied, "in_hand": False, "cards_held": 0,
              "stack": 10000 if s in occupied else 0} for s in range(1, 10)]
    payload = {"v": 1, "kind": "state", "site": site, "table": table, "boot": "b1", "seq": seq, "t": float(seq),
               "at": 1.0e9 + seq, "event_seq": seq, "hand": seq, "phase": "idle", "button": button, "board": [],
               "pot": 0, "seats": seats, "in_hand": [], "findings": [], "health": {"reader": {}, "link": {}}}
    c.validate("state", payload)
    return payload


class Ear:
    """A plain MQTT client: the test's ear on the tournament topics, or a table publishing its state
    (``received``: topic, payload, retained)."""

    def __init__(self, port: int, name: str, subscribe: tuple[str, ...] = ()) -> None:
        self.received: list[tuple[str, dict, bool]] = []
        self.lock = threading.Lock()
        self.client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id=name, protocol=mqtt.MQTTv5)
        self.client.on_message = self._on_message
        subacks: list[int] = []
        self.client.on_subscribe = lambda c, u, mid, codes, p: subacks.append(mid)
        self.client.on_connect = lambda c, u, f, r, p: [c.subscribe(t, qos=1) for t in subscribe]
        self.client.connect("127.0.0.1", port)
        self.client.loop_start()
        # every SUBACK has landed before anything is published
        assert wait_until(lambda: self.client.is_connected() and len(subacks) == len(subscribe), scaled(10))

    def _on_message(self, client, userdata, msg) -> None:
        with self.lock:
            self.received.append((msg.topic, json.loads(msg.payload), bool(msg.retain)))

    def publish(self, topic: str, payload: dict) -> None:
        self.client.publish(topic, json.dumps(payload), qos=1, retain=True).wait_for_publish(scaled(5))

    def messages(self, suffix: str) -> list[dict]:
        with self.lock:
            return [p for t, p, _ in self.received if t.endswith(suffix)]

    def stop(self) -> None:
        self.client.loop_stop()
        self.client.disconnect()
