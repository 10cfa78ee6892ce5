"""The physical table as a timed stream: where every tag is, and what the reader board and dealer produce.

Shared by the simulator and the scenario compiler, so a scripted hand and a simulated one describe the
same motions with the same messages (the choreography of ``docs/scenarios.md``):

- dealing a card is ``CardFace(shoe)``, ``TagLeft(shoe)``, ``TagArrived(dest)``;
- a move is ``TagLeft(src)`` then ``TagArrived(dst)`` (no arrival when it leaves the table);
- the chips of one action arrive less than 0.5 s apart (one motion);
- a dealer tap is a :class:`DealerInput` at the current time.

>>> from dealerbox.tags import demo_registry
>>> c = Choreography()
>>> c.deal("04aabbccddeeff", "seat3")
>>> [type(m).__name__ for _, m in c.messages]
['CardFace', 'TagLeft', 'TagArrived']
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from ..engine import inputs as ev
from ..record.logformat import Input, Record, Rx
from ..tags import Tag, TagRegistry, UnknownTag
from ..wire import protocol as p
from ..wire.zones import CANONICAL, NUMBER_OF, canonical, zone_number

Message = p.Message | ev.DealerInput
# ZONE_INVENTORY's read states by code, as the engine names them (engine/stacks.py READ_STATES)
READ_STATE_NAMES = {p.ZONE_READ_COMPLETE: "complete", p.ZONE_READ_UNCERTAIN: "uncertain",
                    p.ZONE_READ_UNREADABLE: "unreadable"}
READ_STATE_CODES = {name: code for code, name in READ_STATE_NAMES.items()}
Timed = tuple[float, Message]


@dataclass(frozen=True, slots=True)
class LinkChange:
    """A scenario's ``link up|down`` step: the serial link itself, recorded as a Link record (scenario/player)."""
    up: bool
    port: str
    reason: str


Scripted = Message | bytes | LinkChange   # a scenario may also put garbage bytes and link changes on the line

# Seconds between the parts of one physical gesture.
CARD_LEAVE = 0.02        # orientation sensed, then the card clears the shoe antenna
CARD_TRAVEL = 0.18       # shoe to the destination antenna
CHIP_GAP = 0.06          # chips of one motion (well under the 0.5 s motion window)
MOVE_TRAVEL = 0.25       # a tag carried from one zone to another


def tech_of(uid: bytes) -> int:
    """The technology a UID's length says: 8 bytes is an ICODE chip (ISO 15693), the rest NTAG (ISO 14443A)."""
    return p.TECH_ISO15693 if len(uid) == 8 else p.TECH_ISO14443A


class Choreography:
    """Collects timed messages while tracking each tag's zone (``where``) so macros can say "every card"."""

    def __init__(self, t: float = 0.0) -> None:
        self.t = t
        self.messages: list[tuple[float, Scripted]] = []
        self.where: dict[str, str] = {}   # uid -> zone it is in now (absent: off every antenna)

    # --- time ---------------------------------------------------------------------------------------
    def wait(self, seconds: float) -> None:
        self.t += max(0.0, seconds)

    def at(self, t: float) -> None:
        self.t = max(self.t, t)

    # --- primitive sensor messages -------------------------------------------------------------------
    def emit(self, message: Message, t: float | None = None) -> None:
        self.messages.append((self.t if t is None else t, message))

    def emit_raw(self, item: bytes | LinkChange, t: float | None = None) -> None:
        """Garbage bytes or a link change, for a scenario (no board message makes them)."""
        self.messages.append((self.t if t is None else t, item))

    def enter(self, zone: str, uid: str) -> None:
        raw = bytes.fromhex(uid)
        self.messages.append((self.t, p.TagArrived(zone_number(zone), raw, tech_of(raw))))
        self.where[uid] = zone

    def leave(self, zone: str, uid: str) -> None:
        raw = bytes.fromhex(uid)
        self.messages.append((self.t, p.TagLeft(zone_number(zone), raw, tech_of(raw))))
        if self.where.get(uid) == zone:
            del self.where[uid]

    def face(self, uid: str, face_up: bool, zone: str = "shoe") -> None:
        self.messages.append((self.t, p.CardFace(zone_number(zone), face_up, bytes.fromhex(uid))))

    def tap(self, action: str, **fields) -> None:
        self.messages.append((self.t, ev.DealerInput(self.t, action, **fields)))

    # --- gestures -------------------------------------------------------------------------------------
    def deal(self, uid: str, dest: str | None, face_up: bool = False) -> None:
        """One card out of the shoe to ``dest`` (None: it fell off the table)."""
        self.face(uid, face_up)
        self.t += CARD_LEAVE
        self.leave("shoe", uid)
        if dest is not None:
            self.t += CARD_TRAVEL
            self.enter(dest, uid)

    def move(self, uid: str, src: str | None, dst: str | None, travel: float = MOVE_TRAVEL) -> None:
        """A tag carried from ``src`` to ``dst``; either may be None (from the hand, or off the table)."""
        if src is not None:
            self.leave(src, uid)
        if dst is not None:
            self.t += travel if src is not None else 0.0
            self.enter(dst, uid)

    def motion(self, zone: str, uids: Iterable[str], gap: float = CHIP_GAP) -> None:
        """Chips put into ``zone`` in one motion (consecutive chips ``gap`` apart)."""
        for i, uid in enumerate(uids):
            if i:
                self.t += gap
            self.enter(zone, uid)

    def take(self, zone: str, uids: Iterable[str], gap: float = 0.02) -> None:
        """Chips lifted out of ``zone`` by hand (they reach no antenna)."""
        for i, uid in enumerate(uids):
            if i:
                self.t += gap
            self.leave(zone, uid)

    def sweep(self, src: str, dst: str, uids: Iterable[str], travel: float = 0.4) -> None:
        """Several tags pushed together from ``src`` to ``dst``: all leave, then all arrive."""
        uids = list(uids)
        for uid in uids:
            self.leave(src, uid)
        self.t += travel
        for uid in uids:
            self.enter(dst, uid)

    def in_zone(self, zone: str) -> list[str]:
        return [uid for uid, z in self.where.items() if z == zone]


