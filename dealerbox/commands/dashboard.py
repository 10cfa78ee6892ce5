"""``dealerbox dashboard``: the floor's web dashboard (needs ``pip install 'dealerbox[floor]'``).

    dealerbox dashboard add-user alice --role admin            # asks for the password (or --password-file)
    dealerbox dashboard serve --host 10.0.0.5 --site demo --listen 0.0.0.0:8080 --db sqlite:///floor.db
    dealerbox dashboard anchors --site demo --table T01 --out T01-anchors.jsonl   # for verify --anchors
"""

from __future__ import annotations

import argparse
import getpass
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from ..sinks.floor.contract import check_name
from .broker_options import add_broker_arguments, tool_username

if TYPE_CHECKING:
    from ..dashboard.store import Store
    from ..tournament.floor import TournamentFloor

DEFAULT_DB = "sqlite:///dealerbox-floor.db"


def _serve_arguments(parser: argparse.ArgumentParser, default: object = None) -> None:
    """What serving needs; on ``serve`` again with ``default=SUPPRESS``, so a value given before it stands."""
    def d(value: object) -> object:
        return value if default is None else default
    parser.add_argument("--site", default=d(None),
                        help="site to watch; '+' for every site (default: table.site from the config)")
    add_broker_arguments(parser, "the dashboard's", default, tool="dashboard")
    parser.add_argument("--alerts-username", default=d(None), metavar="USER",
                        help="the broker user of the dashboard's second connection, which takes only the alerts so "
                             "none waits behind a start's states (default: the --username with -alerts, e.g. "
                             "floor-dashboard-1-alerts in docs/mosquitto/acl)")
    parser.add_argument("--alerts-password-file", default=d(None), metavar="FILE",
                        help="its password's file (default: --password-file)")
    parser.add_argument("--alerts-cert-file", default=d(None), metavar="FILE",
                        help="its own client certificate, where the broker takes the username from the certificate "
                             "(without one, a dashboard with --cert-file takes alerts on its one connection)")
    parser.add_argument("--alerts-key-file", default=d(None), metavar="FILE", help="that certificate's private key")
    parser.add_argument("--one-connection", action="store_true", default=d(False),
                        help="take the alerts on the main connection too (no alert user on the broker)")
    parser.add_argument("--listen", default=d(None), metavar="ADDR:PORT",
                        help="where to serve HTTP (default 127.0.0.1:8080; demo: 8080, or a free port if it is taken)")
    parser.add_argument("--trust-proxy", action="append", default=d([]), metavar="ADDR",
                        help="a TLS reverse proxy (address or network) whose X-Forwarded-Proto and -For are believed: "
                             "cookies are then marked Secure and sign-ins limited per real client (repeatable)")
    _db_argument(parser, default)
    parser.add_argument("--escalate-after", type=float, default=d(60.0), metavar="SECONDS",
                        help="escalate a floor alert nobody acknowledged within this long (default 60)")
    parser.add_argument("--name", default=d("dashboard"), help="this dashboard's name in the commands it sends")
    parser.add_argument("--share", default=d(None), metavar="GROUP",
                        help="one of several instances behind one address, sharing the tables' alerts and events "
                             "(an MQTT 5 shared subscription) and one --db")
    parser.add_argument("--tournament", "-t", action="append", default=d([]), metavar="FILE",
                        help="run this tournament's director (clock, balancing, breaking) in the dashboard, for "
                             "the tables of --site (repeatable: one file per tournament)")


def _db_argument(parser: argparse.ArgumentParser, default: object = None) -> None:
    parser.add_argument("--db", default=DEFAULT_DB if default is None else default, metavar="URL",
                        help=f"SQLAlchemy URL: sqlite:///FILE (default {DEFAULT_DB}) or postgresql+psycopg://...")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """``dealerbox dashboard [serve options]`` serves (as before the actions were subcommands); each action is
    a subcommand with its own options and --help."""
    _serve_arguments(parser)
    sub = parser.add_subparsers(dest="action", metavar="ACTION")
    parser.set_defaults(action="serve")
    keep = argparse.SUPPRESS   # an option repeated on a subcommand keeps the value given before it
    serve = sub.add_parser("serve", help="serve the dashboard (the default action)",
                           description="Serve the floor dashboard: subscribe to the floor topics, serve browsers.")
    _serve_arguments(serve, keep)
    add = sub.add_parser("add-user", help="add a user or change a user's role and password",
                         description="Add a dashboard user, or change one's role and password.")
    add.add_argument("user", metavar="NAME", help="the user's name")
    add.add_argument("--role", default="admin", choices=("viewer", "supervisor", "admin"),
                     help="the user's role (default admin, for the first one)")
    # its own dest: the broker's --password-file given before the action is never the new user's password
    add.add_argument("--password-file", dest="user_password_file", metavar="FILE",
                     help="file whose first line is the new user's password (default: asked on the terminal)")
    _db_argument(add, keep)
    demo = sub.add_parser("demo", help="a local broker, simulated tables and the dashboard in one go",
                          description="Start a local mosquitto, simulated tables publishing to it and the dashboard.")
    demo.add_argument("--tables", type=int, default=4, help="how many simulated tables (default 4)")
    demo.add_argument("--speed", type=float, default=10.0, help="the simulated dealers' pace (default 10)")
    demo.add_argument("--listen", default=keep, metavar="ADDR:PORT", help="where to serve HTTP")
    anchors = sub.add_parser("anchors", help="the signed log heads the dashboard kept, as `verify --anchors` reads",
                             description="Export the signed log heads the dashboard kept (JSON Lines).")
    anchors.add_argument("--site", default=keep, help="only this site's heads ('+' or omitted: every site)")
    anchors.add_argument("--table", help="only this table's heads (default: every table of --site)")
    anchors.add_argument("--out", "-o", metavar="FILE", help="write to FILE instead of standard output")
    _db_argument(anchors, keep)


