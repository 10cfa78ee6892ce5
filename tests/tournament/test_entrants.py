"""Who is dealt in (Tournaments 3, 5, 9, 11), rebuys (33), the heads-up cap (22) and foreign chips (24)."""

from pathlib import Path

from dealerbox.tournament import config as tc
from dealerbox.tournament.entrants import Entitled, away_hand_dead, check_deal, entitled, rebuy_announced
from dealerbox.tournament.table import foreign_chip, raise_past_cap

T = tc.load(Path(__file__).parents[2] / "docs" / "tournament.example.toml")     # T01:9 held until level 3


def test_every_paid_seat_is_dealt_in_at_the_first_deal_present_or_not():
    e = entitled(T, "T01", paid={1, 2, 3, 5}, away={5}, level=1)
    assert e.seats == {1, 2, 3, 5, 9} and e.held == {9}
    out = check_deal(e, dealt={1, 2, 3}, first_of_event=True)
    assert (out[0].rule, out[0].outcome, out[0].seats) == ("tournament.3", "misdeal", (5, 9))
    fine = check_deal(e, dealt={1, 2, 3, 5, 9}, first_of_event=True)
    assert [(r.rule, r.outcome) for r in fine] == [("tournament.9", "continues")]      # post for 5 and 9
    assert fine[0].seats == (5, 9)


def test_an_away_seat_dealt_out_later_is_a_misdeal_but_a_present_one_is_the_engines_call():
    e = entitled(T, "T02", paid={1, 2, 3, 5}, away={5}, level=2)
    assert e.held == frozenset()                              # T01's held seat is not this table's
    assert check_deal(e, dealt={1, 2, 3})[0].rule == "tournament.9"
    assert check_deal(Entitled(frozenset({1, 2, 3}), frozenset(), frozenset()), dealt={1, 2}) == ()


def test_a_held_seat_is_posted_for_until_sold_or_the_late_entry_closes():
    assert check_deal(entitled(T, "T01", {1, 2, 3}, set(), 2), {1, 2, 3, 9})[0].rule == "tournament.5"
    assert entitled(T, "T01", {1, 2, 3}, set(), 2, sold=frozenset({9})).held == frozenset()
    assert entitled(T, "T01", {1, 2, 3}, set(), 4).held == frozenset()              # late entry closed


def test_an_away_player_not_back_by_the_last_starting_card_has_a_dead_hand():
    e = entitled(T, "T02", paid={1, 2, 3}, away={3}, level=1)
    assert away_hand_dead(e, {3}, last_card_dealt=False) is None
    r = away_hand_dead(e, {3}, last_card_dealt=True)
    assert (r.rule, r.outcome, r.seats) == ("tournament.11", "dead-hand", (3,))
    assert away_hand_dead(e, set(), last_card_dealt=True) is None                   # came back in time


def test_a_rebuy_binds_within_the_configured_limits():
    assert "dealt in now" in rebuy_announced(T, 4, level=2, stack=0, rebuys_made=0).ruling
    assert "closed after level 2" in rebuy_announced(T, 4, level=3, stack=0, rebuys_made=0).ruling
    assert "1 rebuy(s) allowed" in rebuy_announced(T, 4, level=1, stack=0, rebuys_made=1).ruling
    assert "over the 20000" in rebuy_announced(T, 4, level=1, stack=20050, rebuys_made=0).ruling


def test_the_limit_cap_holds_heads_up_until_two_players_remain_in_the_event():
    r = raise_past_cap(3, players_in_event=14, raises=4, seat=2)
    assert (r.rule, r.outcome) == ("tournament.22", "wager-corrected")
    assert raise_past_cap(3, players_in_event=14, raises=3, seat=2) is None
    assert raise_past_cap(3, players_in_event=2, raises=7, seat=2) is None


def test_a_chip_outside_the_tournament_set_does_not_play():
    values = {c.value for c in T.chips}
    assert foreign_chip(values, 100, house_ok=True, seat=3) is None
    assert foreign_chip(values, 5, house_ok=True, seat=3).rule == "tournament.24"
    assert "another house" in foreign_chip(values, 100, house_ok=False, seat=3).ruling


def test_a_moved_in_player_is_dealt_in_at_once():
    from dealerbox.tournament.entrants import moved_in_deal

    out = moved_in_deal({6}, dealt={1, 2, 3})
    assert (out[0].rule, out[0].outcome, out[0].seats) == ("tournament.15", "misdeal", (6,))
    assert moved_in_deal({6}, dealt={1, 2, 3, 6})[0].outcome == "continues"
    assert moved_in_deal(set(), dealt={1, 2}) == ()


def test_cards_shown_in_the_deal_and_deck_changes():
    from dealerbox.tournament.table import cards_shown_during_deal, deck_changed

    assert cards_shown_during_deal(4, players_in_event=9).rule == "tournament.21"
    assert cards_shown_during_deal(4, players_in_event=2) is None
    assert deck_changed("D1", "D2", dealer_changed=False, damaged_card=False).rule == "tournament.28"
    assert deck_changed("D1", "D2", dealer_changed=True, damaged_card=False) is None
    assert deck_changed("D1", "D2", dealer_changed=False, damaged_card=True) is None
    assert deck_changed("D1", "D1", dealer_changed=False, damaged_card=False) is None
