"""Checks a recorded log's hash chain across its parts and says exactly where and how it breaks.

>>> import tempfile
>>> from dealerbox.record.logformat import Header, Rx
>>> from dealerbox.record.recorder import Recorder
>>> rec = Recorder(tempfile.mkdtemp(), Header(config={}, enrolment={}), name="demo")
>>> rec.write(Rx(1.0, b"\\x00")); rec.close()
>>> verify_log(rec.path).summary().split(":")[0]
'intact'
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .logformat import GENESIS, LOG_FORMAT, chain, part_number, part_path


@dataclass(frozen=True)
class Problem:
    file: str
    line: int
    what: str

    def __str__(self) -> str:
        return f"{self.file} line {self.line}: {self.what}"


@dataclass
class VerifyReport:
    path: str
    parts: int = 0
    records: int = 0
    first_t: float | None = None
    last_t: float | None = None
    created: str = ""
    closed: bool = False
    partial_line: Problem | None = None       # the power-cut signature: an unfinished last line
    problems: list[Problem] = field(default_factory=list)

    @property
    def intact(self) -> bool:
        """The chain is unbroken and the log was closed by its recorder."""
        return not self.problems and self.closed

    def summary(self) -> str:
        span = "no records" if self.first_t is None else \
            f"t {self.first_t:.3f} .. {self.last_t:.3f} s ({self.last_t - self.first_t:.1f} s)"
        what = f"{self.records} records in {self.parts} part{'s' if self.parts != 1 else ''}, {span}"
        if self.problems:
            return f"BROKEN: {self.problems[0]}"
        if not self.closed:
            tail = f"; {self.partial_line}" if self.partial_line else ""
            return (f"INCOMPLETE: {what}, chain intact, but the log has no closing record: recording stopped "
                    f"without closing (power cut, crash) or the end was cut off{tail}")
        return f"intact: {what}, created {self.created or '?'}"


def verify_log(path: str | Path) -> VerifyReport:
    """Walk every part from ``path`` on; raises OSError only if ``path`` itself cannot be read."""
    path = Path(path)
    first = part_number(path)
    report = VerifyReport(str(path))
    prev = GENESIS
    closed_at: tuple[str, int] | None = None
    n = first
    while True:
        file = part_path(path, n)
        if n != first and not file.exists():
            break
        data = file.read_bytes()
        report.parts += 1
        prev, closed = _verify_part(file, data, n, first, prev, report)
        if closed:
            closed_at = (file.name, closed)
        n += 1
    if closed_at and report.parts != 0 and closed_at[0] != part_path(path, n - 1).name:
        report.problems.append(Problem(closed_at[0], closed_at[1], "closing record is not in the last part"))
    report.closed = closed_at is not None
    return report


def _verify_part(file: Path, data: bytes, n: int, first: int, prev: str, report: VerifyReport) -> tuple[str, int]:
    """Check one part; returns the chain hash at its end and the line of its closing record (0 if none)."""
    lines = data.split(b"\n")
    partial = lines.pop()  # b"" when the file ends with a newline
    recs: list[dict[str, Any] | None] = []
    for raw in lines:
        try:
            rec = json.loads(raw)
            recs.append(rec if isinstance(rec, dict) else None)
        except (ValueError, UnicodeDecodeError):
            recs.append(None)
    name = file.name
    if partial:
        problem = Problem(name, len(lines) + 1, f"unfinished last line ({len(partial)} bytes), skipped")
        if part_path(file, n + 1).exists():
            report.problems.append(Problem(name, len(lines) + 1, "unfinished line in the middle of a rotated set"))
        else:
            report.partial_line = problem
    closed = 0
    for i, rec in enumerate(recs):
        line = i + 1
        if rec is None:
            report.problems.append(Problem(name, line, "not a JSON record (the line was damaged or edited)"))
            continue
        if closed:
            report.problems.append(Problem(name, line, "a record after the closing record (appended later)"))
            closed = 0
        if i == 0:
            if rec.get("k") != "header" or rec.get("format") != LOG_FORMAT:
                report.problems.append(Problem(name, line, "first line is not a dealerbox log header"))
            else:
                if rec.get("part") != n:
                    report.problems.append(Problem(name, line, f"header says part {rec.get('part')}, file is part {n}"))
                if n == first and n > 0:
                    prev = rec.get("prev", GENESIS)  # starting mid-set: trust where this part says it follows on
                if rec.get("prev") != prev:
                    report.problems.append(Problem(name, line, "header does not follow on from the previous part "
                                                   "(lines were cut from its end, or a part was replaced)"))
                report.created = report.created or str(rec.get("created", ""))
        want = chain(prev, rec)
        if rec.get("h") != want:
            report.problems.append(Problem(name, line, _diagnose(recs, i, prev)))
        prev = rec.get("h", want)  # follow the stored chain so one damage is reported once
        kind = rec.get("k")
        if kind == "closed":
            closed = line
        elif kind not in ("header",) and isinstance(rec.get("t"), int | float) and kind != "gap":
            report.records += 1
            t = float(rec["t"])
            report.first_t = t if report.first_t is None else min(report.first_t, t)
            report.last_t = t if report.last_t is None else max(report.last_t, t)
    return prev, closed


def _diagnose(recs: list[dict[str, Any] | None], i: int, prev: str) -> str:
    """Name what happened at a hash mismatch: a deletion, an insertion or an edit."""
    rec = recs[i]
    assert rec is not None
    nxt = recs[i + 1] if i + 1 < len(recs) else None
    before = recs[i - 1] if i > 0 else None
    expected_n = before["n"] + 1 if before is not None and isinstance(before.get("n"), int) else i
    got_n = rec.get("n")
    if isinstance(got_n, int) and got_n > expected_n:
        missing = got_n - expected_n
        return f"{missing} line{'s' if missing > 1 else ''} deleted just before this line (record {expected_n} missing)"
    if nxt is not None and nxt.get("h") == chain(prev, nxt):
        return "this line was inserted: the chain goes on from the line before it"
    if nxt is not None and nxt.get("h") == chain(rec.get("h", ""), nxt):
        return "this line was edited: its content does not match its hash"
    return "hash does not match (the line was edited, or lines around it were changed)"
