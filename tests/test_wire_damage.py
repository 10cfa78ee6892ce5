"""Every kind of damage on the wire is counted, the decoder recovers, and a wrong protocol is refused."""

import pytest

from cobs import cobs

from dealerbox.wire import protocol as p
from dealerbox.wire.decoder import FrameDecoder

UID = bytes.fromhex("04a1b2c3")


def frame(seq, message):
    return p.encode_frame(seq, message)


def with_crc(head: bytes) -> bytes:
    return cobs.encode(head + p.crc16(head).to_bytes(2, "little")) + b"\x00"


def test_bad_crc_is_counted_and_the_next_frame_decodes():
    bad = bytearray(p.raw_frame(0, p.TagArrived(0, UID)))
    bad[4] ^= 0x40
    d = FrameDecoder()
    frames = d.feed(cobs.encode(bytes(bad)) + b"\x00" + frame(1, p.TagLeft(0, UID)))
    assert [f.message for f in frames] == [p.TagLeft(0, UID)]
    assert d.counters.bad_crc == 1 and d.counters.frames == 1


def test_truncated_chunk_is_counted():
    d = FrameDecoder()
    assert d.feed(cobs.encode(b"\x06\x01\x00") + b"\x00") == []
    assert d.counters.truncated == 1


def test_lost_delimiter_is_oversize_and_resyncs_on_the_next_delimiter():
    d = FrameDecoder()
    # Three frames with their delimiters lost merge into one over-long chunk.
    merged = b"".join(frame(i, p.Heartbeat(i, 0, 0))[:-1] for i in range(6))
    frames = d.feed(merged + b"\x00" + frame(6, p.Heartbeat(6, 0, 0)))
    assert [f.seq for f in frames] == [6]
    assert d.counters.oversize == 1
    assert d.counters.garbage_bytes == len(merged)


def test_bad_cobs_is_counted():
    d = FrameDecoder()
    assert d.feed(b"\x09\x01\x02\x00") == []
    assert d.counters.bad_cobs == 1


def test_unknown_type_is_counted_and_keeps_the_sequence():
    d = FrameDecoder()
    frames = d.feed(frame(0, p.Heartbeat(0, 0, 0)) + with_crc(bytes([0x7E, 1, 0])) + frame(2, p.Heartbeat(2, 0, 0)))
    assert [f.seq for f in frames] == [0, 2]
    assert frames[1].gap == 0  # the unknown frame was still a frame: nothing was lost
    assert d.counters.unknown_type == 1 and d.counters.seq_gaps == 0


def test_bad_body_is_counted():
    d = FrameDecoder()
    bad_zone = with_crc(bytes([p.MSG_TAG_ARRIVED, 0, 0, 99, 4]) + UID)
    short_heartbeat = with_crc(bytes([p.MSG_HEARTBEAT, 1, 0, 1, 2]))
    assert d.feed(bad_zone + short_heartbeat) == []
    assert d.counters.bad_body == 2


def test_sequence_gap_reports_frames_lost():
    d = FrameDecoder()
    frames = d.feed(frame(10, p.Heartbeat(0, 0, 0)) + frame(11, p.Heartbeat(0, 0, 0)) + frame(15, p.Heartbeat(0, 0, 0)))
    assert [f.gap for f in frames] == [0, 0, 3]
    assert (d.counters.seq_gaps, d.counters.frames_lost) == (1, 3)


def test_sequence_wraps_at_65535_without_a_gap_and_gaps_across_the_wrap_are_counted():
    d = FrameDecoder()
    frames = d.feed(frame(65534, p.Heartbeat(0, 0, 0)) + frame(65535, p.Heartbeat(0, 0, 0))
                    + frame(0, p.Heartbeat(0, 0, 0)) + frame(3, p.Heartbeat(0, 0, 0)))
    assert [f.gap for f in frames] == [0, 0, 0, 2]
    d2 = FrameDecoder()
    frames = d2.feed(frame(65533, p.Heartbeat(0, 0, 0)) + frame(1, p.Heartbeat(0, 0, 0)))
    assert frames[1].gap == 3 and d2.counters.frames_lost == 3


def test_hello_restarts_numbering_and_a_backwards_step_is_a_restart_not_a_gap():
    d = FrameDecoder()
    hello = p.Hello(p.PROTOCOL_VERSION_MAJOR, 0, (1, 0, 0), (0,))
    frames = d.feed(frame(500, p.Heartbeat(0, 0, 0)) + frame(0, hello) + frame(1, p.Heartbeat(0, 0, 0)))
    assert [f.gap for f in frames] == [0, 0, 0]
    frames = d.feed(frame(0, p.Heartbeat(0, 0, 0)))  # board reset, its HELLO lost
    assert frames[0].gap == 0
    assert d.counters.seq_restarts == 1 and d.counters.frames_lost == 0


