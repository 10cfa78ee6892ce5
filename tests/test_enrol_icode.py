"""Enrolment with ISO 15693 chips: a stack of ICODE chips (8-byte UIDs) read by a 2.0 board becomes a chip
set; an ICODE tag is never taken for a card."""

from __future__ import annotations

import hashlib
import json

import pytest

from dealerbox.cli import main
from dealerbox.record.logformat import ChainWriter, Header, Rx
from dealerbox.tags import ChipSet, EnrolmentError, TagRegistry, load_enrolment
from dealerbox.wire import protocol as p

ICODE = p.TECH_ISO15693


def chip(i: int) -> bytes:
    return bytes.fromhex("e00401" + hashlib.sha256(f"chip{i}".encode()).hexdigest()[:10])


def card(i: int) -> bytes:
    return bytes.fromhex("04" + hashlib.sha256(f"card{i}".encode()).hexdigest()[:12])


def write_stack_scan(path, tags, zone):
    """A 2.0 board reading a stack: every chip's TAG_ARRIVED, then the zone's inventory, complete."""
    enc, chain = p.Encoder(), ChainWriter()
    lines = [chain.line(Header(config={}, enrolment={"decks": [], "chips": []})),
             chain.line(Rx(0.0, enc.encode(p.Hello(2, 0, (2, 0, 0), (0, 24)))))]
    for i, (tech, uid) in enumerate(tags):
        lines.append(chain.line(Rx(0.1 + i * 0.001, enc.encode(p.TagArrived(zone, uid, tech)))))
    lines.append(chain.line(Rx(0.2, enc.encode(p.ZoneInventory(zone, p.ZONE_READ_COMPLETE, len(tags))))))
    path.write_text("".join(lines))
    return path


def test_a_stack_of_icode_chips_enrols_as_a_chip_set(tmp_path, capsys):
    stack = [(ICODE, chip(i)) for i in range(20)]
    out = tmp_path / "chips.json"
    log = write_stack_scan(tmp_path / "stack.jsonl", stack, zone=24)
    assert main(["enrol", "chips", "--house", "CASINO", "--value", "25", "--out", str(out), "--from", str(log)]) == 0
    cs = load_enrolment(out)
    assert isinstance(cs, ChipSet) and len(cs.chips) == 20 and set(cs.chips.values()) == {25}
    reg = TagRegistry([], [cs])
    assert all(reg.lookup(uid).value == 25 for _, uid in stack)
    assert all(len(bytes.fromhex(u)) == 8 for u in cs.chips)


def test_an_icode_tag_over_the_shoe_is_refused_as_a_card(tmp_path, capsys):
    tags = [(p.TECH_ISO14443A, card(i)) for i in range(10)] + [(ICODE, chip(1))] + \
        [(p.TECH_ISO14443A, card(i)) for i in range(10, 52)]
    out = tmp_path / "D.json"
    log = write_stack_scan(tmp_path / "deck.jsonl", tags, zone=p.ZONE_SHOE)
    assert main(["enrol", "deck", "--deck-id", "D", "--back", "red", "--out", str(out), "--from", str(log)]) == 2
    err = capsys.readouterr().err
    assert "position 11" in err and "ICODE" in err and "re-scan" in err
    assert not out.exists()


def test_a_deck_file_with_an_8_byte_uid_names_the_field(tmp_path):
    path = tmp_path / "deck.json"
    path.write_text(json.dumps({"format": "dealerbox-deck", "version": 1, "deck_id": "D", "back": "red",
                                "cards": {chip(1).hex(): "As"}}))
    with pytest.raises(EnrolmentError, match=rf"cards\.{chip(1).hex()}: .*8 bytes.*ICODE"):
        load_enrolment(path)


def test_a_chip_file_accepts_icode_and_ntag_chips_alike(tmp_path):
    path = tmp_path / "chips.json"
    path.write_text(json.dumps({"format": "dealerbox-chips", "version": 1, "house": "H",
                                "chips": {chip(1).hex(): 5, card(1).hex(): 25}, "markers": {chip(2).hex(): "button"}}))
    cs = load_enrolment(path)
    assert cs.chips == {chip(1).hex(): 5, card(1).hex(): 25} and cs.markers == {chip(2).hex(): "button"}


def _chip_arrivals(records) -> list[p.TagArrived]:
    from dealerbox.wire.decoder import FrameDecoder

    decoder = FrameDecoder()
    frames = [f.message for r in records if isinstance(r, Rx) for f in decoder.feed(r.data)]
    return [m for m in frames if isinstance(m, p.TagArrived) and p.zone_name(m.zone) not in CARD_ZONES]


CARD_ZONES = {"shoe", "board", "burn", "muck", *(f"seat{n}" for n in range(1, 11))}


