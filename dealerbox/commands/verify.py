"""``dealerbox verify LOG``: is a recorded log intact? Exit 0 intact, 1 broken or incomplete, 2 unreadable.

Without ``--pubkey`` only the unkeyed chain is checked, and the verdict says nothing was authenticated. With
``--pubkey`` the table's signatures are checked too (an unsigned or re-hashed log fails, in one verdict); with
``--anchors FILE`` (JSON Lines or a JSON list of signed heads, as the floor stores them) or ``--from-floor URL``
(every head the dashboard's anchor store kept for the table, over its authenticated API) the log must also be
one the floor anchored (its identity) and still hold every anchored head. A floor that holds no head of the
log's table is a failed check, not a failure to run (exit 1, one line): the floor witnessed nothing of a log
the table signed. An unsigned log gets its own one verdict ("not signed", exit 1): no floor can hold a head of
it, so that is the finding.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path
from typing import Any

from ..record.signing import KeyFileError, load_public
from ..history.fastlog import log_bytes
from ..record.verify import verify_log
from .options import PASSWORD_ENV
from .progress import progress

SHOW_PROBLEMS = 10


class AnchorError(ValueError):
    """Anchors that cannot be read; the message names the file or broker."""


class FloorHoldsNothing(AnchorError):
    """The floor answered, and holds no signed head of the table: for ``verify`` a finding, not an error."""


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
    parser.add_argument("--from-floor", metavar="URL",
                        help="every signed head the floor kept for the log's table, from the dashboard "
                             "(e.g. https://floor.local:8080; a dashboard user: --floor-user)")
    parser.add_argument("--floor-user", metavar="NAME", default="", help="the dashboard user for --from-floor")
    parser.add_argument("--floor-password-file", metavar="FILE", default="",
                        help=f"the user's password (default: the {PASSWORD_ENV} environment variable)")
    parser.add_argument("--table", metavar="SITE/TABLE", default="",
                        help="--from-floor: the table to ask for (default: the one the log's header names)")


def run(args: argparse.Namespace) -> int:
    witnessed_nothing = ""   # the floor answered and holds no head of the table: what verify then says
    try:
        pubkey = load_public(args.pubkey) if args.pubkey else ""
        anchors = read_anchors(args.anchors) if args.anchors else []
        if args.from_floor and pubkey:
            try:
                anchors += floor_anchors(args.log, args.from_floor, args.floor_user, _password(args), args.table)
            except FloorHoldsNothing as e:
                witnessed_nothing = str(e)
    except (KeyFileError, AnchorError) as e:
        print(f"dealerbox verify: {e}", file=sys.stderr)
        return 2
    if (anchors or args.from_floor) and not pubkey:
        print("dealerbox verify: anchors need --pubkey (an anchor proves nothing without the key that signed it)",
              file=sys.stderr)
        return 2
    junk = not_a_log(args.log)
    if junk:   # nothing in it was ever a log: no chain to call intact or broken
        print(f"dealerbox verify: {args.log}: {junk}; not a dealerbox log, nothing to verify", file=sys.stderr)
        return 2
    try:
        with progress(log_bytes(args.log), "B", "verify") as bar:   # a day's log is a few hundred MB
            report = verify_log(args.log, pubkey=pubkey, anchors=anchors, read=bar.update)
    except FileNotFoundError:
        print(f"dealerbox verify: no such log: {args.log}", file=sys.stderr)
        return 2
    except OSError as e:
        print(f"dealerbox verify: cannot read {args.log}: {e.strerror or e}", file=sys.stderr)
        return 2
    report.anchors_from = anchors_source(args.anchors, args.from_floor)
    if witnessed_nothing and not report.key_refused:
        # a signed log the floor holds nothing of: whatever the key says, no witness vouches for it (exit 1)
        print(f"FAILED: {witnessed_nothing}")
        return 1
    print(report.summary())
    if report.key_refused:
        return 1    # unsigned or another key: one verdict, the signature checks after it would only repeat it
    for problem in report.problems[1:SHOW_PROBLEMS]:
        print(f"  also: {problem}")
    for note in report.notes[:SHOW_PROBLEMS]:
        print(f"  note: {note}")
    if len(report.problems) > SHOW_PROBLEMS:
        print(f"  ... and {len(report.problems) - SHOW_PROBLEMS} more")
    return 0 if report.intact else 1


def anchors_source(file: str | None, floor: str | None) -> str:
    """Where the anchors came from, for the output: only the floor's own API is the floor's word; a file given on
    the command line holds whatever its maker put in it (docs/security.md)."""
    told = f"{file}, a file given on the command line (not read from the floor)" if file else ""
    if floor:
        return f"(from the floor at {floor}" + (f" and from {told})" if told else ")")
    return f"(from {told})" if told else ""


def read_anchors(path: str) -> list[dict[str, Any]]:
    """Anchors from a file: one JSON object a line, or one JSON list (the dashboard's export)."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as e:
        raise AnchorError(f"{path}: cannot read the anchors ({getattr(e, 'strerror', None) or e})") from None
    try:
        data = json.loads(text) if text.lstrip().startswith("[") else \
            [json.loads(line) for line in text.splitlines() if line.strip()]
    except (ValueError, RecursionError) as e:   # RecursionError: nested too deep for the parser
        raise AnchorError(f"{path}: not JSON anchors ({e})") from None
    for i, a in enumerate(data, 1):
        if not isinstance(a, dict) or not {"part", "n", "head"} <= a.keys():
            raise AnchorError(f"{path}: anchor {i}: needs part, n and head")
    return data


def floor_anchors(log: str, where: str, user: str, password: str, table: str = "",
                  timeout_s: float = 10.0) -> list[dict[str, Any]]:
    """Every head the floor's anchor store kept for the log's table (``GET /api/anchors``, HTTP Basic)."""
    import httpx

    site, slash, table_id = (table or _header_table(log)).partition("/")
    if not site or not slash:
        raise AnchorError(f"--from-floor {where}: the log names no table; pass --table SITE/TABLE")
    if not user or not password:
        raise AnchorError(f"--from-floor {where}: the floor needs a dashboard user: pass --floor-user NAME and "
                          f"the password in {PASSWORD_ENV} or a file named by --floor-password-file")
    url = where.rstrip("/") + "/api/anchors"
    try:
        query = {"site": site, "table": table_id} if table_id else {"site": site}   # "SITE/": every table
        got = httpx.get(url, params=query, auth=(user, password), timeout=timeout_s)
    except httpx.HTTPError as e:
        raise AnchorError(f"--from-floor {where}: cannot reach the floor ({e})") from None
    if got.status_code == 401:
        raise AnchorError(f"--from-floor {where}: the floor refused {user!r} (wrong name or password)")
    if got.status_code != 200:
        raise AnchorError(f"--from-floor {where}: the floor answered {got.status_code} ({got.text[:200]})")
    try:
        heads = got.json()["anchors"]
    except (ValueError, KeyError, TypeError):
        raise AnchorError(f"--from-floor {where}: not the floor's anchor list (is it a dealerbox dashboard?)") from None
    if not heads:
        which = f"{site}/{table_id}" if table_id else f"any table of site {site}"
        raise FloorHoldsNothing(f"the floor at {where} holds no signed head of {which}: it witnessed nothing of "
                                f"this log, so nothing but the table's own key vouches for it (is the table's key "
                                f"enrolled on the floor, and was its link up?)")
    return list(heads)


def _header_table(log: str) -> str:
    """``site/table`` from the log's header (the floor is asked for that table's heads)."""
    try:
        with open(log, "rb") as f:
            header = json.loads(f.readline())
        table = header["config"]["table"]
        return f"{table.get('site') or 'demo'}/{table['id']}"
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return ""


def _password(args: argparse.Namespace) -> str:
    if args.floor_password_file:
        try:
            return Path(args.floor_password_file).read_text(encoding="utf-8").splitlines()[0].strip()
        except (OSError, IndexError, UnicodeDecodeError) as e:
            raise AnchorError(f"--floor-password-file {args.floor_password_file}: cannot read it ({e})") from None
    return os.environ.get(PASSWORD_ENV, "")
