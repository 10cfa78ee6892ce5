"""The reader-board wire protocol: constants and message bodies, mirrored in firmware/src/protocol.h.

One frame on the wire is ``COBS(type | seq | body | crc16) 0x00``:

- ``type`` (u8): one of the ``MSG_*`` constants below;
- ``seq`` (u16, little-endian): per-sender counter, +1 per frame, wraps at 65536; a HELLO restarts it;
- ``body``: the message fields, layout per type (see ``firmware/PROTOCOL.md``);
- ``crc16`` (u16, little-endian): CRC-16/CCITT-FALSE (poly 0x1021, init 0xFFFF) over type, seq and body.

Constant names are identical in C and Python so that grepping one finds the other.

>>> from dealerbox.wire.protocol import TagArrived, encode_frame
>>> encode_frame(7, TagArrived(zone=ZONE_SHOE, uid=bytes.fromhex("04a1b2c3")))[-1]
0
"""

from __future__ import annotations

import binascii
import struct
from dataclasses import dataclass, field
from typing import ClassVar

from cobs import cobs

# --- versions -------------------------------------------------------------------------------------
PROTOCOL_VERSION_MAJOR = 2
PROTOCOL_VERSION_MINOR = 0
# Boards this host understands: 1 (tag bodies without technology) and 2 (this module's layouts).
SUPPORTED_MAJORS = (1, 2)

# --- framing --------------------------------------------------------------------------------------
FRAME_DELIMITER = 0x00
FRAME_HEADER_LEN = 3  # type + seq
FRAME_CRC_LEN = 2
FRAME_MAX_BODY = 64
FRAME_MAX_RAW = FRAME_HEADER_LEN + FRAME_MAX_BODY + FRAME_CRC_LEN
# COBS adds one byte per 254 plus one: anything longer between delimiters is garbage.
FRAME_MAX_ENCODED = FRAME_MAX_RAW + FRAME_MAX_RAW // 254 + 1
CRC16_INIT = 0xFFFF
SEQ_MODULO = 1 << 16

# --- message types: board -> host ----------------------------------------------------------------
MSG_HELLO = 0x01
MSG_TAG_ARRIVED = 0x02
MSG_TAG_LEFT = 0x03
MSG_CARD_FACE = 0x04
MSG_READER_FAULT = 0x05
MSG_HEARTBEAT = 0x06
MSG_ZONE_INVENTORY = 0x07  # since 2.0
# --- message types: host -> board ----------------------------------------------------------------
MSG_CMD_HELLO = 0x81
MSG_CMD_INVENTORY = 0x82
MSG_CMD_HEARTBEAT_PERIOD = 0x83

# --- zones (one antenna each) ---------------------------------------------------------------------
ZONE_SHOE = 0
ZONE_SEAT_FIRST = 1  # seat1 .. seat10 are 1 .. 10
ZONE_SEAT_LAST = 10
ZONE_BOARD = 11
ZONE_BURN = 12
ZONE_MUCK = 13
ZONE_BET_FIRST = 21  # bet1 .. bet10 are 21 .. 30
ZONE_BET_LAST = 30
ZONE_POT = 31
MAX_SEATS = 10

# --- reader fault codes ---------------------------------------------------------------------------
FAULT_RECOVERED = 0
FAULT_NO_ANSWER = 1
FAULT_COMM_ERROR = 2
FAULT_ANTENNA = 3

# --- tag technologies (since 2.0) and their UIDs ----------------------------------------------------
TECH_ISO14443A = 1  # cards: NTAG213/215, 4/7/10-byte UIDs (single, double, triple size)
TECH_ISO15693 = 2   # chips: ICODE SLIX/SLIX2, 8-byte UIDs
# No technology value is a 1.x UID length (4, 7, 10): a tag body tells its layout by itself.
UID_LENGTHS = (4, 7, 8, 10)
UID_LENGTHS_BY_TECH: dict[int, tuple[int, ...]] = {TECH_ISO14443A: (4, 7, 10), TECH_ISO15693: (8,)}

