"""The recorder: writes the tamper-evident recorded log (docs/log-format.md), rotating by size and by day.

With ``rotate_daily`` a new part starts at the first record after midnight UTC, so a day of table log is a
set of whole files that retention (dealerbox/upkeep/retention.py) can delete once a copy is off the table.

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
closing line. Files are created 0640: the group (the floor's log collector) may read, nobody else.

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

import collections
import dataclasses
import logging
import os
import threading
import time
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any, BinaryIO

from ..wire import protocol as p
from ..wire.decoder import FrameDecoder
from .clock import clock_status
from .identity import AnchorChain, ledger_path, new_log_id
from .logformat import ChainWriter, Closed, Entry, Gap, Header, Input, Link, Record, Rx, SealKey, Sig, part_path
from .sealing import Sealer
from .sequence import last_hand, save_hand
from .signing import Signer, anchor_digest, anchor_text, key_id

if TYPE_CHECKING:
    from nacl.public import PublicKey

log = logging.getLogger("dealerbox.record")

DEFAULT_ROTATE_BYTES = 64 * 1024 * 1024
LOG_MODE = 0o640


class Recorder:
    """Owns the log files of one recording. ``write`` is thread-safe and never raises for I/O problems."""

    def __init__(self, directory: str | os.PathLike[str], header: Header, rotate_bytes: int = DEFAULT_ROTATE_BYTES, *,
                 name: str | None = None, clock: Callable[[], float] = time.monotonic,
                 fsync_every_s: float = 1.0, retry_every_s: float = 1.0, buffer_max: int = 10_000,
                 signer: Signer | None = None, hand_count: str | os.PathLike[str] | None = None,
                 rotate_daily: bool = False, wall: Callable[[], float] = time.time,
                 seal_to: PublicKey | None = None) -> None:
        self.directory = Path(directory)
        self.rotate_bytes = max(1024, int(rotate_bytes))
        self.clock = clock
        self.fsync_every_s = fsync_every_s
        self.retry_every_s = retry_every_s
        self.buffer_max = buffer_max
        self.rotate_daily = rotate_daily
        self.wall = wall
        self._part_day = ""         # UTC date the current part was started on (daily rotation)
        self._part_records = 0      # lines after the current part's header
        created = header.created or datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
        self.signer = signer
        self._hand_count = Path(hand_count) if hand_count else None
        self.hands_before = last_hand(self._hand_count, header.table) if self._hand_count else header.hands_before
        # a signed log's identity (identity.py): its id and place in the table's logs, bound by every signed head
        self._anchors = AnchorChain.open(ledger_path(self._hand_count) if self._hand_count else None, header.table)
        self._anchors.log_hands(self.hands_before)   # each anchor names the hands of this log
        identity = {"id": new_log_id(), "seq": self._anchors.next_log()} if signer else None
        self._header = dataclasses.replace(header, created=created, part=0, log=identity,
                                           signer=signer.public_hex if signer else "", hands_before=self.hands_before)
        self.sealer = Sealer(seal_to, self._header) if seal_to is not None else None
        if self.sealer is not None:
            self._header = self.sealer.header
        self._seal_key: SealKey | None = None       # the key line of the records being written (repeated in a new part)
        self.anchor: dict[str, Any] | None = None   # the latest signed head, for the floor (signing.py)
        self.on_anchor: Callable[[dict[str, Any]], None] | None = None   # every signed head, in order (the link)
        self.origin = ""                            # the hash of the first header line
        self._lock = threading.Lock()
        self._chain = ChainWriter()
        self._hello_watch = FrameDecoder()  # only to put the board's last HELLO into later parts' headers
        self._pending: collections.deque[Entry] = collections.deque()
        self._dropped_since: tuple[float, int] | None = None  # (t of the first dropped record, how many)
        self._file: BinaryIO | None = None
        self._size = 0              # bytes known to be in the current part (a failed write is cut back to it)
        self._last_fsync = clock()
        self._last_attempt = float("-inf")
        self._closed = False
        self._last_t = 0.0
        self._last_hello: p.Hello | None = None
        self.part = 0
        self.records = 0           # records written (header and closing line not counted)
        self.bytes_written = 0
        self.write_errors = 0
        self.dropped = 0
        self.last_error = ""
        self.directory_error = ""
        stem = name or _default_name(self._header)
        self.path = self._free_path(stem)
        self._pending.append(self._header)
        self._drain(force=True)

    # --- public -------------------------------------------------------------------------------------
    def write(self, entry: Record) -> None:
        """Append one record (to the buffer first if the disk is failing)."""
        with self._lock:
            if self._closed:
                return
            if isinstance(entry, Rx):
                self._watch_hello(entry.data)
            self._pending.extend(self.sealer.entries(entry) if self.sealer is not None else (entry,))
            self._drain(force=isinstance(entry, Input | Link))
            while len(self._pending) > self.buffer_max:
                self._drop_oldest()

    def seal(self, t: float | None = None, hand: int | None = None) -> None:
        """A hand ended: keep the hand count, and sign the chain head as it stands after every record so far."""
        if hand is not None and self._hand_count is not None:
            try:
                save_hand(self._hand_count, self._header.table, hand)
            except OSError as e:   # the log itself goes on; numbering may repeat after a restart, so say so
                self.write_errors += 1
                log.error("recorder: cannot keep the hand count in %s (%s); hand numbers may repeat after a "
                          "restart: free space or check record.dir", self._hand_count, e.strerror or e)
        with self._lock:
            if hand is not None:
                self._anchors.hand_ended(hand)
            if self._closed or self.signer is None:
                return
            self._pending.append(Sig(self._last_t if t is None else t, -1, "", ""))
            self._drain(force=True)

    def close(self) -> None:
        """Write the closing line and fsync. Waiting records get one last try."""
        with self._lock:
            if self._closed:
                return
            last_t = next((e.t for e in reversed(self._pending) if hasattr(e, "t")), self._last_t)
            self._pending.append(Closed(last_t, self.records + sum(1 for e in self._pending
                                                                    if not isinstance(e, Header | Closed | Sig)),
                                        self.part + 1))
            if self.signer is not None:
                self._pending.append(Sig(last_t, -1, "", ""))  # signs the closing line: a forged end has none
            self._drain(force=True, sync=True)
            if self._pending:
                log.error("recorder: closing %s with %d records never written (%s)", self.path.name,
                          len(self._pending), self.last_error)
            self._close_file()
            self._closed = True

    def health(self) -> dict[str, Any]:
        with self._lock:
            return {"ok": not self._pending and not self.directory_error, "path": str(self.current_path),
                    "part": self.part, "records": self.records, "bytes": self.bytes_written,
                    "write_errors": self.write_errors, "buffered": len(self._pending), "dropped": self.dropped,
                    "last_error": self.last_error, "anchor": self.anchor, "clock": clock_status()}

    @property
    def current_path(self) -> Path:
        return part_path(self.path, self.part)

    @property
    def parts(self) -> list[Path]:
        return [part_path(self.path, n) for n in range(self.part + 1)]

    # --- writing --------------------------------------------------------------------------------------

    def _drain(self, force: bool = False, sync: bool = False) -> None:
        """Write waiting records in order; on the first error stop, keep the rest, and report once."""
        now = self.clock()
        if self.write_errors and self._pending and not force and now - self._last_attempt < self.retry_every_s:
            return
        self._last_attempt = now
        wrote_important = False
        while self._pending:
            head = self._pending[0]
            # Records were dropped: say so (and how many) before the next record, never before a header.
            gap_first = self._dropped_since is not None and not isinstance(head, Header)
            entry: Entry = head
            if gap_first and self._dropped_since is not None:
                first_t, count = self._dropped_since
                entry = Gap(first_t, count, "the disk could not be written and the memory buffer overflowed")
            if isinstance(entry, Sig) and not entry.sig:
                entry = self._signature(entry.t)
            if self.rotate_daily and self._new_day(entry):
                self._rotate()
                continue
            text, h = self._chain.peek(entry)
            data = text.encode()
            if not self._append(data):
                return
            if gap_first:
                self._dropped_since = None
            else:
                self._pending.popleft()
            self._chain.commit(h, header=isinstance(entry, Header))
            if isinstance(entry, Header):
                self._part_day, self._part_records = self._today(), 0
            else:
                self._part_records += 1
            if isinstance(entry, Header) and entry.part == 0:
                self.origin = h     # names this log among the table's logs (anchors carry it)
            self._size += len(data)
            self.bytes_written += len(data)
            if isinstance(entry, Sig):
                self._anchored(entry)
            if isinstance(entry, SealKey):
                self._seal_key = entry
            if not isinstance(entry, Header | Closed | Gap | Sig):
                self.records += 1
                self._last_t = entry.t
            wrote_important |= isinstance(entry, Input | Link | Header | Closed | Sig)
            # A part holds at least one record, however large the header is.
            if self._size >= self.rotate_bytes and not isinstance(entry, Header | Closed | Sig):
                self._rotate()
        if self.last_error and not self._pending:
            log.warning("recorder: writing to %s again; nothing lost beyond %d dropped records",
                        self.current_path, self.dropped)
            self.last_error = ""
        if sync or wrote_important or now - self._last_fsync >= self.fsync_every_s:
            self._fsync()

    def _today(self) -> str:
        return time.strftime("%Y-%m-%d", time.gmtime(self.wall()))

    def _new_day(self, entry: Entry) -> bool:
        # Only before a record (never splitting a header from its part, nor a closing line and its signature),
        # and only when the current part already holds a record: a part is never just a header.
        return (not isinstance(entry, Header | Closed | Sig) and self._part_day != ""
                and self._part_records > 0 and self._today() != self._part_day)

    def _append(self, data: bytes) -> bool:
        """Write all of ``data`` to the current part; on failure cut the file back and report."""
        try:
            file = self._file if self._file is not None else self._open()
            view = memoryview(data)
            while view:
                n = file.write(view)
                if not n:
                    raise OSError("short write")
                view = view[n:]
            return True
        except OSError as e:
            self._fail(e)
            return False

    def _open(self) -> BinaryIO:
        self.directory.mkdir(parents=True, exist_ok=True)
        path = self.current_path
        file: BinaryIO = open(path, "ab", buffering=0,
                              opener=lambda name, flags: os.open(name, flags, LOG_MODE))
        self._file = file
        try:
            if file.tell() != self._size:
                # A half-written line from a failed attempt: cut back to the last whole record.
                file.truncate(self._size)
                file.seek(self._size)
        except OSError:
            pass  # a device that cannot truncate (tests use /dev/full); the write itself will tell
        return file

    def _fail(self, error: OSError) -> None:
        self.write_errors += 1
        first = not self.last_error
        self.last_error = f"cannot write {self.current_path}: {error.strerror or error}"
        if first:
            log.error("recorder: %s; keeping up to %d records in memory and retrying every %.0f s: "
                      "free space on the card or check record.dir", self.last_error, self.buffer_max,
                      self.retry_every_s)
        self._close_file()

    def _drop_oldest(self) -> None:
        # Never the part's header (it must stay first), nor a key the records after it need; drop the oldest behind.
        at = 1 if isinstance(self._pending[0], Header) else 0
        while isinstance(self._pending[at], SealKey) and at + 1 < len(self._pending):
            at += 1
        dropped = self._pending[at]
        del self._pending[at]
        self.dropped += 1
        t = getattr(dropped, "t", 0.0)
        first_t, count = self._dropped_since or (t, 0)
        self._dropped_since = (first_t, count + 1)

    def _rotate(self) -> None:
        if self.signer is not None:
            # The part's last line signs it, so a swapped or cut part shows even before the next one is read.
            sig = self._signature(self._last_t)
            text, h = self._chain.peek(sig)
            if self._append(text.encode()):
                self._chain.commit(h)
                self._size += len(text.encode())
                self.bytes_written += len(text.encode())
                self._anchored(sig)
        self._fsync()
        self._close_file()
        self.part += 1
        self._size = 0
        hello = self._hello_dict()
        if self._seal_key is not None:   # each part opens alone: the hand's key again, after its header
            self._pending.appendleft(self._seal_key)
        self._pending.appendleft(dataclasses.replace(self._header, part=self.part, prev=self._chain.prev,
                                                     hello=hello if hello is not None else self._header.hello))

    def _signature(self, t: float) -> Sig:
        assert self.signer is not None
        n = self._chain.count - 1   # the line whose hash is the head
        return Sig(t, n, self._chain.prev, self.signer.sign(self.part, n, self._chain.prev))

    def _anchored(self, sig: Sig) -> None:
        """The signed head as the floor keeps it: the log's identity (never its file name), the head, and the
        anchor's place in the table's chain, signed again (``asig``) so the floor can refuse a rollback."""
        assert self.signer is not None
        identity = self._header.log or {}
        site = _site(self._header)
        log_id, seq = str(identity.get("id", "")), int(identity.get("seq", 0))
        a, prev = self._anchors.peek()
        hands = self._anchors.hands    # a hand anchored under two logs shows on the floor
        text = anchor_text(site, self.signer.table, log_id, seq, self.origin, self.part, sig.of, sig.head, a, prev,
                           hands)
        self._anchors.advance(anchor_digest(text))
        self.anchor = {"table": self.signer.table, "log": log_id, "seq": seq, "origin": self.origin,
                       "part": self.part, "n": sig.of, "head": sig.head, "sig": sig.sig,
                       "key": key_id(self.signer.public_hex), "t": sig.t,
                       "at": datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ"), "a": a, "prev": prev,
                       "asig": self.signer.sign_bytes(text), "site": site, "file": self.path.name,
                       "hands": list(hands)}
        if self.on_anchor is not None:
            self.on_anchor(dict(self.anchor))

    def _fsync(self) -> None:
        self._last_fsync = self.clock()
        if self._file is not None:
            try:
                os.fsync(self._file.fileno())
            except OSError as e:
                self._fail(e)

    def _close_file(self) -> None:
        if self._file is not None:
            try:
                self._file.close()
            except OSError:
                pass
            self._file = None

    def _free_path(self, stem: str) -> Path:
        candidate, n = stem, 1
        while part_path(self.directory / f"{candidate}.jsonl", 0).exists():
            n += 1
            candidate = f"{stem}-{n}"
        return self.directory / f"{candidate}.jsonl"

    # --- the board's HELLO, for later parts' headers ------------------------------------------------

    def _watch_hello(self, data: bytes) -> None:
        for frame in self._hello_watch.feed(data):
            if isinstance(frame.message, p.Hello):
                self._last_hello = frame.message

    def _hello_dict(self) -> dict[str, Any] | None:
        h = self._last_hello
        if h is None:
            return None
        return {"protocol": f"{h.protocol_major}.{h.protocol_minor}", "firmware": ".".join(map(str, h.firmware)),
                "zones": [p.zone_name(z) for z in h.zones]}


def _site(header: Header) -> str:
    table = header.config.get("table", {}) if isinstance(header.config, dict) else {}
    site = table.get("site") if isinstance(table, dict) else None
    return str(site) if site else "demo"   # the config's default site, as the floor link uses it


def _default_name(header: Header) -> str:
    table = str(header.config.get("table", {}).get("id", "table")) if isinstance(header.config, dict) else "table"
    stamp = header.created.replace("-", "").replace(":", "")
    safe = "".join(c if c.isalnum() or c in "-_" else "_" for c in table)
    return f"{safe}-{stamp}"
