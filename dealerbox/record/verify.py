"""Checks a recorded log's hash chain across its parts and says exactly where and how it breaks.

Given the table's public key, it also checks the signatures (signing.py): every ``sig`` must sign the head it
follows, every part but the last must end with one, a closed log must end with one after ``closed``, and an
unsigned log fails. Given anchors (signed heads the floor saw), each must be found in the log with the same
hash: a rewrite that recomputed every unkeyed hash, a cut end, or a swapped part all fail.

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
import re
from dataclasses import dataclass, field
from pathlib import Path
from collections.abc import Callable
from typing import Any

from .anchor import hand_conflicts
from .logformat import GENESIS, LOG_FORMAT, chain, part_number, part_path
from .signing import check_signature

STORED_H = re.compile(rb'"h":"([0-9a-f]{64})"')


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
    pubkey: str = ""                          # checking signatures with this key (hex); "" = chain only
    table: str = ""
    signatures: int = 0                       # good signatures seen
    last_signed: Problem | None = None        # where the last good signature is
    unsigned_tail: int = 0                    # records after the last good signature
    heads: dict[tuple[int, int], str] = field(default_factory=dict)   # (part, n) -> h, for anchors
    origin: str = ""                          # h of part 0's header: the log's identity for anchors
    anchors_checked: int = 0
    anchors_other: int = 0                    # anchors of the table's other logs, not this one's
    log_id: str = ""                          # the header's log identity (a signed log's): id and place
    log_seq: int = 0
    key_refused: bool = False                 # unsigned, or signed by another key: one verdict, no follow-ons
    anchored_to: tuple[int, int] | None = None   # the last head the floor anchored in this log (part, n)
    last_signed_at: tuple[int, int] | None = None  # the last head the log signs (part, n)
    notes: list[str] = field(default_factory=list)   # what the anchors say that is not this log's fault
    anchors_from: str = ""                    # where the anchors came from, said in the summary

    @property
    def intact(self) -> bool:
        """The chain is unbroken and the log was closed by its recorder."""
        return not self.problems and self.closed

    def summary(self) -> str:
        first, last = self.first_t, self.last_t
        span = "no records" if first is None or last is None else \
            f"t {first:.3f} .. {last:.3f} s ({last - first:.1f} s)"
        what = f"{self.records} records in {self.parts} part{'s' if self.parts != 1 else ''}, {span}"
        if self.problems:
            return f"BROKEN: {self.problems[0]}"
        signed = ""
        if self.pubkey:
            signed = f", {self.signatures} signatures good"
            if self.anchors_checked or self.anchors_other:
                signed += f", {self.anchors_checked} anchors found"
            if self.anchors_other:
                signed += f" ({self.anchors_other} given are of other logs)"
            if self.anchors_from and (self.anchors_checked or self.anchors_other):
                signed += f" {self.anchors_from}"
            if self.anchored_to is not None and self.last_signed_at is not None and \
                    self.last_signed_at > self.anchored_to:
                # the window: heads the table signed that the floor does not hold (docs/security.md)
                signed += (f"; the signed heads after part {self.anchored_to[0]} record {self.anchored_to[1]} "
                           f"are not on the floor, so that end is proven by the key alone")
        if not self.pubkey:
            # the unkeyed chain is recomputable by anyone with a shell: never let it read as proof
            signed = (", self-consistent only: nothing was authenticated (pass --pubkey TABLE.pub, and "
                      "--from-floor URL or --anchors FILE, to prove the table wrote it and nobody cut it)")
        if not self.closed:
            tail = f"; {self.partial_line}" if self.partial_line else ""
            if self.pubkey and self.unsigned_tail:
                tail += (f"; the last {self.unsigned_tail} records come after the last signature "
                         f"({self.last_signed or 'none'}) and are not proven")
            return (f"INCOMPLETE: {what}{signed}, chain intact, but the log has no closing record: recording "
                    f"stopped without closing (power cut, crash) or the end was cut off{tail}")
        verdict = "intact" if self.pubkey else "intact, unauthenticated"
        return f"{verdict}: {what}, created {self.created or '?'}{signed}"


def verify_log(path: str | Path, pubkey: str = "", anchors: list[dict[str, Any]] | None = None,
               read: Callable[[int], object] | None = None) -> VerifyReport:
    """Walk every part from ``path`` on; raises OSError only if ``path`` itself cannot be read.

    Any file name works: the one given is read as is, later parts are looked for by the naming rule.
    ``read`` is told the bytes checked as the walk goes (a progress bar's updates).
    """
    path = Path(path)
    first = part_number(path)
    report = VerifyReport(str(path), pubkey=pubkey)
    prev = GENESIS
    closed_at: tuple[str, int] | None = None
    n = first
    last_file = path
    while True:
        file = path if n == first else part_path(path, n)
        if n != first and not file.exists():
            break
        data = file.read_bytes()
        report.parts += 1
        last_file = file
        prev, closed = _verify_part(file, data, n, first, prev, report, read or _unwatched)
        if closed:
            closed_at = (file.name, closed)
        n += 1
    if closed_at and report.parts != 0 and closed_at[0] != last_file.name:
        report.problems.append(Problem(closed_at[0], closed_at[1], "closing record is not in the last part"))
    report.closed = closed_at is not None
    if anchors and not report.key_refused:
        _check_anchors(report, anchors, path, first)
    return report


def _identity_problems(report: VerifyReport, anchors: list[dict[str, Any]], name: str) -> list[dict[str, Any]]:
    """The anchors that name this log's identity; what the floor holds for the table that the file contradicts
    is a problem: a log put in another's place, a rewritten header, or a log the floor never anchored."""
    table = [a for a in anchors if "a" in a and a.get("table") in ("", None, report.table)]
    others = sorted({str(a.get("table")) for a in anchors if "a" in a} - {"", "None", report.table})
    if not table and others:
        # heads were given, all of other tables: a log relabelled as another table (re-signed under the new name
        # with the key in hand) must not set them aside and pass on its signatures alone
        report.problems.append(Problem(name, 1, f"this log names table {report.table or '(none)'}, and none of the "
                                                f"signed heads given is of it (they are of {', '.join(others)}): "
                                                f"nothing the floor saw proves it (a relabelled log, or the wrong "
                                                f"--table or anchors)"))
        return []
    if not table:
        return []                              # version 1 anchors only: matched by origin or name below
    mine = [a for a in table if a.get("log") == report.log_id and report.log_id]
    if not report.log_id:
        report.problems.append(Problem(name, 1, "the log names no identity (no header log id) while the floor holds "
                                                "signed heads for this table: it is not a log the table recorded"))
        return []
    taken = [a for a in table if report.log_seq and a.get("seq") == report.log_seq and a.get("log") != report.log_id]
    if taken and not mine:
        report.problems.append(Problem(name, 1, f"the floor anchored {report.table}'s log {report.log_seq} as log "
                                                f"{taken[0].get('log')}, this file says {report.log_id}: another "
                                                f"recording was put in its place"))
    elif not mine:
        report.problems.append(Problem(name, 1, f"the floor holds no signed head of this log (id {report.log_id}, "
                                                f"place {report.log_seq}) among {len(table)} of {report.table}'s: "
                                                f"nothing the floor saw proves it (a rewritten or relabelled log)"))
    report.anchors_other += len(table) - len(mine)
    return mine


def _hand_problems(report: VerifyReport, anchors: list[dict[str, Any]], name: str) -> None:
    """What the table's other logs on the floor say against this one's hands or place (anchor.hand_conflicts):
    this log repeating hands another log was anchored with first, or going back in the sequence, is a problem;
    another log repeating this one's hands, or hands that no log holds before it, is a note."""
    if not report.log_id:
        return
    table = [a for a in anchors if "a" in a and a.get("table") in ("", None, report.table)]
    for c in hand_conflicts(table):
        if c.log == report.log_id and c.kind != "gap":
            report.problems.append(Problem(name, 1, c.text()))
        elif c.log == report.log_id or c.other == report.log_id:
            report.notes.append(c.text())


def _check_anchors(report: VerifyReport, anchors: list[dict[str, Any]], path: Path, first: int) -> None:
    """Each anchor (a signed head the floor kept) must be in the log, unchanged."""
    name = part_path(path, 0).name
    last = max(report.heads, default=(first, -1))
    legacy = [a for a in anchors if "a" not in a]
    _hand_problems(report, anchors, name)
    anchors = _identity_problems(report, anchors, name) + legacy
    for a in sorted(anchors, key=lambda a: (int(a.get("part", 0)), int(a.get("n", 0)))):
        # Which log an anchor is of: by its identity or origin (any file name), or by name (version 1 anchors).
        named = a.get("log") in (None, "", name, path.name) or "a" in a
        mine = a.get("origin") == report.origin if a.get("origin") and report.origin else named
        if not mine and named:
            report.problems.append(Problem(name, 1, "not the log the floor anchored under this name (its first "
                                                    "line differs): another recording was put in its place"))
            continue
        if not mine:
            report.anchors_other += 1
            continue
        part, n, head = int(a.get("part", 0)), int(a.get("n", 0)), str(a.get("head", ""))
        if part < first:
            continue
        if report.pubkey and a.get("sig") and not check_signature(report.pubkey, report.table, part, n, head,
                                                                 str(a["sig"])):
            report.problems.append(Problem(name, 0, f"anchor for part {part} record {n} is not signed by this "
                                                   f"key (a forged anchor, or the wrong --pubkey)"))
            continue
        file = part_path(path, part).name
        got = report.heads.get((part, n))
        if got is None and (part, n) > last:
            report.problems.append(Problem(file, n + 1, f"the log ends before the anchored head (part {part} "
                                                        f"record {n}): its end was cut off"))
        elif got != head:
            report.problems.append(Problem(file, n + 1, f"record {n} differs from the head the floor anchored: "
                                                        f"the log was rewritten at or before this line"))
        else:
            report.anchors_checked += 1
            report.anchored_to = max(report.anchored_to or (part, n), (part, n))


def _unwatched(n: int) -> None:
    return None


def _verify_part(file: Path, data: bytes, n: int, first: int, prev: str, report: VerifyReport,
                 read: Callable[[int], object]) -> tuple[str, int]:
    """Check one part; returns the chain hash at its end and the line of its closing record (0 if none)."""
    lines = data.split(b"\n")
    partial = lines.pop()  # b"" when the file ends with a newline
    recs: list[dict[str, Any] | None] = []
    stored_h: dict[int, str] = {}     # the ``h`` still readable in a damaged line, so the next line checks
    for i, raw in enumerate(lines):
        try:
            rec = json.loads(raw.decode("utf-8"))
            recs.append(rec if isinstance(rec, dict) else None)
        except (ValueError, UnicodeDecodeError, RecursionError):   # RecursionError: nested too deep
            recs.append(None)
        if recs[-1] is None and (m := STORED_H.search(raw)):
            stored_h[i] = m.group(1).decode()
    name = file.name
    if not lines and not partial:
        if n > 0 and not part_path(file, n + 1).exists():
            # the recorder was stopped as it rotated, before the new part's header: nothing was written there
            report.partial_line = Problem(name, 1, "empty last part (stopped as it rotated), skipped")
            return prev, 0
        report.problems.append(Problem(name, 1, "empty file: not a dealerbox log (no header)"))
        return prev, 0
    seals = _Seals(report, name, n) if report.pubkey else None
    if partial:
        problem = Problem(name, len(lines) + 1, f"unfinished last line ({len(partial)} bytes), skipped")
        if part_path(file, n + 1).exists():
            report.problems.append(Problem(name, len(lines) + 1, "unfinished line in the middle of a rotated set"))
        else:
            report.partial_line = problem
    closed = 0
    done = 0     # bytes checked and not yet told to ``read``
    for i, rec in enumerate(recs):
        line = i + 1
        done += len(lines[i]) + 1
        if line % 4096 == 0:   # a bar's update per line would cost more than the hash it reports
            read(done)
            done = 0
        if rec is None:
            report.problems.append(Problem(name, line, "not a JSON record (the line was damaged or edited)"))
            prev = stored_h.get(i, "")   # unknown: the next line's hash cannot be checked, only this one blamed
            continue
        if closed and rec.get("k") != "sig":
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
                if n == 0 and isinstance(rec.get("log"), dict):
                    report.log_id = str(rec["log"].get("id", ""))
                    report.log_seq = int(rec["log"].get("seq", 0) or 0)
                config = rec.get("config")
                table = config.get("table", {}) if isinstance(config, dict) else {}
                report.table = report.table or (str(table.get("id", "")) if isinstance(table, dict) else "")
                if seals:
                    seals.header(rec)
        want = chain(prev, rec)
        if rec.get("h") != want and (prev or i == 0):
            report.problems.append(Problem(name, line, _diagnose(recs, i, prev)))
        kind = rec.get("k")
        if seals and kind == "sig" and i > 0:
            seals.sig(rec, line, recs[i - 1], prev)
        elif seals and i > 0:
            seals.unsigned(kind)
        prev = rec.get("h", want)  # follow the stored chain so one damage is reported once
        if isinstance(rec.get("n"), int):
            report.heads[(n, rec["n"])] = str(prev)
            if n == 0 and i == 0:
                report.origin = str(prev)
        if kind == "closed":
            closed = line
        elif kind not in ("header",) and isinstance(rec.get("t"), int | float) and kind != "gap":
            report.records += 1
            t = float(rec["t"])
            report.first_t = t if report.first_t is None else min(report.first_t, t)
            report.last_t = t if report.last_t is None else max(report.last_t, t)
    read(done + len(partial))
    if seals:
        seals.end(len(recs), more=part_path(file, n + 1).exists(), closed=bool(closed))
    return prev, closed


class _Seals:
    """The signature checks of one part (only when a public key is given)."""

    def __init__(self, report: VerifyReport, name: str, part: int) -> None:
        self.report, self.name, self.part = report, name, part
        self.last_is_sig = False
        self.signed = False

    def header(self, rec: dict[str, Any]) -> None:
        r = self.report
        if r.key_refused:
            return
        if not rec.get("signer"):
            r.problems.append(Problem(self.name, 1, "the log is not signed (version 1 header): nothing proves "
                                                    "it was not rewritten"))
            r.key_refused = True
        elif rec["signer"] != r.pubkey:
            r.problems.append(Problem(self.name, 1, "signed with another key than --pubkey (another table's "
                                                    "log, a replaced part, or the key was rotated)"))
            r.key_refused = True

    def sig(self, rec: dict[str, Any], line: int, before: dict[str, Any] | None, prev: str) -> None:
        r = self.report
        if r.key_refused:
            return
        of = before.get("n") if isinstance(before, dict) else None
        good = (rec.get("head") == prev and rec.get("of") == of and
                check_signature(r.pubkey, r.table, self.part, int(of or 0), prev, str(rec.get("sig", ""))))
        if not good:
            since = f"after {r.last_signed}" if r.last_signed else "from the start of the log"
            r.problems.append(Problem(self.name, line, f"signature does not match the chain: the lines {since} "
                                                       f"up to line {line - 1} are not what the table signed "
                                                       f"(rewritten, and the hashes recomputed)"))
        else:
            r.signatures += 1
            r.last_signed = Problem(self.name, line, "last good signature")
            r.last_signed_at = (self.part, int(of or 0))
            r.unsigned_tail = 0
        self.last_is_sig = good

    def unsigned(self, kind: object) -> None:
        """A line after a signature that no signature covers yet; ``kind`` is the line's ``k`` as read (any JSON)."""
        self.last_is_sig = False
        if kind != "closed":
            self.report.unsigned_tail += 1

    def end(self, lines: int, more: bool, closed: bool) -> None:
        if self.last_is_sig or self.report.key_refused:
            return
        if more:
            self.report.problems.append(Problem(self.name, lines, "the part does not end with its signature (lines "
                                                                  "were cut from its end, or the part was replaced)"))
        elif closed:
            self.report.problems.append(Problem(self.name, lines, "the closing line is not signed: the end of the "
                                                                  "log was cut off and a closing line forged"))


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
