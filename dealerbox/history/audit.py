"""Auditing a room: many logs verified and replayed in parallel, the findings counted the ways a manager asks.

:func:`audit_log` does one log in a worker process (verify the hash chain, replay every hand, keep a compact
row per hand); :class:`Room` adds the logs up: findings per rule, per table, per dealer (when the log names
one), per hour; hands per hour; misdeal and ruling rates; every floor-severity finding with its hand.
:func:`audit_room` runs the workers across cores. Rendering (HTML with inline SVG charts, CSV) is report.py.
"""

from __future__ import annotations

import datetime
import functools
import os
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path

from ..record.logformat import part_number
from .summary import Finding, HandSummary

RULED = ("dealer", "floor")   # severities that are a ruling (info findings are notes and prompts)


@dataclass(frozen=True, slots=True)
class HandRow:
    """What the audit keeps of a hand (small: it crosses from the worker process)."""
    log: str
    table: str
    dealer: str
    hand: int
    outcome: str
    hour: str                   # "2025-03-01 22:00" UTC, or "t+3h" when the log has no creation time
    at: str                     # when the hand started: "2025-03-01 22:14:05" UTC, or "t=812.3 s"
    findings: tuple[Finding, ...]
    practice: str = ""          # a house practice the hand was dealt with ("run it twice", "bomb pot, 2 boards")
    game: str = ""              # the variant the hand was dealt as (engine.variants key: "nlhe", "plo8", ...)


@dataclass
class LogAudit:
    path: str
    table: str = ""
    status: str = ""            # "intact", "incomplete", "broken", "unreadable"
    verdict: str = ""           # verify's one line
    first_bad: str = ""         # "file line N: what" for a broken or cut log
    hands: list[HandRow] = field(default_factory=list)
    stray: list[Finding] = field(default_factory=list)   # findings outside any hand
    error: str = ""


def _when(created: datetime.datetime | None, t: float) -> tuple[str, str]:
    if created is None:
        return f"t+{int(t // 3600)}h", f"t={t:.1f} s"
    at = created + datetime.timedelta(seconds=t)
    return at.strftime("%Y-%m-%d %H:00"), at.strftime("%Y-%m-%d %H:%M:%S")


def rows_of(path: str, table: str, dealer: str, created: datetime.datetime | None,
            hands: Iterable[HandSummary]) -> list[HandRow]:
    out = []
    for h in hands:
        hour, at = _when(created, h.started_t)
        out.append(HandRow(path, table, dealer, h.hand, h.outcome, hour, at, h.findings, h.practice, h.game))
    return out


def audit_log(path: str, floor_key: str = "") -> LogAudit:
    """Verify and replay one log (a sealed one from its raw records when ``floor_key``, the floor's private key
    file, is given; else from its public events). Never raises for a bad log: what went wrong is in the result."""
    from ..config import ConfigError
    from ..sources import LogError
    from ..tags import EnrolmentError
    from .fastlog import read_hands_fast
    report = LogAudit(path)
    try:
        opener = None
        if floor_key:
            from ..record.sealing import Opener, load_floor_private
            opener = Opener(load_floor_private(floor_key))
        fast = read_hands_fast(path, opener=opener)
    except (LogError, ConfigError, EnrolmentError, OSError) as e:
        report.status, report.error, report.verdict = "unreadable", str(e), "cannot replay"
        return report
    got, check = fast.hands, fast.check
    if check.intact:   # one pass checked every hash and found the closing record: verify has nothing to add
        report.status, report.verdict = "intact", check.summary(path)
    else:              # something is off: the verifier says exactly what and where
        from ..record.verify import verify_log   # only for a damaged log: an intact one never loads it
        try:
            v = verify_log(path)
            report.verdict = v.summary()
            report.status = "broken" if v.problems else ("intact" if v.closed else "incomplete")
            first = v.problems[0] if v.problems else v.partial_line
            # an unclosed log is damaged too (docs/hand-history.md): the recorder never finished it
            report.first_bad = str(first) if first else ("" if v.closed else f"{Path(path).name}: no closing "
                                                          "record (the recorder did not stop cleanly)")
        except (OSError, ValueError) as e:
            report.status, report.verdict = "unreadable", f"cannot verify: {e}"
    report.table = got.table
    report.hands = rows_of(path, got.table, got.dealer, got.created, got.hands)
    report.stray = got.stray
    return report


def log_paths(args: Iterable[str]) -> tuple[list[str], list[str]]:
    """The first part of every log named or found under a named folder; and what could not be found."""
    found, missing = [], []
    for a in args:
        p = Path(a)
        if p.is_dir():
            found += sorted(str(f) for f in p.rglob("*.jsonl") if part_number(f) == 0)
        elif p.exists():
            found.append(str(p))
        else:
            missing.append(a)
    return list(dict.fromkeys(found)), missing


