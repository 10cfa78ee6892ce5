"""Antes and the big-blind ante (game.ante, game.big_blind_ante) at any table: configured and validated, read
from the chips in the bet zones like the blinds, a missing or short ante flagged, the pots counted with them."""

from __future__ import annotations

import pytest

from dealerbox.config import ConfigError, from_dict, load
from dealerbox.engine.betting.antes import ante_dues

from .test_betting import BettingTable


def table(seats=(1, 3, 5), stack=200, kind="cash", **game) -> BettingTable:
    g = BettingTable("nlhe", seats=seats, stack=stack, small_blind=1, big_blind=2, **game)
    if kind == "tournament":
        g.config = from_dict({"table": {"seats": 9, "kind": "tournament"}, "game": {"variant": "nlhe", **game}})
        g.table.config = g.config
    return g


def actions(g: BettingTable, kind: str) -> list[tuple[int, int]]:
    return [(e.seat, e.amount) for e in g.events if e.kind == "ActionTaken" and e.action == kind]


# --- configuration ------------------------------------------------------------------------------------------

def test_antes_are_read_from_the_game_section(tmp_path):
    f = tmp_path / "t.toml"
    f.write_text("[game]\nante = 5\nsmallest_chip = 5\nsmall_blind = 5\nbig_blind = 10\nbuy_in = 500\n")
    c = load(f)
    assert (c.game.ante, c.game.big_blind_ante) == (5, 0)
    assert from_dict({}).game.ante == 0 and from_dict({}).game.big_blind_ante == 0


@pytest.mark.parametrize("text, needle", [
    ("[game]\nante = -1\n", "game.ante: -1 is less than the minimum of 0"),
    ("[game]\nante = 2\nbig_blind_ante = 2\n", "game.ante: 2 is set with game.big_blind_ante 2"),
    ("[game]\nsmallest_chip = 5\nsmall_blind = 5\nbig_blind = 10\nante = 3\n", "game.ante: 3 cannot be made"),
    ("[game]\nbig_blind_ante = \"two\"\n", "game.big_blind_ante: 'two' is not of type 'integer'"),
])
def test_a_bad_ante_is_named(tmp_path, text, needle):
    f = tmp_path / "bad.toml"
    f.write_text(text)
    with pytest.raises(ConfigError, match=needle):
        load(f)


def test_who_owes_what():
    assert ante_dues(5, 0, [1, 3, 4], 4) == {1: 5, 3: 5, 4: 5}
    assert ante_dues(0, 10, [1, 3, 4], 4) == {4: 10}
    assert ante_dues(0, 0, [1, 3, 4], 4) == {}


# --- posting -------------------------------------------------------------------------------------------------

def test_ante_and_blind_in_one_motion_or_two_either_order_come_to_the_same():
    results = []
    for big_blind_motions in ([3], [1, 2], [2, 1]):
        g = table(ante=1)
        h = g.start(button=1, post=False, deal=False)
        g.put(1, 1)
        g.put(3, 1)
        g.put(3, 1)
        for m in big_blind_motions:
            g.put(5, m)
        g.deal()
        assert g.found() == []
        results.append((sorted(actions(g, "ante")), h.seats[5].wager, h.seats[3].wager, h.pot_total(), h.to_act))
    assert results[0] == results[1] == results[2]
    assert results[0][0] == [(1, 1), (3, 1), (5, 1)] and results[0][1:3] == (2, 1) and results[0][4] == 1


def test_antes_are_in_the_pot_and_a_big_blind_ante_is_dead_money_in_the_main_pot():
    g = table(ante=2)
    h = g.start(button=1, post=False, deal=False)
    for s in (1, 3, 5):
        g.put(s, 2)
    g.put(3, 1)
    g.put(5, 2)
    g.deal()
    g.put(1, 2)
    g.put(3, 1)
    g.check(5)
    assert h.pot_total() == 6 + 6 and g.table.stacks == {1: 196, 3: 196, 5: 196}
    g = table(big_blind_ante=2)
    h = g.start(button=1, post=False, deal=False)
    g.put(3, 1)
    g.put(5, 2)
    g.put(5, 2)
    g.deal()
    assert actions(g, "ante") == [(5, 2)] and h.dead_money == {5: 2} and h.seats[5].wager == 2
    g.fold(1)
    g.fold(3)
    pots, stacks = h.settle(g.t, [(5,)])
    assert stacks == {1: 200, 3: 199, 5: 201}


def test_a_missing_ante_is_flagged_when_the_deal_starts_and_a_near_miss_is_quiet():
    g = table(ante=1)
    g.start(button=1, post=False, deal=False)
    g.put(1, 1)
    g.put(3, 2)
    g.put(5, 2)
    g.deal()
    f = [f for f in g.found() if f.rule == "blinds.10"]
    assert [(x.seats, x.outcome, x.severity) for x in f] == [((5,), "continues", "dealer")]
    assert "without posting the ante of 1" in f[0].ruling


def test_a_short_ante_with_chips_behind_must_be_brought_up():
    g = table(ante=5)
    g.start(button=1, post=False, deal=False)
    g.put(1, 2)
    g.put(3, 6)
    g.put(5, 7)
    g.deal()
    f = [f for f in g.found() if f.rule == "blinds.10"]
    assert [(x.seats, x.outcome) for x in f] == [((1,), "wager-corrected")] and "bring it up by 3" in f[0].ruling


def test_a_short_all_in_ante_is_tournament_19_at_a_tournament_table_and_quiet_at_a_cash_table():
    for kind, want in (("tournament", [((1,), "continues", "info")]), ("cash", [])):
        g = table(stack={1: 1, 3: 200, 5: 200}, kind=kind, ante=2)
        h = g.start(button=1, post=False, deal=False)
        g.put(1, 1)
        g.put(3, 3)
        g.put(5, 4)
        g.deal()
        got = [(f.seats, f.outcome, f.severity) for f in g.found()]
        assert got == want, kind
        assert h.all_in(1) and h.to_act != 1


def test_an_ante_nobody_matched_goes_back():
    g = table(seats=(1, 3), stack={1: 1, 3: 200}, ante=2)
    h = g.start(button=1, post=False, deal=False)
    g.put(1, 1)           # the button (small blind heads-up) is all in on the ante
    g.put(3, 4)           # big blind 2 and ante 2
    g.deal()
    pots, stacks = h.settle(g.t, [(1,)])
    assert [p.amount for p in pots] == [2] and stacks == {1: 2, 3: 199}


def test_a_misdeal_gives_the_antes_back():
    g = table(ante=1)
    h = g.start(button=1, post=False, deal=False)
    for s, amount in ((1, 1), (3, 2), (5, 3)):
        g.put(s, amount)
    g.events += h.refund(g.t, "misdeal")
    assert g.table.stacks == {1: 200, 3: 200, 5: 200}


def test_a_big_blind_all_in_for_less_is_tournament_19_at_a_tournament_table_only():
    for kind, want in (("tournament", [((5,), "tournament.19", "info")]), ("cash", [])):
        g = table(stack={1: 200, 3: 200, 5: 1}, kind=kind)
        h = g.start(button=1, post=False, deal=False)
        g.put(3, 1)
        g.put(5, 1)
        g.deal()
        assert [(f.seats, f.rule, f.severity) for f in g.found()] == want, kind
        assert h.all_in(5) and h.seats[5].wager == 1
