"""Wrong chip pushes through the real Pipeline (issue 31, tests/faults/wrong_push.py): in simulated hands with side
pots, uncalled bets and split pots, the dealer pushes chips where the cards do not send them (a share to a loser,
a side pot to the all-in player who cannot win it, the uncalled part of a bet to the winner, a split paid
unevenly), then carries out the ruling: the chips pulled back into the pot and pushed to their seat. Each hand:
``showdown.3`` at the wrong push and nothing else above ``info``, the hand ended once, complete, with pokerkit's
stacks; the hands after it on the same table likewise (a misaward left open would end the hand late and rule
again at the next deal)."""

from __future__ import annotations

from collections import Counter

import pytest

from tests.faults.table_run import SPLIT_VARIANTS, run
from tests.faults.wrong_push import PUSH_FAULTS

# (hands per variant, injected at least): the side pot, the uncalled bet and the split need hands that allow them
PLAN = {"wrong-push-to-a-loser": (8, 32), "wrong-push-side-pot": (24, 12), "wrong-push-uncalled": (24, 6)}


@pytest.mark.parametrize("kind", sorted(PLAN))
def test_a_wrong_push_is_ruled_at_once_and_its_remedy_leaves_the_hand_and_the_table_right(kind):
    hands, least = PLAN[kind]
    stats: Counter = Counter()
    run((kind,), hands, seed=31, stats=stats)    # raises Cascade at the first hand that breaks the property
    assert stats[f"injected {kind}"] >= least, stats
    assert stats["outcome complete"] == stats[f"injected {kind}"], stats


def test_a_split_pot_paid_unevenly_is_ruled_and_put_right_in_the_split_games():
    stats: Counter = Counter()
    run(("wrong-push-split",), 16, seed=31, variants=SPLIT_VARIANTS, stats=stats)
    assert stats["injected wrong-push-split"] >= 6, stats


def test_a_split_side_pot_paid_unevenly_to_a_seat_given_its_uncalled_chips_straight_back_is_ruled():
    # seed 31, plhe, table 2, hand 6: seat 3's uncalled 26 went back from its bet zone, never into the pot; counted
    # as owed from the pot, it hid 6 of seat 4's share of the tied side pot pushed to seat 3 (issue 31)
    stats: Counter = Counter()
    run(("wrong-push-split",), 14, seed=31, variants=("plhe",), stats=stats)
    assert stats["injected wrong-push-split"] >= 1, stats


def test_every_wrong_push_class_is_a_table_class_ruled_by_showdown_3():
    from tests.faults.coverage import INJECTED
    from tests.faults.table_run import EXPECTED, MUTATIONS
    for kind in PUSH_FAULTS:
        assert MUTATIONS[kind] is PUSH_FAULTS[kind] and EXPECTED[kind] == {"showdown.3"}
        assert f"table:{kind}" in INJECTED["showdown.3"]
