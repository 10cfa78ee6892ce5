"""``dealerbox replay --jsonl`` (the table-events contract, docs/table-events.md) agrees with the engine's own
API event for event on the card and showdown scenarios."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from .test_engine_cards_scenarios import SCENARIOS, run_scenario
from tests.conftest import scaled


@pytest.mark.parametrize("name", ["showdown-split-odd-chip", "misdeal-boxed-cards"])
def test_replay_jsonl_agrees_with_the_engine(name):
    out = subprocess.run([sys.executable, "-m", "dealerbox", "replay", "--jsonl", str(SCENARIOS / f"{name}.scn")],
                         capture_output=True, text=True, timeout=scaled(120))
    assert out.returncode == 0, out.stderr
    replayed = [json.loads(line) for line in out.stdout.splitlines() if line.strip()]
    replayed = [r for r in replayed if "event" in r]
    _, events = run_scenario(name)
    ours = [json.loads(json.dumps(e.to_dict())) for e in events]
    for obj in (*replayed, *ours):   # the log format keeps times to the millisecond
        obj["t"] = round(obj["t"], 3)
    assert replayed == ours
    kinds = {o["event"] for o in ours}
    assert {"HandStarted", "CardDealt", "FindingRaised", "HandEnded"} <= kinds
    assert all(o["card"] is None for o in replayed if o["event"] == "CardDealt")
