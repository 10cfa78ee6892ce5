"""A paho subscriber that timestamps every message on arrival (time.monotonic, comparable in-process)."""

from __future__ import annotations

import json
import threading
import time

import paho.mqtt.client as mqtt


class Listener:
    """Subscribes to ``topics`` and keeps (arrival monotonic time, topic, payload dict) for every message."""

    def __init__(self, port: int, topics: list[str], keep: bool = True) -> None:
        self.received: list[tuple[float, str, dict | None]] = []
        self.count = 0
        self.keep = keep
        self._cond = threading.Condition()
        self._subscribed = threading.Event()
        self.client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, protocol=mqtt.MQTTv5)
        self.client.on_message = self._on_message
        self.client.on_subscribe = lambda *a, **k: self._subscribed.set()
        self.client.on_connect = lambda c, u, f, rc, props=None: c.subscribe([(t, 1) for t in topics])
        self.client.connect("127.0.0.1", port)
        self.client.loop_start()
        if not self._subscribed.wait(10):
            raise RuntimeError(f"subscriber could not subscribe on 127.0.0.1:{port}")

    def _on_message(self, client, userdata, msg) -> None:
        now = time.monotonic()
        try:
            payload = json.loads(msg.payload) if self.keep else None
        except ValueError:
            payload = None
        with self._cond:
            self.count += 1
            if self.keep:
                self.received.append((now, msg.topic, payload))
            self._cond.notify_all()

    def wait_for(self, count: int, timeout: float) -> bool:
        deadline = time.monotonic() + timeout
        with self._cond:
            while self.count < count:
                left = deadline - time.monotonic()
                if left <= 0:
                    return False
                self._cond.wait(left)
        return True

    def close(self) -> None:
        self.client.loop_stop()
        self.client.disconnect()
