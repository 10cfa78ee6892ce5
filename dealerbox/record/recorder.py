"""The recorder: writes the tamper-evident recorded log (docs/log-format.md), rotating by size and by day.

With ``rotate_daily`` a new part starts at the first record after midnight UTC (rotation.py), so a day of
table log is a set of whole files that retention (dealerbox/upkeep/retention.py) can delete once a copy is off
the table.

Durability policy: every record is written to the file at once (no userspace buffer), so a crash of
dealerbox loses nothing. ``fsync`` (what survives a power cut) runs on every dealer input and link change,
on rotation and close, and otherwise at most once per ``fsync_every_s`` of clock time: a power cut can
lose the last second of raw bytes, never a dealer's tap. A power cut mid-line leaves one partial last line,
which readers skip and count.

A write error (disk full, card pulled) never raises out of :meth:`Recorder.write`: it is counted, logged
once with what to do, and the records wait in a bounded memory buffer that is retried at most once per
``retry_every_s``. If the buffer overflows, the oldest waiting records are dropped and a ``gap`` record
says how many, so the chain stays whole and honest.

With a ``signer`` (the table's key, signing.py) the log is signed: a ``sig`` record after every hand's end
(:meth:`Recorder.seal`, called by the terminal), as the last line of every rotated part, and after the
closing line. Files are created 0640: the group (the floor's log collector) may read, nobody else. A hand's
end is not the only time a head is signed: :meth:`Recorder.sign_if_idle` (called by the terminal's core loop)
signs when records have waited unsigned longer than ``sign_idle_s`` of the recorder's clock, so the taps after a
hand's end (an award corrected on a break) are signed and anchored within that time, not at the next hand's end.

With ``seal_to`` (the floor's X25519 public key, sealing.py) the log is sealed: what reveals hole cards (the
decks, every raw read and tap) is written encrypted to the floor, and the table events in the clear beside it.

>>> import tempfile
>>> from dealerbox.record.logformat import Header, Rx
>>> rec = Recorder(tempfile.mkdtemp(), Header(config={}, enrolment={}), name="demo")
>>> rec.write(Rx(0.5, b"\\x01\\x00"))
>>> rec.close()
>>> rec.health()["records"]
1
"""

from __future__ import annotations

import dataclasses
import logging
import os
import threading
import time
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .backlog import Backlog
from .clock import clock_status
from .heads import Anchor, HeadSigning
from .identity import AnchorChain, ledger_path, new_log_id
from .logformat import ChainWriter, Closed, Gap, Header, Input, Link, Record, Rx, Sig
from .partfile import PartFile
from .rotation import PartPlan
from .sealing import Rules, Sealer
from .sequence import HandCount
from .signing import Signer

if TYPE_CHECKING:
    from nacl.public import PublicKey

log = logging.getLogger("dealerbox.record")

DEFAULT_ROTATE_BYTES = 64 * 1024 * 1024