# --- how completely a zone was read (ZONE_INVENTORY, since 2.0) ------------------------------------
ZONE_READ_COMPLETE = 0    # every tag in the field was read: the set is the zone's whole content
ZONE_READ_UNCERTAIN = 1   # more tags may be there than were read: the count is a floor, not the total
ZONE_READ_UNREADABLE = 2  # something answers but no UID could be read: neither empty nor a known set
ZONE_READ_STATES = (ZONE_READ_COMPLETE, ZONE_READ_UNCERTAIN, ZONE_READ_UNREADABLE)


def zone_name(zone: int) -> str:
    """The zone's name as used in config, scenarios and table events: ``seat3``, ``bet3``, ``pot``."""
    if zone == ZONE_SHOE:
        return "shoe"
    if ZONE_SEAT_FIRST <= zone <= ZONE_SEAT_LAST:
        return f"seat{zone - ZONE_SEAT_FIRST + 1}"
    if ZONE_BET_FIRST <= zone <= ZONE_BET_LAST:
        return f"bet{zone - ZONE_BET_FIRST + 1}"
    named = {ZONE_BOARD: "board", ZONE_BURN: "burn", ZONE_MUCK: "muck", ZONE_POT: "pot"}
    if zone in named:
        return named[zone]
    raise ValueError(f"zone id {zone} is not defined in the protocol")


def zone_id(name: str) -> int:
    """Inverse of :func:`zone_name`: ``zone_id("bet4") == 24``."""
    fixed = {"shoe": ZONE_SHOE, "board": ZONE_BOARD, "burn": ZONE_BURN, "muck": ZONE_MUCK, "pot": ZONE_POT}
    if name in fixed:
        return fixed[name]
    for prefix, first in (("seat", ZONE_SEAT_FIRST), ("bet", ZONE_BET_FIRST)):
        if name.startswith(prefix) and name[len(prefix):].isdigit():
            n = int(name[len(prefix):])
            if 1 <= n <= MAX_SEATS:
                return first + n - 1
    raise ValueError(f"unknown zone {name!r}: expected shoe, board, burn, muck, pot, seat1-10 or bet1-10")


def is_valid_zone(zone: int) -> bool:
    try:
        zone_name(zone)
    except ValueError:
        return False
    return True


def seat_of_zone(zone: int) -> int | None:
    """The seat number a seat or bet zone belongs to, else None."""
    if ZONE_SEAT_FIRST <= zone <= ZONE_SEAT_LAST:
        return zone - ZONE_SEAT_FIRST + 1
    if ZONE_BET_FIRST <= zone <= ZONE_BET_LAST:
        return zone - ZONE_BET_FIRST + 1
    return None


class BodyError(ValueError):
    """A frame whose CRC was good but whose body does not fit its type (counted as ``bad_body``)."""


def _pack_uid(uid: bytes, tech: int, major: int) -> bytes:
    """``[tech] len uid``: protocol 1 has no technology byte and knows ISO 14443A only."""
    if major < 2 and tech != TECH_ISO14443A:
        raise ValueError(f"protocol {major}.x carries ISO 14443A tags only, not technology {tech}")
    if len(uid) not in UID_LENGTHS_BY_TECH.get(tech, ()):
        raise ValueError(f"a technology {tech} UID must be {UID_LENGTHS_BY_TECH.get(tech, ())} bytes, got {len(uid)}")
    return (bytes([tech]) if major >= 2 else b"") + bytes([len(uid)]) + uid


def _unpack_uid(body: bytes, at: int, major: int | None) -> tuple[bytes, int, int]:
    """(uid, technology, end) from ``[tech] len uid`` at ``at``; ``major`` None: the layout is read from the
    bytes (no technology value is a 1.x UID length, so the byte at ``at`` tells the two apart)."""
    if major is None:
        major = 1 if at < len(body) and body[at] in UID_LENGTHS_BY_TECH[TECH_ISO14443A] else 2
    tech = TECH_ISO14443A
    if major >= 2:
        if at >= len(body):
            raise BodyError("tag technology missing")
        tech, at = body[at], at + 1
        if tech not in UID_LENGTHS_BY_TECH:
            raise BodyError(f"tag technology {tech} is not defined")
    if at >= len(body):
        raise BodyError("UID length missing")
    n = body[at]
    if n not in UID_LENGTHS_BY_TECH[tech]:
        raise BodyError(f"UID length {n} does not fit technology {tech} ({UID_LENGTHS_BY_TECH[tech]})")
    uid = body[at + 1: at + 1 + n]
    if len(uid) != n:
        raise BodyError("UID truncated")
    return uid, tech, at + 1 + n


