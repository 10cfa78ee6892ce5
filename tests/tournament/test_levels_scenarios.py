"""The level clock, the button and the eliminations at a tournament table (Tournaments 4, 6, 7, 29, 30, 31, 35),
each driven by a scenario through the real decoder: tests/scenarios/tournament/tNN_*.scn must raise its row
(``# expect: RULE OUTCOME [seats=..]``), and its near miss tNN_*_ok.scn must not (``# absent: RULE ...``: never
raised; ``# quiet: RULE ...``: never for the dealer or the floor). The same scenario at a cash table (its
``tournament`` line taken out) raises no tournament row."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from dealerbox.pipeline import Pipeline
from dealerbox.sources.scenario import compile_file, compile_text
from tests.conftest import scaled

ROOT = Path(__file__).resolve().parents[2]
FOLDER = ROOT / "tests" / "scenarios" / "tournament"
ROWS = ("t04", "t06", "t07", "t29", "t30", "t31", "t35")
SCENARIOS = sorted(p for p in FOLDER.glob("t*.scn") if p.name[:3] in ROWS)


def header(path: Path, word: str) -> list[list[str]]:
    return [line.split(":", 1)[1].split() for line in path.read_text().splitlines() if line.startswith(f"# {word}:")]


def events_of(compiled) -> list[dict]:
    pipe = Pipeline.from_header(compiled.header)
    return [e.to_dict() for record in compiled.records for e in pipe.feed(record)]


def findings(events: list[dict]) -> list[dict]:
    return [e for e in events if e["event"] == "FindingRaised"]


def test_every_row_has_a_scenario_that_raises_it_and_a_near_miss():
    hits = {p.stem for p in SCENARIOS if not p.stem.endswith("_ok")}
    misses = {p.stem.removesuffix("_ok") for p in SCENARIOS if p.stem.endswith("_ok")}
    assert hits == misses and {h[:3] for h in hits} == set(ROWS), sorted(hits ^ misses)
    for p in SCENARIOS:
        assert header(p, "expect") or p.stem.endswith("_ok"), f"{p.name}: a row scenario names what it expects"
        assert header(p, "absent") or header(p, "quiet") or not p.stem.endswith("_ok"), \
            f"{p.name}: a near miss names what it must not raise"


@pytest.mark.parametrize("path", SCENARIOS, ids=[p.stem for p in SCENARIOS])
def test_the_scenario_raises_its_row_or_stays_clean(path):
    raised = findings(events_of(compile_file(path)))
    for words in header(path, "expect"):
        rule, outcome = words[0], words[1]
        seats = next((tuple(int(s) for s in w[6:].split(",")) for w in words[2:] if w.startswith("seats=")), None)
        assert any(f["rule"] == rule and f["outcome"] == outcome and (seats is None or tuple(f["seats"]) == seats)
                   for f in raised), f"{path.name}: no {rule} {outcome} {seats or ''} in {[f['rule'] for f in raised]}"
    for words in header(path, "absent"):
        assert not [f for f in raised if f["rule"] in words], f"{path.name}: raised {words}"
    for words in header(path, "quiet"):
        assert not [f for f in raised if f["rule"] in words and f["severity"] != "info"], f"{path.name}: {words}"


@pytest.mark.parametrize("path", [p for p in SCENARIOS if not p.stem.endswith("_ok")],
                         ids=[p.stem for p in SCENARIOS if not p.stem.endswith("_ok")])
def test_at_a_cash_table_the_same_play_raises_no_tournament_row(path):
    text = "\n".join(line for line in path.read_text().splitlines() if not line.startswith("tournament "))
    events = events_of(compile_text(text, name=str(path)))
    assert not [f for f in findings(events) if f["rule"].startswith("tournament.")]
    assert not [e for e in events if e["event"] in ("LevelStarted", "BreakStarted", "PlayerEliminated")]


def test_a_replayed_scenario_gives_the_level_events_and_findings_on_the_command_line():
    path = FOLDER / "t07_wrong_level_post.scn"
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    done = subprocess.run([sys.executable, "-m", "dealerbox", "replay", str(path), "--jsonl"], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=scaled(60))
    assert done.returncode == 0, done.stderr
    lines = [json.loads(line) for line in done.stdout.splitlines() if line.startswith("{")]
    assert [e["level"] for e in lines if e["event"] == "LevelStarted"] == [1, 2]
    assert sorted(e["seats"][0] for e in findings(lines) if e["rule"] == "tournament.7") == [1, 5]
    assert [rounded(e) for e in lines] == [rounded(e) for e in events_of(compile_file(path))]


def test_the_clock_follows_the_floor_and_a_payload_it_cannot_follow_is_counted():
    compiled = compile_file(FOLDER / "t06_level_prompt_ok.scn")
    pipe = Pipeline.from_header(compiled.header)
    engine = pipe.engine
    levels = engine.tournament_table.levels     # the level clock is the tournament table's part
    for record in compiled.records:
        pipe.feed(record)
        if levels.clock is not None:
            break           # the first deal started the table's own clock
    assert engine.snapshot().tournament.level == 1
    from dealerbox.engine.inputs import DealerInput
    t = levels.clock.since + 1.0
    bad = engine.apply(DealerInput(t, "floor-clock", detail='{"level": 9, "left": 10, "running": true}'))
    assert not [e for e in bad if e.kind == "LevelStarted"] and levels.floor_clock_refused == 1
    garbage = engine.apply(DealerInput(t, "floor-clock", detail="not json"))
    assert garbage == [] and levels.floor_clock_refused == 2 and engine.snapshot().tournament.level == 1
    payload = {"kind": "clock", "level": 3, "left": 30.0, "running": False, "is_break": False, "players_left": 5}
    out = [e.to_dict() for e in engine.apply(DealerInput(t, "floor-clock", detail=json.dumps(payload)))]
    assert [e["level"] for e in out if e["event"] == "LevelStarted"] == [3]
    view = engine.snapshot().tournament
    assert (view.level, view.big_blind, view.ante, view.left_s, view.running, view.players_left) == \
        (3, 10, 1, 30.0, False, 5)


def rounded(event: dict) -> dict:
    return {k: round(v, 3) if isinstance(v, float) else v for k, v in event.items()}
