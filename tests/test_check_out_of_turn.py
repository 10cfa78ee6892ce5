"""Betting 10: a player who checks out of turn may not bet or raise on its next turn to act, whether the check
became binding (nobody in between bet, called or raised: its turn passed) or not (it acts again). Issue 31: the
engine used to forbid the raise only in the second case. The scenario pair is
tests/scenarios/faults-check-raise-out-of-turn*.scn (run with the other cascades by
tests/faults/test_cascade_scenarios.py); here the pair's variants, driven through the real pipeline: the checker
merely calls, and the flag lasts exactly through that one turn (a raise at a later turn of the round, or on a
later street, is legal)."""

from __future__ import annotations

from dealerbox.engine import events as te
from tests.scenario_play import loud, play_text
from tests.test_scenario import SCENARIOS

FAULT = (SCENARIOS / "faults-check-raise-out-of-turn.scn").read_text()
RAISE_AND_REMEDY = "raise 3 30\nwait 1s\nchange 25 bet3 for 5x5\nwait 1s\nchips 20 bet3 -> off\n"
FLOP_BETTING = "bet 5 10\nwait 1s\ncall 1 10\nwait 1s\n" + RAISE_AND_REMEDY
TURN_CHECKS = "turn 5c\ntap check seat 1\ntap check seat 3\ntap check seat 5\n"
assert FLOP_BETTING in FAULT and TURN_CHECKS in FAULT


def _rulings(events: list[te.TableEvent]) -> list[tuple[str, str, tuple[int, ...]]]:
    return [(f.rule, f.outcome, f.seats) for f in loud(events)]


def _end(events: list[te.TableEvent]) -> te.HandEnded:
    (end,) = [e for e in events if isinstance(e, te.HandEnded)]
    return end


def _acts(events: list[te.TableEvent], street: str) -> list[tuple[int, str, int]]:
    return [(e.seat, e.action, e.total) for e in events if isinstance(e, te.ActionTaken) and e.street == street]


OOT_CHECK = ("betting.10", "continues", (3, 1))


def test_the_raise_after_a_binding_check_out_of_turn_comes_down_to_a_call():
    events = play_text(FAULT)
    assert _rulings(events) == [OOT_CHECK, ("betting.10", "wager-corrected", (3,))]
    raised = loud(events)[1]
    assert "may not bet or raise" in raised.ruling and "the wager is a call of 10; return 20" in raised.ruling
    # seat 3's check stood in its turn (after seat 1's), then its call of 10 ended the round
    assert _acts(events, "flop") == [(1, "check", 0), (3, "check", 0), (5, "bet", 10), (1, "call", 10),
                                     (3, "call", 10)]
    assert _end(events).outcome == "complete" and _end(events).stacks == {1: 224, 3: 188, 5: 188, 6: 200}


def test_near_miss_the_checker_merely_calls_and_nothing_more_is_ruled():
    events = play_text(FAULT.replace(FLOP_BETTING, "bet 5 10\nwait 1s\ncall 1 10\nwait 1s\ncall 3 10\n"))
    assert _rulings(events) == [OOT_CHECK]
    assert _end(events).outcome == "complete" and _end(events).stacks == {1: 224, 3: 188, 5: 188, 6: 200}


def test_a_raise_at_a_later_turn_of_the_same_round_is_legal():
    # seat 1 raises to 30; seat 3, at its next turn, only calls (it may not raise); seat 5 re-raises to 80, seat 1
    # calls, and now seat 3 may raise, to 160: its turn after a check out of turn is over (amounts are chips added)
    later = ("bet 5 10\nwait 1s\nraise 1 30\nwait 1s\ncall 3 30\nwait 1s\nraise 5 70\nwait 1s\ncall 1 50\nwait 1s\n"
             "raise 3 130\nwait 1s\ncall 5 80\nwait 1s\ncall 1 80\nwait 1s\n")
    events = play_text(FAULT.replace(FLOP_BETTING, later))
    assert _rulings(events) == [OOT_CHECK]
    assert (3, "call", 30) in _acts(events, "flop") and (3, "raise", 160) in _acts(events, "flop")
    assert _end(events).outcome == "complete" and _end(events).stacks == {1: 524, 3: 38, 5: 38, 6: 200}


def test_a_bet_on_a_later_street_is_legal():
    # the flop is checked through (seat 3's binding check was its only turn there); on the turn seat 3 bets
    events = play_text(FAULT.replace(FLOP_BETTING, "tap check seat 5\nwait 1s\n").replace(
        TURN_CHECKS, "turn 5c\ntap check seat 1\nwait 1s\nbet 3 10\nwait 1s\ncall 5 10\nwait 1s\ncall 1 10\nwait 1s\n"))
    assert _rulings(events) == [OOT_CHECK]
    assert (3, "bet", 10) in _acts(events, "turn")
    assert _end(events).outcome == "complete" and _end(events).stacks == {1: 224, 3: 188, 5: 188, 6: 200}


def test_a_check_out_of_turn_followed_by_a_bet_still_forbids_the_raise_once():
    # not binding: seat 1 bets in between, seat 3 acts again on its turn and may not raise (the older path)
    text = FAULT.replace("tap check seat 1\nwait 1s\n" + FLOP_BETTING,
                         "bet 1 10\nwait 1s\n" + RAISE_AND_REMEDY + "wait 1s\ncall 5 10\nwait 1s\n")
    events = play_text(text)
    assert _rulings(events) == [OOT_CHECK, ("betting.10", "wager-corrected", (3,))]
    assert _acts(events, "flop") == [(1, "bet", 10), (3, "call", 10), (5, "call", 10)]
    assert _end(events).outcome == "complete"
