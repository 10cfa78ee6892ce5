"""A board card turned too early is out of play (Hold'em 3/4) and goes back into the stub when its ruling says so.
A dealer who sets it aside in the muck and later takes that one card back out does what the ruling says: no look
through the discards (Procedures 22). The exemption is that card alone: a folded hand's card lifted from the same
muck still calls the floor. The scenario pair tests/scenarios/faults-premature-river-set-aside-in-the-muck*.scn
plays the river's case to the end through the sensors."""

from __future__ import annotations

from tests.test_engine_cards import FLOP, Table


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
