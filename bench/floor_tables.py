"""A process full of simulated tables for the floor-scale benchmark: each table is one paho client publishing
the floor contract's payloads (``dealerbox.sinks.floor.contract``) like a terminal does: its retained status,
events and state at a live table's pace, and an alert every few seconds, stamped with ``at`` = publish time.

All the clients of a process share one thread: a ``select`` over their sockets with paho's ``loop_read``/
``loop_write``/``loop_misc``, and the publishing schedule kept in a heap. (Until 2026-11-24 each client ran
paho's ``loop_start`` thread: 500 threads a process, 403 us of CPU a message against 276 now, and unable to
publish at the rate asked at 1,000 tables, which fed the view less than the benchmark said.)

``python -m bench.floor_tables PORT SITE FIRST COUNT START_AT SECONDS EVENTS_PER_S ALERT_EVERY_S``
"""

from __future__ import annotations

import heapq
import json
import random
import selectors
import sys
import time

import paho.mqtt.client as mqtt

from dealerbox.engine import events as te
from dealerbox.engine.state import TableState
from dealerbox.sinks.floor import contract as c
from dealerbox.sinks.floor.link import publish_properties

MISC_EVERY_S = 1.0   # paho's keepalive and retry bookkeeping


class Tables:
    """The clients, one selector over their sockets, and one I/O turn at a time."""

    def __init__(self) -> None:
        self.clients: list[mqtt.Client] = []
        self.selector = selectors.DefaultSelector()
        self.misc_at = 0.0

    def add(self, client: mqtt.Client) -> None:
        self.clients.append(client)
        self.selector.register(client.socket(), selectors.EVENT_READ, client)

    def io(self, timeout: float) -> None:
        """Read what arrived (CONNACK, PUBACK), write what is queued, and paho's timers once a second."""
        for key, _ in self.selector.select(max(0.0, timeout)):
            key.data.loop_read()
        for client in self.clients:
            if client.want_write():
                client.loop_write()
        now = time.monotonic()
        if now - self.misc_at >= MISC_EVERY_S:
            self.misc_at = now
            for client in self.clients:
                client.loop_misc()

    def until(self, deadline: float) -> None:
        while (left := deadline - time.time()) > 0:
            self.io(min(left, 0.05))


def main(argv: list[str]) -> int:
    port, site, first, count = int(argv[0]), argv[1], int(argv[2]), int(argv[3])
    start_at, seconds, events_per_s, alert_every = float(argv[4]), float(argv[5]), float(argv[6]), float(argv[7])
    rng = random.Random(first)
    tables: list[tuple[str, c.Envelope, mqtt.Client]] = []
    net = Tables()
    for i in range(first, first + count):
        name = f"T{i:04d}"
        env = c.Envelope(site, name, f"boot{i:08d}")
        client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id=f"bench-{name}", protocol=mqtt.MQTTv5)
        offline = c.status_payload(env, "offline", "will", 0.0, time.time())
        client.will_set(c.topic(site, name, "status"), json.dumps(offline), qos=1, retain=True)
        client.connect("127.0.0.1", port, keepalive=30)
        net.add(client)
        tables.append((name, env, client))
        net.io(0)
    net.until(time.time() + 0.5)   # the CONNACKs
    for name, env, client in tables:
        client.publish(c.topic(site, name, "status"),
                       json.dumps(c.status_payload(env, "online", "birth", 0.0, time.time())),
                       qos=1, retain=True, properties=publish_properties("status"))
        net.io(0)
    print("ready", flush=True)
    # Every table on its own phase so the load is spread evenly over each second, as at a real floor.
    step = 1.0 / events_per_s
    schedule = [(start_at + rng.random() * step, k, "event") for k in range(count)]
    schedule += [(start_at + rng.random() * alert_every, k, "alert") for k in range(count)]
    heapq.heapify(schedule)
    end = start_at + seconds
    state = TableState(hand=1, phase="preflop", game="nlhe")
    hand = 0
    alerts_sent = 0
    while schedule:
        when, k, kind = heapq.heappop(schedule)
        if when >= end:
            continue
        net.until(when)
        name, env, client = tables[k]
        t = time.time()
        hand += 1
        if kind == "event":
            ev = te.PlayerSeated(t, hand, 1 + hand % 9, 200)
            client.publish(c.topic(site, name, "event"), json.dumps(c.event_payload(env, ev, t)), qos=1,
                           properties=publish_properties("event"))
            # the link republishes the retained snapshot after every engine step
            st = c.state_payload(env, state, t, t, {}, {"connected": True})
            client.publish(c.topic(site, name, "state"), json.dumps(st), qos=1, retain=True,
                           properties=publish_properties("state"))
            heapq.heappush(schedule, (when + step, k, "event"))
        else:
            finding = te.FindingRaised(t, hand, f"h{hand}-1", "misdeal.1c", "Misdeals 1(c)", "floor", "misdeal",
                                       "Two boxed cards: misdeal.", (3,), ())
            ev_payload = c.event_payload(env, finding, t)
            client.publish(c.topic(site, name, "event"), json.dumps(ev_payload), qos=1,
                           properties=publish_properties("event"))
            alert = c.alert_payload(env, finding, ev_payload["seq"], time.time())
            client.publish(c.topic(site, name, "alert"), json.dumps(alert), qos=1,
                           properties=publish_properties("alert"))
            alerts_sent += 1
            heapq.heappush(schedule, (when + alert_every, k, "alert"))
    # the count first: stopping hundreds of clients takes a while, and the parent may stop waiting meanwhile
    print(f"alerts {alerts_sent}", flush=True)
    net.until(time.time() + 0.5)   # the last PUBACKs
    for _, _, client in tables:
        client.disconnect()
    net.io(0)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
