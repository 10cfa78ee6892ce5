"""Words cases of the Cards rows: the fault (a raising scenario of tests/scenarios/, or the deal lines of its own),
then the dealer doing what the ruling says (a misdeal: cards back, every chip back to whoever put it in, the same
button dealt again; a replaced card: the top card after the deal, the exposed one burnt), then the hand and the
next one."""

from __future__ import annotations

from .common import Case, folded_to, folded_to_the_big_blind
from .showdown import after, upto

# four players, seat 1 on the button: seat 2 posts the small blind, seat 3 the big; the deal goes 2, 3, 4, 1
SEATS = (1, 2, 3, 4)
TABLE = "table seats 6\ngame nlhe blinds 1/2\n\nhello\nshoe loaded\n" + "".join(
    f"sit {s} 200\n" for s in SEATS) + "button 1\nblinds\n"
FIRST_ROUND = "card Ah shoe -> seat2\ncard Kh shoe -> seat3\ncard Qs shoe -> seat4\ncard 9c shoe -> seat1\n"
DEALT = FIRST_ROUND + "card 7c shoe -> seat2\ncard 2d shoe -> seat3\ncard Qd shoe -> seat4\ncard 9d shoe -> seat1\n"
SAME_BUTTON = "Cards back to the shoe, reshuffle, same button; every chip goes back to whoever put it in"
MISDEAL = ("misdeal", "complete", "complete")
PREFLOP = "wait 1s\ncall 4 2\nwait 1s\ncall 1 2\nwait 1s\ncall 2 1\nwait 1s\ntap check seat 3\nwait 1s\ngather\n"
LIMPED = TABLE + DEALT + PREFLOP


REST_OF_DEAL = "card Qs shoe -> seat4\ncard 9c shoe -> seat1\n" + DEALT.split("card 9c shoe -> seat1\n")[1]
VOID = upto("void-duplicate-card.scn", "card DEMO-2:Qs")
# every chip back to whoever bet it, the cards back; the redeal (heads-up, seat 4's button) and the next hand
VOID_BACK = ("wait 5s\ncall-floor\nchips 2 pot -> bet1\nchips 2 pot -> bet4\ntake 1\ntake 4\n"
             "card DEMO-2:Qs board -> off\ncleanup\n")          # the new deck check: the blue card goes
VOID_REDEAL = folded_to_the_big_blind((1, 4), 4) + folded_to_the_big_blind((1, 4), 1)
TOO_LATE = TABLE + DEALT + "wait 1s\ncall 4 2\nwait 1s\ncall 1 2\nwait 1s\ncard 5c shoe -> seat3\n"
DEAD_3 = "card Kh seat3 -> muck\ncard 2d seat3 -> muck\ncard 5c seat3 -> muck\n"
# one hand with the red deck, then a blue one loaded and dealt
CHANGED_DECK = (TABLE.replace("button 1\nblinds\n", "") + folded_to_the_big_blind(SEATS, 1) + "shoe loaded DEMO-2\n"
                "wait 2s\nbutton 2\nwait 1s\nblinds\ndeal hole cards\nwait 2s\n")


def on_board(rule: str, follows: str, name: str, fault: str, remedy: str, nxt: str, info: bool = False) -> Case:
    """A hole card put on the board (faults-hole-card-*.scn): the scenario cut at ``fault``, the dealer doing
    ``remedy`` (the scenario's own next lines), the rest of the hand and the next one (``nxt``)."""
    last = remedy.strip().splitlines()[-1]
    return Case(rule, follows, upto(name, fault), remedy, after(name, last) + nxt, info=info)


def street(burn: str, *cards: str, seats: tuple[int, ...] = (2, 3, 4, 1)) -> str:
    """A burn (none for ``""``), the board cards, every seat of ``seats`` checking, the bets gathered."""
    lines = f"card {burn} shoe -> burn\n" if burn else ""
    lines += "".join(f"card {c} shoe -> board\n" for c in cards)
    return lines + "".join(f"wait 1s\ntap check seat {s}\n" for s in seats) + "wait 1s\ngather\nwait 1s\n"