class SensedChoreography(Choreography):
    """The same gestures, recorded straight as the engine inputs the Pipeline would derive from their bytes.

    The simulator's hot path (a few hundred tag motions a hand): building each protocol message and then
    decoding it again cost a third of a simulated hand, so ``inputs`` is built directly (tags looked up once
    per uid) and ``messages`` is derived from it only when someone asks (``to_messages``).
    """

    def __init__(self, registry: TagRegistry, t: float = 0.0, tags: dict[str, Tag] | None = None) -> None:
        # No super().__init__(): ``messages`` is a derived property here, not a list to append to.
        self.t = t
        self.where = {}
        self.inputs: list[ev.EngineInput] = []
        self.registry = registry
        self.tags = {} if tags is None else tags   # uid -> Tag; pass one dict to share it across hands

    @property
    def messages(self) -> list[Timed]:  # type: ignore[override]  # derived from the inputs, not a list to append to
        return to_messages(self.inputs)

    def _tag(self, uid: str) -> Tag:
        tag = self.tags.get(uid)
        if tag is None:
            tag = self.registry.lookup(uid)
            if not isinstance(tag, UnknownTag):  # unknown uids are one-offs: the cache stays the enrolment's size
                self.tags[uid] = tag
        return tag

    def emit(self, message: Message, t: float | None = None) -> None:
        t = self.t if t is None else t
        got = message if isinstance(message, ev.DealerInput) else sensor_input(t, message, self.registry)
        if got is not None:
            self.inputs.append(got)

    # enter/leave run for every chip and card motion: the lookups are inlined, falling back on a miss.
    def enter(self, zone: str, uid: str) -> None:
        self.inputs.append(ev.ZoneEntered(self.t, CANONICAL.get(zone) or canonical(zone),
                                          self.tags.get(uid) or self._tag(uid)))
        self.where[uid] = zone

    def leave(self, zone: str, uid: str) -> None:
        self.inputs.append(ev.ZoneLeft(self.t, CANONICAL.get(zone) or canonical(zone),
                                       self.tags.get(uid) or self._tag(uid)))
        if self.where.get(uid) == zone:
            del self.where[uid]

    def face(self, uid: str, face_up: bool, zone: str = "shoe") -> None:
        self.inputs.append(ev.CardFaceSensed(self.t, canonical(zone), self._tag(uid), face_up))

    def tap(self, action: str, **fields) -> None:
        self.inputs.append(ev.DealerInput(self.t, action, **fields))


# --- turning messages into what the engine sees, and into log records -------------------------------

