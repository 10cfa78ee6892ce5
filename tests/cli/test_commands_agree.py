"""Commands that read the same input judge it the same way, and stop on the first error that matters (issue 32,
outside review): an empty scenario cannot be run by any command; a bad anchors file stops ``audit`` before any
work; ``record`` says the port's problem, and only that, when it cannot open the port."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from dealerbox.cli import main

from .test_one_line_errors import CLEAN, recorded
from tests.conftest import scaled

ROOT = Path(__file__).resolve().parents[2]
NO_STEPS = "no steps (the file is empty or only comments)"


@pytest.mark.parametrize("text", ["", "# a scenario still to be written\n\n"], ids=["empty", "only-comments"])
@pytest.mark.parametrize("argv", [["replay", "{scn}"], ["export", "{scn}", "--out", "{tmp}/out.phhs"],
                                  ["audit", "{scn}", "--out-dir", "{tmp}/report"],
                                  ["screenshot", "{scn}", "--out", "{tmp}/shot.png"]],
                         ids=["replay", "export", "audit", "screenshot"])
def test_a_scenario_without_steps_cannot_be_run_by_any_command(tmp_path, capsys, argv, text):
    scn = tmp_path / "todo.scn"
    scn.write_text(text, encoding="utf-8")
    assert main([a.format(scn=scn, tmp=tmp_path) for a in argv]) == 2
    first = capsys.readouterr().err.splitlines()[0]
    assert first.startswith(f"dealerbox {argv[0]}: {scn}: {NO_STEPS}") and "Traceback" not in first
    assert not [p for p in tmp_path.rglob("*") if p != scn]   # no "0 hands" export, no report, no blank table


def test_auditing_an_empty_scenario_with_a_real_log_audits_the_log_and_exits_1(tmp_path, capsys):
    scn = tmp_path / "todo.scn"
    scn.write_text("")
    assert main(["audit", str(recorded(tmp_path)), str(scn), "--out-dir", str(tmp_path / "report")]) == 1
    err = capsys.readouterr().err
    assert f"{scn}: {NO_STEPS}" in err and "1 log, 1 hand," in err


def test_exporting_one_log_says_one_log(tmp_path, capsys):
    assert main(["export", str(CLEAN), "--out", str(tmp_path / "x.phhs")]) == 0
    assert "hand (0 not expressible in PHH) from 1 log ->" in capsys.readouterr().err


@pytest.mark.parametrize("content", ["not json\n", '[{"part": 0}]\n'], ids=["not-json", "no-head"])
def test_a_bad_anchors_file_stops_audit_before_any_work(tmp_path, capsys, content):
    anchors = tmp_path / "anchors.json"
    anchors.write_text(content)
    log, report = recorded(tmp_path), tmp_path / "report"
    assert main(["audit", str(log), "--out-dir", str(report), "--anchors", str(anchors)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith(f"dealerbox audit: {anchors}: "), err
    assert not report.exists()   # nothing audited, nothing written


def test_audit_s_floor_options_say_what_they_are_for(capsys):
    with pytest.raises(SystemExit):
        main(["audit", "--help"])
    text = " ".join(capsys.readouterr().out.split())   # argparse wraps the help: one spaced line to search
    assert "--floor-user NAME the dashboard user for --from-floor" in text
    assert "--floor-password-file FILE the user's password (default: the DEALERBOX_FLOOR_PASSWORD" in text


def record(tmp_path: Path, port: str) -> subprocess.CompletedProcess[str]:
    """``dealerbox record`` as a user runs it, with a config that does not seal the logs (so the recorder would
    warn that hole cards are recorded in the clear, were a recording about to happen)."""
    cfg = tmp_path / "t.toml"
    cfg.write_text(f'[record]\ndir = "{tmp_path / "logs"}"\n')
    return subprocess.run([sys.executable, "-m", "dealerbox", "-c", str(cfg), "record", "--port", port,
                           "--duration", "1"], cwd=tmp_path, env={**os.environ, "PYTHONPATH": str(ROOT)},
                          capture_output=True, text=True, timeout=scaled(120))


def test_record_on_a_missing_port_says_only_the_port_s_problem(tmp_path):
    r = record(tmp_path, str(tmp_path / "none"))
    assert r.returncode == 2
    assert r.stderr.splitlines() == [f"dealerbox record: no such port {tmp_path / 'none'}: is the reader board "
                                     f"plugged in? set reader.port in the config"]


@pytest.mark.parametrize("what", ["file", "folder"])
def test_record_on_a_file_or_folder_says_it_is_not_a_serial_port_and_what_to_give(tmp_path, what):
    port = tmp_path / "passwd"
    port.mkdir() if what == "folder" else port.write_text("root:x:0:0\n")
    r = record(tmp_path, str(port))
    assert r.returncode == 2 and r.stderr.count("\n") == 1, r.stderr
    assert r.stderr.startswith(f"dealerbox record: {port} is not a serial port ")
    assert "reader board's port" in r.stderr and "--port" in r.stderr
    assert not (tmp_path / "logs").exists()


def test_record_with_a_floor_key_that_is_not_there_says_so_before_touching_the_port(tmp_path):
    cfg = tmp_path / "t.toml"
    cfg.write_text(f'[record]\ndir = "{tmp_path / "logs"}"\nfloor_public_key = "{tmp_path / "floor.pub"}"\n')
    r = subprocess.run([sys.executable, "-m", "dealerbox", "-c", str(cfg), "record", "--port", str(tmp_path / "none")],
                       cwd=tmp_path, env={**os.environ, "PYTHONPATH": str(ROOT)}, capture_output=True, text=True,
                       timeout=scaled(120))
    assert r.returncode == 2 and r.stderr.count("\n") == 1, r.stderr
    assert "floor.pub" in r.stderr and "no such port" not in r.stderr
