"""Cascades the fault-injection runs found, each kept as a scenario pair (tests/scenarios/faults-*.scn): the
fault must raise exactly the rulings its `# expect:` lines name (or nothing above ``info``, `# expect: quiet`,
where the cascade was a ruling that had no business being raised) and no rule its `# absent:` line names; its
near miss (`-ok`) must raise nothing for the dealer or the floor."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.test_chips_scenarios import LOUD, absent, expectations, findings_by_pipeline

SCENARIOS = sorted((Path(__file__).resolve().parent.parent / "scenarios").glob("faults-*.scn"))


def test_every_cascade_has_its_near_miss():
    faults = {p.stem for p in SCENARIOS if not p.stem.endswith("-ok")}
    misses = {p.stem.removesuffix("-ok") for p in SCENARIOS if p.stem.endswith("-ok")}
    assert faults and faults == misses, sorted(faults ^ misses)


@pytest.mark.parametrize("path", SCENARIOS, ids=[p.stem for p in SCENARIOS])
def test_the_fault_is_ruled_once_and_nothing_follows(path):
    found = findings_by_pipeline(path)
    loud = sorted((f["rule"], f["outcome"]) for f in found if f["severity"] in LOUD)
    assert not absent(path) & {f["rule"] for f in found}, found
    exp = expectations(path)
    if exp is None:
        assert loud == [], loud
        return
    assert loud == sorted((rule, outcome) for rule, outcome, _ in exp), loud
