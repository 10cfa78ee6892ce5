"""``dealerbox run``: the dealer terminal.

Picks the reader board when one is attached (config ``reader.port``), else the built-in simulator; the
display when there is one, else headless (table events printed, one per line). With ``reader.source =
"serial"`` a board that is not there yet (the Pi boots first) is waited for: the terminal comes up, says
which port it waits on and what to do, and follows the table once the board says hello. Ctrl-C or SIGTERM
stops it cleanly.
"""

from __future__ import annotations

import argparse
import logging
import signal
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from ..config import Config, ConfigError, from_dict
from ..runtime.app import Terminal, choose_display, choose_source, load_registry, print_error
from ..record.logformat import table_header
from ..runtime.sinks import PanelSink
from ..sources.base import Source
from ..tags import EnrolmentError, TagRegistry

if TYPE_CHECKING:
    from ..engine.inputs import DealerInput
    from ..record.logformat import Header
    from ..sinks.panel import Panel
    from ..tournament.config import Tournament

log = logging.getLogger("dealerbox")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--headless", action="store_true", help="no display: print table events")
    parser.add_argument("--jsonl", action="store_true", help="headless output as JSON lines (hole cards masked)")
    parser.add_argument("--source", choices=("serial", "simulator"), help="override reader.source")
    parser.add_argument("--replay", metavar="LOG", help="play a recorded log or scenario as the table (its own "
                        "config and enrolment), e.g. to review a disputed hand on the screen")
    parser.add_argument("--speed", type=float, help="simulator pace (1 = a real dealer; 50 = fast demo)")
    parser.add_argument("--hands", type=int, metavar="N", help="stop after N hands have ended")
    parser.add_argument("--seconds", type=float, metavar="S", help="stop after S seconds")
    parser.add_argument("--no-floor", action="store_true", help="do not connect to the floor broker")
    parser.add_argument("--review-floor", action="store_true", help="with --replay: show the replay on the floor "
                        "under review/dealerbox/... (replayed: true, never retained); a replay is off the floor "
                        "without it")
    parser.add_argument("--no-record", action="store_true", help="do not write the recorded log")


