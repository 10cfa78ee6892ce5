"""Output options spelled one way by every command (CONTRIBUTING.md, "The command line"): ``--out FILE`` is
always a file, ``--out-dir DIR`` always a folder. The broker and TLS options are in broker_options.py."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

# the dashboard password of --floor-user, when no --floor-password-file is given (verify and audit read it)
PASSWORD_ENV = "DEALERBOX_FLOOR_PASSWORD"


def add_out_dir(parser: argparse.ArgumentParser, help_text: str) -> None:
    """``--out-dir DIR``; the old ``--out DIR`` spelling of this command is still read (hidden), so scripts
    written before the convention keep working."""
    parser.add_argument("--out-dir", dest="out_dir", metavar="DIR", help=help_text)
    parser.add_argument("--out", dest="out_dir", metavar="DIR", help=argparse.SUPPRESS)


def required_out_dir(args: argparse.Namespace, command: str, what: str = "its files") -> str | None:
    """The folder asked for; None after one line on stderr when it was not given."""
    if not args.out_dir:
        print(f"dealerbox {command}: --out-dir DIR is required: the folder to write into", file=sys.stderr)
        return None
    if Path(args.out_dir).exists() and not Path(args.out_dir).is_dir():   # before any work, not after it
        print(f"dealerbox {command}: --out-dir {args.out_dir}: a file, not a folder; give a folder for {what}",
              file=sys.stderr)
        return None
    return str(args.out_dir)
