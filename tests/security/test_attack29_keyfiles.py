"""Issue 29's floor tools given a binary file where a key belongs (a junk file, a wrong download, a key file
overwritten by an attacker): one line naming the file and exit 2, as for any unreadable key, never a traceback.
The real CLI on a real sealed, signed log made by `simulate`."""

from __future__ import annotations

import os

import pytest

from dealerbox.cli import main
from dealerbox.dashboard.anchors import main as anchors_main


@pytest.fixture
def box(tmp_path):
    assert main(["keygen", "--floor", "--out", str(tmp_path / "floor" / "floor.key")]) == 0
    cfg = tmp_path / "t.toml"
    cfg.write_text(f'[table]\nid = "T01"\n[record]\ndir = "{tmp_path / "logs"}"\nkey = "{tmp_path / "k" / "T01.key"}"\n'
                   f'floor_public_key = "{tmp_path / "floor" / "floor.pub"}"\n[audit]\n'
                   f'journal = "{tmp_path / "audit.jsonl"}"\n')
    assert main(["--config", str(cfg), "keygen"]) == 0
    log = tmp_path / "logs" / "T01-s.jsonl"
    assert main(["--config", str(cfg), "simulate", "--hands", "2", "--seed", "3", "--out", str(log)]) == 0
    junk = tmp_path / "junk.key"
    junk.write_bytes(bytes(range(128, 256)) * 4)
    os.chmod(junk, 0o600)
    return {"cfg": str(cfg), "log": str(log), "junk": str(junk), "db": f"sqlite:///{tmp_path / 'floor.db'}",
            "out": tmp_path}


@pytest.mark.parametrize("argv", [
    ["verify", "{log}", "--pubkey", "{junk}"],
    ["--config", "{cfg}", "replay", "--jsonl", "{log}", "--reveal-hole-cards", "--floor-key", "{junk}"],
    ["--config", "{cfg}", "export", "{log}", "--out", "{out}/x.phhs", "--reveal-hole-cards", "--floor-key", "{junk}"],
    ["audit", "--jobs", "1", "--out-dir", "{out}/a", "--floor-key", "{junk}", "{log}"],
], ids=["verify-pubkey", "replay-floor-key", "export-floor-key", "audit-floor-key"])
def test_a_binary_key_file_is_named_in_one_line_and_exit_2_not_a_traceback(box, argv, capsys):
    capsys.readouterr()
    try:
        code = main([a.format(**box) for a in argv])
    except Exception as e:
        command = argv[0] if argv[0] != "--config" else argv[2]
        pytest.fail(f"dealerbox {command} crashed: {type(e).__name__}: {str(e)[:80]}")
    err = capsys.readouterr().err.strip().splitlines()
    assert code == 2 and err and box["junk"] in err[-1], err


def test_enrolling_a_binary_public_key_on_the_floor_is_one_line_not_a_traceback(box, capsys):
    try:
        code = anchors_main(["enrol", "--db", box["db"], "--site", "demo", "--table", "T01", "--pubkey", box["junk"]])
    except Exception as e:
        pytest.fail(f"anchors enrol crashed: {type(e).__name__}: {str(e)[:80]}")
    assert code == 2 and box["junk"] in capsys.readouterr().err


def test_a_reveal_tried_with_the_floor_s_public_key_as_it_is_shipped_is_journalled(box, capsys):
    journal = box["out"] / "audit.jsonl"
    before = journal.read_text().count("\n") if journal.exists() else 0
    code = main(["--config", box["cfg"], "replay", "--jsonl", box["log"], "--reveal-hole-cards",
                 "--floor-key", str(box["out"] / "floor" / "floor.pub")])      # 0644, as keygen --floor writes it
    assert code == 2
    lines = journal.read_text().splitlines() if journal.exists() else []
    assert len(lines) == before + 1 and '"granted":false' in lines[-1], capsys.readouterr().err