def test_unsupported_protocol_is_refused_with_a_clear_message_until_a_good_hello():
    d = FrameDecoder()
    future = p.Hello(p.PROTOCOL_VERSION_MAJOR + 1, 3, (9, 0, 0), (0, 1))
    assert d.feed(frame(0, future) + frame(1, p.TagArrived(0, UID))) == []
    assert d.counters.bad_version == 1 and d.counters.refused == 1
    assert f"protocol {p.PROTOCOL_VERSION_MAJOR + 1}.3" in d.refusal and "update" in d.refusal
    good = p.Hello(p.PROTOCOL_VERSION_MAJOR, 7, (1, 0, 0), (0, 1))
    frames = d.feed(frame(0, good) + frame(1, p.TagArrived(0, UID)))
    assert [f.message for f in frames] == [good, p.TagArrived(0, UID)]
    assert d.refusal is None


def test_a_newer_minor_version_is_accepted():
    d = FrameDecoder()
    hello = p.Hello(p.PROTOCOL_VERSION_MAJOR, p.PROTOCOL_VERSION_MINOR + 5, (1, 0, 0), (0,))
    assert [f.message for f in d.feed(frame(0, hello))] == [hello]


def test_resync_drops_a_partial_frame_so_it_cannot_swallow_the_next():
    d = FrameDecoder()
    whole = frame(0, p.TagArrived(0, UID))
    assert d.feed(whole[:5]) == []
    d.resync()
    assert [f.seq for f in d.feed(frame(1, p.TagArrived(0, UID)))] == [1]
    assert d.counters.garbage_bytes == 5


def test_bytes_and_garbage_are_counted():
    d = FrameDecoder()
    data = b"\x01\x02\x03\x04\x05\x06\x00" + frame(0, p.Heartbeat(0, 0, 0))
    d.feed(data)
    assert d.counters.bytes == len(data)
    assert d.counters.garbage_bytes == 6


@pytest.mark.parametrize("garbage", [bytes(range(1, 200)), b"\xff" * 30, b"\x05abc", b"\x02\x01" * 40],
                         ids=["long_burst_no_delimiter", "cobs_breaking_burst", "short_burst_bad_crc",
                              "lookalike_burst"])
def test_a_hello_right_after_a_burst_of_garbage_is_recovered(garbage):
    d = FrameDecoder()
    hello = p.Hello(p.PROTOCOL_VERSION_MAJOR, 0, (1, 0, 0), (0, 1, 21))
    frames = d.feed(garbage + frame(0, hello) + frame(1, p.TagArrived(21, UID)))
    assert [f.message for f in frames] == [hello, p.TagArrived(21, UID)]
    assert d.counters.hellos_recovered == 1 and d.counters.garbage_bytes == len(garbage)


def test_a_frame_other_than_hello_after_garbage_is_still_dropped_and_counted():
    d = FrameDecoder()
    assert d.feed(b"\x05abc" + frame(3, p.TagArrived(0, UID))) == []
    assert d.counters.bad_crc == 1 and d.counters.hellos_recovered == 0


def test_before_any_hello_a_tag_body_is_read_in_its_own_layout():
    """A log part or reconnection that starts mid-stream: 1.x and 2.x tag bodies are told apart by their bytes."""
    chip = bytes.fromhex("e004010812345678")
    d = FrameDecoder()
    frames = d.feed(p.encode_frame(0, p.TagArrived(3, UID), 1)
                    + p.encode_frame(1, p.TagArrived(24, chip, p.TECH_ISO15693)))
    assert [f.message for f in frames] == [p.TagArrived(3, UID), p.TagArrived(24, chip, p.TECH_ISO15693)]


def test_after_a_hello_the_layout_is_the_boards_own():
    d = FrameDecoder()
    hello2 = p.Hello(2, 0, (2, 0, 0), (0, 3))
    assert d.feed(frame(0, hello2) + p.encode_frame(1, p.TagArrived(3, UID), 1)) != []
    assert d.counters.bad_body == 1 and d.board_major == 2  # a 1.x body from a board that said 2.0
    hello1 = p.Hello(1, 0, (1, 0, 0), (0, 3))
    frames = d.feed(p.encode_frame(0, hello1) + p.encode_frame(1, p.TagLeft(3, UID), 1))
    assert [f.message for f in frames] == [hello1, p.TagLeft(3, UID)] and d.board_major == 1
