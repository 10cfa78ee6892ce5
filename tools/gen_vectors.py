"""Writes firmware/vectors/frames.tsv, frames-v1.tsv and streams.tsv, the golden vectors the tests read.

frames.tsv is the current protocol (2.x), read by the Python and the C tests; frames-v1.tsv holds the
protocol 1.x layouts a host must still read from an older board (Python only: the board speaks 2.x).

Run it only when the protocol changes on purpose; the tests check the files, they do not regenerate them.
frames.tsv columns: name, seq, type (hex), body_hex, raw_hex (type|seq|body|crc), wire_hex (COBS + 0x00).
streams.tsv columns: name, stream_hex (bytes as received, damage included), frames (the raw_hex of every
frame a decoder must deliver, space-separated, "-" for none), counters (what the damage must count,
``name=value`` comma-separated, only the nonzero damage counters).
"""

from pathlib import Path

from cobs import cobs

from dealerbox.wire import protocol as p

MAJOR, MINOR = p.PROTOCOL_VERSION_MAJOR, p.PROTOCOL_VERSION_MINOR
ICODE = p.TECH_ISO15693
CHIP = bytes.fromhex("e004010812345678")  # ICODE SLIX UIDs start E0 04 (ISO 15693 + NXP)
VECTORS = [
    ("hello", 0, p.Hello(MAJOR, MINOR, (2, 0, 0), tuple([0, *range(1, 11), 11, 12, 13, *range(21, 31), 31]))),
    ("hello_minimal", 0, p.Hello(MAJOR, MINOR, (0, 1, 0), (0,))),
    ("tag_arrived_shoe_uid4", 1, p.TagArrived(p.ZONE_SHOE, bytes.fromhex("04a1b2c3"))),
    ("tag_arrived_seat3_uid7", 2, p.TagArrived(3, bytes.fromhex("04112233445566"))),
    ("tag_left_bet10_uid10", 3, p.TagLeft(30, bytes.fromhex("04112233445566778899"))),
    ("tag_arrived_zeros_uid", 4, p.TagArrived(p.ZONE_POT, bytes(4))),
    ("card_face_up", 5, p.CardFace(p.ZONE_SHOE, True, bytes.fromhex("04deadbeef0001"))),
    ("card_face_down", 6, p.CardFace(p.ZONE_SHOE, False, bytes.fromhex("04deadbeef0002"))),
    ("reader_fault_no_answer", 7, p.ReaderFault(5, 13, p.FAULT_NO_ANSWER)),
    ("reader_recovered", 8, p.ReaderFault(5, 13, p.FAULT_RECOVERED)),
    ("heartbeat", 9, p.Heartbeat(3_600_000, 57, 0)),
    ("heartbeat_faults", 255, p.Heartbeat(0xFFFFFFFF, 0xFFFF, 0x80000001)),
    ("seq_wrap", 65535, p.Heartbeat(1, 0, 0)),
    ("seq_256", 256, p.TagLeft(p.ZONE_MUCK, bytes.fromhex("00000000"))),
    ("tag_arrived_bet4_icode", 10, p.TagArrived(24, CHIP, ICODE)),
    ("tag_left_pot_icode", 11, p.TagLeft(p.ZONE_POT, bytes.fromhex("e004010800000000"), ICODE)),
    ("zone_inventory_complete", 12, p.ZoneInventory(24, p.ZONE_READ_COMPLETE, 20)),
    ("zone_inventory_uncertain", 13, p.ZoneInventory(25, p.ZONE_READ_UNCERTAIN, 14)),
    ("zone_inventory_unreadable", 14, p.ZoneInventory(3, p.ZONE_READ_UNREADABLE, 0)),
    ("cmd_hello", 0, p.CmdHello()),
    ("cmd_inventory", 1, p.CmdInventory()),
    ("cmd_heartbeat_period", 2, p.CmdHeartbeatPeriod(1000)),
]


# Protocol 1.x: tag bodies without the technology byte (ISO 14443A only).
VECTORS_V1 = [
    ("v1_hello", 0, p.Hello(1, 0, (1, 0, 0), (0, 3, 21))),
    ("v1_tag_arrived_shoe_uid4", 1, p.TagArrived(p.ZONE_SHOE, bytes.fromhex("04a1b2c3"))),
    ("v1_tag_left_seat3_uid7", 2, p.TagLeft(3, bytes.fromhex("04112233445566"))),
    ("v1_card_face_up", 3, p.CardFace(p.ZONE_SHOE, True, bytes.fromhex("04deadbeef0001"))),
]


