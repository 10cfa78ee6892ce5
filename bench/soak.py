"""Soak: a month of hands through the real terminal at high speed, to show memory, threads and files stay flat.

    python -m bench.soak [--hands 20000] [--loop 400] [--headless] [--floor fast|slow|absent] [--out FILE]

``--loop`` hands are simulated once, in a child process (``dealerbox simulate``), so the simulator and its
referee are not in the measured process; the terminal (runtime.Terminal) then plays that log over and over,
each pass shifted on in time, as fast as it takes it (a bounded queue, as a board cannot run ahead either),
with the screen (SDL dummy driver), the recorder and the floor link to a real mosquitto, and the upkeep
figures. Every 2 s a sampler notes hands ended, RSS, open file descriptors, threads, the outbox depth and
the bytes recorded. Rotated log parts are measured and removed as the run goes, so the bench does not need
a gigabyte of disk. The slope is a least-squares fit over the second half (after first-use caches).

``--floor slow`` puts the broker behind bench/slowlink.py (30 kB/s, far below what the hands produce, as
after a floor outage) and ``--floor absent`` points the link at a port nobody listens on: the outbox grows
on disk and the memory must not follow it.

A line every 1,000 hands gives RSS, the outbox, the spooler's queue and glibc's heap (in use, free but held);
the result says ``flat: pass`` when the second-half slope is under FLAT_KIB_PER_1000_HANDS. ``--log`` plays a
log already simulated (``--loop`` its hands), ``--no-trim`` leaves out the malloc_trim between hands (the
terminal before issue 30), ``--trace-every N`` takes tracemalloc snapshots every N hands and reports what grew
by part (bench/growth.py; it slows the run several times).

``--imports`` instead reports what each big import costs: RSS and ``-X importtime`` in a fresh interpreter.
"""

from __future__ import annotations

import argparse
import json
import os
import queue
import re
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import replace
from pathlib import Path

from dealerbox.sources.base import ThreadedSource
from dealerbox.upkeep.trim import TRIM_EVERY_S

from . import growth
from .broker import BrokerMissing, Mosquitto, free_port
from .slowlink import SLOW_BYTES_S, SlowLink

DAY_S = 86400.0
PRINT_EVERY = 1000          # hands between the lines printed as the soak goes
# Flat: the least-squares slope over the second half of a 20,000-hand soak under 100 KiB per 1,000 hands, 2 MiB a
# month of hands. The sampler's own list is in it (0.7 KiB a sample every 2 s: ~40 KiB per 1,000 hands at 9 hands
# a second). The queue of states a slow floor grew was 9,178 (docs/performance.md, "A flat terminal").
FLAT_KIB_PER_1000_HANDS = 100.0
BUSY_HANDS_PER_HOUR = 35    # a brisk live hold'em table with an automatic shuffler


class LoopingSource(ThreadedSource):
    """Plays a log's records again and again, each pass after the last on the source clock. The log is read
    from disk on every pass (a megabyte at a time), so the bench holds no copy of it: its RSS is the terminal's."""

    thread_name = "looping-source"

    def __init__(self, path: Path, first_t: float, last_t: float, maxsize: int = 1000) -> None:
        super().__init__(maxsize)   # bounded: the terminal is not outrun, as a board cannot outrun it
        self.path = path
        self.span = last_t - first_t + 1.0
        self.counters = {"records": 0, "passes": 0}

    @property
    def connected(self) -> bool:
        return True

    def produce(self) -> None:
        from dealerbox.record.logformat import Header as LogHeader
        from dealerbox.sources import open_log

        offset = 0.0
        while not self.stopping.is_set():
            for record in open_log(self.path):
                if isinstance(record, LogHeader):
                    continue
                if not self.put(_shifted(record, offset) if offset else record):
                    return
                self.counters["records"] += 1
            offset += self.span
            self.counters["passes"] += 1


def _shifted(record, offset: float):
    if hasattr(record, "input"):   # a dealer input keeps its time inside the DealerInput
        return replace(record, input=replace(record.input, t=round(record.input.t + offset, 6)))
    return replace(record, t=round(record.t + offset, 6))


def _rss_kib() -> int:
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") // 1024


def _slope(points: list[tuple[float, float]]) -> float:
    n = len(points)
    if n < 3:
        return 0.0
    mx = sum(x for x, _ in points) / n
    my = sum(y for _, y in points) / n
    den = sum((x - mx) ** 2 for x, _ in points)
    return sum((x - mx) * (y - my) for x, y in points) / den if den else 0.0


