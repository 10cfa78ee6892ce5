"""Replay timing, kept apart from reading (python-can's MessageSync is the model).

``paced(records, speed, clock, sleep)`` yields the same records, waiting so that record times are
reproduced at ``speed`` times real time; ``speed=None`` or ``0`` means as fast as possible. The clock and
sleep are passed in, so tests use a fake clock and never patch ``time``.

>>> class FakeClock:
...     def __init__(self): self.now = 0.0
...     def __call__(self): return self.now
...     def sleep(self, s): self.now += s
>>> from dealerbox.record.logformat import Rx
>>> c = FakeClock()
>>> [(r.t, c.now) for r in paced([Rx(10.0, b""), Rx(12.0, b"")], speed=2.0, clock=c, sleep=c.sleep)]
[(10.0, 0.0), (12.0, 1.0)]
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Iterator
from typing import TypeVar

T = TypeVar("T")

MAX_WAIT_S = 60.0  # a long silence in a log (a break between sessions) is not worth waiting out in full


def paced(records: Iterable[T], speed: float | None = 1.0, clock: Callable[[], float] = time.monotonic,
          sleep: Callable[[float], object] = time.sleep, max_wait_s: float = MAX_WAIT_S) -> Iterator[T]:
    """Yield ``records`` (anything with a ``t`` in seconds) at ``speed`` x their recorded pace."""
    if not speed or speed <= 0:
        yield from records
        return
    start_t: float | None = None
    start_clock = 0.0
    skipped = 0.0  # recorded time not waited for (silences longer than max_wait_s)
    last_t: float | None = None
    for record in records:
        t = getattr(record, "t", None)
        if t is None:
            yield record
            continue
        if start_t is None:
            start_t, start_clock, last_t = t, clock(), t
        if last_t is not None and t - last_t > max_wait_s * speed:
            skipped += t - last_t - max_wait_s * speed
        last_t = max(last_t or t, t)
        due = start_clock + (t - start_t - skipped) / speed
        wait = due - clock()
        if wait > 0:
            sleep(wait)
        yield record
