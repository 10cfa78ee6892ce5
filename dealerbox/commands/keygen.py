"""``dealerbox keygen``: make the table's Ed25519 log-signing key pair (docs/security.md, key handling).

The private key goes to ``record.key`` (or ``--out``), created 0600 and refused inside ``record.dir``; the
public key goes beside it as ``.pub``: that is the file the floor keeps and ``dealerbox verify --pubkey`` reads.

``--floor --out FILE`` makes the floor's X25519 pair instead (record/sealing.py), on the floor: the private key
(0600) stays there and opens sealed logs (``--floor-key``); only the ``.pub`` goes to each table, as
``record.floor_public_key``.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from ..config import Config
from ..record.signing import KeyFileError, generate, key_id


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--out", metavar="FILE", help="private key file (default: record.key)")
    parser.add_argument("--force", action="store_true", help="replace an existing key (a key rotation)")
    parser.add_argument("--floor", action="store_true",
                        help="instead: make the floor's X25519 key pair that tables seal hole cards to (needs --out; "
                             "the private key stays on the floor, the .pub goes to record.floor_public_key)")
    parser.add_argument("--pin-hash", action="store_true",
                        help="instead: read a supervisor's PIN (terminal, or a line on stdin) and print the argon2 "
                             "hash to put in audit.supervisors")


def run(args: argparse.Namespace) -> int:
    config: Config = args.cfg
    if args.pin_hash:
        return _pin_hash()
    if args.out and Path(args.out).is_dir():   # not "a key is already there": the folder is no key
        print(f"dealerbox keygen: --out {args.out}: a folder; --out is the private key's file, e.g. "
              f"{Path(args.out) / 'table.key'}", file=sys.stderr)
        return 2
    if args.floor:
        return _floor_keys(args.out, args.force)
    target = args.out or config.record.key
    if not target:
        print("dealerbox keygen: no key file: set record.key in the config or pass --out FILE", file=sys.stderr)
        return 2
    path = Path(target)
    if Path(config.record.dir).resolve() in path.resolve().parents:
        print(f"dealerbox keygen: {path} is inside record.dir {config.record.dir}; keep the key out of the log "
              f"directory", file=sys.stderr)
        return 2
    try:
        public = generate(path, force=args.force)
    except (KeyFileError, OSError) as e:
        print(f"dealerbox keygen: {e}", file=sys.stderr)
        return 2
    text = public.read_text().strip()
    print(f"dealerbox keygen: private key {path} (0600), public key {public} (id {key_id(text)}); give the public "
          f"key to the floor for `dealerbox verify --pubkey`")
    return 0


def _floor_keys(out: str | None, force: bool) -> int:
    from ..record.sealing import generate_floor_keys
    if not out:
        print("dealerbox keygen: --floor needs --out FILE: where the floor keeps its private key (never on a table)",
              file=sys.stderr)
        return 2
    try:
        public = generate_floor_keys(out, force=force)
    except (KeyFileError, OSError) as e:
        print(f"dealerbox keygen: {e}", file=sys.stderr)
        return 2
    print(f"dealerbox keygen: floor private key {out} (0600, keep it on the floor: it opens every sealed log), "
          f"public key {public} (id {key_id(public.read_text().strip())}); set record.floor_public_key to a copy "
          f"of the public key on each table")
    return 0


def _pin_hash() -> int:
    from ..record.audit import hash_pin
    if sys.stdin.isatty():
        import getpass
        pin = getpass.getpass("new supervisor PIN: ")
    else:
        pin = sys.stdin.readline().strip()
    if len(pin) < 4:
        print("dealerbox keygen: a PIN needs at least 4 characters", file=sys.stderr)
        return 2
    print(hash_pin(pin))
    return 0