def _vector(name: str) -> tuple[int, p.Message]:
    return next((seq, msg) for n, seq, msg in VECTORS if n == name)


def _frame_with_crc_flipped(seq: int, msg: p.Message) -> bytes:
    raw = bytearray(p.raw_frame(seq, msg))
    raw[-1] ^= 0x01
    return cobs.encode(bytes(raw)) + b"\x00"


def _with_crc(head: bytes) -> bytes:
    return head + p.crc16(head).to_bytes(2, "little")


def _unknown_type_frame(seq: int, mtype: int = 0x7E) -> bytes:
    return cobs.encode(_with_crc(bytes([mtype]) + seq.to_bytes(2, "little"))) + b"\x00"


W = {name: p.encode_frame(seq, msg) for name, seq, msg in VECTORS}
R = {name: p.raw_frame(seq, msg) for name, seq, msg in VECTORS}
HB1 = p.Heartbeat(2, 0, 0)
V1 = {name: p.encode_frame(seq, msg, 1) for name, seq, msg in VECTORS_V1}
R1 = {name: p.raw_frame(seq, msg, 1) for name, seq, msg in VECTORS_V1}

# (name, stream bytes, raw frames a decoder must deliver in order, nonzero damage counters)
STREAMS = [
    ("leading_garbage", b"\x13\x37\xff\x00" + W["tag_arrived_shoe_uid4"],
     [R["tag_arrived_shoe_uid4"]], {"bad_cobs": 1}),
    ("extra_delimiters", b"\x00\x00" + W["tag_arrived_shoe_uid4"] + b"\x00" + W["tag_arrived_seat3_uid7"],
     [R["tag_arrived_shoe_uid4"], R["tag_arrived_seat3_uid7"]], {}),
    ("bad_crc_between", W["tag_arrived_shoe_uid4"] + _frame_with_crc_flipped(*_vector("tag_arrived_seat3_uid7"))
     + W["tag_left_bet10_uid10"],
     [R["tag_arrived_shoe_uid4"], R["tag_left_bet10_uid10"]], {"bad_crc": 1, "seq_gaps": 1, "frames_lost": 1}),
    ("short_chunk", b"\x02\x01\x00" + W["card_face_up"], [R["card_face_up"]], {"truncated": 1}),
    ("lost_delimiter", b"\x55" * 100 + b"\x00" + W["reader_fault_no_answer"],
     [R["reader_fault_no_answer"]], {"oversize": 1}),
    # A frame cut mid-block breaks COBS; cut on a block boundary it decodes but fails the CRC.
    ("frame_cut_mid_block", W["hello"][:11] + b"\x00" + W["heartbeat"], [R["heartbeat"]], {"bad_cobs": 1}),
    ("frame_cut_on_block", W["hello"][:10] + b"\x00" + W["heartbeat"], [R["heartbeat"]], {"bad_crc": 1}),
    ("seq_wrap", W["seq_wrap"] + p.encode_frame(0, HB1), [R["seq_wrap"], p.raw_frame(0, HB1)], {}),
    ("seq_gap_over_wrap", W["seq_wrap"] + p.encode_frame(2, HB1), [R["seq_wrap"], p.raw_frame(2, HB1)],
     {"seq_gaps": 1, "frames_lost": 2}),
    ("unknown_type", _unknown_type_frame(0) + p.encode_frame(1, HB1), [p.raw_frame(1, HB1)], {"unknown_type": 1}),
    ("bad_body", cobs.encode(_with_crc(
        bytes([p.MSG_TAG_ARRIVED, 0, 0, 0, 5, 1, 2, 3, 4, 5]))) + b"\x00" + p.encode_frame(1, HB1),  # UID length 5
     [p.raw_frame(1, HB1)], {"bad_body": 1}),
    # A board resetting into line noise: its HELLO follows the garbage with no delimiter in between.
    ("hello_after_garbage", bytes(range(1, 120)) + W["hello_minimal"] + p.encode_frame(1, HB1),
     [R["hello_minimal"], p.raw_frame(1, HB1)], {"oversize": 1, "hellos_recovered": 1}),
    # A 1.x board: after its HELLO, tag bodies carry no technology byte and are still read.
    ("v1_board", V1["v1_hello"] + V1["v1_tag_arrived_shoe_uid4"] + V1["v1_tag_left_seat3_uid7"],
     [R1["v1_hello"], R1["v1_tag_arrived_shoe_uid4"], R1["v1_tag_left_seat3_uid7"]], {}),
    # A 2.x HELLO after a 1.x board (firmware updated, board reset): the layout follows the new HELLO.
    ("v1_then_v2_board", V1["v1_hello"] + V1["v1_tag_arrived_shoe_uid4"] + W["hello_minimal"]
     + p.encode_frame(1, p.TagArrived(24, CHIP, ICODE)),
     [R1["v1_hello"], R1["v1_tag_arrived_shoe_uid4"], R["hello_minimal"],
      p.raw_frame(1, p.TagArrived(24, CHIP, ICODE))],
     {}),
    # 2.x damage that only the new fields can have: an ICODE tag with a 7-byte UID, an undefined technology,
    # an undefined zone read state; each is a bad body, and the next frame is read.
    ("icode_with_7_byte_uid", cobs.encode(_with_crc(bytes([p.MSG_TAG_ARRIVED, 0, 0, 24, ICODE, 7, *range(1, 8)])))
     + b"\x00" + p.encode_frame(1, HB1), [p.raw_frame(1, HB1)], {"bad_body": 1}),
    ("undefined_technology", cobs.encode(_with_crc(bytes([p.MSG_TAG_LEFT, 0, 0, 24, 9, 4, 1, 2, 3, 4])))
     + b"\x00" + p.encode_frame(1, HB1), [p.raw_frame(1, HB1)], {"bad_body": 1}),
    ("undefined_read_state", cobs.encode(_with_crc(bytes([p.MSG_ZONE_INVENTORY, 0, 0, 24, 7, 20])))
     + b"\x00" + p.encode_frame(1, HB1), [p.raw_frame(1, HB1)], {"bad_body": 1}),
    # A damaged inventory frame between good ones: the CRC catches it, the sequence gap says one was lost.
    ("zone_inventory_bad_crc", W["tag_left_pot_icode"]
     + _frame_with_crc_flipped(*_vector("zone_inventory_complete")) + W["zone_inventory_uncertain"],
     [R["tag_left_pot_icode"], R["zone_inventory_uncertain"]], {"bad_crc": 1, "seq_gaps": 1, "frames_lost": 1}),
]


