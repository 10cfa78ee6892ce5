"""The broker's options (host, port, user, password file) and its TLS options, spelled the same way by every
command that talks to the floor broker (floor, dashboard, tournament). Omitted, each falls back to the
config's ``[floor]`` setting of the same name."""

from __future__ import annotations

import argparse
from typing import Any


def add_tls_arguments(parser: argparse.ArgumentParser, default: Any = None) -> None:
    """--tls with the CA, client certificate and key files (the floor link's settings when omitted)."""
    parser.add_argument("--tls", action="store_true", default=default if default is not None else False,
                        help="connect with TLS (use --ca-file, --cert-file, --key-file; default: floor.tls)")
    parser.add_argument("--ca-file", default=default, metavar="FILE",
                        help="the CA certificate (default: floor.ca_file)")
    parser.add_argument("--cert-file", default=default, metavar="FILE",
                        help="this client's certificate (default: floor.cert_file)")
    parser.add_argument("--key-file", default=default, metavar="FILE", help="its private key (default: floor.key_file)")


# Each floor tool's own broker user (docs/mosquitto/acl): under use_username_as_clientid one user is one client
# id, so two tools on one account knock each other off the broker. --username still picks another.
TOOL_USERS = {"floor": "floor-console", "tournament": "floor-director", "dashboard": "floor-dashboard-1"}


def add_broker_arguments(parser: argparse.ArgumentParser, user: str, default: Any = None, tool: str = "") -> None:
    """--host, --port, --username, --password-file and the TLS options. ``user`` says whose broker user it is
    (e.g. "the floor's"); ``tool`` names the command whose own user (TOOL_USERS) the help gives as the
    default; ``default=argparse.SUPPRESS`` for a subcommand that repeats its parent's options."""
    parser.add_argument("--host", default=default, help="broker host (default: floor.host)")
    parser.add_argument("--port", type=int, default=default, help="broker port (default: floor.port)")
    own = f" (default: {TOOL_USERS[tool]}, this tool's own in docs/mosquitto/acl)" if tool else ""
    parser.add_argument("--username", default=default, help=f"{user} broker user, not a table's{own}")
    parser.add_argument("--password-file", default=default, metavar="FILE",
                        help=f"file whose first line is {user} broker password")
    add_tls_arguments(parser, default)


def tls_settings(args: argparse.Namespace, floor: Any) -> tuple[bool, str, str, str]:
    """(tls, ca_file, cert_file, key_file): the options given, else the config's ``[floor]`` values."""
    return (bool(args.tls or floor.tls), args.ca_file or floor.ca_file, args.cert_file or floor.cert_file,
            args.key_file or floor.key_file)


def tool_username(args: argparse.Namespace, tool: str) -> str:
    """--username if given, else the tool's own broker user."""
    return getattr(args, "username", None) or TOOL_USERS[tool]
