"""The replay speed-ups remember what a repeated frame means; these check that remembering never changes it."""

from cobs import cobs

from dealerbox.config import Config
from dealerbox.engine import inputs as ev
from dealerbox.pipeline import Pipeline
from dealerbox.tags import demo_registry
from dealerbox.wire import protocol as p
from dealerbox.wire.decoder import FrameDecoder

UID = bytes.fromhex("04a1b2c3")


def test_a_repeated_body_is_the_same_message_and_still_counted_and_sequenced():
    d = FrameDecoder()
    first = d.feed(p.encode_frame(0, p.TagArrived(3, UID)))
    again = d.feed(p.encode_frame(2, p.TagArrived(3, UID)))   # frame 1 lost on the way
    assert first[0].message is again[0].message
    assert (again[0].seq, again[0].gap) == (2, 1)
    assert d.counters.frames == 2 and d.counters.seq_gaps == 1 and d.counters.frames_lost == 1


def test_a_body_seen_again_in_the_older_generation_is_kept_and_one_not_seen_again_goes():
    """Two generations of ``remember // 2`` bodies: the current one full becomes the older one and the one before
    is dropped; a body met in the older generation moves back into the current one."""
    enc = p.Encoder()
    d = FrameDecoder(remember=4)
    a, b, c = (p.TagArrived(3, bytes([4, 1, 2, n])) for n in (1, 2, 3))
    first_a = d.feed(enc.encode(a))[0].message               # feed learns the numbering; a remembered
    first_b = d.feed_known(enc.encode(b))                    # b: the generation is full, it becomes the older
    assert d.feed_known(enc.encode(c)) == c                  # c in the current generation
    assert d.feed_known(enc.encode(a)) is first_a            # a from the older one, moved back: current full
    assert d.remembered() == 2                               # b went with the older generation
    again_b = d.feed_known(enc.encode(b))
    assert again_b == first_b and again_b is not first_b     # read again, and read the same
    assert [f.message for f in d.feed(enc.encode(a))] == [a] and d.feed(enc.encode(a))[0].message is first_a
    assert d.counters.frames == 7


def test_a_body_remembered_in_one_layout_is_read_again_after_a_hello_changes_it():
    """1.x body first (no HELLO yet: read in its own layout), then the board says 2.0: the same bytes no longer fit."""
    d = FrameDecoder()
    body_1x = p.encode_frame(5, p.TagArrived(3, UID), 1)
    assert [f.message for f in d.feed(body_1x)] == [p.TagArrived(3, UID)]
    assert d.feed(p.encode_frame(0, p.Hello(2, 0, (2, 0, 0), (0, 3)))) != []
    assert d.feed(p.encode_frame(1, p.TagArrived(3, UID), 1)) == []
    assert d.counters.bad_body == 1


def test_a_one_frame_chunk_after_a_partial_one_still_joins_it():
    """The one-frame shortcut must not skip bytes kept from the previous chunk."""
    wire = p.encode_frame(0, p.TagLeft(3, UID)) + p.encode_frame(1, p.TagArrived(4, UID))
    cut = 4
    d = FrameDecoder()
    assert d.feed(wire[:cut]) == []
    assert [f.message for f in d.feed(wire[cut:])] == [p.TagLeft(3, UID), p.TagArrived(4, UID)]
    assert d.counters.bytes == len(wire) and d.counters.garbage_bytes == 0


def test_an_oversize_chunk_ending_in_a_delimiter_is_still_refused_as_one():
    d = FrameDecoder()
    assert d.feed(b"\x01" * (p.FRAME_MAX_ENCODED + 1) + b"\x00") == []
    assert d.counters.oversize == 1 and d.counters.frames == 0


