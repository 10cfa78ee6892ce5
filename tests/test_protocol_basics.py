"""Protocol constants and message bodies round-trip; zone names are the contract's."""

import pytest

from dealerbox.wire import protocol as p


@pytest.mark.parametrize("message", [
    p.Hello(1, 0, (1, 2, 3), (0, 1, 2, 11, 31)),
    p.TagArrived(p.ZONE_SHOE, bytes.fromhex("04a1b2c3")),
    p.TagLeft(p.ZONE_BET_FIRST + 3, bytes.fromhex("04a1b2c3d4e5f6")),
    p.CardFace(p.ZONE_SHOE, True, bytes.fromhex("04a1b2c3d4e5f60708ff")),
    p.ReaderFault(3, p.ZONE_MUCK, p.FAULT_NO_ANSWER),
    p.Heartbeat(123456, 17, 0b100),
    p.CmdHello(), p.CmdInventory(), p.CmdHeartbeatPeriod(1000),
])
def test_every_message_round_trips(message):
    raw = p.raw_frame(42, message)
    mtype, seq, body = p.parse_raw(raw)
    assert (mtype, seq) == (message.TYPE, 42)
    assert p.MESSAGE_TYPES[mtype].unpack(body) == message


def test_zone_names_round_trip():
    for name in ["shoe", "board", "burn", "muck", "pot"] + [f"seat{i}" for i in range(1, 11)] + \
            [f"bet{i}" for i in range(1, 11)]:
        assert p.zone_name(p.zone_id(name)) == name
    with pytest.raises(ValueError, match="seat11"):
        p.zone_id("seat11")


def test_crc_is_ccitt_false():
    # The standard check value of CRC-16/CCITT-FALSE over "123456789".
    assert p.crc16(b"123456789") == 0x29B1


def test_encoded_frame_has_no_zero_inside():
    wire = p.encode_frame(0, p.TagArrived(0, b"\x00\x00\x00\x00"))
    assert wire.endswith(b"\x00") and b"\x00" not in wire[:-1]
