"""The golden vectors in firmware/vectors/ hold for the Python side (the C side checks the same files)."""

import importlib.util
from pathlib import Path

import pytest

from dealerbox.wire import protocol as p
from dealerbox.wire.decoder import FrameDecoder
from tests.wire_vectors import VECTORS, frame_vectors, stream_vectors

FRAMES = frame_vectors()
FRAMES_V1 = frame_vectors("frames-v1.tsv")
STREAMS = stream_vectors()
DAMAGE = ("bad_cobs", "truncated", "oversize", "bad_crc", "bad_body", "unknown_type", "seq_gaps", "frames_lost",
          "bad_version", "refused", "seq_restarts", "hellos_recovered")


def test_the_vector_files_cover_every_message_type():
    assert {v.type for v in FRAMES} == set(p.MESSAGE_TYPES)
    assert len(STREAMS) >= 8


@pytest.mark.parametrize("v", FRAMES, ids=lambda v: v.name)
def test_frame_vector(v):
    message = p.unpack_body(v.type, v.body)
    assert p.pack_body(message) == v.body
    assert p.raw_frame(v.seq, message) == v.raw
    assert p.encode_frame(v.seq, message) == v.wire
    assert p.crc16(v.raw[:-2]) == int.from_bytes(v.raw[-2:], "little")
    frames = FrameDecoder().feed(v.wire)
    assert [(f.seq, f.message, f.raw) for f in frames] == [(v.seq, message, v.raw)]


@pytest.mark.parametrize("v", FRAMES_V1, ids=lambda v: v.name)
def test_a_version_1_board_frame_is_still_read(v):
    message = p.unpack_body(v.type, v.body, major=1)
    assert p.pack_body(message, 1) == v.body and p.encode_frame(v.seq, message, 1) == v.wire
    if isinstance(message, (p.TagArrived, p.TagLeft, p.CardFace)):
        assert message.tech == p.TECH_ISO14443A  # all a 1.x board could read
    frames = FrameDecoder(board_major=1).feed(v.wire)
    assert [(f.seq, f.message, f.raw) for f in frames] == [(v.seq, message, v.raw)]


def test_the_current_vectors_carry_both_technologies_and_every_read_state():
    messages = [p.unpack_body(v.type, v.body) for v in FRAMES]
    assert {m.tech for m in messages if isinstance(m, (p.TagArrived, p.TagLeft))} == set(p.UID_LENGTHS_BY_TECH)
    assert {m.state for m in messages if isinstance(m, p.ZoneInventory)} == set(p.ZONE_READ_STATES)
    assert all(m.protocol_major == p.PROTOCOL_VERSION_MAJOR for m in messages if isinstance(m, p.Hello))


@pytest.mark.parametrize("v", STREAMS, ids=lambda v: v.name)
def test_stream_vector(v):
    d = FrameDecoder()
    assert [f.raw for f in d.feed(v.stream)] == v.frames
    counted = {k: getattr(d.counters, k) for k in DAMAGE if getattr(d.counters, k)}
    assert counted == v.counters


def test_vector_files_match_their_generator():
    # A hand edit to a vector file (or a protocol change without regenerating) shows up here.
    spec = importlib.util.spec_from_file_location("gen_vectors",
                                                  Path(VECTORS).parent.parent / "tools" / "gen_vectors.py")
    gen = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(gen)
    by_name = {v.name: v for v in FRAMES}
    for name, seq, msg in gen.VECTORS:
        assert by_name[name].wire == p.encode_frame(seq, msg)
    assert [v.wire for v in FRAMES_V1] == [p.encode_frame(seq, msg, 1) for _, seq, msg in gen.VECTORS_V1]
    assert [s.stream for s in STREAMS] == [s for _, s, _, _ in gen.STREAMS]
