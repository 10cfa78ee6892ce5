"""The audit's small items (issue 14), each through the real CLI on real files."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from dealerbox.cli import main


@pytest.fixture(scope="module")
def sim_log(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("sim") / "sim.jsonl"
    assert main(["simulate", "--hands", "2", "--seed", "3", "--out", str(out)]) == 0
    return out


def _copy(src: Path, dst: Path, edit=None) -> Path:
    lines = src.read_bytes().split(b"\n")
    if edit:
        edit(lines)
    dst.write_bytes(b"\n".join(lines))
    return dst


def _retime(lines: list[bytes]) -> None:
    rec = json.loads(lines[5])
    rec["t"] += 0.5                       # an edited time, hash left as it was
    lines[5] = json.dumps(rec, separators=(",", ":")).encode()


def test_replay_of_an_empty_file_names_it_and_exits_2(tmp_path, capsys):
    log = tmp_path / "empty.jsonl"
    log.write_bytes(b"")
    assert main(["replay", str(log)]) == 2
    assert f"{log} line 1: empty file" in capsys.readouterr().err


def test_replay_of_a_non_utf8_file_names_it_and_exits_2(tmp_path, capsys):
    log = tmp_path / "bin.jsonl"
    log.write_bytes(b"\xff\xfe\x00garbage\n")
    assert main(["replay", str(log)]) == 2
    assert f"{log} line 1: not UTF-8 text" in capsys.readouterr().err


def test_replay_of_a_tampered_log_names_the_line_and_exits_1(sim_log, tmp_path, capsys):
    log = _copy(sim_log, tmp_path / "t.jsonl", _retime)
    assert main(["replay", "--jsonl", str(log)]) == 1
    assert "t.jsonl line 6: this line was edited" in capsys.readouterr().err


def test_replay_of_a_clean_log_still_exits_0(sim_log, capsys):
    assert main(["replay", "--jsonl", str(sim_log)]) == 0
    assert "damaged" not in capsys.readouterr().err


def test_verify_accepts_any_file_name(sim_log, tmp_path, capsys):
    other = _copy(sim_log, tmp_path / "evidence copy.log")
    assert main(["verify", str(other)]) == 0
    assert capsys.readouterr().out.startswith("intact")


def test_verify_names_the_damaged_line_itself_and_only_it(sim_log, tmp_path, capsys):
    def damage(lines):
        lines[7] = b"\xff\xfe" + lines[7][2:]   # two bytes of line 8 overwritten, not UTF-8 any more
    log = _copy(sim_log, tmp_path / "d.jsonl", damage)
    assert main(["verify", str(log)]) == 1
    out = capsys.readouterr().out
    assert out.startswith("BROKEN: d.jsonl line 8: not a JSON record")
    assert "line 9" not in out                    # the intact line after it is not blamed


def test_verify_says_an_empty_file_is_no_log_and_cannot_be_verified(tmp_path, capsys):
    log = tmp_path / "empty.jsonl"
    log.write_bytes(b"")
    assert main(["verify", str(log)]) == 2   # exit codes (CONTRIBUTING): 2, it could not run; never "intact"
    err = capsys.readouterr().err
    assert "empty.jsonl: empty file; not a dealerbox log" in err and "intact" not in err


def test_config_works_after_the_subcommand_as_before_it(tmp_path, capsys):
    cfg = tmp_path / "c.toml"
    cfg.write_text("[game]\nbig_blind = 0\n")
    assert main(["--config", str(cfg), "rules"]) == 2
    before = capsys.readouterr().err
    assert main(["rules", "--config", str(cfg)]) == 2
    assert capsys.readouterr().err == before and "game.big_blind" in before


@pytest.mark.parametrize("toml, field", [
    ("[game]\nbig_blind = 100000000000000000000\n", "game.big_blind"),
    ("[game]\nsmall_blind = 1\nbig_blind = 1e20\n", "game.big_blind"),
    ("[game]\nsmall_blind = 5\nbig_blind = 10\nsmallest_chip = 25\nbuy_in = 1000\n", "game.small_blind"),
    ("[game]\nsmall_blind = 25\nbig_blind = 60\nsmallest_chip = 25\nbuy_in = 1000\n", "game.big_blind"),
])
def test_impossible_stakes_are_refused_naming_the_field(tmp_path, capsys, toml, field):
    cfg = tmp_path / "c.toml"
    cfg.write_text(toml)
    assert main(["rules", "--config", str(cfg)]) == 2
    err = capsys.readouterr().err
    assert f"c.toml: {field}:" in err and "Traceback" not in err


def test_possible_stakes_with_a_large_smallest_chip_load(tmp_path):
    cfg = tmp_path / "c.toml"
    cfg.write_text("[game]\nsmall_blind = 25\nbig_blind = 50\nsmallest_chip = 25\nbuy_in = 1000\n")
    assert main(["rules", "--config", str(cfg)]) == 0


def test_keygen_pin_hash_prints_a_hash_the_config_accepts_and_the_pin_matches(tmp_path, monkeypatch, capsys):
    import io

    from dealerbox.config import load
    from dealerbox.record.audit import pin_ok
    monkeypatch.setattr("sys.stdin", io.StringIO("80451\n"))
    assert main(["keygen", "--pin-hash"]) == 0
    hashed = capsys.readouterr().out.strip()
    cfg = tmp_path / "c.toml"
    cfg.write_text(f'[audit]\nsupervisors = {{ S07 = "{hashed}" }}\n')
    config = load(cfg)
    assert pin_ok(config, "S07", "80451") and not pin_ok(config, "S07", "80452") and not pin_ok(config, "S08", "80451")


def test_a_plain_pin_in_the_config_is_refused_naming_the_field(tmp_path, capsys):
    cfg = tmp_path / "c.toml"
    cfg.write_text('[audit]\nsupervisors = { S07 = "1234" }\n')
    assert main(["rules", "--config", str(cfg)]) == 2
    assert "audit.supervisors.S07" in capsys.readouterr().err
