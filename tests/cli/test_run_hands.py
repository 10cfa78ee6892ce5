"""``dealerbox run --hands N`` on the simulator deals N hands and no more: the persisted hand counter is the last
hand shown, so a restart goes on from the next number (it used to run ahead while the terminal stopped)."""

from __future__ import annotations

import json

from ..test_terminal import _run


def ended(stdout: str) -> list[int]:
    return [e["hand"] for e in map(json.loads, stdout.splitlines()) if e["event"] == "HandEnded"]


def test_run_hands_n_deals_exactly_n_hands_and_a_restart_goes_on_from_the_next(tmp_path):
    cfg = tmp_path / "t.toml"
    cfg.write_text("[simulator]\nseed = 4\n")
    args = ["run", "--config", str(cfg), "--jsonl", "--speed", "500", "--hands", "2", "--no-floor"]
    first = _run(args, tmp_path)
    assert first.returncode == 0, first.stderr
    assert ended(first.stdout) == [1, 2]
    assert json.loads((tmp_path / "var" / "hands-T01.json").read_text())["last_hand"] == 2
    second = _run(args, tmp_path)
    assert second.returncode == 0, second.stderr
    assert ended(second.stdout) == [3, 4]
    assert json.loads((tmp_path / "var" / "hands-T01.json").read_text())["last_hand"] == 4
    started = [e["hand"] for e in map(json.loads, second.stdout.splitlines()) if e["event"] == "HandStarted"]
    assert started == [3, 4]   # the simulator started no hand past N


def test_the_headless_demo_says_once_that_no_broker_answers(tmp_path):
    import socket
    with socket.socket() as s:   # a port where no broker listens
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    cfg = tmp_path / "t.toml"
    cfg.write_text(f'[floor]\nhost = "127.0.0.1"\nport = {port}\n[simulator]\nseed = 4\n')
    done = _run(["run", "--config", str(cfg), "--jsonl", "--speed", "100", "--hands", "3"], tmp_path)
    assert done.returncode == 0, done.stderr
    link = [line for line in done.stderr.splitlines() if "floor link" in line]
    assert [line.split(": ")[2].split(" ")[0] for line in link] == ["connecting", "down", "stopped"], link