def _stream_rows() -> list[str]:
    rows = []
    for name, stream, frames, counters in STREAMS:
        rows.append("\t".join([name, stream.hex(), " ".join(f.hex() for f in frames) or "-",
                               ",".join(f"{k}={v}" for k, v in sorted(counters.items())) or "-"]))
    return rows


def _frame_rows(vectors: list[tuple[str, int, p.Message]], major: int) -> list[str]:
    lines = [f"# dealerbox wire protocol {major}.x golden vectors: see firmware/PROTOCOL.md. "
             "Generated by tools/gen_vectors.py.",
             "# name\tseq\ttype\tbody_hex\traw_hex\twire_hex"]
    for name, seq, msg in vectors:
        lines.append("\t".join([name, str(seq), f"0x{msg.TYPE:02x}", p.pack_body(msg, major).hex(),
                                p.raw_frame(seq, msg, major).hex(), p.encode_frame(seq, msg, major).hex()]))
    return lines


def main() -> None:
    out = Path(__file__).resolve().parent.parent / "firmware" / "vectors" / "frames.tsv"
    out.write_text("\n".join(_frame_rows(VECTORS, MAJOR)) + "\n")
    out.with_name("frames-v1.tsv").write_text("\n".join(_frame_rows(VECTORS_V1, 1)) + "\n")
    print(f"wrote {len(VECTORS)} vectors to {out} and {len(VECTORS_V1)} to frames-v1.tsv")
    streams = out.with_name("streams.tsv")
    streams.write_text("\n".join([
        "# dealerbox wire stream vectors: damaged byte streams and what a decoder must recover from them.",
        "# Generated by tools/gen_vectors.py; see firmware/PROTOCOL.md (Resynchronisation).",
        "# name\tstream_hex\tframes (raw_hex, space-separated, - for none)"
        "\tcounters (k=v, comma-separated, - for none)",
        *_stream_rows()]) + "\n")
    print(f"wrote {len(STREAMS)} stream vectors to {streams}")


if __name__ == "__main__":
    main()
