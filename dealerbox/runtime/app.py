"""The terminal: wires a source, the pure pipeline and the sinks together with one owner per resource.

Threads: the source's own thread (serial port, replayed log or simulator; see ``sources.base.Source``) ->
the ``core`` thread (recorder, pipeline, then the ``Notifier``: the floor link is handed each update there,
the panel follows on its own thread; see ``runtime.sinks.Sink``); the main thread owns the display (pygame)
or, headless, prints events. Dealer inputs from the screen, the panel and the floor come back through
``submit`` into one inbox the core thread drains, so a slow sink never blocks the engine.
"""

from __future__ import annotations

import dataclasses
import gc
import json
import logging
import os
import queue
import sys
import threading
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, TextIO
from collections.abc import Callable

from ..config import Config
from ..engine.events import FindingRaised, TableEvent
from ..engine.inputs import DealerInput
from ..pipeline import Pipeline
from ..record.logformat import Input, Link, Record, Rx
from ..sources.base import Source
from ..upkeep.trim import Trimmer
from ..tags import EnrolmentError, TagRegistry, demo_chips, demo_deck, load_enrolment, Deck, ChipSet
from .bus import EventBus, Update
from .sinks import BadgeSink, FloorSink, Notifier, RecordSink, Sink

if TYPE_CHECKING:
    from ..sinks.floor.link import FloorLink
    from ..tournament.config import Tournament
    from ..upkeep.keeper import Upkeep

log = logging.getLogger("dealerbox")

HEALTH_PERIOD_S = 1.0  # how often the screen and floor get a health refresh with no table events
MAX_BATCH = 500       # records applied before the sinks get an update, when records arrive faster than that


def load_registry(config: Config) -> TagRegistry:
    """The enrolled decks and chips from the config's files, or the demo set when none are named."""
    decks: list[Deck] = []
    chips: list[ChipSet] = []
    for path in config.enrolment.decks:
        item = load_enrolment(path)
        if not isinstance(item, Deck):
            raise EnrolmentError(f"{path}: listed in enrolment.decks but it is a chip file")
        decks.append(item)
    for path in config.enrolment.chips:
        item = load_enrolment(path)
        if not isinstance(item, ChipSet):
            raise EnrolmentError(f"{path}: listed in enrolment.chips but it is a deck file")
        chips.append(item)
    if not decks:
        decks = [demo_deck("DEMO-1", "red"), demo_deck("DEMO-2", "blue")]
    if not chips:
        icode = config.enrolment.demo_chip_tags == "icode"
        chips = [demo_chips(config.enrolment.house, icode=icode),
                 demo_chips("OTHER", {5: 20, 25: 20, 100: 20}, icode=icode)]
    return TagRegistry(decks, chips)


def choose_display(config: Config, headless_flag: bool) -> str:
    """``fullscreen`` (a Pi with no desktop: kmsdrm), ``window`` (a desktop) or ``headless``."""
    mode = "headless" if headless_flag else config.display.mode
    if mode != "auto":
        return mode
    if os.environ.get("SDL_VIDEODRIVER") == "dummy":
        return "headless"
    if os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"):
        return "window"
    try:
        on_pi = "Raspberry Pi" in Path("/proc/device-tree/model").read_text(errors="ignore")
    except OSError:
        on_pi = False
    if on_pi and any(Path("/dev/dri").glob("card*")):
        return "fullscreen"
    return "headless"


def choose_source(config: Config, forced: str | None) -> str:
    """``serial`` when a board is attached (or asked for), else the built-in ``simulator``."""
    kind = forced or config.reader.source
    if kind == "auto":
        return "serial" if Path(config.reader.port).exists() else "simulator"
    return kind


