"""The fast way through a whole recorded log, for tools that read many (audit, bench): one pass that checks
the hash chain and replays the hands together.

``dealerbox replay`` reads a log with :class:`dealerbox.sources.LogSource` (stdlib JSON, a Record object per
line, the chain re-encoded with ``json.dumps``) and ``dealerbox verify`` reads it a second time. Here each
line is parsed once with orjson, its canonical form for the chain is orjson's sorted-keys encoding (checked
against the stdlib encoding whenever they disagree, so the verdict never depends on the library), and rx
bytes go straight to the decoder without an ``Rx`` object. The decoder, the tag registry and the engine are
the very same ``Pipeline`` as replay's, so the table events are identical (tests/history/test_fastlog.py).

A log is called intact here only if every line parsed, every hash matched and a closing record was found;
anything else is handed to :func:`dealerbox.record.verify.verify_log` for the authoritative diagnosis.

A sealed log (record/sealing.py) is read from its public ``ev`` records without the floor's key, and from its
raw records, opened, with it (``opener``): the chain is checked over the lines as written either way. A raw
record in the clear in a sealed log (``rx``, ``tx``, ``in``: the recorder seals every one) is not the table's
account and is replayed by neither reader, with or without the key; the chain still covers its line.
"""

from __future__ import annotations

import functools
import hashlib
import json
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, BinaryIO

from ..engine.events import TableEvent
from ..pipeline import Pipeline, counters_of, table_setup
from ..record.logformat import GENESIS, Header, LogFormatError, canonical, from_record, part_number, part_path
from ..sources import LogError
from ..wire.decoder import FrameDecoder
from .reader import LogHands, created_of, dealer_of, read_hands, table_of
from .summary import HandBook, stakes_of

if TYPE_CHECKING:
    from ..record.sealing import Opener

_loads: Callable[[bytes], Any]
_canonical: Callable[[dict[str, Any]], bytes]
try:   # optional speed-up: the same records, parsed and encoded several times faster
    import orjson

    _loads = orjson.loads
    _canonical = functools.partial(orjson.dumps, option=orjson.OPT_SORT_KEYS)   # a C call: once per line
except ImportError:  # pragma: no cover - orjson is pinned, but the stdlib path must still work
    _loads = json.loads
    _canonical = canonical


_sha256 = hashlib.sha256


@dataclass
class ChainCheck:
    """What the single pass saw of the log's integrity."""
    parts: int = 0
    lines: int = 0
    records: int = 0          # as verify counts them: timed records other than headers, gaps and the closing one
    damaged: int = 0          # lines that are not JSON records, or whose hash does not match
    closed: bool = False
    partial: bool = False     # an unfinished last line (power cut)
    created: str = ""
    first_t: float | None = None
    last_t: float | None = None
    verified: bool = True     # False when the caller asked for the hands only: no hash was checked

    @property
    def intact(self) -> bool:
        return self.verified and self.closed and not self.damaged and not self.partial

    def summary(self, path: str) -> str:
        first, last = self.first_t, self.last_t
        span = "no records" if first is None or last is None else \
            f"t {first:.3f} .. {last:.3f} s ({last - first:.1f} s)"
        # the unkeyed chain is recomputable by anyone with a shell: the audit's word must not read as proof
        return (f"intact, unauthenticated: {self.records} records in {self.parts} "
                f"part{'s' if self.parts != 1 else ''}, {span}, created {self.created or '?'}; hash chain only "
                f"(dealerbox verify --pubkey TABLE.pub --from-floor URL authenticates it)")


@dataclass
class FastResult:
    hands: LogHands
    check: ChainCheck = field(default_factory=ChainCheck)


def _stdlib_hash_ok(prev: str, body: dict[str, Any], want: str | None) -> bool:
    """Whether ``want`` chains ``body`` onto ``prev`` in the stdlib's spelling: asked only when orjson's form did
    not match, since the two can spell the same number differently and the stdlib form is the definition."""
    return want is not None and _sha256(prev.encode() + canonical(body)).hexdigest() == want


_SEALED_KINDS = frozenset(("key", "sx", "ev"))
_NUMBER = (int, float)   # a record's time as verify takes it (a tuple: ``int | float`` is built again at every use)
_BLOCK = 1 << 20   # read a log a megabyte at a time: a day's log held whole cost its size again in memory


