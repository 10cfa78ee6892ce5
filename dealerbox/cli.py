"""``dealerbox`` command line: a thin shell. Each subcommand lives in ``dealerbox/commands/<name>.py`` with
``add_arguments(parser)`` and ``run(args) -> int``; this file only wires them up.

Exit codes: 0 fine, 1 the command ran and found a problem (e.g. ``verify`` on a broken log), 2 bad input
(config, arguments, files), with one clear line on stderr.
"""

from __future__ import annotations

import argparse
import importlib
import sys

from . import config as config_file
from .config import ConfigError

COMMANDS = {
    "run": "the dealer terminal (simulator when no board is attached, headless when there is no display)",
    "replay": "replay a recorded log or a scenario through the decoder and engine",
    "record": "record the reader board's stream to a tamper-evident log",
    "verify": "check that a recorded log is intact (hash chain unbroken)",
    "simulate": "play simulated hands and write them as a recorded log",
    "enrol": "enrol a deck or register chips from a live reader or a recorded log",
    "rules": "list the rulings the engine implements",
    "screenshot": "render the screen after step N of a scenario to a PNG",
    "floor": "the reference floor view: every table's status and live alerts",
    "doctor": "check the floor identity (what it may and may not publish), memory, disk, logs and outbox",
    "keygen": "make the table's log-signing key pair (private key 0600, outside the log directory)",
    "dashboard": "the floor web dashboard: table map, alert queue, history (pip install dealerbox[floor])",
    "export": "write every hand of recorded logs as Poker Hand History (PHH)",
    "audit": "verify and replay a room's logs in parallel: findings per rule, table, hour; HTML and CSV",
    "tournament": "the floor's tournament director: balance and break tables, run the clock",
}


def chosen_command(argv: list[str]) -> str | None:
    """The subcommand named in ``argv`` (the value of --config/-c is not one), or None."""
    skip = False
    for arg in argv:
        if skip:
            skip = False
        elif arg in ("--config", "-c"):
            skip = True
        elif arg in COMMANDS:
            return arg
    return None


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """Every subcommand is listed; with ``only``, just that one's module is imported for its arguments, so a
    terminal does not pay for the simulator's referee, the floor client or the signing library it never uses."""
    parser = argparse.ArgumentParser(prog="dealerbox", description="Dealer terminal for a live poker table.")
    parser.add_argument("--config", "-c", metavar="FILE", help="TOML configuration (default: built-in demo)")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for name, help_text in COMMANDS.items():
        p = sub.add_parser(name, help=help_text, description=help_text)
        p.set_defaults(_module=f"dealerbox.commands.{name.replace('-', '_')}")
        # Also accepted after the subcommand; SUPPRESS keeps the one given before it when this is absent.
        p.add_argument("--config", "-c", metavar="FILE", default=argparse.SUPPRESS, help=argparse.SUPPRESS)
        if only is None or name == only:
            _module(name).add_arguments(p)
    return parser


def _module(name: str):
    return importlib.import_module(f"dealerbox.commands.{name.replace('-', '_')}")


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    parser = build_parser(chosen_command(argv))
    args = parser.parse_args(argv)
    try:
        # Loaded once here so every command gets the same validation and the same one-line error.
        args.cfg = config_file.load(args.config)
        return importlib.import_module(args._module).run(args)
    except ConfigError as e:
        print(f"dealerbox: {e}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 0


if __name__ == "__main__":
    sys.exit(main())
