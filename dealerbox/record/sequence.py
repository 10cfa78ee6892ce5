"""The table's hand count across restarts, so a hand number names one hand for the table's lifetime.

Kept next to the log directory (``<record.dir>/../hands-<table>.json``, so the log directory holds only
logs), written atomically at every hand's end by the recorder (no recording, no count). A new recording
starts numbering after the last hand ended; the log header says where (``hands_before``), so a
replay numbers the hands exactly as the live table did. Finding ids are built from the hand number, so they
are unique the same way. (table id, hand number) is unique; the log's ``created`` gives the date.
"""

from __future__ import annotations

import json
import logging
import os
from datetime import datetime, UTC
from pathlib import Path

log = logging.getLogger("dealerbox.record")


def sequence_path(record_dir: str | os.PathLike[str], table: str) -> Path:
    safe = "".join(c if c.isalnum() or c in "-_" else "_" for c in table) or "table"
    return Path(record_dir).parent / f"hands-{safe}.json"


def last_hand(path: Path, table: str) -> int:
    """The last hand number this table ended (0 if none); a damaged file is logged and counted from 0."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        last = data.get("last_hand")
        if data.get("table") == table and isinstance(last, int) and last >= 0:
            return last
        log.error("recorder: %s is not this table's hand count (table %r); hand numbers restart at 1: "
                  "restore it from a backup if it was damaged", path, data.get("table"))
    except FileNotFoundError:
        pass
    except (OSError, ValueError, AttributeError) as e:
        log.error("recorder: cannot read the hand count %s (%s); hand numbers restart at 1: restore it from a "
                  "backup if it was damaged", path, e)
    return 0


def save_hand(path: Path, table: str, hand: int) -> None:
    """Write the count atomically (a power cut leaves the old or the new file, never half of one)."""
    tmp = path.with_name(path.name + ".new")
    body = {"table": table, "last_hand": hand, "at": datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")}
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o640)
    with os.fdopen(fd, "w", encoding="utf-8") as fh:
        json.dump(body, fh)
        fh.flush()
        os.fsync(fh.fileno())
    os.replace(tmp, path)


class HandCount:
    """The recorder's hand count: given the count's file (or None: numbering starts at the header's
    ``hands_before``) and the table; owns where numbering starts and the saves that failed."""

    def __init__(self, path: Path | None, table: str, hands_before: int) -> None:
        self._path = path
        self._table = table
        self.hands_before = last_hand(path, table) if path is not None else hands_before
        self.errors = 0

    def save(self, hand: int) -> None:
        """A hand ended: keep its number. A failure is counted and said; the log itself goes on."""
        if self._path is None:
            return
        try:
            save_hand(self._path, self._table, hand)
        except OSError as e:   # numbering may repeat after a restart, so say so
            self.errors += 1
            log.error("recorder: cannot keep the hand count in %s (%s); hand numbers may repeat after a "
                      "restart: free space or check record.dir", self._path, e.strerror or e)
