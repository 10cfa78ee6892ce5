"""``dealerbox screenshot`` on real scenarios: compiled, run through the real pipeline, drawn, saved."""

import pygame
import pytest

from dealerbox.cli import main
from dealerbox.commands.screenshot import parse_size, table_after
from dealerbox.sinks.screen import SEVERITY_COLOURS

SCENARIOS = "tests/scenarios"


def test_misdeal_scenario_screenshot(tmp_path, capsys):
    out = tmp_path / "misdeal.png"
    assert main(["screenshot", f"{SCENARIOS}/misdeal-boxed-cards.scn", "--step", "11", "--out", str(out)]) == 0
    image = pygame.image.load(str(out))
    assert image.get_size() == (800, 480)
    state, _, events = table_after(f"{SCENARIOS}/misdeal-boxed-cards.scn", 11)
    finding = next(f for f in state.findings if f.rule == "misdeal.1c")
    # The newest, most serious finding has the banner, in its severity's colour, where the banner is drawn.
    from dealerbox.commands.screenshot import save_png
    from dealerbox.config import Config
    screen = save_png(Config(), (800, 480), state, {}, events, tmp_path / "again.png")
    banner = screen.frame.find("banner")[0]
    assert banner.ref == finding.id and screen.frame.texts("citation")[0].split()[1:3] == ["Misdeals", "1(c)"]
    assert screen.frame.target("misdeal:" + finding.id) is None  # the hand already ended: nothing to confirm
    assert tuple(image.get_at((banner.rect.left + 3, banner.rect.top + 3)))[:3] == \
        SEVERITY_COLOURS[screen.frame.banner.severity]
    assert "after step 11" in capsys.readouterr().out


def test_no_hole_card_before_showdown_in_a_real_hand(tmp_path):
    from dealerbox.commands.screenshot import save_png
    from dealerbox.config import Config
    hole = {"9c", "9d", "Ah", "Kd", "7s", "2h"}  # dealt in clean-hand.scn
    for step in (8, 17, 21, 26):
        state, health, events = table_after(f"{SCENARIOS}/clean-hand.scn", step)
        screen = save_png(Config(), (1024, 600), state, health, events, tmp_path / f"{step}.png")
        drawn = {d.text for d in screen.frame.drawn}
        assert not hole & drawn, step
        assert not screen.frame.find("shown-card")
        assert screen.frame.find("card-back")
    state, health, events = table_after(f"{SCENARIOS}/clean-hand.scn", 27)  # showdown: hands are shown
    screen = save_png(Config(), (1024, 600), state, health, events, tmp_path / "27.png")
    assert {"Ah", "Kd", "7s", "2h"} <= set(screen.frame.texts("shown-card"))
    assert screen.frame.texts("pot") == ["Pot 33"]


def test_bad_arguments_say_what_is_wrong(tmp_path, capsys):
    assert main(["screenshot", "nope.scn", "--out", str(tmp_path / "x.png")]) == 2
    assert "nope.scn: no such scenario file" in capsys.readouterr().err
    assert main(["screenshot", f"{SCENARIOS}/clean-hand.scn", "--step", "999", "--out", str(tmp_path / "x.png")]) == 2
    assert "out of range" in capsys.readouterr().err
    assert main(["screenshot", f"{SCENARIOS}/clean-hand.scn", "--size", "big", "--out", str(tmp_path / "x.png")]) == 2
    assert "--size" in capsys.readouterr().err


def test_parse_size():
    assert parse_size("1024x600") == (1024, 600)
    with pytest.raises(ValueError):
        parse_size("320x200")


def test_seat_sheet_screenshot(tmp_path, capsys):
    out = tmp_path / "sheet.png"
    assert main(["screenshot", f"{SCENARIOS}/clean-hand.scn", "--step", "8", "--seat", "2", "--out", str(out)]) == 0
    image = pygame.image.load(str(out))
    from dealerbox.commands.screenshot import save_png
    from dealerbox.config import Config
    state, health, events = table_after(f"{SCENARIOS}/clean-hand.scn", 8)
    screen = save_png(Config(), (800, 480), state, health, events, tmp_path / "again.png", seat=(2, None))
    sheet = screen.frame.find("sheet")[0]
    assert (sheet.text, sheet.ref) == ("sit", 2) and screen.frame.texts("sheet-amount") == ["200"]
    # The file holds the sheet: its white rim where the frame says the sheet is.
    assert tuple(image.get_at((sheet.rect.centerx, sheet.rect.top + 1)))[:3] == (255, 255, 255)
    assert not {"9c", "9d", "Ah", "Kd", "7s", "2h"} & {d.text for d in screen.frame.drawn}
    screen = save_png(Config(), (800, 480), state, health, events, tmp_path / "rebuy.png", seat=(3, "rebuy"))
    assert screen.frame.texts("sheet-title") == ["Seat 3: rebuy   stack 148"]


def test_bad_seat_arguments_say_what_is_wrong(tmp_path, capsys):
    base = ["screenshot", f"{SCENARIOS}/clean-hand.scn", "--step", "8", "--out", str(tmp_path / "x.png")]
    assert main(base + ["--seat", "two"]) == 2
    assert "--seat: 'two' is not a seat number" in capsys.readouterr().err
    assert main(base + ["--seat", "2:rebuy"]) == 2
    assert "seat 2 is empty" in capsys.readouterr().err
    assert main(base + ["--seat", "9"]) == 2
    assert "there is no seat 9" in capsys.readouterr().err
    assert main(base + ["--seat", "2", "--history"]) == 2
    assert "--history" in capsys.readouterr().err
