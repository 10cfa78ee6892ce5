"""Issue 31: a push is checked by amount, not only by seat. Every seat may be pushed what the cards give it (its
shares of the main and side pots, the odd chip where the engine puts it, the uncalled part of its bet); the chip
that takes a seat past that, while another seat is still owed, is ruled (showdown.3, floor), and the hand stays
open until the pot sits where the cards say. Scenario pair: tests/scenarios/faults-misaward-side-pot-by-amount*.scn.
"""

from __future__ import annotations

from pathlib import Path

from dealerbox.engine import events as te
from dealerbox.engine.misaward import CORRECTED_BY
from tests.scenario_play import loud, play_text

SCENARIOS = Path(__file__).parent / "scenarios"
SPLIT = (SCENARIOS / "showdown-split-pushed-to-one.scn").read_text()
# the split scenario's push: all 7 to seat 1, 4 pulled back and pushed to seat 4 (seat 4 has the odd chip)
SPLIT_PUSH = "push all to 1\nwait 1s\nchips 4 bet1 -> pot\nwait 1s\npush 4 to 4\n"


def ended(events: list[te.TableEvent]) -> list[te.HandEnded]:
    return [e for e in events if isinstance(e, te.HandEnded)]


def acks(events: list[te.TableEvent]) -> list[te.FindingAcknowledged]:
    return [e for e in events if isinstance(e, te.FindingAcknowledged)]


def split_pushed(pushes: str) -> list[te.TableEvent]:
    assert SPLIT_PUSH in SPLIT
    return play_text(SPLIT.replace(SPLIT_PUSH, pushes), "split-pushed.scn")


def test_a_side_pot_paid_15_to_the_wrong_winner_and_5_to_the_right_one_is_ruled_at_the_chip_past_150():
    wrong = play_text((SCENARIOS / "faults-misaward-side-pot-by-amount.scn").read_text(), "by-amount.scn")
    ruled = loud(wrong)
    assert [(f.hand, f.rule, f.severity, f.seats) for f in ruled] == [(1, "showdown.3", "floor", (1, 3))]
    assert "Seat 1 is being pushed more than the 150 it is owed" in ruled[0].ruling
    assert "pull what is over 150 back into the pot and push it to seat 3" in ruled[0].ruling
    # on time: at the push of the 15, before the 5 reach seat 3 (its first chip of the hand comes after the ruling)
    to_3 = [e for e in wrong if isinstance(e, te.ChipsMoved) and e.hand == 1 and e.seat == 3 and e.t > 30]
    assert wrong.index(ruled[0]) < wrong.index(to_3[0])


def test_the_15_5_side_pot_corrected_carries_the_right_stacks_into_the_next_hand():
    wrong = play_text((SCENARIOS / "faults-misaward-side-pot-by-amount.scn").read_text(), "by-amount.scn")
    right = play_text((SCENARIOS / "faults-misaward-side-pot-by-amount-ok.scn").read_text(), "by-amount-ok.scn")
    assert loud(right) == []
    assert [(e.hand, e.outcome, e.stacks) for e in ended(wrong)] == [(e.hand, e.outcome, e.stacks)
                                                                      for e in ended(right)]
    assert ended(wrong)[0].stacks == {1: 150, 3: 160, 5: 140}
    assert ended(wrong)[1].stacks == {1: 140, 3: 180, 5: 130}   # hand 2 from the corrected stacks
    ruled = loud(wrong)
    assert [(a.id, a.by) for a in acks(wrong)] == [(ruled[0].id, CORRECTED_BY)]
    assert wrong.index(acks(wrong)[0]) < wrong.index(ended(wrong)[0])   # put right, then the hand ended
    assert ended(wrong)[0].t > ruled[0].t


def test_the_15_5_side_pot_holds_the_hand_while_the_15_sit_with_seat_1():
    text = (SCENARIOS / "faults-misaward-side-pot-by-amount.scn").read_text()
    cut = text[:text.index("chips 15 bet1 -> pot")]
    events = play_text(cut, "by-amount-held.scn")
    assert [f.rule for f in loud(events)] == ["showdown.3"]
    assert ended(events) == []      # the pot is empty, but 15 of seat 3's side pot sit with seat 1


