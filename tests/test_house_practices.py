"""House practices (table settings, off by default): run it twice or three times, and bomb pots on one or two
boards. Every tests/scenarios/house-*.scn runs through the Pipeline and `dealerbox replay --jsonl`; each ruling
has a scenario that raises it and a near miss (`-ok`) that must not, and the rows are in the catalogue with
their house-rule name."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from dealerbox.config import ConfigError, from_dict
from dealerbox.engine.betting.pots import divide, split_portions
from dealerbox.engine.cards.boards import Boards
from dealerbox.engine.catalogue import RULES
from dealerbox.engine.events import Pot
from dealerbox.pipeline import Pipeline
from dealerbox.sinks.screen.model import table_keys
from dealerbox.sources.scenario import compile_file

from .test_chips_scenarios import LOUD, absent, expectations, findings_by_pipeline, findings_by_replay, key

SCENARIOS = sorted((Path(__file__).resolve().parent / "scenarios").glob("house-*.scn"))
PRACTICE_RULES = ("run-it.1", "run-it.2", "boards.1", "bomb-pot.1", "bomb-pot.2", "bomb-pot.3")


def events_of(path: Path) -> list[dict]:
    compiled = compile_file(path)
    pipe = Pipeline.from_header(compiled.header)
    return [e.to_dict() for record in compiled.records for e in pipe.feed(record)]


def test_every_practice_row_is_in_the_catalogue_with_its_house_name():
    for rule_id in PRACTICE_RULES:
        row = RULES[rule_id]
        assert row.house and row.area == "house" and row.citation, row
    assert RULES["run-it.1"].citation.startswith("No-Limit 14")   # the rulebook's "deal twice" text
    assert RULES["bomb-pot.1"].citation == "House rule: bomb pot"  # the rulebook has none


def test_every_practice_ruling_has_a_scenario_raising_it_and_a_near_miss_that_does_not():
    raised = {w[0] for p in SCENARIOS if not p.stem.endswith("-ok") for w in expectations(p) or ()}
    assert {"run-it.1", "boards.1", "bomb-pot.1", "bomb-pot.2", "bomb-pot.3"} <= raised
    stems = {p.stem for p in SCENARIOS}
    for rule_id in ("run-it.1", "boards.1", "bomb-pot.2", "bomb-pot.3"):
        assert f"house-{rule_id}" in stems and f"house-{rule_id}-ok" in stems, rule_id
        assert rule_id in absent(SCENARIOS[[p.stem for p in SCENARIOS].index(f"house-{rule_id}-ok")])


@pytest.mark.parametrize("path", SCENARIOS, ids=[p.stem for p in SCENARIOS])
def test_practice_scenario_raises_what_it_expects_through_pipeline_and_replay(path):
    by_pipe = findings_by_pipeline(path)
    assert [key(f) for f in findings_by_replay(path)] == [key(f) for f in by_pipe]
    got = [(f["rule"], f["outcome"], tuple(f["seats"])) for f in by_pipe]
    for want in expectations(path) or ():
        assert want in got, f"{want} not among {got}"
    assert not absent(path) & {f["rule"] for f in by_pipe}, got
    if path.stem.endswith("-ok") or path.stem in ("house-boards.1", "house-bomb-pot.1", "house-run-it-three-times"):
        assert [f for f in by_pipe if f["severity"] in LOUD] == [], got   # a clean hand: nothing for the dealer


def test_run_it_twice_divides_the_pot_by_board_and_shows_both_boards():
    events = events_of(Path(__file__).parent / "scenarios" / "house-boards.1.scn")
    parts = [e for e in events if e["event"] == "PotSplitByBoard"]
    assert [(p["board"], p["pot"]["amount"], p["pot"]["winners"]) for p in parts] == [(1, 200, [3]), (2, 200, [1])]
    runs = [e for e in events if e["event"] == "RunCardDealt"]
    assert [(r["board"], r["street"], r["card"]) for r in runs] == [
        (2, "flop", "Kh"), (2, "flop", "8c"), (2, "flop", "5s"), (2, "turn", "6d"), (2, "river", "Jc")]
    end = next(e for e in events if e["event"] == "HandEnded")
    assert end["stacks"] == {"1": 200, "3": 200} and end["boards"] == [["Kh", "8c", "5s", "6d", "Jc"]]


def test_three_runs_give_the_odd_chip_to_board_one():
    events = events_of(Path(__file__).parent / "scenarios" / "house-run-it-three-times.scn")
    parts = [(p["board"], p["pot"]["amount"], p["pot"]["winners"]) for p in events if p["event"] == "PotSplitByBoard"]
    assert parts == [(1, 134, [3]), (2, 133, [1]), (3, 133, [3])]
    assert next(e for e in events if e["event"] == "HandEnded")["stacks"] == {"1": 133, "3": 267}


def test_a_bomb_pot_posts_are_antes_and_the_hand_starts_on_the_flop():
    events = events_of(Path(__file__).parent / "scenarios" / "house-bomb-pot.1.scn")
    started = next(e for e in events if e["event"] == "HandStarted")
    assert started["blinds"] == {}
    assert [(e["seat"], e["action"], e["amount"]) for e in events if e["event"] == "ActionTaken"
            and e["street"] == "preflop"] == [(3, "ante", 10), (5, "ante", 10), (1, "ante", 10)]
    assert next(e for e in events if e["event"] == "BombPotStarted")["boards"] == 2
    end = next(e for e in events if e["event"] == "HandEnded")
    assert end["board"] == ["Ah", "8c", "5s", "3d", "Jh"] and end["boards"] == [["Kh", "9c", "4s", "3c", "Qc"]]
    assert end["stacks"] == {"1": 190, "3": 205, "5": 205}


def test_a_table_without_the_settings_neither_runs_twice_nor_plays_bomb_pots_by_default():
    game = from_dict({}).game
    assert game.run_it == 1 and game.bomb_pots is False
    assert from_dict({"game": {"run_it": 3, "bomb_pots": True}}).game.run_it == 3
    with pytest.raises(ConfigError, match="game.run_it"):
        from_dict({"game": {"run_it": 4}})


def test_a_pot_is_divided_by_portion_in_the_smallest_chip_with_the_odd_units_to_the_first():
    assert divide(101, 2) == [51, 50] and divide(100, 3, 5) == [40, 30, 30]
    whole, parts = split_portions(Pot(31, (1, 2, 4)), [[(1, 2)], [(4,)]], button=4, table_seats=6)
    assert [p.amount for p in parts] == [16, 15]
    assert parts[0].shares == {1: 8, 2: 8} and parts[1].shares == {4: 15}
    assert whole.shares == {1: 8, 2: 8, 4: 15} and sum(whole.shares.values()) == 31


def test_a_split_game_run_twice_divides_by_board_first_then_high_and_low_with_the_odd_chips_first():
    # board 1 takes the odd chip of the pot (23 of 45), and its high half the odd chip of board 1 (12 of 23)
    whole, parts = split_portions(Pot(45, (1, 2, 3)), [[(1,), (2,)], [(3,), (2,)]], button=3, table_seats=9)
    assert [p.amount for p in parts] == [23, 22]
    assert parts[0].shares == {1: 12, 2: 11} and parts[1].shares == {2: 11, 3: 11}
    assert whole.shares == {1: 12, 2: 22, 3: 11}
    # no qualifying low on board 2: its high takes board 2's part whole
    whole, parts = split_portions(Pot(40, (1, 2)), [[(1,), (2,)], [(2,)]], button=2, table_seats=9)
    assert whole.shares == {1: 10, 2: 30}


def test_the_board_zone_tells_the_boards_apart_by_the_order_cards_reach_it():
    runs = Boards()
    runs.agree(3, 3)                       # three runs agreed on the flop: each run is a turn and a river
    board1 = ["a", "b", "c", "d"]
    assert runs.route(board1) == 1
    board1.append("e")
    order = []
    for uid in "fghi":
        target = runs.route(board1)
        order.append(target)
        runs.extra[target - 2].append(uid)
    assert order == [2, 2, 3, 3] and runs.route(board1) == 0
    assert runs.cards(3, board1) == ["a", "b", "c", "h", "i"] and runs.complete(board1)
    double = Boards()
    double.start_double()
    b1: list[str] = []
    seen = []
    for uid in "abcdefghij":
        target = double.route(b1)
        seen.append(target)
        (b1 if target == 1 else double.extra[0]).append(uid)
    assert seen == [1, 1, 1, 2, 2, 2, 1, 2, 1, 2]


def test_the_screen_offers_run_it_twice_only_after_the_all_in_and_says_the_practices_are_on():
    path = Path(__file__).parent / "scenarios" / "house-boards.1.scn"
    compiled = compile_file(path)
    pipe = Pipeline.from_header(compiled.header)
    offers, agreed = [], None
    for record in compiled.records:
        events = pipe.feed(record)
        state = pipe.engine.snapshot()
        offers.append(state.house.runs_offer)
        if any(e.kind == "RunsAgreed" for e in events):
            agreed = len(offers) - 1
    assert agreed is not None and offers[agreed - 1] == 2 and offers[agreed] == 0   # offered, then used
    assert offers[:10] == [0] * 10                                                  # not before the all-in
    assert state.house.practices == "RUN IT x2" and state.house.boards == (("Kh", "8c", "5s", "6d", "Jc"),)
    keys = table_keys(replace(state, phase="flop", house=replace(state.house, runs_offer=2)), [], None)
    run = [k for k in keys if k.action == "run-it"]
    assert [(k.label, k.amount) for k in run] == [("Run it twice", 2)]
    no_runs = replace(state, phase="flop", house=replace(state.house, runs_offer=0))
    assert not [k for k in table_keys(no_runs, [], None) if k.action == "run-it"]
    between = table_keys(replace(state, phase="ended", winners={}, pot_winners=(),
                                  house=replace(state.house, bomb_offer=10)), [], None)
    assert [(k.amount, k.ref) for k in between if k.action == "bomb-pot"] == [(10, "1"), (10, "2")]


def test_the_bomb_pot_amount_is_a_table_setting_shown_on_the_key():
    assert from_dict({"game": {"big_blind": 4}}).game.bomb_amount() == 20          # five big blinds by default
    cfg = from_dict({"game": {"bomb_pots": True, "bomb_pot": 25}})
    assert cfg.game.bomb_amount() == 25
    with pytest.raises(ConfigError, match="game.bomb_pot"):
        from_dict({"game": {"bomb_pot": -5}})
    from dealerbox.engine.table import Engine
    from dealerbox.tags import demo_registry
    state = Engine(cfg, demo_registry()).snapshot()
    keys = [k for k in table_keys(state, [], None) if k.action == "bomb-pot"]
    assert [(k.label, k.amount, k.ref) for k in keys] == [("Bomb pot 25", 25, "1"), ("Bomb pot 25, 2 boards", 25, "2")]
    off = Engine(from_dict({"game": {"bomb_pot": 25}}), demo_registry()).snapshot()     # bomb pots not allowed
    assert not [k for k in table_keys(off, [], None) if k.action == "bomb-pot"]


def test_simulate_deals_run_it_twice_hands_that_replay_with_the_runs_agreed(tmp_path):
    import json
    import subprocess
    import sys

    from dealerbox.cli import main
    from tests.conftest import TIMEOUT_SCALE

    log = tmp_path / "twice.jsonl"
    assert main(["simulate", "--hands", "20", "--seed", "3", "--run-it", "2", "--out", str(log)]) == 0
    root = Path(__file__).resolve().parent.parent
    done = subprocess.run([sys.executable, "-m", "dealerbox", "replay", str(log), "--jsonl"], cwd=root,
                          capture_output=True, text=True, timeout=60 * TIMEOUT_SCALE)
    assert done.returncode == 0, done.stderr
    events = [json.loads(line) for line in done.stdout.splitlines() if line.startswith("{")]
    kinds = [e.get("event") for e in events]
    assert kinds.count("HandEnded") == 20 and kinds.count("RunsAgreed") >= 5
    assert all(e["runs"] == 2 for e in events if e.get("event") == "RunsAgreed")
    assert kinds.count("PotSplitByBoard") >= 2 * kinds.count("RunsAgreed")
    assert [e["rule"] for e in events if e.get("event") == "FindingRaised" and e["severity"] in LOUD] == []
