"""``--floor-key FILE``, spelled and checked the same way by ``replay``, ``export`` (and read by ``audit``).

The floor's private key (record/sealing.py) opens a sealed log's raw records; revealing hole cards needs it,
and every reveal made with it, granted or refused, is journalled and sent to the floor (record/audit.py).
A supervisor's PIN does not unlock data: whoever can read a log can also write the config that holds the
PIN hashes.
"""

from __future__ import annotations

import argparse
import sys

from ..config import Config, ConfigError
from ..record.sealing import Opener, SealError, load_floor_private
from ..sources import LogError, open_log


def add_floor_key(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--floor-key", metavar="FILE", default="",
                        help="the floor's private key (dealerbox keygen --floor): opens sealed logs; needed by "
                             "--reveal-hole-cards, whose use is journalled and sent to the floor")


def opener_for(prog: str, config: Config | None, key: str, logs: list[str], reveal: bool,
               what: str) -> tuple[Opener | None, int]:
    """The opener ``--floor-key`` names (None without it) and 0 to go on, or (None, 2) after saying why not.

    With ``reveal``, the key must be given and must open every sealed log; the attempt is recorded either way.
    """
    recorded = [log for log in logs if not log.endswith(".scn")]   # a scenario's cards are in its own text
    reveal = reveal and bool(recorded)
    if not key:
        if reveal:
            print(f"dealerbox {prog}: --reveal-hole-cards needs the floor's private key: pass --floor-key FILE "
                  f"(docs/security.md); hole cards stay hidden", file=sys.stderr)
            return None, 2
        return None, 0
    try:
        opener = Opener(load_floor_private(key))
    except ConfigError as e:
        if reveal:   # a refused reveal is on the record too, whatever the key file was (docs/security.md)
            _, where = _record(config or Config(), False, f"{what} {' '.join(recorded)} with key file {key}")
            print(f"dealerbox {prog}: --floor-key: {e}; hole cards stay hidden, the attempt is recorded ({where})",
                  file=sys.stderr)
        else:
            print(f"dealerbox {prog}: --floor-key: {e}", file=sys.stderr)
        return None, 2
    problem, clear = "", []
    for log in recorded:
        try:
            source = open_log(log)
            if source.sealed:
                opener.header(source.header)
            else:
                clear.append(log)
        except SealError as e:
            problem = f"{log}: {e}"
            break
        except (LogError, OSError):
            continue   # the command itself says what is wrong with the file
    if not reveal:
        if problem:
            print(f"dealerbox {prog}: {problem}", file=sys.stderr)
            return None, 2
        return opener, 0
    subject = f"{what} {' '.join(recorded)} with floor key {opener.key_id}"
    on_record, where = _record(config or Config(), not problem, subject)
    if problem:
        print(f"dealerbox {prog}: hole cards stay hidden: {problem}; the attempt is recorded ({where})",
              file=sys.stderr)
        return None, 2
    if not on_record:
        print(f"dealerbox {prog}: hole cards stay hidden: the reveal could not be put on the record ({where}); "
              f"check audit.journal and the floor link", file=sys.stderr)
        return None, 2
    for log in clear:
        print(f"dealerbox {prog}: note: {log} is not sealed; its hole cards are readable by anyone who can read "
              f"it (set record.floor_public_key at the table)", file=sys.stderr)
    print(f"dealerbox {prog}: hole cards revealed with floor key {opener.key_id}; recorded ({where})", file=sys.stderr)
    return opener, 0


def _record(config: Config, granted: bool, subject: str) -> tuple[bool, str]:
    from ..record.audit import record_reveal   # the MQTT client only when a reveal is asked for
    return record_reveal(config, granted, subject)
