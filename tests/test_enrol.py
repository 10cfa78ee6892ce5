"""``dealerbox enrol`` from a recorded stream: real frames from the Encoder, written as a real log."""

from __future__ import annotations

import hashlib

import pytest

from dealerbox.cli import main
from dealerbox.record.logformat import ChainWriter, Header, Rx
from dealerbox.tags import ChipSet, Deck, STANDARD_DECK, TagRegistry, load_enrolment
from dealerbox.wire import protocol as p


def uid(i: int) -> bytes:
    return bytes.fromhex("04" + hashlib.sha256(f"scan{i}".encode()).hexdigest()[:12])


def write_scan(path, uids, zone=p.ZONE_SHOE, extra=()):
    """A recorded log of a scan: one TAG_ARRIVED (and TAG_LEFT) per tag, as the board sends them."""
    enc, chain = p.Encoder(), ChainWriter()
    lines = [chain.line(Header(config={}, enrolment={"decks": [], "chips": []}))]
    t = 0.0
    lines.append(chain.line(Rx(t, enc.encode(p.Hello(1, 0, (1, 0, 0), (0, 1, 21))))))
    for u in list(uids) + list(extra):
        t += 0.7
        z = zone if u not in extra else p.ZONE_SEAT_FIRST
        lines.append(chain.line(Rx(t, enc.encode(p.TagArrived(z, u)))))
        lines.append(chain.line(Rx(t + 0.3, enc.encode(p.TagLeft(z, u)))))
    path.write_text("".join(lines))
    return path


def test_deck_scan_maps_every_uid(tmp_path, capsys):
    uids = [uid(i) for i in range(52)]
    log = write_scan(tmp_path / "scan.jsonl", uids, extra=[uid(99)])
    out = tmp_path / "D7.json"
    assert main(["enrol", "deck", "--deck-id", "D7", "--back", "green", "--out", str(out), "--from", str(log)]) == 0
    assert "52 cards" in capsys.readouterr().out
    deck = load_enrolment(out)
    assert isinstance(deck, Deck) and deck.deck_id == "D7" and deck.back == "green"
    reg = TagRegistry([deck])
    assert [reg.lookup(u).card for u in uids] == list(STANDARD_DECK)
    assert reg.lookup(uids[0]).card == "2c" and reg.lookup(uids[-1]).card == "As"


def test_deck_with_jokers(tmp_path):
    uids = [uid(i) for i in range(54)]
    out = tmp_path / "J.json"
    assert main(["enrol", "deck", "--deck-id", "J", "--back", "red", "--out", str(out),
                 "--from", str(write_scan(tmp_path / "s.jsonl", uids))]) == 0
    deck = load_enrolment(out)
    assert deck.cards[uids[52].hex()] == "X1" and deck.cards[uids[53].hex()] == "X2"


@pytest.mark.parametrize("uids,words", [
    ([uid(i) for i in range(30)] + [uid(5)] + [uid(i) for i in range(31, 52)], "scanned twice"),
    ([uid(i) for i in range(51)], "1 card(s) missing"),
    ([uid(i) for i in range(60)], "too many"),
])
def test_bad_deck_scan_is_refused_clearly(tmp_path, capsys, uids, words):
    out = tmp_path / "D.json"
    code = main(["enrol", "deck", "--deck-id", "D", "--back", "red", "--out", str(out),
                 "--from", str(write_scan(tmp_path / "s.jsonl", uids))])
    err = capsys.readouterr().err
    assert code == 2 and words in err and "scan" in err
    assert not out.exists()


def test_chips_and_markers_append(tmp_path, capsys):
    out = tmp_path / "chips.json"
    quarters = [uid(i) for i in range(10)]
    assert main(["enrol", "chips", "--house", "CASINO", "--value", "25", "--out", str(out),
                 "--from", str(write_scan(tmp_path / "a.jsonl", quarters, zone=p.ZONE_POT))]) == 0
    assert main(["enrol", "chips", "--house", "CASINO", "--value", "100", "--out", str(out), "--append",
                 "--from", str(write_scan(tmp_path / "b.jsonl", [uid(20), uid(21)]))]) == 0
    assert main(["enrol", "chips", "--house", "CASINO", "--marker", "button", "--out", str(out), "--append",
                 "--from", str(write_scan(tmp_path / "c.jsonl", [uid(30)]))]) == 0
    cs = load_enrolment(out)
    assert isinstance(cs, ChipSet) and cs.house == "CASINO"
    assert sum(v == 25 for v in cs.chips.values()) == 10 and cs.chips[uid(21).hex()] == 100
    assert cs.markers == {uid(30).hex(): "button"}
    capsys.readouterr()
    # a quarter scanned again as a 100 is a mistake, not a silent change
    assert main(["enrol", "chips", "--house", "CASINO", "--value", "100", "--out", str(out), "--append",
                 "--from", str(write_scan(tmp_path / "d.jsonl", [uid(3)]))]) == 2
    assert "already registered as a chip of 25" in capsys.readouterr().err
    assert main(["enrol", "chips", "--house", "OTHER", "--value", "5", "--out", str(out), "--append",
                 "--from", str(write_scan(tmp_path / "e.jsonl", [uid(40)]))]) == 2
    assert "house 'CASINO'" in capsys.readouterr().err
    assert main(["enrol", "chips", "--house", "CASINO", "--value", "5", "--out", str(out),
                 "--from", str(write_scan(tmp_path / "f.jsonl", [uid(41)]))]) == 2
    assert "already exists" in capsys.readouterr().err


def test_missing_log_is_one_clear_line(tmp_path, capsys):
    assert main(["enrol", "deck", "--deck-id", "D", "--back", "red", "--out", str(tmp_path / "x.json"),
                 "--from", str(tmp_path / "nope.jsonl")]) == 2
    assert "nope.jsonl" in capsys.readouterr().err
