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
from typing import Any

from ..history.audit import Room, audit_room, log_paths
from ..history.fastlog import log_bytes
from ..history.report import html_page, write_csv
from .inputs import counted, scenario_without_steps
from .options import PASSWORD_ENV, add_out_dir, required_out_dir
from .progress import progress


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("logs", nargs="+", metavar="DIR_OR_LOG", help="log files (first parts) or folders of logs")
    add_out_dir(parser, "folder for audit.html and the CSV files (required)")
    parser.add_argument("--jobs", type=int, default=0, metavar="N", help="worker processes (default: every core)")
    parser.add_argument("--anchors", metavar="FILE", help="signed heads from a file (e.g. the dashboard's anchors "
                                                          "export): logs anchored that were not handed in, and "
                                                          "hands two logs both hold, are reported; the output says "
                                                          "the heads came from this file, not from the floor")
    parser.add_argument("--from-floor", metavar="URL", help="the same, read from the dashboard (--floor-user)")
    parser.add_argument("--floor-user", metavar="NAME", default="", help="the dashboard user for --from-floor")
    parser.add_argument("--floor-password-file", metavar="FILE", default="",
                        help=f"the user's password (default: the {PASSWORD_ENV} environment variable)")
    parser.add_argument("--floor-key", metavar="FILE", default="",
                        help="the floor's private key: sealed logs replay from their raw records (exact), not from "
                             "their public events (docs/security.md)")


def run(args: argparse.Namespace) -> int:
    folder = required_out_dir(args, "audit", "audit.html and the CSV files")
    if folder is None:
        return 2
    paths, missing = log_paths(args.logs)
    for m in missing:
        print(f"dealerbox audit: {m}: no such file or folder; skipped", file=sys.stderr)
    for path in list(paths):
        empty = scenario_without_steps(path)
        if empty:   # a scenario with no steps cannot be run (as replay says): not a log of "0 hands"
            print(f"dealerbox audit: {empty}; skipped", file=sys.stderr)
            paths.remove(path)
            missing.append(path)
    if not paths:
        print("dealerbox audit: no logs to audit (give log files or folders holding *.jsonl logs)", file=sys.stderr)
        return 2
    out = Path(folder)
    started = time.perf_counter()
    if args.floor_key:
        from ..config import ConfigError
        from ..record.sealing import load_floor_private
        try:
            load_floor_private(args.floor_key)   # a bad key is one line here, not one per log
        except ConfigError as e:
            print(f"dealerbox audit: --floor-key: {e}", file=sys.stderr)
            return 2
    try:   # the anchors are read (and the floor asked) before the work: a bad file stops here, not after it
        anchors = _anchors(args, paths)
    except ValueError as e:     # AnchorError: the floor or the file could not be read; named in the message
        print(f"dealerbox audit: {e}", file=sys.stderr)
        return 2
    with progress(sum(log_bytes(p) for p in paths), "B", "audit") as bar:
        logs = audit_room(paths, args.jobs or None, progress=lambda log: bar.update(log_bytes(log.path)),
                          floor_key=args.floor_key)
    room = Room.of(logs)
    try:
        out.mkdir(parents=True, exist_ok=True)
        (out / "audit.html").write_text(html_page(room), encoding="utf-8")
        write_csv(room, out)
    except OSError as e:
        print(f"dealerbox audit: cannot write the report in {out}: {e.strerror or e}", file=sys.stderr)
        return 2
    try:
        unhanded = _not_handed_in(args, anchors, paths, out) if anchors is not None else 0
    except OSError as e:
        print(f"dealerbox audit: cannot write the report in {out}: {e.strerror or e}", file=sys.stderr)
        return 2
    took = time.perf_counter() - started
    for log in room.damaged:
        detail = log.first_bad or log.error or log.verdict
        if detail.startswith(str(log.path)):   # the reader's message names the file already: once is enough
            detail = detail[len(str(log.path)):].lstrip(": ")
        print(f"dealerbox audit: {log.path}: {log.status}: {detail}",
              file=sys.stderr)
    print(f"dealerbox audit: {counted(len(logs), 'log')}, {counted(room.hands, 'hand')}, "
          f"{counted(sum(room.by_rule.values()), 'finding')} "
          f"({room.by_severity.get('floor', 0)} floor) in {took:.1f} s -> {out / 'audit.html'}", file=sys.stderr)
    return 1 if room.damaged or missing or unhanded else 0


def _anchors(args: argparse.Namespace, paths: list[str]) -> list[dict[str, Any]] | None:
    """The signed heads of ``--anchors FILE`` and ``--from-floor URL`` (None when neither was given); raises
    AnchorError naming the file or the floor when they cannot be read."""
    if not (getattr(args, "anchors", None) or getattr(args, "from_floor", None)):
        return None
    from ..record.anchor import log_identity
    from .verify import _password, floor_anchors, read_anchors
    anchors = read_anchors(args.anchors) if args.anchors else []
    if args.from_floor:
        password = _password(args)
        for site in sorted({i[0] for i in map(log_identity, paths) if i is not None}):
            anchors += floor_anchors(paths[0], args.from_floor, args.floor_user, password, site + "/")
    return anchors


def _not_handed_in(args: argparse.Namespace, anchors: list[dict[str, Any]], paths: list[str], out: Path) -> int:
    """What the anchors say of the room: logs the floor anchored that nobody handed in (``not-handed-in.csv``)
    and hands or places one table's logs contradict each other on (``hand-conflicts.csv``), one line each, after
    a line saying where the anchors came from (a file given here is not the floor's word); how many."""
    import csv

    from ..record.anchor import CONFLICT_FIELDS, hand_conflicts, log_identity, missing_logs
    from .verify import anchors_source
    ids = {i for i in map(log_identity, paths) if i is not None}
    print(f"dealerbox audit: {len(anchors)} signed heads {anchors_source(args.anchors, args.from_floor)[1:-1]}",
          file=sys.stderr)
    gone = missing_logs(anchors, {(i[0], i[1], i[2]) for i in ids})
    for row in gone:
        print(f"dealerbox audit: the floor anchored {row['site']}/{row['table']}'s log {row['seq']} (id {row['log']}, "
              f"{row['heads']} signed heads, {row['first_at']} .. {row['last_at']}) but it was not handed in",
              file=sys.stderr)
    conflicts = hand_conflicts(anchors)
    for c in conflicts:
        print(f"dealerbox audit: {c.text()}", file=sys.stderr)
    with open(out / "not-handed-in.csv", "w", newline="", encoding="utf-8") as f:
        writer = csv.DictWriter(f, ["site", "table", "log", "seq", "heads", "first_at", "last_at"])
        writer.writeheader()
        writer.writerows(gone)
    with open(out / "hand-conflicts.csv", "w", newline="", encoding="utf-8") as f:
        writer = csv.DictWriter(f, list(CONFLICT_FIELDS))
        writer.writeheader()
        writer.writerows(c.row() for c in conflicts)
    return len(gone) + len(conflicts)
