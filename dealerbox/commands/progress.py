"""Progress of a long job (simulate, export, audit, verify of a large log, the bench): one helper for all.

On a terminal, a tqdm bar on stderr with the count, the rate and the time left; when stderr is not a terminal
(a pipe, a file, CI, a test), nothing at all, so scripts and logs see only the command's own lines.

>>> import io
>>> with progress(total=3, unit="hands", stream=io.StringIO()) as bar:   # not a terminal: silent
...     bar.update(3)
"""

from __future__ import annotations

import shutil
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import IO, Protocol


class Bar(Protocol):
    def update(self, n: int = 1) -> object: ...


class _Silent:
    """What a job reports its progress to when nobody is watching."""

    def update(self, n: int = 1) -> None:
        return None


def shown(stream: IO[str] | None = None) -> bool:
    """Whether a bar would be drawn on ``stream`` (default stderr): only when it is a terminal."""
    stream = sys.stderr if stream is None else stream
    try:
        return stream.isatty()
    except (AttributeError, ValueError):   # closed or not a file: nobody is watching
        return False


@contextmanager
def progress(total: int | None, unit: str, desc: str = "", stream: IO[str] | None = None) -> Iterator[Bar]:
    """A bar for ``total`` units (None: unknown, count and rate only) on ``stream`` (default stderr)."""
    stream = sys.stderr if stream is None else stream
    if not shown(stream):
        yield _Silent()
        return
    from tqdm import tqdm   # only when a bar is drawn
    in_bytes = unit == "B"   # bytes read: shown as kB, MB
    # shutil: COLUMNS/LINES, else the terminal's size, else 80x24 (a pty whose size was never set reports 0x0,
    # and tqdm then draws nothing)
    size = shutil.get_terminal_size()
    with tqdm(total=total, unit=unit if in_bytes else f" {unit}", unit_scale=in_bytes, desc=desc or None,
              file=stream, ncols=size.columns, nrows=max(size.lines, 2), leave=False, mininterval=0.2) as bar:
        yield bar
