"""Words cases of the tournament rows: the fault (the row's raising scenario of tests/scenarios/tournament/, cut
where the ruling comes), the dealer doing what the ruling says, then the hand and the next one."""

from __future__ import annotations

from .common import Case, folded_to, folded_to_the_big_blind

T = "tournament/"
THREE = (1, 3, 5)


def checked_down(*seats: int, winner: int) -> str:
    """Gather, then flop, turn and river checked by ``seats``, the pot to ``winner``."""
    checks = "".join(f"tap check seat {s}\nwait 1s\n" for s in seats)
    return (f"gather\nwait 1s\nflop 9h 8s 4d\n{checks}turn 5c\n{checks}river 2d\n{checks}wait 2s\nwin {winner}\n"
            "wait 1s\ncleanup\nwait 1s\n")


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
}
