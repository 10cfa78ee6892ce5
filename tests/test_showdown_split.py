"""The split games (Omaha high-low eight or better, Big O): the low hand, half to the best high and half to the best
qualifying low, the odd chip to the high (Ties 5c), scoops, quartering, no qualifying low, side pots split on their
own, and a push against the cards flagged as in every game; each ruling with a near miss."""

from __future__ import annotations

import pytest

from dealerbox.engine.betting.pots import divide, split_halves
from dealerbox.engine.cards.low import omaha_low
from dealerbox.engine.events import Pot
from dealerbox.engine.variants import VARIANTS, evaluate, evaluate_low
from dealerbox.sources.scenario import compile_file

from .test_engine_cards import Table
from .test_scenario import SCENARIOS, run

# Board 2h 5d Kc / 7s / Qd: three low cards, so a low is possible.
BOARD = (("9s", "2h", "5d", "Kc"), ("8c", "7s"), ("6h", "Qd"))
SPLIT = {2: ("As", "Ks", "Kh", "9c"),     # trips kings, no low (one low card)
         3: ("Ad", "3c", "Jd", "Jc"),     # low 7-5-3-2-A
         4: ("4c", "6c", "Tc", "Td"),     # low 7-6-5-4-2
         1: ("8h", "9h", "Qc", "Qs")}     # trips queens, no low


def played(hands, variant="plo8", odd=False, board=BOARD) -> Table:
    t = Table(variant=variant).blinds().deal_holes(hands)
    seats = (3, 4, 1) if odd else (2, 3, 4, 1)
    if odd:
        t.bet(4, 2).bet(1, 2).fold(2).check(3).gather()        # pot 7
    else:
        t.bet(4, 2).bet(1, 2).bet(2, 1).check(3).gather()      # pot 8
    (burn, *flop), (burn2, turn), (burn3, river) = board
    return t.checked_street(burn, *flop, seats=seats).checked_street(burn2, turn, seats=seats).checked_street(
        burn3, river, seats=seats).run()


def test_the_low_uses_exactly_two_hole_cards_and_three_board_cards():
    # four low cards in the hand and a board of three: the best two of the hand, never three or four of them
    assert omaha_low(("As", "2s", "3s", "4s"), ("2c", "3c", "4c", "5c", "6c")) == (0, "5-4-3-2-A")
    assert omaha_low(("As", "6s", "7s", "8s"), ("2c", "3c", "4c", "5c", "6c"))[1] == "6-4-3-2-A"
    # only two low board cards: no low, whatever the hand holds
    assert omaha_low(("As", "2s", "3s", "4s"), ("2c", "3c", "Kc", "Qc", "Jc")) is None
    # a pair counts once: A-A-2 in the hand and 3-4-5 on the board is A-2 with 3-4-5
    assert omaha_low(("As", "Ad", "2s", "Ks"), ("3c", "4c", "5h", "Qc", "Jc"))[1] == "5-4-3-2-A"
    # nines and up never qualify
    assert omaha_low(("9s", "Ts", "2d", "Ks"), ("3c", "4c", "5h", "Qc", "Jc")) is None


def test_big_o_reads_five_hole_cards_two_at_a_time():
    board = ("Th", "9h", "4c", "5d", "Js")
    assert evaluate(VARIANTS["plo5"], ("Ah", "Kh", "Qh", "3c", "2d"), board)[1] == "Straight"
    assert evaluate(VARIANTS["plo5"], ("Ah", "Kh", "Qh", "3c"), board) == (10**6, "")    # wrong count: unread
    assert evaluate_low(VARIANTS["plo5-8"], ("Ah", "Kh", "Qh", "3c", "2d"), board) == omaha_low(
        ("Ah", "3c", "2d"), board)
    assert evaluate_low(VARIANTS["plo5"], ("Ah", "Kh", "Qh", "3c", "2d"), board) is None     # high-only game


@pytest.mark.parametrize("key, holes, structure", [("o8", 4, "limit"), ("plo8", 4, "pot-limit"),
                                                   ("plo5", 5, "pot-limit"), ("plo5-8", 5, "pot-limit")])
