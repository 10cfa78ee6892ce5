"""Issue 31, refereed: two pushes the amount check misjudged. Change made from a bigger chip (a 25 pushed to a seat
owed 2 more, the change taken back) is no misaward, and is ruled only if the change never comes back before the
dealer moves on; the uncalled part of a bet handed back straight from the bet zone never reached the pot, so a
push of pot chips to its bettor is not owed to it."""

from __future__ import annotations

from pathlib import Path

from dealerbox.engine import events as te
from tests.scenario_play import loud, play_text

SCENARIOS = Path(__file__).parent / "scenarios"
COLOUR = (SCENARIOS / "faults-misaward-colour-up-ok.scn").read_text()
UNCALLED = (SCENARIOS / "faults-uncalled-returned-pushed-again.scn").read_text()


def at(events: list[te.TableEvent], kind: type, **match: object) -> list[te.TableEvent]:
    return [e for e in events if isinstance(e, kind) and all(getattr(e, k) == v for k, v in match.items())]


def test_a_bigger_chip_with_its_change_taken_back_is_quiet():
    events = play_text(COLOUR, "colour.scn")
    assert loud(events) == []
    [end] = at(events, te.HandEnded)
    assert end.outcome == "complete" and end.pots[0].shares == {4: 27, 1: 26}


def test_a_bigger_chip_with_no_change_back_is_ruled_once_when_the_pot_empties():
    events = play_text(COLOUR.replace("chips 23 bet1 -> pot\n", ""), "colour-kept.scn")
    ruled = loud(events)
    assert [(f.rule, f.seats) for f in ruled] == [("showdown.3", (1, 4))]
    assert "more than the 26 it is owed" in ruled[0].ruling
    big = [e for e in at(events, te.ChipsMoved, seat=1) if e.chips == (25,)]
    seat4 = at(events, te.ChipsMoved, seat=4)
    assert big and ruled[0].t > big[-1].t          # not at the 25: it waited for the change
    assert ruled[0].t >= seat4[-1].t               # ruled when the rest went to seat 4 and the pot emptied
    assert at(events, te.HandEnded) == []          # the misaward holds the hand


def test_a_bigger_chip_with_no_change_back_is_ruled_when_the_hand_ends_first():
    # the 25 pushed, no change, and the cleanup comes with the rest of the pot still in the pot zone
    text = COLOUR.replace("chips 23 bet1 -> pot\nwait 1s\npush all to 4\n", "")
    assert text != COLOUR
    events = play_text(text, "colour-cleanup.scn")
    ruled = loud(events)
    assert [(f.rule, f.seats) for f in ruled] == [("showdown.3", (1, 4))]
    [end] = at(events, te.HandEnded)
    assert ruled[0].t == end.t


def test_a_push_to_a_seat_already_at_its_due_is_ruled_at_once():
    # seat 1 is pushed its 26 exactly (25 and a 1), then a 5 more: a plain over-push, ruled at that chip
    text = COLOUR.replace("chips 24 pot -> bet1\nwait 1s\nchips 25 pot -> bet1\nwait 1s\nchips 23 bet1 -> pot\n",
                          "chips 26 pot -> bet1\nwait 1s\nchips 5 pot -> bet1\n")
    assert text != COLOUR
    events = play_text(text, "over-push.scn")
    ruled = loud(events)
    assert [f.rule for f in ruled] == ["showdown.3"]
    five = [e for e in at(events, te.ChipsMoved, seat=1) if e.chips == (5,)]
    assert ruled[0].t == five[-1].t


def test_uncalled_chips_handed_back_from_the_zone_are_not_owed_from_the_pot():
    events = play_text(UNCALLED, "uncalled.scn")
    ruled = loud(events)
    assert [(f.rule, f.seats) for f in ruled] == [("showdown.3", (1,))]
    assert "which wins no pot" in ruled[0].ruling


def test_uncalled_chips_gathered_into_the_pot_and_pushed_back_are_quiet():
    text = UNCALLED.replace("chips 60 bet1 -> off\nwait 2s\n", "").replace("push 50 to 1", "push 60 to 1") \
        .replace("push 31 to 4", "push all to 4")
    assert "-> off" not in text
    events = play_text(text, "uncalled-gathered.scn")
    assert loud(events) == []
    [end] = at(events, te.HandEnded)
    assert end.stacks[1] == 160 and end.stacks[4] == 81
