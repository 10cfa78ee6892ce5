"""Showdown and pots (RULES.md): cards speak, every pot and side pot gets its winners, ties split with the odd
chip, the show order and the all-in prompt, an award against the cards is flagged; each with a near miss."""

from __future__ import annotations

from dealerbox.engine.cards.showdown import clockwise_from, odd_chip_seat, pot_winners, show_order
from dealerbox.engine.variants import VARIANTS, evaluate

from .test_engine_cards import FLOP, HANDS, RIVER, TURN, Table, play_clean_hand


def test_evaluation_is_phevaluator_for_holdem_and_omaha():
    board = ("Ah", "Kh", "2c", "7d", "9s")
    assert evaluate(VARIANTS["nlhe"], ("Qh", "Jh"), board)[1] == "High Card"
    assert evaluate(VARIANTS["nlhe"], ("Ac", "Kc"), board)[1] == "Two Pair"
    # Omaha: exactly two hole cards; four hearts in the hand make no flush with one heart... two on board
    omaha = VARIANTS["plo"]
    assert evaluate(omaha, ("Qh", "Jh", "Th", "3h"), board)[1] == "High Card"
    assert evaluate(omaha, ("Qh", "Jh", "Th", "3h"), ("Ah", "Kh", "5h", "7d", "9s"))[1] == "Flush"


def test_pot_winners_ties_and_the_odd_chip():
    ranks = {1: (100, "Flush"), 3: (100, "Flush"), 5: (900, "Straight")}
    assert pot_winners([(30, (1, 3, 5)), (10, (3, 5))], ranks) == [(1, 3), (3,)]
    assert odd_chip_seat((1, 3), button=2, table_seats=9) == 3
    assert clockwise_from(9, [1, 9, 4], 9) == [1, 4, 9]
    assert show_order([1, 3, 5], last_aggressor=5, button=9, table_seats=9) == [5, 1, 3]
    assert show_order([1, 3, 5], last_aggressor=None, button=2, table_seats=9) == [3, 5, 1]


# --- showdown.2: cards speak ------------------------------------------------------------------------------------

def test_showdown_2_cards_speak_and_name_the_winner():
    t = play_clean_hand(Table())
    f = t.finding("showdown.2")
    assert f.severity == "info" and f.seats == (2,)
    assert "main pot to seat 2" in f.ruling
    t.quiet()


def test_showdown_2_all_in_side_pot_goes_to_the_best_eligible_hand():
    hands = {2: ("Ah", "Kh"), 3: ("7c", "2d"), 4: ("Qs", "Qd"), 1: ("9c", "9d")}
    # Seat 2 (the royal flush) is all in for 20; seat 1 (nines) and seat 4 (a set) play a side pot.
    t2 = Table(stack=200)
    t2.tap("leave", seat=2).tap("sit", seat=2, amount=20)
    t2.blinds().deal_holes(hands).bet(4, 100).bet(1, 100).bet(2, 19).fold(3).gather()
    t2.checked_street("5d", *FLOP, seats=(4, 1)).gather().checked_street("6d", TURN, seats=(4, 1))
    t2.checked_street("8s", RIVER, seats=(4, 1)).run()
    t2.quiet()
    state = t2.engine.snapshot()
    assert state.pot_winners == ((2,), (4,))             # main pot: the royal flush; side pot: the set
    t2.push(2, 62).push(4, 160).take(2).take(4).tap("award", ref="0", seats=(2,)).tap("award", ref="1", seats=(4,))
    t2.cleanup().run()
    t2.quiet()
    ended = t2.kinds("HandEnded")[0]
    assert [(p.amount, p.eligible, p.winners) for p in ended.pots] == [(62, (1, 2, 4), (2,)), (160, (1, 4), (4,))]
    assert ended.stacks[2] == 62 and ended.stacks[4] == 100 + 160


# --- ties.5a: the odd chip ------------------------------------------------------------------------------------------

def test_ties_5a_a_split_pot_and_the_odd_chip():
    hands = {2: ("9c", "3d"), 3: ("7c", "2d"), 4: ("As", "Kd"), 1: ("Ac", "Kc")}
    t = Table().blinds().deal_holes(hands).bet(4, 2).bet(1, 2).fold(2).check(3).gather()   # pot 7
    t.checked_street("5d", "Qh", "Jh", "Th", seats=(3, 4, 1)).checked_street("6d", "4s", seats=(3, 4, 1))
    t.checked_street("8s", "2s", seats=(3, 4, 1)).run()
    f = t.finding("ties.5a")
    assert f.severity == "info" and f.seats == (1, 4) and "odd chip goes to seat 4" in f.ruling
    t.push(4, 4).push(1, 3).take(4).take(1).cleanup().run()
    t.quiet()
    pot = t.kinds("HandEnded")[0].pots[0]
    assert pot.amount == 7 and pot.winners == (1, 4) and pot.shares == {4: 4, 1: 3}


def test_ties_5a_near_miss_no_split_no_odd_chip_prompt():
    t = play_clean_hand(Table())
    assert "ties.5a" not in t.rules(above_info=False)