def run(args: argparse.Namespace) -> int:
    logging.basicConfig(level=logging.INFO, format="dealerbox: %(message)s", stream=sys.stderr)
    config: Config = args.cfg
    if args.replay:
        from ..pipeline import registry_from_enrolment
        from ..sources import LogError, open_log
        from ..sources.replaying import ReplayingSource
        try:
            log_source = open_log(args.replay)
            config = config_from_header(log_source.header, config, args.replay)
        except (LogError, ConfigError) as e:
            print_error(str(e))
            return 2
        registry = registry_from_enrolment(log_source.header.enrolment)
        kind = "replay"
        source: Source = ReplayingSource(log_source, speed=args.speed if args.speed is not None else 1.0)
    else:
        try:
            registry = load_registry(config)
        except EnrolmentError as e:
            print_error(str(e))
            return 2
        kind = choose_source(config, args.source)
    tournament = None
    recorded = log_source.header.tournament if args.replay else None
    if recorded or config.tournament.file:   # the tournament package (and jsonschema) only where one is played
        from ..tournament.at_table import played
        try:
            tournament = played(config, recorded)
        except ConfigError as e:
            print_error(str(e))
            return 2
    if not args.replay:
        try:   # the simulator plays the tournament too (from the draw for the button to the winner)
            source = _make_source(kind, config, registry, args.speed, tournament, hands=args.hands)
        except (OSError, ValueError) as e:
            print_error(str(e))
            return 2
    header = table_header(config, registry, created=True, tournament=tournament)
    recorder = None
    if config.record.enabled and not args.no_record and kind != "replay":
        from ..record.recorder import Recorder
        from ..record.sequence import sequence_path
        from ..record.sealing import seal_target
        from ..pipeline import public_events
        from ..record.signing import table_signer
        from ..upkeep.resume import check_last_stop
        check_last_stop(config.record.dir)   # a power cut's log is verified and said, never written over
        recorder = Recorder(config.record.dir, header, rotate_bytes=config.record.rotate_mb * 1024 * 1024,
                            signer=table_signer(config.record.key, config.table.id),
                            hand_count=sequence_path(config.record.dir, config.table.id),
                            rotate_daily=config.record.rotate_daily,
                            seal_to=seal_target(config.record.floor_public_key, config.record.dir),
                            rules=public_events, sign_idle_s=config.record.sign_idle_s)
    floor = None
    # a replay never poses as the live table: off the floor unless asked, and then only under review/
    if config.floor.enabled and not args.no_floor and (kind != "replay" or args.review_floor):
        from ..sinks.floor.link import FloorLink
        # simulated hands spool in their own data directory, never into the real table's outbox
        demo_outbox = str(Path(config.floor.outbox).parent / "demo" / Path(config.floor.outbox).name) \
            if kind == "simulator" else None
        floor = FloorLink(config, review=kind == "replay", outbox=demo_outbox)
    display = choose_display(config, args.headless or args.jsonl)
    terminal = Terminal(config, registry, source, recorder=recorder, floor=floor, tournament=tournament)
    from ..upkeep.keeper import Upkeep   # only the running terminal needs it
    terminal.upkeep = Upkeep(config.record.dir if recorder else None, config.record.keep_days)
    panel = _make_panel(config, terminal.submit)
    if panel is not None:
        terminal.attach(PanelSink(panel))
    log.info("table %s: reader %s, display %s, floor %s, recording %s", config.table.id,
             {"serial": config.reader.port, "replay": f"replay of {args.replay}"}.get(kind, kind), display,
             f"{config.floor.host}:{config.floor.port}" if floor else "off",
             config.record.dir if recorder else "off")
    started = time.monotonic()
    terminated = threading.Event()
    if threading.current_thread() is threading.main_thread():
        # systemd stops the kiosk with SIGTERM: finish like Ctrl-C (recorder closed, floor told).
        signal.signal(signal.SIGTERM, lambda signum, frame: terminated.set())

    def done(t: Terminal) -> bool:
        if terminated.is_set():
            return True
        if args.hands is not None and t.hands_ended >= args.hands:
            return True
        played_out = kind == "replay" or (kind == "simulator" and tournament is not None)   # a tournament ends
        if played_out and source.finished.is_set() and source.entries.empty():
            return t.idle_for() > 0.5  # the core has applied the last record
        return args.seconds is not None and time.monotonic() - started >= args.seconds

    # Subscribed before the core thread starts, so the first events are not missed.
    updates = terminal.bus.subscribe("console" if display == "headless" else "screen",
                                     lossless=display == "headless")
    if display != "headless":   # pygame without sound, image codecs or pkg_resources (runtime/lean.py)
        from ..runtime.lean import import_pygame
        import_pygame()
    try:   # Ctrl-C from the first moment the terminal starts (its threads may already be talking) stops it cleanly
        try:
            terminal.start()
        except OSError as e:  # the port vanished or is not permitted between the check and the open
            print_error(str(e))
            return 2
        if display == "headless":
            terminal.run_headless(updates, sys.stdout, args.jsonl, done)
        else:
            from ..sinks.screen.screen import Screen
            screen = Screen(config, (config.display.width, config.display.height), clock=terminal.clock,
                            fullscreen=display == "fullscreen")
            screen.run(updates, terminal.submit, stop=lambda: done(terminal))
    except KeyboardInterrupt:
        pass
    finally:
        terminal.stop()
    return 0


def _make_source(kind: str, config: Config, registry: TagRegistry, speed: float | None,
                 tournament: Tournament | None = None, hands: int | None = None) -> Source:
    if kind == "serial":
        from ..sources.serial_port import SerialSource
        # A board not plugged in yet is waited for (and shown), not an exit: the Pi often boots first.
        return SerialSource(config.reader.port, config.reader.baud, reconnect_max_s=config.reader.reconnect_max_s,
                            wait_for_board=True)
    from ..sources.sim import SimulatedSource, Simulator
    sim = Simulator(config, registry, seed=config.simulator.seed, tournament=tournament)
    # --hands N: the simulator deals N hands and no more, so the persisted hand count matches what was shown
    return SimulatedSource(sim, speed=speed or config.simulator.speed, hands=hands)


def _make_panel(config: Config, submit: Callable[[DealerInput], None]) -> Panel | None:
    if not config.panel.enabled:
        return None
    from ..sinks.panel import Panel
    # gpiozero picks the Pi's pin factory; off a Pi, create() logs one line and returns None.
    return Panel.create(config.panel, pin_factory=None, submit=submit)


def config_from_header(header: Header, local: Config, path: str) -> Config:
    """The recorded table's own game and enrolment, with this terminal's floor, display and panel."""
    recorded = from_dict(header.config, f"{path} (log header)")
    return Config(table=recorded.table, game=recorded.game, reader=local.reader, enrolment=recorded.enrolment,
                  floor=local.floor, panel=local.panel, display=local.display, record=local.record,
                  simulator=local.simulator, path=local.path)
