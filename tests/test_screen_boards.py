"""The dealer's screen at a hand dealt on two or three boards (run it twice / three times, a double-board bomb
pot): every board in its row under board 1, each board's winners named at the showdown, fitting at every size,
and no hole card before the showdown."""

from __future__ import annotations

from pathlib import Path

import pytest

from dealerbox.config import Config
from dealerbox.pipeline import Pipeline
from dealerbox.sinks.screen import Screen, theme
from dealerbox.sources.scenario import compile_file
from tests.test_screen import OK_HEALTH, SIZES, Clock, assert_fits

SCENARIOS = Path(__file__).resolve().parent / "scenarios"


def states(name: str):
    """(state, events) after every record of a scenario."""
    compiled = compile_file(SCENARIOS / name)
    pipe = Pipeline.from_header(compiled.header)
    for record in compiled.records:
        events = pipe.feed(record)
        yield pipe.engine.snapshot(), events


def at_showdown(name: str):
    return next((s, e) for s, e in states(name) if s.phase == "showdown" and any(seat.shown for seat in s.seats))


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("name, boards, lines", [
    ("house-boards.1.scn", 2, ("Board 1: S3 One Pair", "Board 2: S1 Three of a Kind")),
    ("house-run-it-three-times.scn", 3, None),
    ("house-bomb-pot.1.scn", 2, None),
])
def test_every_board_and_its_winners_are_drawn_at_the_showdown(size, name, boards, lines):
    state, events = at_showdown(name)
    screen = Screen(Config(), size, clock=Clock())
    screen.render(state, OK_HEALTH, events)
    assert_fits(screen)
    f = screen.frame
    board1 = f.find("board-card")
    runs = f.find("run-card")
    assert [d.text for d in board1] == list(state.board) and len(board1) == 5
    assert len(runs) == 5 * (boards - 1)
    assert [d.text for d in runs] == [c for b in state.house.boards for c in b]
    # the rows go down in board order, board 1 on top, each row as wide as board 1's
    tops = sorted({d.rect.top for d in runs})
    assert len(tops) == boards - 1 and min(tops) > board1[0].rect.bottom
    drawn = [d.text for d in f.find("board-winners")]
    assert len(drawn) == boards and all(t.startswith(f"Board {b + 1}: S") for b, t in enumerate(drawn))
    if lines is not None:
        assert tuple(drawn) == lines
    for d in board1 + runs:
        assert tuple(f.surface.get_at((d.rect.left + 2, d.rect.bottom - 3)))[:3] != theme.FELT   # a card, painted


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_a_double_board_bomb_pot_shows_both_flops_and_no_hole_card_before_the_showdown(size):
    screen = Screen(Config(), size, clock=Clock())
    seen = False
    for state, events in states("house-bomb-pot.1.scn"):
        if state.phase == "showdown":
            break
        if len(state.board) >= 3 and state.house.boards and len(state.house.boards[0]) >= 3:
            screen.render(state, OK_HEALTH, events)
            assert_fits(screen)
            assert len(screen.frame.find("run-card")) == len(state.house.boards[0])
            assert not screen.frame.find("shown-card") and not screen.frame.find("board-winners")
            seen = True
    assert seen
