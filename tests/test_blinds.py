"""Blinds rows of the betting table: button and blinds (moving, dead), heads-up, new players, missed blinds."""

from __future__ import annotations

from tests.test_betting import BettingTable
from tests.test_betting_rules import only


def walk(g: BettingTable, button: int, dealt=None):
    """A hand where everyone folds to the big blind."""
    h = g.start(button=button, dealt=dealt)
    while h.to_act is not None:
        g.fold(h.to_act)
    h.settle(g.t, [])
    return h


def test_blinds1_dead_button_stays_in_front_of_an_empty_seat():
    g = BettingTable(button_mode="dead")
    walk(g, 1)                                   # sb 2, bb 3
    g.events += g.table.leave(g.t, 2)
    occupied = [1, 3, 4]
    assert g.table.button_for(occupied, 1) == 2     # the button goes to the empty seat 2
    assert g.table.blinds_for(2, occupied) == {3: 1, 4: 2}
    g.start(button=2, dealt=occupied)
    f = only(g, "blinds.1")
    assert f.severity == "info" and "empty seat 2" in f.ruling


def test_blinds1_after_a_dead_small_blind_the_button_goes_to_its_empty_seat():
    # issue 31 (the dead-button session harness): last hand had no small blind (its seat, last big blind's, empty);
    # the button follows the small blind's place to that empty seat, not on to the next player (Blinds 1b)
    g = BettingTable(seats=(1, 2, 3, 4, 5), button_mode="dead")
    walk(g, 1)                                   # sb 2, bb 3
    g.events += g.table.leave(g.t, 3)
    occupied = [1, 2, 4, 5]
    assert g.table.button_for(occupied, 1) == 2 and g.table.blinds_for(2, occupied) == {4: 2}    # no small blind
    walk(g, 2, dealt=occupied)
    assert g.table.button_for(occupied, 2) == 3     # before the fix: seat 4, both the button and the small blind
    assert g.table.blinds_for(3, occupied) == {4: 1, 5: 2}
    g.start(button=3, dealt=occupied)
    dead_small, f = g.found("blinds.1")         # the hand without a small blind said so too
    assert "no small blind" in dead_small.ruling
    assert f.severity == "info" and "empty seat 3" in f.ruling and "seat 4" not in f.ruling


def test_blinds1_near_miss_moving_button_skips_the_empty_seat():
    g = BettingTable()
    walk(g, 1)
    g.events += g.table.leave(g.t, 2)
    assert g.table.button_for([1, 3, 4], 1) == 3
    assert g.table.blinds_for(3, [1, 3, 4]) == {4: 1, 1: 2}
    g.start(button=3, dealt=[1, 3, 4])
    assert g.found() == []


def test_blinds3_heads_up_small_blind_must_be_on_the_button():
    g = BettingTable(seats=(1, 2))
    g.start(button=1, post=False, deal=False)
    g.put(2, 1)
    g.put(1, 2)                     # blinds the wrong way round
    f = only(g, "blinds.3")
    assert f.outcome == "misdeal" and f.seats == (1, 2)


def test_blinds3_near_miss_heads_up_blinds_right():
    g = BettingTable(seats=(1, 2))
    h = g.start(button=1)
    assert g.found() == [] and h.to_act == 1     # the button acts first before the flop


def test_blinds7_new_player_between_big_blind_and_button():
    g = BettingTable(seats=(1, 3, 5, 7))
    walk(g, 1)                                   # sb 3, bb 5
    g.sit(4, 200)                                # next hand: button 3, seat 4 would be the small blind
    assert 4 not in g.table.entitled(3, [1, 3, 4, 5, 7])
    g.start(button=3, dealt=[1, 3, 4, 5, 7], post=False)
    f = only(g, "blinds.7")
    assert f.outcome == "misdeal" and f.seats == (4,)


def test_blinds7_near_miss_new_player_behind_the_big_blind_posts_and_plays():
    g = BettingTable(seats=(1, 3, 5, 7))
    walk(g, 1)
    g.sit(8, 200)                                # button 3: sb 5, bb 7, seat 8 first to act
    assert 8 in g.table.entitled(3, [1, 3, 5, 7, 8])
    h = g.start(button=3, dealt=[1, 3, 5, 7, 8], deal=False)
    g.put(8, 2)                                  # posts a big blind to come in (Blinds 4)
    g.deal()
    assert g.found() == [] and (8, "post", 2) in g.actions()
    assert h.to_act == 8                         # a posted player still acts in turn, with the option


