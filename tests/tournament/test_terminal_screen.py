"""A tournament table on the dealer's screen (pygame's dummy driver): the clock strip (level, amounts, time
left counting down while running, next level or break, players left), the floor's instruction as a bar with
one confirm key per seat (a tap sends moved-out / moved-in like every key), "this table is broken", and never
a card. Asserted through what the frame says it drew, not pixels."""

from __future__ import annotations

import dataclasses

import pytest

from dealerbox.config import Config
from dealerbox.engine import events as te
from dealerbox.engine.state import InstructionView, TableState, TournamentView
from dealerbox.runtime.bus import Update
from dealerbox.sinks.screen import Screen
from dealerbox.sinks.screen.tournament import clock_line, time_left
from tests.test_screen import OK_HEALTH, SIZES, Clock, assert_fits, press
from tests.test_screen_moments import clean_hand
from tests.conftest import scaled

CLOCK = TournamentView("SUN-500", 3, 100, 200, 0, 200, 412.0, 50.0, True, False, next_level=4, next_small_blind=150,
                       next_big_blind=300, next_big_blind_ante=300, players_left=27, tables_left=3)
MOVE = InstructionView(2, "move", "tournament.14a", "Balancing: move players", ("Seat 5 to T02 seat 6",), send=(5,))
BREAK = InstructionView(4, "break", "tournament.12", "This table breaks",
                        tuple(f"Seat {s} to T0{1 + s % 2} seat {s + 1}" for s in (1, 2, 3, 5, 6, 7, 8)),
                        send=(1, 2, 3, 5, 6, 7, 8))


def tournament_hand(**kw) -> TableState:
    return dataclasses.replace(clean_hand(), **{"tournament": CLOCK, **kw})


def between_hands(**kw) -> TableState:
    """The hand is over: players may go (a player still in a hand finishes it first)."""
    return tournament_hand(phase="ended", **kw)


