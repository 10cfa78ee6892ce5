"""What grows, by part: tracemalloc snapshots taken as hands go by, compared and grouped by the part that allocated.

A block is charged to the innermost frame of dealerbox's own code in its traceback (``dealerbox/sinks/screen``,
``dealerbox/wire``...), so memory a library allocates on a part's behalf (a dict in ``collections``, a row in
``sqlite3``) counts against the part that asked for it; blocks with no dealerbox frame go to the outermost
library or ``bench`` file named. ``glibc`` figures (``mallinfo2``) say how much of the heap is in use and how
much is free but held, which tracemalloc cannot see.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import sys
import tracemalloc
from pathlib import Path

DEPTH = 12   # frames kept per block: enough to climb out of the stdlib and libraries into the part that asked


def start() -> None:
    tracemalloc.start(DEPTH)


def snapshot() -> tracemalloc.Snapshot:
    return tracemalloc.take_snapshot().filter_traces((
        tracemalloc.Filter(False, tracemalloc.__file__), tracemalloc.Filter(False, "<frozen importlib._bootstrap>"),
        tracemalloc.Filter(False, "<unknown>")))


def part_of(filename: str) -> str:
    """``dealerbox/sinks/screen/canvas.py`` -> ``dealerbox/sinks/screen``; a library by its top package."""
    path = Path(filename)
    parts = path.parts
    for anchor in ("dealerbox", "bench"):
        if anchor in parts:
            i = len(parts) - 1 - parts[::-1].index(anchor)
            inner = parts[i:-1]
            return "/".join(inner[:3]) if inner else anchor
    if "site-packages" in parts:
        return parts[parts.index("site-packages") + 1].split(".")[0]
    return f"stdlib:{path.stem}"


def by_part(snap: tracemalloc.Snapshot) -> dict[str, tuple[int, int]]:
    """Part -> (bytes, blocks) held now."""
    out: dict[str, list[int]] = {}
    for stat in snap.statistics("traceback"):
        frames = list(stat.traceback)   # most recent call first
        ours = [f for f in frames if "dealerbox" in Path(f.filename).parts]
        frame = ours[0] if ours else frames[-1]
        name = part_of(frame.filename)
        if ours:
            name += f" ({Path(frame.filename).name}:{frame.lineno})"
        acc = out.setdefault(name, [0, 0])
        acc[0] += stat.size
        acc[1] += stat.count
    return {k: (v[0], v[1]) for k, v in out.items()}


def grew(before: dict[str, tuple[int, int]], after: dict[str, tuple[int, int]], top: int = 15) -> list[dict]:
    """The parts (with the line that allocated) whose held bytes changed most between two ``by_part`` tallies."""
    rows = []
    for name in set(before) | set(after):
        b, a = before.get(name, (0, 0)), after.get(name, (0, 0))
        if a[0] != b[0]:
            rows.append({"where": name, "kib": round((a[0] - b[0]) / 1024, 1), "blocks": a[1] - b[1],
                         "held_kib": round(a[0] / 1024, 1)})
    rows.sort(key=lambda r: -abs(r["kib"]))
    return rows[:top]


class _Mallinfo2(ctypes.Structure):
    _fields_ = [(name, ctypes.c_size_t) for name in
                ("arena", "ordblks", "smblks", "hblks", "hblkhd", "usmblks", "fsmblks", "uordblks", "fordblks",
                 "keepcost")]


def glibc() -> dict[str, int] | None:
    """KiB of the heaps in use and free-but-held (glibc 2.33+ ``mallinfo2``), None elsewhere."""
    if not sys.platform.startswith("linux"):
        return None
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
        fn = libc.mallinfo2
    except (OSError, AttributeError):
        return None
    fn.restype = _Mallinfo2
    info = fn()
    return {"in_use_kib": (info.uordblks + info.hblkhd) // 1024, "free_held_kib": info.fordblks // 1024}
