"""Long jobs show a progress bar (count, rate, time left) on a terminal, and nothing when their output is not a
terminal: simulate under a pseudo-terminal and through a pipe."""

from __future__ import annotations

import os
import pty
import re
import subprocess
import sys
from pathlib import Path
from tests.conftest import scaled

ROOT = Path(__file__).resolve().parent.parent.parent


def simulate(tmp_path: Path, on_terminal: bool) -> tuple[int, str]:
    return dealerbox(["simulate", "--hands", "3", "--seed", "7", "--out", str(tmp_path / f"sim-{on_terminal}.jsonl")],
                     on_terminal)


def dealerbox(cli: list[str], on_terminal: bool) -> tuple[int, str]:
    """Run ``dealerbox CLI...`` with stderr on a pseudo-terminal or a pipe; (exit code, what stderr saw)."""
    args = [sys.executable, "-m", "dealerbox", *cli]
    env = {**os.environ, "PYTHONPATH": str(ROOT), "COLUMNS": "120"}
    if not on_terminal:
        done = subprocess.run(args, env=env, capture_output=True, text=True, timeout=scaled(300))
        return done.returncode, done.stderr
    leader, follower = pty.openpty()
    proc = subprocess.Popen(args, env=env, stdout=subprocess.DEVNULL, stderr=follower)
    os.close(follower)
    seen = b""
    while True:
        try:
            chunk = os.read(leader, 4096)
        except OSError:   # the child closed its end
            break
        if not chunk:
            break
        seen += chunk
    os.close(leader)
    return proc.wait(timeout=scaled(300)), seen.decode("utf-8", "replace")


def test_simulate_shows_count_rate_and_time_left_on_a_terminal(tmp_path):
    code, err = simulate(tmp_path, on_terminal=True)
    assert code == 0, err
    assert re.search(r"simulate:.*\b[0-3]/3\b", err), err        # the count, of the total
    assert re.search(r"hands/s|s/ hands", err), err               # the rate
    # time taken < time left ("?" until the first update: on a fast machine three hands may end before the
    # bar redraws, so the test asks for the field, not for a figure in it)
    assert re.search(r"\d\d:\d\d<(\d\d:\d\d|\?)", err), err


def test_simulate_through_a_pipe_prints_no_bar(tmp_path):
    code, err = simulate(tmp_path, on_terminal=False)
    assert code == 0, err
    assert err == "" and "%|" not in err


def test_verify_of_a_log_shows_bytes_rate_and_time_left_on_a_terminal_and_nothing_through_a_pipe(tmp_path):
    log = tmp_path / "day.jsonl"
    code, err = dealerbox(["simulate", "--hands", "3", "--seed", "7", "--out", str(log)], on_terminal=False)
    assert code == 0, err
    code, err = dealerbox(["verify", str(log)], on_terminal=True)
    assert code == 0, err
    assert re.search(r"verify:.*\d+(\.\d+)?[kM]?/\d+(\.\d+)?[kM]? \[", err), err     # bytes checked, of the log's size
    assert re.search(r"B/s\]", err), err                                  # the rate
    assert re.search(r"\d\d:\d\d<(\d\d:\d\d|\?)", err), err
    code, err = dealerbox(["verify", str(log)], on_terminal=False)
    assert code == 0 and err == "", err
