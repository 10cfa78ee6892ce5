"""``dealerbox export --phh``: every hand of scenarios and simulated logs, read back by pokerkit's HandHistory,
replays to the stacks and pots dealerbox computed; hands PHH cannot hold are said so; hole cards only on
request, and the request is recorded."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from dealerbox.cli import main
from dealerbox.history.reader import read_hands

from .roundtrip import replay_phh_file

SCENARIOS = sorted(Path(__file__).resolve().parents[1].joinpath("scenarios").glob("*.scn"))
SHOWDOWN = Path(__file__).resolve().parents[1] / "scenarios" / "clean-hand.scn"   # a hand played to showdown
CARD_PAIR = re.compile(r'"d dh p\d+ ((?:[2-9TJQKA][cdhs])+)"')


def export(tmp_path: Path, logs: list[str], *extra: str) -> tuple[int, Path]:
    out = tmp_path / "out.phhs"
    return main(["export", *logs, "--phh", str(out), *extra]), out


def check_round_trip(text: str) -> int:
    hands = replay_phh_file(text)
    for index, (pokerkit_stacks, dealerbox_stacks, pots, odd) in hands.items():
        if odd:   # the odd chip of a split pot goes clockwise from the button here; pokerkit may differ by it
            assert sum(pokerkit_stacks) == sum(dealerbox_stacks), f"hand [{index}]"
            pairs = zip(pokerkit_stacks, dealerbox_stacks, strict=True)
            assert max(abs(a - b) for a, b in pairs) <= odd, f"hand [{index}]"
        else:
            assert pokerkit_stacks == dealerbox_stacks, f"hand [{index}]"
        assert pots > 0, f"hand [{index}] exported with no pot"
    return len(hands)


def test_every_scenario_hand_round_trips_or_is_named(tmp_path, capsys):
    rc, out = export(tmp_path, [str(p) for p in SCENARIOS])
    assert rc == 0
    text = out.read_text()
    played = check_round_trip(text)
    named = text.count("not a PHH hand")
    total = sum(len(read_hands(p).hands) for p in SCENARIOS)
    assert played + named == total
    assert played >= 40 and named >= 20   # both kinds are really exercised by the scenarios
    assert re.search(r"not a PHH hand: table T01 hand \d+, a misdeal", text)
    assert "misdeal.1" in text   # the rule id of the misdeal travels with it


@pytest.mark.parametrize("variant", ["nlhe", "plhe", "flhe", "plo"])
def test_simulated_hands_round_trip(tmp_path, capsys, variant):
    config = tmp_path / "c.toml"
    straddle = "true" if variant == "nlhe" else "false"   # the simulator straddles in no-limit games
    config.write_text(f"[game]\nvariant = \"{variant}\"\nstraddle = {straddle}\n")
    log = tmp_path / "sim.jsonl"
    assert main(["-c", str(config), "simulate", "--hands", "60", "--seed", "11", "--irregularities", "0.15",
                 "--out", str(log)]) == 0
    rc, out = export(tmp_path, [str(log)])
    assert rc == 0
    text = out.read_text()
    played = check_round_trip(text)
    named = text.count("not a PHH hand")
    assert played + named == 60 and played >= 45
    assert "_findings" in text   # irregularities ruled in the hands carry their rulings


def test_hole_cards_hidden_unless_asked_and_the_asking_is_recorded(tmp_path, capsys):
    log = str(SHOWDOWN)
    rc, out = export(tmp_path, [log])
    assert rc == 0 and not CARD_PAIR.search(out.read_text())
    assert '"d dh p1 ????"' in out.read_text() and re.search(r'"p\d sm (?:[2-9TJQKA][cdhs]){2}"', out.read_text())
    assert not (tmp_path / "out.phhs.audit").exists()
    capsys.readouterr()
    rc, out = export(tmp_path, [log], "--reveal-hole-cards")
    assert rc == 0 and CARD_PAIR.search(out.read_text())
    audit = (tmp_path / "out.phhs.audit").read_text()
    assert "hole cards revealed by" in audit and log in audit
    assert "hole cards revealed by" in capsys.readouterr().err
    check_round_trip(out.read_text())   # real hole cards still replay to the same stacks


def test_a_missing_log_is_named_and_the_others_exported(tmp_path, capsys):
    rc, out = export(tmp_path, [str(tmp_path / "nope.jsonl"), str(SCENARIOS[0])])
    assert rc == 1
    err = capsys.readouterr().err
    assert "nope.jsonl" in err and "skipped" in err
    assert "[1]" in out.read_text()
    rc, _ = export(tmp_path, [str(tmp_path / "nope.jsonl")])
    assert rc == 2
