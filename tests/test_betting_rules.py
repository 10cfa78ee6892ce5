"""One scenario per row of the "Chips and betting" table (RULES.md), each with a near miss that must stay quiet.

Seats 1-4, button 1 unless said: small blind seat 2, big blind seat 3, seat 4 first to act before the flop.
"""

from __future__ import annotations

from tests.test_betting import BettingTable


def only(g: BettingTable, rule: str):
    found = g.found(rule)
    assert len(found) == 1, (rule, g.found())
    return found[0]


def preflop_all_call(g: BettingTable) -> None:
    """Seat 4 calls, seat 1 folds, seat 2 completes, seat 3 checks; then the flop (seats 2, 3, 4 left)."""
    g.put(4, 2)
    g.fold(1)
    g.put(2, 1)
    g.check(3)
    g.street("flop")


# --- limit ------------------------------------------------------------------------------------------

def test_betting3_cap_of_a_bet_and_three_raises_multiway():
    g = BettingTable("flhe")
    h = g.start()
    g.put(4, 4)
    g.put(1, 6)
    g.put(2, 7)       # 4, 6, 8: the blind and three raises
    g.put(3, 8)                                 # tries to make it 10
    f = only(g, "betting.3")
    assert f.outcome == "wager-corrected" and f.seats == (3,) and "call of 6" in f.ruling
    assert h.bets[3] == 8 and h.current_bet == 8


def test_betting3_near_miss_calling_the_cap_is_quiet():
    g = BettingTable("flhe")
    g.start()
    g.put(4, 4)
    g.put(1, 6)
    g.put(2, 7)
    g.put(3, 6)
    assert g.found() == []


def test_betting4_heads_up_raising_is_unlimited():
    g = BettingTable("flhe", seats=(1, 2))
    h = g.start(button=1)
    assert g.actions() == [(1, "post", 1), (2, "post", 2)]      # Blinds 3: small blind on the button
    g.put(1, 3)
    g.put(2, 4)
    g.put(1, 4)
    g.put(2, 4)        # 4, 6, 8, then 10: past the cap
    f = only(g, "betting.4")
    assert f.severity == "info" and f.outcome == "continues"
    assert h.current_bet == 10 and g.loud() == []


def test_betting4_capped_before_heads_up_stays_capped():
    g = BettingTable("flhe", seats=(1, 2, 3))
    h = g.start(button=1)      # sb 2, bb 3, seat 1 first
    g.put(1, 4)
    g.put(2, 5)
    g.put(3, 6)       # 4, 6, 8: capped three-handed
    g.fold(1)
    g.put(2, 4)                                  # heads-up now, but the round was capped
    f = only(g, "betting.3")
    assert "before it became heads-up" in f.ruling and h.current_bet == 8


def test_betting5_all_in_under_half_a_bet_does_not_reopen():
    g = BettingTable("flhe", stack={1: 200, 2: 200, 3: 3, 4: 200})
    h = g.start()
    preflop_all_call(g)
    g.check(2)
    g.check(3)
    g.check(4)
    g.street("turn")                            # bet 4 on the turn
    g.check(2)
    g.put(3, 1)                     # all-in for 1: under half a bet
    g.put(4, 1)                                 # calls
    g.put(2, 5)                                 # already checked: may not raise
    f = only(g, "betting.5")
    assert f.seats == (2,) and h.bets[2] == 1


def test_betting5_near_miss_half_a_bet_counts_as_a_full_bet():
    g = BettingTable("flhe", stack={1: 200, 2: 200, 3: 3, 4: 200})
    h = g.start()
    preflop_all_call(g)
    g.check(2)
    g.put(3, 1)                     # all-in for 1 on the flop: exactly half of 2
    g.put(4, 1)
    g.put(2, 3)                                 # a full raise over it: 1 + 2
    assert g.found() == [] and h.current_bet == 3


def test_betting6_less_than_a_raise_is_a_call():
    g = BettingTable("flhe")
    h = g.start()
    preflop_all_call(g)
    g.check(2)
    g.check(3)
    g.check(4)
    g.street("turn")
    g.put(2, 4)
    g.put(3, 5)                    # 1 over the call: under half a bet
    f = only(g, "betting.6")
    assert "call of 4" in f.ruling and h.bets[3] == 4


