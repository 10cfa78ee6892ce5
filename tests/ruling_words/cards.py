"""Words cases of the Cards rows: the fault (a raising scenario of tests/scenarios/, or the deal lines of its own),
then the dealer doing what the ruling says (a misdeal: cards back, every chip back to whoever put it in, the same
button dealt again; a replaced card: the top card after the deal, the exposed one burnt), then the hand and the
next one."""

from __future__ import annotations

from .common import Case, folded_to_the_big_blind
from .showdown import upto

# four players, seat 1 on the button: seat 2 posts the small blind, seat 3 the big; the deal goes 2, 3, 4, 1
SEATS = (1, 2, 3, 4)
TABLE = "table seats 6\ngame nlhe blinds 1/2\n\nhello\nshoe loaded\n" + "".join(
    f"sit {s} 200\n" for s in SEATS) + "button 1\nblinds\n"
FIRST_ROUND = "card Ah shoe -> seat2\ncard Kh shoe -> seat3\ncard Qs shoe -> seat4\ncard 9c shoe -> seat1\n"
DEALT = FIRST_ROUND + "card 7c shoe -> seat2\ncard 2d shoe -> seat3\ncard Qd shoe -> seat4\ncard 9d shoe -> seat1\n"
SAME_BUTTON = "Cards back to the shoe, reshuffle, same button; every chip goes back to whoever put it in"
MISDEAL = ("misdeal", "complete", "complete")


# the words carried out: the cards gathered, each blind back to its owner; the same button deals again
def misdeal(rule: str, fault: str, also: tuple[str, ...] = (), seats: tuple[int, ...] = SEATS, button: int = 1,
            blinds: tuple[int, int] = (2, 3)) -> Case:
    back = "cleanup\nwait 1s\n" + "".join(f"chips all bet{s} -> off\n" for s in blinds)
    after = seats[(seats.index(button) + 1) % len(seats)]
    redeal = folded_to_the_big_blind(seats, button) + folded_to_the_big_blind(seats, after)
    return Case(rule, SAME_BUTTON, fault, back, redeal, MISDEAL, also)


CASES: dict[str, Case] = {
    "misdeal.1b": misdeal("misdeal.1b", TABLE + "card Ah shoe -> seat2\ntap exposed card Kd\ntap exposed card Qd\n"),
    "misdeal.1c": misdeal("misdeal.1c", upto("misdeal-boxed-cards.scn", "misdeal"), ("irregularity.7",),
                          (2, 4, 6), 2, (4, 6)),
    "misdeal.1d": misdeal("misdeal.1d", TABLE + DEALT + "card 5c shoe -> seat3\ncard 6c shoe -> seat4\n",
                          ("irregularity.11",)),
    "misdeal.1e": misdeal("misdeal.1e", TABLE + DEALT.replace("card 9d shoe -> seat1\n", "card 5d shoe -> burn\n")),
    "misdeal.1f": misdeal("misdeal.1f", upto("misdeal-1f-out-of-sequence.scn", "card Kh")),
    "misdeal.1g": misdeal("misdeal.1g", TABLE + "button 4\ncard Ah shoe -> seat2\n"),
    "misdeal.1h": misdeal("misdeal.1h", TABLE + "card Ah shoe -> seat3\n"),
    "misdeal.1i": misdeal("misdeal.1i", TABLE + DEALT + "card 5c shoe -> seat6\n"),
    "misdeal.1j": misdeal("misdeal.1j",
                          TABLE + FIRST_ROUND.replace("card 9c shoe -> seat1\n", "card 5d shoe -> burn\n")),
    "holdem.1-first-card": misdeal("holdem.1", TABLE + "card Ah shoe -> seat2 face up\ntap exposed\n"),
}
