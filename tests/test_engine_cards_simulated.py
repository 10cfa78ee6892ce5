"""No false alarms from the card rules on the simulator's clean hands (80 per variant here; the
10,000-hand run with the pokerkit cross-check lives in tests/test_simulated_hands.py).

Rules that read the cards alone must stay silent on every hand (80 per variant); the hands and boards are compared
with the simulator's until the first card or showdown finding (chips findings may leave the betting side's view of
the table, e.g. a stack, different from the simulator's: that is the betting tests' business)."""

from __future__ import annotations

import pytest

from dealerbox.config import from_dict
from dealerbox.engine.catalogue import RULES
from dealerbox.engine.table import Engine
from dealerbox.sources.simulator import Simulator
from dealerbox.tags import demo_registry

HANDS = 80
# Card rules that read the cards alone; the others also lean on the chips side (who has chips, whether the
# betting is complete, how the pots split), which is judged by the betting tests.
CARDS_ALONE = {"misdeal.1b", "misdeal.1c", "misdeal.1d", "misdeal.1f", "misdeal.1h", "holdem.1", "holdem.2",
               "holdem.5", "irregularity.3", "irregularity.4", "irregularity.7", "irregularity.8",
               "irregularity.11", "irregularity.12", "dead-hand.3", "procedures.21", "procedures.23"}


@pytest.mark.parametrize("variant", ["nlhe", "plhe", "flhe", "plo"])
def test_clean_simulated_hands_raise_no_card_finding(variant):
    cfg = from_dict({"game": {"variant": variant}})
    reg = demo_registry()
    engine = Engine(cfg, reg)
    in_step = True     # both halves of the engine still agree with the simulator
    boards = 0
    for hand in Simulator(cfg, reg, seed=11).play(HANDS):
        events = []
        for i in hand.inputs:
            events += engine.apply(i)
        loud = [e for e in events if e.kind == "FindingRaised" and e.severity != "info"]
        assert [f for f in loud if f.rule in CARDS_ALONE] == [], hand.number
        in_step = in_step and not [f for f in loud if RULES[f.rule].area != "chips"]
        ended = [e for e in events if e.kind == "HandEnded"]
        if in_step:
            assert [e.outcome for e in ended] == ["complete"], hand.number
            assert ended[0].board == hand.expected.board
            boards += 1
    assert boards >= 1, boards
