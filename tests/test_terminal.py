"""`dealerbox run`: the terminal as its users start it, in a subprocess, headless, on the simulator."""

import json
import os
import subprocess
import sys
from pathlib import Path
from tests.conftest import scaled

ROOT = Path(__file__).resolve().parent.parent


def _run(args, tmp_path, timeout=scaled(120)):
    env = {**os.environ, "SDL_VIDEODRIVER": "dummy", "PYTHONPATH": str(ROOT)}
    env.pop("DISPLAY", None)
    env.pop("WAYLAND_DISPLAY", None)
    return subprocess.run([sys.executable, "-m", "dealerbox", *args], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=timeout)


def test_headless_demo_plays_hands_and_prints_events_without_hole_cards(tmp_path):
    r = _run(["run", "--jsonl", "--speed", "500", "--hands", "3", "--no-floor"], tmp_path)
    assert r.returncode == 0, r.stderr
    events = [json.loads(line) for line in r.stdout.splitlines()]
    kinds = [e["event"] for e in events]
    assert kinds.count("HandEnded") >= 3
    assert "HandStarted" in kinds and "CardDealt" in kinds
    # Hole cards are masked on the console: the terminal's output may go anywhere.
    assert all(e["card"] is None for e in events if e["event"] == "CardDealt")
    # It said which source it chose: no board at the default port, so the simulator.
    assert "simulator" in r.stderr
    # It recorded the session, and the log is intact.
    logs = list((tmp_path / "var" / "logs").glob("*"))
    assert logs, "no recorded log written"
    v = subprocess.run([sys.executable, "-m", "dealerbox", "verify", str(sorted(logs)[0])], cwd=tmp_path,
                       env={**os.environ, "PYTHONPATH": str(ROOT)}, capture_output=True, text=True, timeout=scaled(60))
    assert v.returncode == 0, v.stdout + v.stderr


def test_serial_source_named_but_missing_port_is_one_clear_line(tmp_path):
    cfg = tmp_path / "t.toml"
    cfg.write_text('[reader]\nsource = "serial"\nport = "/dev/does-not-exist-dealerbox"\n')
    r = _run(["--config", str(cfg), "run", "--headless", "--seconds", "1", "--no-floor", "--no-record"], tmp_path)
    assert "/dev/does-not-exist-dealerbox" in r.stderr
    assert "Traceback" not in r.stderr


def test_broken_enrolment_file_is_exit_2_naming_the_file(tmp_path):
    bad = tmp_path / "deck.json"
    bad.write_text('{"format": "dealerbox-deck", "deck_id": "D1", "back": "red", "cards": {"0401020304": "Zz"}}')
    cfg = tmp_path / "t.toml"
    cfg.write_text(f'[enrolment]\ndecks = ["{bad}"]\n')
    r = _run(["--config", str(cfg), "run", "--headless", "--seconds", "1"], tmp_path)
    assert r.returncode == 2
    assert str(bad) in r.stderr and "Zz" in r.stderr and "Traceback" not in r.stderr


def test_replay_a_scenario_on_the_terminal_rules_the_misdeal_and_stops_at_the_end(tmp_path):
    scn = ROOT / "tests" / "scenarios" / "misdeal-boxed-cards.scn"
    r = _run(["run", "--replay", str(scn), "--speed", "0", "--jsonl", "--no-floor"], tmp_path)
    assert r.returncode == 0, r.stderr
    events = [json.loads(line) for line in r.stdout.splitlines()]
    findings = [e for e in events if e["event"] == "FindingRaised"]
    assert any(f["rule"] == "misdeal.1c" and f["outcome"] == "misdeal" for f in findings)
    ended = [e for e in events if e["event"] == "HandEnded"]
    assert ended and ended[-1]["outcome"] == "misdeal"
    # Replaying is not a new session: nothing is recorded.
    assert not (tmp_path / "var" / "logs").exists()


def test_health_reports_heartbeat_age_and_faulty_readers_on_the_source_clock(tmp_path):
    from dealerbox.pipeline import Pipeline
    from dealerbox.runtime.app import Terminal
    from dealerbox.sources import open_log
    from dealerbox.sources.replaying import ReplayingSource
    from dealerbox.sources.scenario import compile_text

    text = "hello\nheartbeat faulty 5\nwait 3s\n"
    (tmp_path / "health.scn").write_text(text)
    scn = compile_text(text, "health.scn")
    pipe = Pipeline.from_header(scn.header)

    class Clock:  # the terminal's clock, passed in
        now = 100.0

        def __call__(self):
            return self.now

    clock = Clock()
    source = ReplayingSource(open_log(tmp_path / "health.scn"))  # never started: the test steps by hand
    terminal = Terminal(pipe.config, pipe.registry, source=source, clock=clock)
    for record in scn.records:
        terminal._last_t, terminal._last_clock = record.t, clock()
        terminal._step(record)
    reader = terminal.health()["reader"]
    assert reader["faulty_readers"] == 2          # bits 0 and 2 of the mask
    age = reader["heartbeat_age_s"]
    clock.now += 4.0                               # four seconds with nothing from the board
    assert terminal.health()["reader"]["heartbeat_age_s"] == age + 4.0