def test_betting14_a_call_plus_half_a_bet_is_a_raise():
    g = BettingTable("flhe")
    h = g.start()
    g.put(4, 3)                                 # facing 2 on a 2 round: 1 extra is half a bet
    f = only(g, "betting.14")
    assert "completed to 4" in f.ruling and h.bets[4] == 4
    g.put(4, 1)                                 # the missing chip: silent
    assert len(g.found()) == 1 and h.to_act == 1


def test_betting14_string_raise_in_two_motions():
    g = BettingTable()
    h = g.start()
    g.put(4, 2)                                 # call
    g.put(4, 4)                                 # a second motion, no declaration
    f = only(g, "betting.14")
    assert f.seats == (4,) and "return the 4" in f.ruling and h.bets[4] == 2


def test_betting14_near_miss_declared_raise_in_two_motions():
    g = BettingTable()
    h = g.start()
    g.declare(4)
    g.put(4, 2)
    g.put(4, 4)
    g.fold(1)                                   # the next player acting completes the declared raise
    assert g.found() == [] and h.bets[4] == 6 and (4, "raise", 6) in g.actions()


def test_betting15_single_large_chip_is_a_call_in_limit():
    g = BettingTable("flhe")
    h = g.start()
    g.put(4, chips=[g.chip(5)])
    f = only(g, "betting.15")
    assert "call of 2" in f.ruling and "3 in change" in f.ruling and h.bets[4] == 2


def test_betting15_near_miss_several_chips_make_the_call():
    g = BettingTable("flhe")
    g.start()
    g.put(4, chips=[g.chip(1), g.chip(1)])
    assert g.found() == []


# --- chips that do not play ----------------------------------------------------------------------------

def test_betting7_chips_below_the_smallest_chip_do_not_play():
    g = BettingTable(small_blind=5, big_blind=10, smallest_chip=5)
    h = g.start()
    g.put(4, chips=[g.chip(5), g.chip(5), g.chip(1)])
    f = only(g, "betting.7")
    assert f.outcome == "wager-corrected" and h.bets[4] == 10


def test_betting7_near_miss_the_smallest_chip_plays():
    g = BettingTable(small_blind=5, big_blind=10, smallest_chip=5)
    g.start()
    g.put(4, chips=[g.chip(5), g.chip(5)])
    assert g.found() == []


def test_procedures3_chips_of_another_house_do_not_play():
    g = BettingTable()
    h = g.start()
    g.put(4, chips=[g.chip(1), g.chip(1), g.chip(5, house="OTHER")])
    f = only(g, "procedures.3")
    assert f.seats == (4,) and h.bets[4] == 2


def test_procedures3_near_miss_house_chips_are_quiet():
    g = BettingTable()
    g.start()
    g.put(4, chips=[g.chip(1), g.chip(1)])
    assert g.found() == []


# --- turn ----------------------------------------------------------------------------------------------

def test_betting10_out_of_turn_call_is_binding_when_nobody_in_between_bets():
    g = BettingTable()
    h = g.start()
    g.put(1, 2)                                 # seat 4 is to act
    f = only(g, "betting.10")
    assert f.seats == (1, 4) and "binding" in f.ruling
    g.fold(4)
    assert (1, "call", 2) in g.actions() and h.to_act == 2


def test_betting10_out_of_turn_not_binding_after_a_raise_in_between():
    g = BettingTable()
    h = g.start()
    g.put(1, 2)
    g.put(4, 6)                                 # seat 4 raises: seat 1 is not bound
    assert h.to_act == 1 and (1, "call", 2) not in g.actions()


def test_betting10_check_out_of_turn_then_a_bet_forbids_raising():
    g = BettingTable()
    h = g.start()
    preflop_all_call(g)
    g.check(3)                                  # seat 2 is to act
    g.put(2, 10)                                # a bet in between
    g.check(3) if False else None
    g.put(3, 30)                                # the out-of-turn checker tries to raise
    rulings = [f.ruling for f in g.found("betting.10")]
    assert len(rulings) == 2 and "may not bet or raise" in rulings[1] and h.bets[3] == 10


def test_betting10_after_folding_chips_do_not_play():
    g = BettingTable()
    h = g.start()
    g.fold(4)
    g.put(4, 6)
    assert "has folded" in only(g, "betting.10").ruling and h.bets.get(4, 0) == 0


