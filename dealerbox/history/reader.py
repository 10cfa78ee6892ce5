"""Table events of a recorded log or scenario, for tools that read whole logs (export, audit, bench).

The same path as ``dealerbox replay``: :func:`dealerbox.sources.open_log`, then ``Pipeline.from_header``
(the log's own config and enrolment), then the decoder and the engine. A sealed log read without the floor's key
gives its public events instead (record/sealing.py), the same objects with hole cards masked.
"""

from __future__ import annotations

import datetime
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..engine.events import TableEvent
from ..pipeline import Pipeline
from ..record.logformat import Header, Public
from ..record.sealing import Opener
from ..record.transcript import TranscriptError, event_from_dict
from ..sources import LogSource, open_log
from .summary import Finding, HandBook, HandSummary, Stakes, stakes_of


@dataclass
class LogHands:
    """Every hand of one log, with what is needed to say where it came from."""
    path: Path
    table: str
    created: datetime.datetime | None
    stakes: Stakes
    hands: list[HandSummary]
    dealer: str = ""                                           # the signed-in dealer, when the log names one
    stray: list[Finding] = field(default_factory=list)        # findings raised outside any hand
    counters: dict[str, int] = field(default_factory=dict)   # the reader's and the decoder's


def created_of(header: Header) -> datetime.datetime | None:
    """The header's UTC ``created`` stamp (anchors source time to the wall clock); None if absent or bad."""
    text = getattr(header, "created", None)
    if not text:
        return None
    try:
        return datetime.datetime.fromisoformat(str(text).replace("Z", "+00:00"))
    except ValueError:
        return None


def table_of(header: Header) -> str:
    table = header.config.get("table", {}) if isinstance(header.config, dict) else {}
    return str(table.get("id", "")) if isinstance(table, dict) else ""


def events(source: LogSource, pipeline: Pipeline) -> Iterator[TableEvent]:
    for entry in source:
        if isinstance(entry, Public):   # a sealed log without the floor's key: the events as the table ruled them
            try:
                yield event_from_dict(entry.e)
            except TranscriptError:
                source.counters["skipped_lines"] += 1
            continue
        yield from pipeline.feed(entry)


def read_hands(path: str | Path, reveal: bool = False, opener: Opener | None = None) -> LogHands:
    """Replay one log and summarise its hands. Raises LogError (and the config/enrolment errors) like replay."""
    source = open_log(path, opener)
    pipeline = Pipeline.from_header(source.header)
    table, stakes = table_of(source.header), stakes_of(source.header.config)
    book = HandBook(table, stakes, reveal, keep=True)
    for event in events(source, pipeline):
        book.feed(event)
    book.flush()
    hands = book.hands
    counters = {**source.counters, **pipeline.counters()}
    return LogHands(Path(path), table, created_of(source.header), stakes, hands, dealer_of(source.header.config),
                    book.stray_findings, counters)


def dealer_of(config: dict[str, Any]) -> str:
    """The dealer signed in for the log, when its config names one (``table.dealer``; the evidence issue)."""
    table = config.get("table", {}) if isinstance(config, dict) else {}
    name = table.get("dealer") if isinstance(table, dict) else None
    return str(name) if name else ""
