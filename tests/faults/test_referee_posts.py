"""The referee trick that lets pokerkit referee killed pots and missed blinds made up (issue 18): a post given as
a NEGATIVE blind is posted live (pokerkit posts its absolute value) but does not move the preflop opener (pokerkit
opens left of the largest POSITIVE blind), so the killer, or a returning player's big blind, acts in proper turn;
a dead post is a per-player ante; a killed pot's limits are the streets' bet sizes scaled. Each case is checked
against the engine's own betting of the same hand (tests/test_betting.BettingTable)."""

from __future__ import annotations

import random

from pokerkit import BettingStructure

from dealerbox.config import from_dict
from dealerbox.sources.sim.referee import Posts, live_blinds, referee_state
from tests.test_betting import BettingTable


def dealt(variant: str, stacks: tuple[int, ...], posts: Posts, **game):
    g = from_dict({"game": {"variant": variant, **game}}).game
    structure = {"flhe": BettingStructure.FIXED_LIMIT, "nlhe": BettingStructure.NO_LIMIT}[variant]
    st = referee_state(g, structure, 2, stacks, random.Random(1), posts=posts)
    while st.can_deal_hole():
        st.deal_hole()
    return st


def test_a_negative_blind_is_posted_live_and_leaves_the_opener_left_of_the_big_blind():
    # seats 1-4, button 4: pokerkit's player 3 is the button, who kills for 4 (2x the big blind of 2)
    st = dealt("flhe", (200,) * 4, Posts({3: 4}, {}, 2.0), kill="full")
    assert st.bets == [1, 2, 0, 4] and st.stacks[3] == 196
    assert st.actor_index == 2                                   # the seat left of the big blind opens
    assert st.checking_or_calling_amount == 4                    # the kill is the amount to call
    assert st.min_completion_betting_or_raising_to_amount == 8   # limits doubled: a raise is 4 more
    # the engine's betting of the same hand (test_kill's table: seat 4 must kill, button 4)
    from tests.test_kill import kill_table, steal
    g = kill_table()
    steal(g, 1, 4)
    steal(g, 3, 4)
    h = g.start(button=4, post=False, deal=False)
    g.put(1, 1)
    g.put(2, 2)
    g.put(4, 4)
    g.deal()
    assert h.to_act == 3 and h.current_bet == 4 and h.structure.unit("preflop") == 4


def test_a_killer_in_a_blind_replaces_it_and_the_opener_stays_put():
    for index in (0, 1):                                         # the small blind, the big blind killing
        st = dealt("nlhe", (200,) * 4, Posts({index: 4}, {}, 2.0), kill="full")
        assert st.bets[index] == 4 and st.actor_index == 2
        assert st.min_completion_betting_or_raising_to_amount == 8   # no-limit: a raise of the kill at least
    # heads-up pokerkit reads its blinds reversed: the button (player 1) acts first either way
    assert live_blinds((1, 2), {1: 4}, 2) == (-4, 2) and live_blinds((1, 2), {0: 4}, 2) == (1, 4)
    for index in (0, 1):
        st = dealt("nlhe", (200, 200), Posts({index: 4}, {}, 2.0), kill="full")
        assert st.bets[index] == 4 and st.actor_index == 1


def test_missed_blinds_made_up_play_live_and_dead_out_of_position():
    # five players, pokerkit's player 3 back from sitting out: the big blind live, the small blind dead
    st = dealt("nlhe", (200,) * 5, Posts({3: 2}, {3: 1}))
    assert st.bets == [1, 2, 0, 2, 0] and st.stacks[3] == 197   # 1 of its 3 is dead: not its bet
    assert st.actor_index == 2 and st.checking_or_calling_amount == 2
    assert st.min_completion_betting_or_raising_to_amount == 4  # the make-up is no raise
    # the engine charges the same seat the same make-up, in one motion before the deal
    g = BettingTable("nlhe", seats=(1, 2, 3, 4, 5))
    g.table.owes[4] = {"sb", "bb"}
    h = g.start(button=5, post=False, deal=False)
    g.put(1, 1)
    g.put(2, 2)
    g.put(4, 3)
    g.deal()
    assert h.bets[4] == 2 and h.dead_money == {4: 1} and h.to_act == 3
