"""A seat's hole card that reaches the board antenna (issue 31): never a board card, ruled as that seat's exposed
card (Irregularities 12) by the game's own rule during the deal (Hold'em 1), after it a card that still plays and
goes back to its seat (or, mucked, a fold), and a folded hand's card a discard. Each case follows the ruling's words
literally and plays the hand to its end with nothing more ruled above ``info``. Two-board hands are in the
scenario pairs tests/scenarios/faults-hole-card-*.scn."""

from __future__ import annotations

from tests.test_engine_cards import FLOP, HANDS, RIVER, TURN, Table

LIVE_WORDS = "Put it back in front of seat 3: it still plays"


def to_board(t: Table, card: str, seat: int) -> Table:
    t.c.move(t.uid_of[card], f"seat{seat}", "board")
    t.c.wait(1.0)
    return t


def back(t: Table, card: str, zone: str) -> Table:
    t.c.move(t.uid_of[card], "board", zone)
    t.c.wait(1.0)
    return t


def showdown(t: Table, hands_shown: int = 4) -> Table:
    t.checked_street("5d", *FLOP).checked_street("6d", TURN).checked_street("8s", RIVER)
    t.run()
    assert len(t.kinds("HandShown")) == hands_shown
    return t


def award(t: Table) -> Table:
    return t.push(2).take(2).tap("award", ref="0", seats=(2,)).cleanup().run()


def test_a_live_seats_hole_card_on_the_board_before_the_flop_is_ruled_and_goes_back_to_its_seat():
    t = Table().preflop_limped()
    to_board(t, "7c", 3).run()
    (f,) = t.findings()
    assert (f.rule, f.severity, f.outcome, f.seats, f.cards) == ("irregularity.12", "dealer", "continues", (3,), ())
    assert "no board card" in f.ruling and LIVE_WORDS in f.ruling
    assert "7c" not in f.ruling                 # it may lie face down: its face never reaches a finding
    back(t, "7c", "seat3")
    showdown(t)
    assert t.engine.snapshot().board == (*FLOP, TURN, RIVER)     # the board is the stub's cards only
    shown = {h.seat: h.cards for h in t.kinds("HandShown")}
    assert set(shown[3]) == {"7c", "2d"}        # it still plays
    award(t)
    assert t.rules() == ["irregularity.12"], [(f.rule, f.ruling) for f in t.findings()]
    assert [e.outcome for e in t.kinds("HandEnded")] == ["complete"]


def test_a_hole_card_on_the_board_after_the_flop_or_the_turn_never_joins_the_board():
    for street_cards in ((FLOP,), (FLOP, (TURN,))):
        t = Table().preflop_limped()
        burns = iter(("5d", "6d"))
        for cards in street_cards:
            t.checked_street(next(burns), *cards)
        to_board(t, "Qs", 4).run()
        assert t.rules() == ["irregularity.12"] and t.findings()[0].seats == (4,)
        board = t.engine.snapshot().board
        assert len(board) == 3 + len(street_cards) - 1 and "Qs" not in board
        back(t, "Qs", "seat4")
        if len(street_cards) == 1:
            t.checked_street("6d", TURN)
        t.checked_street("8s", RIVER).run()
        assert t.engine.snapshot().board == (*FLOP, TURN, RIVER)
        award(t)
        assert t.rules() == ["irregularity.12"]


def test_a_hole_card_left_on_the_board_still_plays_for_its_seat_and_the_board_is_not_built_from_it():
    t = Table().preflop_limped()
    to_board(t, "Ah", 2)
    showdown(t)        # the dealer never took it back: the flop still comes from the stub, the seat keeps its card
    assert t.engine.snapshot().board == (*FLOP, TURN, RIVER)
    shown = {h.seat: h for h in t.kinds("HandShown")}
    assert set(shown[2].cards) == {"Ah", "Kh"} and shown[2].rank == "Straight Flush"
    assert t.rules() == ["irregularity.12"]


