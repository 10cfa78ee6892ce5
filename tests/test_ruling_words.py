"""Issue 31: every ruling's words lead the dealer right. Each case is one catalogue row: the fault, then the dealer
doing exactly what the ruling's words say (the phrase the case follows must be in the ruling), then the hand played
to its end. The row's ruling must be the only finding above ``info``, and the hand must end as the ruling says."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pytest

from dealerbox.engine import events as te
from dealerbox.pipeline import Pipeline
from dealerbox.sources.scenario import compile_text

SCENARIOS = Path(__file__).parent / "scenarios"

# three players, seat 5 on the button: seat 1 posts the small blind, seat 3 the big; seat 5 acts first
TABLE = """table seats 6
game nlhe blinds 1/2
hello
shoe loaded
sit 1 200
sit 3 200
sit 5 200
button 5
blinds
deal hole cards 1=As,Ad 3=Kh,Kd 5=7s,2h
wait 2s
"""


def checked_down(*seats: int, winner: int = 1) -> str:
    """The betting round over: gather, then flop, turn and river checked by ``seats``, the pot to ``winner``."""
    checks = "".join(f"tap check seat {s}\n" for s in seats)
    return (f"wait 1s\ngather\nflop 9h 8s 4d\n{checks}turn 5c\n{checks}river 2d\n{checks}wait 2s\nwin {winner}\n"
            "wait 1s\ncleanup\n")


@dataclass(frozen=True)
class Case:
    rule: str
    follows: str          # the words of the ruling the remedy carries out
    fault: str            # scenario lines up to and including the fault
    remedy: str           # the dealer doing what the words say
    rest: str             # the hand played out
    outcome: str = "complete"


CASES = {
    "betting.10-check": Case(
        "betting.10", "if someone does, seat 3 acts again on its turn and may not bet or raise",
        "call 5 2\nwait 1s\ntap check seat 3\nwait 1s\ncall 1 1\n",   # seat 1 calls in between: not binding
        "wait 1s\ntap check seat 3\n", checked_down(1, 3, 5)),
    "betting.10-check-binding": Case(
        "betting.10", "the check is binding if nobody in between bets, calls or raises",
        "call 5 2\nwait 1s\ncall 1 1\nwait 1s\ntap check seat 3 \n",   # no out-of-turn: the control of the words
        "", checked_down(1, 3, 5)),
    "betting.10-chips": Case(
        "betting.10", "It is binding if nobody in between bets, calls or raises",
        "call 5 2\nwait 1s\nchips 2 -> bet3\nwait 1s\nfold 1\n",   # a fold in between: seat 3's raise binds
        "wait 1s\ncall 5 2\n", checked_down(3, 5, winner=3)),
    "betting.12-brought-up": Case(
        "betting.12", "bring it up to 20",
        "raise 5 6\nwait 1s\nraise 1 19\nwait 1s\nchips 1x4 -> bet3\nwait 1s\n",
        "chips 14 -> bet3\nwait 1s\ncall 5 14\n", checked_down(1, 3, 5)),
    "betting.12-taken-back": Case(
        "betting.12", "or take the chips back and act again",
        "raise 5 6\nwait 1s\nraise 1 19\nwait 1s\nchips 1x4 -> bet3\nwait 1s\n",
        "chips 4 bet3 -> off\nwait 1s\nfold 3\nwait 1s\ncall 5 14\n", checked_down(1, 5)),
    "betting.14": Case(
        "betting.14", "The first action (2) stands; return the 4",
        "chips 2 then 4 -> bet5\nwait 1s\n",
        "chips 4 bet5 -> off\nwait 1s\ncall 1 1\nwait 1s\ntap check seat 3\n", checked_down(1, 3, 5)),
    "betting.16": Case(
        "betting.16", "Seat 5 must bring the call up to 2 before the round ends",
        "chips 1x1 -> bet5\nwait 1s\n",
        "chips 1 -> bet5\nwait 1s\ncall 1 1\nwait 1s\ntap check seat 3\n", checked_down(1, 3, 5)),
    "no-limit.10": Case(
        "no-limit.10", "Seat 5 must bring the raise up to 4 (minimum raise), no more",
        "chips 1x3 -> bet5\nwait 1s\n",
        "chips 1 -> bet5\nwait 1s\ncall 1 3\nwait 1s\ncall 3 2\n", checked_down(1, 3, 5)),
    "holdem.3": Case(
        "holdem.3", "finish the betting, then the flop cards go back into the stub, reshuffle, cut and deal a new "
                    "flop without a burn (the burn card stays)",
        "call 5 2\nwait 1s\ncall 1 1\nwait 1s\nburn 3s\ncard 9h shoe -> board\ncard 8s shoe -> board\n"
        "card 4d shoe -> board\nwait 1s\n",   # seat 3, the big blind, has not acted
        "tap check seat 3\nwait 1s\ngather\ncard 9h board -> shoe\ncard 8s board -> shoe\ncard 4d board -> shoe\n"
        "wait 1s\ncard Qc shoe -> board\ncard Jc shoe -> board\ncard 6h shoe -> board\n",
        "".join(f"tap check seat {s}\n" for s in (1, 3, 5)) + "turn 5c\n"
        + "".join(f"tap check seat {s}\n" for s in (1, 3, 5)) + "river 2d\n"
        + "".join(f"tap check seat {s}\n" for s in (1, 3, 5)) + "wait 2s\nwin 1\nwait 1s\ncleanup\n"),
}


def play(text: str, name: str) -> list[te.TableEvent]:
    compiled = compile_text(text, name)
    pipe = Pipeline.from_header(compiled.header)
    events: list[te.TableEvent] = []
    for record in compiled.records:
        events += pipe.feed(record)
    return events


@pytest.mark.parametrize("name", sorted(CASES))
def test_the_remedy_the_ruling_words_ends_the_hand_with_nothing_more_to_rule(name):
    case = CASES[name]
    events = play(TABLE + case.fault + case.remedy + case.rest, f"{name}.scn")
    loud = [e for e in events if isinstance(e, te.FindingRaised) and e.severity != "info"]
    if name.endswith("-binding"):   # the control: played in turn, nothing to rule
        assert loud == []
        words = [e.ruling for e in play(TABLE + CASES["betting.10-check"].fault, "check.scn")
                 if isinstance(e, te.FindingRaised) and e.rule == case.rule]
    else:
        assert [f.rule for f in loud] == [case.rule], [(f.rule, f.ruling) for f in loud]
        words = [loud[0].ruling]
    assert case.follows in words[0], words[0]
    assert [e.outcome for e in events if isinstance(e, te.HandEnded)] == [case.outcome]


@pytest.mark.parametrize("name", ["showdown-3-wrong-push", "faults-misaward-pulled-back",
                                  "faults-short-all-in-out-of-turn", "faults-short-all-in-taken-back"])
def test_the_scenarios_that_carry_out_a_remedy_end_their_hands_as_ruled(name):
    events = play((SCENARIOS / f"{name}.scn").read_text(), f"{name}.scn")
    loud = [e for e in events if isinstance(e, te.FindingRaised) and e.severity != "info"]
    assert loud and {f.rule for f in loud} <= {"showdown.3", "betting.10"}
    first = events.index(loud[0])
    assert all(isinstance(e, te.HandEnded) is False or e.outcome == "complete" for e in events[first:])
    assert any(isinstance(e, te.HandEnded) for e in events[first:])
