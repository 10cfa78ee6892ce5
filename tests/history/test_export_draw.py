"""The PHH export of deuce-to-seven triple draw (27td): PHH's ``F2L3D``, each draw written as the format writes it
(every player still in stands pat or discards, ``pN sd``, then the dealer gives each discarder as many,
``d dh``), the cards unknown (which cards were thrown is never recorded), and pokerkit, reading the file back,
reaches dealerbox's stacks hand after hand. A hand with lowball's kill (Kill Pots 10) is named, not dropped."""

from __future__ import annotations

import re
import tomllib

from dealerbox.cli import main

from .test_export import check_round_trip, export

HANDS = 30


def simulated(tmp_path, game: str, seed: int = 11) -> str:
    config = tmp_path / "c.toml"
    config.write_text(f"[game]\nvariant = \"27td\"\n{game}")
    log = tmp_path / "27td.jsonl"
    assert main(["-c", str(config), "simulate", "--hands", str(HANDS), "--seed", str(seed), "--out", str(log)]) == 0
    rc, out = export(tmp_path, [str(log)])
    assert rc == 0
    return out.read_text()


def test_triple_draw_exports_as_f2l3d_with_its_draws_and_round_trips(tmp_path, capsys):
    text = simulated(tmp_path, "")
    played = check_round_trip(text)
    assert played + text.count("not a PHH hand") == HANDS and played >= HANDS - 3
    assert text.count('variant = "F2L3D"') == played
    hands = tomllib.loads(text)
    actions = [a for h in hands.values() for a in h["actions"]]
    assert all(h["small_bet"] == 2 and h["big_bet"] == 4 for h in hands.values())
    # draws really written: discards of unknown cards, their replacements, and players standing pat
    assert sum(1 for a in actions if re.fullmatch(r"p\d+ sd (\?\?)+", a)) >= 3 * HANDS
    assert sum(1 for a in actions if re.fullmatch(r"d dh p\d+ (\?\?){1,5}", a)) >= 3 * HANDS
    assert sum(1 for a in actions if re.fullmatch(r"p\d+ sd", a)) >= HANDS // 3
    # no hole card and no discard is ever named: only the cards shown at the showdown
    assert not [a for a in actions if a.startswith(("d dh", "p")) and " sd " in a and "?" not in a]
    assert not [a for a in actions if a.startswith("d dh") and re.search(r"[2-9TJQKA][cdhs]", a)]


def test_a_hand_with_lowballs_kill_is_named_not_dropped(tmp_path, capsys):
    text = simulated(tmp_path, "kill = \"full\"\nlowball_kill = true\n")
    assert check_round_trip(text) + text.count("not a PHH hand") == HANDS
    assert "a kill pot: PHH has no kill blind" in text
