"""The running terminal's evidence (issue 14), as users start it: ``dealerbox run`` in a subprocess on the
simulator, with a signing key. Its log is signed at every hand's end and verifies with the public key; hand
numbers continue across a restart and a replay numbers them as the live table did."""

from __future__ import annotations

import json
import stat

from dealerbox.record.signing import generate

from ..test_terminal import _run


def _hands(stdout: str) -> list[int]:
    return [e["hand"] for e in map(json.loads, stdout.splitlines()) if e["event"] == "HandEnded"]


def test_a_signed_terminal_log_verifies_and_hand_numbers_continue_across_a_restart(tmp_path):
    key = tmp_path / "keys" / "T01.key"
    public = generate(key)
    cfg = tmp_path / "t.toml"
    cfg.write_text(f'[record]\nkey = "{key}"\n[simulator]\nseed = 4\n')
    first = _run(["run", "--config", str(cfg), "--jsonl", "--speed", "500", "--hands", "2", "--no-floor"], tmp_path)
    assert first.returncode == 0, first.stderr
    # read after the first run: hands that ended while it stopped are counted too (the printing stops first)
    counted = json.loads((tmp_path / "var" / "hands-T01.json").read_text())["last_hand"]
    second = _run(["run", "--config", str(cfg), "--jsonl", "--speed", "500", "--hands", "2", "--no-floor"], tmp_path)
    assert second.returncode == 0, second.stderr
    before, after = _hands(first.stdout), _hands(second.stdout)
    assert before[:2] == [1, 2] and after and min(after) > max(before)       # never a second "hand 1"
    assert counted >= max(before) and min(after) == counted + 1               # numbering goes on from the count
    assert json.loads((tmp_path / "var" / "hands-T01.json").read_text())["last_hand"] >= max(after)
    logs = sorted((tmp_path / "var" / "logs").glob("*.jsonl"))
    assert len(logs) == 2
    for log in logs:
        assert stat.S_IMODE(log.stat().st_mode) == 0o640
        lines = [json.loads(line) for line in log.read_text().splitlines()]
        sigs = [line for line in lines if line["k"] == "sig"]
        # a hand's end and the close at least (hands that end in one batch of the core loop share a seal)
        assert len(sigs) >= 2 and lines[-1]["k"] == "sig" and lines[-2]["k"] == "closed"
        v = _run(["verify", str(log), "--pubkey", str(public)], tmp_path)
        assert v.returncode == 0 and "signatures good" in v.stdout, v.stdout + v.stderr
    # the second run's log says where its numbering starts (the names may sort either way within a second)
    later = next(log for log in logs if json.loads(log.read_text().split("\n", 1)[0]).get("hands_before"))
    replayed = _run(["replay", "--jsonl", str(later)], tmp_path)
    assert replayed.returncode == 0, replayed.stderr
    assert _hands(replayed.stdout)[:len(after)] == after


def test_a_missing_or_exposed_signing_key_stops_the_terminal_with_one_clear_line(tmp_path):
    key = tmp_path / "keys" / "T01.key"
    cfg = tmp_path / "t.toml"
    cfg.write_text(f'[record]\nkey = "{key}"\n')
    missing = _run(["run", "--config", str(cfg), "--jsonl", "--hands", "1", "--no-floor"], tmp_path)
    assert missing.returncode == 2 and "no signing key; create one with `dealerbox keygen`" in missing.stderr
    assert "Traceback" not in missing.stderr
    generate(key)
    key.chmod(0o644)
    exposed = _run(["run", "--config", str(cfg), "--jsonl", "--hands", "1", "--no-floor"], tmp_path)
    assert exposed.returncode == 2 and "readable by others" in exposed.stderr and "Traceback" not in exposed.stderr