def missed_both(g: BettingTable) -> None:
    walk(g, 1, dealt=[1, 2, 4])                  # seat 3 away: the big blind passes it
    walk(g, 2, dealt=[1, 2, 4])                  # and the small blind
    assert g.table.owes[3] == {"sb", "bb"}


def test_blinds9_missed_blinds_posted_live_and_dead():
    g = BettingTable()
    missed_both(g)
    h = g.start(button=4, deal=False)            # sb 1, bb 2, seat 3 first to act
    g.put(3, 3)
    g.deal()
    f = only(g, "blinds.9")
    assert f.severity == "info" and "2 live, 1 dead" in f.ruling
    assert h.bets[3] == 2 and 3 not in g.table.owes and h.to_act == 3
    assert h.dead_money == {3: 1}
    assert sum(p.amount for p in h.pots()) == 6  # sb 1 + bb 2 + seat 3's 2 live and 1 dead


def test_blinds9_only_the_big_blind_posted_owes_the_small():
    g = BettingTable()
    missed_both(g)
    g.start(button=4, deal=False)
    g.put(3, 2)
    f = only(g, "blinds.9")
    assert f.outcome == "wager-corrected" and "small blind of 1" in f.ruling


def test_blinds9_near_miss_wait_for_the_big_blind():
    g = BettingTable()
    missed_both(g)
    g.table.wait_for_bb(g.t, 3)
    assert 3 not in g.table.entitled(4, [1, 2, 3, 4])     # bb would be seat 2
    assert 3 in g.table.entitled(1, [1, 2, 3, 4])         # now the big blind reaches seat 3
    g.start(button=1)
    assert g.found() == [] and 3 not in g.table.owes


def test_blinds10_dealt_in_owing_a_blind_without_posting():
    g = BettingTable()
    missed_both(g)
    h = g.start(button=4)                        # the deal begins; seat 3 has posted nothing
    assert g.found("blinds.10") == []            # the deal may yet pass it (it waits): judged at its first card
    g.events += h.dealt_in_unposted(g.t, 3)      # the deal reaches seat 3: dealt in without posting
    f = only(g, "blinds.10")
    assert f.seats == (3,) and "dead" in f.ruling
    g.put(3, 2)                                  # plays the hand: live, posts next deal
    assert h.bets[3] == 2 and g.table.owes[3] == {"sb", "bb"}


def test_blinds10_near_miss_posted_before_the_deal():
    g = BettingTable()
    missed_both(g)
    g.start(button=4, deal=False)
    g.put(3, 3)
    g.deal()
    assert g.found("blinds.10") == []


# --- the back-in tap (Blinds 9, and Blinds 7 for blinds made up) ------------------------------------------

def waited_past_the_small_blind(g: BettingTable) -> None:
    walk(g, 1)                                   # sb 2, bb 3: seat 3 posts its big blind
    g.table.wait_for_bb(g.t, 3)
    walk(g, 2)                                   # seat 3 waits: the small blind (seat 4) passes it
    assert 3 not in g.hand.seats and g.table.owes[3] == {"sb"}
    assert g.table.stacks[3] == 200 + g.config.game.small_blind   # won the blinds in the first hand


def test_blinds9_back_in_deals_a_waiting_seat_in_before_the_big_blind():
    g = BettingTable()
    waited_past_the_small_blind(g)
    assert 3 not in g.table.entitled(4, [1, 2, 3, 4])     # still waiting: the big blind is seat 2
    assert g.table.back_in(g.t, 3) == []
    assert 3 in g.table.entitled(4, [1, 2, 3, 4])
    h = g.start(button=4, deal=False)
    g.put(3, 1)                                  # all it missed: the small blind, live (under the opening bet)
    g.deal()
    f = only(g, "blinds.9")
    assert f.severity == "info" and "live" in f.ruling and h.bets[3] == 1 and h.dead_money == {}
    assert g.table.stacks[3] == 201 - 1 and 3 not in g.table.owes and g.found("blinds.10") == []
    assert h.to_act == 3                         # in turn it calls the big blind with 1 more, or raises
    g.put(3, 1)
    assert (3, "call", 2) in g.actions() and g.loud() == []


