"""Cards a ruling sets aside, and what the dealer then does with them.

A board card turned too early is out of play (Hold'em 3/4) and goes back into the stub when its ruling says so.
A dealer who sets it aside in the muck and later takes that one card back out does what the ruling says: no look
through the discards (Procedures 22). The exemption is that card alone: a folded hand's card lifted from the same
muck still calls the floor. The scenario pair tests/scenarios/faults-premature-river-set-aside-in-the-muck*.scn
plays the river's case to the end through the sensors.

A boxed card (Irregularities 7) is a scrap of paper: "take it out". A dealer who takes it off the table does just
that; it is no hole card dropped off the table, which must still be played (Irregularities 14, which used to be
said of the scrap too)."""

from __future__ import annotations

from tests.test_engine_cards import FLOP, HANDS, Table


def premature_turn_set_aside(t: Table) -> Table:
    """Flop checked by seat 2; the dealer burns and turns 4s while seat 3 is still to act, then sets it aside in
    the muck (button 1: SB 2, BB 3, UTG 4)."""
    t.preflop_limped()
    t.burn("5d").board(*FLOP).check(2)
    t.burn("6d").board("4s")
    t.c.wait(1.0)
    t.c.move(t.uid_of["4s"], "board", "muck")
    t.c.wait(1.0)
    return t.run()


def test_the_out_of_play_turn_taken_back_from_the_muck_is_no_look_through_the_discards():
    t = premature_turn_set_aside(Table())
    assert t.rules() == ["holdem.4"]
    t.check(3).check(4).check(1)
    t.burn("7d").board("8s")                      # burn and turn the next card as the turn
    for s in (2, 3, 4, 1):
        t.check(s)
    t.c.move(t.uid_of["4s"], "muck", "shoe")      # after that round: reshuffled with the stub
    t.c.wait(1.0)
    t.board("Th")                                  # the river, without a burn
    for s in (2, 3, 4, 1):
        t.check(s)
    t.run()
    assert t.rules() == ["holdem.4"], t.findings()
    assert [e.card for e in t.kinds("BoardCardDealt")] == [*FLOP, "8s", "Th"]


def test_a_folded_card_lifted_from_the_same_muck_still_calls_the_floor():
    t = premature_turn_set_aside(Table())
    t.check(3).fold(4).run()
    t.c.move(t.uid_of["4s"], "muck", "shoe")      # the set-aside card: quiet
    t.c.wait(1.0)
    t.run()
    assert t.rules() == ["holdem.4"], t.findings()
    t.c.move(t.uid_of["Qs"], "muck", "seat1")     # seat 4's folded queen picked up off the muck: a look
    t.c.wait(1.0)
    t.run()
    assert t.rules() == ["holdem.4", "procedures.22"], t.findings()
    assert t.finding("procedures.22").severity == "floor"


def boxed_to_seat_3_taken_out(t: Table) -> Table:
    """Button 1 (deal 2, 3, 4, 1): seat 3's first card comes out face up, the dealer takes it off the table and
    seat 3 gets the next card; the deal goes on with the clean hands."""
    t.blinds()
    t.deal("Ah", "seat2").deal("5c", "seat3", face_up=True)
    t.c.move(t.uid_of["5c"], "seat3", None)
    t.c.wait(2.0)
    for seat, card in ((3, "7c"), (4, "Qs"), (1, "9c"), (2, "Kh"), (3, "2d"), (4, "Qd"), (1, "9d")):
        t.deal(card, f"seat{seat}")
    return t.run()


def test_a_boxed_card_taken_off_the_table_is_its_remedy_not_a_dropped_card_that_plays():
    t = boxed_to_seat_3_taken_out(Table())
    assert t.rules() == ["irregularity.7"], t.findings()
    assert "irregularity.14" not in t.rules(above_info=False), t.findings(above_info=False)
    t.bet(4, 2).bet(1, 2).bet(2, 1).check(3).gather().run()
    assert t.rules() == ["irregularity.7"], t.findings()


def test_a_hole_card_dropped_off_the_table_after_a_scrap_still_must_be_played():
    t = boxed_to_seat_3_taken_out(Table())
    t.c.move(t.uid_of[HANDS[4][0]], "seat4", None)      # seat 4 knocks its queen off the table
    t.c.wait(2.0)
    t.run()
    assert t.finding("irregularity.14").seats == (4,)
    assert t.rules() == ["irregularity.7"], t.findings()


def test_a_joker_taken_off_the_table_is_out_of_the_seats_hand_and_the_seat_plays_on():
    # Irregularities 8: the joker is a scrap, "take it out"; taken off the table (not to the muck) it used to stay
    # in seat 3's hand for the engine, whose check then was ruled a dead hand holding a joker (dead-hand.1e)
    t = Table()
    t.blinds()
    t.deal("Ah", "seat2").deal("X1", "seat3")
    for seat, card in ((4, "Qs"), (1, "9c"), (2, "Kh"), (3, "2d"), (4, "Qd"), (1, "9d")):
        t.deal(card, f"seat{seat}")
    t.c.move(t.uid_of["X1"], "seat3", None)
    t.c.wait(2.0)
    t.deal("7c", "seat3")                       # the next card, after the deal
    t.run()
    assert t.rules() == ["irregularity.8"], t.findings()
    t.bet(4, 2).bet(1, 2).bet(2, 1).check(3).gather().run()
    assert t.rules() == ["irregularity.8"], t.findings()
    assert "irregularity.14" not in t.rules(above_info=False)