def test_the_15_5_side_pot_left_wrong_is_ruled_again_at_the_next_hand_with_the_amount():
    text = (SCENARIOS / "faults-misaward-side-pot-by-amount.scn").read_text()
    text = text.replace("chips 15 bet1 -> pot\nwait 2s\npush 15 to 3\n", "")
    events = play_text(text, "by-amount-left.scn")
    floor = [e for e in events if isinstance(e, te.FindingRaised) and e.severity == "floor"]
    assert [(f.hand, f.rule) for f in floor] == [(1, "showdown.3"), (2, "showdown.3")]
    assert "seat 1 holds 165, 15 more than its 150" in floor[1].ruling
    assert acks(events) == []


def test_a_split_pot_paid_unevenly_is_ruled_and_put_right():
    # seats 1 and 4 tie for 7: seat 4 has the odd chip (4), seat 1 3; the dealer pushes 5 to seat 1, 2 to seat 4
    events = split_pushed("push 5 to 1\nwait 1s\npush 2 to 4\nwait 1s\nchips 2 bet1 -> pot\nwait 1s\npush 2 to 4\n")
    right = play_text((SCENARIOS / "showdown-split-pushed-to-one-ok.scn").read_text(), "split-ok.scn")
    ruled = loud(events)
    assert [(f.rule, f.seats) for f in ruled] == [("showdown.3", (1, 4))]
    assert "more than the 3 it is owed" in ruled[0].ruling
    assert [e.stacks for e in ended(events)] == [e.stacks for e in ended(right)]
    assert [(a.id, a.by) for a in acks(events)] == [(ruled[0].id, CORRECTED_BY)]


def test_the_odd_chip_pushed_to_the_other_winner_is_ruled_as_the_engine_places_it():
    # Ties 4: the odd chip goes to the first winner left of the button, seat 4; pushed 4 to seat 1 instead
    events = split_pushed("push 4 to 1\nwait 1s\npush 3 to 4\nwait 1s\nchips 1 bet1 -> pot\nwait 1s\npush 1 to 4\n")
    ruled = loud(events)
    assert [(f.rule, f.seats) for f in ruled] == [("showdown.3", (1, 4))]
    assert ended(events) and ended(events)[0].stacks[4] - ended(events)[0].stacks[1] == 1


def test_each_new_wrong_push_is_ruled_again_and_every_ruling_is_settled_once_put_right():
    # pulled back, pushed to seat 1 again (a second wrong push), pulled back and pushed to seat 4
    events = split_pushed("push 5 to 1\nwait 1s\npush 2 to 4\nwait 1s\nchips 2 bet1 -> pot\nwait 1s\npush 2 to 1\n"
                          "wait 1s\nchips 2 bet1 -> pot\nwait 1s\npush 2 to 4\n")
    ruled = loud(events)
    assert [(f.rule, f.seats) for f in ruled] == [("showdown.3", (1, 4))] * 2
    assert ruled[0].t < ruled[1].t
    assert sorted((a.id, a.by) for a in acks(events)) == sorted((f.id, CORRECTED_BY) for f in ruled)
    assert len(ended(events)) == 1 and ended(events)[0].outcome == "complete"


def test_chips_over_every_seats_due_take_nothing_from_anyone_and_are_not_ruled():
    # a stray chip swept into the pot with the blinds of a lone-blind hand: pushed to the winner, nobody is owed it
    text = ("table seats 6\ngame nlhe blinds 1/2\nhello\nshoe loaded\nsit 1 200\nsit 3 200\nbutton 3\nblinds\n"
            "deal hole cards\nwait 2s\nchips 1 -> bet5\nwait 1s\nfold 3\nwait 1s\ngather\nwait 1s\nwin 1\ncleanup\n")
    events = play_text(text, "stray-chip.scn")
    pushed = sum(e.amount for e in events if isinstance(e, te.ChipsMoved) and e.seat == 1 and e.t > 10)
    # heads-up, seat 3 the small blind folds: the pot of 2, seat 1's uncalled 1, and the stray chip
    assert pushed == ended(events)[0].pots[0].amount + 1 + 1
    assert [f.rule for f in loud(events) if f.rule == "showdown.3"] == []
    assert [e.outcome for e in ended(events)] == ["complete"]