def _whole_lines(stream: BinaryIO, file: Path, check: ChainCheck,
                 read: Callable[[int], object] | None = None) -> Iterator[list[bytes]]:
    """The complete lines of a log file, a block's worth at a time (a list: the caller loops over a list, not
    over a generator resumed at every line), counted in ``check``; an unfinished last line (a power cut
    mid-line) is not given, only noted: the rest is still good. Closes the stream."""
    tail = b""
    with stream:
        while True:
            try:
                block = stream.read(_BLOCK)
            except OSError as e:
                raise LogError(f"cannot read log {file}: {e.strerror or e}") from None
            if not block:
                break
            if read is not None:
                read(len(block))
            lines = (tail + block).split(b"\n")
            tail = lines.pop()
            check.lines += len(lines)
            yield lines
    if tail:
        check.partial = True


def _before_header(*_: object) -> list[TableEvent]:
    """Stands for the decoder and the book until the header has made them (never called: rx waits for it)."""
    raise AssertionError("a record before the log's header")


def log_files(path: str | Path) -> list[Path]:
    """The files of a log: its first part and every later part that follows it."""
    path = Path(path)
    files = [path]
    n = part_number(path) + 1
    while (nxt := part_path(path, n)).exists():
        files.append(nxt)
        n += 1
    return files


def log_bytes(path: str | Path) -> int:
    """The size of a log's files together (a progress bar's total); 0 for a scenario or a missing file."""
    if str(path).endswith(".scn"):
        return 0
    total = 0
    for f in log_files(path):
        try:
            total += f.stat().st_size
        except OSError:
            pass
    return total