def test_the_pipeline_reads_a_known_tag_the_same_each_time_and_counts_every_unknown_one():
    registry = demo_registry()
    card_uid = bytes.fromhex(next(iter(registry.decks[0].cards)))
    stranger = bytes.fromhex("04ffffffffffff")
    pipe = Pipeline(Config(), registry)
    enc = p.Encoder()
    pipe.feed_bytes(0.0, enc.encode(p.Hello(2, 0, (2, 0, 0), (0, 1, 2))))
    seen = []
    for i in range(3):
        frame = pipe.decoder.feed(enc.encode(p.TagArrived(0, card_uid)))[0]
        seen.append(pipe.sensor_events(float(i), frame))
        pipe.feed_bytes(float(i), enc.encode(p.TagArrived(1, stranger)))
    assert [type(s[0]) for s in seen] == [ev.ZoneEntered] * 3
    assert [s[0].t for s in seen] == [0.0, 1.0, 2.0]
    assert {s[0].tag for s in seen} == {registry.lookup(card_uid)} and seen[0][0].zone == "shoe"
    assert pipe.unknown_tags == 3


def _stream() -> list[bytes]:
    """Chunks as a table sends them, with every case the shortcut must hand back to ``feed``: a HELLO, a
    body never read before, a sequence gap, a bad CRC, a frame cut across two reads and two frames in one."""
    hello = p.encode_frame(0, p.Hello(2, 0, (2, 0, 0), (0, 3)))
    enc = p.Encoder()
    enc.encode(p.Heartbeat(1, 0, 0))   # frame 0 is the HELLO above
    chunks = [hello] + [enc.encode(p.TagArrived(3, UID)) for _ in range(3)]
    enc.encode(p.TagLeft(3, UID))      # lost on the way: a gap
    chunks += [enc.encode(p.TagLeft(3, UID)), enc.encode(p.TagArrived(3, UID))]
    bad = bytearray(enc.encode(p.TagLeft(3, UID)))
    bad[3] ^= 0x40                     # a bit flipped on the line
    chunks.append(bytes(bad))
    whole = enc.encode(p.TagArrived(3, UID)) + enc.encode(p.TagLeft(3, UID))
    chunks += [whole[:3], whole[3:], enc.encode(p.Heartbeat(5, 1, 0)), enc.encode(p.TagArrived(3, UID))]
    return chunks


def _both_ways(chunks: list[bytes], shortcut: str) -> tuple[FrameDecoder, FrameDecoder, int]:
    """The chunks fed to one decoder with ``feed`` and to another with the named shortcut first (``feed`` when it
    declines): both read the same messages with the same gaps. The decoders, and how often the shortcut took."""
    plain, quick = FrameDecoder(), FrameDecoder()
    read_plain, read_quick, shortcuts = [], [], 0
    for chunk in chunks:
        read_plain += [(f.message, f.gap) for f in plain.feed(chunk)]
        got = getattr(quick, shortcut)(chunk)
        if got is None:
            read_quick += [(f.message, f.gap) for f in quick.feed(chunk)]
        else:
            shortcuts += 1
            read_quick += [(m, 0) for m in (got if isinstance(got, list) else [got])]
    assert read_quick == read_plain
    return plain, quick, shortcuts


def test_the_known_frame_shortcut_reads_and_counts_exactly_as_feed_does():
    plain, quick, shortcuts = _both_ways(_stream(), "feed_known")
    assert quick.counters == plain.counters
    assert quick.counters.bad_cobs + quick.counters.bad_crc == 1 and quick.counters.seq_gaps >= 1
    assert shortcuts >= 4   # the repeats in order took the shortcut; the HELLO, gap, damage and cut frame did not


def test_the_known_frame_shortcut_refuses_what_it_must_not_take():
    d = FrameDecoder()
    first = p.encode_frame(0, p.TagArrived(3, UID))
    assert d.feed_known(first) is None                     # no frame yet: feed starts the numbering
    assert d.feed(first) != []
    assert d.feed_known(p.encode_frame(2, p.TagArrived(3, UID))) is None    # out of order: feed counts the gap
    assert d.feed_known(p.encode_frame(1, p.TagArrived(3, UID))[:-1]) is None   # no delimiter: a partial frame
    assert d.feed_known(p.encode_frame(1, p.Hello(2, 0, (2, 0, 0), (0, 3)))) is None   # a HELLO resets state
    assert d.feed_known(p.encode_frame(1, p.TagArrived(3, UID))) == p.TagArrived(3, UID)
    assert d.counters.frames == 2 and d.counters.bytes == 2 * len(first)


