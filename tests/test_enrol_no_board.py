"""``dealerbox enrol --port`` on a port where no board answers (issue 32): the board is asked to say hello, as
``record`` asks it, and a port that stays silent for the configured number of heartbeat periods ends the scan
with one line naming the port and what to check (exit 2), instead of waiting for ever. A board that has spoken
is waited for as long as the dealer takes. The port is a real pty; the silence is measured on a clock the test
moves, so no test waits on the machine's speed."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from dealerbox.commands.enrol import EnrolError, arrivals_from_port
from dealerbox.wire import protocol as p
from dealerbox.wire.decoder import FrameDecoder
from tests.test_enrol_live import Dealer, uid
from tests.waiting import wait_until

from .conftest import TIMEOUT_SCALE

ROOT = Path(__file__).resolve().parent.parent
WAIT = 10 * TIMEOUT_SCALE


class Scan:
    """``arrivals_from_port`` run as the command runs it, on its own thread, on a clock the test sets."""

    def __init__(self, port: Path, silence: float, enough: int | None = None) -> None:
        self.now = 0.0
        self.got: list[tuple[int, str]] = []
        self.error: Exception | None = None
        self.done = threading.Event()
        self._arrivals = arrivals_from_port(str(port), 115200, idle=1e9, enough=enough, silence=silence,
                                            clock=lambda: self.now)
        threading.Thread(target=self._run, daemon=True).start()

    def _run(self) -> None:
        try:
            for arrival in self._arrivals:
                self.got.append(arrival)
        except Exception as e:   # what the command would print
            self.error = e
        finally:
            self.done.set()


def asked_hello(board) -> bool:
    return p.CmdHello() in [f.message for f in FrameDecoder().feed(board.read(7, timeout=WAIT))]


def test_a_port_where_no_board_answers_the_hello_ends_the_scan_naming_the_port(pty_board):
    scan = Scan(pty_board.link, silence=10.0)
    assert asked_hello(pty_board)           # the scan asked the board to introduce itself
    scan.now = 9.0                          # nine heartbeat periods of silence: still waiting
    assert not scan.done.wait(0.5)
    scan.now = 10.0                         # the tenth: nobody is there
    assert scan.done.wait(WAIT)
    assert isinstance(scan.error, EnrolError) and scan.got == []
    message = str(scan.error)
    assert message.startswith(f"{pty_board.link}: no reader board answered in 10 s")
    assert "powered" in message and "--port" in message and "\n" not in message


def test_a_board_that_has_spoken_is_waited_for_past_the_silence(pty_board):
    scan = Scan(pty_board.link, silence=10.0, enough=3)
    assert asked_hello(pty_board)
    dealer = Dealer(pty_board)
    dealer.send(p.Hello(1, 0, (1, 0, 0), (0, 1, 13)))
    dealer.present(uid(0))
    dealer.flush()
    assert wait_until(lambda: len(scan.got) == 1 or scan.done.is_set(), WAIT), scan.error
    scan.now = 1000.0                       # the dealer went to fetch the rest of the chips
    assert not scan.done.wait(0.5), scan.error
    dealer.present(uid(1))
    dealer.present(uid(2))
    dealer.flush()
    assert scan.done.wait(WAIT)
    assert scan.error is None and [u for _, u in scan.got] == [uid(i).hex() for i in range(3)]


def test_enrol_on_a_silent_port_exits_2_with_one_line_after_the_configured_silence(tmp_path, pty_board):
    out = tmp_path / "chips.json"
    r = subprocess.run([sys.executable, "-m", "dealerbox", "enrol", "chips", "--house", "H", "--value", "25",
                        "--out", str(out), "--port", str(pty_board.link), "--silence", "1"], cwd=tmp_path,
                       env={**os.environ, "PYTHONPATH": str(ROOT)}, capture_output=True, text=True,
                       timeout=60 * TIMEOUT_SCALE)
    assert r.returncode == 2 and "Traceback" not in r.stderr, r.stderr
    scanning, error = r.stderr.splitlines()   # the prompt to present the tags, then the one line that matters
    assert scanning.startswith(f"scanning on {pty_board.link}")
    assert error.startswith(f"dealerbox enrol: {pty_board.link}: no reader board answered in 1 s")
    assert not out.exists()


@pytest.mark.parametrize("silence", ["0", "-3"])
def test_a_silence_that_is_not_positive_is_refused_before_the_port_is_opened(tmp_path, capsys, silence):
    from dealerbox.cli import main
    assert main(["enrol", "chips", "--house", "H", "--value", "25", "--out", str(tmp_path / "c.json"),
                 "--port", str(tmp_path / "none"), "--silence", silence]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "--silence" in err
