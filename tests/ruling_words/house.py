"""Words cases of the house-practice rows (bomb pots, running the board more than once): the fault (the row's
raising scenario of tests/scenarios/, cut where the ruling comes), the dealer doing what the ruling says, then the
hand and, where the stacks allow one, the next."""

from __future__ import annotations

from .common import Case, folded_to_the_big_blind
from .showdown import after, upto

THREE = (1, 3, 5)
# the bomb pot played out: checked down, seat 3's aces win; then the next hand, seat 3 on the button
CHECKED = "".join(f"check {s}\n" for s in (3, 5, 1))
BOMB_REST = (f"wait 2s\ngather\nflop Ah 8c 5s\n{CHECKED}turn 3d\n{CHECKED}river Jh\n{CHECKED}wait 2s\npush 30 to 3\n"
             "take 3\ncleanup\n" + folded_to_the_big_blind(THREE, 3))
ALL_IN = upto("house-run-it.1.scn", "raise 1 199") + "wait 1s\n"


CASES: dict[str, Case] = {
    "bomb-pot.1": Case(
        "bomb-pot.1", "every player posts 10; no preflop betting, the hand starts on the flop",
        upto("house-bomb-pot.2.scn", "post 3 10"), "post 5 10\npost 1 10\nwait 1s\n"
        "deal hole cards 3=As,Ad 5=Kc,Kd 1=7c,2d\n", BOMB_REST, info=True),
    "bomb-pot.2": Case(
        "bomb-pot.2", "seat 1 is dealt in with 0 of the 10 every player posts: put in 10 now, before the flop",
        upto("house-bomb-pot.2.scn", "deal hole cards"), "post 1 10\n", BOMB_REST),
    "bomb-pot.3": Case(
        "bomb-pot.3", "This table does not play bomb pots (house setting game.bomb_pots is off): deal a normal hand",
        upto("house-bomb-pot.3.scn", "bomb-pot amount"), "",
        folded_to_the_big_blind(THREE, 1) + folded_to_the_big_blind(THREE, 3)),
    "run-it.1": Case(
        "run-it.1", "Run it 2 times only after an all-in with no more betting possible: the betting round is not "
        "complete. Deal one board", ALL_IN + "run-it amount 2\n", "call 3 198\nwait 1s\ngather\n",
        "flop 2c 7h 9s\nturn 3d\nriver 4h\nwait 2s\npush 400 to 3\ntake 3\ncleanup\n", ("complete",)),
    # more runs than the stub deals (issue 31): refused with what it deals; the dealer taps that many and deals them
    "run-it.1-stub": Case(
        "run-it.1", "The stub holds 16 cards: 3 runs need 24 (each run its burns and the rest of its board, 8). Deal "
        "2 runs or one board", upto("house-run-it.1-stub.scn", "run-it amount 3"), "run-it amount 2\n",
        after("house-run-it.1-stub.scn", "run-it amount 2") + folded_to_the_big_blind(tuple(range(1, 10)), 1),
        ("complete", "complete")),
    "run-it.2": Case(
        "run-it.2", "deal the rest of board 1, then each further run in full, in order",
        upto("house-boards.1.scn", "run-it amount 2"), "flop 2c 7h 9s\nturn 3d\nriver 4h\nflop Kh 8c 5s\nturn 6d\n"
        "river Jc\n", "wait 2s\npush 200 to 3\npush 200 to 1\ntake 1\ntake 3\ncleanup\n", ("complete",), info=True),
    "boards.1": Case(
        "boards.1", "Every pot is divided equally by board, odd chips to board 1",
        upto("house-boards.1.scn", "river Jc") + "wait 2s\n", "push 200 to 3\npush 200 to 1\n",
        "take 1\ntake 3\ncleanup\n", ("complete",), info=True),
}