class Recorder:
    """Owns the log files of one recording. ``write`` is thread-safe and never raises for I/O problems.

    Wired here from parts that each own their state: the :class:`PartFile` (the file, its durability, its
    write errors), the :class:`Backlog` (records waiting, drops and the gap), the hash chain, the
    :class:`PartPlan` (when a part ends, what opens the next), the :class:`HeadSigning` of a signed log, the
    :class:`Sealer` of a sealed one and the :class:`HandCount`. The recorder itself keeps only the order of
    things: what is written next, and how many records are in the log.
    """

    def __init__(self, directory: str | os.PathLike[str], header: Header, rotate_bytes: int = DEFAULT_ROTATE_BYTES, *,
                 name: str | None = None, clock: Callable[[], float] = time.monotonic,
                 fsync_every_s: float = 1.0, retry_every_s: float = 1.0, buffer_max: int = 10_000,
                 signer: Signer | None = None, hand_count: str | os.PathLike[str] | None = None,
                 rotate_daily: bool = False, wall: Callable[[], float] = time.time,
                 seal_to: PublicKey | None = None, rules: Callable[[Header], Rules] | None = None,
                 sign_idle_s: float = 60.0) -> None:
        created = header.created or datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
        count_path = Path(hand_count) if hand_count else None
        self._hands = HandCount(count_path, header.table, header.hands_before)
        # a signed log's identity (identity.py): its id and place in the table's logs, bound by every signed head
        anchors = AnchorChain.open(ledger_path(count_path) if count_path else None, header.table)
        anchors.log_hands(self.hands_before)   # each anchor names the hands of this log
        identity = {"id": new_log_id(), "seq": anchors.next_log()} if signer else None
        header = dataclasses.replace(header, created=created, part=0, log=identity,
                                     signer=signer.public_hex if signer else "", hands_before=self.hands_before)
        if seal_to is not None and rules is None:
            raise ValueError("a sealed log needs the rules its clear events are written with (pipeline.public_events)")
        self._sealer = Sealer(seal_to, header, rules(header)) if seal_to is not None and rules is not None else None
        if self._sealer is not None:
            header = self._sealer.header
        self._plan = PartPlan(header, max(1024, int(rotate_bytes)), rotate_daily, wall)
        self._files = PartFile(Path(directory), name or _default_name(header), clock, fsync_every_s,
                               f"keeping up to {buffer_max} records in memory and retrying every "
                               f"{retry_every_s:.0f} s: free space on the card or check record.dir")
        self._heads = HeadSigning(signer, anchors, header, self._files.path.name) if signer else None
        self._backlog = Backlog(clock, buffer_max, retry_every_s)
        self._chain = ChainWriter()
        self._lock = threading.Lock()
        self._clock = clock
        self._sign_idle_s = sign_idle_s
        self._unsigned_since: float | None = None   # when the oldest record not yet under a signature came
        self._closed = False
        self._last_t = 0.0
        self.records = 0           # records written (header and closing line not counted)
        self._backlog.add((header,))
        self._drain(force=True)

    # --- public -------------------------------------------------------------------------------------
    def write(self, entry: Record) -> None:
        """Append one record (to the buffer first if the disk is failing)."""
        with self._lock:
            if self._closed:
                return
            if isinstance(entry, Rx):
                self._plan.watch(entry.data)
            if self._unsigned_since is None and self._heads is not None:
                self._unsigned_since = self._clock()
            self._backlog.add(self._sealer.entries(entry) if self._sealer is not None else (entry,))
            self._drain(force=isinstance(entry, Input | Link))
            self._backlog.trim()

    def seal(self, t: float | None = None, hand: int | None = None) -> None:
        """A hand ended: keep the hand count, and sign the chain head as it stands after every record so far."""
        if hand is not None:
            self._hands.save(hand)
        with self._lock:
            if hand is not None and self._heads is not None:
                self._heads.hand_ended(hand)
            if self._closed or self._heads is None:
                return
            self._backlog.add((Sig(self._last_t if t is None else t, -1, "", ""),))
            self._unsigned_since = None
            self._drain(force=True)

    def sign_if_idle(self) -> bool:
        """Sign the head if records have waited unsigned for ``sign_idle_s`` or longer (the terminal calls this on
        every turn of its loop; a signed log only). True when it signed: the head goes to the floor as any."""
        with self._lock:
            since = self._unsigned_since
            if self._closed or self._heads is None or since is None or self._sign_idle_s <= 0 \
                    or self._clock() - since < self._sign_idle_s:
                return False
            t = self._backlog.last_t(self._last_t)   # the last record's time, even one still waiting for the disk
            self._backlog.add((Sig(t, -1, "", ""),))
            self._unsigned_since = None
            self._drain(force=True)
            return True

    def close(self) -> None:
        """Write the closing line and fsync. Waiting records get one last try."""
        with self._lock:
            if self._closed:
                return
            last_t = self._backlog.last_t(self._last_t)
            self._backlog.add((Closed(last_t, self.records + self._backlog.records_waiting(), self.part + 1),))
            if self._heads is not None:
                self._backlog.add((Sig(last_t, -1, "", ""),))  # signs the closing line: a forged end has none
            self._drain(force=True, sync=True)
            if len(self._backlog):
                log.error("recorder: closing %s with %d records never written (%s)", self.path.name,
                          len(self._backlog), self._files.last_error)
            self._files.close()
            self._closed = True

    def health(self) -> dict[str, Any]:
        with self._lock:
            files = self._files
            return {"ok": not len(self._backlog), "path": str(files.current_path),
                    "part": files.part, "records": self.records, "bytes": files.bytes_written,
                    "write_errors": files.write_errors + self._hands.errors, "buffered": len(self._backlog),
                    "dropped": self._backlog.dropped, "last_error": files.last_error, "anchor": self.anchor,
                    "clock": clock_status()}

    # what the terminal, the tools and the tests read, each from the part that owns it
    @property
    def path(self) -> Path:
        return self._files.path

    @property
    def part(self) -> int:
        return self._files.part

    @property
    def current_path(self) -> Path:
        return self._files.current_path

    @property
    def parts(self) -> list[Path]:
        return self._files.parts

    @property
    def bytes_written(self) -> int:
        return self._files.bytes_written

    @property
    def dropped(self) -> int:
        return self._backlog.dropped

    @property
    def hands_before(self) -> int:
        return self._hands.hands_before

    @property
    def anchor(self) -> Anchor | None:
        """The latest signed head (None for an unsigned log, or before the first)."""
        return self._heads.anchor if self._heads is not None else None

    @property
    def on_anchor(self) -> Callable[[Anchor], None] | None:
        return self._heads.on_anchor if self._heads is not None else None

    @on_anchor.setter
    def on_anchor(self, handler: Callable[[Anchor], None] | None) -> None:
        """Who is handed every signed head, in order (the floor link); an unsigned log has none to hand."""
        if self._heads is not None:
            self._heads.hand_to(handler)

    def _close_file(self) -> None:
        """Close the current file as a failing card would; the next write opens it again (the tests' way in)."""
        self._files.close()

    # --- writing --------------------------------------------------------------------------------------

    def _drain(self, force: bool = False, sync: bool = False) -> None:
        """Write waiting records in order; on the first error stop, keep the rest, and report once."""
        files, backlog, chain, plan = self._files, self._backlog, self._chain, self._plan
        go, now = backlog.attempt(failing=files.write_errors > 0, force=force)
        if not go:
            return
        wrote_important = False
        while len(backlog):
            entry, gap = backlog.next()
            if isinstance(entry, Sig) and not entry.sig:
                assert self._heads is not None   # only a signed log queues a signature
                entry = self._heads.signature(chain, files.part, entry.t)
            if plan.new_day(entry):
                self._rotate()
                continue
            text, h = chain.peek(entry)
            if not files.append(text.encode()):
                return
            backlog.written(gap)
            chain.commit(h, header=isinstance(entry, Header))
            plan.wrote(entry)
            if isinstance(entry, Header) and entry.part == 0 and self._heads is not None:
                self._heads.opened(h)   # names this log among the table's logs (anchors carry it)
            if isinstance(entry, Sig):
                assert self._heads is not None
                self._heads.signed(entry, files.part)
            if not isinstance(entry, Header | Closed | Gap | Sig):
                self.records += 1
                self._last_t = entry.t
            wrote_important |= isinstance(entry, Input | Link | Header | Closed | Sig)
            if plan.full(files.size, entry):
                self._rotate()
        if not len(backlog):
            files.recovered(backlog.dropped)
        files.sync(now, force=sync or wrote_important)

    def _rotate(self) -> None:
        files = self._files
        if self._heads is not None:
            # The part's last line signs it, so a swapped or cut part shows even before the next one is read.
            sig = self._heads.signature(self._chain, files.part, self._last_t)
            text, h = self._chain.peek(sig)
            if files.append(text.encode()):
                self._chain.commit(h)
                self._heads.signed(sig, files.part)
        files.next_part()
        self._backlog.add_front(self._plan.opening(files.part, self._chain.prev))


def _default_name(header: Header) -> str:
    table = str(header.config.get("table", {}).get("id", "table")) if isinstance(header.config, dict) else "table"
    stamp = header.created.replace("-", "").replace(":", "")
    safe = "".join(c if c.isalnum() or c in "-_" else "_" for c in table)
    return f"{safe}-{stamp}"
