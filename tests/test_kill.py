"""Kill pots (Kill Pots 1-12): legs, the qualifying second leg, the required kill and its doubled limits."""

from __future__ import annotations

import pytest

from dealerbox.engine.betting.hand_betting import HandBetting
from tests.test_betting import BettingTable
from tests.test_betting_rules import only


def steal(g: BettingTable, button: int, raiser: int) -> None:
    """``raiser`` raises when its turn comes (folding everyone before it), everyone else folds."""
    h = g.start(button=button)
    while h.to_act is not None:
        seat = h.to_act
        if seat == raiser and not h.seats[seat].voluntary:
            g.put(seat, h.round.full_raise_level + h.structure.unit("preflop") - h.bets.get(seat, 0))
        else:
            g.fold(seat)
    h.settle(g.t, [])


def kill_table(**game) -> BettingTable:
    return BettingTable("flhe", kill="full", kill_qualifier=2, **game)


def killed_pot(deal: bool = True) -> tuple[BettingTable, HandBetting]:
    """A kill table where seat 4 won two pots in a row: the hand with button 4, blinds and seat 4's kill of 4
    posted (and the cards dealt, unless ``deal`` is False). Returns the table and the hand."""
    g = kill_table()
    steal(g, 1, 4)
    steal(g, 3, 4)
    h = g.start(button=4, post=False, deal=False)
    g.put(1, 1)
    g.put(2, 2)
    g.put(4, 4)
    if deal:
        g.deal()
    return g, h


def test_kill_two_qualifying_wins_in_a_row_require_a_kill():
    g = kill_table()
    steal(g, 1, 4)                                # first leg: no size needed (Kill Pots 3)
    assert g.table.kill.holder == 4 and g.table.kill.due is None
    steal(g, 3, 4)                                # second leg: raises from the small blind, wins 2 >= 2
    assert g.table.kill.due == 4
    assert g.table.blinds_for(4, [1, 2, 3, 4]) == {1: 1, 2: 2, 4: 4}
    h = g.start(button=4, post=False, deal=False)
    f = only(g, "kill.3")
    assert f.seats == (4,) and "4" in f.ruling
    g.put(1, 1)
    g.put(2, 2)
    g.put(4, 4)         # the blinds, then the kill
    g.deal()
    assert h.structure.unit("preflop") == 4 and h.current_bet == 4   # limits doubled
    assert h.to_act == 3 and h.round.pending == [3, 4, 1, 2]       # the killer acts in turn (Kill Pots 2)


def test_kill_near_miss_second_pot_too_small_is_no_leg():
    g = BettingTable("flhe", kill="full", kill_qualifier=10)
    steal(g, 1, 4)
    steal(g, 3, 4)                                # wins 2 < 10
    assert g.table.kill.due is None
    g.start(button=4)
    assert g.found() == []


def test_kill6_required_kill_not_posted():
    g = kill_table()
    steal(g, 1, 4)
    steal(g, 3, 4)
    g.start(button=4, post=False, deal=False)
    g.put(1, 1)
    g.put(2, 2)
    g.deal()
    f = only(g, "kill.6")
    assert f.outcome == "wager-corrected" and f.seats == (4,)


def test_kill11_only_one_kill_per_deal():
    g, h = killed_pot(deal=False)
    g.put(3, 4)                                   # a second overblind
    f = only(g, "kill.11")
    assert f.seats == (3, 4) and h.bets.get(3, 0) == 0


def test_kill9_unaware_of_the_kill_puts_in_the_big_blind():
    g, h = killed_pot()
    g.put(3, 2)                                   # only the big blind: the kill button is up
    f = only(g, "kill.9")
    assert "full 4" in f.ruling and h.bets[3] == 4


def test_kill7_killer_who_wins_kills_again():
    g, h = killed_pot()
    while h.to_act is not None:
        g.check(4) if h.to_act == 4 else g.fold(h.to_act)
    h.settle(g.t, [])
    assert g.table.kill.due == 4
    g.start(button=1, post=False)
    assert only(g, "kill.7").seats == (4,)


def test_kill12_new_player_in_a_killed_pot():
    g = kill_table(seats=(1, 2, 3, 4))
    steal(g, 1, 4)
    steal(g, 3, 4)
    g.sit(6, 200)
    g.start(button=4, dealt=[1, 2, 3, 4, 6], post=False)
    assert only(g, "kill.12").seats == (6,)


def test_kill1_split_pot_without_the_holder_leaves_the_button_neutral():
    g = kill_table()
    steal(g, 1, 4)
    kill = g.table.kill
    kill.record_win((1, 2), 10, None)
    assert kill.holder is None                  # Kill Pots 1(c)
    kill.record_win((4,), 10, None)
    kill.record_win((4, 2), 10, None)           # Kill Pots 4: a split keeps the leg
    assert kill.holder == 4 and kill.due is None
    g.events += g.table.leave(g.t, 4)           # Kill Pots 1(b): the winner quit
    assert kill.holder is None


def test_kill5_a_leg_survives_the_holder_stepping_away():
    g = kill_table()
    steal(g, 1, 4)                              # seat 4 has a leg up
    g.events += g.table.leave(g.t, 4)
    assert g.table.kill.holder is None          # Kill Pots 1(b): the button is neutral while seat 4 is gone
    g.sit(4, 200)
    assert g.table.kill.holder == 4             # Kill Pots 5: back in the game, still a leg up


