"""Dealer taps that name one player's act: a tap naming no seat binds nobody. Driven through the real decoder
from a scenario."""

from __future__ import annotations

from dealerbox.engine import events as te
from tests.scenario_play import THREE_HANDED_DEALT, loud
from tests.scenario_play import play_text as run

# No-Limit 9: a single chip bigger than the call, put in without saying raise, is a call
HAND = THREE_HANDED_DEALT + """{declare}
chips 5x1 -> bet5
wait 1s
heartbeat
"""


def rulings(events: list[te.TableEvent]) -> list[str]:
    return [e.rule for e in loud(events)]


def test_a_raise_declared_by_the_seat_makes_its_single_chip_a_raise():
    events = run(HAND.format(declare="declare-raise 5"))
    assert rulings(events) == []      # the chip is the start of a raise, not a call
    assert not [e for e in events if isinstance(e, te.ActionTaken) and e.seat == 5]


def test_a_declare_raise_tap_naming_no_seat_binds_nobody():
    events = run(HAND.format(declare="declare-raise"))
    assert rulings(events) == ["no-limit.9"]     # the single chip is a call, as with no tap at all
    assert [(e.seat, e.action) for e in events if isinstance(e, te.ActionTaken) and e.seat == 5] == [(5, "call")]