def _first_line(path: str, option: str = "--password-file") -> str:
    try:
        return Path(path).read_text(encoding="utf-8").splitlines()[0]
    except (OSError, IndexError) as e:
        raise ValueError(f"{option} {path}: cannot read a first line ({e})") from None


def run(args: argparse.Namespace) -> int:
    try:
        from ..dashboard import auth
        from ..dashboard.store import Store
    except ImportError as e:
        print(f"dealerbox dashboard: {e.name} is missing: pip install 'dealerbox[floor]'", file=sys.stderr)
        return 2
    if args.action == "demo":
        from ..dashboard.demo import run_demo
        port = args.listen.rpartition(":")[2] if args.listen else ""
        if args.listen and not port.isdigit():
            print(f"dealerbox dashboard demo: --listen {args.listen!r}: use ADDR:PORT, e.g. 127.0.0.1:8080",
                  file=sys.stderr)
            return 2
        return run_demo(args.tables, int(port) if port else None, args.speed)
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
            if not args.user_password_file and not sys.stdin.isatty():   # getpass would fail with EOFError
                raise ValueError("add-user: no terminal to ask the password on: pass --password-file FILE")
            password = (_first_line(args.user_password_file) if args.user_password_file
                        else getpass.getpass("password: "))
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

    from ..dashboard import auth
    from ..dashboard.app import create_app
    from ..dashboard.service import Dashboard
    from ..dashboard.subscriber import BrokerSettings, share_the_lock_often

    fc = args.cfg.floor
    try:
        site = args.site or args.cfg.table.site
        if site != "+":
            check_name("--site", site)
        if args.share:
            check_name("--share", args.share)   # one topic level: no / + or #
            if not args.username:   # two instances on the default user would be one client, knocking each other off
                raise ValueError("--share: give each instance its own --username (floor-dashboard-1, "
                                 "floor-dashboard-2 in docs/mosquitto/acl)")
        listen = args.listen or "127.0.0.1:8080"
        addr, _, port = listen.rpartition(":")
        if not addr or not port.isdigit():
            raise ValueError(f"--listen {listen!r}: use ADDR:PORT, e.g. 127.0.0.1:8080")
        proxies = auth.Proxies.parse(args.trust_proxy)
        password = _first_line(args.password_file) if args.password_file else None
        alerts_password = (_first_line(args.alerts_password_file, "--alerts-password-file")
                           if args.alerts_password_file else None)
    except ValueError as e:
        print(f"dealerbox dashboard: {e}", file=sys.stderr)
        return 2
    try:
        floors = hosted_tournaments(args.tournament, site if site != "+" else args.cfg.table.site, args.name)
    except (ValueError, OSError) as e:       # TournamentConfigError names the file and the field
        print(f"dealerbox dashboard: {e}", file=sys.stderr)
        return 2
    broker = BrokerSettings(args.host or fc.host, args.port or fc.port, site, tool_username(args, "dashboard"),
                            password, args.tls,
                            args.ca_file, args.cert_file, args.key_file, share=args.share,
                            alerts_apart=not args.one_connection, alerts_username=args.alerts_username,
                            alerts_password=alerts_password, alerts_cert_file=args.alerts_cert_file,
                            alerts_key_file=args.alerts_key_file)
    dash = Dashboard(store, broker, escalate_after=args.escalate_after, name=args.name, tournaments=floors)
    if not store.user_names():
        print("dealerbox dashboard: no users yet: run `dealerbox dashboard add-user NAME --db ...` first",
              file=sys.stderr)
        return 2
    print(f"dealerbox dashboard on http://{addr}:{port}/ watching dealerbox/{site}/+ on {broker.host}:{broker.port}",
          flush=True)
    share_the_lock_often()
    # proxy_headers off: only --trust-proxy decides whose X-Forwarded-* headers count (uvicorn trusts 127.0.0.1)
    uvicorn.run(create_app(dash, proxies=proxies), host=addr, port=int(port), log_level="warning",
                timeout_graceful_shutdown=2, proxy_headers=False)
    return 0
