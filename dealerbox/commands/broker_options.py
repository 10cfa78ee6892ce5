"""The broker's TLS options, spelled the same way by every command that talks to the floor broker."""

from __future__ import annotations

import argparse


def add_tls_arguments(parser: argparse.ArgumentParser) -> None:
    """--tls with the CA, client certificate and key files (the floor link's settings when omitted)."""
    parser.add_argument("--tls", action="store_true", help="connect with TLS (use --ca-file, --cert-file, --key-file)")
    parser.add_argument("--ca-file")
    parser.add_argument("--cert-file")
    parser.add_argument("--key-file")
