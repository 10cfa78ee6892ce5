"""Pot-Limit 6's option, refereed (issue 18): a fixed-seed slice of tests/faults/pot_option.py. Tables playing
the option (the small blind counted as a big blind when the pot is sized before the flop): clean hands that
raise to the option's pot, larger than pokerkit's own pot limit, are quiet and end with pokerkit's stacks (the
near miss); a raise to it with one chip too many is ruled pot-limit.6, the chip goes back, and the hand plays on
quiet to pokerkit's stacks. The large run is tools/fault-injection; its figures are in docs/engine.md."""

from __future__ import annotations

from collections import Counter

import pytest

from dealerbox.sources.sim.outcome import Expected
from tests.faults.pot_option import EXPECTED, KINDS, option_pot_raises, run
from tests.test_betting import BettingTable
from tests.test_betting_rules import only

TABLES = 3


@pytest.mark.parametrize("kind", KINDS)
def test_a_raise_over_the_options_pot_gives_one_ruling_and_the_hand_plays_on(kind):
    stats: Counter = Counter()
    run((kind,), TABLES, seed=5, stats=stats)
    assert stats["hands"] == 2 * TABLES * 16
    # the option's larger pot really came up: raises a default pot limit would have refused
    assert stats["raises to the option's pot"] >= 2 * TABLES, stats
    if EXPECTED[kind]:
        assert stats[f"ruled pot-limit.6 ({kind})"] >= 2 * TABLES, stats


def test_the_options_pot_is_one_big_blind_less_the_small_blind_larger_only_while_it_applies():
    exp = Expected(1, "plhe", 3, (4, 5, 6, 3), {4: 1, 5: 2}, {s: 500 for s in (3, 4, 5, 6)}, {})
    # seat 6 opens to the option's pot: 2 + (1 + 2 + 1) + 2 = 8 (the default pot limit: 7)
    exp.actions = [("preflop", 6, "raise", 8), ("preflop", 3, "raise", 27)]
    # seat 3: 8 + (1 + 2 + 8 + 1) + 8 = 28 under the option; 27 is within the default pot (27): no option raise
    assert option_pot_raises(exp, 1, 2) == [(0, 6, 8)]
    exp.actions = [("preflop", 6, "call", 2), ("preflop", 3, "call", 2), ("preflop", 4, "call", 2),
                   ("preflop", 5, "raise", 10)]
    # the small blind completed and the big blind raises: the option no longer applies (10 is the default pot)
    assert option_pot_raises(exp, 1, 2) == []


def test_a_raise_over_the_pot_after_the_option_stopped_applying_cites_the_default_rule():
    # the small blind completed: the pot is the chips in it, and the raise is cut back by Pot-Limit 4, not 6
    g = BettingTable("plhe", sb_counts_as_bb=True)
    h = g.start()                   # button 1, small blind 2, big blind 3
    g.put(4, 2)
    g.put(1, 2)
    g.put(2, 1)
    g.put(3, 12)                    # the pot is 8: the most the big blind may make it is 2 + 8 = 10
    f = only(g, "pot-limit.4")
    assert "10" in f.ruling and h.bets[3] == 10
    assert [x.rule for x in g.found() if x.severity != "info"] == ["pot-limit.4"]
