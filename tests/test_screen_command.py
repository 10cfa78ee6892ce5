"""``dealerbox screenshot`` on real scenarios: compiled, run through the real pipeline, drawn, saved."""

import dataclasses

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


def test_a_screenshot_with_the_dealers_question(tmp_path, capsys):
    out = tmp_path / "question.png"
    args = ["screenshot", f"{SCENARIOS}/clean-hand.scn", "--step", "12", "--size", "1024x600", "--out", str(out),
            "--question", "Seat 2 stands by the call?", "--answer", "stands=Stands by the call",
            "--answer", "takes-back=Takes it back"]
    assert main(args) == 0
    image = pygame.image.load(str(out))
    from dealerbox.commands.screenshot import parse_question, save_png
    from dealerbox.config import Config
    from dealerbox.sinks.screen import theme
    state, health, events = table_after(f"{SCENARIOS}/clean-hand.scn", 12)
    question = parse_question("Seat 2 stands by the call?", ["stands=Stands by the call", "takes-back=Takes it back"])
    screen = save_png(Config(), (1024, 600), dataclasses.replace(state, question=question), health, events,
                      tmp_path / "again.png")
    assert screen.frame.texts("question-text") == ["Seat 2 stands by the call?"]
    stands = screen.frame.target("answer:q1:stands")
    assert (stands.label, stands.choice, stands.ref) == ("Stands by the call", "stands", "q1")
    assert tuple(image.get_at((stands.rect.centerx, stands.rect.top + 2)))[:3] == theme.KEY_CONFIRM
    bar = screen.frame.find("question")[0].rect
    assert tuple(image.get_at((bar.left + 2, bar.bottom - 2)))[:3] == theme.QUESTION


def test_bad_question_arguments_say_what_is_wrong(tmp_path, capsys):
    base = ["screenshot", f"{SCENARIOS}/clean-hand.scn", "--out", str(tmp_path / "x.png")]
    assert main(base + ["--answer", "yes=Yes"]) == 2
    assert "answers belong to a --question" in capsys.readouterr().err
    assert main(base + ["--question", "Stands?", "--answer", "yes"]) == 2
    assert "--answer: 'yes' is not KEY=LABEL" in capsys.readouterr().err
    assert main(base + ["--question", "  "]) == 2
    assert "--question: the question is empty" in capsys.readouterr().err
    assert not (tmp_path / "x.png").exists()