def test_the_pipelines_quick_inputs_are_the_engines_own():
    from dealerbox.pipeline import quick_constructor
    tag = demo_registry().lookup(bytes.fromhex(next(iter(demo_registry().decks[0].cards))))
    for cls, args in ((ev.ZoneEntered, (1.5, "seat3", tag)), (ev.ZoneLeft, (2.0, "shoe", tag)),
                      (ev.CardFaceSensed, (2.5, "shoe", tag, True)), (ev.BoardAlive, (3.0, 5000, 7, 0))):
        made = quick_constructor(cls)(*args)
        assert type(made) is cls and made == cls(*args) and hash(made) == hash(cls(*args))
    assert quick_constructor(ev.DealerInput) is ev.DealerInput   # a __post_init__ and defaults: left alone


def _bursts() -> list[bytes]:
    """Chunks of several whole frames, as a read takes a burst the board sent at once, with every case the burst
    shortcut must hand back to ``feed``: a body new inside a burst, a gap inside one, a flipped bit in the middle
    of one, a burst cut across two reads, and a HELLO at the head of one."""
    enc = p.Encoder()
    def frames(*messages: p.Message) -> bytes:
        return b"".join(enc.encode(m) for m in messages)
    other = bytes.fromhex("04a1b2c4")
    chunks = [frames(p.Hello(2, 0, (2, 0, 0), (0, 3)), p.TagArrived(3, UID), p.TagLeft(3, UID))]   # first sight
    chunks.append(frames(p.TagArrived(3, UID), p.TagLeft(3, UID), p.Heartbeat(7, 1, 0)))   # known, and a pulse
    chunks.append(frames(p.TagArrived(3, UID), p.TagLeft(3, UID)))     # all known: the shortcut
    chunks.append(frames(p.TagLeft(3, UID), p.TagArrived(3, other)))   # a new body inside: read and remembered
    left = frames(p.TagLeft(3, UID))
    head = bytes([p.MSG_TAG_ARRIVED]) + enc.seq.to_bytes(2, "little") + b"\x03"   # a body too short for its type
    enc.seq += 1
    chunks.append(left + cobs.encode(head + p.crc16(head).to_bytes(2, "little")) + b"\x00")
    gap = enc.encode(p.TagLeft(3, UID))
    enc.encode(p.TagArrived(3, UID))                                  # lost on the way
    chunks.append(gap + enc.encode(p.TagLeft(3, other)))
    bad = bytearray(frames(p.TagArrived(3, UID), p.TagLeft(3, UID), p.TagArrived(3, other)))
    bad[len(bad) // 2] ^= 0x40
    chunks.append(bytes(bad))
    cut = frames(p.TagLeft(3, other), p.TagArrived(3, UID), p.TagLeft(3, UID))
    chunks += [cut[:7], cut[7:], frames(p.TagArrived(3, UID), p.TagLeft(3, UID))]
    return chunks


def test_the_burst_shortcut_reads_and_counts_exactly_as_feed_does():
    plain, quick, shortcuts = _both_ways(_bursts(), "feed_known_all")
    assert quick.counters == plain.counters
    # the lost frame, and the damaged one whose loss the next frame shows
    assert quick.counters.seq_gaps == 2 and quick.counters.bad_crc + quick.counters.bad_cobs == 1
    assert quick.counters.bad_body == 1   # counted once, by feed, though the shortcut met it first
    assert shortcuts == 4   # the known bursts (one with a heartbeat), the one with a new body, and the last one


def test_heartbeats_take_the_shortcut_but_do_not_crowd_the_remembered_tags_out():
    """Every heartbeat is new (its uptime): remembering them emptied the memory of the tags every ~30,000 frames."""
    enc = p.Encoder()
    d = FrameDecoder()
    assert d.feed(enc.encode(p.TagArrived(3, UID)))
    for i in range(40_000):
        assert d.feed_known(enc.encode(p.Heartbeat(i * 5000, 1, 0))) == p.Heartbeat(i * 5000, 1, 0)
    assert d.feed_known(enc.encode(p.TagArrived(3, UID))) == p.TagArrived(3, UID)
    assert d.counters.frames == 40_002


def _both_pipelines(chunks: list[tuple[float, bytes]]) -> tuple[Pipeline, Pipeline, list, list]:
    """The chunks through ``feed_bytes`` (its shortcuts: remembered messages, a known tag straight to
    ``Engine.tag_seen``) and frame by frame through ``decoder.feed``, ``sensor_events`` and ``Engine.apply``."""
    registry = demo_registry()
    quick, plain = Pipeline(Config(), registry), Pipeline(Config(), registry)
    got_quick: list = []
    got_plain: list = []
    for t, chunk in chunks:
        got_quick += quick.feed_bytes(t, chunk)
        for frame in plain.decoder.feed(chunk):
            for e in plain.sensor_events(t, frame):
                got_plain += plain.engine.apply(e)
    return quick, plain, got_quick, got_plain


def test_the_pipelines_shortcut_rules_as_reading_frame_by_frame():
    """For single frames and bursts, known and unknown tags, faces, heartbeats and a gap, ``feed_bytes`` gives the
    table events that reading each frame into its input and applying it gives, with the same counters."""
    registry = demo_registry()
    cards = [bytes.fromhex(u) for u in list(registry.decks[0].cards)[:3]]
    chip = bytes.fromhex(next(iter(registry.chip_sets[0].chips)))
    stranger = bytes.fromhex("04ffffffffffff")
    shoe, bet = p.zone_id("shoe"), p.zone_id("bet2")
    seats = [p.zone_id(f"seat{s}") for s in (1, 2, 3)]
    enc = p.Encoder()
    chunks = [enc.encode(p.Hello(2, 0, (2, 0, 0), (shoe, *seats, bet)))]
    for r in range(3):
        chunks.append(enc.encode(p.CardFace(shoe, r == 1, cards[r])))
        chunks.append(enc.encode(p.TagLeft(shoe, cards[r])))
        chunks.append(enc.encode(p.TagArrived(seats[r], cards[r])))
        chunks.append(enc.encode(p.TagArrived(bet, chip)) + enc.encode(p.TagArrived(bet, stranger))
                      + enc.encode(p.TagLeft(bet, chip)))   # a burst, an unknown tag inside
        chunks.append(enc.encode(p.TagArrived(seats[0], stranger)))
        chunks.append(enc.encode(p.Heartbeat(r * 1000, 3, 0)))
    enc.encode(p.TagLeft(seats[0], cards[0]))   # lost on the way: a gap before the next
    chunks.append(enc.encode(p.TagLeft(seats[1], cards[1])))
    quick, plain, got_quick, got_plain = _both_pipelines([(float(i), c) for i, c in enumerate(chunks)])
    assert got_quick == got_plain
    assert {e.kind for e in got_plain} >= {"BoardConnected", "UnknownTagSeen", "SensorDataLost"}
    assert quick.counters() == plain.counters() and quick.unknown_tags == 6
    assert quick.engine.snapshot() == plain.engine.snapshot()


def test_a_simulated_session_rules_the_same_through_the_shortcut_and_frame_by_frame():
    """Hands dealt, bet, shown and pushed, with irregularities: every table event the same both ways."""
    from dealerbox.record.logformat import Rx
    from dealerbox.sources.simulator import Simulator

    sim = Simulator(Config(), demo_registry(), seed=3, irregularities=0.4)
    chunks = [(r.t, r.data) for r in sim.records(8) if isinstance(r, Rx)]
    quick, plain, got_quick, got_plain = _both_pipelines(chunks)
    assert got_quick == got_plain and sum(e.kind == "HandEnded" for e in got_plain) >= 8
    assert any(e.kind == "FindingRaised" for e in got_plain)
    assert quick.engine.snapshot() == plain.engine.snapshot()
