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
from tests.faults.sessions import EXPECTED as SESSION_EXPECTED, INFO_RULED, LATER_IN_THE_HAND, STANDING
from tests.faults.table_run import EXPECTED, INFO_EXPECTED, SPLIT_INFO, SPLIT_KINDS

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
            if where == "clean":
                continue
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
    # 75 of the 76 rows (issue 31's 73 and issue 33's high-low rows): left out is lowball's kill alone (Kill Pots
    # 10: no lowball game is dealt); NOT_INJECTED says why. The count may only grow
    rows = {r.id for r in RULES.values() if r.area in AREAS and not r.tournament}
    print(report(rows))
    assert len(set(INJECTED) & rows) >= 75, report(rows)
    assert set(NOT_INJECTED) == set(GAME_NOT_DEALT), "only a game not dealt may keep a row out"


def test_a_kill_row_waits_only_for_a_game_the_simulator_does_not_deal():
    # kill.10 (lowball) may stay out only while the simulator cannot deal the lowball game the engine follows
    from dealerbox.sources.sim.referee import VARIANTS as SIMULATED
    assert set(GAME_NOT_DEALT) <= set(NOT_INJECTED)
    for game in GAME_NOT_DEALT.values():
        assert game in VARIANTS and game not in SIMULATED, \
            f"the simulator deals {game}: inject {sorted(GAME_NOT_DEALT)} with it"

