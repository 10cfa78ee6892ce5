"""Issue 31, refereed: a winner pushed past its share while the pot still holds chips is ruled at that chip
(showdown.3, floor); when the dealer pulls the extra back and the pot then empties with every seat holding what the
cards give it, the table has carried out the ruling, so the floor's alert is settled by the table, exactly as it is
when the correction comes after the pot emptied (the misaward state). It used to stay open for ever: the table
acknowledged only the rulings of a hand that had been in the misaward state.
"""

from __future__ import annotations

from pathlib import Path

from dealerbox.engine import events as te
from dealerbox.engine.misaward import CORRECTED_BY
from tests.scenario_play import loud, play_text

SCENARIOS = Path(__file__).parent / "scenarios"
SPLIT = (SCENARIOS / "showdown-split-pushed-to-one.scn").read_text()
# seats 1 and 4 split a pot of 7; seat 4 has the odd chip (4), seat 1 is owed 3
SPLIT_PUSH = "push all to 1\nwait 1s\nchips 4 bet1 -> pot\nwait 1s\npush 4 to 4\n"


def split_pushed(pushes: str) -> list[te.TableEvent]:
    assert SPLIT_PUSH in SPLIT
    return play_text(SPLIT.replace(SPLIT_PUSH, pushes), "split-pushed.scn")


def settled(events: list[te.TableEvent]) -> list[tuple[str, str]]:
    return [(e.id, e.by) for e in events if isinstance(e, te.FindingAcknowledged)]


def ended(events: list[te.TableEvent]) -> list[te.HandEnded]:
    return [e for e in events if isinstance(e, te.HandEnded)]


def test_an_over_push_pulled_back_before_the_pot_empties_is_settled_by_the_table():
    # 4 to seat 1 (one over its 3, seat 4 still owed), the 1 pulled back into the pot, then 4 to seat 4
    events = split_pushed("push 4 to 1\nwait 1s\nchips 1 bet1 -> pot\nwait 1s\npush 4 to 4\n")
    ruled = loud(events)
    assert [(f.rule, f.severity, f.seats) for f in ruled] == [("showdown.3", "floor", (1, 4))]
    assert "more than the 3 it is owed" in ruled[0].ruling
    assert settled(events) == [(ruled[0].id, CORRECTED_BY)]
    [end] = ended(events)
    assert end.outcome == "complete" and end.t >= ruled[0].t
    assert [e for e in events if isinstance(e, te.FindingAcknowledged)][0].t == end.t


def test_an_over_push_slid_straight_to_the_right_seat_before_the_pot_empties_is_settled_by_the_table():
    # the extra chip handed from seat 1's bet zone straight into seat 4's, then the rest of the pot to seat 4
    events = split_pushed("push 4 to 1\nwait 1s\nchips 1 bet1 -> bet4\nwait 1s\npush 3 to 4\n")
    ruled = loud(events)
    assert [f.rule for f in ruled] == ["showdown.3"]
    assert settled(events) == [(ruled[0].id, CORRECTED_BY)]
    assert [e.outcome for e in ended(events)] == ["complete"]


def test_an_over_push_left_as_it_was_stays_open():
    # near miss: the same over-push never corrected (seat 4 pushed only the 3 left) is the misaward, held open
    events = split_pushed("push 4 to 1\nwait 1s\npush 3 to 4\n")
    assert [f.rule for f in loud(events)] == ["showdown.3"]
    assert settled(events) == []
    assert ended(events) == []