_VALID_ZONES = frozenset(z for z in range(256) if is_valid_zone(z))  # a set lookup: the decoder's hot path


def _check_zone(zone: int) -> int:
    if zone not in _VALID_ZONES:
        raise BodyError(f"zone id {zone} is not defined")
    return zone


@dataclass(frozen=True, slots=True)
class Hello:
    """The board introduces itself: protocol and firmware versions, and the zones it has antennas for."""

    TYPE: ClassVar[int] = MSG_HELLO
    protocol_major: int
    protocol_minor: int
    firmware: tuple[int, int, int]
    zones: tuple[int, ...]

    def pack(self, major: int = PROTOCOL_VERSION_MAJOR) -> bytes:
        return bytes([self.protocol_major, self.protocol_minor, *self.firmware, len(self.zones), *self.zones])

    @classmethod
    def unpack(cls, body: bytes, major: int | None = PROTOCOL_VERSION_MAJOR) -> Hello:
        if len(body) < 6 or len(body) != 6 + body[5]:
            raise BodyError("HELLO body length does not match its zone count")
        zones = tuple(_check_zone(z) for z in body[6:])
        return cls(body[0], body[1], (body[2], body[3], body[4]), zones)


@dataclass(frozen=True, slots=True)
class TagArrived:
    """A tag came into a zone's field (debounced on the board)."""

    TYPE: ClassVar[int] = MSG_TAG_ARRIVED
    zone: int
    uid: bytes
    tech: int = TECH_ISO14443A

    def pack(self, major: int = PROTOCOL_VERSION_MAJOR) -> bytes:
        return bytes([self.zone]) + _pack_uid(self.uid, self.tech, major)

    @classmethod
    def unpack(cls, body: bytes, major: int | None = PROTOCOL_VERSION_MAJOR) -> TagArrived:
        if not body:
            raise BodyError("zone missing")
        uid, tech, end = _unpack_uid(body, 1, major)
        if end != len(body):
            raise BodyError("trailing bytes")
        return cls(_check_zone(body[0]), uid, tech)


@dataclass(frozen=True, slots=True)
class TagLeft:
    """A tag left a zone's field (absent for the board's debounce time)."""

    TYPE: ClassVar[int] = MSG_TAG_LEFT
    zone: int
    uid: bytes
    tech: int = TECH_ISO14443A

    def pack(self, major: int = PROTOCOL_VERSION_MAJOR) -> bytes:   # the same body as TagArrived's
        return bytes([self.zone]) + _pack_uid(self.uid, self.tech, major)

    @classmethod
    def unpack(cls, body: bytes, major: int | None = PROTOCOL_VERSION_MAJOR) -> TagLeft:
        arrived = TagArrived.unpack(body, major)
        return cls(arrived.zone, arrived.uid, arrived.tech)


@dataclass(frozen=True, slots=True)
class CardFace:
    """The shoe's orientation sensor saw a card leave face up (boxed or exposed) or face down."""

    TYPE: ClassVar[int] = MSG_CARD_FACE
    zone: int
    face_up: bool
    uid: bytes
    tech: int = TECH_ISO14443A

    def pack(self, major: int = PROTOCOL_VERSION_MAJOR) -> bytes:
        return bytes([self.zone, 1 if self.face_up else 0]) + _pack_uid(self.uid, self.tech, major)

    @classmethod
    def unpack(cls, body: bytes, major: int | None = PROTOCOL_VERSION_MAJOR) -> CardFace:
        if len(body) < 2 or body[1] > 1:
            raise BodyError("CARD_FACE needs a zone and a 0/1 face flag")
        uid, tech, end = _unpack_uid(body, 2, major)
        if end != len(body):
            raise BodyError("trailing bytes")
        return cls(_check_zone(body[0]), bool(body[1]), uid, tech)