def audit_room(paths: list[str], jobs: int | None = None,
               progress: Callable[[LogAudit], object] | None = None, floor_key: str = "") -> list[LogAudit]:
    """Every log audited, in parallel over ``jobs`` processes (default: every core), biggest logs first; a sealed
    log from its raw records when ``floor_key`` (the floor's private key file) is given.

    Ctrl-C stops it at once: the workers ignore SIGINT (only this process answers it, with no traceback from
    each worker) and are terminated when the KeyboardInterrupt leaves here."""
    jobs = max(1, jobs or os.cpu_count() or 1)
    order = sorted(paths, key=lambda p: -_size(p))
    from . import fastlog  # noqa: F401  (imported before the workers fork: they inherit it instead of importing it)
    results: dict[str, LogAudit] = {}
    one = functools.partial(audit_log, floor_key=floor_key)   # a partial of a module function: the workers unpickle it
    if jobs > 1 and len(order) > 1:
        import multiprocessing   # not loaded for one log or one job
        import signal
        # SIGINT is held while the workers are forked: one that came before a worker's initializer ran would
        # kill that worker mid-start (its traceback, and a pool that may wait for it forever); held, it reaches
        # this process once the pool stands, and the workers, which inherit the mask, drop it (_ignore_sigint)
        held = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
        try:
            pool = multiprocessing.Pool(min(jobs, len(order)), initializer=_ignore_sigint)
        finally:
            signal.pthread_sigmask(signal.SIG_SETMASK, held)
        with pool:
            # the with-block terminates the workers however it is left (done, Ctrl-C, an error)
            for r in pool.imap_unordered(one, order, chunksize=1):
                results[r.path] = r
                if progress:
                    progress(r)
    else:
        for r in map(one, order):
            results[r.path] = r
            if progress:
                progress(r)
    return [results[p] for p in paths]


def _ignore_sigint() -> None:
    """In each worker: Ctrl-C is the parent's to answer (it terminates the workers)."""
    import signal
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})   # held while forked (audit_room): now ignored


def _size(path: str) -> int:
    try:
        return os.path.getsize(path)
    except OSError:
        return 0


@dataclass
class Room:
    """The room's figures, added up from every log's audit."""
    logs: list[LogAudit]
    hands: int = 0
    misdeals: int = 0
    voids: int = 0
    ruled_hands: int = 0
    by_rule: Counter[str] = field(default_factory=Counter)
    by_table: Counter[str] = field(default_factory=Counter)
    by_dealer: Counter[str] = field(default_factory=Counter)
    by_hour: Counter[str] = field(default_factory=Counter)          # findings per hour
    by_hour_severity: Counter[tuple[str, str]] = field(default_factory=Counter)  # (hour, severity) -> findings
    hands_by_hour: Counter[str] = field(default_factory=Counter)
    by_severity: Counter[str] = field(default_factory=Counter)
    floor: list[tuple[HandRow | None, LogAudit, Finding]] = field(default_factory=list)   # None: outside a hand
    citation: dict[str, str] = field(default_factory=dict)
    severity: dict[str, str] = field(default_factory=dict)                  # rule -> its severity
    by_rule_severity: Counter[tuple[str, str]] = field(default_factory=Counter)  # (rule, severity) -> findings

    @classmethod
    def of(cls, logs: list[LogAudit]) -> Room:
        room = cls(logs)
        for log in logs:
            for row in log.hands:
                room._hand(log, row)
            for f in log.stray:
                room._finding(log, None, log.table, "", "", f)
        return room

    def _hand(self, log: LogAudit, row: HandRow) -> None:
        self.hands += 1
        self.hands_by_hour[row.hour] += 1
        self.misdeals += row.outcome == "misdeal"
        self.voids += row.outcome == "void"
        self.ruled_hands += any(f.severity in RULED for f in row.findings)
        for f in row.findings:
            self._finding(log, row, row.table, row.dealer, row.hour, f)

    def _finding(self, log: LogAudit, row: HandRow | None, table: str, dealer: str, hour: str, f: Finding) -> None:
        self.by_rule[f.rule] += 1
        self.by_rule_severity[f.rule, f.severity] += 1
        self.citation[f.rule] = f.citation
        self.severity[f.rule] = f.severity
        self.by_table[table or "?"] += 1
        if dealer:
            self.by_dealer[dealer] += 1
        if hour:
            self.by_hour[hour] += 1
            self.by_hour_severity[hour, f.severity] += 1
        self.by_severity[f.severity] += 1
        if f.severity == "floor":   # every one, so the list adds up to the headline
            self.floor.append((row, log, f))

    def rate(self, n: int) -> float:
        return n / self.hands if self.hands else 0.0

    @property
    def damaged(self) -> list[LogAudit]:
        return [log for log in self.logs if log.status in ("broken", "unreadable", "incomplete") or log.first_bad]
