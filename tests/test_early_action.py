"""Chips put in before the deal is complete (issue 31's outside referee): the first player to act pushes chips in
while cards are still being dealt. The deal goes on (Misdeals 1e lets the top card still go to the player next in
sequence), the dealer is told once that the action came before its turn (Betting 10), and the chips stand as the
seat's action, since nobody acts before it. A deal that really stopped short is still a misdeal, found by what
comes next: a second action, a burn, or the cards gathered. The scenario pairs are
tests/scenarios/faults-early-chips-*.scn (run with the other cascades by tests/faults/test_cascade_scenarios.py)."""

from __future__ import annotations

import pytest

from dealerbox.engine import events as te
from tests.scenario_play import loud, play_text
from tests.test_scenario import SCENARIOS

HOLDEM = (SCENARIOS / "faults-early-chips-holdem.scn").read_text()
LOWBALL = (SCENARIOS / "faults-early-chips-27td.scn").read_text()


def _end(events: list[te.TableEvent]) -> te.HandEnded:
    (end,) = [e for e in events if isinstance(e, te.HandEnded)]
    return end


@pytest.mark.parametrize("name, seat", [("faults-early-chips-holdem", 5), ("faults-early-chips-27td", 4)])
def test_chips_before_the_deal_is_complete_are_ruled_once_and_the_hand_plays_as_its_near_miss(name, seat):
    events = play_text((SCENARIOS / f"{name}.scn").read_text(), name)
    right = play_text((SCENARIOS / f"{name}-ok.scn").read_text(), f"{name}-ok")
    (f,) = loud(events)
    assert (f.rule, f.severity, f.outcome, f.seats) == ("betting.10", "dealer", "continues", (seat,))
    assert "before the deal was complete" in f.ruling and f"leave seat {seat}'s chips where they are" in f.ruling
    assert "misdeal" not in {e.outcome for e in events if isinstance(e, te.FindingRaised)}
    # the finding comes with the next starting card (the deal went on), after the chips were taken as the action
    action = next(e for e in events if isinstance(e, te.ActionTaken) and e.seat == seat and e.action != "post")
    assert events.index(action) < events.index(f)
    dealt_after = [e for e in events[events.index(f):] if isinstance(e, te.CardDealt)]
    assert dealt_after, "the deal went on after the ruling"
    assert _end(events).outcome == "complete" and _end(events).stacks == _end(right).stacks
    acts = [(e.seat, e.action, e.total) for e in events if isinstance(e, te.ActionTaken)]
    assert acts == [(e.seat, e.action, e.total) for e in right if isinstance(e, te.ActionTaken)]


def test_in_triple_draw_the_early_call_leaves_the_three_draws_as_they_were():
    events, right = play_text(LOWBALL), play_text((SCENARIOS / "faults-early-chips-27td-ok.scn").read_text())
    drawn = [(e.seat, e.draw, e.count) for e in events if isinstance(e, te.CardsDrawn)]
    assert drawn == [(e.seat, e.draw, e.count) for e in right if isinstance(e, te.CardsDrawn)]
    assert drawn == [(2, 1, 2), (3, 1, 1), (4, 1, 1), (3, 2, 1), (4, 3, 1)]


def test_early_chips_taken_back_are_still_binding_and_once_put_back_the_hand_plays_on():
    back = HOLDEM.replace("raise 5 6\nwait 1s\ncard 9d", "raise 5 6\nwait 1s\nchips all bet5 -> off\nwait 1s\n"
                          "chips 6 -> bet5\nwait 1s\ncard 9d")
    events = play_text(back)
    assert [(f.rule, f.outcome) for f in loud(events)] == [("betting.12", "wager-corrected"),
                                                            ("betting.10", "continues")]
    assert "put 6 back" in loud(events)[0].ruling
    assert _end(events).outcome == "complete" and _end(events).stacks == {1: 199, 3: 207, 5: 194}


@pytest.mark.parametrize("after", ["fold 1\n", "burn\n"])
def test_a_deal_that_stopped_short_is_still_a_misdeal_at_the_second_action_or_the_burn(after):
    # seat 5 has one card and the deal goes no further: the next action (or the burn) says the deal was over
    short = HOLDEM.split("card 9d shoe -> seat1\n")[0] + after + "wait 1s\nheartbeat\n"
    events = play_text(short)
    assert [(f.rule, f.outcome) for f in loud(events)] == [("misdeal.1e", "misdeal")]
    assert _end(events).outcome == "misdeal" and _end(events).stacks == {1: 200, 3: 200, 5: 200}


def test_a_deal_that_stopped_short_is_a_misdeal_when_its_cards_are_gathered():
    short = HOLDEM.split("card 9d shoe -> seat1\n")[0] + "card 9c seat1 -> shoe\nwait 1s\nheartbeat\n"
    events = play_text(short)
    assert [(f.rule, f.outcome, f.seats) for f in loud(events)] == [("misdeal.1e", "misdeal", (1,))]


@pytest.mark.parametrize("name, seat, action, amount, card", [
    ("faults-early-chips-holdem", 5, "raise 5 6", 6, "card 9d shoe -> seat1"),
    ("faults-early-chips-27td", 4, "call 4 2", 2, "card 4h shoe -> seat2")])
def test_early_chips_taken_back_before_the_next_card_are_ruled_one_way_put_them_back(name, seat, action, amount,
                                                                                    card):
    # Betting 12 binds released chips (its one exception, a player unaware of a raise, cannot apply: nobody acted
    # before), and Betting 10 lets the early action bind, as nobody acts before the first to act. The betting rules
    # the take-back "put them back" at once; the deal's ruling at the next card used to say "leave seat N's chips
    # where they are", chips that were no longer there. Now it says the same as the betting: put them back in
    text = (SCENARIOS / f"{name}.scn").read_text()
    back = text.replace(f"{action}\nwait 1s\n{card}\n", f"{action}\nwait 1s\nchips all bet{seat} -> off\nwait 1s\n"
                        f"{card}\nwait 1s\nchips {amount} -> bet{seat}\nwait 1s\n")
    assert back != text
    events = play_text(back, name)
    right = play_text((SCENARIOS / f"{name}-ok.scn").read_text(), f"{name}-ok")
    ruled = loud(events)
    assert [(f.rule, f.outcome, f.seats) for f in ruled] == [("betting.12", "wager-corrected", (seat,)),
                                                             ("betting.10", "continues", (seat,))]
    assert f"put {amount} back" in ruled[0].ruling
    assert f"seat {seat} puts the {amount} it took back in again" in ruled[1].ruling
    assert "where they are" not in ruled[1].ruling
    assert "misdeal" not in {e.outcome for e in events if isinstance(e, te.FindingRaised)}
    assert _end(events).outcome == "complete" and _end(events).stacks == _end(right).stacks