def test_betting10_near_miss_in_turn_is_quiet():
    g = BettingTable()
    g.start()
    g.put(4, 2)
    g.put(1, 2)
    g.put(2, 1)
    g.check()
    assert g.found() == []


def test_betting12_unaware_of_a_raise_may_take_the_chips_back():
    g = BettingTable()
    h = g.start()
    preflop_all_call(g)
    g.put(2, 10)
    g.put(3, 30)
    g.put(4, 10)                                # put in the old bet
    f = only(g, "betting.12")
    assert "take the chips back" in f.ruling
    g.take_back(4, 10)
    assert h.to_act == 4 and h.bets.get(4, 0) == 0 and len(g.found()) == 1


def test_betting12_a_released_call_is_binding():
    g = BettingTable()
    h = g.start()
    preflop_all_call(g)
    g.put(2, 10)
    g.put(3, 10)
    g.take_back(3, 10)
    assert "binding" in only(g, "betting.12").ruling and h.bets[3] == 10


def test_betting16_short_call_must_be_brought_up():
    g = BettingTable()
    h = g.start()
    preflop_all_call(g)
    g.put(2, 10)
    g.put(3, 5)
    f = only(g, "betting.16")
    assert "bring the call up to 10" in f.ruling and h.to_act == 4
    g.put(3, 5)                                 # made up: silent
    assert len(g.found()) == 1 and h.bets[3] == 10


def test_betting16_near_miss_short_all_in_call_is_quiet():
    g = BettingTable(stack={1: 200, 2: 200, 3: 7, 4: 200})
    h = g.start()
    preflop_all_call(g)
    g.put(2, 10)
    g.put(3, 5)                   # all it has
    assert g.found() == [] and h.all_in(3)


# --- no-limit -------------------------------------------------------------------------------------------

def test_nolimit2_bet_below_the_minimum_is_brought_up():
    g = BettingTable()
    h = g.start()
    preflop_all_call(g)
    g.put(2, 1)
    assert "up to 2" in only(g, "no-limit.2").ruling and h.bets[2] == 2


def test_nolimit3_short_all_in_does_not_reopen():
    g = BettingTable(stack={1: 200, 2: 200, 3: 200, 4: 17})
    h = g.start()
    preflop_all_call(g)
    g.put(2, 10)
    g.put(3, 10)
    g.put(4, 15)                                # all-in for 15: short of a full raise to 20
    g.put(2, 30)                                # seat 2 already bet and was not fully raised
    f = only(g, "no-limit.3")
    assert f.seats == (2,) and h.bets[2] == 15


def test_nolimit3_near_miss_full_all_in_reopens():
    g = BettingTable(stack={1: 200, 2: 200, 3: 200, 4: 22})
    h = g.start()
    preflop_all_call(g)
    g.put(2, 10)
    g.put(3, 10)
    g.put(4, 20)                                # a full raise, all-in
    g.put(2, 30)                                # re-raise to 40: legal
    assert g.found() == [] and h.bets[2] == 40


def test_nolimit9_single_chip_facing_a_bet_only_calls():
    g = BettingTable()
    h = g.start()
    g.put(4, chips=[g.chip(25)])
    f = only(g, "no-limit.9")
    assert "call of 2" in f.ruling and h.bets[4] == 2


def test_nolimit9_near_miss_single_chip_opening_bets_its_value():
    g = BettingTable()
    h = g.start()
    preflop_all_call(g)
    g.put(2, chips=[g.chip(25)])
    assert g.found() == [] and h.bets[2] == 25


def test_nolimit10_raise_below_minimum_brought_up_no_more():
    g = BettingTable()
    h = g.start()
    preflop_all_call(g)
    g.put(2, 10)
    g.put(3, 15)
    f = only(g, "no-limit.10")
    assert "Seat 3 must bring the raise up to 20 (minimum raise)" in f.ruling and h.bets[3] == 20


def test_nolimit10_near_miss_minimum_raise_is_quiet():
    g = BettingTable()
    g.start()
    preflop_all_call(g)
    g.put(2, 10)
    g.put(3, 20)
    assert g.found() == []


def test_nolimit12_straddle_left_of_the_big_blind_acts_last():
    g = BettingTable(straddle=True)
    h = g.start(deal=False)
    g.put(4, 4)
    g.deal()
    f = only(g, "no-limit.12")
    assert f.severity == "info" and h.to_act == 1
    g.put(1, 4)
    g.put(2, 3)
    g.put(3, 2)
    assert h.to_act == 4                        # the straddler has the last word
    g.check(4)
    assert h.round_complete and g.loud() == []