def test_blinds9_missed_only_the_small_blind_may_post_a_big_blind_instead():
    g = BettingTable()
    waited_past_the_small_blind(g)
    g.table.back_in(g.t, 3)
    h = g.start(button=4, deal=False)
    g.put(3, 2)                                  # a big blind to play at once, as a new player may (Blinds 4, 13)
    g.deal()
    assert g.loud() == [] and h.bets[3] == 2 and h.dead_money == {} and g.table.stacks[3] == 201 - 2
    assert h.to_act == 3 and 3 not in g.table.owes
    g.put(3, 6)                                  # its turn: the option to raise (Blinds 9)
    assert (3, "raise", 8) in g.actions() and g.loud() == []


def test_blinds9_missed_only_the_small_blind_posting_both_is_taken_at_its_word():
    g = BettingTable()
    waited_past_the_small_blind(g)
    g.table.back_in(g.t, 3)
    h = g.start(button=4, deal=False)
    g.put(3, 3)                                  # the big blind plays, the rest goes to the middle
    g.deal()
    assert only(g, "blinds.9").severity == "info" and h.bets[3] == 2 and h.dead_money == {3: 1}


def test_blinds9_short_of_the_missed_small_blind_is_brought_up_and_the_make_up_is_silent():
    g = BettingTable(small_blind=2, big_blind=5)
    waited_past_the_small_blind(g)
    g.table.back_in(g.t, 3)
    before = g.table.stacks[3]
    h = g.start(button=4, deal=False)
    g.put(3, 1)                                  # less than the small blind it missed
    f = only(g, "blinds.9")
    assert f.outcome == "wager-corrected" and f.seats == (3,) and "1 more" in f.ruling
    assert h.bets[3] == 2 and h.dead_money == {} and g.table.stacks[3] == before - 2   # applied at once
    g.put(3, 1)                                  # the dealer carries it out: no second finding
    g.deal()
    assert g.loud() == [f] and h.to_act == 3


def test_blinds9_missed_both_and_short_of_the_big_blind_is_charged_both():
    g = BettingTable()
    missed_both(g)
    h = g.start(button=4, deal=False)
    g.put(3, 1)
    f = only(g, "blinds.9")
    assert f.outcome == "wager-corrected" and "2 more" in f.ruling
    assert h.bets[3] == 2 and h.dead_money == {3: 1} and g.table.stacks[3] == 200 - 3
    g.put(3, 2)
    g.deal()
    assert g.loud() == [f] and h.to_act == 3


def test_blinds9_back_in_without_posting_is_blinds10():
    g = BettingTable()
    waited_past_the_small_blind(g)
    g.table.back_in(g.t, 3)
    h = g.start(button=4)                        # nothing posted
    g.events += h.dealt_in_unposted(g.t, 3)      # and its first card reaches seat 3
    assert only(g, "blinds.10").seats == (3,)


def test_blinds9_back_in_cannot_make_up_blinds_between_the_big_blind_and_the_button():
    g = BettingTable()
    waited_past_the_small_blind(g)
    g.table.back_in(g.t, 3)
    assert 3 not in g.table.entitled(3, [1, 2, 3, 4])     # seat 3 would be the button (Blinds 7)
    walk(g, 3)
    assert 3 not in g.hand.seats and 3 in g.table.returning
    assert 3 in g.table.entitled(4, [1, 2, 3, 4])         # the button has passed
    g.start(button=4)
    assert 3 in g.hand.seats and 3 not in g.table.returning


def test_blinds9_back_in_near_miss_owing_nothing_is_just_dealt_in():
    g = BettingTable()
    walk(g, 1)
    g.table.wait_for_bb(g.t, 4)                  # waits, then changes its mind before missing anything
    g.table.back_in(g.t, 4)
    assert 4 in g.table.entitled(2, [1, 2, 3, 4]) and not g.table.returning
    g.start(button=2)
    assert g.found() == []


