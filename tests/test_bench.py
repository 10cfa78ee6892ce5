"""The benchmark suite must keep running: ``bench/run --quick`` end to end, every benchmark at its smallest size
(a hand or two, one timing round: the quick sizes prove the code runs, not how fast). Figures are never asserted
(timings belong in bench/, not tests); what is asserted is the table, the JSON and that nothing crashed."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

sys.path.insert(0, str(ROOT))
from bench.__main__ import BENCHMARKS, table  # noqa: E402
from bench.common import Figure, percentile  # noqa: E402
from tests.conftest import TIMEOUT_SCALE, scaled  # noqa: E402  (the suite's timeout scale, for the child run)


def test_percentile_is_nearest_rank():
    samples = list(range(1, 101))
    assert percentile(samples, 50) == 50
    assert percentile(samples, 99) == 99
    assert percentile([5.0], 99) == 5.0


def test_figure_status_and_headroom_follow_the_target_direction():
    fast = Figure("x", "rate", 300.0, "x", 100, ">=")
    slow = Figure("x", "latency", 30.0, "ms", 20, "<")
    assert (fast.status, fast.headroom) == ("pass", 3.0)
    assert slow.status == "FAIL" and slow.headroom == pytest.approx(20 / 30)
    assert Figure("x", "n", None, "").status == "not measured"


def test_unknown_benchmark_is_refused_with_the_known_names(tmp_path):
    done = subprocess.run([str(ROOT / "bench" / "run"), "--only", "nonsense", "--json", str(tmp_path / "r.json")],
                          capture_output=True, text=True, timeout=scaled(60))
    assert done.returncode == 2
    assert "decoder" in done.stderr and not (tmp_path / "r.json").exists()


def test_quick_suite_runs_every_benchmark_and_writes_json(tmp_path):
    out = tmp_path / "latest.json"
    env = {**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy"}
    done = subprocess.run([str(ROOT / "bench" / "run"), "--quick", "--json", str(out)], capture_output=True,
                          text=True, timeout=240 * TIMEOUT_SCALE, env=env, cwd=ROOT)
    assert done.returncode == 0, done.stderr[-2000:]
    data = json.loads(out.read_text())
    assert data["quick"] is True and data["machine"]["cores"]
    benches = {f["bench"] for f in data["figures"]}
    assert benches == set(BENCHMARKS), f"benchmarks with no row: {set(BENCHMARKS) - benches}"
    for f in data["figures"]:
        # A benchmark may lack a piece that is not built, but it must never crash. One stopped at its budget is
        # the machine's load (a 2-core box shared with the suite), not the code's: named, never failed on.
        assert not f["note"].startswith(("error:", "crashed")), f
        assert f["status"] in {"pass", "FAIL", "info", "not measured"}
    # The table the README shows: one row per figure, under its header.
    assert done.stdout.splitlines()[0].startswith("| benchmark")
    assert table(data["figures"]).count("\n") >= len(data["figures"])
