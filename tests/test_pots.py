"""Main and side pots, the odd chip, refunds on misdeal/void: what HandEnded reports."""

from __future__ import annotations

from dealerbox.engine.events import Pot
from dealerbox.engine.betting.pots import build_pots, split, uncalled
from tests.test_betting import BettingTable


def test_side_pots_from_two_all_ins_split_separately():
    g = BettingTable(stack={1: 200, 2: 30, 3: 60, 4: 200})
    h = g.start()
    g.put(4, 200)                # all-in 200
    g.fold(1)
    g.put(2, 29)                 # all-in 30
    g.put(3, 58)                 # all-in 60
    g.street("showdown")
    pots = h.pots()
    assert [(p.amount, p.eligible) for p in pots] == [(90, (2, 3, 4)), (60, (3, 4))]
    done, stacks = h.settle(g.t, [(2,), (3, 4)])
    assert [p.shares for p in done] == [{2: 90}, {3: 30, 4: 30}]
    assert stacks == {1: 200, 2: 90, 3: 30, 4: 170}     # seat 4's unmatched 140 went back
    assert sum(stacks.values()) == 490


def test_odd_chip_goes_first_clockwise_from_the_button_one_each():
    pot = Pot(101, (2, 5, 8))
    assert split(pot, (8, 5), button=6, table_seats=9).shares == {8: 51, 5: 50}
    assert split(Pot(101, (1, 2, 3)), (1, 2, 3), button=1, table_seats=9).shares == {2: 34, 3: 34, 1: 33}
    assert split(Pot(25, (1, 2)), (1, 2), button=1, table_seats=9, unit=5).shares == {2: 15, 1: 10}


def test_folded_chips_stay_and_uncalled_part_is_not_a_pot():
    assert uncalled({1: 50, 2: 20, 3: 5}) == (1, 30)
    pots = build_pots({1: 20, 2: 20, 3: 5}, live={1, 2}, dead_money=3)
    assert pots == [Pot(48, (1, 2))]


def test_refund_on_misdeal_gives_every_chip_back():
    g = BettingTable()
    h = g.start()
    g.put(4, 6)
    events = h.refund(g.t, "misdeal")
    assert g.table.stacks == {1: 200, 2: 200, 3: 200, 4: 200}
    assert {e.seat for e in events} == {2, 3, 4} and all(e.reason == "refund" for e in events)
    assert h.settle(g.t, [])[0] == []                   # nothing left to award


def test_dead_money_joins_the_main_pot_and_is_refunded_to_its_owner():
    g = BettingTable()
    g.table.owes[4] = {"sb", "bb"}
    h = g.start(deal=False)
    g.put(4, 3)                                         # 2 live, 1 dead
    assert h.dead_money == {4: 1} and h.pots()[0].amount == 6
    h.refund(g.t, "void")
    assert g.table.stacks[4] == 200