def soak(hands: int, loop: int, work: Path, budget_s: float, headless: bool = False, floor_mode: str = "fast",
         trace_every: int = 0, trim_every: float | None = TRIM_EVERY_S, log: Path | None = None) -> dict:
    from dealerbox.config import Config, FloorConfig, RecordConfig, TableConfig
    from dealerbox.record.logformat import Header as LogHeader
    from dealerbox.record.recorder import Recorder
    from dealerbox.record.logformat import table_header
    from dealerbox.runtime.app import Terminal, load_registry
    from dealerbox.sources import open_log
    from dealerbox.upkeep.figures import open_fds
    from dealerbox.upkeep.keeper import Upkeep
    from dealerbox.upkeep.trim import Trimmer

    log_path = log or work / "loop.jsonl"
    if log is None:
        made = subprocess.run([sys.executable, "-m", "dealerbox", "simulate", "--hands", str(loop), "--seed", "19",
                               "--out", str(log_path)], capture_output=True, text=True, timeout=1800)
        if made.returncode != 0:
            raise SystemExit(f"simulate failed: {made.stderr[-400:]}")
    first_t = last_t = None
    for r in open_log(log_path):   # streamed, not held: the bench's own memory must not count as the terminal's
        if not isinstance(r, LogHeader):
            first_t = r.t if first_t is None else first_t
            last_t = r.t
    if first_t is None or last_t is None:
        raise SystemExit(f"{log_path}: no records to play")
    loop_log_bytes = log_path.stat().st_size
    sim_seconds_per_hand = (last_t - first_t) / loop
    broker = slow = None
    if floor_mode != "absent":
        try:
            broker = Mosquitto().start()
        except BrokerMissing as e:
            print(f"soak: {e}: floor link off", file=sys.stderr)
    if broker is not None and floor_mode == "slow":
        slow = SlowLink(broker.host, broker.port, rate=SLOW_BYTES_S).start()
    port = slow.port if slow else broker.port if broker else free_port()   # absent: nobody listens there
    config = Config(table=TableConfig(id="SOAK", site="bench"),
                    record=RecordConfig(enabled=True, dir=str(work / "logs"), rotate_mb=16),
                    floor=FloorConfig(enabled=broker is not None or floor_mode == "absent", port=port,
                                      outbox=str(work / "outbox.sqlite")))
    registry = load_registry(config)
    recorder = Recorder(config.record.dir, table_header(config, registry, created=True),
                        rotate_bytes=config.record.rotate_mb << 20)
    floor = None
    if config.floor.enabled:
        from dealerbox.sinks.floor.link import FloorLink
        floor = FloorLink(config)
    source = LoopingSource(log_path, first_t, last_t)
    terminal = Terminal(config, registry, source, recorder=recorder, floor=floor,
                        upkeep=Upkeep(config.record.dir, keep_days=0),
                        trimmer=None if trim_every is None else Trimmer(trim_every))
    samples: list[dict] = []
    removed = {"parts": 0, "bytes": 0}
    printed = [0]   # thousands of hands printed so far
    tallies: list[tuple[int, dict]] = []   # (hands ended, growth.by_part) every ``trace_every`` hands
    if trace_every:
        growth.start()
    start = time.monotonic()
    done = threading.Event()

    def sample() -> None:
        fh = floor.health() if floor else {}
        ended = terminal.hands_ended
        samples.append({"s": round(time.monotonic() - start, 1), "hands": ended,
                        "rss_kib": _rss_kib(), "fds": open_fds(), "threads": threading.active_count(),
                        "outbox": fh.get("outbox_depth"), "floor_queued": fh.get("queued"),
                        "recorded_bytes": recorder.bytes_written, "blocks": sys.getallocatedblocks(),
                        "trims": terminal.trimmer.trims if terminal.trimmer else None, **(growth.glibc() or {})})
        if ended >= (printed[0] + 1) * PRINT_EVERY:   # the level as it goes, for a run of half an hour
            printed[0] = ended // PRINT_EVERY
            last = samples[-1]
            print(f"soak: {ended:6d} hands {last['s']:7.0f} s  RSS {last['rss_kib'] / 1024:6.1f} MiB  outbox "
                  f"{last['outbox'] or 0:6d} rows ({last['floor_queued'] or 0} updates queued for it)  glibc in use "
                  f"{last.get('in_use_kib', 0) / 1024:5.1f} MiB, free but held "
                  f"{last.get('free_held_kib', 0) / 1024:4.1f} MiB  trims {last['trims']}", file=sys.stderr, flush=True)
        if trace_every and ended >= (len(tallies) + 1) * trace_every:
            tallies.append((ended, growth.by_part(growth.snapshot())))
        for part in recorder.parts[:-1]:    # measured, then removed: the bench must not fill the disk
            if part.exists():
                removed["bytes"] += part.stat().st_size
                removed["parts"] += 1
                part.unlink()

    def sampler() -> None:
        while not done.wait(2.0):
            sample()

    screen = None
    if not headless:
        from dealerbox.runtime.lean import import_pygame
        import_pygame()   # as `dealerbox run` does for a kiosk
        from dealerbox.sinks.screen import Screen
        screen = Screen(config, (800, 480), fullscreen=False)
    updates = terminal.bus.subscribe("screen" if screen else "console")
    baseline = _rss_kib()
    terminal.start()
    th = threading.Thread(target=sampler, name="soak-sampler", daemon=True)
    th.start()
    stop = lambda: terminal.hands_ended >= hands or time.monotonic() - start > budget_s  # noqa: E731
    try:
        if screen is not None:
            screen.run(updates, terminal.submit, stop=stop)
        else:   # a headless terminal's main thread: take the updates, as `run --headless` prints them
            while not stop():
                try:
                    updates.get(timeout=0.2)
                except queue.Empty:
                    pass
    finally:
        done.set()
        th.join()
        sample()
        terminal.stop()
        if slow:
            slow.stop()
        if broker:
            broker.stop()
    wall = time.monotonic() - start
    played = terminal.hands_ended
    half = [(s["hands"], s["rss_kib"]) for s in samples if s["hands"] >= played / 2]
    warm = [s for s in samples if s["hands"] >= played / 10] or samples
    per_hand = recorder.bytes_written / max(played, 1)
    return {
        "floor": floor_mode, "hands": played, "wall_s": round(wall, 1), "hands_per_s": round(played / wall, 1),
        "loop_hands": loop, "passes": source.counters["passes"],
        "imports_and_setup_mb": round(baseline / 1024, 1),
        "trims": None if terminal.trimmer is None else {
            "every_s": terminal.trimmer.every_s, "calls": terminal.trimmer.trims,
            "released": terminal.trimmer.released, "longest_ms": round(terminal.trimmer.longest_s * 1000, 1)},
        "peak_rss_mb": round(max(s["rss_kib"] for s in samples) / 1024, 1),
        "final_rss_mb": round(samples[-1]["rss_kib"] / 1024, 1),
        "slope_kib_per_1000_hands": round(_slope(half) * 1000, 1),
        "flat": f"{'pass' if _slope(half) * 1000 < FLAT_KIB_PER_1000_HANDS else 'FAIL'} "
                f"(second-half slope < {FLAT_KIB_PER_1000_HANDS:g} KiB per 1,000 hands)",
        "fds": sorted({s["fds"] for s in warm}), "threads": sorted({s["threads"] for s in warm}),
        "max_outbox_depth": max((s["outbox"] or 0) for s in samples),
        "recorded_bytes": recorder.bytes_written, "bytes_per_hand": round(per_hand),
        "simulated_s_per_hand": round(sim_seconds_per_hand, 1),
        "bytes_per_busy_day": round(per_hand * BUSY_HANDS_PER_HOUR * 24),
        "bytes_per_day_at_sim_pace": round(per_hand * DAY_S / sim_seconds_per_hand),
        "rotated_parts_removed": removed["parts"], "loop_log_bytes_per_hand": round(loop_log_bytes / loop),
        "screen_events_kept": len(screen.events) if screen else None,
        "screen_cache_mb": round(screen.renderer.cache_bytes() / 2**20, 2) if screen else None, "headless": headless,
        "samples": samples[:: max(1, len(samples) // 80)],
        **({"growth": _growth(tallies, played)} if trace_every else {}),
    }


def _growth(tallies: list[tuple[int, dict]], played: int) -> dict:
    """What the traced memory gained over the second half, by part, and in each step of it."""
    late = [t for t in tallies if t[0] >= played / 2] or tallies[-1:]
    if len(late) < 2:
        return {"note": "fewer than two snapshots in the second half"}
    steps = [{"hands": f"{a[0]}-{b[0]}", "grew": growth.grew(a[1], b[1], top=6)}
             for a, b in zip(late, late[1:], strict=False)]
    return {"hands": f"{late[0][0]}-{late[-1][0]}", "grew": growth.grew(late[0][1], late[-1][1]),
            "traced_kib": [(h, round(sum(v[0] for v in t.values()) / 1024)) for h, t in tallies], "steps": steps}


BIG_IMPORTS = ("pygame", "pygame (kiosk, runtime.lean)", "pkg_resources", "paho.mqtt.client", "jsonschema",
               "nacl.signing", "sqlite3", "serial", "gpiozero", "argon2", "pokerkit", "dealerbox.engine.table",
               "dealerbox.sinks.screen.screen", "dealerbox.sinks.floor.link", "dealerbox.record.recorder",
               "dealerbox.commands.run")
STATEMENTS = {"pygame (kiosk, runtime.lean)": "from dealerbox.runtime.lean import import_pygame\nimport_pygame()"}


def imports() -> dict:
    """RSS each module adds to a bare interpreter, and its own cumulative import time (-X importtime)."""
    out = {}
    env = {**os.environ, "PYGAME_HIDE_SUPPORT_PROMPT": "1"}
    for name in BIG_IMPORTS:
        statement = STATEMENTS.get(name, f"import {name}")
        module = "pygame" if name in STATEMENTS else name
        code = ("import os\nrss=lambda: int(open('/proc/self/statm').read().split()[1])*os.sysconf('SC_PAGE_SIZE')\n"
                f"a=rss()\n{statement}\nprint((rss()-a)/2**20)")
        r = subprocess.run([sys.executable, "-X", "importtime", "-c", code], capture_output=True, text=True, env=env)
        if r.returncode != 0:
            out[name] = {"error": r.stderr.strip().splitlines()[-1] if r.stderr.strip() else "failed"}
            continue
        us = 0
        for line in r.stderr.splitlines():
            m = re.match(r"import time:\s+\d+ \|\s+(\d+) \| (\s*)(\S+)$", line)
            if m and m.group(3) == module:
                us = int(m.group(1))
        out[name] = {"rss_mb": round(float(r.stdout.strip()), 1), "import_ms": round(us / 1000, 1)}
    return out


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.soak", description=__doc__.split("\n")[0])
    parser.add_argument("--hands", type=int, default=20_000)
    parser.add_argument("--loop", type=int, default=400, help="hands simulated once and played in a loop")
    parser.add_argument("--budget", type=float, default=3600.0, help="stop after this many seconds anyway")
    parser.add_argument("--imports", action="store_true", help="only report what each big import costs")
    parser.add_argument("--headless", action="store_true", help="no screen (pygame never imported)")
    parser.add_argument("--floor", choices=("fast", "slow", "absent"), default="fast",
                        help="a local broker, the same behind a slow link, or none at all")
    parser.add_argument("--out", default="", help="write the result as JSON here")
    parser.add_argument("--trace-every", type=int, default=0, metavar="HANDS",
                        help="tracemalloc snapshots every HANDS hands; report what grew by part (slows the run)")
    parser.add_argument("--trim-every", type=float, default=TRIM_EVERY_S, metavar="S",
                        help=f"malloc_trim at a hand's end at most every S seconds (default {TRIM_EVERY_S:g})")
    parser.add_argument("--log", type=Path, default=None,
                        help="a simulated log of --loop hands to play (default: simulate one)")
    parser.add_argument("--no-trim", action="store_true", help="never malloc_trim (the terminal before issue 30)")
    args = parser.parse_args()
    if args.imports:
        result = imports()
    else:
        with tempfile.TemporaryDirectory(prefix="dealerbox-soak-") as tmp:
            result = soak(args.hands, args.loop, Path(tmp), args.budget, args.headless, args.floor,
                          args.trace_every, None if args.no_trim else args.trim_every, args.log)
    text = json.dumps(result, indent=1)
    if args.out:
        Path(args.out).write_text(text + "\n")
    print(text if args.imports else json.dumps({k: v for k, v in result.items() if k != "samples"}, indent=1))


if __name__ == "__main__":
    main()
