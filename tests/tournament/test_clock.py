"""The level clock: driven only by the timestamps passed in; pauses, breaks, follows the floor."""

import pytest

from dealerbox.tournament.clock import Clock
from dealerbox.tournament.config import Break, Level, Tournament

T = Tournament("T", "T", 1000, (Level(1, 5, 10, 0, 0, 600.0), Level(2, 10, 20, 0, 0, 600.0),
                                Level(3, 15, 30, 0, 30, 600.0)), breaks=(Break(2, 300.0),))


def test_the_clock_runs_through_levels_and_a_break_in_order():
    c = Clock.start(T, now=1000.0)
    v = c.view(1000.0 + 599)
    assert (v.level, v.is_break, v.left, v.next.number) == (1, False, 1.0, 2)
    v = c.view(1000.0 + 600)
    assert (v.level, v.left, v.next_is_break) == (2, 600.0, True)
    v = c.view(1000.0 + 1250)
    assert (v.level, v.is_break, v.left) == (3, True, 250.0)
    v = c.view(1000.0 + 1500)
    assert (v.level, v.is_break, v.left, v.next) == (3, False, 600.0, None)
    assert c.view(1000.0 + 99999).left == 0.0 and c.view(1000.0 + 99999).level == 3


def test_a_paused_clock_keeps_its_time_left_until_resumed():
    c = Clock.start(T, now=0.0).pause(100.0)
    assert c.view(5000.0).left == 500.0 and not c.view(5000.0).running
    c = c.resume(5000.0)
    assert c.view(5100.0).left == 400.0 and c.view(5100.0).running


def test_a_level_ending_mid_hand_changes_nothing_in_it():
    c = Clock.start(T, now=0.0)
    dealt_at = 590.0                      # level 1 ends ten seconds into this hand
    assert c.level_for_deal(dealt_at).big_blind == 10
    assert c.view(650.0).current.big_blind == 20          # the clock has moved on...
    assert c.level_for_deal(dealt_at).big_blind == 10     # ...the hand keeps the level it was dealt at
    assert c.level_for_deal(600.0).big_blind == 20        # the next deal takes the new level
    assert c.level_for_deal(1300.0).number == 3           # dealt during the break: the level after it


def test_following_the_floor_sets_level_time_left_and_paused():
    c = Clock.start(T, now=0.0).follow(10.0, level=2, left=42.0, running=False)
    assert (c.view(500.0).level, c.view(500.0).left, c.view(500.0).running) == (2, 42.0, False)
    c = c.follow(600.0, level=2, left=30.0, running=True, is_break=True)
    assert (c.view(610.0).is_break, c.view(610.0).left) == (True, 20.0)
    with pytest.raises(ValueError, match="level 9"):
        c.follow(700.0, level=9, left=1.0, running=True)


def test_adjusting_adds_or_takes_time_and_time_never_runs_back():
    c = Clock.start(T, now=0.0).adjust(100.0, 60.0)
    assert c.view(100.0).left == 560.0
    assert c.adjust(100.0, -10_000).view(100.0).left == 0.0
    assert c.at(50.0) is c                  # an older timestamp does not rewind it
