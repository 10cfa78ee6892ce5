"""Words cases of the tournament rows: the fault (the row's raising scenario of tests/scenarios/tournament/, cut
where the ruling comes), the dealer doing what the ruling says, then the hand and the next one."""

from __future__ import annotations

from .common import SCENARIOS, Case, folded_to, folded_to_the_big_blind

T = "tournament/"
THREE = (1, 3, 5)


def checked_down(*seats: int, winner: int) -> str:
    """Gather, then flop, turn and river checked by ``seats``, the pot to ``winner``."""
    checks = "".join(f"tap check seat {s}\nwait 1s\n" for s in seats)
    return (f"gather\nwait 1s\nflop 9h 8s 4d\n{checks}turn 5c\n{checks}river 2d\n{checks}wait 2s\nwin {winner}\n"
            "wait 1s\ncleanup\nwait 1s\n")


# the T02 table of the t03 event: three players, seat 5 on the button unless a case moves it
T02 = ("tournament t03_event.toml\ntable seats 9 id T02\ngame nlhe blinds 25/50\nset game.smallest_chip 5\nhello\n"
       "shoe loaded\nsit 1 5000\nsit 3 5000\nsit 5 5000\n")


# hand 2 of the Tournaments 7 scenario, its blinds put in at level 1's amounts after level 2 began
LEVEL_1_POSTS = (SCENARIOS / "tournament/t07_wrong_level_post.scn").read_text().split("deal hole cards 1=Tc")[0]


# the chip race of the t08 scenarios (5s raced for 25s) redealt in order: seat 1's three cards, then seat 3's two
IN_ORDER = ((1, "2c"), (1, "9s"), (1, "4d"), (3, "Kd"), (3, "7h"))
RACE_REDEALT = ("".join(f"card {c} seat{s} -> shoe\n" for s, c in IN_ORDER) + "wait 1s\n"
                + "".join(f"card {c} shoe -> seat{s} face up\n" for s, c in IN_ORDER))
# the race's award carried out: every odd 5 off the table (the 25s won are paid to the stacks), the cards back
ODD_CHIPS_OFF = "chips all bet1 -> off\nchips all bet3 -> off\nchips all bet5 -> off\nwait 1s\ncleanup\nwait 1s\n"
RACE_THEN_TWO_HANDS = folded_to_the_big_blind(THREE, 5) + folded_to_the_big_blind(THREE, 1)
RACE_RULED = ("tournament.6", "tournament.8a")   # the level's prompt and the colour-up's, before any race card


def cut(scenario: str, *lines: str) -> str:
    """A scenario of tests/scenarios/tournament/ without the dealer's confirmations ``lines`` (the remedy)."""
    text = (SCENARIOS / T / scenario).read_text()
    for line in lines:
        assert line in text, (scenario, line)
        text = text.replace(line, "", 1)
    return text


MOVED_OUT_123 = ("moved-out 1\n", "moved-out 2\n", "moved-out 3\n")
EIGHT = tuple(range(1, 9))
SIX = tuple(range(1, 7))


def eight_but(seat: int) -> tuple[int, ...]:
    return tuple(s for s in EIGHT if s != seat)


