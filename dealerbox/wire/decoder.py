"""Pure decoder: bytes in, frames out, every kind of damage counted. No I/O, no clock, no threads.

>>> from dealerbox.wire.protocol import Encoder, Heartbeat
>>> d = FrameDecoder()
>>> [f.message for f in d.feed(b"junk\\x00" + Encoder().encode(Heartbeat(1, 0, 0)))]
[Heartbeat(uptime_ms=1, tags_present=0, faulty_readers=0)]
>>> d.counters.bad_cobs + d.counters.truncated + d.counters.bad_crc
1
"""

from __future__ import annotations

import binascii
import struct
from dataclasses import asdict, dataclass

from cobs import cobs

from . import protocol as p

_cobs_decode = cobs.decode
_CobsError = cobs.DecodeError
_crc = binascii.crc_hqx
_head = struct.Struct("<BH").unpack_from   # a frame's type and sequence number, in one call
_MIN_RAW = p.FRAME_HEADER_LEN + p.FRAME_CRC_LEN
_TYPES = p.MESSAGE_TYPES
_VERSIONED = p.VERSIONED_TYPES
_HELLO = p.MSG_HELLO
_HEADER = p.FRAME_HEADER_LEN
_CRC_INIT = p.CRC16_INIT
_SEQ_MODULO = p.SEQ_MODULO
_ONE_FRAME = p.FRAME_MAX_ENCODED + 1  # the longest chunk that can be one whole frame and its delimiter
# Tag bodies remembered, at most KNOWN_MAX, in two generations of KNOWN_MAX // 2: bodies go into the current
# one; when it is full it becomes the older one and the one before is dropped; a body found in the older one
# moves back into the current one. So the bodies seen within the last KNOWN_MAX // 2 new ones are always kept,
# the rest go, and a hit (nearly every frame) is one look-up in a plain dict: no reordering, as a
# least-recently-used list does on every hit. A (zone, tag) pair is new whenever a chip reaches a player it
# never sat with, so the pairs a table has seen grow all evening (4,500 in 720 simulated hands, and a house set
# of 1,360 chips in 11 chip zones could make 30,000): at ~220 bytes a body, 32,768 remembered (emptied when
# full) let this part climb to 8 MB; the most this keeps is 1.8 MB. What repeats is the last few hands' pairs:
# two generations of 4,096 miss 2.2 % of the tag frames of 2,000 simulated hands (a least-recently-used list of
# 4,096, 1.15 MB, missed 3.0 %), against the 1.1 % that are new anyway, each miss a body read again. The
# pipeline keeps no copy of its own (docs/performance.md, "Where the slope came from", "The clear log's audit,
# made lean" and "The clear log's audit, round 6").
KNOWN_MAX = 8192
# Only tag bodies come back (the same tag in the same zone): a heartbeat's uptime makes every one new, and
# remembering them would crowd out the tags that do repeat.
_REPEATS = p.VERSIONED_TYPES


@dataclass
class DecoderCounters:
    """One counter per kind of damage, plus the good traffic, for the health display and the floor."""

    frames: int = 0          # good frames delivered
    bytes: int = 0           # every byte fed
    garbage_bytes: int = 0   # bytes thrown away in damaged or oversize chunks
    bad_cobs: int = 0        # chunk that is not valid COBS (a block runs past the delimiter: cut or noise)
    truncated: int = 0       # valid COBS but shorter than type + seq + crc (5 bytes)
    oversize: int = 0        # chunk longer than any frame can be (lost delimiter)
    bad_crc: int = 0
    bad_body: int = 0        # CRC good, fields do not fit the type
    unknown_type: int = 0
    seq_gaps: int = 0        # times a gap was seen
    frames_lost: int = 0     # frames missing in those gaps
    bad_version: int = 0     # HELLOs refused for their protocol version
    refused: int = 0         # good frames dropped while the board's protocol version is refused
    seq_restarts: int = 0    # sequence went backwards without a HELLO (board reset, HELLO lost)
    hellos_recovered: int = 0  # HELLOs found at the end of a damaged chunk (garbage with no delimiter before)

    def as_dict(self) -> dict[str, int]:
        return asdict(self)