def test_kill5_near_miss_a_pot_won_while_away_ends_the_leg():
    g = kill_table()
    steal(g, 1, 4)
    g.events += g.table.leave(g.t, 4)
    g.table.kill.record_win((2,), 10, None)     # someone else won a pot meanwhile
    g.sit(4, 200)
    assert g.table.kill.holder == 2


# --- the kill button puck -------------------------------------------------------------------------------------

def test_kill_puck_in_front_of_the_last_winner_is_quiet():
    g = kill_table()
    steal(g, 1, 4)
    assert g.table.kill_puck(g.t, 4) == []


def test_kill_puck_in_front_of_a_seat_without_a_leg():
    g = kill_table()
    steal(g, 1, 4)
    (f,) = g.table.kill_puck(g.t, 2)
    assert f.rule == "kill.3" and f.seats == (2, 4) and f.severity == "dealer" and "seat 4" in f.ruling


def test_kill_puck_when_the_button_is_neutral():
    g = kill_table()
    (f,) = g.table.kill_puck(g.t, 1)             # the first hand of a new game (Kill Pots 1a)
    assert f.rule == "kill.1" and f.seats == (1,)
    steal(g, 1, 4)
    g.events += g.table.leave(g.t, 4)            # the holder quits: neutral (1b) ...
    assert g.table.kill_puck(g.t, 4) == []       # ... but the leg waits at its seat (Kill Pots 5)
    assert g.table.kill_puck(g.t, 2)[0].rule == "kill.1"


def test_kill_puck_means_nothing_without_kill_pots():
    g = BettingTable()
    assert g.table.kill_puck(g.t, 2) == []


@pytest.mark.parametrize("button, blinds", [(3, {4: 4, 1: 2}), (2, {3: 1, 4: 4})],
                         ids=["killer-in-the-small-blind", "killer-in-the-big-blind"])
def test_kill_in_a_blind_seat_the_kill_is_the_whole_post(button, blinds):
    """The kill is the killer's blind for the hand, only larger: a killer in a blind seat posts the kill alone,
    the same amount wherever the killer sits (Kill Pots 7), and HandStarted.blinds says so."""
    g = kill_table()
    steal(g, 1, 4)
    steal(g, 3, 4)
    assert g.table.kill.due == 4
    assert g.table.blinds_for(button, [1, 2, 3, 4]) == blinds
    before = g.table.stacks[4]
    h = g.start(button=button)                    # posts exactly what blinds_for says
    assert g.loud() == [] and h.bets[4] == 4 and h.required[4] == ("kill", 4)
    assert g.table.stacks[4] == before - 4 and h.bets == blinds


def test_kill4_killer_who_splits_kills_again_and_the_next_hand_says_why():
    g, h = killed_pot()
    while h.to_act is not None and h.street == "preflop":
        seat = h.to_act
        if seat == 3:
            g.put(3, 4)                           # calls the kill
        elif seat == 4:
            g.check(4)
        else:
            g.fold(seat)
    h.settle(g.t, [(3, 4)])                       # seats 3 and 4 split the killed pot
    assert g.table.kill.due == 4
    g.start(button=1, post=False)
    f = only(g, "kill.4")                         # Kill Pots 4 (not 7): a split, not a win
    assert f.seats == (4,) and f.severity == "info" and "split" in f.ruling


def test_kill8_a_split_game_kills_after_a_big_scoop_not_after_two_wins():
    """Kill Pots 8: at an Omaha high-low kill table only a scoop of at least ``kill_scoop`` big bets (five by
    default: 20 at 2/4) forces a kill; two pots in a row, a pot split high and low, or a smaller scoop do not."""
    g = BettingTable("o8", kill="full", small_bet=2, big_bet=4)
    kill = g.table.kill
    assert kill.scoop_min == 20
    steal(g, 1, 4)
    steal(g, 2, 4)                              # two pots in a row: a kill under Kill Pots 3, none here
    assert kill.due is None and kill.holder is None
    assert kill.record_win((4, 2), 8, None, scooped=0) == ""      # high to one, low to the other: no scoop
    assert kill.record_win((4,), 15, None, scooped=19) == "" and kill.due is None
    assert "Kill Pots 8" in kill.record_win((4,), 15, None, scooped=20)
    assert (kill.due, kill.holder, kill.due_rule) == (4, 4, "kill.8")
    assert kill.record_win((4,), 3, 4, scooped=12) == ""          # the killer's small scoop: no kill again
    assert kill.due is None and kill.holder is None


def test_kill8_the_house_sets_the_scoop_size_and_high_only_games_keep_their_legs():
    assert BettingTable("plo8", kill="half", big_bet=10, kill_scoop=3).table.kill.scoop_min == 30
    assert BettingTable("plo5", kill="full").table.kill.scoop_min is None     # Big O high: the two-wins rule
    assert BettingTable("flhe", kill="full").table.kill.scoop_min is None


@pytest.mark.parametrize("qualifier, words", [(0, "won a second pot in a row: must kill"),
                                              (2, "won a second pot in a row of at least 2: must kill")])
def test_the_kill_reason_names_a_size_only_when_the_house_sets_one(qualifier: int, words: str) -> None:
    # the default counts every pot: "of at least 0" told the dealer nothing
    g = BettingTable("flhe", kill="full", kill_qualifier=qualifier)
    steal(g, 1, 4)
    steal(g, 3, 4)
    assert g.table.kill.due == 4 and words in g.table.kill_reason