def test_blinds9_two_seats_waiting_come_in_one_at_a_time_as_the_big_blind_reaches_them():
    g = BettingTable(seats=(1, 2, 3, 4, 5))
    walk(g, 1)                                   # sb 2, bb 3
    g.table.wait_for_bb(g.t, 3)
    g.table.wait_for_bb(g.t, 4)
    walk(g, 2)                                   # sb 5: the small blind passes both waiting seats
    assert g.table.owes[3] == g.table.owes[4] == {"sb"}
    walk(g, 5)                                   # sb 1, bb 2
    everyone = [1, 2, 3, 4, 5]
    assert g.table.entitled(1, everyone) == (2, 3, 5, 1)     # the big blind reaches seat 3 only
    g.start(button=1)                            # sb 2, bb 3; seat 4 still waits
    assert 4 not in g.hand.seats and g.found() == []
    g.hand.settle(g.t, [])
    assert g.table.entitled(2, everyone) == (3, 4, 5, 1, 2)  # now the big blind reaches seat 4
    assert g.table.blinds_for(2, everyone) == {3: 1, 4: 2}
    g.start(button=2)
    assert g.found() == [] and not g.table.owes and not g.table.waiting_for_bb


# --- the sit-out tap: a player steps away and misses the blinds that pass ---------------------------------

def sat_out_a_whole_orbit(g: BettingTable) -> None:
    walk(g, 1)                                   # sb 2, bb 3
    assert g.table.sit_out(g.t, 4) == []
    assert 4 not in g.table.entitled(2, [1, 2, 3, 4])
    walk(g, 2)                                   # sb 3, bb 1: the big blind passes seat 4
    assert 4 not in g.hand.seats and g.table.owes[4] == {"bb"}
    walk(g, 3)                                   # sb 1, bb 2: and the small blind
    assert 4 not in g.hand.seats and g.table.owes[4] == {"sb", "bb"}


def test_sit_out_back_in_waits_for_the_button_then_posts_both_blinds():
    g = BettingTable()
    sat_out_a_whole_orbit(g)
    g.table.back_in(g.t, 4)
    assert 4 not in g.table.entitled(4, [1, 2, 3, 4])     # it would be the button (Blinds 7)
    walk(g, 4)
    assert 4 not in g.hand.seats and g.table.owes[4] == {"sb", "bb"}
    assert 4 in g.table.entitled(1, [1, 2, 3, 4])
    h = g.start(button=1, deal=False)            # sb 2, bb 3, seat 4 first to act
    g.put(4, 3)
    g.deal()
    assert only(g, "blinds.9").severity == "info" and g.loud() == []
    assert h.bets[4] == 2 and h.dead_money == {4: 1} and 4 not in g.table.owes and h.to_act == 4


def test_sit_out_back_in_posting_only_the_big_blind_owes_the_small_too():
    g = BettingTable()
    sat_out_a_whole_orbit(g)
    g.table.back_in(g.t, 4)
    walk(g, 4)
    h = g.start(button=1, deal=False)
    g.put(4, 2)
    f = only(g, "blinds.9")
    assert f.outcome == "wager-corrected" and "small blind of 1" in f.ruling and h.dead_money == {4: 1}


def test_sit_out_then_wait_for_bb_comes_in_at_the_big_blind_owing_nothing():
    g = BettingTable()
    sat_out_a_whole_orbit(g)
    g.table.wait_for_bb(g.t, 4)
    walk(g, 4)                                   # sb 1, bb 2
    assert 4 not in g.table.entitled(1, [1, 2, 3, 4])     # sb 2, bb 3
    walk(g, 1)
    assert 4 in g.table.entitled(2, [1, 2, 3, 4])         # sb 3, bb 4
    h = g.start(button=2)
    assert g.found() == [] and h.bets[4] == 2 and not g.table.owes


def test_sit_out_near_miss_back_before_any_blind_passes_is_just_dealt_in():
    g = BettingTable()
    walk(g, 1)                                   # sb 2, bb 3
    g.table.sit_out(g.t, 2)                      # steps away after posting the small blind
    g.table.back_in(g.t, 2)                      # and is back before the next deal
    assert 2 in g.table.entitled(2, [1, 2, 3, 4]) and not g.table.returning
    g.start(button=2)
    assert g.found() == [] and not g.table.owes
