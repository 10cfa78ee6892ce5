"""Words cases of the Chips and betting rows: each fault is the row's raising scenario (tests/scenarios/chips-*.scn,
or the lines of its own on the three-seat ``TABLE``), the remedy the chips the ruling names going back or in, or
the player acting as the ruling lets it, then the hand and the next one."""

from __future__ import annotations

from .common import Case, folded_to, folded_to_the_big_blind

THREE = (1, 3, 5)
NEXT = folded_to_the_big_blind(THREE, 1)     # seat 5 had the button: it moves to seat 1
FLOP_FOLDED = "gather\nwait 1s\nflop\nwait 1s\n" + folded_to(5, 1, 3) + NEXT   # seat 5's bet takes the flop
ACES = "1=As,Ad 3=Kh,Kd 5=7s,2h"
# three players, seat 5 on the button: seat 1 posts the small blind, seat 3 the big; seat 5 acts first
TABLE = (f"table seats 6\ngame nlhe blinds 1/2\nhello\nshoe loaded\nsit 1 200\nsit 3 200\nsit 5 200\nbutton 5\nblinds\n"
         f"deal hole cards {ACES}\nwait 2s\n")


def down(*seats: int, winner: int) -> str:
    """Gather, then flop, turn and river checked by ``seats``, the pot to ``winner``; then the next hand."""
    checks = "".join(f"tap check seat {s}\nwait 1s\n" for s in seats)
    return (f"gather\nwait 1s\nflop 9h 8s 4d\n{checks}turn 5c\n{checks}river 2d\n{checks}wait 2s\nwin {winner}\n"
            "wait 1s\ncleanup\nwait 1s\n" + NEXT)


def taken_back(rule: str, follows: str, scenario: str, back: str, call: int) -> Case:
    """Seat 5's wager cut to what the ruling says (``back``: the chips changed and returned), seat 1 calls ``call``
    more, seat 3 checks; seat 5 takes the pot at the flop, then the next hand."""
    return Case(rule, follows, scenario, f"{back}wait 1s\ncall 1 {call}\nwait 1s\ntap check seat 3\n", FLOP_FOLDED)


def to_seat_1(rule: str, follows: str, scenario: str, back: str) -> Case:
    """Seat 1's bet cut or brought up as the ruling says (``back``), the others fold to it, then the next hand."""
    return Case(rule, follows, scenario, back, folded_to(1, 3, 5) + NEXT)


def shown_down(rule: str, follows: str, scenario: str, back: str) -> Case:
    """Seat 5's wager cut as the ruling says (``back``), checked down, seat 1's aces win; then the next hand."""
    return Case(rule, follows, scenario, back, down(3, 5, winner=1), deal=ACES)


