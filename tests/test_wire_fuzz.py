"""Property tests: no byte stream crashes the decoder, and good frames survive any garbage around them."""

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dealerbox.wire import protocol as p
from dealerbox.wire.decoder import FrameDecoder

# (tech, uid) pairs whose UID length fits the technology: NTAG 4/7/10 bytes, ICODE 8.
tagged = st.sampled_from([(t, n) for t, lengths in p.UID_LENGTHS_BY_TECH.items() for n in lengths]).flatmap(
    lambda tn: st.tuples(st.just(tn[0]), st.binary(min_size=tn[1], max_size=tn[1])))
zones = st.sampled_from([p.zone_id(z) for z in ["shoe", "board", "burn", "muck", "pot"]]
                        + list(range(1, 11)) + list(range(21, 31)))
messages = st.one_of(
    st.builds(lambda z, tu: p.TagArrived(z, tu[1], tu[0]), zones, tagged),
    st.builds(lambda z, tu: p.TagLeft(z, tu[1], tu[0]), zones, tagged),
    st.builds(lambda z, up, tu: p.CardFace(z, up, tu[1], tu[0]), zones, st.booleans(), tagged),
    st.builds(p.ZoneInventory, zones, st.sampled_from(p.ZONE_READ_STATES), st.integers(0, 255)),
    st.builds(p.ReaderFault, st.integers(0, 255), zones, st.integers(0, 255)),
    st.builds(p.Heartbeat, st.integers(0, 2**32 - 1), st.integers(0, 2**16 - 1), st.integers(0, 2**32 - 1)),
    st.builds(p.Hello, st.just(p.PROTOCOL_VERSION_MAJOR), st.integers(0, 255),
              st.tuples(st.integers(0, 255), st.integers(0, 255), st.integers(0, 255)),
              st.lists(zones, max_size=31).map(tuple)),
)
# Garbage that ends with a delimiter: whatever came before, the next frame starts clean.
garbage = st.binary(max_size=200).map(lambda b: b + b"\x00")

FAST = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def split(data: bytes, cuts: list[int]) -> list[bytes]:
    points = sorted({c % (len(data) + 1) for c in cuts})
    return [data[a:b] for a, b in zip([0, *points], [*points, len(data)], strict=True)]


@FAST
@given(st.binary(max_size=2000))
def test_random_bytes_never_raise(data):
    d = FrameDecoder()
    frames = d.feed(data)
    assert d.counters.bytes == len(data)
    assert d.counters.frames == len(frames)


@FAST
@given(st.lists(messages, min_size=1, max_size=8), st.data())
def test_mutated_streams_never_raise(msgs, data):
    stream = bytearray(b"".join(p.encode_frame(i, m) for i, m in enumerate(msgs)))
    for _ in range(data.draw(st.integers(1, 10))):
        at = data.draw(st.integers(0, len(stream) - 1))
        op = data.draw(st.sampled_from(["flip", "drop", "insert", "zero"]))
        if op == "flip":
            stream[at] ^= data.draw(st.integers(1, 255))
        elif op == "drop":
            del stream[at]
        elif op == "insert":
            stream.insert(at, data.draw(st.integers(0, 255)))
        else:
            stream[at] = 0
        if not stream:
            break
    d = FrameDecoder()
    for f in d.feed(bytes(stream)):
        # Whatever gets through is a whole, well-formed message of a known type.
        assert type(f.message) in p.MESSAGE_TYPES.values()
        assert p.raw_frame(f.seq, f.message) == f.raw


@FAST
@given(st.lists(st.tuples(garbage, messages), min_size=1, max_size=8), garbage)
def test_every_frame_between_garbage_chunks_is_recovered(pieces, tail):
    stream = b"".join(g + p.encode_frame(i, m) for i, (g, m) in enumerate(pieces)) + tail
    d = FrameDecoder()
    got = [(f.seq, f.message) for f in d.feed(stream)]
    want = [(i, m) for i, (_, m) in enumerate(pieces)]
    # Garbage may itself happen to be a valid frame; the real ones must all be there, in order.
    it = iter(got)
    assert all(w in it for w in want)


@FAST
@given(st.lists(st.tuples(garbage, messages), min_size=1, max_size=6), st.lists(st.integers(0, 10_000), max_size=30))
def test_chunk_splits_do_not_change_the_result(pieces, cuts):
    stream = b"".join(g + p.encode_frame(i, m) for i, (g, m) in enumerate(pieces))
    whole, parts = FrameDecoder(), FrameDecoder()
    at_once = whole.feed(stream)
    in_pieces = [f for chunk in split(stream, cuts) for f in parts.feed(chunk)]
    assert [(f.seq, f.message, f.gap) for f in in_pieces] == [(f.seq, f.message, f.gap) for f in at_once]
    assert parts.counters == whole.counters
