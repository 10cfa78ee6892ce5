"""Issue 31: every ruling's words lead the dealer right. The words cases, one or more per catalogue row, are in
tests/ruling_words/ and run in tests/test_ruling_words_rows.py; here are the control of the check-out-of-turn
words (played in turn, nothing to rule) and the scenarios of tests/scenarios/ that carry a remedy out."""

from __future__ import annotations

from pathlib import Path

import pytest

from dealerbox.engine import events as te
from tests.ruling_words.chips import CASES, TABLE, down
from tests.scenario_play import loud, play_text

SCENARIOS = Path(__file__).parent / "scenarios"


def test_a_check_in_turn_after_a_call_is_nothing_to_rule_and_the_words_name_what_binds_it():
    events = play_text(TABLE + "call 5 2\nwait 1s\ncall 1 1\nwait 1s\ntap check seat 3\nwait 1s\n"
                       + down(1, 3, 5, winner=1), "check-in-turn.scn")
    assert loud(events) == []
    assert [e.outcome for e in events if isinstance(e, te.HandEnded)] == ["complete", "complete"]
    words = [e.ruling for e in play_text(CASES["betting.10-check"].fault_text(), "check.scn")
             if isinstance(e, te.FindingRaised) and e.rule == "betting.10"]
    assert "the check is binding if nobody in between bets, calls or raises" in words[0], words


@pytest.mark.parametrize("name", ["showdown-3-wrong-push", "faults-misaward-pulled-back",
                                  "faults-short-all-in-out-of-turn", "faults-short-all-in-taken-back"])
def test_the_scenarios_that_carry_out_a_remedy_end_their_hands_as_ruled(name):
    events = play_text((SCENARIOS / f"{name}.scn").read_text(), f"{name}.scn")
    ruled = loud(events)
    assert ruled and {f.rule for f in ruled} <= {"showdown.3", "betting.10"}
    first = events.index(ruled[0])
    assert all(isinstance(e, te.HandEnded) is False or e.outcome == "complete" for e in events[first:])
    assert any(isinstance(e, te.HandEnded) for e in events[first:])