CASES: dict[str, Case] = {
    "betting.3": Case("betting.3", "the wager is a call of 4; return 2", "chips-betting.3.scn",
                      "chips 2 bet5 -> off\nwait 1s\ncall 1 2\n", FLOP_FOLDED),
    "betting.5": shown_down("betting.5", "the wager is a call of 4; return 20", "chips-betting.5.scn",
                            "chips 20 bet5 -> off\n"),
    "betting.6": taken_back("betting.6", "it is a call of 10; return 4", "chips-betting.6.scn",
                            "chips 4 bet5 -> off\n", 5),
    "betting.7": taken_back("betting.7", "below the smallest chip in play (5) and do not play", "chips-betting.7.scn",
                            "chips 1 bet5 -> off\n", 5),
    "betting.15": taken_back("betting.15", "is a call of 5; give back 20 in change", "chips-betting.15.scn",
                             "change 25 bet5 for 5x5\nwait 1s\nchips 20 bet5 -> off\n", 3),
    "no-limit.2": to_seat_1("no-limit.2", "Seat 1 must bring the bet up to 2", "chips-no-limit.2.scn",
                            "chips 1 -> bet1\n"),
    "no-limit.3": shown_down("no-limit.3", "the wager is a call of 4; return 26", "chips-no-limit.3.scn",
                             "change 5 bet5 for 1x5\nwait 1s\nchips 26 bet5 -> off\n"),
    "no-limit.9": taken_back("no-limit.9", "is a call of 2; give back 3 in change", "chips-no-limit.9.scn",
                             "change 5 bet5 for 1x5\nwait 1s\nchips 3 bet5 -> off\n", 1),
    "no-limit.12": Case(
        "no-limit.12", "seat 5 takes the 4 back", "chips-no-limit.12.scn",
        "chips 4 bet5 -> off\n", folded_to(2, 3, 5, 1) + folded_to_the_big_blind((1, 2, 3, 5), 1)),
    "pot-limit.1": to_seat_1("pot-limit.1", "it is reduced to 6; return 9", "chips-pot-limit.1.scn",
                             "change 5 bet1 for 1x5\nwait 1s\nchips 9 bet1 -> off\n"),
    "pot-limit.1-rounded": to_seat_1("pot-limit.1", "it is reduced to 10; return 1", "chips-pot-limit.1-rounded.scn",
                                     "chips 1 bet1 -> off\n"),
    "pot-limit.4": Case("pot-limit.4", "seat 5 makes it 7 in all; return 3", "chips-pot-limit.4.scn",
                        "change 5 bet5 for 1x5\nwait 1s\nchips 3 bet5 -> off\nwait 1s\ncall 1 6\nwait 1s\n"
                        "call 3 5\n", FLOP_FOLDED),
    "pot-limit.6": Case("pot-limit.6", "the most seat 5 may make it is 8; return 2", "chips-pot-limit.6.scn",
                        "change 5 bet5 for 1x5\nwait 1s\nchips 2 bet5 -> off\nwait 1s\ncall 1 7\nwait 1s\n"
                        "call 3 6\n", FLOP_FOLDED),
    "pot-limit.7": to_seat_1("pot-limit.7", "it is a pot-sized bet of 6; return 19", "chips-pot-limit.7.scn",
                             "change 25 bet1 for 5x3 1x10\nwait 1s\nchips 19 bet1 -> off\n"),
    "procedures.3": taken_back("procedures.3", "hand them back and change them up after the hand",
                               "chips-procedures.3.scn", "chips 5 bet5 -> off\n", 1),
    "blinds.3": Case(
        "blinds.3", "Misdeal: correct the blinds and redeal", "chips-blinds.3.scn",
        "cleanup\nwait 1s\nchips all bet1 -> off\nchips all bet3 -> off\n",
        folded_to_the_big_blind((1, 3), 1) + folded_to_the_big_blind((1, 3), 3), ("misdeal", "complete", "complete")),
    "blinds.10": Case(
        "blinds.10", "once they act and put chips in, the hand plays and they post next deal", "chips-blinds.10.scn",
        "call 8 6\n", folded_to(8, 1, 3, 5, 7) + folded_to_the_big_blind((1, 3, 5, 7, 8), 5),
        ("complete", "complete", "complete")),
    # the rows ruled on the lines of their own, on TABLE
    "betting.10-check": Case(
        "betting.10", "(if someone does, seat 3 acts again on its turn). Either way seat 3 may not bet or raise",
        TABLE + "call 5 2\nwait 1s\ntap check seat 3\nwait 1s\ncall 1 1\n",   # seat 1 calls in between: not binding
        "tap check seat 3\nwait 1s\n", down(1, 3, 5, winner=1)),
    # the check binds (nobody acted in between), its turn passes; at its next turn, facing a bet, seat 3 may check,
    # call or fold, no more: it calls (issue 31: a raise there is ruled betting.10)
    "betting.10-check-binding": Case(
        "betting.10", "Either way seat 3 may not bet or raise at its next turn to act this round: it may check, call "
                      "or fold",
        TABLE + "call 5 2\nwait 1s\ncall 1 1\nwait 1s\ntap check seat 3\nwait 1s\ngather\nwait 1s\nflop 9h 8s 4d\n"
        "tap check seat 3\nwait 1s\ntap check seat 1\nwait 1s\nbet 5 10\nwait 1s\ncall 1 10\n",
        "call 3 10\nwait 1s\n",
        "gather\nwait 1s\nturn 5c\n" + "".join(f"tap check seat {s}\nwait 1s\n" for s in (1, 3, 5)) + "river 2d\n"
        + "".join(f"tap check seat {s}\nwait 1s\n" for s in (1, 3, 5)) + "wait 2s\nwin 1\nwait 1s\ncleanup\nwait 1s\n"
        + NEXT),
    "betting.10-chips": Case(
        "betting.10", "It is binding if nobody in between bets, calls or raises",
        TABLE + "call 5 2\nwait 1s\nchips 2 -> bet3\nwait 1s\nfold 1\n",   # a fold in between: seat 3's raise binds
        "call 5 2\nwait 1s\n", down(3, 5, winner=3)),
    "betting.10-before-the-deal": Case(
        "betting.10", "Deal on and leave seat 5's chips where they are",
        # one card each, seat 5 (first to act) raises; the deal goes on with seat 1's second card
        TABLE.split("deal hole cards")[0] + "wait 1s\ncard 9c shoe -> seat1\ncard Ah shoe -> seat3\n"
        "card 7s shoe -> seat5\nwait 1s\nraise 5 6\nwait 1s\ncard 9d shoe -> seat1\n",
        "card Kd shoe -> seat3\ncard 2h shoe -> seat5\nwait 2s\n",
        "fold 1\nwait 1s\ncall 3 4\nwait 1s\n" + down(3, 5, winner=5)),   # seat 5's pair of deuces
    "betting.12-brought-up": Case(
        "betting.12", "bring it up to 20", TABLE + "raise 5 6\nwait 1s\nraise 1 19\nwait 1s\nchips 1x4 -> bet3\n",
        "chips 14 -> bet3\nwait 1s\ncall 5 14\nwait 1s\n", down(1, 3, 5, winner=1)),
    "betting.12-taken-back": Case(
        "betting.12", "or take the chips back and act again",
        TABLE + "raise 5 6\nwait 1s\nraise 1 19\nwait 1s\nchips 1x4 -> bet3\n",
        "chips 4 bet3 -> off\nwait 1s\nfold 3\nwait 1s\ncall 5 14\nwait 1s\n", down(1, 5, winner=1)),
    "betting.14": Case(
        "betting.14", "The first action (2) stands; return the 4", TABLE + "chips 2 then 4 -> bet5\n",
        "chips 4 bet5 -> off\nwait 1s\ncall 1 1\nwait 1s\ntap check seat 3\nwait 1s\n", down(1, 3, 5, winner=1)),
    "betting.16": Case(
        "betting.16", "Seat 5 must bring the call up to 2 before the round ends", TABLE + "chips 1x1 -> bet5\n",
        "chips 1 -> bet5\nwait 1s\ncall 1 1\nwait 1s\ntap check seat 3\nwait 1s\n", down(1, 3, 5, winner=1)),
    "no-limit.10": Case(
        "no-limit.10", "Seat 5 must bring the raise up to 4 (minimum raise), no more", TABLE + "chips 1x3 -> bet5\n",
        "chips 1 -> bet5\nwait 1s\ncall 1 3\nwait 1s\ncall 3 2\nwait 1s\n", down(1, 3, 5, winner=1)),
    "holdem.3": Case(
        "holdem.3", "finish the betting, then the flop cards go back into the stub, reshuffle, cut and deal a new "
                    "flop without a burn (the burn card stays)",
        TABLE + "call 5 2\nwait 1s\ncall 1 1\nwait 1s\nburn 3s\ncard 9h shoe -> board\ncard 8s shoe -> board\n"
        "card 4d shoe -> board\n",   # seat 3, the big blind, has not acted
        "tap check seat 3\nwait 1s\ngather\ncard 9h board -> shoe\ncard 8s board -> shoe\ncard 4d board -> shoe\n"
        "wait 1s\ncard Qc shoe -> board\ncard Jc shoe -> board\ncard 6h shoe -> board\nwait 1s\n",
        "".join(f"tap check seat {s}\nwait 1s\n" for s in (1, 3, 5)) + "turn 5c\n"
        + "".join(f"tap check seat {s}\nwait 1s\n" for s in (1, 3, 5)) + "river 2d\n"
        + "".join(f"tap check seat {s}\nwait 1s\n" for s in (1, 3, 5)) + "wait 2s\nwin 1\nwait 1s\ncleanup\nwait 1s\n"
        + NEXT),
}
