"""Edges of deuce-to-seven triple draw (docs/draw.md): a discard that lands on another seat's antenna, whether a
blind makes lowball's kill, the stub running short, a hand ended by folds in the first draw, and what never leaves
the table (no discard and no hole card on the floor topic, in the audit or in the PHH export)."""

from __future__ import annotations

from dealerbox.engine import events as te
from tests.scenario_play import loud, play_text
from tests.test_scenario import SCENARIOS

HAND = (SCENARIOS / "lowball-triple-draw-ok.scn").read_text()
ASTRAY = (SCENARIOS / "faults-discard-on-another-seat.scn").read_text()


def _end(events: list[te.TableEvent]) -> te.HandEnded:
    (end,) = [e for e in events if isinstance(e, te.HandEnded)]
    return end


# --- a discard on another seat's antenna -------------------------------------------------------------------------

def test_a_discard_landing_in_another_hand_during_a_draw_is_dead_alone_and_the_hand_plays_to_the_showdown():
    events = play_text(ASTRAY)
    right = play_text((SCENARIOS / "faults-discard-on-another-seat-ok.scn").read_text())
    assert loud(events) == []
    (f,) = [e for e in events if isinstance(e, te.FindingRaised) and e.rule == "dead-hand.3"]
    assert (f.severity, f.outcome, f.seats) == ("info", "continues", (2, 3))
    assert "Seat 2 keeps the rest of its hand" in f.ruling and "seat 3 keeps its own" in f.ruling
    # seat 2 drew its two cards as usual; nobody's hand was killed; the showdown is the clean hand's
    drawn = [(e.seat, e.draw, e.count) for e in events if isinstance(e, te.CardsDrawn)]
    assert drawn == [(e.seat, e.draw, e.count) for e in right if isinstance(e, te.CardsDrawn)]
    shown = {e.seat: (e.cards, e.rank) for e in events if isinstance(e, te.HandShown)}
    assert shown == {e.seat: (e.cards, e.rank) for e in right if isinstance(e, te.HandShown)}
    assert shown[2] == (("7c", "5d", "4h", "3d", "2d"), "7-5-4-3-2") and "Kc" not in shown[3][0]
    assert _end(events).stacks == _end(right).stacks == {1: 200, 2: 212, 3: 194, 4: 194}


def test_outside_a_draw_hole_cards_thrown_into_another_hand_are_still_a_dead_hand():
    # before the first draw (the preflop betting under way) seat 1 throws a card into seat 2's hand: Dead Hands 3
    text = HAND.replace("fold 1\n", "card Ah seat1 -> seat2\nwait 1s\n")
    f = [e for e in play_text(text) if isinstance(e, te.FindingRaised) and e.rule == "dead-hand.3"]
    assert [(x.severity, x.outcome, x.seats) for x in f] == [("dealer", "dead-hand", (1,))]
