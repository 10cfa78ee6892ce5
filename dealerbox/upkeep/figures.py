"""The running terminal's own figures for the health strip and the floor's state topic (docs/screen.md):
``memory_mb`` (resident memory), ``disk_free_mb`` (free where the log is written), ``log_days`` (days of
table log kept on the card) and ``outbox_depth`` (floor messages waiting). Cheap enough for every health
tick: /proc reads and one statvfs; the log directory is listed at most once a minute.
"""

from __future__ import annotations

import os
import resource
import shutil
import time
from collections.abc import Callable
from pathlib import Path

from .retention import log_sets

PAGE = os.sysconf("SC_PAGE_SIZE") if hasattr(os, "sysconf") else 4096
LIST_EVERY_S = 60.0


def rss_mb() -> float:
    """Resident set size now, MiB (from /proc/self/statm; the peak from getrusage where there is no /proc)."""
    try:
        with open("/proc/self/statm", "rb") as f:
            return round(int(f.read().split()[1]) * PAGE / 2**20, 1)
    except (OSError, ValueError, IndexError):
        return round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1)


def free_mb(directory: str | os.PathLike) -> float | None:
    """Free MiB on the filesystem holding ``directory`` (its nearest existing parent); None if unreadable."""
    here = Path(directory).absolute()
    while not here.exists() and here != here.parent:
        here = here.parent
    try:
        return round(shutil.disk_usage(here).free / 2**20, 1)
    except OSError:
        return None


def open_fds() -> int:
    try:
        return len(os.listdir("/proc/self/fd"))
    except OSError:
        return -1


class Figures:
    """Collects the four figures; the log directory's day count is cached for LIST_EVERY_S."""

    def __init__(self, log_dir: str | os.PathLike | None, clock: Callable[[], float] = time.monotonic) -> None:
        self.log_dir = Path(log_dir) if log_dir else None
        self.clock = clock
        self._days = 0
        self._listed = float("-inf")

    def log_days(self) -> int:
        """Distinct UTC days with a log part on the card."""
        if self.log_dir is None:
            return 0
        now = self.clock()
        if now - self._listed >= LIST_EVERY_S:
            self._listed = now
            days = {part.day for s in log_sets(self.log_dir) for part in s.parts}
            self._days = len(days)
        return self._days

    def collect(self, floor_health: dict | None = None) -> dict[str, float | int | None]:
        out: dict[str, float | int | None] = {"memory_mb": rss_mb()}
        if self.log_dir is not None:
            out["disk_free_mb"] = free_mb(self.log_dir)
            out["log_days"] = self.log_days()
        if floor_health is not None and isinstance(floor_health.get("outbox_depth"), int):
            out["outbox_depth"] = floor_health["outbox_depth"]
        return out
