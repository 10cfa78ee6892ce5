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

from dealerbox.config import from_dict
from dealerbox.engine import inputs as ev
from dealerbox.pipeline import Pipeline
from dealerbox.sources.choreography import board_hello
from dealerbox.sources.simulator import Simulator
from dealerbox.tags import demo_registry
from dealerbox.wire import protocol as p
from tests.faults.table_run import (CARD_KINDS, CARRIED_ON, CHIP_KINDS, FOLLOWING, MUTATIONS, SHOWDOWN_INFO,
                                   SHOWDOWN_KINDS, SPLIT_INFO, SPLIT_KINDS, SPLIT_VARIANTS, VARIANTS, feed, run)

STAGED = CARD_KINDS + CHIP_KINDS + tuple(MUTATIONS)
HANDS = 12
# classes whose chance is rarer: a hand mucked unshown needs a showdown with one clear next best hand (and a new
# table after it), a short deck only a table's first hand (it loads the shoe), reversed blinds a heads-up hand
RARE = {"mucked-unshown": HANDS // 4, "deck-short": HANDS // 4, "heads-up-blinds-reversed": HANDS // 8,
        "check-raise-out-of-turn": 4}
# a check-raise forbidden after a check out of turn needs a seat that checks after another check and calls a bet
# later on that street (about 1 simulated hand in 40): its class plays more hands to reach it a few times
MORE = {"check-raise-out-of-turn": HANDS * 4}
# a wrong push needs a push that allows it (tests/faults/wrong_push.py): a side pot the all-in main pot winner cannot
# win, an uncalled bet with another winner, a pot split between winners (rare outside the split games)
RARE.update({"wrong-push-side-pot": HANDS // 4, "wrong-push-uncalled": HANDS // 8, "wrong-push-split": 1})


@pytest.mark.parametrize("kind", STAGED)
def test_one_staged_fault_gives_one_ruling_through_the_pipeline(kind):
    stats: Counter = Counter()
    run((kind,), MORE.get(kind, HANDS), seed=5, stats=stats)
    # the fault really happened, in a quarter of the hands at least: a class that never fires would prove nothing
    assert stats[f"injected {kind}"] >= RARE.get(kind, HANDS), stats
    if kind in CARRIED_ON:
        # a remedy that moved chips (the pot to the next best hand): the table carried on with the remedy's stacks,
        # and the hands after each fault were checked like any (nothing above info, the stacks right)
        assert stats[f"hands after {kind}"] >= FOLLOWING * stats[f"injected {kind}"] >= 2, stats


def test_a_tied_pots_odd_chip_goes_clockwise_from_the_button_and_every_showdown_rules_at_info():
    # the showdown slice: hold'em, Omaha and the split games, a flashed card tapped (info) in each hand; every tied
    # pot split as our own referee splits it (Ties 5a: the odd chip to the first winner clockwise from the button,
    # each side pot on its own; run raises Cascade otherwise) and the ruling naming that seat. Enough of them that
    # the row cannot drop out: odd chips, one the rule sends past a lower-numbered winner, a side pot split alone
    stats: Counter = Counter()
    run(SHOWDOWN_KINDS, 24, seed=31, variants=VARIANTS + SPLIT_VARIANTS, stats=stats)
    for rule in SHOWDOWN_INFO:
        assert stats[f"info {rule}"] >= 4, stats
    assert stats["ties.5a split pots"] >= 4 and stats["ties.5a side pots split"] >= 1, stats
    assert stats["ties.5a odd chips"] >= 2 and stats["ties.5a odd chip past a lower seat"] >= 1, stats


def test_split_games_play_the_faults_and_say_how_each_pot_splits():
    # Omaha high-low (o8, plo8, Big O): a fault staged in each hand, its remedy carried out, nothing above info
    # after it; at the showdowns the split's info rulings: halves (highlow.1), no low so the high scoops
    # (highlow.2), and the odd chip between the halves to the high (ties.5c)
    stats: Counter = Counter()
    run(SPLIT_KINDS, 8, seed=5, variants=SPLIT_VARIANTS, stats=stats)
    for kind in SPLIT_KINDS:
        assert stats[f"injected {kind}"] >= 8, stats
    for rule in SPLIT_INFO:
        assert stats[f"info {rule}"] >= 1, stats


def test_the_slice_spans_small_and_full_tables():
    stats: Counter = Counter()
    run(("boxed-card", "out-of-sequence"), HANDS, seed=5, stats=stats)
    seats = {int(k.split()[1]) for k in stats if k.startswith("seats ")}
    assert min(seats) <= 4 and max(seats) >= 8, seats


def test_a_staged_odd_chip_never_turns_a_raise_into_a_lone_chip_call():
    # Round 2's simulator double fault: an odd chip staged in a raise paid with one house chip left, once the
    # odd chip went back, a lone chip (a call by No-Limit 9 / Betting 15) that the simulated dealer played as a
    # raise. The house chips are now paid like any raise: broken up, or "raise" said first.
    config = from_dict({"game": {"variant": "nlhe"}, "table": {"seats": 10}})
    registry = demo_registry()
    said, lone = 0, []
    for table in range(6):
        sim = Simulator(config, registry, seed=f"odd-chip-{table}", irregularities=["foreign-chip"] * 16)
        pipe, encoder = Pipeline(config, registry), p.Encoder()
        pipe.feed_bytes(0.0, encoder.encode(board_hello(10)))
        for hand in sim.play(16):
            events = feed(pipe, encoder, hand)
            lone += [e.rule for e in events if e.kind == "FindingRaised" and e.rule in ("no-limit.9", "betting.15")]
            inputs = hand.inputs
            said += sum(1 for i, x in enumerate(inputs[:-1]) if isinstance(x, ev.DealerInput)
                        and x.action == "declare-raise" and any(getattr(y, "tag", None) is not None and
                                                                getattr(y.tag, "house", "DEMO") != "DEMO"
                                                                for y in inputs[i + 1:i + 4]))
    assert not lone, lone
    assert said >= 1        # the case came up: a one-chip raise with the odd chip, said out loud first
