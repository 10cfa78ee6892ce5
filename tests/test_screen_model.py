"""The screen's view model: what is shown, decided without pygame (so a headless terminal or a test can read
it without loading SDL)."""

import os
import subprocess
import sys
from pathlib import Path

from dealerbox.engine.state import FindingView, QuestionView, SeatView, TableState
from dealerbox.sinks.screen import model, theme
from dealerbox.sinks.screen.sheet import SeatSheet


def test_the_view_model_health_and_history_import_without_pygame():
    code = ("import sys; from dealerbox.sinks.screen import model, health, history, sheet, theme, UiState; "
            "print('pygame' in sys.modules)")
    root = str(Path(__file__).resolve().parents[1])  # this checkout's dealerbox, not an installed one
    env = {**os.environ, "PYTHONPATH": root}
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, env=env,
                         cwd=root).stdout
    assert out.strip() == "False"


def test_question_keys_in_the_engines_order_the_first_highlighted():
    q = QuestionView("q3", "Seat 4 stands by the call?", (("stands", "Stands"), ("back", "Takes it back")), seat=4)
    keys = model.question_keys(q)
    assert [(k.key, k.label, k.action, k.ref, k.choice) for k in keys] == [
        ("answer:q3:stands", "Stands", "answer", "q3", "stands"), ("answer:q3:back", "Takes it back", "answer", "q3",
                                                                    "back")]
    assert [k.colour for k in keys] == [theme.KEY_CONFIRM, theme.KEY]


def test_table_keys_check_names_the_seat_and_call_floor_carries_the_banner():
    seats = tuple(SeatView(s, occupied=True, in_hand=True, stack=100) for s in (1, 2, 3))
    state = TableState(hand=3, phase="flop", to_act=2, seats=seats)
    banner = FindingView("h3-1", "holdem.1", "Hold'em 1", "dealer", "card-replaced", "ruling")
    keys = {k.label: k for k in model.table_keys(state, [], banner)}
    assert keys["Check S2"].action == "check" and keys["Check S2"].seat == 2
    assert keys["Call floor"].ref == "h3-1"
    assert keys["New hand"].ui == "confirm:new-hand" and keys["New hand"].action is None
    idle = {k.label: k for k in model.table_keys(TableState(), [], None)}
    assert idle["Exposed"].key is None and idle["Misdeal"].key is None  # nothing to expose between hands
    assert idle["New hand"].action == "new-hand"


def test_no_check_key_for_a_player_facing_a_bet_and_one_for_the_big_blind_unraised():
    # seat 7 faces a 299 all-in: offering "Check S7" would let the dealer record an impossible action
    facing = (SeatView(3, occupied=True, in_hand=True, all_in=True, bet=299), SeatView(7, occupied=True, in_hand=True,
                                                                                     bet=0, stack=500))
    keys = {k.label: k for k in model.table_keys(TableState(hand=4, phase="turn", to_act=7, seats=facing), [], None)}
    assert "Check S7" not in keys and keys["Check"].action is None
    unraised = (SeatView(1, occupied=True, in_hand=True, bet=2), SeatView(2, occupied=True, in_hand=True, bet=2))
    keys = {k.label: k for k in model.table_keys(TableState(hand=4, phase="preflop", to_act=2, seats=unraised), [],
                                                  None)}
    assert keys["Check S2"].action == "check"


def test_the_sheet_closes_for_a_newer_finding_or_a_seat_that_changed():
    seats = (SeatView(1, occupied=True, stack=100), SeatView(2))
    sheet = SeatSheet.open(2, False, 200, 20000, "h1-1", 0.0)
    state = TableState(seats=seats)
    old = FindingView("h1-1", "r", "R", "floor", "o", "x")
    new = FindingView("h1-2", "r", "R", "dealer", "o", "x")
    assert not model.sheet_must_close(sheet, state, old, history=False)
    assert model.sheet_must_close(sheet, state, new, history=False)
    assert model.sheet_must_close(sheet, state, None, history=True)
    seated = TableState(seats=(seats[0], SeatView(2, occupied=True, stack=200)))
    assert model.sheet_must_close(sheet, seated, None, history=False)