class UnsupportedProtocol(Exception):
    """The board speaks a protocol major version this host does not (the message says what to do)."""


class FrameDecoder:
    """Feed it any chunks of bytes; it returns the complete, checked frames they finish.

    After a HELLO with an unsupported protocol major version it refuses every further frame until a
    supported HELLO arrives; ``refusal`` then holds the message to show the operator. Tag bodies are read in
    the layout of the major version the board's last HELLO announced (``board_major``); before any HELLO
    (a log part or a reconnection that starts mid-stream) each body's own layout is taken, 1.x or 2.x.
    """

    def __init__(self, accept_majors: tuple[int, ...] = p.SUPPORTED_MAJORS, board_major: int | None = None,
                 remember: int = KNOWN_MAX) -> None:
        self.accept_majors = accept_majors
        self.board_major = board_major
        self.counters = DecoderCounters()
        self.refusal: str | None = None
        self._buf = bytearray()
        self._discarding = False  # inside an over-long chunk: drop until the next delimiter
        self._tail = b""  # the last bytes of an over-long chunk: a HELLO may end it
        self._next_seq: int | None = None
        # Bodies already read, by (type, body): the same tag in the same zone comes back all evening, and a
        # message is immutable, so it is read once. Valid for one board layout: emptied when a HELLO sets it.
        # At most ``remember`` of them, in two generations (KNOWN_MAX above; 0: none, for a watcher that only
        # wants the HELLOs and must not keep a copy of every tag the table has seen).
        self.remember = remember
        self._generation = max(1, remember // 2)
        self._known: dict[tuple[int, bytes], p.Message] = {}    # the current generation
        self._older: dict[tuple[int, bytes], p.Message] = {}    # the one before: moved back when seen again

    def feed(self, data: bytes) -> list[p.Frame]:
        """Decode what ``data`` completes; keep any partial frame for the next call."""
        self.counters.bytes += len(data)
        n = len(data)
        if 1 < n <= _ONE_FRAME and data.find(b"\x00") == n - 1 and not self._buf and not self._discarding:
            # The usual chunk is exactly one whole frame (a log's rx record, a serial read between frames)
            frame = self._decode_chunk(data[:-1])
            return [] if frame is None else [frame]
        out: list[p.Frame] = []
        start = 0
        while True:
            end = data.find(b"\x00", start)
            if end < 0:
                self._keep(data[start:])
                return out
            self._keep(data[start:end])
            chunk, discarding = bytes(self._buf), self._discarding
            self._buf.clear()
            self._discarding = False
            start = end + 1
            if discarding:
                frame = self._recover_hello(self._tail)
                self._tail = b""
                if frame is not None:
                    out.append(frame)
                continue
            if chunk:
                frame = self._decode_chunk(chunk)
                if frame is not None:
                    out.append(frame)

    def feed_known(self, data: bytes) -> p.Message | None:
        """The message of ``data`` when it is exactly one whole, in-order frame other than a HELLO (nearly every
        chunk of an evening, mostly the same tags in the same zones: their bodies are read once and remembered),
        counted just as :meth:`feed` counts it; None for anything else (a HELLO, a gap, damage, a body that does
        not fit its type), with nothing consumed, so the caller hands ``data`` to ``feed``. The same checks as
        ``feed`` (COBS, CRC, sequence), without building a :class:`Frame`."""
        n = len(data)
        if not 1 < n <= _ONE_FRAME or data[-1] or self._buf or self._discarding or self.refusal is not None:
            return None
        # _known_frame written out: this runs once for nearly every line of a log
        try:
            raw = _cobs_decode(data[:-1])   # a delimiter inside (several frames) is no COBS: None, as for damage
        except _CobsError:
            return None
        if len(raw) < _MIN_RAW or _crc(raw[:-2], _CRC_INIT) != raw[-2] | raw[-1] << 8:
            return None
        mtype, seq = _head(raw)
        if seq != self._next_seq or mtype == _HELLO:
            return None
        key = (mtype, raw[_HEADER:-2])
        message = self._known.get(key)
        if message is None:
            message = self._recall(key)
            if message is None:
                return None
        self._next_seq = (seq + 1) % _SEQ_MODULO
        c = self.counters
        c.bytes += n
        c.frames += 1
        return message

    def feed_known_all(self, data: bytes) -> list[p.Message] | None:
        """:meth:`feed_known` for a chunk of several whole frames (a burst the serial port read at once): their
        messages if every one is whole, in order and readable, else None with nothing consumed."""
        if self._buf or self._discarding or self.refusal is not None or not data or data[-1] != 0:
            return None
        seq = self._next_seq
        if seq is None:   # nothing read yet: the first frame goes through feed, which learns the numbering
            return None
        out = []
        for part in data[:-1].split(b"\x00"):
            if not part or len(part) >= _ONE_FRAME:
                return None
            message = self._known_frame(part, seq)
            if message is None:
                return None
            out.append(message)
            seq = (seq + 1) % _SEQ_MODULO
        self._next_seq = seq
        c = self.counters
        c.bytes += len(data)
        c.frames += len(out)
        return out

    def _known_frame(self, encoded: bytes, expect_seq: int | None) -> p.Message | None:
        """The message of one COBS-encoded frame (no delimiter) if its CRC is good, its sequence number is
        ``expect_seq`` and its body reads; None otherwise. Changes no counter and no sequence."""
        try:
            raw = _cobs_decode(encoded)
        except _CobsError:
            return None
        if len(raw) < _MIN_RAW or _crc(raw[:-2], _CRC_INIT) != raw[-2] | raw[-1] << 8:
            return None
        mtype, seq = _head(raw)
        if seq != expect_seq or mtype == _HELLO:
            return None
        key = (mtype, raw[_HEADER:-2])
        message = self._known.get(key)
        if message is None:
            return self._recall(key)
        return message

    def resync(self) -> None:
        """Forget a partial frame (the link dropped), so it cannot swallow the first frame after it."""
        if self._buf:
            self.counters.garbage_bytes += len(self._buf)
        self._buf.clear()
        self._discarding = False
        self._tail = b""

    def _keep(self, part: bytes) -> None:
        if self._discarding or not part:
            if self._discarding:
                self.counters.garbage_bytes += len(part)
                self._tail = (self._tail + part)[-p.FRAME_MAX_ENCODED:]
            return
        self._buf += part
        if len(self._buf) > p.FRAME_MAX_ENCODED:
            self.counters.oversize += 1
            self.counters.garbage_bytes += len(self._buf)
            self._tail = bytes(self._buf[-p.FRAME_MAX_ENCODED:])
            self._buf.clear()
            self._discarding = True

    def _recover_hello(self, chunk: bytes) -> p.Frame | None:
        """The HELLO at the end of a damaged chunk, if there is one: a board that resets into line noise
        sends its HELLO right after the garbage, and losing it would leave the host without the board's
        zones. Only a HELLO with sequence 0 and a good CRC is taken (COBS of ``01 00 00`` starts ``02 01``),
        so a random match needs a 1 in 2^32 coincidence on top of a valid body."""
        for start in range(1, len(chunk) - _MIN_RAW):
            if chunk[start] != 0x02 or chunk[start + 1] != p.MSG_HELLO:
                continue
            suffix = chunk[start:]
            try:
                raw = _cobs_decode(suffix)
            except _CobsError:
                continue
            if len(raw) < _MIN_RAW or raw[1] or raw[2] or _crc(raw[:-2], p.CRC16_INIT) != raw[-2] | raw[-1] << 8:
                continue
            try:
                p.Hello.unpack(raw[p.FRAME_HEADER_LEN:-2])
            except p.BodyError:
                continue
            self.counters.hellos_recovered += 1
            self.counters.garbage_bytes -= len(suffix)
            return self._decode_chunk(suffix)
        return None

    def _decode_chunk(self, chunk: bytes) -> p.Frame | None:
        c = self.counters
        try:
            raw = _cobs_decode(chunk)
        except _CobsError:
            c.bad_cobs += 1
            c.garbage_bytes += len(chunk)
            return self._recover_hello(chunk)
        if len(raw) < _MIN_RAW:
            c.truncated += 1
            c.garbage_bytes += len(chunk)
            return None
        # Inline of protocol.parse_raw: this is the hot path (one call per frame).
        if _crc(raw[:-2], _CRC_INIT) != raw[-2] | raw[-1] << 8:
            c.bad_crc += 1
            c.garbage_bytes += len(chunk)
            return self._recover_hello(chunk)
        mtype = raw[0]
        seq = raw[1] | raw[2] << 8
        # The CRC vouches for the sequence number even when the type or body is unusable.
        if seq == self._next_seq:   # in order (nearly every frame): nothing lost, nothing restarted
            self._next_seq = (seq + 1) % _SEQ_MODULO
            gap = 0
        else:
            gap = self._sequence(mtype, seq)
        key = (mtype, raw[_HEADER:-2])
        message = self._known.get(key)
        if message is None:
            message = self._older.pop(key, None)
            if message is not None:
                self._keep_known(key, message)   # seen again: back into the current generation
            else:
                message = self._unpack(*key)
                if message is None:
                    return None
        if type(message) is p.Hello:
            if message.protocol_major not in self.accept_majors:
                c.bad_version += 1
                speaks = " or ".join(f"{m}.x" for m in self.accept_majors)
                self.refusal = (
                    f"reader board speaks protocol {message.protocol_major}.{message.protocol_minor}, "
                    f"this dealerbox speaks {speaks}: update the board's firmware or dealerbox"
                )
                return None
            self.refusal = None
            if self.board_major != message.protocol_major:
                self._known.clear()   # tag bodies now read in the other layout
                self._older.clear()
            self.board_major = message.protocol_major
        elif self.refusal is not None:
            c.refused += 1
            return None
        c.frames += 1
        return p.Frame(seq, message, gap, raw)

    def _recall(self, key: tuple[int, bytes]) -> p.Message | None:
        """For the shortcuts, a body not in the current generation: the older one's message, moved back, or the
        body read (and remembered); None (uncounted: every counter is ``feed``'s) for a body that does not fit
        its type."""
        mtype, body = key
        if mtype in _REPEATS:   # (a heartbeat is never remembered: no generation to look in)
            message = self._older.pop(key, None)
            if message is not None:
                self._keep_known(key, message)
                return message
        cls = _TYPES.get(mtype)
        if cls is None:
            return None
        try:
            message = cls.unpack(body, self.board_major)
        except p.BodyError:
            return None
        self._remember(mtype, body, message)
        return message

    def remembered(self) -> int:
        """How many bodies are remembered now (at most ``remember``)."""
        return len(self._known) + len(self._older)

    def _remember(self, mtype: int, body: bytes, message: p.Message) -> None:
        if mtype in _REPEATS and self.remember:
            self._keep_known((mtype, body), message)

    def _keep_known(self, key: tuple[int, bytes], message: p.Message) -> None:
        known = self._known
        known[key] = message
        if len(known) >= self._generation:   # full: it becomes the older generation, the one before goes
            self._older, self._known = known, {}

    def _unpack(self, mtype: int, body: bytes) -> p.Message | None:
        """The message of a checked frame's body (remembered), or None counted as unknown type or bad body."""
        cls = _TYPES.get(mtype)
        if cls is None:
            self.counters.unknown_type += 1
            return None
        try:
            message = cls.unpack(body, self.board_major)
        except p.BodyError:
            self.counters.bad_body += 1
            return None
        self._remember(mtype, body, message)
        return message

    def _sequence(self, mtype: int, seq: int) -> int:
        """Count frames lost before this one; a HELLO restarts numbering (board reset).

        A jump of half the sequence space or more is read as a restart, not as 32,768+ lost frames.
        """
        expected, self._next_seq = self._next_seq, (seq + 1) % p.SEQ_MODULO
        if mtype == p.MSG_HELLO or expected is None or seq == expected:
            return 0
        lost = (seq - expected) % p.SEQ_MODULO
        if lost >= p.SEQ_MODULO // 2:
            # Serial cannot reorder: a step backwards means the board restarted and its HELLO was lost.
            self.counters.seq_restarts += 1
            return 0
        self.counters.seq_gaps += 1
        self.counters.frames_lost += lost
        return lost
