"""The pure path from bytes to table events: decoder, tag registry, engine. No I/O, no threads, no clock.

The live terminal, ``replay``, the benchmarks and the tests all drive this one object, so a recorded log
and a live port go through exactly the same code.

>>> from dealerbox.config import Config
>>> from dealerbox.tags import demo_registry
>>> from dealerbox.wire.protocol import Encoder, Hello
>>> pipe = Pipeline(Config(), demo_registry())
>>> [e.kind for e in pipe.feed_bytes(0.0, Encoder().encode(Hello(1, 0, (1, 0, 0), (0, 1, 2))))]
['BoardConnected']
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from .config import Config, from_dict
from .engine import inputs as ev
from .engine.events import TableEvent
from .record.logformat import Entry, Header, Input, Link, Rx
from .record.logformat import enrolment_of  # noqa: F401  (its home moved; callers may still import it here)
from .tags import ChipSet, Deck, Tag, TagRegistry, UnknownTag
from .wire import protocol as p
from .wire.decoder import FrameDecoder
from .wire.zones import NAME_OF, zone_name

if TYPE_CHECKING:
    from .engine.table import Engine
    from .tournament.config import Tournament


# protocol 2.0 zone read states, as the engine names them (engine/stacks.py READ_STATES)
READ_STATE_NAMES = {p.ZONE_READ_COMPLETE: "complete", p.ZONE_READ_UNCERTAIN: "uncertain",
                    p.ZONE_READ_UNREADABLE: "unreadable"}


def quick_constructor(cls: type) -> Callable[..., ev.SensorEvent]:
    """A constructor for a frozen, slotted input with three or four fields that sets the slots directly: the
    same object the dataclass' ``__init__`` makes (same type, same fields), at about half the cost, since that
    ``__init__`` goes through ``object.__setattr__`` field by field. The pipeline builds one input per frame.
    Any other class (a ``__post_init__``, defaults, no slots) gets its own constructor back."""
    names = [f.name for f in dataclasses.fields(cls)]
    if hasattr(cls, "__post_init__") or not hasattr(cls, "__slots__") or len(names) not in (3, 4) \
            or any(f.default is not dataclasses.MISSING or f.default_factory is not dataclasses.MISSING
                   for f in dataclasses.fields(cls)):
        return cls
    new = object.__new__
    setters = [getattr(cls, name).__set__ for name in names]
    if len(setters) == 3:
        a, b, c = setters

        def make3(x: object, y: object, z: object) -> ev.SensorEvent:
            o: ev.SensorEvent = new(cls)
            a(o, x)
            b(o, y)
            c(o, z)
            return o
        return make3
    a, b, c, d = setters

    def make4(w: object, x: object, y: object, z: object) -> ev.SensorEvent:
        o: ev.SensorEvent = new(cls)
        a(o, w)
        b(o, x)
        c(o, y)
        d(o, z)
        return o
    return make4


# The sensor input each tag message becomes.
_READING_OF: dict[type, Callable[..., ev.SensorEvent]] = {p.TagArrived: quick_constructor(ev.ZoneEntered),
                                               p.TagLeft: quick_constructor(ev.ZoneLeft),
                                               p.CardFace: quick_constructor(ev.CardFaceSensed)}
_face = _READING_OF[p.CardFace]
_board_alive = quick_constructor(ev.BoardAlive)
_ARRIVED = p.TagArrived   # the message types feed_bytes tells apart, as module names (one look-up each)
_LEFT = p.TagLeft
_FACE = p.CardFace
_HEARTBEAT = p.Heartbeat


class Pipeline:
    def __init__(self, config: Config, registry: TagRegistry, tournament: Tournament | None = None) -> None:
        self.config = config
        self.registry = registry
        self.decoder = FrameDecoder()
        # imported here, not with this module: a reader of a sealed log's public events checks its header with
        # table_setup below and never loads the engine (about a third of the audit's start-up)
        from .engine.table import Engine
        self.engine: Engine = Engine(config, registry, tournament)
        self.unknown_tags = 0
        self.last_heartbeat_t: float | None = None   # source time of the board's last heartbeat
        self.faulty_readers = 0                      # bitmask from that heartbeat
        # Every frame names a tag and a zone: a known tag is looked up once (bounded by the registry), a zone's
        # name is a table of the protocol's zones. Nothing is kept per (zone, tag) pair: the decoder remembers
        # the bodies it has read lately, and a reading is made from its message with two look-ups.
        self._tags: dict[bytes | str, Tag] = {}
        # the hot path's calls, bound once (a decoder and an engine are this pipeline's for good)
        self._feed_known, self._feed_known_all = self.decoder.feed_known, self.decoder.feed_known_all
        self._tag_seen, self._apply = self.engine.tag_seen, self.engine.apply

    @classmethod
    def from_header(cls, header: Header) -> Pipeline:
        """A pipeline set up exactly as the recorded table was: its config and its enrolment."""
        pipeline = cls(*table_setup(header))
        pipeline.engine.hands_before = header.hands_before   # hand numbers as the live table gave them
        return pipeline

    def feed(self, entry: Entry) -> list[TableEvent]:
        """Apply one log entry (what every source yields)."""
        if isinstance(entry, Rx):
            return self.feed_bytes(entry.t, entry.data)
        if isinstance(entry, Input):
            return self.engine.apply(entry.input)
        if isinstance(entry, Link):
            self.decoder.resync()  # a frame cut by the unplug must not swallow the first one after it
        if isinstance(entry, Link) and not entry.up:
            return self.engine.apply(ev.FramesLost(entry.t, 0, "link-down"))
        return []  # headers, Tx and link-up change nothing at the table

    def feed_bytes(self, t: float, data: bytes) -> list[TableEvent]:
        m = self._feed_known(data)
        if m is not None:   # the usual chunk: one in-order frame of a body read before
            if type(m) is _ARRIVED or type(m) is _LEFT:
                tag = self._tags.get(m.uid)
                if tag is not None:   # a known tag (nearly every frame): two look-ups, straight to the engine
                    # (a decoded message's zone is one of the protocol's: _check_zone, so always in NAME_OF)
                    return self._tag_seen(t, NAME_OF[m.zone], tag, type(m) is _ARRIVED)
            elif type(m) is _HEARTBEAT:   # the board's pulse, new every time: one input, no list
                return self._apply(self._pulse(t, m))
            elif type(m) is _FACE:   # a card's face as it leaves the shoe: one input, no list
                tag = self._tags.get(m.uid)
                if tag is not None:
                    return self._apply(_face(t, NAME_OF[m.zone], tag, m.face_up))
            return self._apply_all(self._readings_of(t, m, 0))
        burst = self._feed_known_all(data)
        if burst is not None:   # frames the board sent together, read as one chunk: each as above
            out: list[TableEvent] = []
            seen, tags = self._tag_seen, self._tags
            for m in burst:
                if type(m) is _ARRIVED or type(m) is _LEFT:
                    tag = tags.get(m.uid)
                    if tag is not None:
                        out += seen(t, NAME_OF[m.zone], tag, type(m) is _ARRIVED)
                        continue
                out += self._apply_all(self._readings_of(t, m, 0))
            return out
        return self._feed_frames(t, data)

    def _feed_frames(self, t: float, data: bytes) -> list[TableEvent]:
        """Anything the shortcuts do not take (a HELLO, a gap, damage, a frame cut across chunks), frame by
        frame (apart from ``feed_bytes``: its comprehension would make ``t`` a cell there, slower to read)."""
        frames = self.decoder.feed(data)
        return self._apply_all([e for frame in frames for e in self._readings_of(t, frame.message, frame.gap)])

    def _apply_all(self, sensor_events: list[ev.SensorEvent]) -> list[TableEvent]:
        out: list[TableEvent] = []
        for sensor_event in sensor_events:
            out.extend(self.engine.apply(sensor_event))
        return out

    def feed_input(self, dealer_input: ev.DealerInput) -> list[TableEvent]:
        return self.engine.apply(dealer_input)

    def sensor_events(self, t: float, frame: p.Frame) -> list[ev.SensorEvent]:
        """Interpret one frame: look its tag up, name its zone."""
        return self._readings_of(t, frame.message, frame.gap)

    def _readings_of(self, t: float, m: p.Message, gap: int) -> list[ev.SensorEvent]:
        out: list[ev.SensorEvent] = []
        if gap:
            out.append(ev.FramesLost(t, gap, "sequence-gap"))
        if type(m) is p.Heartbeat:   # first: the one message that is new every time (a few a minute)
            out.append(self._pulse(t, m))
        elif isinstance(m, p.TagArrived | p.TagLeft | p.CardFace):
            tag = self._tags.get(m.uid)
            if tag is None:
                tag = self.registry.lookup(m.uid)
                if isinstance(tag, UnknownTag):
                    self.unknown_tags += 1   # counted at every sighting: never remembered
                else:
                    self._tags[m.uid] = tag
            zone = NAME_OF.get(m.zone) or zone_name(m.zone)
            if isinstance(m, p.CardFace):
                out.append(_face(t, zone, tag, m.face_up))
            else:
                out.append(_READING_OF[type(m)](t, zone, tag))
        elif isinstance(m, p.Hello):
            out.append(ev.BoardHello(t, f"{m.protocol_major}.{m.protocol_minor}", ".".join(map(str, m.firmware)),
                                     tuple(p.zone_name(z) for z in m.zones)))
        elif isinstance(m, p.ReaderFault):
            out.append(ev.ReaderFaulted(t, m.reader, p.zone_name(m.zone), m.code))
        elif isinstance(m, p.ZoneInventory):
            out.append(ev.ZoneReadState(t, p.zone_name(m.zone), READ_STATE_NAMES[m.state], m.tags))
        return out

    def _pulse(self, t: float, m: p.Heartbeat) -> ev.SensorEvent:
        self.last_heartbeat_t, self.faulty_readers = t, m.faulty_readers
        return _board_alive(t, m.uptime_ms, m.tags_present, m.faulty_readers)

    def counters(self) -> dict[str, Any]:
        return counters_of(self.decoder, self.unknown_tags)


def counters_of(decoder: FrameDecoder, unknown_tags: int) -> dict[str, Any]:
    """A pipeline's counters: the decoder's and the tags no enrolment names (``counters_of(FrameDecoder(), 0)``
    for a pipeline fed nothing)."""
    return {**decoder.counters.as_dict(), "unknown_tags": unknown_tags}


def table_setup(header: Header) -> tuple[Config, TagRegistry, Tournament | None]:
    """The table a log's header describes: its config, its tag registry and its tournament (None at a cash
    table), each read and checked as :meth:`Pipeline.from_header` reads them (the same errors for a bad one)."""
    tournament = None
    if header.tournament:   # a tournament table's log: its levels and chips, as recorded
        from .tournament.config import from_dict as tournament_from_dict
        tournament = tournament_from_dict(header.tournament, "log header: tournament")
    return from_dict(header.config, "log header"), registry_from_enrolment(header.enrolment), tournament


def registry_from_enrolment(enrolment: dict[str, list[dict[str, Any]]]) -> TagRegistry:
    decks = [Deck(d["deck_id"], d["back"], dict(d["cards"])) for d in enrolment.get("decks", [])]
    chips = [ChipSet(c["house"], dict(c["chips"]), dict(c.get("markers", {}))) for c in enrolment.get("chips", [])]
    return TagRegistry(decks, chips)


def public_events(header: Header) -> Callable[[Entry], list[TableEvent]]:
    """What a sealed log's recorder rules its clear ``ev`` lines with: a pipeline of its own, from the log's header."""
    return Pipeline.from_header(header).feed
