"""Every Cards, Chips and betting, and Showdown row of the catalogue is either injected by a fault class of the
harnesses or listed with the reason it is not (tests/faults/coverage.py), and the map names real classes whose
rulings carry the row: a new row, or a class renamed, fails here rather than going untested unnoticed."""

from __future__ import annotations

from dealerbox.engine.catalogue import RULES
from tests.faults.arrivals import EXPECTED as ARRIVAL_EXPECTED
from tests.faults.dead_button import EXPECTED as DEAD_BUTTON_EXPECTED, INFO_RULED as DEAD_BUTTON_INFO
from dealerbox.engine.variants import VARIANTS
from tests.faults.coverage import COMPANIONS, GAME_NOT_DEALT, INJECTED, NOT_INJECTED, PLAYED, report
from tests.faults.players import FAULTS, InfoRuled
from tests.faults.pot_option import EXPECTED as OPTION_EXPECTED
from tests.faults.sessions import (EXPECTED as SESSION_EXPECTED, GAME, INFO_RULED, LATER_IN_THE_HAND, STANDING,
                                   VARIANTS_OF)
from tests.faults.table_run import EXPECTED, INFO_EXPECTED, SHOWDOWN_INFO, SHOWDOWN_KINDS, SPLIT_INFO, SPLIT_KINDS

AREAS = ("cards", "chips", "showdown")


def test_every_cards_chips_and_showdown_row_is_injected_or_has_a_reason():
    rows = {r.id for r in RULES.values() if r.area in AREAS and not r.tournament}
    assert not set(INJECTED) & set(NOT_INJECTED), set(INJECTED) & set(NOT_INJECTED)
    assert set(INJECTED) | set(NOT_INJECTED) == rows, sorted(rows ^ (set(INJECTED) | set(NOT_INJECTED)))
    assert all(len(why) > 30 for why in NOT_INJECTED.values())


def test_each_injecting_class_exists_and_rules_that_row():
    betting = {f.__name__: f for f in FAULTS}
    for rule, classes in INJECTED.items():
        for name in classes:
            where, _, cls = name.partition(":")
            if where == "betting":
                # a class ruled at info asserts that info ruling at the fault (players.InfoRuled)
                rules = set(betting[cls].expected) | ({betting[cls].info_rule} if issubclass(betting[cls], InfoRuled)
                                                      else set())
            elif where == "session":
                rules = set(SESSION_EXPECTED[cls]) | set(STANDING.get(cls, ())) | set(LATER_IN_THE_HAND.get(cls, ())) \
                    | set(INFO_RULED.get(cls, ()))
            elif where == "arrival":
                rules = set(ARRIVAL_EXPECTED[cls])
            elif where == "dead-button":
                assert not DEAD_BUTTON_EXPECTED[cls], name      # a quiet class: its info row is what it brings about
                rules = set(DEAD_BUTTON_INFO[cls])
            elif where == "split":
                assert cls in SPLIT_KINDS, name
                rules = set(SPLIT_INFO)
            elif where == "showdown":
                assert cls in SHOWDOWN_KINDS, name     # its slice counts these rows (test_table_faults)
                rules = set(SHOWDOWN_INFO)
            elif where == "option":
                rules = set(OPTION_EXPECTED[cls])
            else:
                assert where == "table", name
                rules = set(EXPECTED[cls]) | ({INFO_EXPECTED[cls]} if cls in INFO_EXPECTED else set())
            assert rule in rules or rule in COMPANIONS or rule in PLAYED, (rule, name, rules)


def test_a_row_played_rather_than_ruled_is_played_by_a_quiet_class():
    # kill.2 and kill.5 raise no finding of their own: the classes that play them must be quiet ones (nothing
    # above info), or a cascade could pass for the row
    for rule, why in PLAYED.items():
        assert rule in INJECTED and len(why) > 30, rule
        for name in INJECTED[rule]:
            where, _, cls = name.partition(":")
            assert where == "session" and not SESSION_EXPECTED[cls] and cls not in STANDING, (rule, name)


def test_the_rows_injected_are_counted_and_none_drops_out():
    # all 76 rows (issue 31's 73 and issue 33's high-low rows): lowball's kill (Kill Pots 10), the last left out
    # while no lowball game was dealt, is injected at deuce-to-seven triple draw. The count may only grow
    rows = {r.id for r in RULES.values() if r.area in AREAS and not r.tournament}
    print(report(rows))
    assert set(INJECTED) >= rows and len(rows) >= 76, report(rows)
    assert not NOT_INJECTED and set(NOT_INJECTED) == set(GAME_NOT_DEALT), "only a game not dealt may keep a row out"


def test_lowballs_kill_is_injected_at_the_lowball_game_the_simulator_deals():
    # kill.10 waited for a lowball game: the engine and the simulator deal 27td, and every class injecting the row
    # plays it there with the house option on (game.lowball_kill)
    from dealerbox.sources.sim.referee import VARIANTS as SIMULATED
    lowball = sorted(key for key, v in VARIANTS.items() if v.draws)
    assert lowball == ["27td"] and set(lowball) <= set(SIMULATED), lowball
    for name in INJECTED["kill.10"]:
        where, _, cls = name.partition(":")
        assert where == "session" and VARIANTS_OF[cls] == ("27td",) and GAME[cls]["lowball_kill"], name


def test_no_row_is_covered_by_name_only():
    # every class named is one a harness plays (no "clean" escape): a row no run counts fails here
    for rule, classes in INJECTED.items():
        for name in classes:
            where, _, cls = name.partition(":")
            assert where in ("betting", "table", "session", "arrival", "dead-button", "split", "showdown", "option") \
                and cls, (rule, name)
