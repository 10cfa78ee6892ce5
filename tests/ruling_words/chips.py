"""Words cases of the Chips and betting rows: each fault is the row's raising scenario (tests/scenarios/chips-*.scn),
the remedy the chips the ruling names going back or in, then the hand and the next one."""

from __future__ import annotations

from .common import Case, folded_to, folded_to_the_big_blind

THREE = (1, 3, 5)
NEXT = folded_to_the_big_blind(THREE, 1)     # seat 5 had the button: it moves to seat 1
ACES = "1=As,Ad 3=Kh,Kd 5=7s,2h"


def down(*seats: int, winner: int) -> str:
    """Gather, then flop, turn and river checked by ``seats``, the pot to ``winner``."""
    checks = "".join(f"tap check seat {s}\nwait 1s\n" for s in seats)
    return (f"gather\nwait 1s\nflop 9h 8s 4d\n{checks}turn 5c\n{checks}river 2d\n{checks}wait 2s\nwin {winner}\n"
            "wait 1s\ncleanup\nwait 1s\n")


def flop_folded(winner: int, *folds: int) -> str:
    return "gather\nwait 1s\nflop\nwait 1s\n" + folded_to(winner, *folds)


CASES: dict[str, Case] = {
    "betting.3": Case(
        "betting.3", "the wager is a call of 4; return 2", "chips-betting.3.scn",
        "chips 2 bet5 -> off\nwait 1s\ncall 1 2\n", flop_folded(5, 1, 3) + NEXT),
    "betting.5": Case(
        "betting.5", "the wager is a call of 4; return 20", "chips-betting.5.scn",
        "chips 20 bet5 -> off\n", down(3, 5, winner=1) + NEXT, deal=ACES),
    "betting.6": Case(
        "betting.6", "it is a call of 10; return 4", "chips-betting.6.scn",
        "chips 4 bet5 -> off\nwait 1s\ncall 1 5\nwait 1s\ntap check seat 3\n", flop_folded(5, 1, 3) + NEXT),
    "betting.7": Case(
        "betting.7", "below the smallest chip in play (5) and do not play", "chips-betting.7.scn",
        "chips 1 bet5 -> off\nwait 1s\ncall 1 5\nwait 1s\ntap check seat 3\n",
        flop_folded(5, 1, 3) + NEXT),
    "betting.15": Case(
        "betting.15", "is a call of 5; give back 20 in change", "chips-betting.15.scn",
        "change 25 bet5 for 5x5\nwait 1s\nchips 20 bet5 -> off\nwait 1s\ncall 1 3\nwait 1s\ntap check seat 3\n",
        flop_folded(5, 1, 3) + NEXT),
    "no-limit.2": Case(
        "no-limit.2", "Seat 1 must bring the bet up to 2", "chips-no-limit.2.scn",
        "chips 1 -> bet1\n", folded_to(1, 3, 5) + NEXT),
    "no-limit.3": Case(
        "no-limit.3", "the wager is a call of 4; return 26", "chips-no-limit.3.scn",
        "change 5 bet5 for 1x5\nwait 1s\nchips 26 bet5 -> off\n", down(3, 5, winner=1) + NEXT, deal=ACES),
    "no-limit.9": Case(
        "no-limit.9", "is a call of 2; give back 3 in change", "chips-no-limit.9.scn",
        "change 5 bet5 for 1x5\nwait 1s\nchips 3 bet5 -> off\nwait 1s\ncall 1 1\nwait 1s\ntap check seat 3\n",
        flop_folded(5, 1, 3) + NEXT),
    "no-limit.12": Case(
        "no-limit.12", "seat 5 takes the 4 back", "chips-no-limit.12.scn",
        "chips 4 bet5 -> off\n", folded_to(2, 3, 5, 1) + folded_to_the_big_blind((1, 2, 3, 5), 1)),
    "pot-limit.1": Case(
        "pot-limit.1", "it is reduced to 6; return 9", "chips-pot-limit.1.scn",
        "change 5 bet1 for 1x5\nwait 1s\nchips 9 bet1 -> off\n", folded_to(1, 3, 5) + NEXT),
    "pot-limit.1-rounded": Case(
        "pot-limit.1", "it is reduced to 10; return 1", "chips-pot-limit.1-rounded.scn",
        "chips 1 bet1 -> off\n", folded_to(1, 3, 5) + NEXT),
    "pot-limit.4": Case(
        "pot-limit.4", "seat 5 makes it 7 in all; return 3", "chips-pot-limit.4.scn",
        "change 5 bet5 for 1x5\nwait 1s\nchips 3 bet5 -> off\nwait 1s\ncall 1 6\nwait 1s\ncall 3 5\n",
        flop_folded(5, 1, 3) + NEXT),
    "pot-limit.6": Case(
        "pot-limit.6", "the most seat 5 may make it is 8; return 2", "chips-pot-limit.6.scn",
        "change 5 bet5 for 1x5\nwait 1s\nchips 2 bet5 -> off\nwait 1s\ncall 1 7\nwait 1s\ncall 3 6\n",
        flop_folded(5, 1, 3) + NEXT),
    "pot-limit.7": Case(
        "pot-limit.7", "it is a pot-sized bet of 6; return 19", "chips-pot-limit.7.scn",
        "change 25 bet1 for 5x3 1x10\nwait 1s\nchips 19 bet1 -> off\n", folded_to(1, 3, 5) + NEXT),
    "procedures.3": Case(
        "procedures.3", "hand them back and change them up after the hand", "chips-procedures.3.scn",
        "chips 5 bet5 -> off\nwait 1s\ncall 1 1\nwait 1s\ntap check seat 3\n", flop_folded(5, 1, 3) + NEXT),
    "blinds.3": Case(
        "blinds.3", "Misdeal: correct the blinds and redeal", "chips-blinds.3.scn",
        "cleanup\nwait 1s\nchips all bet1 -> off\nchips all bet3 -> off\n",
        folded_to_the_big_blind((1, 3), 1) + folded_to_the_big_blind((1, 3), 3), ("misdeal", "complete", "complete")),
    "blinds.10": Case(
        "blinds.10", "once they act and put chips in, the hand plays and they post next deal", "chips-blinds.10.scn",
        "call 8 6\n", folded_to(8, 1, 3, 5, 7) + folded_to_the_big_blind((1, 3, 5, 7, 8), 5),
        ("complete", "complete", "complete")),
}
