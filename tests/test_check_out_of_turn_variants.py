"""Betting 10 after a check out of turn, refereed as a dealer follows the words (issue 31, referee 31d): the checker's
forbidden raise at its next turn comes down to a call (or a check) whatever the structure, heads-up, preflop, by two
checkers at once, and when the raise is all in; the dealer returns what the ruling says and the hand plays to the
showdown with nothing more to rule, the stacks what the corrected wagers make them."""

from __future__ import annotations

import pytest

from dealerbox.engine import events as te
from tests.scenario_play import loud, play_text

PREFLOP = "call 5 2\nwait 1s\ncall 1 1\nwait 1s\ntap check seat 3\nwait 1s\ngather\nflop 9h 8s 4d\n"
LATER = ("gather\nturn 5c\ntap check seat 1\ntap check seat 3\ntap check seat 5\nriver 2d\ntap check seat 1\n"
         "tap check seat 3\ntap check seat 5\nwait 2s\nwin 1\ncleanup\n")


def table(game: str, stack3: int = 200, seats: tuple[int, ...] = (1, 3, 5)) -> str:
    cards = {1: "As,Ad", 3: "Kh,Kd", 5: "7s,2h"}
    return (f"table seats 6\ngame {game}\nhello\nshoe loaded\n"
            + "".join(f"sit {s} {stack3 if s == 3 else 200}\n" for s in seats) + "button 5\nblinds\n"
            + "deal hole cards " + " ".join(f"{s}={cards[s]}" for s in seats) + "\nwait 1s\n")


def flop_raise(check: str, bet: int, raise_to: int, back: str) -> str:
    """On the flop seat 3 checks while seat 1 is to act; seat 1 bets, seat 3 (next) raises; the dealer returns the
    excess as told; seat 5 calls."""
    return (f"{check}\nwait 1s\nbet 1 {bet}\nwait 1s\nraise 3 {raise_to}\nwait 1s\n{back}wait 1s\n"
            f"call 5 {bet}\nwait 1s\n")


CASES = {
    "limit": (table("flhe blinds 1/2 bets 2/4") + PREFLOP + flop_raise("tap check seat 3", 2, 4,
                                                                       "chips 2 bet3 -> off\n") + LATER,
              "a call of 2; return 2", {1: 208, 3: 196, 5: 196}),
    "pot limit": (table("plhe blinds 1/2") + PREFLOP + flop_raise("tap check seat 3", 6, 24,
                                                                  "chips 18 bet3 -> off\n") + LATER,
                  "a call of 6; return 18", {1: 216, 3: 192, 5: 192}),
    "all in for more than a full raise": (
        table("nlhe blinds 1/2", 20) + PREFLOP + flop_raise("tap check seat 3", 10, 18, "chips 8 bet3 -> off\n")
        + LATER, "a call of 10; return 8", {1: 224, 3: 8, 5: 188}),
    "all in for less than a full raise": (
        table("nlhe blinds 1/2", 14) + PREFLOP + flop_raise("tap check seat 3", 10, 12, "chips 2 bet3 -> off\n")
        + LATER, "a call of 10; return 2", {1: 224, 3: 2, 5: 188}),
    "the big blind checks out of turn preflop": (
        table("nlhe blinds 1/2") + "tap check seat 3\nwait 1s\ncall 5 2\nwait 1s\ncall 1 1\nwait 1s\nraise 3 6\n"
        "wait 1s\nchips 6 bet3 -> off\nwait 1s\ngather\nflop 9h 8s 4d\ntap check seat 1\ntap check seat 3\n"
        "tap check seat 5\n" + LATER, "the wager is a check; return 6", {1: 204, 3: 198, 5: 198}),
}


@pytest.mark.parametrize("text,words,stacks", CASES.values(), ids=list(CASES))
def test_the_checkers_forbidden_raise_comes_down_and_nothing_follows(text: str, words: str, stacks: dict) -> None:
    events = play_text(text)
    rulings = [(f.rule, f.outcome, f.seats) for f in loud(events)]
    assert rulings[0][:2] == ("betting.10", "continues") and rulings[0][2][0] == 3
    assert rulings[1:] == [("betting.10", "wager-corrected", (3,))], rulings
    assert words in loud(events)[1].ruling
    (end,) = [e for e in events if isinstance(e, te.HandEnded)]
    assert end.outcome == "complete" and end.stacks == stacks


def test_heads_up_the_button_checks_out_of_turn_and_may_not_raise_the_big_blinds_bet() -> None:
    text = (table("nlhe blinds 1/2", seats=(1, 5)) + "call 5 1\nwait 1s\ntap check seat 1\nwait 1s\ngather\n"
            "flop 9h 8s 4d\ntap check seat 5\nwait 1s\nbet 1 10\nwait 1s\nraise 5 30\nwait 1s\n"
            "change 25 bet5 for 5x5\nwait 1s\nchips 20 bet5 -> off\nwait 1s\ngather\nturn 5c\ntap check seat 1\n"
            "tap check seat 5\nriver 2d\ntap check seat 1\ntap check seat 5\nwait 2s\nwin 1\ncleanup\n")
    events = play_text(text)
    assert [(f.rule, f.outcome, f.seats) for f in loud(events)] == [
        ("betting.10", "continues", (5, 1)), ("betting.10", "wager-corrected", (5,))]
    (end,) = [e for e in events if isinstance(e, te.HandEnded)]
    assert end.outcome == "complete" and end.stacks == {1: 212, 5: 188}


def test_two_seats_check_out_of_turn_on_the_river_and_each_raise_comes_down_once() -> None:
    checks = "".join(f"{street}\ntap check seat 1\ntap check seat 3\ntap check seat 5\n" for street in
                     ("flop 9h 8s 4d", "turn 5c"))
    text = (table("nlhe blinds 1/2") + PREFLOP.replace("flop 9h 8s 4d\n", "") + checks
            + "river 2d\ntap check seat 3\nwait 1s\ntap check seat 5\nwait 1s\nbet 1 10\nwait 1s\n"
            + "".join(f"raise {s} 30\nwait 1s\nchange 25 bet{s} for 5x5\nwait 1s\nchips 20 bet{s} -> off\nwait 1s\n"
                      for s in (3, 5))
            + "gather\nwait 2s\nwin 1\ncleanup\n")
    events = play_text(text)
    assert [(f.rule, f.outcome, f.seats) for f in loud(events)] == [
        ("betting.10", "continues", (3, 1)), ("betting.10", "continues", (5, 1)),
        ("betting.10", "wager-corrected", (3,)), ("betting.10", "wager-corrected", (5,))]
    (end,) = [e for e in events if isinstance(e, te.HandEnded)]
    assert end.outcome == "complete" and end.stacks == {1: 224, 3: 188, 5: 188}
