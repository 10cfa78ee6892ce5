"""The dashboard's filing path alone, by CPU time: a room's messages (N tables, an event and a state each a
second, an alert every 10 s per table, the payloads of bench/dashboard.py) fed in bursts as the subscriber
forms them (alerts first, routine messages 250 at a time) through the real store (SQLite), the journal tail and
the SSE body renderer (one supervisor stream connected). No broker, no sockets, no other thread: the figure is
the filing thread's own CPU (``time.thread_time``), which a loaded machine hardly changes, so code before and
after a change can be compared on a shared box where the end-to-end latency measures the queue for the CPU.

    PYTHONPATH=. python -m bench.dashboard_filing [--tables 500] [--seconds 20] [--repeat 3]
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from pathlib import Path

from dealerbox.dashboard.live import Live
from dealerbox.dashboard.render import environment
from dealerbox.dashboard.service import Dashboard
from dealerbox.dashboard.store import Store
from dealerbox.dashboard.subscriber import ROUTINE_BATCH_MAX


def room(tables: int, seconds: int) -> list[list[tuple[str, bytes]]]:
    """One list of messages per second of the room, in the order the tables send them."""
    names = [f"T{n:03d}" for n in range(tables)]

    def env(t: str, kind: str, seq: int, **body: object) -> bytes:
        return json.dumps({"v": 1, "kind": kind, "site": "bench", "table": t, "boot": "b" + t, "seq": seq,
                           "t": 1.0, "at": 1.0, "replayed": False, **body}).encode()
    out = []
    aseq = dict.fromkeys(names, 0)
    for tick in range(seconds):
        second = []
        for i, t in enumerate(names):
            seq = tick + 1
            second.append((f"dealerbox/bench/{t}/event", env(t, "event", seq, data={
                "event": "ActionTaken", "t": 1.0, "hand": 1 + tick // 60, "seat": 1 + i % 9})))
            second.append((f"dealerbox/bench/{t}/state", env(t, "state", seq, hand=1 + tick // 60, phase="flop",
                           game="nlhe", pot=40, seats=[], findings=[], health={"link": {"link": "connected"}},
                           event_seq=seq)))
            if (tick + i) % 10 == 0:
                aseq[t] += 1
                second.append((f"dealerbox/bench/{t}/alert", env(t, "alert", aseq[t], event_seq=seq, finding={
                    "id": f"h{tick}-{aseq[t]}", "rule": "misdeal.1c", "citation": "Misdeals 1(c)",
                    "severity": "floor", "outcome": "continues", "ruling": "two boxed cards", "seats": [1],
                    "cards": [], "hand": 1})))
        out.append(second)
    return out


def bursts(second: list[tuple[str, bytes]], per_burst: int) -> list[list[tuple[str, bytes]]]:
    """A second's messages as the filing thread takes them when ``per_burst`` arrived between two turns:
    alerts first, routine messages at most ROUTINE_BATCH_MAX a burst."""
    out = []
    for at in range(0, len(second), per_burst):
        got = second[at:at + per_burst]
        alerts = [m for m in got if m[0].endswith("/alert")]
        if alerts:
            out.append(alerts)
        routine = [m for m in got if not m[0].endswith("/alert")]
        out += [routine[i:i + ROUTINE_BATCH_MAX] for i in range(0, len(routine), ROUTINE_BATCH_MAX)]
    return out


def measure(tables: int, seconds: int, per_burst: int) -> dict:
    work = Path(tempfile.mkdtemp(prefix="dealerbox-bench-filing-"))
    store = Store(f"sqlite:///{work / 'floor.db'}")
    dash = Dashboard(store)
    live = Live(dash, environment(), lambda _token: None)
    live.readers[True] = 1              # one supervisor's stream is open: bodies are rendered as filed
    messages = alerts = 0
    cpu = 0.0
    slowest = 0.0
    for second in room(tables, seconds):
        for burst in bursts(second, per_burst):
            start = time.thread_time()
            dash._file_batch(burst, False)
            took = time.thread_time() - start
            cpu += took
            if burst[0][0].endswith("/alert"):
                slowest = max(slowest, took)
            messages += len(burst)
            alerts += sum(1 for m in burst if m[0].endswith("/alert"))
    filed = len(store.alerts(limit=1_000_000))
    store.close()
    return {"messages": messages, "alerts": alerts, "filed": filed, "cpu_s": cpu,
            "us_per_message": 1e6 * cpu / messages, "slowest_alert_burst_ms": 1e3 * slowest}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tables", type=int, default=500)
    ap.add_argument("--seconds", type=int, default=20)
    ap.add_argument("--burst", type=int, default=50, help="messages arriving between two turns of the filer")
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    for _ in range(args.repeat):
        r = measure(args.tables, args.seconds, args.burst)
        print(f"{args.tables} tables, {r['messages']} messages ({r['alerts']} alerts, {r['filed']} filed): filing "
              f"thread CPU {r['cpu_s']:.2f} s, {r['us_per_message']:.0f} us a message, slowest alert burst "
              f"{r['slowest_alert_burst_ms']:.1f} ms CPU; load average {os.getloadavg()[0]:.1f}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
