"""``dealerbox record``: record the live reader board to a tamper-evident log (no engine, no display).

The header carries the config and the enrolment, so the log replays anywhere with no other file.
"""

from __future__ import annotations

import argparse
import queue
import sys
import time
from collections.abc import Callable

from ..config import Config, ConfigError
from ..pipeline import public_events
from ..record.logformat import table_header
from ..record.recorder import Recorder
from ..record.sealing import seal_target
from ..record.signing import table_signer
from ..sources.serial_port import SerialSource, SerialSourceError
from ..tags import EnrolmentError
from ..wire import protocol as p
from .options import add_out_dir


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_out_dir(parser, "folder for the log (default: record.dir)")
    parser.add_argument("--port", metavar="P", help="serial port (default: reader.port)")
    parser.add_argument("--duration", type=float, metavar="S", help="stop after S seconds (default: Ctrl-C)")


def run(args: argparse.Namespace, clock: Callable[[], float] = time.monotonic) -> int:
    from ..runtime.app import load_registry
    config: Config = args.cfg
    try:
        registry = load_registry(config)
    except EnrolmentError as e:
        print(f"dealerbox record: {e}", file=sys.stderr)
        return 2
    signer = table_signer(config.record.key, config.table.id)   # before the port: a bad key is exit 2, no log
    seal_to = seal_target(config.record.floor_public_key, args.out_dir or config.record.dir)   # the same
    port = args.port or config.reader.port
    try:
        source = SerialSource(port, config.reader.baud, clock=clock, reconnect_max_s=config.reader.reconnect_max_s)
        source.start()
    except SerialSourceError as e:
        print(f"dealerbox record: {e}", file=sys.stderr)
        return 2
    tournament = None
    if config.tournament.file:
        from ..tournament.at_table import for_table
        try:
            tournament = for_table(config)
        except ConfigError as e:
            print(f"dealerbox record: {e}", file=sys.stderr)
            return 2
    header = table_header(config, registry, created=True, tournament=tournament)
    recorder = Recorder(args.out_dir or config.record.dir, header, rotate_bytes=config.record.rotate_mb * 1024 * 1024,
                        clock=clock, signer=signer, rotate_daily=config.record.rotate_daily,
                        seal_to=seal_to, rules=public_events, sign_idle_s=config.record.sign_idle_s)
    print(f"dealerbox record: recording {port} to {recorder.path}", file=sys.stderr)
    # The board introduces itself and reports every tag it sees, so the log starts from the table as it is.
    source.send(p.CmdHello())
    source.send(p.CmdInventory())
    started = clock()
    try:
        while args.duration is None or clock() - started < args.duration:
            recorder.sign_if_idle()   # no hand ends here: a signed recording is signed every record.sign_idle_s
            try:
                recorder.write(source.entries.get(timeout=0.1))
            except queue.Empty:
                continue
    except KeyboardInterrupt:
        pass
    finally:
        source.stop()
        while not source.entries.empty():
            recorder.write(source.entries.get_nowait())
        recorder.close()
    h, got = recorder.health(), source.counters
    print(f"dealerbox record: {h['records']} records, {h['bytes']} bytes in {recorder.part + 1} part(s) at "
          f"{recorder.path}; {got.get('bytes', 0)} bytes from the board, {got.get('errors', 0)} port errors",
          file=sys.stderr)
    if not got.get("bytes"):   # the port opened but nothing answered: not a recording of a table
        print(f"dealerbox record: {port}: no reader board answered (nothing received in {clock() - started:.1f} s); "
              f"check that the board is powered and on this port (--port or reader.port)", file=sys.stderr)
        return 2
    if not h["ok"]:
        print(f"dealerbox record: could not write {recorder.path}: {h.get('last_error')}", file=sys.stderr)
        return 1
    return 0
