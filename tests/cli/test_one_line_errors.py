"""Every error a user meets at the command line is one line on stderr naming the file, field or port and what
to do, with the exit code of the table in CONTRIBUTING.md (0 ok, 1 found a problem, 2 could not run, 130
interrupted)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from dealerbox.cli import main
from dealerbox.record.recorder import Recorder
from dealerbox.sources.scenario import compile_file
from tests.ctrl_c import as_from_a_shell
from tests.conftest import scaled

SCENARIOS = Path(__file__).parent.parent / "scenarios"
CLEAN = SCENARIOS / "clean-hand.scn"


def one_line(capsys) -> str:
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err, err
    return err


def recorded(tmp_path: Path) -> Path:
    compiled = compile_file(CLEAN)
    rec = Recorder(tmp_path, compiled.header, name="clean")
    for record in compiled.records:
        rec.write(record)
    rec.close()
    return rec.path


def test_replaying_an_empty_scenario_could_not_run(tmp_path, capsys):
    empty = tmp_path / "empty.scn"
    empty.write_text("")
    assert main(["replay", str(empty)]) == 2
    assert "empty.scn" in one_line(capsys)


def test_replaying_a_scenario_that_is_not_utf8_is_one_line(tmp_path, capsys):
    bad = tmp_path / "latin1.scn"
    bad.write_bytes(CLEAN.read_bytes() + "# caf\xe9\n".encode("latin-1"))
    assert main(["replay", str(bad)]) == 2
    err = one_line(capsys)
    assert "latin1.scn line" in err and "UTF-8" in err


def test_a_log_cut_mid_line_replays_what_is_there_and_exits_1(tmp_path, capsys):
    log = recorded(tmp_path)
    data = log.read_bytes()
    log.write_bytes(data[: data.rindex(b"\n", 0, len(data) - 1) - 20])   # a power cut mid-line
    assert main(["replay", str(log)]) == 1
    err = capsys.readouterr().err
    assert "cut short" in err and log.name in err


def test_a_log_without_its_closing_record_replays_and_exits_1(tmp_path, capsys):
    log = recorded(tmp_path)
    lines = log.read_bytes().splitlines(keepends=True)
    log.write_bytes(b"".join(line for line in lines if b'"k":"closed"' not in line and b'"k":"sig"' not in line))
    assert main(["replay", str(log)]) == 1
    assert "no closing record" in capsys.readouterr().err


def test_a_closed_log_replays_with_exit_0(tmp_path, capsys):
    assert main(["replay", str(recorded(tmp_path))]) == 0


@pytest.mark.parametrize("content", [b"junk without a newline", b"junk\nmore junk\n", b"\x00\xff\xfe binary\n"])
def test_exporting_junk_names_the_file_once_and_says_what_it_holds(tmp_path, capsys, content):
    junk = tmp_path / "junk.jsonl"
    junk.write_bytes(content)
    assert main(["export", str(junk), "--out", str(tmp_path / "out.phhs")]) == 2
    err = capsys.readouterr().err
    first = err.splitlines()[0]
    assert first.count("junk.jsonl") == 1 and "empty" not in first and "not a dealerbox log" in first


def test_a_config_nested_100000_deep_is_one_line_naming_the_file(tmp_path, capsys):
    deep = tmp_path / "deep.toml"
    deep.write_text("x = " + "[" * 100_000 + "]" * 100_000 + "\n")
    assert main(["-c", str(deep), "rules"]) == 2
    err = one_line(capsys)
    assert "deep.toml" in err and "nested too deeply" in err


def test_screenshot_of_a_folder_says_it_is_a_folder(tmp_path, capsys):
    assert main(["screenshot", str(SCENARIOS), "--out", str(tmp_path / "x.png")]) == 2
    err = one_line(capsys)
    assert "a folder" in err and ".scn" in err


def test_screenshot_into_a_folder_says_out_is_a_file(tmp_path, capsys):
    assert main(["screenshot", str(CLEAN), "--out", str(tmp_path)]) == 2
    assert "--out" in one_line(capsys)


def test_record_where_no_board_answers_could_not_run_and_names_the_port(tmp_path, capsys, pty_board):
    code = main(["record", "--out-dir", str(tmp_path), "--port", str(pty_board.link), "--duration", "0.3"])
    err = capsys.readouterr().err
    assert code == 2
    assert f"{pty_board.link}: no reader board answered" in err and "{" not in err   # no raw dict


def test_version_is_printed(capsys):
    with pytest.raises(SystemExit) as done:
        main(["--version"])
    assert done.value.code == 0
    assert capsys.readouterr().out.startswith("dealerbox ")


def run_without(module: str, *argv: str) -> subprocess.CompletedProcess[str]:
    """The CLI in a fresh interpreter where ``module`` is not installed (None in sys.modules, as Python marks
    a module that cannot be imported)."""
    code = f"import sys; sys.modules[{module!r}] = None; from dealerbox.cli import main; sys.exit(main({list(argv)!r}))"
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=scaled(120))


def test_audit_without_its_extra_names_the_extra_to_install(tmp_path):
    done = run_without("pygal", "audit", str(CLEAN), "--out-dir", str(tmp_path / "r"))
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1 and "pip install 'dealerbox[audit]'" in done.stderr


def test_dashboard_without_its_extra_names_the_extra_to_install(tmp_path):
    done = run_without("starlette", "dashboard", "demo")
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1 and "pip install 'dealerbox[floor]'" in done.stderr


def children(pid: int) -> list[int]:
    out = subprocess.run(["ps", "-o", "pid=", "--ppid", str(pid)], capture_output=True, text=True).stdout
    return [int(x) for x in out.split()]


def test_ctrl_c_during_an_audit_is_exit_130_without_tracebacks(tmp_path):
    room = tmp_path / "room"
    room.mkdir()
    for n in range(400):   # work for seconds on a quiet machine: the audit is still running when Ctrl-C comes
        (room / f"s{n}.scn").write_bytes(CLEAN.read_bytes())
    logs = [str(p) for p in sorted(room.glob("*.scn"))]
    proc = subprocess.Popen([sys.executable, "-m", "dealerbox", "audit", *logs, "--out-dir", str(tmp_path / "r"),
                             "--jobs", "2"], stderr=subprocess.PIPE, text=True, start_new_session=True,
                            preexec_fn=as_from_a_shell)
    deadline = time.monotonic() + scaled(120)
    while len(children(proc.pid)) < 2 and proc.poll() is None and time.monotonic() < deadline:
        time.sleep(0.02)   # until its two workers are up: Ctrl-C then reaches the parent and both workers
    assert proc.poll() is None, "the audit ended before its workers could be seen"
    os.killpg(proc.pid, signal.SIGINT)   # as a terminal's Ctrl-C: the whole process group
    _, err = proc.communicate(timeout=scaled(120))
    assert proc.returncode == 130, err
    assert "Traceback" not in err and "KeyboardInterrupt" not in err
    assert err.strip().splitlines()[-1] == "dealerbox audit: interrupted"


def test_tournament_takes_the_tls_options_and_names_a_missing_ca_file(tmp_path, capsys):
    tournament = Path(__file__).parent.parent.parent / "docs" / "tournament.demo.toml"
    missing = tmp_path / "no-ca.pem"
    code = main(["tournament", "--tournament", str(tournament), "--tls", "--ca-file", str(missing), "--for", "0"])
    assert code == 2
    err = one_line(capsys)
    assert f"--ca-file {missing}: no such file" in err


@pytest.mark.parametrize("content", [bytes(range(256)) * 8, b"\x00\xff\xfe no newline at all", b"",
                                     b"junk\nmore junk\n"])
def test_verify_calls_junk_not_a_log_and_never_intact(tmp_path, capsys, content):
    junk = tmp_path / "junk.jsonl"
    junk.write_bytes(content)
    assert main(["verify", str(junk)]) == 2
    out, err = capsys.readouterr()
    assert "intact" not in out + err and err.count("\n") == 1 and "not a dealerbox log" in err


def test_verify_of_a_log_with_a_damaged_header_is_still_broken_not_junk(tmp_path, capsys):
    log = recorded(tmp_path)
    lines = log.read_bytes().split(b"\n")
    lines[0] = b"edited" + lines[0]
    log.write_bytes(b"\n".join(lines))
    assert main(["verify", str(log)]) == 1
    assert "BROKEN" in capsys.readouterr().out
