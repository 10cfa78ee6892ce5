"""Level rulings (Tournaments 4, 6, 7) driven by the clock's timestamps, each with a near miss."""

from dealerbox.tournament.clock import Clock
from dealerbox.tournament.config import Break, Level, Tournament
from dealerbox.tournament.levels import absent_entrant_report, level_prompt, wrong_level_posts

T = Tournament("T", "T", 1000, (Level(1, 50, 100, 0, 0, 1200.0), Level(2, 100, 200, 0, 200, 1200.0),
                                Level(3, 200, 400, 25, 0, 1200.0)), breaks=(Break(2, 600.0),))
C = Clock.start(T, now=0.0)


def test_the_dealer_is_prompted_when_a_level_or_a_break_begins():
    assert level_prompt(C.view(10.0), C.view(1199.0)) is None                      # near miss: same level
    r = level_prompt(C.view(1199.0), C.view(1201.0))
    assert (r.rule, r.ruling) == ("tournament.6", "Level 2: 100/200, big blind ante 200, from the next deal")
    brk = level_prompt(C.view(2399.0), C.view(2401.0))
    assert brk.ruling.startswith("Break:") and "level 3 (200/400, ante 25)" in brk.ruling


def test_posts_at_the_wrong_level_are_corrected_but_a_short_all_in_is_not():
    level = C.level_for_deal(1190.0)                 # dealt in level 1, which ends during the hand
    right = {(3, "small blind"): 50, (4, "big blind"): 100}
    stacks = {3: 5000, 4: 5000, 5: 5000}
    assert wrong_level_posts(level, right, stacks, 3, 4) == ()
    early = {(3, "small blind"): 100, (4, "big blind"): 200}          # the new level's amounts, one hand early
    rulings = wrong_level_posts(level, early, stacks, 3, 4)
    assert [(r.rule, r.outcome, r.seats) for r in rulings] == [("tournament.7", "wager-corrected", (3,)),
                                                               ("tournament.7", "wager-corrected", (4,))]
    short = wrong_level_posts(level, {(3, "small blind"): 50, (4, "big blind"): 60}, {**stacks, 4: 60}, 3, 4)
    assert short == ()


def test_an_absent_entrant_is_reported_at_a_new_level_or_after_half_an_hour():
    assert absent_entrant_report(6, 0.0, 1, 1000.0, C.view(1000.0)) is None       # same level, 16 minutes
    r = absent_entrant_report(6, 0.0, 1, 1201.0, C.view(1201.0))
    assert (r.rule, r.severity, r.seats) == ("tournament.4", "floor", (6,))
    paused = C.pause(100.0)
    assert absent_entrant_report(6, 0.0, 1, 1801.0, paused.view(1801.0)) is not None   # 30 min, level unchanged