@pytest.fixture(params=SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def screen(request):
    return Screen(Config(), request.param, clock=Clock())


def test_the_clock_strip_shows_level_amounts_time_next_and_players(screen):
    screen.render(tournament_hand(), OK_HEALTH, [])
    f = screen.frame
    assert f.texts("clock-level") == ["Level 3  100/200 BBA 200"]
    assert f.texts("clock-left") == ["6:52"]
    assert f.texts("clock-next") == ["Next: 150/300 BBA 300"]
    assert f.texts("clock-players") == ["27 left, 3 tables"]
    assert_fits(screen)


def test_the_time_left_counts_down_while_running_and_stands_still_paused():
    screen = Screen(Config(), (800, 480), clock=Clock(100.0))
    screen.accept(Update((), tournament_hand(), OK_HEALTH))
    screen.redraw_if_changed()
    assert screen.frame.texts("clock-left") == ["6:52"]
    screen.clock.t += 61.5
    assert screen.redraw_if_changed()         # a new second is a new picture, with no update in between
    assert screen.frame.texts("clock-left") == ["5:51"]
    paused = dataclasses.replace(CLOCK, running=False, left_s=30.0)
    screen.accept(Update((), tournament_hand(tournament=paused), OK_HEALTH))
    screen.redraw_if_changed()
    screen.clock.t += 500
    screen.redraw_if_changed()
    assert screen.frame.texts("clock-left") == ["0:30  paused"]


def test_a_break_and_the_last_level_read_as_such():
    on_break = dataclasses.replace(CLOCK, on_break=True, next_is_break=False)
    assert clock_line(on_break, 50.0)[0] == "Break before level 3"
    assert clock_line(dataclasses.replace(CLOCK, next_is_break=True), 50.0)[2] == "Next: break"
    assert clock_line(dataclasses.replace(CLOCK, next_level=None), 50.0)[2] == "Last level"
    assert clock_line(dataclasses.replace(CLOCK, ante=25, big_blind_ante=0), 50.0)[0] == "Level 3  100/200 ante 25"
    assert time_left(CLOCK, 10_000.0) == 0.0


def test_the_instruction_bar_names_the_move_and_its_confirm_key_sends_moved_out(screen):
    screen.render(between_hands(instruction=MOVE), OK_HEALTH, [])
    f = screen.frame
    assert f.texts("instruction-title") == ["FLOOR  Balancing: move players"]
    assert f.texts("instruction-line") == ["Seat 5 to T02 seat 6"]
    bar = f.find("instruction")[0].rect
    assert bar.contains(f.target("moved-out:5").rect)
    assert_fits(screen)
    tap = press(screen, "moved-out:5")
    assert (tap.action, tap.seat) == ("moved-out", 5)


def test_an_arrival_is_confirmed_with_the_chips_the_dealer_counted(screen):
    arriving = InstructionView(2, "move", "tournament.14a", "Balancing: players arrive",
                               ("Seat 6 for the player from T01 seat 5",), receive=(6,))
    state = between_hands(instruction=arriving)
    state = dataclasses.replace(state, seats=tuple(dataclasses.replace(v, occupied=False) if v.seat == 6 else v
                                                   for v in state.seats))
    screen.render(state, OK_HEALTH, [])
    assert press(screen, "moved-in:6") is None          # the keypad opens: a stack is counted, never assumed
    screen.render(state, OK_HEALTH, [])
    assert screen.frame.texts("sheet-title") == ["Seat 6: the moved player's chips"]
    assert screen.frame.target("sheet:ok") is None        # nothing typed yet: nothing to send
    for digit in "23450":
        press(screen, f"sheet:digit:{digit}")
        screen.render(state, OK_HEALTH, [])
    tap = press(screen, "sheet:ok")
    assert (tap.action, tap.seat, tap.amount) == ("moved-in", 6, 23450)


def test_a_whole_table_breaking_fits_with_six_keys_at_most(screen):
    screen.render(between_hands(instruction=BREAK), OK_HEALTH, [])
    f = screen.frame
    keys = [t.key for t in f.targets if t.key.startswith("moved-out:")]
    assert keys == [f"moved-out:{s}" for s in (1, 2, 3, 5, 6, 7)]
    assert f.texts("instruction-line")[0] == "Seat 1 to T02 seat 2"
    assert_fits(screen)


def test_a_broken_table_says_so_with_nothing_to_tap(screen):
    broken = InstructionView(4, "break", "tournament.12", "This table is broken", BREAK.lines, broken=True)
    empty = dataclasses.replace(TableState(seats=clean_hand().seats), tournament=CLOCK, instruction=broken)
    screen.render(empty, OK_HEALTH, [])
    f = screen.frame
    assert f.texts("instruction-title") == ["FLOOR  This table is broken"]
    assert not [t for t in f.targets if t.key.startswith("moved")]
    assert_fits(screen)


def test_a_cash_table_shows_neither_strip():
    screen = Screen(Config(), (800, 480), clock=Clock())
    screen.render(clean_hand(), OK_HEALTH, [])
    assert not screen.frame.find("tournament") and not screen.frame.find("instruction")


def test_no_card_is_drawn_by_the_tournament_parts(screen):
    screen.render(tournament_hand(instruction=BREAK), OK_HEALTH, [])
    plain = Screen(Config(), screen.size, clock=Clock())
    plain.render(clean_hand(), OK_HEALTH, [])
    card_kinds = {d.kind for d in screen.frame.drawn if "card" in d.kind}
    assert card_kinds == {d.kind for d in plain.frame.drawn if "card" in d.kind}
    assert [d.text for d in screen.frame.drawn if "card" in d.kind] == \
        [d.text for d in plain.frame.drawn if "card" in d.kind]


def test_a_player_still_in_the_hand_cannot_be_confirmed_gone_until_it_is_over(screen):
    in_hand = tournament_hand(instruction=dataclasses.replace(MOVE, send=(3,), lines=("Seat 3 to T02 seat 6",)))
    screen.render(in_hand, OK_HEALTH, [])
    assert screen.frame.target("moved-out:3") is None
    assert "S3 moved out" in screen.frame.texts("key-disabled")
    over = dataclasses.replace(in_hand, phase="ended")
    screen.render(over, OK_HEALTH, [])
    assert screen.frame.target("moved-out:3") is not None


def test_the_readme_screenshot_command_paints_the_clock_and_names_a_bad_clock_file(tmp_path):
    import json
    import os
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    scenario = root / "tests/scenarios/tournament/t14a_send-the-next-big-blind.scn"
    clock = root / "tests/fixtures/clock-level4.json"
    env = dict(os.environ, PYTHONPATH=str(root), SDL_VIDEODRIVER="dummy")
    out = tmp_path / "t.png"
    done = subprocess.run([sys.executable, "-m", "dealerbox", "screenshot", str(scenario), "--step", "16",
                           "--clock", str(clock), "--size", "800x480", "--out", str(out)], cwd=root, env=env,
                          capture_output=True, text=True, timeout=scaled(60))
    assert done.returncode == 0, done.stderr
    assert out.stat().st_size > 10_000
    bad = tmp_path / "clock.json"
    bad.write_text(json.dumps(dict(json.loads(clock.read_text()), level=0)))
    done = subprocess.run([sys.executable, "-m", "dealerbox", "screenshot", str(scenario), "--clock", str(bad),
                           "--out", str(out)], cwd=root, env=env, capture_output=True, text=True, timeout=scaled(60))
    assert done.returncode == 2 and f"--clock: {bad}: level: 0 is less than the minimum of 1" in done.stderr


def test_a_clock_payload_becomes_the_view_the_strip_paints():
    import json
    from pathlib import Path

    from dealerbox.sinks.screen.tournament import clock_view
    payload = json.loads((Path(__file__).resolve().parents[2] / "tests/fixtures/clock-level4.json").read_text())
    view = clock_view(payload, 7.0)
    assert clock_line(view, 7.0) == ("Level 4  100/200", "12:34", "Next: 150/300 BBA 300", "26 left, 3 tables")


@pytest.mark.parametrize("held", [2, 4, 5])
@pytest.mark.parametrize("chips", [10_000, 1_250_000])
def test_stacks_clear_the_card_backs_under_both_tournament_bars(screen, held, chips):
    """Issue 32: at 800x480 with the instruction bar and a finding's banner, "10,000" ran into the card backs."""
    seats = tuple(dataclasses.replace(v, stack=chips, cards_held=held) for v in clean_hand().seats)
    finding = te.FindingRaised(3.5, 1, "h1-1", "tournament.14a", "Tournaments 14", "dealer", "move",
                               "Send seat 5 to T02 seat 6: the player due for the big blind next deal.", (5,))
    screen.render(tournament_hand(instruction=MOVE, seats=seats), OK_HEALTH, [finding])
    f = screen.frame
    assert f.find("instruction") and f.texts("clock-level")
    for seat in (s for s in seats if s.occupied and not s.folded):
        (stack,) = f.find("stack", seat.seat)
        backs = f.find("card-back", seat.seat)
        assert len(backs) == held
        assert stack.text == f"{chips:,}"
        for back in backs:
            assert not stack.rect.colliderect(back.rect), (seat.seat, stack.rect, back.rect)
    assert_fits(screen)
