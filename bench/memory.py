"""Terminal: memory of the running terminal over many hands, in simulated time.

The hands are simulated first, in a child process (`dealerbox simulate`), into a recorded log, so the
simulator and its referee (pokerkit) are not counted: on a table the terminal reads a board, not a
simulator. The real terminal (runtime.Terminal) then replays that log in this process as fast as it can
take it (a bounded queue, as a board cannot run ahead either), with the screen (SDL dummy driver, keeping
its event history), the recorder and the floor link to a real mosquitto. A sampler reads this process's RSS
every 0.2 s with the number of hands ended. 8 hours at a brisk live pace of 30 hands an hour is 240 hands;
the run goes on well past that to show the slope.

The floor may be ``fast`` (a local mosquitto, the default), ``slow`` (the same broker behind
bench/slowlink.py: the terminal's bytes at 30 kB/s, far below what the hands produce, so the outbox grows
as after a floor outage) or ``absent`` (nothing listens: everything stays in the outbox). Nothing in
memory may follow the outbox, which lives on disk:

    python -m bench.memory --floor slow [--hands 720] [--log hands.jsonl]
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import threading
import time
from pathlib import Path

from dealerbox.config import Config, FloorConfig, RecordConfig, TableConfig
from dealerbox.record.logformat import table_header
from dealerbox.record.recorder import Recorder
from dealerbox.runtime.app import Terminal, load_registry
from dealerbox.sinks.floor.link import FloorLink
from dealerbox.runtime.lean import import_pygame
from dealerbox.sources import open_log
from dealerbox.sources.replaying import ReplayingSource

from . import growth
from .broker import BrokerMissing, Mosquitto, free_port
from .slowlink import SLOW_BYTES_S, SlowLink
from .common import Context, Figure, missing, peak_rss_kib, rss_kib

import_pygame()   # before the screen: pygame as `dealerbox run` imports it for a kiosk (runtime/lean.py)
from dealerbox.sinks.screen import Screen  # noqa: E402

HANDS_PER_HOUR = 30
TARGET_MB = 80.0
FLOORS = {"fast": "a local mosquitto", "slow": f"a mosquitto behind a {SLOW_BYTES_S / 1000:.0f} kB/s link",
          "absent": "no broker: everything stays in the outbox"}


def run(ctx: Context, floor_mode: str = "fast", hands: int | None = None, log: Path | None = None) -> list[Figure]:
    eight_hours = 8 * HANDS_PER_HOUR
    total = hands or ctx.scale(3 * eight_hours, 3)  # 24 simulated hours: enough to show the slope
    broker = None
    slow = None
    if floor_mode != "absent":
        try:
            broker = Mosquitto(max_inflight=0).start()
        except BrokerMissing as e:
            ctx.say(f"{e}: floor link off")
    if broker is not None and floor_mode == "slow":
        slow = SlowLink(broker.host, broker.port, rate=SLOW_BYTES_S).start()
    port = slow.port if slow else broker.port if broker else free_port()   # absent: a port nobody listens on
    config = Config(table=TableConfig(id="MEM", site="bench"),
                    record=RecordConfig(enabled=True, dir=str(ctx.tmp / "logs")),
                    floor=FloorConfig(enabled=broker is not None or floor_mode == "absent", port=port,
                                      outbox=str(ctx.tmp / "outbox.sqlite")))
    registry = load_registry(config)
    recorder = Recorder(config.record.dir, table_header(config, registry, created=True),
                        rotate_bytes=config.record.rotate_mb << 20)
    floor = FloorLink(config) if config.floor.enabled else None
    log_path = log or ctx.tmp / "hands.jsonl"
    if log is None:
        made = subprocess.run([sys.executable, "-m", "dealerbox", "simulate", "--hands", str(total), "--out",
                               str(log_path)], capture_output=True, text=True, timeout=900)
        if made.returncode != 0:
            return [missing("memory", "peak RSS after 8 h", "MB", f"simulate failed: {made.stderr[-300:]}",
                            TARGET_MB, "<")]
    # Back-pressure: a live board cannot run ahead of the terminal, so neither may the replay here.
    source = ReplayingSource(open_log(log_path), speed=0, maxsize=1000)
    terminal = Terminal(config, registry, source, recorder=recorder, floor=floor)
    samples: list[tuple[int, int, float]] = []   # (hands ended, RSS KiB, wall s)
    heaps: list[tuple[int, int]] = []              # (hands ended, KiB glibc's heaps hold in use), where glibc
    backlog: list[int] = []   # records waiting for the core thread + updates waiting for the floor spooler
    depths: list[int] = []    # rows in the outbox (on disk)
    start = time.monotonic()
    done = threading.Event()

    def sampler() -> None:
        while not done.wait(0.2):
            samples.append((terminal.hands_ended, rss_kib(), time.monotonic() - start))
            heap = growth.glibc()
            if heap is not None:
                heaps.append((samples[-1][0], heap["in_use_kib"]))
            health = floor.health() if floor else {}
            backlog.append(source.entries.qsize() + health.get("queued", 0))
            depths.append(health.get("outbox_depth", 0))

    baseline = rss_kib()
    screen = Screen(config, (800, 480), fullscreen=False)
    terminal.start()
    th = threading.Thread(target=sampler, daemon=True)
    th.start()
    budget = ctx.scale(100, 6)
    try:
        screen.run(terminal.bus.subscribe("screen"), terminal.submit,
                   stop=lambda: terminal.hands_ended >= total or time.monotonic() - start > budget)
    finally:
        done.set()
        terminal.stop()
        if slow:
            slow.stop()
        if broker:
            broker.stop()
    hands = terminal.hands_ended
    wall = time.monotonic() - start
    peak = peak_rss_kib() / 1024
    at_8h = [rss for h, rss, _ in samples if h <= eight_hours]
    rss_8h = max(at_8h) / 1024 if at_8h else None
    # Slope over the second half of the run (after start-up and first-use caches), least squares.
    half = [(h, rss) for h, rss, _ in samples if h >= hands / 2]
    slope = _slope(half) * 100 if len(half) >= 3 else None   # KiB per 100 hands
    heap_half = [(h, kib) for h, kib in heaps if h >= hands / 2]
    heap_slope = _slope(heap_half) * 100 if len(heap_half) >= 3 else None
    note = (f"{hands} hands ({hands / HANDS_PER_HOUR:.0f} simulated hours at {HANDS_PER_HOUR}/h) in {wall:.0f} s; "
            f"screen + recorder + floor link ({FLOORS[floor_mode] if floor else 'off: no broker'}); imports alone "
            f"{baseline / 1024:.0f} MB; largest backlog {max(backlog, default=0)} records/updates queued (the replay "
            f"waits on a bounded queue); outbox up to {max(depths, default=0)} rows on disk")
    out = [
        Figure("memory", f"RSS after 8 h ({eight_hours} hands)", rss_8h, "MB", TARGET_MB, "<",
               note=note if hands >= eight_hours else f"only {hands} of {eight_hours} hands ran: {note}"),
        Figure("memory", f"peak RSS ({hands} hands)", peak, "MB", TARGET_MB, "<"),
        Figure("memory", "RSS slope, 2nd half of the run", slope, "KiB/100 hands",
               note="no target: over a few hundred hands it moves with where the trims between hands fall (+100 to "
                    "+340 with glibc's heap in use flat); bench.soak judges flatness over 20,000 hands",
               extra={"samples": [(h, rss) for h, rss, _ in samples[:: max(1, len(samples) // 60)]]}),
        Figure("memory", "glibc heap in use, slope, 2nd half", heap_slope, "KiB/100 hands",
               note="what is allocated and alive (Python's large objects, SQLite, SDL); RSS less this is free "
                    "memory glibc holds, which malloc_trim between hands gives back (not measured off glibc)"),
        # What the screen holds at the end: its caches are budgeted in bytes, its events kept by hands.
        Figure("memory", "screen pixel caches at the end", screen.renderer.cache_bytes() / (1 << 20), "MB",
               note=f"800x480; {len(screen.events)} table events kept for the history view"),
    ]
    return out


def _slope(points: list[tuple[int, int]]) -> float:
    n = len(points)
    mx = sum(x for x, _ in points) / n
    my = sum(y for _, y in points) / n
    den = sum((x - mx) ** 2 for x, _ in points)
    return sum((x - mx) * (y - my) for x, y in points) / den if den else 0.0


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.memory", description=__doc__.split("\n")[0])
    parser.add_argument("--floor", choices=tuple(FLOORS), default="fast")
    parser.add_argument("--hands", type=int, default=None, help="hands to play (default 720)")
    parser.add_argument("--log", type=Path, default=None, help="a simulated log to replay (default: simulate one)")
    args = parser.parse_args()
    figures = run(Context(log=lambda text: print(text, file=sys.stderr)), args.floor, args.hands, args.log)
    for f in figures:
        print(json.dumps({"name": f.name, "value": f.value, "unit": f.unit, "target": f.target, "note": f.note}))


if __name__ == "__main__":
    main()
