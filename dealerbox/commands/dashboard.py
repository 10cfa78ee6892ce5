"""``dealerbox dashboard``: the floor's web dashboard (needs ``pip install 'dealerbox[floor]'``).

    dealerbox dashboard add-user alice --role admin            # asks for the password (or --password-file)
    dealerbox dashboard --host 10.0.0.5 --site demo --listen 0.0.0.0:8080 --db sqlite:///floor.db
    dealerbox dashboard anchors --site demo --table T01 --out T01-anchors.jsonl   # for verify --anchors
"""

from __future__ import annotations

import argparse
import getpass
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from ..sinks.floor.contract import check_name
from .broker_options import add_tls_arguments

if TYPE_CHECKING:
    from ..dashboard.store import Store
    from ..tournament.floor import TournamentFloor

DEFAULT_DB = "sqlite:///dealerbox-floor.db"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("action", nargs="?", default="serve", choices=("serve", "add-user", "demo", "anchors"),
                        help="serve the dashboard (default), add/change a user, demo: a local broker, "
                             "simulated tables and the dashboard in one go, or anchors: export the signed log "
                             "heads the dashboard kept (JSON Lines, the file `dealerbox verify --anchors` reads)")
    parser.add_argument("user", nargs="?", help="add-user: the user's name")
    parser.add_argument("--role", default="admin", choices=("viewer", "supervisor", "admin"),
                        help="add-user: the user's role (default admin, for the first one)")
    parser.add_argument("--site", help="site to watch; '+' for every site (default: table.site from the config)")
    parser.add_argument("--table", help="anchors: only this table's heads (default: every table of --site)")
    parser.add_argument("--out", metavar="FILE", help="anchors: write to FILE instead of standard output")
    parser.add_argument("--host", help="broker host (default: floor.host)")
    parser.add_argument("--port", type=int, help="broker port (default: floor.port)")
    parser.add_argument("--username", help="the dashboard's broker user (not a table's)")
    parser.add_argument("--password-file", help="add-user: the new user's password; serve: the broker password")
    add_tls_arguments(parser)
    parser.add_argument("--listen", default="127.0.0.1:8080", metavar="ADDR:PORT", help="where to serve HTTP")
    parser.add_argument("--db", default=DEFAULT_DB, metavar="URL",
                        help=f"SQLAlchemy URL: sqlite:///FILE (default {DEFAULT_DB}) or postgresql+psycopg://...")
    parser.add_argument("--escalate-after", type=float, default=60.0, metavar="SECONDS",
                        help="escalate a floor alert nobody acknowledged within this long (default 60)")
    parser.add_argument("--tables", type=int, default=4, help="demo: how many simulated tables")
    parser.add_argument("--speed", type=float, default=10.0, help="demo: the simulated dealers' pace")
    parser.add_argument("--name", default="dashboard", help="this dashboard's name in the commands it sends")
    parser.add_argument("--share", metavar="GROUP", help="serve: one of several instances behind one address, "
                        "sharing the tables' alerts and events (an MQTT 5 shared subscription) and one --db")
    parser.add_argument("--tournament", "-t", action="append", default=[], metavar="FILE",
                        help="run this tournament's director (clock, balancing, breaking) in the dashboard, for "
                             "the tables of --site (repeatable: one file per tournament)")


def _first_line(path: str) -> str:
    try:
        return Path(path).read_text(encoding="utf-8").splitlines()[0]
    except (OSError, IndexError) as e:
        raise ValueError(f"--password-file {path}: cannot read a first line ({e})") from None