CASES: dict[str, Case] = {
    "tournament.22": Case(
        "tournament.22", "the wager is a call of 50; return 50", T + "t22_cap_heads_up.scn", "chips 50 bet3 -> off\n",
        checked_down(3, 1, winner=1) + folded_to_the_big_blind((1, 3), 3), deal="1=As,Ad 3=Kh,Kd"),
    "tournament.23": Case(
        "tournament.23", "the first move is the raise: return the 100", T + "t23_string_bet.scn",
        "chips 100 bet5 -> off\n", folded_to(5, 1, 3) + folded_to_the_big_blind(THREE, 1)),
    "tournament.24": Case(
        "tournament.24", "It does not count; take it out and hand it back to its owner", T + "t24_foreign_chip_pot.scn",
        "chips 25 pot -> off\n", folded_to(5, 1, 3) + folded_to_the_big_blind(THREE, 1)),
    "tournament.6": Case(
        "tournament.6", "Level 2: 2/4, from the next deal", T + "t06_level_prompt.scn", "",
        # one-minute levels: the next deal is played briskly, before level 2's minute is up and the break is called
        "button 3\npost 5 2\npost 1 4\ndeal hole cards\nfold 3\nfold 5\ngather\nwin 1\ncleanup\n"),
    "tournament.21": Case(
        "tournament.21", "the hand is live, the floor decides any penalty", T + "t21_cards_shown.scn", "",
        "wait 2s\n" + folded_to(3, 5, 1) + folded_to_the_big_blind(THREE, 1)),
    "tournament.29": Case(
        "tournament.29", "every chip goes back to whoever put it in; move the button to seat 1 and redeal",
        T + "t29_draw_for_button.scn", "cleanup\nwait 1s\nchips all bet3 -> off\nchips all bet5 -> off\nwait 1s\n"
        "button 1\nwait 1s\npost 3 1\nwait 1s\npost 5 2\nwait 1s\ndeal hole cards\nwait 2s\n",
        folded_to(5, 1, 3), ("misdeal", "complete")),   # one-minute levels: the next deal would be level 2's
    "tournament.3": Case(
        "tournament.3", "Cards back to the shoe, reshuffle, same button; every chip goes back to whoever put it in",
        T + "t03_first_deal.scn", "cleanup\nwait 1s\nchips all bet1 -> off\nchips all bet3 -> off\nwait 1s\n",
        folded_to_the_big_blind(THREE, 5) + folded_to_the_big_blind(THREE, 1), ("misdeal", "complete", "complete")),
    "tournament.30": Case(
        "tournament.30", "every chip goes back to whoever put it in; post the blinds there and redeal",
        T + "t30_dead_button.scn", "cleanup\nwait 1s\nchips all bet5 -> off\nchips all bet6 -> off\nwait 1s\n"
        "post 5 1\nwait 1s\npost 6 2\nwait 1s\ndeal hole cards\nwait 2s\n", folded_to(6, 1, 5),
        ("complete", "misdeal", "complete")),
    "tournament.31": Case(
        "tournament.31", "every chip goes back to whoever put it in; post the blinds there and redeal",
        T + "t31_heads_up_blinds.scn", "cleanup\nwait 1s\nchips all bet1 -> off\nchips all bet3 -> off\nwait 1s\n"
        "post 1 1\nwait 1s\npost 3 2\nwait 1s\ndeal hole cards\nwait 2s\n", folded_to(3, 1), ("misdeal", "complete")),
    "tournament.9": Case(
        "tournament.9", "Post the blinds and antes for seat(s) 5: dealt in though not at the table",
        T02 + "button 3\naway 5\nwait 1s\npost 1 50\nwait 1s\ndeal hole cards\n",
        "post 5 25\nwait 1s\nfold 5\nwait 1s\n", folded_to(1, 3) + "back-in 5\n" + folded_to_the_big_blind(THREE, 5),
        also=("tournament.11",), folder=T),
    "tournament.11": Case(
        "tournament.11", "not back by the last starting card: the hand is dead", T + "t11_away_hand_dead.scn",
        "fold 5\nwait 1s\n", folded_to(3, 1) + "back-in 5\n" + folded_to_the_big_blind(THREE, 1),
        also=("tournament.9",)),
    "tournament.5": Case(
        "tournament.5", "Post the blinds and antes for seat(s) 9", T + "t05_held_seat.scn", "post 1 50\nwait 1s\n",
        # the held seat is dealt in (Tournaments 5), and folded
        "".join(f"card random shoe -> seat{s}\n" for s in (9, 1, 3, 5) * 2) + "wait 2s\n" + folded_to(1, 3, 5, 9),
        ("complete",)),
    "tournament.7": Case(
        "tournament.7", "Seat 1 posted 2 as the big blind; level 2 calls for 4: bring it up to 4",
        LEVEL_1_POSTS + "deal hole cards 1=Tc,Td 3=Qs,Js 5=8h,8s\n",
        "chips 1 -> bet5\nchips 2 -> bet1\n",   # one-minute levels: played briskly, before level 3
        "fold 3\nfold 5\nwin 1\ncleanup\n", also=("tournament.6",), folder=T),
    "tournament.28": Case(
        "tournament.28", "without a dealer change or a damaged card: decks are not changed on request",
        T + "t28_deck_changed.scn", "", folded_to(1, 3) + folded_to_the_big_blind((1, 3), 1), ("complete",) * 3),
    # not changed back at once (another change on request): kept until a new dealer signs in, who may change it
    "tournament.28-until-the-dealer-changes": Case(
        "tournament.28", "Play on with DEMO-2 until the next dealer change; changing back is another change",
        T + "t28_deck_changed.scn", "", folded_to(1, 3) + folded_to_the_big_blind((1, 3), 1)
        + "sign-in by dana\nwait 1s\nshoe loaded DEMO-1\nwait 2s\n" + folded_to_the_big_blind((1, 3), 3),
        ("complete",) * 4),
    "tournament.33": Case(
        "tournament.33", "dealt in now, owes the rebuy until it is made", T + "t33_rebuy.scn", "rebuy-paid 3\n",
        folded_to_the_big_blind(THREE, 5) + folded_to_the_big_blind(THREE, 1)),
    "tournament.8a": Case(
        "tournament.8a", "A 5 chip was coloured up and does not play: take it back", T + "t08a_colour_up.scn",
        "chips 5 bet5 -> off\n", folded_to(5, 1, 3) + folded_to_the_big_blind(THREE, 1), also=("tournament.6",)),
    "tournament.8b": Case(
        "tournament.8b", "deal clockwise from seat 1, all of a player's cards before the next player's",
        T + "t08b_race_deal.scn", RACE_REDEALT,
        # the right deal checked, its award shown: take the odd chips off and confirm, as the right deal is
        "chip-race\nwait 1s\n" + ODD_CHIPS_OFF + "chip-race\nwait 1s\n" + RACE_THEN_TWO_HANDS,
        also=RACE_RULED, near=T + "t08b_race_deal-ok.scn"),
    "tournament.8c": Case(
        "tournament.8c", "take every odd 5 off the table; one 25 each to seat 3", T + "t08c_race_award.scn",
        ODD_CHIPS_OFF, RACE_THEN_TWO_HANDS, also=RACE_RULED),
    "tournament.8d": Case(
        "tournament.8d", "seat 1 holds half a 25 or more and gets one", T + "t08d_race_leftover.scn", ODD_CHIPS_OFF,
        RACE_THEN_TWO_HANDS, also=(*RACE_RULED, "tournament.8c")),
    "tournament.4": Case(
        "tournament.4", "the floor may remove the stack", T + "t04_absent_entrant.scn",
        "leave 5\n",   # the floor has it removed: the seat is empty, no longer dealt in or posted for
        # one-minute levels: level 2's first deal played briskly, heads-up, the button the small blind
        "button 3\npost 3 2\npost 1 4\ndeal hole cards\nfold 3\ngather\nwin 1\ncleanup\n", ("complete",) * 2,
        also=("tournament.6", "tournament.9", "tournament.11")),
    "tournament.12": Case(
        "tournament.12", "Once any hand in play is over, tap Moved out as each seat empties",
        cut("t12_table-breaks.scn", *MOVED_OUT_123),
        "".join(MOVED_OUT_123), "", (), folder=T),    # a broken table deals no more
    "tournament.14a": Case(
        "tournament.14a", "once any hand in play is over. Tap Moved out when the seat is empty",
        cut("t14a_send-the-next-big-blind.scn", "moved-out 4\n"),
        "moved-out 4\n", folded_to_the_big_blind(eight_but(4), 2) + folded_to_the_big_blind(eight_but(4), 3),
        ("complete",) * 3, folder=T),
    "tournament.14b": Case(
        "tournament.14b", "Tap Moved in when they sit", cut("t14b_seat-the-arrival.scn", "moved-in 6 amount 10000\n"),
        "moved-in 6 amount 10000\n", folded_to_the_big_blind(SIX, 5) + folded_to_the_big_blind(SIX, 6), folder=T),
    "tournament.16": Case(
        "tournament.16", "send a player", cut("t16_table-off-balance.scn", "moved-out 5\n"),
        "moved-out 5\n",   # the player the balancing move names (Tournaments 14) goes
        folded_to_the_big_blind(eight_but(5), 1) + folded_to_the_big_blind(eight_but(5), 2),
        also=("tournament.14a",), folder=T),
    "tournament.17": Case(
        "tournament.17", "the floor runs the draw", cut("t17_redraw.scn", "moved-in 8 amount 7000\n"),
        "moved-in 8 amount 7000\n",   # the arrival the floor had already sent sits; the table plays on till the draw
        folded_to_the_big_blind(EIGHT, 1) + folded_to_the_big_blind(EIGHT, 2), also=("tournament.14b",), folder=T),
}
