"""The files of one recording: the current part's file handle, its size, its durability (fsync) and what went
wrong writing it. The recorder decides what to write and when a part ends; this part only writes bytes.

A write error (disk full, card pulled) is counted and logged once with what to do; the file is closed and
the next write opens it again, cut back to the last whole record (a half-written line never stays).
"""

from __future__ import annotations

import logging
import os
from collections.abc import Callable
from pathlib import Path
from typing import BinaryIO

from .logformat import part_path

log = logging.getLogger("dealerbox.record")

LOG_MODE = 0o640


class PartFile:
    """Given the folder, the log's name, the clock and how often to fsync; owns the open file, the part number,
    the bytes in the current part and written in all, and the write errors. ``advice`` ends the first error's
    log line (what the recorder does meanwhile and what the operator should do)."""

    def __init__(self, directory: Path, stem: str, clock: Callable[[], float], fsync_every_s: float,
                 advice: str) -> None:
        self.directory = directory
        self.path = self._free_path(stem)
        self._clock = clock
        self._fsync_every_s = fsync_every_s
        self._advice = advice
        self._file: BinaryIO | None = None
        self._last_fsync = clock()
        self.part = 0
        self.size = 0               # bytes known to be in the current part (a failed write is cut back to it)
        self.bytes_written = 0
        self.write_errors = 0
        self.last_error = ""

    @property
    def current_path(self) -> Path:
        return part_path(self.path, self.part)

    @property
    def parts(self) -> list[Path]:
        return [part_path(self.path, n) for n in range(self.part + 1)]

    def append(self, data: bytes) -> bool:
        """Write all of ``data`` to the current part; on failure cut the file back, report, and say False."""
        try:
            file = self._file if self._file is not None else self._open()
            view = memoryview(data)
            while view:
                n = file.write(view)
                if not n:
                    raise OSError("short write")
                view = view[n:]
        except OSError as e:
            self._fail(e)
            return False
        self.size += len(data)
        self.bytes_written += len(data)
        return True

    def sync(self, now: float, force: bool) -> None:
        """fsync when asked to (``force``) or when ``fsync_every_s`` has passed since the last one."""
        if force or now - self._last_fsync >= self._fsync_every_s:
            self.fsync()

    def fsync(self) -> None:
        self._last_fsync = self._clock()
        if self._file is not None:
            try:
                os.fsync(self._file.fileno())
            except OSError as e:
                self._fail(e)

    def next_part(self) -> None:
        """The current part is complete: make it durable, close it; the next write opens the next part."""
        self.fsync()
        self.close()
        self.part += 1
        self.size = 0

    def recovered(self, dropped: int) -> None:
        """Everything waiting has been written: if writing had failed, say it works again."""
        if self.last_error:
            log.warning("recorder: writing to %s again; nothing lost beyond %d dropped records",
                        self.current_path, dropped)
            self.last_error = ""

    def close(self) -> None:
        if self._file is not None:
            try:
                self._file.close()
            except OSError:
                pass
            self._file = None

    def _open(self) -> BinaryIO:
        self.directory.mkdir(parents=True, exist_ok=True)
        file: BinaryIO = open(self.current_path, "ab", buffering=0,
                              opener=lambda name, flags: os.open(name, flags, LOG_MODE))
        self._file = file
        try:
            if file.tell() != self.size:
                # A half-written line from a failed attempt: cut back to the last whole record.
                file.truncate(self.size)
                file.seek(self.size)
        except OSError:
            pass  # a device that cannot truncate (tests use /dev/full); the write itself will tell
        return file

    def _fail(self, error: OSError) -> None:
        self.write_errors += 1
        first = not self.last_error
        self.last_error = f"cannot write {self.current_path}: {error.strerror or error}"
        if first:
            log.error("recorder: %s; %s", self.last_error, self._advice)
        self.close()

    def _free_path(self, stem: str) -> Path:
        candidate, n = stem, 1
        while part_path(self.directory / f"{candidate}.jsonl", 0).exists():
            n += 1
            candidate = f"{stem}-{n}"
        return self.directory / f"{candidate}.jsonl"
