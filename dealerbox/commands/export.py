"""``dealerbox export LOG... --out OUT.phhs``: every hand of recorded logs (or scenarios) as Poker Hand History.

Each log is replayed through the same decoder and engine as ``dealerbox replay``; each hand becomes one PHH
section (see docs/hand-history.md). A hand PHH cannot express (misdeal, void, a kill pot, a hand the log
ended in) is written as comments in its place, never dropped. Hole cards stay ``????`` unless
``--reveal-hole-cards``, which needs the floor's private key (``--floor-key``, the key the logs are sealed to);
a reveal is journalled and sent to the floor (commands/floor_key.py), and recorded in ``OUT.audit`` beside the
export and on stderr. A sealed log without the key is exported from its public events (record/sealing.py).

Exit codes: 0 every log exported, 1 some logs could not be read (the rest are exported), 2 nothing exported.
"""

from __future__ import annotations

import argparse
import datetime
import getpass
import sys
from pathlib import Path

from ..config import ConfigError
from ..history import phh
from ..history.fastlog import log_bytes, read_hands_fast
from ..sources import LogError
from ..tags import EnrolmentError
from .floor_key import add_floor_key, opener_for
from .inputs import counted, scenario_without_steps
from .progress import progress


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("logs", nargs="+", metavar="LOG", help="recorded logs (first parts) or scenarios (*.scn)")
    parser.add_argument("--out", "-o", dest="out", metavar="FILE", help="PHH file to write, e.g. day.phhs (required)")
    parser.add_argument("--phh", dest="out", metavar="FILE", help=argparse.SUPPRESS)   # the spelling before --out
    parser.add_argument("--reveal-hole-cards", action="store_true",
                        help="write the hole cards dealt (audit use only; needs --floor-key; journalled, sent to the "
                             "floor and recorded in OUT.audit)")
    add_floor_key(parser)


def audit_path(out: Path) -> Path:
    return out.with_name(out.name + ".audit")


def record_reveal(out: Path, logs: list[str], now: datetime.datetime | None = None) -> str:
    """Append who asked for hole cards, when, for which logs, to OUT.audit; return the line (also for stderr)."""
    now = now or datetime.datetime.now(datetime.UTC)
    try:
        user = getpass.getuser()
    except (KeyError, OSError):   # no name for this uid (a container): say so rather than guess
        user = "unknown-user"
    line = f"{now.strftime('%Y-%m-%dT%H:%M:%SZ')} hole cards revealed by {user} into {out}: {' '.join(logs)}"
    with open(audit_path(out), "a", encoding="utf-8") as f:
        f.write(line + "\n")
    return line


def _one_line(log: str, e: Exception) -> str:
    """``LOG: what is wrong``, the log named once (the readers' messages often name it already)."""
    text = str(e)
    return text if log in text else f"{log}: {text}"


def run(args: argparse.Namespace) -> int:
    if not args.out:
        print("dealerbox export: --out FILE is required: the PHH file to write (e.g. --out day.phhs)", file=sys.stderr)
        return 2
    out = Path(args.out)
    if not out.parent.is_dir():
        print(f"dealerbox export: --out {out}: the folder {out.parent} does not exist; create it or choose another",
              file=sys.stderr)
        return 2
    opener, refused = opener_for("export", args.cfg, args.floor_key, list(args.logs), args.reveal_hole_cards,
                                 f"export to {out}:")
    if refused:
        return refused
    if args.reveal_hole_cards:
        try:
            line = record_reveal(out, args.logs)
        except OSError as e:
            print(f"dealerbox export: cannot record the hole-card request in {audit_path(out)}: "
                  f"{e.strerror or e}; nothing exported", file=sys.stderr)
            return 2
        print(f"dealerbox export: {line}", file=sys.stderr)
    sections, failed, hands, other = [], 0, 0, 0
    with progress(sum(log_bytes(log) for log in args.logs), "B", "export") as bar:
        for log in args.logs:
            empty = scenario_without_steps(log)
            if empty:   # a scenario with no steps cannot be run: the same line as replay's, not "0 hands"
                print(f"dealerbox export: {empty}; skipped, the other logs are exported", file=sys.stderr)
                failed += 1
                continue
            try:   # audit verifies; the export wants the hands only
                got = read_hands_fast(log, reveal=args.reveal_hole_cards, verify=False, read=bar.update,
                                      opener=opener).hands
            except (LogError, ConfigError, EnrolmentError, OSError) as e:
                print(f"dealerbox export: {_one_line(log, e)}; skipped, the other logs are exported",
                      file=sys.stderr)
                failed += 1
                continue
            sections.append(f"# from {log}: table {got.table or '?'}, {len(got.hands)} hands")
            for hand in got.hands:
                hands += 1
                other += phh.expressible(hand) is not None
                sections.append(phh.section(hand, hands, got.created, args.reveal_hole_cards))
    if failed == len(args.logs):
        print("dealerbox export: no log could be read; nothing written", file=sys.stderr)
        return 2
    head = (f"# dealerbox export: {hands} hands, {hands - other} as PHH, {other} not expressible in PHH "
            f"(comments below); hole cards {'REVEALED' if args.reveal_hole_cards else 'hidden (????)'}")
    try:
        out.write_text(head + "\n\n" + "\n\n".join(sections) + "\n", encoding="utf-8")
    except OSError as e:
        print(f"dealerbox export: cannot write {out}: {e.strerror or e}", file=sys.stderr)
        return 2
    print(f"dealerbox export: {counted(hands, 'hand')} ({other} not expressible in PHH) from "
          f"{counted(len(args.logs) - failed, 'log')} -> {out}", file=sys.stderr)
    return 1 if failed else 0
