"""`dashboard demo` and drills: the demo binds its port before it prints a login (a taken port is said at once),
and a live simulated table plays an irregularity written to its cue file in its next hand."""

from __future__ import annotations

import socket
import subprocess
import sys
from dataclasses import replace

import pytest

from dealerbox.config import Config
from dealerbox.dashboard.demo import DEFAULT_PORT, listening_socket
from dealerbox.sources.simulator import IRREGULARITIES, Simulator
from dealerbox.tags import demo_registry
from tests.conftest import scaled

pytestmark = pytest.mark.timeout(120)


def test_the_demo_says_its_port_is_taken_before_printing_any_login():
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen(1)
        port = taken.getsockname()[1]
        done = subprocess.run([sys.executable, "-m", "dealerbox", "dashboard", "demo", "--listen",
                               f"127.0.0.1:{port}"], capture_output=True, text=True, timeout=scaled(60))
    assert done.returncode == 2
    assert f"127.0.0.1:{port}" in done.stderr and "taken" in done.stderr
    assert "login" not in done.stdout and "password" not in done.stdout.lower()


def test_without_listen_the_demo_takes_8080_or_any_free_port():
    held = socket.socket()
    try:
        held.bind(("127.0.0.1", DEFAULT_PORT))          # 8080 taken (by us, or already by someone else)
        held.listen(1)
    except OSError:
        pass
    try:
        sock = listening_socket(None)
        try:
            assert sock.getsockname()[1] not in (0, DEFAULT_PORT)
        finally:
            sock.close()
    finally:
        held.close()


def test_a_simulated_table_plays_the_irregularity_written_to_its_cue_file(tmp_path, capsys):
    cue = tmp_path / "T01.cue"
    cfg = Config()
    cfg = replace(cfg, simulator=replace(cfg.simulator, cue_file=str(cue)))
    sim = Simulator(cfg, demo_registry(), seed=4)
    assert next(sim.play(1)).expected.irregularity is None              # nothing cued, a rate of 0: a clean hand
    cue.write_text("duplicate-card\n")
    hand = next(sim.play(1))
    assert hand.expected.irregularity == "duplicate-card" and hand.expected.rule == IRREGULARITIES["duplicate-card"][0]
    assert not cue.exists()                                             # taken once
    assert next(sim.play(1)).expected.irregularity is None
    cue.write_text("cheating\n")
    next(sim.play(1))
    err = capsys.readouterr().err
    assert sim.plan.bad_cues == 1 and "'cheating'" in err and str(cue) in err      # named, with the file, and counted
