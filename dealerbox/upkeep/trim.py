"""Freed memory handed back to the system between hands.

glibc keeps memory that Python and SQLite have freed: a free page in the middle of a heap stays resident until
``malloc_trim`` returns it, and each new high of short-lived memory (a burst of updates, a new backlog high)
leaves the heaps a little bigger. Over a month that reads as a slope in the terminal's RSS although nothing
lives in it. ``Trimmer.between_hands`` calls ``malloc_trim(0)`` between hands, the quiet moment of a table
(cards being shuffled, no bets), once a hand has ended since the last call and at most once every
``every_s`` seconds, so a replay catching up on hundreds of hands a second does not spend its time trimming
and an idle table is not trimmed over and over (docs/performance.md, "A flat terminal").

Only on glibc: ``malloc_trim`` is a GNU extension, and elsewhere (musl, macOS) the trimmer does nothing.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import sys
import time
from collections.abc import Callable

# A trim takes up to 151 ms: the longest of each 20,000-hand soak was 47-151 ms on the loaded 2-core test box
# (a 65 MB process; docs/performance.md, "A flat terminal"). It runs on the core thread, so sensor records wait
# behind it that long; none is lost (the serial reader thread keeps reading into the unbounded `entries` queue,
# ctypes lets go of the GIL for the call, and each record keeps the time it was read). Once in 30 s it is at most
# 0.5 % of a core, and a live table (a hand a minute or two) is trimmed after every hand.
TRIM_EVERY_S = 30.0


def glibc_malloc_trim() -> Callable[[int], int] | None:
    """glibc's ``malloc_trim(pad)``, or None where the C library has none (not Linux, or not glibc)."""
    if not sys.platform.startswith("linux"):
        return None
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
        fn = libc.malloc_trim
    except (OSError, AttributeError):   # musl and others: no malloc_trim
        return None
    fn.argtypes = [ctypes.c_size_t]
    fn.restype = ctypes.c_int
    return fn


class Trimmer:
    """Calls ``malloc_trim(0)`` between hands when a hand has ended and ``every_s`` have gone by since the last call.

    ``trims`` counts the calls, ``released`` those that gave memory back, ``last_s``/``longest_s`` how long
    they took (on ``clock``), for the benches and the health figures.
    """

    def __init__(self, every_s: float = TRIM_EVERY_S, clock: Callable[[], float] = time.monotonic,
                 trim: Callable[[int], int] | None = None) -> None:
        self.every_s = every_s
        self.clock = clock
        self._trim = trim if trim is not None else glibc_malloc_trim()
        self.trims = 0
        self.released = 0
        self.last_s = 0.0
        self.longest_s = 0.0
        self._last = float("-inf")
        self._hands = 0   # hands ended at the last call

    @property
    def available(self) -> bool:
        return self._trim is not None

    def between_hands(self, hands_ended: int) -> bool:
        """No hand under way and ``hands_ended`` so far: trim if a hand ended since the last trim and it is
        time. True if a trim ran."""
        if self._trim is None or hands_ended <= self._hands:
            return False
        now = self.clock()
        if now - self._last < self.every_s:
            return False
        self._hands = hands_ended
        self.trim()
        self._last = self.clock()
        return True

    def trim(self) -> int:
        """Trim now (1: memory was given back, 0: none was, or no glibc)."""
        if self._trim is None:
            return 0
        began = self.clock()
        gave = self._trim(0)
        took = self.clock() - began
        self.trims += 1
        self.released += 1 if gave else 0
        self.last_s, self.longest_s = took, max(self.longest_s, took)
        return gave