# --- showdown.7: the order of showing ---------------------------------------------------------------------------------

def test_showdown_7_the_last_aggressor_shows_first():
    t = Table().preflop_limped().checked_street("5d", *FLOP).checked_street("6d", TURN)
    t.burn("8s").board(RIVER).check(2).check(3).bet(4, 10).bet(1, 10).fold(2).fold(3).run()
    f = t.finding("showdown.7")
    assert f.seats == (4, 1) and f.severity == "info"


def test_showdown_7_near_miss_checked_down_the_first_to_act_shows_first():
    t = play_clean_hand(Table())
    assert t.finding("showdown.7").seats == (2, 3, 4, 1)


# --- tournament.34: all in and the betting complete -----------------------------------------------------------------

def test_tournament_34_all_hands_face_up_when_a_player_is_all_in():
    t = Table(stack=50, kind="tournament").blinds().deal_holes(HANDS).bet(4, 50).bet(1, 50).fold(2).fold(3).run()
    f = t.finding("tournament.34")
    assert f.severity == "info" and set(f.seats) == {1, 4}


def test_tournament_34_near_miss_no_prompt_while_two_players_can_still_bet():
    t = Table(kind="tournament").preflop_limped().run()
    assert "tournament.34" not in t.rules(above_info=False)


# --- showdown.3: the award against the cards -------------------------------------------------------------------------

def test_showdown_3_chips_pushed_to_a_player_who_did_not_win():
    t = play_clean_hand(Table()).push(4).run()
    f = t.finding("showdown.3")
    assert f.severity == "floor" and f.outcome == "continues" and f.seats == (4,)
    assert "seat 2" in f.ruling


def test_showdown_3_an_award_tap_naming_the_wrong_seat():
    t = play_clean_hand(Table()).tap("award", ref="0", seats=(4,)).run()
    f = t.finding("showdown.3")
    assert f.severity == "floor" and set(f.seats) == {2, 4}


def test_showdown_3_near_miss_the_right_push_and_award():
    t = play_clean_hand(Table()).push(2).take(2).tap("award", ref="0", seats=(2,)).cleanup().run()
    t.quiet()
    assert len(t.kinds("HandEnded")) == 1


# --- showdown.1: a hand not shown cannot win ------------------------------------------------------------------

def test_showdown_1_the_winner_mucks_unshown_and_the_pot_goes_to_the_next_hand():
    t = play_clean_hand(Table()).tap("muck-unshown", seat=2).run()
    f = t.finding("showdown.1")
    assert f.seats == (2,) and "seat 4" in f.ruling
    assert t.engine.snapshot().pot_winners == ((4,),)
    t.push(4).take(4).cleanup().run()
    assert t.kinds("HandEnded")[0].pots[0].winners == (4,)


def test_showdown_1_near_miss_a_loser_mucks_unshown():
    t = play_clean_hand(Table()).tap("muck-unshown", seat=3).run()
    assert "showdown.1" not in t.rules(above_info=False)
    t.quiet()


# --- the unusual clean hands -----------------------------------------------------------------------------------------

def test_a_walk_ends_quietly_with_the_big_blind_winning():
    t = Table().blinds().deal_holes(HANDS).fold(4).fold(1).fold(2).gather().push(3).take(3).cleanup().run()
    t.quiet()
    ended = t.kinds("HandEnded")[0]
    assert ended.outcome == "complete" and ended.pots[0].winners == (3,) and ended.stacks[3] == 201


def test_heads_up_hand_to_showdown():
    t = Table(seats=(1, 5), button=1).bet(1, 1).bet(5, 2)
    t.deal_holes({5: ("Ah", "Kh"), 1: ("7c", "2d")}).bet(1, 1).check(5).gather()
    t.checked_street("5d", *FLOP, seats=(5, 1)).checked_street("6d", TURN, seats=(5, 1))
    t.checked_street("8s", RIVER, seats=(5, 1)).push(5).take(5).cleanup().run()
    t.quiet()
    assert t.kinds("HandEnded")[0].pots[0].winners == (5,)


def test_omaha_hand_reads_four_hole_cards():
    hands = {2: ("Ah", "Kh", "2c", "3c"), 3: ("7c", "2d", "8c", "9h"), 4: ("Qs", "Qd", "4c", "4d"),
             1: ("9c", "9d", "Tc", "Td")}
    t = Table(variant="plo").preflop_limped(hands)
    t.checked_street("5d", *FLOP).checked_street("6d", TURN).checked_street("8s", RIVER).run()
    t.quiet()
    shown = {h.seat: h for h in t.kinds("HandShown")}
    assert len(shown[2].cards) == 4 and shown[2].rank == "Straight Flush"
    assert t.engine.snapshot().pot_winners == ((2,),)


def test_snapshot_shows_cards_only_at_showdown():
    t = Table().preflop_limped().run()
    assert all(s.shown == () for s in t.engine.snapshot().seats)
    play = t.checked_street("5d", *FLOP).checked_street("6d", TURN).checked_street("8s", RIVER).run()
    seats = {s.seat: s for s in play.engine.snapshot().seats}
    assert seats[2].shown == ("Ah", "Kh")
