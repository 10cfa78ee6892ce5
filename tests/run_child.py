"""`dealerbox run --headless` in a child process reading a serial port, as the kiosk starts it: the set-up the
tests of a missing or silent reader board share. Its stderr goes to a file the test reads as it grows."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def read(path: Path) -> str:
    return path.read_text() if path.exists() else ""


@dataclass
class RunChild:
    proc: subprocess.Popen
    out: Path       # its stdout (the table events with ``jsonl``)
    err: Path       # its stderr


@contextmanager
def running(tmp_path: Path, port: Path | str, *, reader: str = "", jsonl: bool = False, stop: int,
            stop_timeout: float, preexec_fn: Callable[[], None] | None = None) -> Iterator[RunChild]:
    """The child on ``port`` (``reader``: more ``[reader]`` settings, one a line), stopped with the signal ``stop``
    when the block ends; a block that ends without an error then asserts the child exited 0 with no traceback."""
    cfg = tmp_path / "t.toml"
    cfg.write_text(f'[reader]\nsource = "serial"\nport = "{port}"\n{reader}')
    out, err = tmp_path / "out.jsonl", tmp_path / "err.txt"
    env = {**os.environ, "SDL_VIDEODRIVER": "dummy", "PYTHONPATH": str(ROOT)}
    with open(out, "w") as o, open(err, "w") as e:
        proc = subprocess.Popen([sys.executable, "-m", "dealerbox", "--config", str(cfg), "run", "--headless",
                                 *(["--jsonl"] if jsonl else []), "--no-floor", "--no-record"], cwd=tmp_path,
                                env=env, stdout=o if jsonl else subprocess.DEVNULL, stderr=e, preexec_fn=preexec_fn)
    try:
        yield RunChild(proc, out, err)
    finally:
        proc.send_signal(stop)
        code = proc.wait(timeout=stop_timeout)
    assert code == 0 and "Traceback" not in read(err), read(err)