def test_a_live_hole_card_mucked_from_the_board_is_that_seats_fold():
    t = Table().blinds().deal_holes(HANDS).bet(4, 2).bet(1, 2)
    to_board(t, "Kh", 2).run()   # the small blind throws a card forward: it lands on the board
    assert t.rules() == ["irregularity.12"]
    back(t, "Kh", "muck").run()    # the words' other branch: seat 2 folds, the card to the muck, then the other
    assert [a.seat for a in t.kinds("ActionTaken") if a.action == "fold"] == [2]
    t.c.move(t.uid_of["Ah"], "seat2", "muck")
    t.check(3).gather()
    t.checked_street("5d", *FLOP, seats=(3, 4, 1)).checked_street("6d", TURN, seats=(3, 4, 1))
    t.checked_street("8s", RIVER, seats=(3, 4, 1)).run()
    assert t.rules() == ["irregularity.12"], [(f.rule, f.ruling) for f in t.findings()]
    assert [a.seat for a in t.kinds("ActionTaken") if a.action == "fold"] == [2]
    assert {h.seat for h in t.kinds("HandShown")} == {1, 3, 4}


def test_a_folded_seats_card_on_the_board_is_a_discard_told_at_info_and_mucked():
    t = Table().blinds().deal_holes(HANDS).bet(4, 2)
    t.c.move(t.uid_of["9c"], "seat1", "muck")     # seat 1 folds: one card reaches the muck
    t.c.wait(0.5)
    to_board(t, "9d", 1).run()                    # its other card slides onto the board
    f = t.finding("irregularity.12")
    assert (f.severity, f.seats, f.cards) == ("info", (1,), ()) and "put it in the muck" in f.ruling
    back(t, "9d", "muck")
    t.bet(2, 1).check(3).gather()
    t.checked_street("5d", *FLOP, seats=(2, 3, 4)).checked_street("6d", TURN, seats=(2, 3, 4))
    t.checked_street("8s", RIVER, seats=(2, 3, 4)).run()
    t.quiet()
    award(t)
    t.quiet()
    assert [e.outcome for e in t.kinds("HandEnded")] == ["complete"]


def test_a_hole_card_on_the_board_during_the_deal_is_the_games_exposed_card_replaced_after_the_deal():
    t = Table().blinds()
    for seat, card in ((2, "Ah"), (3, "7c"), (4, "Qs"), (1, "9c"), (2, "Kh")):
        t.deal(card, f"seat{seat}")
    to_board(t, "7c", 3).run()    # seat 3's first card goes onto the board while the second round is dealt
    info = t.finding("irregularity.12")
    assert info.severity == "info" and info.cards == ()
    (f,) = t.findings()
    assert (f.rule, f.outcome, f.seats, f.cards) == ("holdem.1", "card-replaced", (3,), ())
    assert "After the deal seat 3 gets the top card and the card on the board becomes the burn card" in f.ruling
    # the words: the deal goes on, seat 3 gets the top card after it, the card on the board is the burn card
    for seat, card in ((3, "2d"), (4, "Qd"), (1, "9d"), (3, "5c")):
        t.deal(card, f"seat{seat}")
    back(t, "7c", "burn")
    t.bet(4, 2).bet(1, 2).bet(2, 1).check(3).gather()
    t.board(*FLOP)
    for s in (2, 3, 4, 1):
        t.check(s)
    t.checked_street("6d", TURN).checked_street("8s", RIVER).run()
    shown = {h.seat: set(h.cards) for h in t.kinds("HandShown")}
    assert shown[3] == {"2d", "5c"}
    award(t)
    assert t.rules() == ["holdem.1"], [(f.rule, f.ruling) for f in t.findings()]


def test_the_first_hole_card_dealt_put_on_the_board_is_a_misdeal():
    t = Table().blinds().deal("Ah", "seat2")
    to_board(t, "Ah", 2).run()
    (f,) = t.findings()
    assert (f.rule, f.outcome, f.cards) == ("holdem.1", "misdeal", ())
    assert [e.outcome for e in t.kinds("HandEnded")] == ["misdeal"]


def test_hands_tabled_onto_the_board_at_the_showdown_are_not_ruled():
    t = showdown(Table().preflop_limped())
    for card in ("Ah", "Kh"):
        to_board(t, card, 2)
    t.c.move(t.uid_of["7c"], "seat3", "muck")
    award(t.run())
    t.quiet()
    assert "irregularity.12" not in t.rules(above_info=False)
