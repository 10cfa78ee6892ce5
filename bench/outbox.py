"""Outbox: how fast the floor link spools table events to its SQLite outbox and drains them to a real
mosquitto, and how long 10,000 events spooled during a broker outage take to reach a subscriber.

1. Outage: the link runs with nothing listening on its port; 10,000 events are submitted; spool rate =
   events / time until all are in SQLite (each update is one fsync'd transaction, synchronous=FULL).
2. The broker comes up on that port; drain time = broker start -> outbox empty and every event received by
   a subscriber (includes the link's reconnect). Measured with ``floor.replay_rate`` lifted so the figure is
   the link's capacity; with the shipped cap (config default, 200 msg/s) the same drain takes N / cap by design.
3. Live: broker up, events submitted as fast as the engine would; events/s spooled, published and received.
"""

from __future__ import annotations

import time

from dealerbox.config import Config, FloorConfig, TableConfig
from dealerbox.runtime.bus import Update

from . import states
from .broker import Mosquitto, free_port
from .common import Context, Figure, missing, now_ns
from .mqtt import Listener

SITE = "bench"


def updates_for(n_events: int) -> list[Update]:
    """Updates carrying about ``n_events`` real table events (simulated hands), else synthetic ones."""
    sim = states.simulated_updates(40)
    pool = [(tuple(e), s) for e, s in sim] or [(tuple(states.busy_events()[:2]), states.busy_state())]
    out, total, health = [], 0, states.busy_health()
    while total < n_events:
        events, state = pool[len(out) % len(pool)]
        events = events[: n_events - total]
        out.append(Update(events, state, health))
        total += len(events)
    return out


def wait_until(cond, timeout: float, step: float = 0.002) -> bool:
    deadline = time.monotonic() + timeout
    while not cond():
        if time.monotonic() > deadline:
            return False
        time.sleep(step)
    return True


def run(ctx: Context) -> list[Figure]:
    from dealerbox.sinks.floor.link import FloorLink
    n = ctx.scale(10_000, 100)
    updates = updates_for(n)
    n_events = sum(len(u.events) for u in updates)
    default_cap = FloorConfig().replay_rate
    port = free_port()
    config = Config(table=TableConfig(id="OUTBOX", site=SITE),
                    floor=FloorConfig(host="127.0.0.1", port=port, outbox=str(ctx.tmp / "outbox.sqlite"),
                                      replay_rate=1_000_000))
    link = FloorLink(config, reconnect_min=0.05, reconnect_max=0.2)
    link.start()
    out: list[Figure] = []
    broker = None
    try:
        t0 = now_ns()
        for u in updates:
            link.submit(u)
        if not wait_until(lambda: link.health()["spooled"] >= n_events, 120):
            return [missing("outbox", "spool", "events/s",
                            f"only {link.health()['spooled']} of {n_events} spooled in 120 s")]
        spool_s = (now_ns() - t0) / 1e9
        out.append(Figure("outbox", "spool during outage", n_events / spool_s, "events/s",
                          note=f"{n_events} events in {len(updates)} updates, SQLite WAL synchronous=FULL"))
        broker = Mosquitto(port=port, max_inflight=0)
        t0 = now_ns()
        broker.start()
        listener = Listener(port, [f"dealerbox/{SITE}/+/event"], keep=False)
        ok = wait_until(lambda: link.health()["outbox_depth"] == 0 and listener.count >= n_events, 120)
        drain_s = (now_ns() - t0) / 1e9
        if not ok:
            out.append(missing("outbox", f"drain {n_events:,} after outage", "s",
                               f"not drained in 120 s: depth {link.health()['outbox_depth']}, "
                               f"received {listener.count}"))
        else:
            out.append(Figure("outbox", f"drain {n_events:,} after outage", drain_s, "s",
                              note="broker start -> outbox empty and all received (reconnect included), "
                                   f"rate cap lifted; with the shipped cap of {default_cap}/s it takes "
                                   f"{n_events / default_cap:.0f} s by design"))
            out.append(Figure("outbox", "drain rate", n_events / drain_s, "events/s"))
        listener.close()

        # Live: the broker is up; every event spooled, published, acknowledged and received.
        listener = Listener(port, [f"dealerbox/{SITE}/+/event"], keep=False)
        link.submit(updates[0])  # warm up the connected path
        wait_until(lambda: listener.count >= len(updates[0].events), 10)
        base = listener.count
        t0 = now_ns()
        for u in updates:
            link.submit(u)
        ok = wait_until(lambda: listener.count >= base + n_events and link.health()["outbox_depth"] == 0, 120)
        live_s = (now_ns() - t0) / 1e9
        out.append(Figure("outbox", "live spool+publish+ack", n_events / live_s if ok else None, "events/s",
                          note="" if ok else f"received {listener.count - base} of {n_events} in 120 s"))
        listener.close()
    finally:
        link.stop(timeout=2)
        if broker:
            broker.stop()
    return out
