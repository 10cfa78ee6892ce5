"""The dashboard meeting N tables at once (a restart of the dashboard or of the broker: N retained statuses and
N retained states come in one rush, and the room goes on behind them), by CPU and by order rather than by the
clock, so that code before and after a change compares on a shared, loaded machine.

The real subscriber queue (``Subscriber.take``: alerts first, routine messages 250 at a time), the real filing
(``Dashboard._file_batch``: store, journal tail, SSE bodies rendered) and the real SSE streams (``Live.stream``,
C of them, driven without sockets) run in this one thread. The broker hands over the 2N retained messages at
once; the room (an event and a state per table a second, an alert per table every 10 s, bench/dashboard.py's
payloads) goes on behind them, ``--per-turn`` messages arriving while the filer files one burst (a fixed count,
so the order of what is filed and pushed is the same in every run).

Figures: the filing thread's CPU for the start and per message; for each alert of the first seconds, the
filer's CPU between its arrival and its filing (what it waited for) and the table pushes journalled ahead of
it that were not there when it arrived (what a browser is sent before it); the SSE streams' CPU to send the
whole start to C clients; every alert filed once, every table's tile at its newest state.

    PYTHONPATH=. python -m bench.dashboard_start [--tables 500] [--clients 50] [--seconds 3] [--per-turn 50]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sys
import tempfile
import time
from pathlib import Path

import paho.mqtt.client as mqtt

from dealerbox.dashboard.live import Live
from dealerbox.dashboard.render import environment
from dealerbox.dashboard.service import Dashboard
from dealerbox.dashboard.store import Store
from dealerbox.dashboard.subscriber import BrokerSettings, Subscriber

from .common import percentile
from .dashboard_filing import room


def retained(tables: int) -> list[tuple[str, bytes]]:
    """What the broker hands a new subscription first: every table's retained status, then its retained state."""
    def env(t: str, kind: str, **body: object) -> bytes:
        return json.dumps({"v": 1, "kind": kind, "site": "bench", "table": t, "boot": "b" + t, "seq": 0,
                           "t": 1.0, "at": 1.0, "replayed": False, **body}).encode()
    names = [f"T{n:03d}" for n in range(tables)]
    return ([(f"dealerbox/bench/{t}/status", env(t, "status", status="online", reason="birth")) for t in names]
            + [(f"dealerbox/bench/{t}/state", env(t, "state", hand=1, phase="preflop", game="nlhe", pot=0,
                                                  seats=[], findings=[], health={"link": {"link": "connected"}},
                                                  event_seq=0)) for t in names])


def _message(topic: str, raw: bytes) -> mqtt.MQTTMessage:
    m = mqtt.MQTTMessage(topic=topic.encode())
    m.payload = raw
    return m


async def _streams(live: Live, clients: int, after: int, end: int) -> tuple[float, int, int]:
    """C supervisors' streams from journal id ``after`` until each has passed ``end``: (CPU s, events, bytes)."""
    sent = [0, 0]

    async def one(me: int) -> None:
        gen = live.stream(f"bench-{me}", "supervisor", "csrf", None, after, _never_gone)
        try:
            while True:
                try:
                    chunk = await asyncio.wait_for(gen.__anext__(), 0.5)
                except (TimeoutError, StopAsyncIteration):
                    return           # nothing new for half a second: the start is all sent
                sent[0] += chunk.count("\nevent: ")
                sent[1] += len(chunk)
        finally:
            await gen.aclose()

    start = time.thread_time()
    await asyncio.gather(*(one(me) for me in range(clients)))
    return time.thread_time() - start, sent[0], sent[1]


async def _never_gone() -> bool:
    return False