def test_the_simulator_plays_with_icode_demo_chips_end_to_end():
    """`dealerbox run` with no board and `[enrolment] demo_chip_tags = "icode"`: the simulated board reports the
    chips as ISO 15693 tags with 8-byte UIDs, the log's header carries them, and a replay of the log plays the
    very hands (same actions, same amounts) the NTAG demo chips play with the same seed."""
    from dealerbox.config import Config, EnrolmentConfig
    from dealerbox.pipeline import Pipeline
    from dealerbox.runtime.app import load_registry
    from dealerbox.sources.sim import Simulator

    config = Config(enrolment=EnrolmentConfig(demo_chip_tags="icode"))
    registry = load_registry(config)
    assert all(len(bytes.fromhex(uid)) == 8 for cs in registry.chip_sets for uid in [*cs.chips, *cs.markers])

    def actions(cfg, reg):
        sim = Simulator(cfg, reg, seed=7)
        records = list(sim.records(6))
        pipe = Pipeline.from_header(sim.header())
        events = [e for r in records for e in pipe.feed(r)]
        return records, pipe, [(e.seat, e.action, e.total) for e in events if e.kind == "ActionTaken"]

    records, pipe, played = actions(config, registry)
    chips = _chip_arrivals(records)
    assert chips and all(m.tech == p.TECH_ISO15693 and len(m.uid) == 8 for m in chips)
    assert pipe.unknown_tags == 0
    _, _, played_ntag = actions(Config(), load_registry(Config()))
    assert played == played_ntag and played


def test_the_demo_chip_tags_setting_is_checked(tmp_path):
    from dealerbox.config import ConfigError, load

    f = tmp_path / "dealerbox.toml"
    f.write_text('[enrolment]\ndemo_chip_tags = "icode"\n')
    assert load(f).enrolment.demo_chip_tags == "icode"
    f.write_text('[enrolment]\ndemo_chip_tags = "rfid"\n')
    with pytest.raises(ConfigError, match="demo_chip_tags"):
        load(f)


def test_a_deck_scanned_through_a_shoe_read_at_its_mouth_enrols(tmp_path):
    """A board whose shoe antenna is at the mouth reports each card only as it passes out (CARD_FACE, TAG_LEFT):
    dealing the deck through the mouth in the order the command asks enrols it; a whole-shoe board's arrival
    then departure of the same card still counts once."""
    from dealerbox.commands.enrol import SCAN_ORDER

    enc, chain = p.Encoder(), ChainWriter()
    lines = [chain.line(Header(config={}, enrolment={"decks": [], "chips": []})),
             chain.line(Rx(0.0, enc.encode(p.Hello(2, 0, (2, 0, 0), (0, 1)))))]
    for i in range(54):
        t = 0.1 + i * 0.01
        if i == 0:  # a whole-shoe board shows its card arriving first: still one card
            lines.append(chain.line(Rx(t, enc.encode(p.TagArrived(p.ZONE_SHOE, card(i))))))
        lines.append(chain.line(Rx(t, enc.encode(p.CardFace(p.ZONE_SHOE, False, card(i))))))
        lines.append(chain.line(Rx(t, enc.encode(p.TagLeft(p.ZONE_SHOE, card(i))))))
    log = tmp_path / "mouth.jsonl"
    log.write_text("".join(lines))
    out = tmp_path / "D.json"
    assert main(["enrol", "deck", "--deck-id", "D", "--back", "red", "--out", str(out), "--from", str(log)]) == 0
    deck = load_enrolment(out)
    assert [deck.cards[card(i).hex()] for i in range(54)] == list(SCAN_ORDER)


def test_a_stack_read_uncertain_is_registered_with_a_warning(tmp_path, capsys):
    """The reader proved 14 of a taller stack: the 14 are registered, and the dealer is told the stack may
    hold more, naming the zone, rather than being left to believe the rack is enrolled."""
    enc, chain = p.Encoder(), ChainWriter()
    lines = [chain.line(Header(config={}, enrolment={"decks": [], "chips": []})),
             chain.line(Rx(0.0, enc.encode(p.Hello(2, 0, (2, 1, 0), (0, 23)))))]
    lines += [chain.line(Rx(0.1, enc.encode(p.TagArrived(23, chip(i), ICODE)))) for i in range(14)]
    lines.append(chain.line(Rx(0.2, enc.encode(p.ZoneInventory(23, p.ZONE_READ_UNCERTAIN, 14)))))
    log = tmp_path / "tall.jsonl"
    log.write_text("".join(lines))
    out = tmp_path / "chips.json"
    assert main(["enrol", "chips", "--house", "H", "--value", "5", "--out", str(out), "--from", str(log)]) == 0
    assert len(load_enrolment(out).chips) == 14
    assert "bet3 read uncertain (at least 14 chips read)" in capsys.readouterr().err
    # the same stack read completely at the end of the scan: no warning
    lines.append(chain.line(Rx(0.3, enc.encode(p.ZoneInventory(23, p.ZONE_READ_COMPLETE, 14)))))
    log.write_text("".join(lines))
    out2 = tmp_path / "chips2.json"
    assert main(["enrol", "chips", "--house", "H", "--value", "5", "--out", str(out2), "--from", str(log)]) == 0
    assert "warning" not in capsys.readouterr().err
