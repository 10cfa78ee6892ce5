"""One fault, one ruling (issue 18), as a property: a fixed-seed slice of the fault-injection run. Each fault
class in each betting structure, injected into clean random hands: the expected rule at the fault, nothing
above ``info`` for the rest of the hand, and pokerkit's stacks at the end (every remedy here restores the clean
hand). The large run is tools/fault-injection; its figures are in docs/engine.md."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from tests.faults.harness import VARIANTS
from tests.faults.players import FAULTS
from tests.test_crosscheck_pokerkit import play_one


@pytest.mark.parametrize("fault", FAULTS, ids=[f.__name__ for f in FAULTS])
def test_one_fault_gives_one_ruling_and_the_hand_plays_on(fault):
    stats: Counter = Counter()
    for variant in VARIANTS:
        rng = random.Random(f"{fault.__name__}-{variant}-suite")
        for _ in range(40):
            play_one(rng, variant, stats, players=fault, straddle=fault.straddle_table)
    assert stats["hands"] == 40 * len(VARIANTS)
    # the fault really happened, often: a class that never fires would prove nothing
    assert stats[f"injected {fault.__name__}"] >= 10, stats
    if fault.__name__ == "OutOfTurnCall":
        assert stats["questions asked"] >= 5, stats