def test_nolimit12_straddle_from_the_wrong_seat():
    g = BettingTable(straddle=True)
    g.start(deal=False)
    g.put(1, 4)
    assert "left of the big blind" in only(g, "no-limit.12").ruling


def test_nolimit12_near_miss_raise_to_two_blinds_after_the_deal():
    g = BettingTable(straddle=True)
    h = g.start()
    g.put(4, 4)
    assert g.found() == [] and (4, "raise", 4) in g.actions() and h.to_act == 1


# --- pot-limit -------------------------------------------------------------------------------------------

def test_potlimit1_bet_over_the_pot_is_reduced():
    g = BettingTable("plhe")
    h = g.start()
    preflop_all_call(g)                         # pot 6
    g.put(2, 10)
    f = only(g, "pot-limit.1")
    assert "reduced to 6" in f.ruling and "return 4" in f.ruling and h.bets[2] == 6


def test_potlimit1_near_miss_pot_sized_bet():
    g = BettingTable("plhe")
    g.start()
    preflop_all_call(g)
    g.put(2, 6)
    assert g.found() == []


def test_potlimit4_largest_raise_is_the_pot_after_the_call():
    g = BettingTable("plhe")
    h = g.start()
    g.put(4, 10)                                # pot 3, call 2, raise 5: 7 in all
    f = only(g, "pot-limit.4")
    assert "7 in all" in f.ruling and h.bets[4] == 7


def test_potlimit4_near_miss_pot_raise():
    g = BettingTable("plhe")
    g.start()
    g.put(4, 7)
    assert g.found() == []


def test_potlimit6_small_blind_counted_as_big_blind():
    g = BettingTable("plhe", sb_counts_as_bb=True)
    h = g.start()
    g.put(4, 10)
    f = only(g, "pot-limit.6")
    assert "8" in f.ruling and h.bets[4] == 8   # four big blinds


def test_potlimit6_near_miss_four_big_blinds_allowed():
    g = BettingTable("plhe", sb_counts_as_bb=True)
    g.start()
    g.put(4, 8)
    assert g.found() == []


def test_potlimit7_single_chip_larger_than_the_pot_is_a_pot_bet():
    g = BettingTable("plhe")
    h = g.start()
    preflop_all_call(g)
    g.put(2, chips=[g.chip(25)])
    f = only(g, "pot-limit.7")
    assert "pot-sized bet of 6" in f.ruling and h.bets[2] == 6


def test_potlimit7_near_miss_single_chip_inside_the_pot():
    g = BettingTable("plhe")
    h = g.start()
    preflop_all_call(g)
    g.put(2, chips=[g.chip(5)])
    assert g.found() == [] and h.bets[2] == 5


def test_potlimit5_rounded_pot_a_bet_up_to_the_rounded_size_is_quiet():
    g = BettingTable("plhe", pot_round_to=5)
    h = g.start()
    preflop_all_call(g)                         # pot 6, rounded up to 10 (Pot-Limit 5)
    g.put(2, 10)
    assert g.found() == [] and h.bets[2] == 10


def test_potlimit5_rounded_pot_a_bet_over_the_rounded_size_is_reduced_to_it():
    g = BettingTable("plhe", pot_round_to=5)
    h = g.start()
    preflop_all_call(g)
    g.put(2, 11)
    f = only(g, "pot-limit.1")
    assert "rounded up to a multiple of 5" in f.ruling and "reduced to 10" in f.ruling and h.bets[2] == 10


def test_potlimit5_rounding_applies_to_the_pot_after_the_call():
    g = BettingTable("plhe", pot_round_to=5)
    h = g.start()
    g.put(4, 11)                                # pot 3 + call 2 = 5, already a multiple: 2 + 5 = 7 in all
    assert "7 in all" in only(g, "pot-limit.4").ruling and h.bets[4] == 7
    g2 = BettingTable("plhe", pot_round_to=4)
    h2 = g2.start()
    g2.put(4, 8)                                # 5 rounded up to 8: 2 + 8 = 10 in all, so 8 is quiet
    assert g2.found() == [] and h2.bets[4] == 8