def test_the_new_games_are_rows_of_the_variants_table(key, holes, structure):
    v = VARIANTS[key]
    assert (v.hole_cards, v.structure, v.evaluator) == (holes, structure, "omaha")
    assert (v.split is not None) == key.endswith("8")


def test_divide_gives_the_odd_chip_to_the_first_half():
    assert divide(41, 2) == [21, 20] and divide(40, 2) == [20, 20] and divide(45, 2, unit=5) == [25, 20]
    quartered = split_halves(Pot(40, (1, 2, 3)), [(1,), (2, 3)], button=3, table_seats=9)
    assert quartered.shares == {1: 20, 2: 10, 3: 10}
    scoop = split_halves(Pot(41, (1, 2)), [(1,), (1,)], button=3, table_seats=9)
    assert scoop.shares == {1: 41} and scoop.winners == (1,)
    no_low = split_halves(Pot(41, (1, 2)), [(2,)], button=3, table_seats=9)
    assert no_low.shares == {2: 41}


# --- highlow.1: half high, half low --------------------------------------------------------------------------------

def test_highlow_1_the_pot_splits_between_the_best_high_and_the_best_low():
    t = played(SPLIT)
    f = t.finding("highlow.1")
    assert f.severity == "info" and f.seats == (2, 3)
    assert "High: seat 2 Three of a Kind · Low: seat 3 7-5-3-2-A" in f.ruling
    shown = {h.seat: h.rank for h in t.kinds("HandShown")}
    assert shown[3] == "One Pair, low 7-5-3-2-A" and shown[2] == "Three of a Kind, no low"
    state = t.engine.snapshot()
    assert state.pot_winners == ((2, 3),) and state.winners == {2: 4, 3: 4}
    assert state.pot_halves == ("High: seat 2 Three of a Kind · Low: seat 3 7-5-3-2-A",)
    t.push(2, 4).push(3, 4).take(2).take(3).tap("award", ref="0", seats=(2,)).tap("award", ref="0", seats=(3,))
    t.cleanup().run()
    t.quiet()
    pot = t.kinds("HandEnded")[0].pots[0]
    assert pot.winners == (2, 3) and pot.shares == {2: 4, 3: 4}


def test_highlow_1_near_miss_the_same_game_high_only_gives_it_all_to_the_high():
    t = played(SPLIT, variant="plo")
    assert "highlow.1" not in t.rules(above_info=False)
    assert t.engine.snapshot().pot_winners == ((2,),)


def test_highlow_1_a_scoop_takes_both_halves():
    hands = {**SPLIT, 2: ("As", "3s", "Ks", "Kh")}      # trips kings and the low 7-5-3-2-A: seat 3's low ties
    hands[3] = ("Jd", "Jc", "9d", "Tc")                 # now no low for seat 3
    t = played(hands)
    f = t.finding("highlow.1")
    assert "scoops" in f.ruling and f.seats == (2,)
    assert t.engine.snapshot().winners == {2: 8}


def test_quartering_two_equal_lows_share_the_low_half():
    hands = {**SPLIT, 4: ("Ac", "3d", "Tc", "Td")}     # seat 4 makes the same 7-5-3-2-A as seat 3
    t = played(hands)
    f = t.finding("highlow.1")
    assert f.seats == (2, 3, 4) and "Low: seat 3 and 4" in f.ruling
    assert t.engine.snapshot().winners == {2: 4, 3: 2, 4: 2}
    assert "ties.5a" in t.rules(above_info=False)


# --- highlow.2: no qualifying low ---------------------------------------------------------------------------------

def test_highlow_2_no_qualifying_low_the_high_takes_all():
    board = (("9s", "2h", "Jh", "Kc"), ("8c", "7s"), ("6h", "Qd"))   # two low cards on the board: no low
    t = played(SPLIT, board=board)
    f = t.finding("highlow.2")
    assert f.seats == (2,) and "takes all 8" in f.ruling
    assert "highlow.1" not in t.rules(above_info=False)
    assert t.engine.snapshot().winners == {2: 8}


