"""Log retention: keep ``record.keep_days`` days of table log on the card, and delete an older part only when
a copy exists off the table. Two things count as a copy (docs/log-format.md, "Retention"):

- the floor holds it: the broker acknowledged (QoS 1 PUBACK) a retained anchor of that log whose signed
  head lies in a later part, or is the part's last line (or the line its final sig signs). The terminal
  keeps the latest acknowledged anchor of each log in ``<record.dir>/floor-confirmed.json``;
- an operator exported it: a file ``<log>.exported`` beside the log's first part (any content; an export
  tool or ``touch`` makes it once the copy is safe) covers every part of that log.

Parts are deleted oldest first and only from the front of a log, so what stays is always a run of parts
a reader can follow. The log being written is never touched. Nothing here raises for I/O: a part that
cannot be removed is counted and left.
"""

from __future__ import annotations

import json
import logging
import os
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import datetime, UTC
from pathlib import Path

from ..record.logformat import log_part

log = logging.getLogger("dealerbox.upkeep")

CONFIRMED_FILE = "floor-confirmed.json"
EXPORTED_SUFFIX = ".exported"
DAY_S = 86400.0


@dataclass(frozen=True)
class Part:
    path: Path
    number: int
    mtime: float
    size: int

    @property
    def day(self) -> str:
        return datetime.fromtimestamp(self.mtime, UTC).strftime("%Y-%m-%d")


@dataclass
class LogSet:
    """One recorded log: its first part's name (what anchors call ``log``) and its parts in order."""
    name: str
    parts: list[Part] = field(default_factory=list)


@dataclass
class Sweep:
    deleted: list[Path] = field(default_factory=list)
    freed_bytes: int = 0
    kept_unconfirmed: int = 0    # old enough to go, but no copy off the table is known
    errors: int = 0


def log_sets(directory: Path) -> list[LogSet]:
    """The recorded logs in ``directory`` (not recursive), each with its parts sorted by number."""
    sets: dict[str, LogSet] = {}
    try:
        entries = list(os.scandir(directory))
    except OSError:
        return []
    for entry in entries:
        named = log_part(entry.name)
        if named is None or not entry.is_file():
            continue
        try:
            st = entry.stat()
        except OSError:
            continue
        name, number = named
        sets.setdefault(name, LogSet(name)).parts.append(Part(Path(entry.path), number, st.st_mtime, st.st_size))
    for s in sets.values():
        s.parts.sort(key=lambda p: p.number)
    return sorted(sets.values(), key=lambda s: s.name)


def _must_cover(path: Path) -> int:
    """The ``n`` an anchor must reach to cover the whole part: its last whole line, or, when that line is
    the signature of the line before it (a closed or rotated part ends so), the line it signs."""
    last, text = -1, b""
    try:
        with open(path, "rb") as f:
            for line in f:
                if line.endswith(b"\n"):
                    last, text = last + 1, line
    except OSError:
        return 1 << 62    # unreadable: never counted as covered
    try:
        record = json.loads(text) if text else {}
    except ValueError:
        return last
    if isinstance(record, dict) and record.get("k") == "sig" and isinstance(record.get("of"), int):
        return record["of"]
    return last


class Retention:
    """The policy for one record directory. ``keep_days`` 0 keeps everything."""

    def __init__(self, directory: str | os.PathLike, keep_days: int,
                 wall: Callable[[], float] = time.time) -> None:
        self.directory = Path(directory)
        self.keep_days = keep_days
        self.wall = wall
        self.deleted_total = 0
        self.kept_unconfirmed = 0

    # --- what the floor holds ---------------------------------------------------------------------
    def confirmed(self) -> dict[str, dict]:
        try:
            data = json.loads((self.directory / CONFIRMED_FILE).read_text())
        except (OSError, ValueError):
            return {}
        return data if isinstance(data, dict) else {}

    def confirm(self, anchor: dict) -> bool:
        """Remember that the floor holds ``anchor`` (a payload of anchor.json); False when not kept."""
        name, part, n = anchor.get("file") or anchor.get("log"), anchor.get("part"), anchor.get("n")
        if not isinstance(name, str) or not isinstance(part, int) or not isinstance(n, int):
            return False
        known = self.confirmed()
        if known.get(name) == {"part": part, "n": n}:
            return True
        known[name] = {"part": part, "n": n}
        tmp = self.directory / f".{CONFIRMED_FILE}.tmp"
        try:
            tmp.write_text(json.dumps(known, sort_keys=True))
            os.replace(tmp, self.directory / CONFIRMED_FILE)  # whole or not at all, even on a power cut
        except OSError as e:
            log.warning("retention: cannot note the floor's anchor in %s (%s); old logs are kept longer",
                        self.directory / CONFIRMED_FILE, e.strerror or e)
            return False
        return True

    def covered(self, log_set: LogSet, part: Part, confirmed: dict[str, dict]) -> bool:
        """Is a copy of this part known to exist off the table?"""
        if (self.directory / (Path(log_set.name).stem + EXPORTED_SUFFIX)).exists():
            return True
        head = confirmed.get(log_set.name)
        if not isinstance(head, dict):
            return False
        if head.get("part", -1) > part.number:
            return True   # the signed chain runs through this part into a later one
        return head.get("part") == part.number and head.get("n", -1) >= _must_cover(part.path)

    # --- the sweep ----------------------------------------------------------------------------------
    def sweep(self, active: Iterable[str | os.PathLike] = ()) -> Sweep:
        """Delete old, covered parts; ``active``: files being written (never deleted)."""
        result = Sweep()
        if self.keep_days <= 0:
            return result
        busy = {Path(a).resolve() for a in active}
        cutoff = self.wall() - self.keep_days * DAY_S
        confirmed = self.confirmed()
        for s in log_sets(self.directory):
            for part in s.parts:   # from the front only: what stays is a run a reader can follow
                if part.mtime >= cutoff or part.path.resolve() in busy:
                    break
                if not self.covered(s, part, confirmed):
                    result.kept_unconfirmed += 1
                    break
                try:
                    part.path.unlink()
                except OSError as e:
                    result.errors += 1
                    log.warning("retention: cannot delete %s (%s)", part.path, e.strerror or e)
                    break
                result.deleted.append(part.path)
                result.freed_bytes += part.size
            else:
                self._forget(s.name)   # every part is gone: its marks go too
        self.deleted_total += len(result.deleted)
        self.kept_unconfirmed = result.kept_unconfirmed
        if result.deleted:
            log.info("retention: deleted %d log part(s) older than %d day(s), %.1f MB freed",
                     len(result.deleted), self.keep_days, result.freed_bytes / 1e6)
        return result

    def _forget(self, name: str) -> None:
        (self.directory / (Path(name).stem + EXPORTED_SUFFIX)).unlink(missing_ok=True)
        known = self.confirmed()
        if known.pop(name, None) is not None:
            try:
                (self.directory / CONFIRMED_FILE).write_text(json.dumps(known, sort_keys=True))
            except OSError:
                pass   # a stale entry only names a log that is gone
