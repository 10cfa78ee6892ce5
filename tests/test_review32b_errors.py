"""Outside review of issue 32: bad input a user can hand any command is one line naming the file and what to
do, never a traceback, with the exit code of CONTRIBUTING.md's table. These are the inputs the first round's
tests did not try: a broken scenario handed to export and audit, JSON nested too deep in the files the
commands read, and Ctrl-C while the command is still starting."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from dealerbox.cli import main

from .cli.test_one_line_errors import CLEAN, recorded
from tests.conftest import scaled

DEEP = "[" * 100_000 + "]" * 100_000


def one_line(err: str) -> str:
    assert err.count("\n") == 1 and "Traceback" not in err, err
    return err


def not_utf8(tmp_path: Path) -> Path:
    bad = tmp_path / "latin1.scn"
    bad.write_bytes(CLEAN.read_bytes() + "# caf\xe9\n".encode("latin-1"))
    return bad


def unknown_step(tmp_path: Path) -> Path:
    bad = tmp_path / "typo.scn"
    bad.write_text(CLEAN.read_text(encoding="utf-8") + "frobnicate 3\n", encoding="utf-8")
    return bad


@pytest.mark.parametrize("make", [not_utf8, unknown_step], ids=["not-utf8", "unknown-step"])
def test_exporting_a_broken_scenario_names_it_and_could_not_run(tmp_path, capsys, make):
    bad = make(tmp_path)
    assert main(["export", str(bad), "--out", str(tmp_path / "out.phhs")]) == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err and bad.name in err.splitlines()[0]


@pytest.mark.parametrize("make", [not_utf8, unknown_step], ids=["not-utf8", "unknown-step"])
def test_auditing_a_broken_scenario_lists_it_as_unreadable(tmp_path, capsys, make):
    bad = make(tmp_path)
    assert main(["audit", str(bad), "--out-dir", str(tmp_path / "report")]) == 1
    err = capsys.readouterr().err
    assert "Traceback" not in err and f"{bad.name}: unreadable" in err


@pytest.mark.parametrize("argv", [["screenshot", "{bad}", "--out", "{tmp}/x.png"],
                                  ["enrol", "deck", "--deck-id", "D1", "--back", "red", "--out", "{tmp}/d.json",
                                   "--from", "{bad}"]], ids=["screenshot", "enrol"])
def test_a_scenario_that_is_not_utf8_is_named_with_its_line(tmp_path, capsys, argv):
    bad = not_utf8(tmp_path)
    assert main([a.format(bad=bad, tmp=tmp_path) for a in argv]) == 2
    err = one_line(capsys.readouterr().err)
    assert "latin1.scn line" in err and "UTF-8" in err


def deep_file(tmp_path: Path, name: str) -> Path:
    path = tmp_path / name
    path.write_text(DEEP + "\n")
    return path


def test_a_clock_file_nested_too_deep_is_one_line(tmp_path, capsys):
    clock = deep_file(tmp_path, "clock.json")
    assert main(["screenshot", str(CLEAN), "--out", str(tmp_path / "x.png"), "--clock", str(clock)]) == 2
    assert "clock.json" in one_line(capsys.readouterr().err)


def test_an_anchors_file_nested_too_deep_is_one_line_for_verify_and_audit(tmp_path, capsys):
    log, anchors = recorded(tmp_path), deep_file(tmp_path, "anchors.json")
    assert main(["verify", str(log), "--anchors", str(anchors)]) == 2
    assert "anchors.json" in one_line(capsys.readouterr().err)
    assert main(["audit", str(log), "--out-dir", str(tmp_path / "report"), "--anchors", str(anchors)]) == 2
    assert "anchors.json" in capsys.readouterr().err.splitlines()[-1]


def test_an_enrolment_file_nested_too_deep_is_one_line_naming_it(tmp_path, capsys):
    deck = deep_file(tmp_path, "deck.json")
    config = tmp_path / "table.toml"
    config.write_text(f'[enrolment]\ndecks = ["{deck}"]\n')
    assert main(["-c", str(config), "record", "--out-dir", str(tmp_path), "--port", str(tmp_path / "none")]) == 2
    assert "deck.json" in one_line(capsys.readouterr().err)


def deep_header(tmp_path: Path) -> Path:
    log = recorded(tmp_path)
    lines = log.read_text(encoding="utf-8").splitlines(keepends=True)
    log.write_text(DEEP + "\n" + "".join(lines[1:]), encoding="utf-8")
    return log


@pytest.mark.parametrize("argv", [["replay", "{log}"], ["screenshot", "{log}", "--out", "{tmp}/x.png"],
                                  ["enrol", "deck", "--deck-id", "D1", "--back", "red", "--out", "{tmp}/d.json",
                                   "--from", "{log}"]], ids=["replay", "screenshot", "enrol"])
def test_a_log_whose_first_line_nests_too_deep_is_not_a_log(tmp_path, capsys, argv):
    log = deep_header(tmp_path)
    assert main([a.format(log=log, tmp=tmp_path) for a in argv]) == 2
    assert log.name in one_line(capsys.readouterr().err)


def deep_line(tmp_path: Path) -> Path:
    log = recorded(tmp_path)
    lines = log.read_text(encoding="utf-8").splitlines(keepends=True)
    lines.insert(5, '{"k":"rx","x":' + DEEP + "}\n")
    log.write_text("".join(lines), encoding="utf-8")
    return log


def test_a_line_nested_too_deep_inside_a_log_is_damage_verify_names(tmp_path, capsys):
    log = deep_line(tmp_path)
    assert main(["verify", str(log)]) == 1
    out, err = capsys.readouterr()
    assert "BROKEN" in out and "line 6" in out and "Traceback" not in err


@pytest.mark.parametrize("argv", [["replay", "{log}"], ["audit", "{log}", "--out-dir", "{tmp}/report"]],
                         ids=["replay", "audit"])
def test_a_line_nested_too_deep_inside_a_log_is_found_and_the_rest_is_read(tmp_path, capsys, argv):
    log = deep_line(tmp_path)
    assert main([a.format(log=log, tmp=tmp_path) for a in argv]) == 1
    assert "Traceback" not in capsys.readouterr().err


INTERRUPT_AT_IMPORT = """
import sys
class CtrlC:   # Ctrl-C pressed while the command's module is still loading (seconds on a busy Pi)
    def find_spec(self, name, path=None, target=None):
        if name == {module!r}:
            raise KeyboardInterrupt
        return None
sys.meta_path.insert(0, CtrlC())
from dealerbox.cli import main
sys.exit(main({argv!r}))
"""


@pytest.mark.parametrize("module,argv", [
    ("dealerbox.commands.simulate", ["simulate", "--hands", "1", "--out", "x.jsonl"]),
    ("dealerbox.commands.audit", ["audit", str(CLEAN), "--out-dir", "report"]),
], ids=["simulate", "audit"])
def test_ctrl_c_while_the_command_is_still_loading_is_one_line_and_130(tmp_path, module, argv):
    code = INTERRUPT_AT_IMPORT.format(module=module, argv=argv)
    done = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, capture_output=True, text=True,
                          timeout=scaled(120))
    assert done.returncode == 130, done.stderr
    assert one_line(done.stderr) == f"dealerbox {argv[0]}: interrupted\n"
