"""Scenario scripts for the floor's moves (Tournaments 12, 14a, 14b, 15, 16, 17): each row has one script that
must raise it (`# expect: RULE OUTCOME [seats=..]`) and a near miss (`-ok`) that must not (`# absent: RULE`).
The floor's instruction rides in the script as a logged input, exactly as the terminal records it."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from dealerbox.pipeline import Pipeline
from dealerbox.sources.scenario import compile_file
from tests.conftest import scaled

ROOT = Path(__file__).resolve().parents[2]
ROWS = ("t12", "t14a", "t14b", "t15", "t16", "t17")
SCENARIOS = sorted(p for p in (ROOT / "tests" / "scenarios" / "tournament").glob("t1*.scn")
                   if p.name.split("_")[0] in ROWS)


def headers(path: Path, name: str) -> list[list[str]]:
    return [line.split(":", 1)[1].split() for line in path.read_text().splitlines() if line.startswith(f"# {name}:")]


def findings(path: Path) -> list[dict]:
    compiled = compile_file(path)
    pipe = Pipeline.from_header(compiled.header)
    return [e.to_dict() for r in compiled.records for e in pipe.feed(r) if e.kind == "FindingRaised"]


def test_every_row_has_a_script_and_a_near_miss():
    hits = {p.name.split("_")[0] for p in SCENARIOS if not p.stem.endswith("-ok")}
    misses = {p.name.split("_")[0] for p in SCENARIOS if p.stem.endswith("-ok")}
    assert hits == misses == set(ROWS)


@pytest.mark.parametrize("path", SCENARIOS, ids=[p.stem for p in SCENARIOS])
def test_the_script_raises_its_row_and_the_near_miss_does_not(path):
    raised = findings(path)
    row = "tournament." + path.name.split("_")[0][1:]
    for rule, outcome, *rest in headers(path, "expect"):
        seats = tuple(int(s) for w in rest if w.startswith("seats=") for s in w[6:].split(","))
        assert any(f["rule"] == rule and f["outcome"] == outcome and (not seats or tuple(f["seats"]) == seats)
                   for f in raised), (rule, raised)
    absent = {w for words in headers(path, "absent") for w in words}
    assert not absent & {f["rule"] for f in raised}, raised
    if path.stem.endswith("-ok"):
        assert row in absent
    else:
        assert row in {words[0] for words in headers(path, "expect")}


def test_a_scripted_break_replays_through_the_cli_to_the_same_findings():
    path = ROOT / "tests" / "scenarios" / "tournament" / "t12_table-breaks.scn"
    done = subprocess.run([sys.executable, "-m", "dealerbox", "replay", str(path), "--jsonl"], cwd=ROOT,
                          env=dict(os.environ, PYTHONPATH=str(ROOT)), capture_output=True, text=True,
                          timeout=scaled(60))
    assert done.returncode == 0, done.stderr
    events = [json.loads(line) for line in done.stdout.splitlines() if line.startswith("{")]
    replayed = [(e["rule"], e["ruling"]) for e in events if e.get("event") == "FindingRaised"]
    assert replayed == [(f["rule"], f["ruling"]) for f in findings(path)]
    assert [e["seat"] for e in events if e.get("event") == "PlayerLeft"] == [1, 2, 3]
