"""`dealerbox run --source serial` on a port that exists but where no board answers (issue 32): the terminal says
it is waiting, naming the port and what to check, on stderr and on the screen's health strip, as it does for a
port that is missing; and stops saying so once the board speaks. The port is a real pty."""

from __future__ import annotations

import logging
import signal

from dealerbox.config import Config, ReaderConfig
from dealerbox.runtime.app import Terminal
from dealerbox.sinks.screen.health import HealthMonitor
from dealerbox.sources.serial_port import SILENT_PERIODS, SerialSource
from dealerbox.tags import demo_registry
from dealerbox.wire import protocol as p
from tests.run_child import read, running
from tests.waiting import wait_until

from .conftest import TIMEOUT_SCALE

WAIT = 10 * TIMEOUT_SCALE
SILENT = "the port is open but nothing answered"


def test_a_silent_open_port_is_waiting_on_the_screen_until_the_board_speaks(pty_board, caplog):
    now = [0.0]
    src = SerialSource(str(pty_board.link), clock=lambda: now[0], wait_for_board=True, silence_s=5.0)
    terminal = Terminal(Config(reader=ReaderConfig(port=str(pty_board.link))), demo_registry(), source=src)
    terminal.start()
    try:
        assert wait_until(lambda: terminal.health()["reader"]["connected"], WAIT)   # opened: not yet a silence
        assert "waiting" not in terminal.health()["reader"]
        now[0] = 5.0                                                              # five heartbeat periods
        with caplog.at_level(logging.WARNING, logger="dealerbox"):
            assert wait_until(lambda: any(SILENT in r.getMessage() for r in caplog.records), WAIT)
        reader = terminal.health()["reader"]
        assert reader["connected"] is False
        assert reader["waiting"].startswith(f"waiting for the reader board on {pty_board.link}: {SILENT} in 5 s")
        assert "powered" in reader["waiting"] and "reader.port" in reader["waiting"]
        view = HealthMonitor().judge(terminal.health(), now=0.0)
        assert view.board == "down" and view.message.startswith(f"Waiting for the reader board on {pty_board.link}")
        pty_board.write(p.Encoder().encode(p.Heartbeat(1000, 1, 0)))            # the board was only late
        assert wait_until(lambda: "waiting" not in terminal.health()["reader"], WAIT)
        assert terminal.health()["reader"]["connected"] is True
    finally:
        terminal.stop()


def test_run_on_a_port_where_no_board_answers_says_it_is_waiting_naming_the_port(tmp_path, pty_board):
    with running(tmp_path, pty_board.link, stop=signal.SIGTERM, stop_timeout=15 * TIMEOUT_SCALE) as run:
        line = f"waiting for the reader board on {pty_board.link}: {SILENT} in {SILENT_PERIODS:g} s"
        assert wait_until(lambda: line in read(run.err), 60 * TIMEOUT_SCALE), read(run.err)
        assert "check that the board is powered" in read(run.err)
