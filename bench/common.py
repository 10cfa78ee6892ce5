"""What every benchmark shares: the Figure it reports, percentiles, a timer, the run context."""

from __future__ import annotations

import math
import os
import sys
import tempfile
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

# A benchmark must be runnable from a checkout without installing dealerbox.
ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

# pygame never opens a window or an audio device here.
os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

now_ns = time.perf_counter_ns


@dataclass
class Figure:
    """One measured number, with its target when it has one.

    ``op`` is ``">="`` (more is better) or ``"<"`` (less is better); ``headroom`` is how many times better than
    the target the figure is (> 1 passes), so a Pi 4 several times slower can be read off it directly.
    ``status`` is ``pass``, ``FAIL``, ``info`` (no target), ``not measured`` (the piece is missing: see note).
    """

    bench: str
    name: str
    value: float | None
    unit: str
    target: float | None = None
    op: str = ""
    note: str = ""
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def headroom(self) -> float | None:
        if self.value is None or self.target is None:
            return None
        if self.op == ">=":
            return self.value / self.target if self.target else math.inf
        return self.target / self.value if self.value else math.inf

    @property
    def status(self) -> str:
        if self.value is None:
            return "not measured"
        if self.target is None:
            return "info"
        ok = self.value >= self.target if self.op == ">=" else self.value < self.target
        return "pass" if ok else "FAIL"

    def as_dict(self) -> dict[str, Any]:
        d = asdict(self)
        d["headroom"] = self.headroom
        d["status"] = self.status
        return d


def missing(bench: str, name: str, unit: str, why: str, target: float | None = None, op: str = "") -> Figure:
    """A figure that could not be measured, saying why (a piece not built yet, a tool not installed)."""
    return Figure(bench, name, None, unit, target, op, note=why)


def percentile(samples: list[float], q: float) -> float:
    """Nearest-rank percentile (q in 0..100) of a non-empty list."""
    s = sorted(samples)
    k = max(0, min(len(s) - 1, math.ceil(q / 100 * len(s)) - 1))
    return s[k]


def median(samples: list[float]) -> float:
    return percentile(samples, 50)


@dataclass
class Context:
    """What the runner hands each benchmark: the mode and a scratch directory removed afterwards."""

    quick: bool = False
    tmp: Path = field(default_factory=lambda: Path(tempfile.mkdtemp(prefix="dealerbox-bench-")))
    log: Any = None  # callable(str) for progress lines on stderr

    def say(self, text: str) -> None:
        if self.log:
            self.log(text)

    def scale(self, full: int, quick: int) -> int:
        return quick if self.quick else full


def rss_kib(pid: int | str = "self") -> int:
    """Resident set size now, from /proc (Linux)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


def peak_rss_kib(pid: int | str = "self") -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1])
    return 0


def cpu_ticks(pid: int) -> int:
    """utime + stime of a process (and its reaped children), in clock ticks, from /proc/<pid>/stat."""
    stat = Path(f"/proc/{pid}/stat").read_text()
    fields_ = stat[stat.rindex(")") + 2:].split()
    # fields after the command: state is index 0, utime 11, stime 12, cutime 13, cstime 14
    return sum(int(fields_[i]) for i in (11, 12, 13, 14))
