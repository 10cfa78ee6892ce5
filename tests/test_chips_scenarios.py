"""Chips-and-betting rows of RULES.md driven through the chip sensors: every tests/scenarios/chips-*.scn runs
through `dealerbox replay --jsonl` (a subprocess) and through the Pipeline directly; both must give the same
findings, and the finding named in the file's `# expect:` header must be there (a near-miss says
`# expect: quiet` and must raise nothing for the dealer or the floor). Adding a row is adding a file."""

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

ROOT = Path(__file__).resolve().parent.parent
SCENARIOS = sorted((ROOT / "tests" / "scenarios").glob("chips-*.scn"))
LOUD = ("dealer", "floor")


def expectations(path: Path) -> list[tuple[str, str, tuple[int, ...]]] | None:
    """`# expect: RULE OUTCOME [seats=1,2]` lines (several allowed); None for `# expect: quiet`."""
    out = []
    for line in path.read_text().splitlines():
        if not line.startswith("# expect:"):
            continue
        words = line.split(":", 1)[1].split()
        if words == ["quiet"]:
            return None
        seats = ()
        for w in words[2:]:
            if w.startswith("seats="):
                seats = tuple(int(s) for s in w[6:].split(","))
        out.append((words[0], words[1], seats))
    assert out, f"{path.name}: no '# expect:' header"
    return out


def absent(path: Path) -> set[str]:
    """`# absent: RULE ...`: rules a near-miss must not raise even as info (e.g. no kill due at all)."""
    return {w for line in path.read_text().splitlines() if line.startswith("# absent:") for w in line[9:].split()}


def findings_by_pipeline(path: Path) -> list[dict]:
    compiled = compile_file(path)
    pipe = Pipeline.from_header(compiled.header)
    out = []
    for record in compiled.records:
        out += [e.to_dict() for e in pipe.feed(record) if e.kind == "FindingRaised"]
    return out


def findings_by_replay(path: Path) -> list[dict]:
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    done = subprocess.run([sys.executable, "-m", "dealerbox", "replay", str(path), "--jsonl"], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=scaled(60))
    assert done.returncode == 0, done.stderr
    events = [json.loads(line) for line in done.stdout.splitlines() if line.startswith("{")]
    return [e for e in events if e.get("event") == "FindingRaised"]


def key(f: dict) -> tuple:
    return f["rule"], f["outcome"], f["severity"], tuple(f["seats"]), f["ruling"]


def test_every_row_has_a_scenario_and_a_near_miss():
    hits = {p.stem.removeprefix("chips-") for p in SCENARIOS if not p.stem.endswith("-ok")}
    misses = {p.stem.removeprefix("chips-").removesuffix("-ok") for p in SCENARIOS if p.stem.endswith("-ok")}
    assert hits and hits == misses, f"rows without a pair: {sorted(hits ^ misses)}"
    for p in SCENARIOS:
        exp = expectations(p)
        assert (exp is None) == p.stem.endswith("-ok"), f"{p.name}: a near-miss (-ok) expects quiet, a row a finding"


@pytest.mark.parametrize("path", SCENARIOS, ids=[p.stem for p in SCENARIOS])
def test_chip_scenario_finding_reaches_replay_jsonl(path):
    by_pipe = findings_by_pipeline(path)
    by_replay = findings_by_replay(path)
    assert [key(f) for f in by_replay] == [key(f) for f in by_pipe]
    exp = expectations(path)
    got = [(f["rule"], f["outcome"], tuple(f["seats"])) for f in by_pipe]
    if exp is None:
        assert [f for f in by_pipe if f["severity"] in LOUD] == [], got
        assert not absent(path) & {f["rule"] for f in by_pipe}, got
        return
    for want in exp:
        assert want in got, f"{want} not among {got}"