def to_the_straight(seats: tuple[int, ...] = (2, 3, 4, 1), flop: str = "5d") -> str:
    """Flop (burning ``flop`` unless it is ""), turn and river checked by ``seats``: seat 1's straight (9-9 in the
    hole) takes the pot, and the next hand (button 2) is folded to its big blind."""
    return (street(flop, "Qh", "Jh", "3c", seats=seats) + street("6d", "8c", seats=seats)
            + street("7d", "Th", seats=seats) + "wait 2s\nwin 1\nwait 1s\ncleanup\n"
            + folded_to_the_big_blind(SEATS, 2))


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
    "holdem.2": Case(
        "holdem.2", "all of them go back into the stub, reshuffle, cut, and deal a new flop without a burn",
        LIMPED + "card 5d shoe -> burn\n" + "".join(f"card {c} shoe -> board\n" for c in ("Qh", "Jh", "3c", "4s")),
        "".join(f"card {c} board -> shoe\n" for c in ("Qh", "Jh", "3c", "4s")), to_the_straight(flop="")),
    "holdem.4": Case(
        "holdem.4", "Finish the betting, burn and turn the next card as the turn; after that round reshuffle with it "
        "and turn the river without a burn",
        LIMPED + "card 5d shoe -> burn\ncard Qh shoe -> board\ncard Jh shoe -> board\ncard 3c shoe -> board\n"
        "wait 1s\ntap check seat 2\nwait 1s\ntap check seat 3\nwait 1s\ncard 6d shoe -> burn\ncard 4s shoe -> board\n",
        "tap check seat 4\nwait 1s\ntap check seat 1\nwait 1s\ngather\nwait 1s\n" + street("7d", "8c")
        + "card 4s board -> shoe\n", street("", "Th") + "wait 2s\nwin 1\nwait 1s\ncleanup\n"
        + folded_to_the_big_blind(SEATS, 2)),
    "holdem.5": Case(
        "holdem.5", "the last card it received goes back as the burn card; deal on",
        TABLE + DEALT + "card 5c shoe -> seat2\n", "card 5c seat2 -> burn\n", PREFLOP + to_the_straight(flop="")),
    "irregularity.11": Case(
        "irregularity.11", "the last card it received goes back as the burn card; deal on",
        TABLE + DEALT + "card 5c shoe -> seat3\n", "card 5c seat3 -> burn\n", PREFLOP + to_the_straight(flop="")),
    "misdeal.2": Case(
        "misdeal.2", "two players behind the blinds have acted, the hand plays to the end", TOO_LATE, DEAD_3,
        "call 2 1\nwait 1s\ngather\n" + to_the_straight((2, 4, 1)), also=("dead-hand.1d",)),
    "dead-hand.1d": Case(
        "dead-hand.1d", "the hand is dead, cards to the muck", TOO_LATE, DEAD_3,
        "call 2 1\nwait 1s\ngather\n" + to_the_straight((2, 4, 1)), also=("misdeal.2",)),
    "irregularity.1": Case(
        "irregularity.1", "for the next hand put it where the rotation from seat 1 says",
        TABLE + DEALT + "wait 1s\ncall 4 2\nwait 1s\ncall 1 2\nwait 1s\nbutton 3\n", "",
        "call 2 1\nwait 1s\ntap check seat 3\nwait 1s\ngather\n" + to_the_straight(), also=("misdeal.2",)),
    "irregularity.7": Case(
        "irregularity.7", "Take it out; seat 3 gets the next card instead",
        # the ruling comes with the dealer's next move, here taking the boxed card out: the next card is seat 3's
        TABLE + "card Ah shoe -> seat2\ncard Kh shoe -> seat3 face up\nwait 1s\ncard Kh seat3 -> muck\n",
        "card 7c shoe -> seat3\n",
        REST_OF_DEAL.replace("card 7c shoe -> seat2", "card 5s shoe -> seat2") + PREFLOP + to_the_straight()),
    "irregularity.8": Case(
        "irregularity.8", "Take it out; seat 3 gets the next card instead",
        TABLE + "card Ah shoe -> seat2\ncard X1 shoe -> seat3\n", "card X1 seat3 -> muck\ncard Kh shoe -> seat3\n",
        REST_OF_DEAL + PREFLOP + to_the_straight()),
    "dead-hand.3": Case(
        "dead-hand.3", "seat 4's cards to the muck, seat 1 keeps its own",
        LIMPED + "card Qs seat4 -> seat1\ncard Qd seat4 -> seat1\n", "card Qs seat1 -> muck\ncard Qd seat1 -> muck\n",
        to_the_straight((2, 3, 1))),
    "procedures.22": Case(
        "procedures.22", "nobody may look through the discards; put it back",
        LIMPED + "fold 4\nwait 1s\ncard Qs muck -> seat4\n", "card Qs seat4 -> muck\n", to_the_straight((2, 3, 1))),
    "irregularity.3": Case(
        "irregularity.3", "every chip goes back to whoever bet it; cards back, new deck check, redeal", VOID,
        VOID_BACK, VOID_REDEAL, ("void", "complete", "complete"), ("irregularity.4",)),
    "irregularity.4": Case(
        "irregularity.4", "every chip goes back to whoever bet it; replace the deck", VOID,
        VOID_BACK, VOID_REDEAL, ("void", "complete", "complete"), ("irregularity.3",)),
    "dead-hand.1e": Case(
        "dead-hand.1e", "the hand is dead, cards to the muck",
        TABLE + "card Ah shoe -> seat2\ncard X1 shoe -> seat3\n" + REST_OF_DEAL + "card Kh shoe -> seat3\n" + PREFLOP,
        "card X1 seat3 -> muck\ncard Kh seat3 -> muck\ncard 2d seat3 -> muck\n", to_the_straight((2, 4, 1)),
        also=("irregularity.8",)),
    "showdown.1": Case(
        "showdown.1", "it cannot win any part of the pot; main pot to seat 4",
        LIMPED + street("5d", "Qh", "Jh", "3c") + street("6d", "8c") + street("7d", "Th")
        + "wait 2s\ntap muck-unshown seat 1\n", "card 9c seat1 -> muck\ncard 9d seat1 -> muck\n",
        "win 4\nwait 1s\ncleanup\n" + folded_to_the_big_blind(SEATS, 2)),
    # a hole card put on the board (issue 31): back to its seat, or mucked as the seat's fold, or a folded hand's
    # discard mucked; during the deal the game's own rule; on two boards as on one
    "irregularity.12-on-the-board": on_board(
        "irregularity.12", "Put it back in front of seat 3: it still plays", "faults-hole-card-on-the-board.scn",
        "card Kd seat3 -> board", "card Kd board -> seat3\n", folded_to_the_big_blind((1, 3, 5), 1)),
    "irregularity.12-mucked-from-the-board": on_board(
        "irregularity.12", "if seat 1 folds, it goes to the muck", "faults-hole-card-mucked-from-the-board.scn",
        "card Qh seat1 -> board", "card Qh board -> muck\ncard Jd seat1 -> muck\n",
        folded_to_the_big_blind((1, 3, 5), 1)),
    "irregularity.12-folded-hand": on_board(
        "irregularity.12", "a discard, no board card; put it in the muck",
        "faults-hole-card-mucked-from-the-board-ok.scn",
        "card Jd seat1 -> board", "card Jd board -> muck\n", folded_to_the_big_blind((1, 3, 5), 1), info=True),
    "irregularity.12-double-board": on_board(
        "irregularity.12", "Put it back in front of seat 5: it still plays", "faults-hole-card-on-a-double-board.scn",
        "card Kd seat5 -> board", "card Kd board -> seat5\n", folded_to_the_big_blind((1, 3, 5), 3)),
    "irregularity.12-run-twice": on_board(
        "irregularity.12", "Put it back in front of seat 1: it still plays",
        "faults-hole-card-on-the-board-run-twice.scn",
        "card Kd seat1 -> board", "card Kd board -> seat1\n", folded_to_the_big_blind((1, 3), 3)),
    "holdem.1-on-the-board": on_board(
        "holdem.1", "After the deal seat 3 gets the top card and the card on the board becomes the burn card",
        "faults-hole-card-on-the-board-in-the-deal.scn", "card Kh seat3 -> board",
        "card Kd shoe -> seat3\ncard 2c shoe -> seat5\ncard 4c shoe -> seat3\ncard Kh board -> burn\n",
        folded_to_the_big_blind((1, 3, 5), 1)),
    # a draw game (27td): a replacement dealt face up is out of play, the next card is the seat's (docs/draw.md); a
    # discard lifted off every antenna and put back in the muck stays there. Then a hand folded to the big blind
    "irregularity.12-in-a-draw": Case(
        "irregularity.12", "It is out of play: put it in the muck; seat 3 gets the next card",
        upto("faults-draw-replacement-face-up.scn", "card Jh shoe -> seat3 face up"),
        "card Jh seat3 -> muck\ncard Jd shoe -> seat3\n",
        after("faults-draw-replacement-face-up.scn", "card Jd shoe -> seat3") + folded_to_the_big_blind(SEATS, 2)),
    "procedures.22-lifted-in-a-draw": Case(
        "procedures.22", "nobody may look through the discards; it stays there, dead",
        upto("faults-draw-discard-lifted-off-the-muck.scn", "card Kc -> muck"), "",
        after("faults-draw-discard-lifted-off-the-muck.scn", "card Kc -> muck") + folded_to_the_big_blind(SEATS, 2)),
    "irregularity.12": Case(
        "irregularity.12", "Kh was flashed by the dealer: it counts as exposed",
        TABLE + "card Ah shoe -> seat2\ncard Kh shoe -> seat3\ntap exposed card Kh\n",
        # then Hold'em 1, the exposed card's own ruling: the deal goes on, seat 3 gets the top card, Kh is the burn
        REST_OF_DEAL + "card 5s shoe -> seat3\ncard Kh seat3 -> burn\n", PREFLOP + to_the_straight(flop=""),
        info=True, also=("holdem.1",)),
    "procedures.21": Case(
        "procedures.21", "before a full round of 4; allowed only if it was damaged",
        # the red one damaged, say: the hand plays on with the blue one
        CHANGED_DECK, "",
        folded_to(4, 1, 2, 3) + folded_to_the_big_blind(SEATS, 3), ("complete",) * 3),
    # the other reading (not damaged): the new deck is not changed back at once, only after its full round
    "procedures.21-not-damaged": Case(
        "procedures.21", "Either way play on with the new deck for a full round; changing back is another change",
        CHANGED_DECK, "", folded_to(4, 1, 2, 3) + "".join(folded_to_the_big_blind(SEATS, b) for b in (3, 4, 1))
        + "shoe loaded DEMO-1\nwait 2s\n" + folded_to_the_big_blind(SEATS, 2), ("complete",) * 6),
}