@dataclass(frozen=True, slots=True)
class ReaderFault:
    """A reader stopped answering or misbehaved (``code`` > 0), or recovered (``FAULT_RECOVERED``)."""

    TYPE: ClassVar[int] = MSG_READER_FAULT
    reader: int
    zone: int
    code: int

    def pack(self, major: int = PROTOCOL_VERSION_MAJOR) -> bytes:
        return bytes([self.reader, self.zone, self.code])

    @classmethod
    def unpack(cls, body: bytes, major: int | None = PROTOCOL_VERSION_MAJOR) -> ReaderFault:
        if len(body) != 3:
            raise BodyError("READER_FAULT body is 3 bytes")
        return cls(body[0], _check_zone(body[1]), body[2])


@dataclass(frozen=True, slots=True)
class Heartbeat:
    """Sent every period: the board is alive, how many tags it sees, which readers are faulty."""

    TYPE: ClassVar[int] = MSG_HEARTBEAT
    uptime_ms: int
    tags_present: int
    faulty_readers: int  # bit i set: reader i is faulty

    def pack(self, major: int = PROTOCOL_VERSION_MAJOR) -> bytes:
        return struct.pack("<IHI", self.uptime_ms, self.tags_present, self.faulty_readers)

    @classmethod
    def unpack(cls, body: bytes, major: int | None = PROTOCOL_VERSION_MAJOR) -> Heartbeat:
        if len(body) != 10:
            raise BodyError("HEARTBEAT body is 10 bytes")
        return cls(*struct.unpack("<IHI", body))


@dataclass(frozen=True, slots=True)
class ZoneInventory:
    """How completely a zone was read (since 2.0): sent after the zone's TAG_ARRIVED/TAG_LEFT changes.

    ``tags`` is how many tags the reader proved present (read with a good CRC); with
    ``ZONE_READ_UNCERTAIN`` the zone may hold more, so the count is a floor, never the total.
    ``ZONE_READ_UNREADABLE``: something answers in the field but no UID reads (a damaged inlay, a
    detuned antenna): the zone's earlier set stands, and it is neither empty nor a fold.
    """

    TYPE: ClassVar[int] = MSG_ZONE_INVENTORY
    zone: int
    state: int
    tags: int

    def pack(self, major: int = PROTOCOL_VERSION_MAJOR) -> bytes:
        return bytes([self.zone, self.state, self.tags])

    @classmethod
    def unpack(cls, body: bytes, major: int | None = PROTOCOL_VERSION_MAJOR) -> ZoneInventory:
        if len(body) != 3:
            raise BodyError("ZONE_INVENTORY body is 3 bytes")
        if body[1] not in ZONE_READ_STATES:
            raise BodyError(f"zone read state {body[1]} is not defined")
        return cls(_check_zone(body[0]), body[1], body[2])


@dataclass(frozen=True, slots=True)
class CmdHello:
    """Host asks the board to send HELLO again."""

    TYPE: ClassVar[int] = MSG_CMD_HELLO

    def pack(self, major: int = PROTOCOL_VERSION_MAJOR) -> bytes:
        return b""

    @classmethod
    def unpack(cls, body: bytes, major: int | None = PROTOCOL_VERSION_MAJOR) -> CmdHello:
        if body:
            raise BodyError("CMD_HELLO has no body")
        return cls()


@dataclass(frozen=True, slots=True)
class CmdInventory:
    """Host asks the board to report every tag present now as TAG_ARRIVED (after a reconnect)."""

    TYPE: ClassVar[int] = MSG_CMD_INVENTORY

    def pack(self, major: int = PROTOCOL_VERSION_MAJOR) -> bytes:
        return b""

    @classmethod
    def unpack(cls, body: bytes, major: int | None = PROTOCOL_VERSION_MAJOR) -> CmdInventory:
        if body:
            raise BodyError("CMD_INVENTORY has no body")
        return cls()


@dataclass(frozen=True, slots=True)
class CmdHeartbeatPeriod:
    """Host sets the heartbeat period in milliseconds (0 turns heartbeats off)."""

    TYPE: ClassVar[int] = MSG_CMD_HEARTBEAT_PERIOD
    period_ms: int

    def pack(self, major: int = PROTOCOL_VERSION_MAJOR) -> bytes:
        return struct.pack("<H", self.period_ms)

    @classmethod
    def unpack(cls, body: bytes, major: int | None = PROTOCOL_VERSION_MAJOR) -> CmdHeartbeatPeriod:
        if len(body) != 2:
            raise BodyError("CMD_HEARTBEAT_PERIOD body is 2 bytes")
        return cls(*struct.unpack("<H", body))


