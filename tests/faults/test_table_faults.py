"""One fault, one ruling, for whole hands through the real Pipeline (issue 18): a fixed-seed slice of the
table run (tests/faults/table_run.py). Every fault class the simulator stages (the Cards rows a sensor raises,
the premature flop, the odd chips and string bets), the faults edited into its clean hands (a pot tapped to the
wrong seat first, a flashed card, an out-of-turn check, an extra card after the deal, a folded card thrown onto
another hand) and the card faults the harness stages itself with spare cards (tests/faults/staged_cards.py,
staged_misdeals.py: premature turns and rivers, exposed and boxed cards, four-card flops, short deals, the
button puck out of place, a winner mucking unshown...), in each betting structure, on tables of 2 to 10 seats:
the expected rule at the fault, nothing above ``info`` for the rest of the hand, the outcome and the stacks the
remedy implies. The large run is tools/fault-injection; its figures are in docs/engine.md."""

from __future__ import annotations

from collections import Counter

import pytest

from tests.faults.table_run import CARD_KINDS, CHIP_KINDS, MUTATIONS, run

STAGED = CARD_KINDS + CHIP_KINDS + tuple(MUTATIONS)
HANDS = 12
# classes whose chance is rarer: a hand mucked unshown needs a showdown with one clear next best hand (and a new
# table after it), a short deck only a table's first hand (it loads the shoe), reversed blinds a heads-up hand
RARE = {"mucked-unshown": HANDS // 4, "deck-short": HANDS // 4, "heads-up-blinds-reversed": HANDS // 8}


@pytest.mark.parametrize("kind", STAGED)
def test_one_staged_fault_gives_one_ruling_through_the_pipeline(kind):
    stats: Counter = Counter()
    run((kind,), HANDS, seed=5, stats=stats)
    # the fault really happened, in a quarter of the hands at least: a class that never fires would prove nothing
    assert stats[f"injected {kind}"] >= RARE.get(kind, HANDS), stats


def test_the_slice_spans_small_and_full_tables():
    stats: Counter = Counter()
    run(("boxed-card", "out-of-sequence"), HANDS, seed=5, stats=stats)
    seats = {int(k.split()[1]) for k in stats if k.startswith("seats ")}
    assert min(seats) <= 4 and max(seats) >= 8, seats
