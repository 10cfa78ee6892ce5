"""The fault-injection run: clean random hands from the pokerkit cross-check (NL, FL, PL hold'em and PLO, 2-6
seats, short stacks for all-ins and side pots), each with one fault of one class injected and its remedy
applied. play_one checks the stacks against pokerkit's; the faulty players check the findings (the expected
rule at the fault, nothing above ``info`` anywhere else in the hand)."""

from __future__ import annotations

import random
from collections import Counter

from tests.faults.players import FAULTS
from tests.test_crosscheck_pokerkit import play_one

VARIANTS = ("nlhe", "plhe", "flhe", "plo")


def run(hands_per_pair: int, seed: int) -> Counter:
    """Every fault class in every variant, ``hands_per_pair`` hands each. Stats: hands, injected per class."""
    stats: Counter = Counter()
    for fault in FAULTS:
        for variant in VARIANTS:
            rng = random.Random(f"{fault.__name__}-{variant}-{seed}")
            for _ in range(hands_per_pair):
                play_one(rng, variant, stats, players=fault, straddle=fault.straddle_table)
    return stats
