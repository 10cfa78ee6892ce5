"""When a part of the log ends and what opens the next one.

A part ends when it reaches ``rotate_bytes`` (after at least one record, however large the header), and with
``rotate_daily`` at the first record after midnight UTC, so a day of table log is a set of whole files that
retention (dealerbox/upkeep/retention.py) can delete once a copy is off the table. A new part opens alone:
its header (chained to the part before, with the board's latest HELLO) and, in a sealed log, the current
hand's key again.
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Callable
from typing import Any

from ..wire import protocol as p
from ..wire.decoder import FrameDecoder
from .logformat import Closed, Entry, Header, SealKey, Sig


class PartPlan:
    """Given the log's header, the size limit, whether to rotate daily and the wall clock; owns the day and the
    record count of the current part, the board's last HELLO (only for later parts' headers) and the seal key
    the records being written need."""

    def __init__(self, header: Header, rotate_bytes: int, rotate_daily: bool, wall: Callable[[], float]) -> None:
        self.header = header
        self._rotate_bytes = rotate_bytes
        self._rotate_daily = rotate_daily
        self._wall = wall
        self._part_day = ""         # UTC date the current part was started on (daily rotation)
        self._part_records = 0      # lines after the current part's header
        self._seal_key: SealKey | None = None   # the key line of the records being written (repeated in a new part)
        # Only the HELLOs matter here: the tag bodies are not remembered (the pipeline's decoder does that), or
        # this watch would keep a second copy of every (zone, tag) pair the board reports.
        self._hello_watch = FrameDecoder(remember=0)
        self._last_hello: p.Hello | None = None

    def watch(self, data: bytes) -> None:
        """Raw bytes from the board: keep its latest HELLO."""
        for frame in self._hello_watch.feed(data):
            if isinstance(frame.message, p.Hello):
                self._last_hello = frame.message

    def wrote(self, entry: Entry) -> None:
        """``entry`` is in the current part."""
        if isinstance(entry, Header):
            self._part_day, self._part_records = self._today(), 0
        else:
            self._part_records += 1
        if isinstance(entry, SealKey):
            self._seal_key = entry

    def new_day(self, entry: Entry) -> bool:
        """A new part before ``entry``: daily rotation, only before a record (never splitting a header from its
        part, nor a closing line and its signature), and only when the current part already holds a record."""
        return (self._rotate_daily and not isinstance(entry, Header | Closed | Sig) and self._part_day != ""
                and self._part_records > 0 and self._today() != self._part_day)

    def full(self, size: int, entry: Entry) -> bool:
        """A new part after ``entry`` (written, leaving ``size`` bytes in the part): a part holds at least one
        record, however large the header is."""
        return size >= self._rotate_bytes and not isinstance(entry, Header | Closed | Sig)

    def opening(self, part: int, prev: str) -> list[Entry]:
        """The lines that open part ``part``, chained to ``prev``: the header, then the hand's key if sealed."""
        hello = self._hello_dict()
        out: list[Entry] = [dataclasses.replace(self.header, part=part, prev=prev,
                                                hello=hello if hello is not None else self.header.hello)]
        if self._seal_key is not None:   # each part opens alone: the hand's key again, after its header
            out.append(self._seal_key)
        return out

    def _today(self) -> str:
        return time.strftime("%Y-%m-%d", time.gmtime(self._wall()))

    def _hello_dict(self) -> dict[str, Any] | None:
        h = self._last_hello
        if h is None:
            return None
        return {"protocol": f"{h.protocol_major}.{h.protocol_minor}", "firmware": ".".join(map(str, h.firmware)),
                "zones": [p.zone_name(z) for z in h.zones]}
