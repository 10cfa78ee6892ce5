"""End to end: a frame written into a pseudo-terminal -> SerialSource -> the terminal's pipeline -> FloorLink ->
a real mosquitto -> a paho subscriber receiving the alert. Median and p99 latency.

The bytes are the simulator's, with an irregularity injected into every hand (``simulator.irregularities``
= 1), written hand after hand into the pty master at 20x a real dealer's pace (dealer taps go through
``Terminal.submit``). The reference time of an alert is when the input that made the engine raise it entered
the terminal: for a frame, the write time of the last frame written at or before the serial source read it
(the source's clock is time.monotonic, this process); for a dealer tap, the time it was submitted. The
finding's own ``t`` is not used: the engine raises some findings only when a later input shows them (a chip
motion closes 0.5 s after its last chip, a card is missing once the next one moves), and ``t`` then names
the earlier moment, which measured the dealer's pace, not the link (p99 ~156 ms at 20x).
"""

from __future__ import annotations

import bisect
import collections
import os
import time

from dealerbox.config import Config, FloorConfig, ReaderConfig, SimulatorConfig, TableConfig
from dealerbox.record.logformat import Input, Rx
from dealerbox.runtime.app import Terminal, load_registry
from dealerbox.sinks.floor.link import FloorLink
from dealerbox.sources.serial_port import SerialSource
from dealerbox.sources.sim import Simulator

from .broker import BrokerMissing, Mosquitto
from .common import Context, Figure, median, missing, percentile
from .mqtt import Listener

TARGET_MS = 20.0
SPEED = 20.0


def run(ctx: Context) -> list[Figure]:
    try:
        broker = Mosquitto(max_inflight=0).start()
    except BrokerMissing as e:
        return [missing("e2e", "frame -> floor alert p99", "ms", str(e), TARGET_MS, "<")]
    master, slave = os.openpty()
    port = os.ttyname(slave)
    config = Config(table=TableConfig(id="E2E", site="bench"), reader=ReaderConfig(source="serial", port=port),
                    floor=FloorConfig(port=broker.port, outbox=str(ctx.tmp / "outbox.sqlite")),
                    simulator=SimulatorConfig(irregularities=1.0))
    registry = load_registry(config)
    source = SerialSource(port, config.reader.baud, clock=time.monotonic)
    floor = FloorLink(config)
    terminal = Terminal(config, registry, source, floor=floor, clock=time.monotonic)
    listener = Listener(broker.port, ["dealerbox/bench/E2E/alert"])
    writes: list[float] = []
    taps: collections.deque[float] = collections.deque()   # submit times of taps not yet taken by the engine
    raised: dict[str, float] = {}                           # finding id -> reference time
    feed = terminal.pipeline.feed

    def traced_feed(entry):
        # on the core thread: which input produced each finding (a wrapper, the pipeline itself unchanged)
        ref = None
        if isinstance(entry, Input):
            ref = taps.popleft() if taps else None
        elif isinstance(entry, Rx):
            i = bisect.bisect_right(writes, entry.t) - 1
            ref = writes[i] if i >= 0 else None
        events = feed(entry)
        for e in events:
            if e.kind == "FindingRaised" and ref is not None:
                raised.setdefault(e.id, ref)
        return events

    terminal.pipeline.feed = traced_feed
    try:
        terminal.start()
        time.sleep(1.0)  # the port open and the link connected before the clock starts
        n_hands = ctx.scale(60, 1)
        deadline = time.monotonic() + ctx.scale(45, 4)
        prev_t = None
        for record in Simulator(config, registry, seed=5).records(n_hands):
            if time.monotonic() > deadline:
                break
            if prev_t is not None:
                time.sleep(max(0.002, (record.t - prev_t) / SPEED))
            prev_t = record.t
            if isinstance(record, Rx):
                writes.append(time.monotonic())
                os.write(master, record.data)
            elif isinstance(record, Input):
                taps.append(time.monotonic())
                terminal.submit(record.input)
        time.sleep(1.0)  # the last alerts in flight
    finally:
        listener.close()
        terminal.stop()
        broker.stop()
        os.close(master)
        os.close(slave)
    latencies = []
    for arrived, _, payload in listener.received:
        if not payload or payload.get("replayed"):
            continue
        ref = raised.get(payload["finding"]["id"])
        if ref is not None:
            latencies.append((arrived - ref) * 1000)
    if not latencies:
        return [missing("e2e", "frame -> floor alert p99", "ms", f"no alert arrived ({len(writes)} frames written)",
                        TARGET_MS, "<")]
    worst = ", ".join(f"{x:.0f}" for x in sorted(latencies)[-3:])
    note = (f"{len(latencies)} alerts from {len(writes)} frames of simulated hands with irregularities, at {SPEED:.0f}x "
            f"pace; worst three {worst} ms")
    return [Figure("e2e", "frame -> floor alert median", median(latencies), "ms", note=note),
            Figure("e2e", "frame -> floor alert p99", percentile(latencies, 99), "ms", TARGET_MS, "<")]