def read_hands_fast(path: str | Path, reveal: bool = False, verify: bool = True,
                    read: Callable[[int], object] | None = None, opener: Opener | None = None) -> FastResult:
    """Replay a recorded log (all its parts) in one pass, checking its chain as it goes. Scenarios take the
    ordinary path (they have no chain). Raises LogError like ``open_log`` when the first line is no header.

    ``verify=False`` skips the chain (about a tenth of the time) for a caller that wants the hands only, as
    the export does; the result then never says intact (``check.verified`` is False), and damage still
    counts only the lines that are not JSON records. ``read`` is told the bytes of every block read (a
    progress bar)."""
    path = Path(path)
    if path.suffix == ".scn":
        return FastResult(read_hands(path, reveal), ChainCheck(closed=True))
    from ..record.transcript import TranscriptError, event_from_dict
    files = log_files(path)
    check = ChainCheck(verified=verify)
    pipeline: Pipeline | None = None   # made at the header; none for a sealed log read without the key
    sealed = False                     # a sealed log: its raw records are its sx lines, never a clear one
    book: HandBook | None = None
    feed_bytes: Callable[[float, bytes], list[TableEvent]] = _before_header
    book_feed: Callable[[TableEvent], object] = _before_header
    got: LogHands | None = None
    prev = GENESIS
    first_t: float | None = None
    last_t: float | None = None
    public_only = False
    clear = False   # the header read, of a clear log: its rx lines take the first way below
    records = 0   # check.records, counted here (a local: once a line)
    for index, file in enumerate(files):
        try:
            stream = open(file, "rb")
        except FileNotFoundError:
            raise LogError(f"no such log: {file}") from None
        except OSError as e:
            raise LogError(f"cannot read log {file}: {e.strerror or e}") from None
        check.parts += 1
        first: bytes | None = None   # the file's line 1 (``raw is first``: the line 1 checks keep no counter)
        for lines in _whole_lines(stream, file, check, read):
            if first is None and lines:
                first = lines[0]
            for raw in lines:
                try:
                    rec = _loads(raw)
                    kind = rec["k"]
                except (ValueError, TypeError, KeyError):
                    if index == 0 and raw is first:
                        raise LogError(f"{file}: line 1 is not a dealerbox log header; "
                                       f"is this a recorded log or a scenario (*.scn)?") from None
                    check.damaged += 1
                    # as verify does: the h still readable in the damaged line lets the next line check; else blame
                    # only this line (the next line's predecessor is unknown)
                    from ..record.verify import STORED_H   # a damaged line: loaded here, never for an intact log
                    m = STORED_H.search(raw)
                    prev = m.group(1).decode() if m else ""
                    continue
                if raw is first and index == 0 and rec.get("part", 0) > 0:
                    prev = rec.get("prev", GENESIS)   # starting mid-set: trust where this part says it follows on
                if verify:
                    want = rec.pop("h", None)   # the rest of rec is the hashed body
                    if (want is None or _sha256(prev.encode() + _canonical(rec)).hexdigest() != want) \
                            and not _stdlib_hash_ok(prev, rec, want) and (prev or raw is first):
                        check.damaged += 1
                    if want is not None:
                        prev = want
                if kind == "rx" and clear:   # nearly every line of a clear log: bytes straight to the decoder
                    try:
                        t, chunk = float(rec["t"]), bytes.fromhex(rec["d"])
                    except (KeyError, TypeError, ValueError):
                        continue   # the ordinary reader skips such a line too
                    if first_t is None:
                        first_t = t
                    last_t = t
                    records += 1
                    for event in feed_bytes(t, chunk):
                        book_feed(event)
                    continue
                if kind in _SEALED_KINDS and got is not None:
                    at = rec.get("t")
                    if isinstance(at, _NUMBER):
                        records += 1   # as verify counts and times them: a key, a sealed record, an event
                        last_t = float(at)
                        first_t = last_t if first_t is None else first_t
                    if opener is None:   # without the floor's key: the public events, as the table ruled them
                        if kind == "ev":
                            try:
                                event = event_from_dict(rec["e"])
                            except (TranscriptError, KeyError, TypeError):
                                continue
                            book_feed(event)
                        continue
                    if kind == "key":
                        opener.key(str(rec.get("box", "")))
                    if kind != "sx":
                        continue   # with the key the raw records replay: the public events are theirs
                    plain = opener.plain(str(rec.get("x", "")))
                    if plain is None:
                        continue   # a record this key cannot open: the ordinary reader skips it too
                    if plain[:1] == b"r" and pipeline is not None:   # nearly every line: its bytes, as below
                        for event in feed_bytes(float(rec["t"]), plain[1:]):
                            book_feed(event)
                        continue
                    opened = opener.record(str(rec.get("x", "")), rec.get("t", 0.0))
                    if opened is None:
                        continue
                    rec, kind = opened, opened.get("k")
                    sealed_line = True
                else:
                    sealed_line = False
                if kind == "rx" and got is not None:   # a sealed log's: as above, unless it was in the clear
                    try:
                        t, chunk = float(rec["t"]), bytes.fromhex(rec["d"])
                    except (KeyError, TypeError, ValueError):
                        continue   # the ordinary reader skips such a line too
                    if first_t is None:
                        first_t = t
                    last_t = t
                    records += 1
                    if sealed and not sealed_line:
                        continue   # a raw record in the clear in a sealed log: not the recorder's, so not replayed
                    for event in feed_bytes(t, chunk):
                        book_feed(event)
                    continue
                try:
                    entry = from_record(rec)
                except LogFormatError:
                    if index == 0 and raw is first:
                        raise LogError(f"{file}: line 1 is not a dealerbox log header") from None
                    continue
                if isinstance(entry, Header):
                    if got is None:
                        if index != 0 or raw is not first:
                            raise LogError(f"{file}: line 1 is not a dealerbox log header")
                        if opener is not None:
                            from ..record.sealing import SealError
                            try:
                                entry = opener.header(entry)
                            except SealError as e:
                                raise LogError(f"{file}: {e}") from None
                        sealed = entry.sealed is not None
                        clear = not sealed
                        public_only = sealed and opener is None   # its events are all in "ev"
                        if public_only:   # no engine to feed: the header checked as a replay checks it, no more
                            table_setup(entry)
                        else:
                            pipeline = Pipeline.from_header(entry)
                            feed_bytes = pipeline.feed_bytes   # once, not once a line
                        table, stakes = table_of(entry), stakes_of(entry.config)
                        book = HandBook(table, stakes, reveal, keep=True)
                        book_feed = book.feed
                        got = LogHands(path, table, created_of(entry), stakes, [], dealer_of(entry.config))
                        check.created = entry.created
                    continue
                if got is None or book is None:
                    raise LogError(f"{file}: line 1 is not a dealerbox log header")
                if kind == "closed":
                    check.closed = True
                    continue
                if kind != "gap" and isinstance(rec.get("t"), _NUMBER) and not sealed_line:
                    records += 1   # an opened sealed line was counted as the sx line it is
                at = getattr(entry, "t", None)
                if at is not None:
                    if first_t is None:
                        first_t = at
                    last_t = at
                if public_only or pipeline is None:
                    continue   # a link or gap line of a sealed log: its events are among the "ev" lines already
                if sealed and not sealed_line and kind in ("tx", "in"):
                    continue   # a raw record in the clear in a sealed log, as an rx one above
                for event in pipeline.feed(entry):
                    book.feed(event)
    check.first_t, check.last_t, check.records = first_t, last_t, records
    if got is None or book is None:   # no line was a header: say what the file holds instead
        what = "no complete line (no newline), so no header" if check.partial else "empty file"
        raise LogError(f"{path}: {what}; not a dealerbox log (is it a recorded log or a scenario, *.scn?)")
    book.flush()
    got.hands = book.hands
    got.stray = book.stray_findings
    got.counters = pipeline.counters() if pipeline is not None else counters_of(FrameDecoder(), 0)
    return FastResult(got, check)