def measure(tables: int, clients: int, seconds: int, per_turn: int) -> dict:
    work = Path(tempfile.mkdtemp(prefix="dealerbox-bench-start-"))
    store = Store(f"sqlite:///{work / 'floor.db'}")
    clock = [1000.0]
    dash = Dashboard(store, clock=lambda: clock[0])
    live = Live(dash, environment(), lambda _token: ("bench", "supervisor", "csrf"))
    live.readers[True] = clients          # the streams are open while the start is filed: bodies rendered then
    sub = Subscriber(BrokerSettings(), "bench", dash._file_batch, lambda _c, _n: None)
    after = store.last_journal_id()
    arriving = [_message(t, r) for t, r in retained(tables)]
    rush = len(arriving)
    for second in room(tables, seconds):
        arriving += [_message(t, r) for t, r in second]
    alerts_sent = sum(1 for m in arriving if m.topic.endswith("/alert"))
    # per alert: the filer's CPU from its arrival to its filing, and the table pushes journalled ahead of it that
    # were not there when it arrived. What arrives is fed between two turns, but it came while the previous turn
    # was filed: it is counted as having waited for all of that turn (the worst case) and for its pushes
    waiting: dict[tuple[str, str], tuple[float, int]] = {}      # (table, finding) -> (CPU so far, pushes then)
    waited: list[tuple[float, int]] = []
    table_pushes = pushes_before = 0
    cpu = took = 0.0
    at = turns = 0
    take = rush
    while at < len(arriving) or sub._alerts or sub._inbox:
        for m in arriving[at:at + take]:
            sub._on_message(None, None, m)
            if m.topic.endswith("/alert"):
                waiting[(m.topic.split("/")[2], json.loads(m.payload)["finding"]["id"])] = (took, pushes_before)
        at += take
        take = per_turn
        taken = sub.take()
        if taken is None:
            continue
        batch, backlog = taken
        before = store.last_journal_id()
        start = time.thread_time()
        dash._file_batch(batch, backlog)
        took = time.thread_time() - start
        cpu += took
        turns += 1
        clock[0] += 0.02                      # the filer's clock moves on a little each turn
        waiting = {key: (cpu_s + took, pushes) for key, (cpu_s, pushes) in waiting.items()}
        pushes_before = table_pushes
        for _jid, kind, _site, data in store.journal_after(before, 100_000):
            if kind == "table":
                table_pushes += 1
            elif kind == "alert":
                a = store.alert(json.loads(data)["id"])
                if a is not None and (a.table_id, a.finding) in waiting:
                    cpu_s, pushes = waiting.pop((a.table_id, a.finding))
                    waited.append((cpu_s, table_pushes - pushes))
    end = store.last_journal_id()
    stream_cpu, events, sent_bytes = asyncio.run(_streams(live, clients, after, end))
    waits = sorted(w for w, _ in waited)
    ahead = sorted(a for _, a in waited)
    newest = sum(1 for n in range(tables) if (store.table("bench", f"T{n:03d}") or {}).get("state", {})
                 .get("event_seq") == seconds)
    filed = len(store.alerts(limit=1_000_000))
    store.close()
    messages = len(arriving)
    return {"messages": messages, "alerts_sent": alerts_sent, "filed": filed, "turns": turns, "cpu_s": cpu,
            "us_per_message": 1e6 * cpu / messages, "table_pushes": table_pushes,
            "wait_cpu_p50_ms": 1e3 * percentile(waits, 50), "wait_cpu_max_ms": 1e3 * waits[-1],
            "ahead_p50": percentile(ahead, 50), "ahead_max": ahead[-1],
            "stream_cpu_s": stream_cpu, "stream_events": events, "stream_mb": sent_bytes / 2**20,
            "newest": newest}


def report(tables: int, clients: int, r: dict) -> str:
    return (f"{tables} tables restart ({2 * tables} retained, then {r['messages'] - 2 * tables} of the room), "
            f"{clients} SSE streams: filing thread {r['cpu_s']:.2f} s CPU ({r['us_per_message']:.0f} us a message, "
            f"{r['turns']} turns), {r['table_pushes']} table pushes; alerts {r['alerts_sent']} sent, {r['filed']} "
            f"filed; an alert waited for the filer's CPU p50 {r['wait_cpu_p50_ms']:.1f} ms, worst "
            f"{r['wait_cpu_max_ms']:.1f} ms, with table pushes journalled ahead of it meanwhile p50 "
            f"{r['ahead_p50']:.0f}, worst {r['ahead_max']}; streams {r['stream_cpu_s']:.2f} s CPU for "
            f"{r['stream_events']} events ({r['stream_mb']:.1f} MiB); tiles at the newest state "
            f"{r['newest']}/{tables}; load average {os.getloadavg()[0]:.1f}")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tables", type=int, default=500)
    ap.add_argument("--clients", type=int, default=50)
    ap.add_argument("--seconds", type=int, default=3, help="seconds of the room behind the retained rush")
    ap.add_argument("--per-turn", type=int, default=50, help="room messages arriving while the filer files a burst")
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    for _ in range(args.repeat):
        print(report(args.tables, args.clients, measure(args.tables, args.clients, args.seconds, args.per_turn)),
              flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