def sensor_input(t: float, message: p.Message, registry: TagRegistry) -> ev.SensorEvent | None:
    """The engine input the Pipeline derives from one decoded message (same lookups, same zone names)."""
    if isinstance(message, p.TagArrived):
        return ev.ZoneEntered(t, p.zone_name(message.zone), registry.lookup(message.uid))
    if isinstance(message, p.TagLeft):
        return ev.ZoneLeft(t, p.zone_name(message.zone), registry.lookup(message.uid))
    if isinstance(message, p.CardFace):
        return ev.CardFaceSensed(t, p.zone_name(message.zone), registry.lookup(message.uid), message.face_up)
    if isinstance(message, p.Hello):
        return ev.BoardHello(t, f"{message.protocol_major}.{message.protocol_minor}",
                             ".".join(map(str, message.firmware)), tuple(p.zone_name(z) for z in message.zones))
    if isinstance(message, p.ReaderFault):
        return ev.ReaderFaulted(t, message.reader, p.zone_name(message.zone), message.code)
    if isinstance(message, p.Heartbeat):
        return ev.BoardAlive(t, message.uptime_ms, message.tags_present, message.faulty_readers)
    if isinstance(message, p.ZoneInventory):
        return ev.ZoneReadState(t, p.zone_name(message.zone), READ_STATE_NAMES[message.state], message.tags)
    return None


def to_inputs(messages: Iterable[Timed], registry: TagRegistry) -> list[ev.EngineInput]:
    out: list[ev.EngineInput] = []
    for t, m in messages:
        if isinstance(m, ev.DealerInput):
            out.append(m)
        else:
            i = sensor_input(t, m, registry)
            if i is not None:
                out.append(i)
    return out


_UID_BYTES: dict[str, bytes] = {}


def to_messages(inputs: Iterable[ev.EngineInput]) -> list[Timed]:
    """The board messages and taps that decode to ``inputs`` (the inverse of ``to_inputs``, tag motions only)."""
    out: list[Timed] = []
    append = out.append
    for i in inputs:
        kind = type(i)
        if isinstance(i, ev.DealerInput):
            append((i.t, i))
            continue
        if isinstance(i, ev.ZoneReadState):   # a chip zone's read state (sources/sim/stack_reads.py)
            append((i.t, p.ZoneInventory(zone_number(i.zone), READ_STATE_CODES[i.state], i.tags)))
            continue
        if not isinstance(i, (ev.ZoneEntered, ev.ZoneLeft, ev.CardFaceSensed)):
            raise TypeError(f"to_messages: no board message makes a {kind.__name__}")
        zone = NUMBER_OF.get(i.zone)
        if zone is None:
            zone = zone_number(i.zone)
        uid = _UID_BYTES.get(i.tag.uid)
        if uid is None:
            if len(_UID_BYTES) > 4096:  # unknown uids are one-offs: keep the cache bounded
                _UID_BYTES.clear()
            uid = _UID_BYTES[i.tag.uid] = bytes.fromhex(i.tag.uid)
        if isinstance(i, ev.ZoneEntered):
            append((i.t, p.TagArrived(zone, uid, tech_of(uid))))
        elif isinstance(i, ev.ZoneLeft):
            append((i.t, p.TagLeft(zone, uid, tech_of(uid))))
        else:
            append((i.t, p.CardFace(zone, i.face_up, uid)))
    return out


def to_records(messages: Iterable[Timed], encoder: p.Encoder) -> Iterator[Record]:
    """One Rx record per frame (encoded in order by ``encoder``), one Input record per tap."""
    for t, m in messages:
        if isinstance(m, ev.DealerInput):
            yield Input(m)
        elif isinstance(m, bytes):
            yield Rx(t, m)  # raw bytes on the line (scenarios: garbage)
        else:
            yield Rx(t, encoder.encode(m))


def table_zones(seats: int) -> tuple[int, ...]:
    """The antennas of a table with ``seats`` seats, as a board's HELLO lists them."""
    return ((p.ZONE_SHOE,) + tuple(range(p.ZONE_SEAT_FIRST, p.ZONE_SEAT_FIRST + seats))
            + (p.ZONE_BOARD, p.ZONE_BURN, p.ZONE_MUCK)
            + tuple(range(p.ZONE_BET_FIRST, p.ZONE_BET_FIRST + seats)) + (p.ZONE_POT,))


def board_hello(seats: int, firmware: tuple[int, int, int] = (1, 0, 0)) -> p.Hello:
    return p.Hello(p.PROTOCOL_VERSION_MAJOR, p.PROTOCOL_VERSION_MINOR, firmware, table_zones(seats))
