"""The simulator's players stepping away and coming back (sources/sim/away.py): who is dealt in, by the table's
rules, so that its hands agree with the engine's (the session faults in tests/faults/sessions.py rely on it)."""

from __future__ import annotations

from dealerbox.sources.sim.away import Away, big_blind


def test_big_blind_is_two_seats_after_the_button_and_heads_up_one():
    assert big_blind(1, [1, 3, 5, 7]) == 5
    assert big_blind(7, [1, 3, 5, 7]) == 3
    assert big_blind(2, [1, 3, 5]) == 5          # the button in front of a seat not dealt in
    assert big_blind(3, [3, 5]) == 5             # heads-up: the button posts the small blind


def test_a_seat_waiting_for_the_big_blind_comes_in_only_when_it_reaches_them():
    away = Away()
    away.sit_out(5)
    away.wait_for_bb(5)
    assert away.taps == [("sit-out", 5), ("wait-for-bb", 5)]
    assert away.dealt_in(5, [1, 3, 5, 7]) == [1, 3, 7]      # the big blind would be seat 1: seat 5 waits
    assert away.dealt_in(7, [1, 3, 5, 7]) == [1, 3, 7]      # seat 3's
    assert not away.waiting - {5} and 5 in away.sitting_out
    assert away.dealt_in(1, [1, 3, 5, 7]) == [1, 3, 5, 7]   # button 1, small blind 3, big blind 5: back
    assert not away.sitting_out and not away.waiting


def test_a_seat_back_in_stays_out_while_between_the_big_blind_and_the_button():
    away = Away()
    away.sit_out(5)
    away.back_in(5)
    assert away.dealt_in(3, [1, 3, 5, 7]) == [1, 3, 7]      # seat 5 would be the small blind
    assert away.dealt_in(5, [1, 3, 5, 7]) == [1, 3, 7]      # on the button
    assert away.dealt_in(7, [1, 3, 5, 7]) == [1, 3, 5, 7]   # past the button: dealt in (owing, Blinds 9)
    assert not away.sitting_out and not away.returning


def test_a_seat_sitting_out_is_never_dealt_in_until_it_asks():
    away = Away()
    away.sit_out(3)
    assert all(away.dealt_in(b, [1, 3, 5]) == [1, 5] for b in (1, 3, 5, 1, 3, 5))
    away.clear()
    assert away.dealt_in(1, [1, 3, 5]) == [1, 3, 5]
