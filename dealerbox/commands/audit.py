"""``dealerbox audit DIR_OR_LOGS... --out DIR``: verify and replay a room's logs in parallel, then report.

Writes ``DIR/audit.html`` (one self-contained page, charts as inline SVG) and CSV files (hands, findings,
logs, summary). A damaged log is reported with its first bad line; the rest of it, and the rest of the room,
is still audited. Exit codes: 0 every log intact, 1 some log damaged or unreadable, 2 nothing to audit.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from ..history.audit import Room, audit_room, log_paths
from ..history.report import html_page, write_csv


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("logs", nargs="+", metavar="DIR_OR_LOG", help="log files (first parts) or folders of logs")
    parser.add_argument("--out", required=True, metavar="DIR", help="folder for audit.html and the CSV files")
    parser.add_argument("--jobs", type=int, default=0, metavar="N", help="worker processes (default: every core)")
    parser.add_argument("--floor-key", metavar="FILE", default="",
                        help="the floor's private key: sealed logs replay from their raw records (exact), not from "
                             "their public events (docs/security.md)")


def run(args: argparse.Namespace) -> int:
    paths, missing = log_paths(args.logs)
    for m in missing:
        print(f"dealerbox audit: {m}: no such file or folder; skipped", file=sys.stderr)
    if not paths:
        print("dealerbox audit: no logs to audit (give log files or folders holding *.jsonl logs)", file=sys.stderr)
        return 2
    out = Path(args.out)
    started = time.perf_counter()
    if args.floor_key:
        from ..config import ConfigError
        from ..record.sealing import load_floor_private
        try:
            load_floor_private(args.floor_key)   # a bad key is one line here, not one per log
        except ConfigError as e:
            print(f"dealerbox audit: --floor-key: {e}", file=sys.stderr)
            return 2
    logs = audit_room(paths, args.jobs or None, floor_key=args.floor_key)
    room = Room.of(logs)
    try:
        out.mkdir(parents=True, exist_ok=True)
        (out / "audit.html").write_text(html_page(room), encoding="utf-8")
        write_csv(room, out)
    except OSError as e:
        print(f"dealerbox audit: cannot write the report in {out}: {e.strerror or e}", file=sys.stderr)
        return 2
    took = time.perf_counter() - started
    for log in room.damaged:
        print(f"dealerbox audit: {log.path}: {log.status}: {log.first_bad or log.error or log.verdict}",
              file=sys.stderr)
    print(f"dealerbox audit: {len(logs)} logs, {room.hands} hands, {sum(room.by_rule.values())} findings "
          f"({room.by_severity.get('floor', 0)} floor) in {took:.1f} s -> {out / 'audit.html'}", file=sys.stderr)
    return 1 if room.damaged or missing else 0
