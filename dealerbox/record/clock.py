"""Is the box's wall clock trustworthy? The kernel's NTP state, for the status next to every wall-clock stamp.

The log's ``t`` is monotonic; wall time enters through the header's ``created``, the anchors' ``at`` and the
floor envelope's ``at``. Those are only as good as the clock, so the status says whether the kernel
considers it synchronised (adjtimex(2): ``TIME_ERROR`` means not; no system call needed from a subprocess).
"""

from __future__ import annotations

import ctypes
import ctypes.util
from datetime import datetime, UTC
from functools import cache

TIME_ERROR = 5          # adjtimex's answer when the clock is not synchronised
_TIMEX_BYTES = 512      # larger than struct timex on every Linux ABI; modes=0 only reads


@cache
def _libc() -> ctypes.CDLL | None:
    try:
        return ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6", use_errno=True)
    except OSError:
        return None


def synchronised() -> bool | None:
    """True/False from the kernel, None where adjtimex is not available (not Linux, or refused)."""
    libc = _libc()
    if libc is None:
        return None
    try:
        buf = ctypes.create_string_buffer(_TIMEX_BYTES)   # zeroed: modes = 0, a read-only query
        state: int = libc.adjtimex(buf)   # ctypes returns the C int untyped
    except (OSError, AttributeError):
        return None
    if state < 0:
        return None
    return state != TIME_ERROR


def clock_status() -> dict[str, object]:
    """``{"wall": ISO UTC now, "ntp_synchronised": bool | None}`` for the health/status."""
    return {"wall": datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ"),
            "ntp_synchronised": synchronised()}
