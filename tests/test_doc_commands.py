"""The docs cannot drift: every shell command in README.md, CONTRIBUTING.md and docs/*.md written in a fenced
```sh block is run here, in a scratch folder with the files it names, and must exit 0 (or the code its line
says with ``# exit N``). A command that cannot run here says so on its own line, visibly:
``# not run here: REASON`` (a real serial port, systemd, a floor broker, the test suite itself).

Each document's commands run in order in one scratch folder, so a later command may read what an earlier one
wrote (simulate, then export). The inputs are small (a few hands) to keep this quick on two cores."""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

from dealerbox.record.logformat import Header, Rx
from dealerbox.record.recorder import Recorder
from dealerbox.wire import protocol as p

from .test_enrol import uid
from tests.conftest import scaled

ROOT = Path(__file__).resolve().parent.parent
DOCS = [ROOT / "README.md", ROOT / "CONTRIBUTING.md", *sorted((ROOT / "docs").glob("*.md"))]
NOT_RUN = "# not run here:"
FENCE = re.compile(r"^```sh[ \t]*\n(.*?)^```", re.S | re.M)
EXIT = re.compile(r"#\s*exit (\d+)\b")
LINKED = ("tests", "tools", "bench", "dealerbox", "firmware", "hardware", "pyproject.toml", ".venv")
LOG = "var/logs/T07-20261124T180000Z.jsonl"   # the log the docs' examples name


@dataclass(frozen=True)
class Command:
    doc: str
    line: int
    text: str

    @property
    def runnable(self) -> bool:
        return NOT_RUN not in self.text

    @property
    def exit_code(self) -> int:
        m = EXIT.search(self.text)
        return int(m.group(1)) if m else 0


def commands_of(doc: Path) -> list[Command]:
    """Every command in the doc's ```sh blocks; a backslash continues a command on the next line."""
    text = doc.read_text(encoding="utf-8")
    out: list[Command] = []
    for block in FENCE.finditer(text):
        first = text[:block.start(1)].count("\n") + 1
        pending, start = "", 0
        for n, raw in enumerate(block.group(1).splitlines()):
            line = raw.strip()
            if not pending and (not line or line.startswith("#")):
                continue
            if line.startswith("$ "):
                line = line[2:]
            start = start if pending else first + n
            if line.endswith("\\"):
                pending += line[:-1] + " "
                continue
            out.append(Command(doc.relative_to(ROOT).as_posix(), start, pending + line))
            pending = ""
    return out


ALL = {doc.relative_to(ROOT).as_posix(): commands_of(doc) for doc in DOCS}


@pytest.fixture(scope="module")
def inputs(tmp_path_factory) -> Path:
    """The input files the docs name, made once: a short simulated log and two scans."""
    folder = tmp_path_factory.mktemp("doc-inputs")
    (folder / "var" / "logs").mkdir(parents=True)
    done = subprocess.run([sys.executable, "-m", "dealerbox", "simulate", "--hands", "3", "--seed", "7",
                           "--irregularities", "0.3", "--out", str(folder / LOG)], cwd=folder,
                          env={**os.environ, "PYTHONPATH": str(ROOT)}, capture_output=True, text=True,
                          timeout=scaled(300))
    assert done.returncode == 0, done.stderr
    scan(folder / "var" / "logs", "scan", [uid(i) for i in range(52)], p.ZONE_SHOE)   # a deck scanned at the shoe
    scan(folder, "scan25", [uid(100 + i) for i in range(20)], p.ZONE_POT)              # twenty 25s
    return folder


def scratch(tmp: Path, inputs: Path) -> dict[str, str]:
    """A folder that looks like a checkout (its code and tests linked, the docs copied so nothing writes into
    the real ones), the input files the docs name, and `dealerbox` on PATH; returns the environment."""
    for name in LINKED:
        if (ROOT / name).exists():
            (tmp / name).symlink_to(ROOT / name)
    shutil.copytree(ROOT / "docs", tmp / "docs")
    for name in ("README.md", "CONTRIBUTING.md"):
        shutil.copy(ROOT / name, tmp / name)
    bin_dir = tmp / ".bin"
    bin_dir.mkdir()
    shim = bin_dir / "dealerbox"
    shim.write_text(f'#!/bin/sh\nexec "{sys.executable}" -m dealerbox "$@"\n')
    shim.chmod(0o755)
    env = {**os.environ, "PATH": f"{bin_dir}{os.pathsep}{os.environ.get('PATH', '')}", "PYTHONPATH": str(ROOT),
           "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy", "PYGAME_HIDE_SUPPORT_PROMPT": "1"}
    env.pop("DISPLAY", None)
    env.pop("WAYLAND_DISPLAY", None)
    shutil.copytree(inputs, tmp, dirs_exist_ok=True)
    return env


def scan(folder: Path, name: str, uids: list[bytes], zone: int) -> Path:
    """A recorded (and closed) log of a scan: the board's hello, then each tag arriving and leaving."""
    enc = p.Encoder()
    rec = Recorder(folder, Header(config={}, enrolment={"decks": [], "chips": []}), name=name)
    rec.write(Rx(0.0, enc.encode(p.Hello(1, 0, (1, 0, 0), (0, 1, 21)))))
    for i, u in enumerate(uids):
        rec.write(Rx(0.7 * (i + 1), enc.encode(p.TagArrived(zone, u))))
        rec.write(Rx(0.7 * (i + 1) + 0.3, enc.encode(p.TagLeft(zone, u))))
    rec.close()
    assert rec.path.name == f"{name}.jsonl"
    return rec.path


@pytest.mark.parametrize("doc", [d for d, cmds in ALL.items() if any(c.runnable for c in cmds)])
def test_every_runnable_command_of_the_doc_runs_as_written(doc, tmp_path, inputs):
    env = scratch(tmp_path, inputs)
    for command in ALL[doc]:
        if not command.runnable:
            continue
        done = subprocess.run(["bash", "-c", command.text], cwd=tmp_path, env=env, capture_output=True, text=True,
                              timeout=scaled(300), stdin=subprocess.DEVNULL)
        assert done.returncode == command.exit_code, (
            f"{command.doc} line {command.line}: `{command.text}` exited {done.returncode}, "
            f"not {command.exit_code}:\n{done.stderr[-2000:]}")


def test_a_command_that_cannot_run_here_says_why():
    skipped = [c for cmds in ALL.values() for c in cmds if not c.runnable]
    for c in skipped:
        reason = c.text.split(NOT_RUN, 1)[1].strip()
        assert len(reason) >= 8, f"{c.doc} line {c.line}: say why it cannot run here"


def test_the_readme_and_the_docs_have_runnable_commands():
    runnable = [c for cmds in ALL.values() for c in cmds if c.runnable]
    assert any(c.doc == "README.md" for c in runnable)
    assert {c.doc for c in runnable} >= {"README.md", "CONTRIBUTING.md", "docs/hand-history.md"}
    assert all(shlex.split(c.text.split(" #", 1)[0]) for c in runnable)
