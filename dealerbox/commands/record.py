"""``dealerbox record``: record the live reader board to a tamper-evident log (no engine, no display).

The header carries the config and the enrolment, so the log replays anywhere with no other file.
"""

from __future__ import annotations

import argparse
import queue
import sys
import time

from ..config import Config, ConfigError
from ..record.logformat import table_header
from ..record.recorder import Recorder
from ..record.signing import table_signer
from ..sources.serial_port import SerialSource, SerialSourceError
from ..tags import EnrolmentError
from ..wire import protocol as p


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--out", metavar="DIR", help="directory for the log (default: record.dir)")
    parser.add_argument("--port", metavar="P", help="serial port (default: reader.port)")
    parser.add_argument("--duration", type=float, metavar="S", help="stop after S seconds (default: Ctrl-C)")


def run(args: argparse.Namespace, clock=time.monotonic) -> int:
    from ..runtime.app import load_registry
    config: Config = args.cfg
    try:
        registry = load_registry(config)
    except EnrolmentError as e:
        print(f"dealerbox record: {e}", file=sys.stderr)
        return 2
    signer = table_signer(config.record.key, config.table.id)   # before the port: a bad key is exit 2, no log
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
    from ..record.sealing import seal_target
    recorder = Recorder(args.out or config.record.dir, header, rotate_bytes=config.record.rotate_mb * 1024 * 1024,
                        clock=clock, signer=signer, rotate_daily=config.record.rotate_daily,
                        seal_to=seal_target(config.record.floor_public_key, args.out or config.record.dir))
    print(f"dealerbox record: recording {port} to {recorder.path}", file=sys.stderr)
    # The board introduces itself and reports every tag it sees, so the log starts from the table as it is.
    source.send(p.CmdHello())
    source.send(p.CmdInventory())
    started = clock()
    try:
        while args.duration is None or clock() - started < args.duration:
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
    h = recorder.health()
    print(f"dealerbox record: {h['records']} records, {h['bytes']} bytes in {recorder.part + 1} part(s) at "
          f"{recorder.path}; source {source.counters}", file=sys.stderr)
    return 0 if h["ok"] else 1
