"""Rulings at one table: button draw (29), dead button (30), heads-up (31), short posts (19), places (35)."""

import pytest

from dealerbox.tournament.table import (
    Positions, button_by_high_card, check_blinds, dead_button, finishing_places, forced_posts, heads_up,
    short_post_rulings)


def test_the_button_goes_to_the_highest_card_suits_breaking_ties():
    r = button_by_high_card({1: "Kd", 3: "Ks", 7: "Kh"})
    assert (r.rule, r.seats, r.outcome) == ("tournament.29", (3,), "continues")
    wrong = button_by_high_card({1: "Kd", 3: "Ks"}, puck=1)
    assert (wrong.outcome, wrong.seats) == ("misdeal", (3,)) and "not seat 1" in wrong.ruling
    assert button_by_high_card({1: "Kd", 3: "Ks"}, puck=3).outcome == "continues"   # near miss
    with pytest.raises(ValueError, match="not a card"):
        button_by_high_card({1: "K?"})


def test_the_dead_button_moves_the_big_blind_one_player_and_leaves_empty_seats_behind_it():
    # last deal: button 1, small blind 2, big blind 3; seat 2 then busted
    p = dead_button(last_small_blind=2, last_big_blind=3, occupied={1, 3, 5, 8}, seats=9)
    assert (p.button, p.small_blind, p.big_blind) == (2, 3, 5)
    assert p.dead_button and not p.dead_small_blind
    p = dead_button(last_small_blind=2, last_big_blind=3, occupied={1, 2, 5, 8}, seats=9)   # seat 3 left
    assert (p.small_blind, p.big_blind, p.dead_small_blind, p.dead_button) == (3, 5, True, False)


def test_heads_up_the_button_posts_the_small_blind():
    p = heads_up(button=4, occupied={4, 8})
    assert (p.small_blind, p.big_blind) == (4, 8)
    wrong = check_blinds(p, small_blind=8, big_blind=4, action_started=False)
    assert (wrong.rule, wrong.outcome) == ("tournament.31", "misdeal")
    late = check_blinds(p, small_blind=8, big_blind=4, action_started=True)
    assert late.outcome == "continues"
    assert check_blinds(p, small_blind=4, big_blind=8, action_started=False) is None


def test_misplaced_blinds_under_the_dead_button_cite_rule_30():
    p = Positions(button=2, small_blind=3, big_blind=5, dead_button=True, dead_small_blind=True)
    r = check_blinds(p, small_blind=3, big_blind=5, action_started=False)     # nobody posts at an empty seat
    assert (r.rule, r.outcome) == ("tournament.30", "misdeal") and "small blind none" in r.ruling
    assert check_blinds(p, small_blind=None, big_blind=5, action_started=False) is None


def test_a_player_short_of_a_blind_or_ante_is_all_in_for_what_they_have():
    posts = forced_posts({1: 1000, 2: 60, 3: 250, 4: 1000}, small_blind=2, big_blind=3,
                         level_amounts=(100, 200, 25, 0))
    by = {(p.seat, p.what): p for p in posts}
    assert by[(2, "ante")].amount == 25 and by[(2, "small blind")].amount == 35 and by[(2, "small blind")].all_in
    assert by[(3, "big blind")].amount == 200 and not by[(3, "big blind")].all_in
    rulings = short_post_rulings(posts)
    assert [r.seats for r in rulings] == [(2,)] and rulings[0].rule == "tournament.19"


def test_the_big_blind_ante_is_posted_after_the_big_blind():
    posts = forced_posts({1: 1000, 2: 1000, 3: 250}, small_blind=2, big_blind=3, level_amounts=(100, 200, 0, 200))
    bb = [p for p in posts if p.seat == 3]
    assert [(p.what, p.amount) for p in bb] == [("big blind", 200), ("big blind ante", 50)]
    assert [r.ruling.split(" of ")[1] for r in short_post_rulings(posts)] == [
        "the 200 big blind ante; a side pot takes the rest, and winning owes no make-up"]
    full = forced_posts({1: 1000, 2: 1000, 3: 400}, 2, 3, (100, 200, 0, 200))
    assert short_post_rulings(full) == ()            # near miss: exactly enough is not short


def test_players_broke_in_the_same_hand_place_by_their_chips_at_its_start():
    places, rulings = finishing_places({2: 3000, 5: 8000, 7: 1200}, remaining_before=10)
    assert {e.seat: e.place for e in places} == {5: 8, 2: 9, 7: 10}
    assert all(r.rule == "tournament.35" and r.severity == "info" for r in rulings)
    tied, rulings = finishing_places({2: 3000, 5: 3000}, remaining_before=4)
    assert {e.place for e in tied} == {3} and rulings[-1].severity == "floor"
    single, _ = finishing_places({4: 500}, remaining_before=2)
    assert single[0].place == 2
