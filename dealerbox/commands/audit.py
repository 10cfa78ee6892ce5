"""``dealerbox audit DIR_OR_LOGS... --out-dir DIR``: verify and replay a room's logs in parallel, then report.

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
from ..history.fastlog import log_bytes
from ..history.report import html_page, write_csv
from .options import add_out_dir, required_out_dir
from .progress import progress


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("logs", nargs="+", metavar="DIR_OR_LOG", help="log files (first parts) or folders of logs")
    add_out_dir(parser, "folder for audit.html and the CSV files (required)")
    parser.add_argument("--jobs", type=int, default=0, metavar="N", help="worker processes (default: every core)")


def run(args: argparse.Namespace) -> int:
    folder = required_out_dir(args, "audit")
    if folder is None:
        return 2
    paths, missing = log_paths(args.logs)
    for m in missing:
        print(f"dealerbox audit: {m}: no such file or folder; skipped", file=sys.stderr)
    if not paths:
        print("dealerbox audit: no logs to audit (give log files or folders holding *.jsonl logs)", file=sys.stderr)
        return 2
    out = Path(folder)
    started = time.perf_counter()
    with progress(sum(log_bytes(p) for p in paths), "B", "audit") as bar:
        logs = audit_room(paths, args.jobs or None, progress=lambda log: bar.update(log_bytes(log.path)))
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