@dataclass
class Terminal:
    """One running table terminal. Build it, ``start()`` it, then drive the main thread (``run_*``)."""

    config: Config
    registry: TagRegistry
    source: Source
    recorder: RecordSink | None = None
    floor: FloorLink | None = None             # attached as a FloorSink; other sinks through attach()
    upkeep: Upkeep | None = None               # figures, retention, watchdog (dealerbox/upkeep/)
    tournament: Tournament | None = None       # the event a tournament table plays (its [tournament] file)
    trimmer: Trimmer | None = field(default_factory=Trimmer)   # freed memory back to the system between hands
    clock: Callable[[], float] = time.monotonic
    bus: EventBus = field(default_factory=EventBus)
    stopped: threading.Event = field(default_factory=threading.Event)
    hands_ended: int = 0

    def __post_init__(self) -> None:
        self.pipeline = Pipeline(self.config, self.registry, self.tournament)
        self.notifier = Notifier(self.bus)
        if self.floor is not None:
            if self.tournament is not None:   # follow the floor's clock for this event, and its instructions
                self.floor.follow_tournament(self.tournament.id)
            self.notifier.attach(FloorSink(self.floor))
            if self.recorder is not None and hasattr(self.recorder, "on_anchor"):
                self.recorder.on_anchor = self.floor.submit_anchor   # every signed head, through the outbox
        if self.config.audit.badges:     # a badge held over a zone signs its dealer in
            from ..sinks.screen.signin import SignInDesk
            self.notifier.attach(BadgeSink(SignInDesk(self.config, self.clock)))
        self._inputs: queue.Queue[DealerInput | dict] = queue.Queue()  # taps from the screen, panel and floor
        # hand numbers continue where the recorder's log says the last run stopped (ids unique for life)
        self.pipeline.engine.hands_before = self.recorder.hands_before if self.recorder is not None else 0
        self._last_t = 0.0
        self._last_clock = self.clock()
        self._last_health = 0.0
        self._last_step = self.clock()
        self._link_up = False
        self._threads: list[threading.Thread] = []
        self.errors: list[str] = []
        self._waiting_said = ""   # the last "waiting for the board" sentence logged, so a retry is not news
        # a tap or a table event recorded after the last signed head: only then has window 2 something to sign
        # (the board's heartbeat alone, once a second, would sign a head a minute of nothing on an idle table)
        self._ruled_unsigned = False

    # --- inputs from people -------------------------------------------------------------------------
    def submit(self, dealer_input: DealerInput | dict) -> None:
        """Thread-safe: a tap from the screen, a panel button or a floor command."""
        self._inputs.put(dealer_input)

    def _stamp(self, d: DealerInput | dict) -> DealerInput:
        # Taps live on the source's clock: the last source time plus the wall time since it arrived.
        t = self._last_t + max(0.0, self.clock() - self._last_clock)
        if isinstance(d, dict):
            return DealerInput(t=t, **d)
        return dataclasses.replace(d, t=t)

    # --- life cycle -----------------------------------------------------------------------------------
    def attach(self, sink: Sink) -> None:
        """Plug in a sink (the panel, a dashboard feed...) before ``start()``."""
        self.notifier.attach(sink)

    def start(self) -> None:
        # What start-up built (modules, config, enrolment, caches) lives as long as the process: frozen out of
        # the collector, a full collection no longer walks it, which stalled the core thread for 7-13 ms and
        # put that in the frame -> floor alert tail (docs/performance.md, "Alert tail").
        gc.collect()
        gc.freeze()
        self.notifier.start(self.submit)
        self.source.start()
        if self.upkeep is not None:   # before the core loop's first watchdog beat
            self.upkeep.ready(f"table {self.config.table.id}: ruling")
        core = threading.Thread(target=self._core_loop, name="dealerbox-core", daemon=True)
        core.start()
        self._threads.append(core)

    def stop(self) -> None:
        self.stopped.set()
        self.source.stop()
        for th in self._threads:
            th.join(timeout=5)
        if self.recorder is not None:
            self.recorder.close()   # first: the last hand's and the close's signed heads go out with the link's drain
        self.notifier.stop()
        gc.unfreeze()   # a process that builds another terminal (the tests) can collect this one

    # --- the core thread: the only caller of the pipeline ----------------------------------------------
    def _core_loop(self) -> None:
        while not self.stopped.is_set():
            self._say_waiting()
            if self.upkeep is not None:   # the watchdog hears from this loop, so a hung loop is restarted
                self.upkeep.tick(self.floor, self.recorder, f"table {self.config.table.id}: {self.hands_ended} hands")
            events: list[TableEvent] = []
            try:
                entry: Record | None = self.source.entries.get(timeout=0.05)
            except queue.Empty:
                entry = None
            # Apply everything already waiting, then publish once: one snapshot per batch, not per
            # record, so a burst (a replay, a reconnect inventory) cannot starve the sinks. A lone
            # entry is published at once, so a live finding is never held back.
            for _ in range(MAX_BATCH):
                if entry is None:
                    break
                self._last_t, self._last_clock = entry.t, self.clock()
                if isinstance(entry, Link):
                    self._link_up = entry.up
                elif isinstance(entry, Rx):
                    self._link_up = True
                events.extend(self._step(entry))
                try:
                    entry = self.source.entries.get_nowait()
                except queue.Empty:
                    entry = None
            if entry is not None:
                events.extend(self._step(entry))
            while True:
                try:
                    tap = self._inputs.get_nowait()
                except queue.Empty:
                    break
                self._ruled_unsigned = True   # recorded before the engine rules on it, even if it refuses it
                try:
                    events.extend(self._step(Input(self._stamp(tap))))
                except ValueError as e:  # an unknown action from a floor command or a bad tap
                    log.warning("dealer input refused: %s", e)
            if events:
                ended = sum(1 for e in events if e.kind == "HandEnded")
                if ended and self.recorder is not None:
                    # keeps the hand count and signs the log at every hand's end (each of a batch's, not only its
                    # last: a core catching up applies several hands at once); the update carries the anchor
                    for event in events:
                        if event.kind == "HandEnded":
                            self.recorder.seal(hand=event.hand)
                    # the seal signs the head after every record written so far: the whole batch is covered
                    self._ruled_unsigned = False
                else:
                    self._ruled_unsigned = True
                self._publish(tuple(events))
                # Counted after publishing, so a caller waiting on it finds the events already queued.
                self.hands_ended += ended
            elif self.clock() - self._last_health >= HEALTH_PERIOD_S:
                self._publish(())
            if self.trimmer is not None and self.pipeline.engine.between_hands:   # the table's quiet moment
                self.trimmer.between_hands(self.hands_ended)
            if self.recorder is not None and self._ruled_unsigned:
                # a break's taps after a hand's end are signed (and anchored) within record.sign_idle_s, not at the
                # next hand's end (docs/security.md, window 2); heartbeats alone wait for the next tap, event or end
                if self.recorder.sign_if_idle():
                    self._ruled_unsigned = False

    def _say_waiting(self) -> None:
        # Logged when the reason changes (board missing, then forbidden, then found), never per retry.
        waiting = self.source.waiting
        if waiting != self._waiting_said:
            if waiting:
                log.warning("%s", waiting)
            self._waiting_said = waiting

    def idle_for(self) -> float:
        """Seconds since the core thread last applied an entry."""
        return self.clock() - self._last_step

    def _step(self, entry: Record) -> list[TableEvent]:
        self._last_step = self.clock()
        if self.recorder is not None:
            self.recorder.write(entry)
        return self.pipeline.feed(entry)

    def _publish(self, events: tuple[TableEvent, ...]) -> None:
        self._last_health = self.clock()
        self.notifier.publish(Update(events, self.pipeline.engine.snapshot(), self.health()))

    def health(self) -> dict[str, dict]:
        """What the screen's health strip and the floor's state topic show (keys in docs/screen.md)."""
        beat = self.pipeline.last_heartbeat_t
        now = self._last_t + max(0.0, self.clock() - self._last_clock)  # on the source's clock
        # no board yet, unplugged, or a port open on which nothing answers: the sentence says which port and
        # what to do, and the board is not connected (the screen shows the sentence, not "up")
        waiting = self.source.waiting
        h: dict[str, dict] = {"reader": {
            "connected": self._link_up and not waiting, **self.pipeline.counters(),
            "heartbeat_age_s": None if beat is None else round(now - beat, 1),
            "faulty_readers": bin(self.pipeline.faulty_readers).count("1")}}
        h["reader"]["source"] = self.source.counters
        if waiting:
            h["reader"]["waiting"] = waiting
        h.update(self.notifier.health())
        if self.recorder is not None:
            h["recorder"] = self.recorder.health()
        if self.upkeep is not None:   # memory_mb, disk_free_mb, log_days, outbox_depth (docs/screen.md)
            h.update(self.upkeep.current(h.get("floor")))
        return h

    # --- main-thread drivers --------------------------------------------------------------------------
    def run_headless(self, q: queue.Queue, out: TextIO, jsonl: bool, until: Callable[[Terminal], bool]) -> None:
        """Print every table event (hole cards masked) until ``until(self)`` or Ctrl-C.

        ``q`` is subscribed before ``start()``, so not even the board's first HELLO is missed."""
        while True:
            try:
                update: Update = q.get(timeout=0.2)
            except queue.Empty:
                if until(self):
                    return
                continue
            for e in update.events:
                out.write(format_event(e, jsonl) + "\n")
            out.flush()
            if q.empty() and until(self):  # print everything the engine said before stopping
                return


def format_event(e: TableEvent, jsonl: bool) -> str:
    """One line per event: JSON (the replay contract, hole cards masked) or a readable line."""
    d = e.to_dict(reveal=False)
    if jsonl:
        return json.dumps(d, separators=(",", ":"))
    if isinstance(e, FindingRaised):
        return f"[{e.t:9.2f}] hand {e.hand} FINDING {e.severity.upper()} {e.rule} ({e.citation}): {e.ruling}"
    fields = " ".join(f"{k}={v}" for k, v in d.items()
                      if k not in ("event", "t", "hand") and v not in (None, (), [], {}))
    return f"[{e.t:9.2f}] hand {e.hand} {d['event']} {fields}".rstrip()


def new_boot_id() -> str:
    return uuid.uuid4().hex[:12]


def print_error(message: str) -> None:
    print(f"dealerbox: {message}", file=sys.stderr)
