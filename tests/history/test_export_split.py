"""The PHH export of the split games: limit Omaha high-low is PHH's ``FO/8`` and round-trips through pokerkit;
pot-limit Omaha high-low and five-card Omaha have no code in the PHH specification (0.0.1 lists eleven variants,
no pot-limit or five-card Omaha high-low), so their hands are named in comments with the reason, never dropped."""

from __future__ import annotations

from dealerbox.cli import main

from .test_export import check_round_trip, export


def simulated(tmp_path, variant: str, hands: int) -> str:
    config = tmp_path / "c.toml"
    seats = "[table]\nseats = 8\n" if variant.startswith("plo5") else ""   # a deck deals five-card Omaha to 8 at most
    config.write_text(f"{seats}[game]\nvariant = \"{variant}\"\n")
    log = tmp_path / f"{variant}.jsonl"
    assert main(["-c", str(config), "simulate", "--hands", str(hands), "--seed", "11", "--out", str(log)]) == 0
    rc, out = export(tmp_path, [str(log)])
    assert rc == 0
    return out.read_text()


def test_limit_omaha_high_low_exports_as_fo8_and_round_trips(tmp_path, capsys):
    text = simulated(tmp_path, "o8", 30)
    assert text.count('variant = "FO/8"') >= 25
    assert check_round_trip(text) + text.count("not a PHH hand") == 30


def test_pot_limit_and_big_o_high_low_hands_are_named_not_dropped(tmp_path, capsys):
    for variant in ("plo8", "plo5", "plo5-8"):
        text = simulated(tmp_path, variant, 3)
        assert text.count(f"variant {variant!r} has no PHH code") == 3, variant
        assert "variant = " not in text
