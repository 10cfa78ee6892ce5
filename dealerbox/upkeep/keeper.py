"""What the terminal's core loop calls once per turn to stay fit for weeks: the health figures (at most once a
second), the floor's acknowledged anchor noted for retention, the hourly retention sweep, and the systemd
watchdog. Every step is rate-limited here, so the loop's cost is a clock read on most turns.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from typing import Protocol

from .figures import Figures
from .notify import Notifier
from .retention import Retention

FIGURES_EVERY_S = 1.0
SWEEP_EVERY_S = 3600.0


class _Floor(Protocol):
    @property
    def anchor_acked(self) -> dict | None: ...

    def health(self) -> dict: ...


class _Recorder(Protocol):
    @property
    def current_path(self) -> os.PathLike: ...


class Upkeep:
    def __init__(self, log_dir: str | os.PathLike | None, keep_days: int = 0, notifier: Notifier | None = None,
                 clock: Callable[[], float] = time.monotonic, wall: Callable[[], float] = time.time) -> None:
        self.clock = clock
        self.figures = Figures(log_dir, clock=clock)
        self.retention = Retention(log_dir, keep_days, wall=wall) if log_dir else None
        self.notifier = notifier if notifier is not None else Notifier()
        self._figures: dict = {}
        self._figured = float("-inf")
        self._swept = float("-inf")
        self._acked: dict | None = None

    def ready(self, status: str) -> None:
        self.notifier.ready(status)

    def current(self, floor_health: dict | None) -> dict:
        """memory_mb, disk_free_mb, log_days, outbox_depth (cached for FIGURES_EVERY_S)."""
        now = self.clock()
        if now - self._figured >= FIGURES_EVERY_S:
            self._figured = now
            self._figures = self.figures.collect(floor_health)
        return dict(self._figures)

    def tick(self, floor: _Floor | None, recorder: _Recorder | None, status: str) -> None:
        """One turn of the core loop: watchdog, anchor, sweep (each at its own pace)."""
        self.notifier.beat(status)
        if self.retention is None:
            return
        acked = getattr(floor, "anchor_acked", None) if floor is not None else None
        if isinstance(acked, dict) and acked is not self._acked:
            self._acked = acked
            self.retention.confirm(acked)
        now = self.clock()
        if now - self._swept >= SWEEP_EVERY_S:
            self._swept = now
            active = [recorder.current_path] if recorder is not None else []
            self.retention.sweep(active)