Message = (Hello | TagArrived | TagLeft | CardFace | ReaderFault | Heartbeat | ZoneInventory | CmdHello | CmdInventory
           | CmdHeartbeatPeriod)

# Every type packs and unpacks with a layout major (one signature for all); only VERSIONED_TYPES read it.
MESSAGE_TYPES: dict[int, type[Message]] = {
    cls.TYPE: cls
    for cls in (Hello, TagArrived, TagLeft, CardFace, ReaderFault, Heartbeat, ZoneInventory, CmdHello, CmdInventory,
                CmdHeartbeatPeriod)
}
# Types whose body layout depends on the board's protocol major version (the tag technology byte of 2.0).
VERSIONED_TYPES = frozenset({MSG_TAG_ARRIVED, MSG_TAG_LEFT, MSG_CARD_FACE})


def pack_body(message: Message, major: int = PROTOCOL_VERSION_MAJOR) -> bytes:
    """The message's body in the layout of protocol ``major``."""
    return message.pack(major)


def unpack_body(mtype: int, body: bytes, major: int | None = PROTOCOL_VERSION_MAJOR) -> Message:
    """The message of type ``mtype`` from a body in the layout of protocol ``major`` (None: whichever layout the
    body has). KeyError: unknown type."""
    return MESSAGE_TYPES[mtype].unpack(body, major)


@dataclass(frozen=True, slots=True)
class Frame:
    """One decoded frame. ``gap`` counts frames lost just before this one (sequence numbers skipped)."""

    seq: int
    message: Message
    gap: int = 0
    raw: bytes = field(default=b"", repr=False, compare=False)


def crc16(data: bytes) -> int:
    """CRC-16/CCITT-FALSE, the same as avr-libc's ``_crc_xmodem_update`` seeded with 0xFFFF."""
    return binascii.crc_hqx(data, CRC16_INIT)


def raw_frame(seq: int, message: Message, major: int = PROTOCOL_VERSION_MAJOR) -> bytes:
    """The unframed bytes ``type | seq | body | crc`` (what COBS then encodes), body in protocol ``major``."""
    body = pack_body(message, major)
    if len(body) > FRAME_MAX_BODY:
        raise ValueError(f"body of {len(body)} bytes exceeds FRAME_MAX_BODY={FRAME_MAX_BODY}")
    head = struct.pack("<BH", message.TYPE, seq % SEQ_MODULO) + body
    return head + struct.pack("<H", crc16(head))


def encode_frame(seq: int, message: Message, major: int = PROTOCOL_VERSION_MAJOR) -> bytes:
    """The bytes on the wire for one message: COBS-encoded raw frame plus the 0x00 delimiter."""
    stuffed: bytes = cobs.encode(raw_frame(seq, message, major))   # the cobs package ships no type hints
    return stuffed + b"\x00"


def parse_raw(raw: bytes) -> tuple[int, int, bytes]:
    """Split a CRC-checked raw frame into (type, seq, body). Raises ValueError if too short or CRC bad."""
    if len(raw) < FRAME_HEADER_LEN + FRAME_CRC_LEN:
        raise ValueError("truncated")
    (want,) = struct.unpack_from("<H", raw, len(raw) - 2)
    if crc16(raw[:-2]) != want:
        raise ValueError("bad crc")
    mtype, seq = struct.unpack_from("<BH", raw, 0)
    return mtype, seq, raw[FRAME_HEADER_LEN:-2]


class Encoder:
    """Stateful sender: numbers frames in order, as the board (or a simulator) does, and writes bodies in the
    layout of the protocol its last HELLO announced (so a simulated 1.x board sends 1.x tag frames)."""

    def __init__(self, first_seq: int = 0, major: int = PROTOCOL_VERSION_MAJOR) -> None:
        self.seq = first_seq
        self.major = major

    def encode(self, message: Message) -> bytes:
        if isinstance(message, Hello):
            self.seq = 0  # a HELLO starts a new numbering, as after a board reset
            self.major = message.protocol_major
        out = encode_frame(self.seq, message, self.major)
        self.seq = (self.seq + 1) % SEQ_MODULO
        return out
