"""``dealerbox floor``: the reference floor view in a terminal. Shows every table's status and a live feed of
alerts for one site; type ``ack T01 h12-3``, ``refresh T01``, ``show`` or ``quit`` on standard input.

    dealerbox floor --site demo --host 10.0.0.5 --once        # print the floor as it stands and exit
    dealerbox floor --for 60 --share floorview                # watch for a minute, sharing the load
"""

from __future__ import annotations

import argparse
import sys
import threading
import time

from ..sinks.floor.contract import check_name
from ..sinks.floor.link import OutboxError
from ..sinks.floor.view import FloorView
from .broker_options import add_broker_arguments, tls_settings, tool_username

HELP = "commands: ack TABLE FINDING | refresh TABLE | show | quit"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--site", help="site to watch (default: table.site from the config)")
    parser.add_argument("--share", metavar="GROUP", help="MQTT 5 shared subscription group for alerts and events")
    parser.add_argument("--name", default="floor", help="this view's name in the commands it sends")
    parser.add_argument("--session", metavar="CLIENT_ID",
                        help="keep a persistent broker session under this client id (no alert missed while away)")
    add_broker_arguments(parser, "the floor console's", tool="floor")
    how = parser.add_mutually_exclusive_group()
    how.add_argument("--once", action="store_true", help="collect the retained status/state briefly, print, exit")
    how.add_argument("--for", dest="seconds", type=float, metavar="SECONDS", help="watch this long, then exit")
    parser.add_argument("--settle", type=float, default=1.0, help="seconds --once waits for retained messages")


def run(args: argparse.Namespace) -> int:
    fc = args.cfg.floor
    try:
        site = check_name("--site", args.site or args.cfg.table.site)
        tls, ca_file, cert_file, key_file = tls_settings(args, fc)   # the help's promise: floor.* when omitted
        view = FloorView(args.host or fc.host, args.port or fc.port, site, share=args.share, name=args.name,
                         username=tool_username(args, "floor"), password_file=args.password_file, tls=tls,
                         ca_file=ca_file, cert_file=cert_file, key_file=key_file,
                         client_id=args.session, persistent=bool(args.session),
                         on_line=None if args.once else (lambda line: print(line, flush=True)))
        view.start()
    except (ValueError, ConnectionError, OutboxError, OSError) as e:
        print(f"dealerbox floor: {e}", file=sys.stderr)
        return 2
    try:
        if args.once:
            time.sleep(max(0.0, args.settle))
            print(view.render())
            return 0
        print(f"watching dealerbox/{site}/+ on {view.host}:{view.port}; {HELP}", flush=True)
        done = threading.Event()
        threading.Thread(target=_read_commands, args=(view, done), daemon=True).start()
        done.wait(args.seconds)
        print(view.render(), flush=True)
        return 0
    finally:
        view.stop()


def _read_commands(view: FloorView, done: threading.Event) -> None:
    """One command per line from stdin; EOF or ``quit`` ends the view (unless --for keeps it running)."""
    for line in sys.stdin:
        words = line.split()
        if not words:
            continue
        try:
            if words[0] == "quit":
                break
            if words[0] == "ack" and len(words) == 3:
                view.ack(words[1], words[2])
                print(f"sent ack {words[2]} to {words[1]}", flush=True)
            elif words[0] == "refresh" and len(words) == 2:
                view.refresh(words[1])
                print(f"asked {words[1]} for a fresh state", flush=True)
            elif words[0] == "show":
                print(view.render(), flush=True)
            else:
                print(HELP, flush=True)
        except ValueError as e:
            print(f"refused: {e}", flush=True)
    else:
        if not sys.stdin.isatty():
            return  # piped input ran out: keep watching until --for ends (or Ctrl-C)
    done.set()