def test_highlow_2_tied_high_hands_split_the_whole_pot_and_are_told_the_odd_chips_seat():
    # Ties 5a holds in a pot that no low qualifies for: it was ruled highlow.2 and nothing more (issue 31)
    board = (("9s", "2h", "Jh", "Kc"), ("8c", "7s"), ("6h", "Qd"))   # two low cards on the board: no low
    hands = {**SPLIT, 2: ("As", "Th", "5d", "5s"), 3: ("Ac", "Ts", "9d", "9c")}   # both the ace-high straight
    t = played(hands, board=board)
    assert t.finding("highlow.2").seats == (2, 3)
    f = t.finding("ties.5a")
    assert f.severity == "info" and f.seats == (2, 3) and "any odd chip goes to seat 2" in f.ruling
    assert t.engine.snapshot().winners == {2: 4, 3: 4}


def test_highlow_2_near_miss_a_qualifying_low_splits_the_pot():
    t = played(SPLIT)
    assert "highlow.2" not in t.rules(above_info=False)


# --- ties.5c: the odd chip to the high ----------------------------------------------------------------------------

def test_ties_5c_the_odd_chip_of_a_high_low_split_goes_to_the_high():
    hands = {**SPLIT, 2: ("Kd", "Jh", "Th", "9c")}    # seat 2 folds anyway; seat 1's trips queens win high
    t = played(hands, odd=True)
    f = t.finding("ties.5c")
    assert f.seats == (1,) and "4 high and 3 low" in f.ruling
    assert t.engine.snapshot().winners == {1: 4, 3: 3}
    t.push(1, 4).push(3, 3).take(1).take(3).cleanup().run()
    t.quiet()
    assert t.kinds("HandEnded")[0].pots[0].shares == {1: 4, 3: 3}


def test_ties_5c_near_miss_an_even_pot_has_no_odd_chip():
    t = played(SPLIT)
    assert "ties.5c" not in t.rules(above_info=False)


# --- showdown.3 in a split game ----------------------------------------------------------------------------------

def test_showdown_3_a_push_to_a_seat_that_wins_neither_half():
    t = played(SPLIT).push(4).run()
    f = t.finding("showdown.3")
    assert f.severity == "floor" and f.seats == (4,)
    assert "High: seat 2" in f.ruling and "Low: seat 3" in f.ruling


def test_showdown_3_an_award_tap_naming_the_wrong_low():
    t = played(SPLIT).tap("award", ref="0", seats=(4,)).run()
    assert t.finding("showdown.3").severity == "floor"


def test_showdown_3_near_miss_the_low_half_pushed_to_the_low():
    t = played(SPLIT).push(3, 4).tap("award", ref="0", seats=(3,)).run()
    assert "showdown.3" not in t.rules()


# --- the scenario pairs (tests/scenarios/showdown-highlow-*.scn) ---------------------------------------------------

def replayed(name: str) -> list:
    return run(compile_file(SCENARIOS / f"{name}.scn"))[2]


def test_scenario_highlow_split_raises_highlow_1_and_ties_5c_and_pays_4_and_3():
    events = replayed("showdown-highlow-split")
    rules = {e.rule: e for e in events if e.kind == "FindingRaised"}
    assert {"highlow.1", "ties.5c"} <= set(rules) and all(e.severity == "info" for e in rules.values())
    assert [e.pots[0].shares for e in events if e.kind == "HandEnded"] == [{1: 4, 3: 3}]


def test_scenario_highlow_split_near_miss_no_low_the_high_takes_all():
    events = replayed("showdown-highlow-split-ok")
    rules = [e.rule for e in events if e.kind == "FindingRaised"]
    assert "highlow.2" in rules and "highlow.1" not in rules and "ties.5c" not in rules
    assert [e.pots[0].shares for e in events if e.kind == "HandEnded"] == [{1: 7}]


def test_scenario_highlow_wrong_push_calls_the_floor():
    events = replayed("showdown-highlow-wrong-push")
    f = [e for e in events if e.kind == "FindingRaised" and e.rule == "showdown.3"]
    assert f and f[0].severity == "floor" and 4 in f[0].seats


def test_scenario_highlow_wrong_push_near_miss_the_right_low_is_quiet():
    events = replayed("showdown-highlow-wrong-push-ok")
    assert [e.rule for e in events if e.kind == "FindingRaised" and e.severity != "info"] == []
