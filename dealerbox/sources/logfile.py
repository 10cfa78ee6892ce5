"""Reading recorded logs (following rotated parts) and scenario files as one kind of source.

A damaged line (a power cut's partial last line, a bad edit) is skipped and counted, never fatal: the
records around it still replay. ``dealerbox verify`` is the place that judges the chain; the reader only
counts breaks so replay can warn.

A sealed log (record/sealing.py) yields, without the floor's key, its public ``ev`` records (the table events
as ruled, hole cards masked); given an ``opener`` (the floor's private key) it yields the raw records, opened,
exactly as an unsealed log would. A raw record in the clear in a sealed log is never yielded (the recorder
seals every one, so it is not the table's): a skipped line.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

from ..record.logformat import (GENESIS, Closed, Entry, Header, Input, LogFormatError, Public, Record, Rx, Sealed,
                                SealKey, Sig, Tx, chain, from_record, part_number, part_path)

if TYPE_CHECKING:
    from ..record.sealing import Opener
    from .scenario import Step

SCENARIO_SUFFIX = ".scn"


class LogError(ValueError):
    """The file cannot be replayed at all (missing, not a log); the message names the file and what to do."""


class LogSource:
    """Iterable over the records of a recorded log or a compiled scenario, with ``.header``."""

    header: Header

    def __init__(self, path: str | Path, opener: Opener | None = None) -> None:
        self.path = Path(path)
        self.opener = opener
        self.counters: dict[str, int] = {"parts": 0, "records": 0, "skipped_lines": 0, "partial_lines": 0,
                                         "chain_breaks": 0}
        self.steps: list[Step] = []  # a scenario's lines, each with the records it made
        self._records: list[Record] | None = None
        if self.path.suffix == SCENARIO_SUFFIX:
            self._open_scenario()
        else:
            self.header = self._read_header()
            self.sealed = self.header.sealed is not None   # as written: without a key, the public events only
            if opener is not None:
                from ..record.sealing import SealError
                try:
                    self.header = opener.header(self.header)
                except SealError as e:
                    raise LogError(f"{self.path}: {e}") from None

    def _open_scenario(self) -> None:
        from . import scenario  # imported late: reading a recorded log never needs the scenario compiler
        try:
            compiled = scenario.compile_file(self.path)
        except OSError as e:
            raise LogError(f"cannot read scenario {self.path}: {e.strerror or e}") from None
        except scenario.ScenarioError as e:   # names the file and line: one line for every command that reads it
            raise LogError(str(e)) from None
        self.header = compiled.header
        self.steps = list(compiled.steps)
        # Through the log format and back: times get the log's microsecond resolution, so a scenario and
        # the same scenario recorded replay to identical events.
        self._records = [from_record(r.to_record())   # type: ignore[misc]  # a scenario compiles to table records only
                         for r in compiled.records]
        self.counters["parts"] = 0

    def _read_header(self) -> Header:
        try:
            with open(self.path, "rb") as f:
                first = f.readline()
        except FileNotFoundError:
            raise LogError(f"no such log: {self.path}") from None
        except OSError as e:
            raise LogError(f"cannot read log {self.path}: {e.strerror or e}") from None
        try:
            entry = from_record(json.loads(first))
        except (ValueError, LogFormatError, TypeError, AttributeError, RecursionError) as e:
            raise LogError(f"{self.path}: line 1 is not a dealerbox log header ({e}); "
                           f"is this a recorded log or a scenario (*.scn)?") from None
        if not isinstance(entry, Header):
            raise LogError(f"{self.path}: line 1 is not a dealerbox log header; is this the first part?")
        return entry

    def files(self) -> list[Path]:
        """The parts this source reads: from its own file on, while the next part exists."""
        if self._records is not None:
            return [self.path]
        out, n = [self.path], part_number(self.path) + 1
        while (nxt := part_path(self.path, n)).exists():
            out.append(nxt)
            n += 1
        return out

    def __iter__(self) -> Iterator[Record]:
        if self._records is not None:
            for record in self._records:
                self.counters["records"] += 1
                yield record
            return
        prev: str | None = None
        for file in self.files():
            self.counters["parts"] += 1
            yield from self._read_part(file, prev)
            prev = self._last_hash

    _last_hash: str | None = None

    def _read_part(self, file: Path, prev: str | None) -> Iterator[Record]:
        try:
            fh = file.open("rb")
        except OSError:
            self.counters["skipped_lines"] += 1
            return
        with fh:  # streamed line by line: a day's log part must not sit in memory
            yield from self._read_lines(fh, prev)

    def _read_lines(self, fh, prev: str | None) -> Iterator[Record]:
        for raw in fh:
            if not raw.endswith(b"\n"):
                self.counters["partial_lines"] += 1  # a power cut mid-line: the rest is still good
                break
            raw = raw[:-1]
            try:
                rec = json.loads(raw)
                entry: Entry = from_record(rec)
            except (ValueError, LogFormatError, TypeError, AttributeError, RecursionError):   # nested too deep
                self.counters["skipped_lines"] += 1
                continue
            expected_prev = GENESIS if prev is None and isinstance(entry, Header) and entry.part == 0 else prev
            if expected_prev is not None and rec.get("h") != chain(expected_prev, rec):
                self.counters["chain_breaks"] += 1
            prev = self._last_hash = rec.get("h")
            if isinstance(entry, Header | Closed | Sig):  # sig: evidence, not table input
                continue
            if isinstance(entry, SealKey | Sealed | Public):
                opened = self._opened(entry)
                if opened is None:
                    continue
                entry = opened
            elif self.sealed and isinstance(entry, Rx | Tx | Input):
                # a raw record in the clear: the recorder seals every one (sx), so this is not the table's account
                self.counters["skipped_lines"] += 1
                continue
            elif self.sealed and self.opener is None:
                continue   # a link or gap line of a sealed log: its events are among the public ones already
            self.counters["records"] += 1
            yield entry   # type: ignore[misc]  # what is left is a table record, or a gap line the pipeline counts


    def _opened(self, entry: SealKey | Sealed | Public) -> Entry | None:
        """With the floor's key: the raw record (the public events are skipped); without it: the public event."""
        if self.opener is None:
            return entry if isinstance(entry, Public) else None
        if isinstance(entry, SealKey):
            self.opener.key(entry.box)
        elif isinstance(entry, Sealed):
            try:
                opened = self.opener.open(entry)
            except LogFormatError:
                opened = None
            if opened is None:
                self.counters["skipped_lines"] += 1   # a key line lost (the recorder's buffer overflowed) or damage
            return opened
        return None

    sealed = False


def open_log(path: str | Path, opener: Opener | None = None) -> LogSource:
    """A recorded log (its first part, or any part to start there) or a scenario file (``*.scn``).

    Raises :class:`LogError` (one clear line) when the file is missing or is not a log, or is a scenario
    that does not compile (the message names the file and line).
    """
    return LogSource(path, opener)
