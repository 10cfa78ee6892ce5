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
    "tournament.33": Case(
        "tournament.33", "dealt in now, owes the rebuy until it is made", T + "t33_rebuy.scn", "rebuy-paid 3\n",
        folded_to_the_big_blind(THREE, 5) + folded_to_the_big_blind(THREE, 1)),
    "tournament.8a": Case(
        "tournament.8a", "A 5 chip was coloured up and does not play: take it back", T + "t08a_colour_up.scn",
        "chips 5 bet5 -> off\n", folded_to(5, 1, 3) + folded_to_the_big_blind(THREE, 1), also=("tournament.6",)),
}
