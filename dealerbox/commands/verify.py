"""``dealerbox verify LOG``: is a recorded log intact? Exit 0 intact, 1 broken or incomplete, 2 unreadable.

With ``--pubkey`` the table's signatures are checked too (an unsigned or re-hashed log fails); with
``--anchors FILE`` (JSON Lines or a JSON list of signed heads, as the floor stores them) or ``--from-floor
HOST:PORT`` (the table's retained anchor topic) the log must also still hold every anchored head.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from ..config import Config
from ..record.signing import KeyFileError, load_public
from ..record.verify import verify_log

SHOW_PROBLEMS = 10


class AnchorError(ValueError):
    """Anchors that cannot be read; the message names the file or broker."""


def not_a_log(path: str, look: int = 1 << 16) -> str:
    """Why ``path`` holds no log at all (empty, no complete line, or not one JSON record in its first 64 KiB),
    or "" (a missing file, or a log to verify, however damaged: verify_log says how)."""
    try:
        with open(path, "rb") as fh:
            head = fh.read(look)
    except OSError:
        return ""
    if not head:
        return "empty file"
    lines = head.split(b"\n")[:-1]
    if not lines:
        return "no complete line (no newline)"
    for raw in lines:
        try:
            if isinstance(json.loads(raw), dict):
                return ""
        except ValueError:
            continue
    return "no line is a log record (binary or other data)"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("log", metavar="LOG", help="the recorded log (its first part; later parts are followed)")
    parser.add_argument("--pubkey", metavar="FILE", help="the table's public key (from dealerbox keygen)")
    parser.add_argument("--anchors", metavar="FILE", help="signed heads kept off the table (JSON Lines or list)")
    parser.add_argument("--from-floor", metavar="HOST:PORT",
                        help="read the table's latest anchor from the floor broker (floor.* credentials)")


def run(args: argparse.Namespace) -> int:
    try:
        pubkey = load_public(args.pubkey) if args.pubkey else ""
        anchors = read_anchors(args.anchors) if args.anchors else []
        if args.from_floor:
            anchors += floor_anchors(args.cfg, args.from_floor)
    except (KeyFileError, AnchorError) as e:
        print(f"dealerbox verify: {e}", file=sys.stderr)
        return 2
    if anchors and not pubkey:
        print("dealerbox verify: anchors need --pubkey (an anchor proves nothing without the key that signed it)",
              file=sys.stderr)
        return 2
    junk = not_a_log(args.log)
    if junk:   # nothing in it was ever a log: no chain to call intact or broken
        print(f"dealerbox verify: {args.log}: {junk}; not a dealerbox log, nothing to verify", file=sys.stderr)
        return 2
    try:
        report = verify_log(args.log, pubkey=pubkey, anchors=anchors)
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


def read_anchors(path: str) -> list[dict[str, Any]]:
    """Anchors from a file: one JSON object a line, or one JSON list (the dashboard's export)."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as e:
        raise AnchorError(f"{path}: cannot read the anchors ({getattr(e, 'strerror', None) or e})") from None
    try:
        data = json.loads(text) if text.lstrip().startswith("[") else \
            [json.loads(line) for line in text.splitlines() if line.strip()]
    except ValueError as e:
        raise AnchorError(f"{path}: not JSON anchors ({e})") from None
    for i, a in enumerate(data, 1):
        if not isinstance(a, dict) or not {"part", "n", "head"} <= a.keys():
            raise AnchorError(f"{path}: anchor {i}: needs part, n and head")
    return data


def floor_anchors(config: Config, where: str, timeout_s: float = 5.0) -> list[dict[str, Any]]:
    """The retained anchor of this table from the floor broker (topic in docs/floor-topics.md)."""
    import threading

    from ..record.anchor import anchor_errors, anchor_topic
    from ..record.audit import floor_client
    host, _, port = where.rpartition(":")
    if not host or not port.isdigit():
        raise AnchorError(f"--from-floor {where}: expected HOST:PORT")
    got: list[dict[str, Any]] = []
    done = threading.Event()
    try:
        client = floor_client(config)
    except (OSError, ValueError) as e:
        raise AnchorError(f"--from-floor {where}: cannot use the floor credentials ({e})") from None
    topic = anchor_topic(config.table.site, config.table.id)

    bad: list[str] = []

    def on_message(c: object, userdata: object, msg: Any) -> None:
        try:
            payload = json.loads(msg.payload)
        except ValueError:
            payload = None
        problems = anchor_errors(payload)
        if problems:
            bad.append(problems[0])
        else:
            got.append(payload)
        done.set()

    client.on_connect = lambda c, u, f, rc, p=None: c.subscribe(topic, qos=1)
    client.on_message = on_message
    try:
        client.connect(host, int(port))
    except (OSError, ValueError) as e:
        raise AnchorError(f"--from-floor {where}: cannot connect ({getattr(e, 'strerror', None) or e})") from None
    client.loop_start()
    try:
        if not done.wait(timeout_s):
            raise AnchorError(f"--from-floor {where}: no retained anchor on {topic} within {timeout_s:.0f} s")
    finally:
        client.loop_stop()
        client.disconnect()
    if bad:
        raise AnchorError(f"--from-floor {where}: the anchor on {topic} is not valid ({bad[0]}); "
                          f"ask the floor for its stored copies and use --anchors")
    return got
