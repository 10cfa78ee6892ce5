"""``dealerbox`` command line: a thin shell. Each subcommand lives in ``dealerbox/commands/<name>.py`` with
``add_arguments(parser)`` and ``run(args) -> int``; this file only wires them up.

Exit codes (CONTRIBUTING.md, "The command line"): 0 ok, 1 the command ran and found a problem (e.g.
``verify`` on a broken log), 2 it could not run (config, arguments, files, a missing extra), 130 interrupted
(Ctrl-C); every error is one line on stderr naming the file, field or port and what to do.
"""

from __future__ import annotations

import argparse
import importlib
import importlib.util
import sys
from typing import Any

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


# The optional extras (pyproject.toml) a command needs, with a module each that only that extra installs.
EXTRAS = {
    "audit": ("audit", ("pygal",)),
    "dashboard": ("floor", ("starlette", "uvicorn", "sqlalchemy", "jinja2", "itsdangerous", "multipart")),
}
# Which extra a missing top-level module belongs to, for an import that fails anywhere inside a command.
EXTRA_OF_MODULE = {"pygal": "audit", "orjson": "audit", "pyinstrument": "bench", "psutil": "bench",
                   **{m: "floor" for m in EXTRAS["dashboard"][1] + ("psycopg",)}}


def missing_extra(command: str) -> str:
    """The one line for a command whose optional extra is not installed, or ""."""
    extra, modules = EXTRAS.get(command, ("", ()))
    absent = [m for m in modules if importlib.util.find_spec(m) is None]
    return extra_line(command, extra, absent[0]) if absent else ""


def extra_line(command: str, extra: str, module: str) -> str:
    return (f"dealerbox {command}: needs the '{extra}' extra ({module} is not installed): "
            f"pip install 'dealerbox[{extra}]' (from a checkout: pip install -e '.[{extra}]')")


def version() -> str:
    from importlib.metadata import PackageNotFoundError
    from importlib.metadata import version as installed
    try:
        return installed("dealerbox")
    except PackageNotFoundError:   # run from a source tree that was never installed
        return "unknown (not installed; pip install -e .)"


class _Version(argparse.Action):
    """``--version``: the installed version, looked up only when asked (importlib.metadata reads the installed
    packages' metadata, about 50 ms of every command's start-up otherwise)."""

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace, values: object,
                 option_string: str | None = None) -> None:
        print(f"dealerbox {version()}")
        parser.exit()


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
    parser.add_argument("--version", action=_Version, nargs=0, default=argparse.SUPPRESS,
                        help="show the installed version and exit")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for name, help_text in COMMANDS.items():
        p = sub.add_parser(name, help=help_text, description=help_text)
        p.set_defaults(_module=f"dealerbox.commands.{name.replace('-', '_')}")
        # Also accepted after the subcommand; SUPPRESS keeps the one given before it when this is absent.
        p.add_argument("--config", "-c", metavar="FILE", default=argparse.SUPPRESS, help=argparse.SUPPRESS)
        if only is None or name == only:
            _module(name).add_arguments(p)
    return parser


def _module(name: str) -> Any:
    return importlib.import_module(f"dealerbox.commands.{name.replace('-', '_')}")


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    try:
        return _main(argv)
    except KeyboardInterrupt:   # Ctrl-C before the command ran: while its modules load (seconds on a busy Pi)
        print(f"dealerbox {chosen_command(argv) or ''}".rstrip() + ": interrupted", file=sys.stderr)
        return 130


def _main(argv: list[str]) -> int:
    parser = build_parser(chosen_command(argv))
    args = parser.parse_args(argv)
    problem = missing_extra(args.command)
    if problem:
        print(problem, file=sys.stderr)
        return 2
    try:
        # Loaded once here so every command gets the same validation and the same one-line error.
        args.cfg = config_file.load(args.config)
        if args.config:   # the game and its seats, configured here: no more players than one deck deals
            from .engine.variants import check_seats
            check_seats(args.cfg, args.config)
        return int(importlib.import_module(args._module).run(args))
    except ConfigError as e:
        print(f"dealerbox: {e}", file=sys.stderr)
        return 2
    except ModuleNotFoundError as e:
        extra = EXTRA_OF_MODULE.get((e.name or "").split(".")[0])
        if extra is None:
            raise   # not an optional extra: a broken install, and its traceback is the useful report
        print(extra_line(args.command, extra, e.name or "?"), file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(f"dealerbox {args.command}: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0


if __name__ == "__main__":
    sys.exit(main())
