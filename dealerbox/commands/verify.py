"""``dealerbox verify LOG``: is a recorded log intact? Exit 0 intact, 1 broken or incomplete, 2 unreadable."""

from __future__ import annotations

import argparse
import sys

from ..record.verify import verify_log

SHOW_PROBLEMS = 10


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("log", metavar="LOG", help="the recorded log (its first part; later parts are followed)")


def run(args: argparse.Namespace) -> int:
    try:
        report = verify_log(args.log)
    except FileNotFoundError:
        print(f"dealerbox verify: no such log: {args.log}", file=sys.stderr)
        return 2
    except OSError as e:
        print(f"dealerbox verify: cannot read {args.log}: {e.strerror or e}", file=sys.stderr)
        return 2
    print(report.summary())
    for problem in report.problems[1:SHOW_PROBLEMS]:
        print(f"  also: {problem}")
    if len(report.problems) > SHOW_PROBLEMS:
        print(f"  ... and {len(report.problems) - SHOW_PROBLEMS} more")
    return 0 if report.intact else 1
