"""The tournament rows wired into the engine, each driven by scenario scripts through the real decoder: every
tests/scenarios/tournament/t<row>_*.scn must raise the finding its `# expect:` header names, and its near
miss (`-ok`) must raise nothing of that row and nothing for the dealer or the floor. A cash table playing the
same script (the `tournament` line taken out) raises no tournament row at all."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from dealerbox.engine.catalogue import rule as rule_row
from dealerbox.pipeline import Pipeline
from dealerbox.sources.scenario import compile_file, compile_text
from tests.conftest import scaled

ROOT = Path(__file__).resolve().parents[2]
FOLDER = ROOT / "tests" / "scenarios" / "tournament"
ROWS = ("3", "5", "8a", "8b", "8c", "8d", "9", "11", "21", "22", "23", "24", "28", "33")
SCENARIOS = sorted(p for p in FOLDER.glob("t*.scn") if p.name.split("_")[0][1:].lstrip("0") in ROWS)
LOUD = ("dealer", "floor")


def row_of(path: Path) -> str:
    return path.name.split("_")[0][1:].lstrip("0")


def expectations(path: Path) -> list[tuple[str, str, tuple[int, ...]]]:
    """`# expect: RULE OUTCOME [seats=1,2]` lines; [] for `# expect: quiet`."""
    out = []
    for line in path.read_text().splitlines():
        if line.startswith("# expect:"):
            words = line.split(":", 1)[1].split()
            if words == ["quiet"]:
                return []
            seats = next((tuple(int(s) for s in w[6:].split(",")) for w in words[2:] if w.startswith("seats=")), ())
            out.append((words[0], words[1], seats))
    assert out, f"{path.name}: no '# expect:' header"
    return out


def allowed(path: Path) -> set[str]:
    """`# allow: RULE ...`: rules a near miss may raise for the dealer (another row's prompt on the way)."""
    return {w for line in path.read_text().splitlines() if line.startswith("# allow:") for w in line[8:].split()}


def findings(compiled) -> list[dict]:
    pipe = Pipeline.from_header(compiled.header)
    out = []
    for record in compiled.records:
        out += [e.to_dict() for e in pipe.feed(record) if e.kind == "FindingRaised"]
    return out


def test_every_wired_row_has_a_scenario_that_raises_it_and_a_near_miss_that_does_not():
    hits = {row_of(p) for p in SCENARIOS if not p.stem.endswith("-ok")}
    misses = {row_of(p) for p in SCENARIOS if p.stem.endswith("-ok")}
    assert hits == set(ROWS) and misses == set(ROWS), (sorted(set(ROWS) - hits), sorted(set(ROWS) - misses))


@pytest.mark.parametrize("path", SCENARIOS, ids=[p.stem for p in SCENARIOS])
def test_tournament_row_scenario(path):
    raised = findings(compile_file(path))
    rule = f"tournament.{row_of(path)}"
    for f in raised:     # every tournament finding keeps to the severities and outcomes its catalogue row lists
        row = rule_row(f["rule"])
        assert not row.tournament or (f["severity"] in row.severities and f["outcome"] in row.outcomes), f
    if path.stem.endswith("-ok"):
        assert expectations(path) == [], f"{path.name}: a near miss expects quiet"
        assert [f for f in raised if f["rule"] == rule] == []
        assert [f for f in raised if f["severity"] in LOUD and f["rule"] not in allowed(path)] == [], raised
        return
    for want_rule, outcome, seats in expectations(path):
        got = [f for f in raised if f["rule"] == want_rule and f["outcome"] == outcome]
        assert got, f"{path.name}: no {want_rule} {outcome} in {[(f['rule'], f['outcome']) for f in raised]}"
        if seats:
            assert any(tuple(f["seats"]) == seats for f in got), [f["seats"] for f in got]
        assert all(f["citation"] == rule_row(want_rule).citation and rule_row(want_rule).tournament for f in got)


@pytest.mark.parametrize("path", [p for p in SCENARIOS if not p.stem.endswith("-ok")],
                         ids=[p.stem for p in SCENARIOS if not p.stem.endswith("-ok")])
def test_the_same_script_at_a_cash_table_raises_no_tournament_row(path):
    text = "\n".join(line for line in path.read_text().splitlines() if not line.startswith("tournament "))
    compiled = compile_text(text, name=str(path))
    assert not compiled.config.is_tournament
    assert [f["rule"] for f in findings(compiled) if f["rule"].startswith("tournament.")] == []


def test_a_tournament_scenario_replays_the_same_findings_from_the_command_line():
    path = next(p for p in SCENARIOS if p.name.startswith("t24_") and not p.stem.endswith("-ok"))
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    done = subprocess.run([sys.executable, "-m", "dealerbox", "replay", str(path), "--jsonl"], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=scaled(60))
    assert done.returncode == 0, done.stderr
    by_cli = [json.loads(line) for line in done.stdout.splitlines() if line.startswith("{")]
    by_cli = [e for e in by_cli if e.get("event") == "FindingRaised"]
    by_pipe = findings(compile_file(path))
    assert [(f["rule"], f["ruling"]) for f in by_cli] == [(f["rule"], f["ruling"]) for f in by_pipe]
    assert any(f["rule"] == "tournament.24" for f in by_cli)