def run(args: argparse.Namespace) -> int:
    try:
        from ..dashboard import auth
        from ..dashboard.store import Store
    except ImportError as e:
        print(f"dealerbox dashboard: {e.name} is missing: pip install 'dealerbox[floor]'", file=sys.stderr)
        return 2
    if args.action == "demo":
        from ..dashboard.demo import run_demo
        addr, _, port = args.listen.rpartition(":")
        return run_demo(args.tables, int(port) if port.isdigit() else 8080, args.speed)
    try:
        store = Store(args.db)
    except Exception as e:
        print(f"dealerbox dashboard: cannot open --db {args.db}: {e}", file=sys.stderr)
        return 2
    if args.action == "add-user":
        try:
            if not args.user:
                raise ValueError("add-user: give the user's name")
            check_name("user name", args.user)
            password = _first_line(args.password_file) if args.password_file else getpass.getpass("password: ")
            store.put_user(args.user, args.role, auth.hash_password(password))
        except ValueError as e:
            print(f"dealerbox dashboard: {e}", file=sys.stderr)
            return 2
        print(f"user {args.user} ({args.role}) saved in {args.db}")
        return 0
    if args.action == "anchors":
        return _export_anchors(args, store)
    return _serve(args, store)


def _export_anchors(args: argparse.Namespace, store: Store) -> int:
    """One signed head a line, oldest first, exactly as the table published it."""
    import json
    site = None if args.site in (None, "+") else args.site
    lines = "".join(json.dumps(a, sort_keys=True) + "\n" for a in store.anchors(site, args.table))
    if args.out:
        try:
            Path(args.out).write_text(lines, encoding="utf-8")
        except OSError as e:
            print(f"dealerbox dashboard: --out {args.out}: {e.strerror or e}", file=sys.stderr)
            return 2
        print(f"{lines.count(chr(10))} anchors written to {args.out}")
    else:
        sys.stdout.write(lines)
    return 0


def hosted_tournaments(files: list[str], site: str, name: str) -> list[TournamentFloor]:
    """A director for each tournament file, its clock at level 1 (or where the retained clock says, once
    connected). ValueError (the file and field) for a broken file or the same tournament twice."""
    import time
    import uuid

    from ..tournament import config as tournament_config
    from ..tournament.floor import Director, TournamentFloor
    from .tournament import starting_clock

    floors: list[TournamentFloor] = []
    for path in files:
        t = tournament_config.load(path)
        if any(f.id == t.id for f in floors):
            raise ValueError(f"--tournament {path}: tournament {t.id} is given twice")
        floors.append(TournamentFloor(Director(t, check_name("--site", site), uuid.uuid4().hex, name=name),
                                      starting_clock(t, time.time())))
    return floors


def _serve(args: argparse.Namespace, store: Store) -> int:
    import uvicorn

    from ..dashboard.app import create_app
    from ..dashboard.service import BrokerSettings, Dashboard

    fc = args.cfg.floor
    try:
        site = args.site or args.cfg.table.site
        if site != "+":
            check_name("--site", site)
        if args.share:
            check_name("--share", args.share)   # one topic level: no / + or #
        addr, _, port = args.listen.rpartition(":")
        if not addr or not port.isdigit():
            raise ValueError(f"--listen {args.listen!r}: use ADDR:PORT, e.g. 127.0.0.1:8080")
        password = _first_line(args.password_file) if args.password_file else None
    except ValueError as e:
        print(f"dealerbox dashboard: {e}", file=sys.stderr)
        return 2
    try:
        floors = hosted_tournaments(args.tournament, site if site != "+" else args.cfg.table.site, args.name)
    except (ValueError, OSError) as e:       # TournamentConfigError names the file and the field
        print(f"dealerbox dashboard: {e}", file=sys.stderr)
        return 2
    broker = BrokerSettings(args.host or fc.host, args.port or fc.port, site, args.username, password, args.tls,
                            args.ca_file, args.cert_file, args.key_file, share=args.share)
    dash = Dashboard(store, broker, escalate_after=args.escalate_after, name=args.name, tournaments=floors)
    if not store.user_names():
        print("dealerbox dashboard: no users yet: run `dealerbox dashboard add-user NAME --db ...` first",
              file=sys.stderr)
        return 2
    print(f"dealerbox dashboard on http://{addr}:{port}/ watching dealerbox/{site}/+ on {broker.host}:{broker.port}",
          flush=True)
    uvicorn.run(create_app(dash), host=addr, port=int(port), log_level="warning", timeout_graceful_shutdown=2)
    return 0
