"""`dealerbox run` with reader.source = "serial" and no board yet: it comes up, says it is waiting and on
which port, keeps retrying, and follows the table once the board (a real pty) is plugged in and says hello."""

import json
import os
import signal
import threading

from dealerbox.config import Config, ReaderConfig
from dealerbox.record.logformat import Link
from dealerbox.runtime.app import Terminal
from dealerbox.sinks.screen.health import HealthMonitor
from dealerbox.sources.serial_port import SerialSource
from dealerbox.tags import demo_deck, demo_registry
from dealerbox.wire import protocol as p
from dealerbox.wire.decoder import FrameDecoder

from tests.ctrl_c import as_from_a_shell
from tests.run_child import read, running
from tests.waiting import wait_until
from tests.conftest import scaled

WAITING = "waiting for the reader board on"


def test_run_waits_for_a_board_plugged_in_later_and_follows_it(tmp_path, pty_board):
    port = tmp_path / "reader-later"  # nothing there yet: the Pi booted before the board
    # stopped with SIGTERM, as systemd stops the kiosk
    with running(tmp_path, port, reader="reconnect_max_s = 0.3\n", jsonl=True, stop=signal.SIGTERM,
                 stop_timeout=scaled(15)) as run:
        proc, out, err = run.proc, run.out, run.err
        assert wait_until(lambda: WAITING in read(err), scaled(60)), read(err)
        # Several retries later it is still up and said so once, with the port and what to do.
        threading.Event().wait(1.5)
        assert proc.poll() is None, read(err)
        said = read(err)
        assert said.count(WAITING) == 1, said
        assert f"{WAITING} {port}: plug in its USB cable" in said and "99-dealerbox-reader.rules" in said

        os.symlink(os.ttyname(pty_board.slave), port)  # udev makes the link when the board enumerates
        # The terminal opens it and asks the board to introduce itself and report what it sees.
        asked = [f.message for f in FrameDecoder().feed(pty_board.read(14, timeout=scaled(10)))]
        assert asked == [p.CmdHello(), p.CmdInventory()]
        deck, enc = demo_deck("DEMO-1"), p.Encoder()
        ace = bytes.fromhex(deck.uid_of("As"))
        frames = [p.Hello(1, 0, (1, 0, 0), (0, 1, 11, 12, 13)), p.Heartbeat(1000, 1, 0),
                  p.TagArrived(p.ZONE_SHOE, ace), p.CardFace(p.ZONE_SHOE, False, ace),
                  p.TagLeft(p.ZONE_SHOE, ace), p.TagArrived(p.ZONE_BURN, ace)]
        pty_board.write(b"".join(enc.encode(f) for f in frames))

        def events():
            return [json.loads(line) for line in read(out).splitlines() if line.endswith("}")]
        assert wait_until(lambda: any(ev["event"] == "CardBurned" for ev in events()), scaled(10)), read(err)
        kinds = [ev["event"] for ev in events()]
        assert {"HandStarted", "DeckChanged", "CardBurned"} <= set(kinds)
        assert [ev["deck_id"] for ev in events() if ev["event"] == "DeckChanged"] == ["DEMO-1"]
        assert f"reader board found on {port}" in read(err)
        assert read(err).count(WAITING) == 1


def test_health_names_the_port_and_the_fix_and_the_screen_shows_both(tmp_path):
    port = str(tmp_path / "no-board")
    src = SerialSource(port, wait_for_board=True)  # no raise: waiting is a state
    terminal = Terminal(Config(), demo_registry(), source=src)
    reader = terminal.health()["reader"]
    assert reader["connected"] is False
    assert reader["waiting"].startswith(f"{WAITING} {port}: plug in its USB cable")
    view = HealthMonitor().judge(terminal.health(), now=0.0)
    assert view.board == "down" and view.level == "bad"
    assert view.message.startswith(f"W{WAITING[1:]} {port}: plug in its USB cable")


def test_a_forbidden_port_is_explained_and_retried_until_permitted(pty_board, caplog):
    device = os.ttyname(pty_board.slave)
    os.chmod(device, 0o600)
    gate = threading.Event()  # the retry waits here, so the test decides when the next attempt happens
    src = SerialSource(device, wait_for_board=True, sleep=lambda s: gate.wait(scaled(5)), reconnect_max_s=0.05)
    terminal = Terminal(Config(reader=ReaderConfig(port=device)), demo_registry(), source=src)
    as_root = os.geteuid() == 0
    if as_root:
        os.seteuid(65534)  # root may open anything: open as nobody, as the dealer's account would
    try:
        src.start()      # no exception: the terminal must come up and say why it cannot read the table
    finally:
        if as_root:
            os.seteuid(0)
    try:
        waiting = terminal.health()["reader"]["waiting"]
        assert waiting.startswith(f"{WAITING} {device}: permission denied")
        assert "dialout" in waiting and "99-dealerbox-reader.rules" in waiting
        terminal._say_waiting()
        terminal._say_waiting()  # a retry with the same reason is not logged again
        assert [r.getMessage() for r in caplog.records].count(waiting) == 1
        os.chmod(device, 0o666)  # the fix: udev's rule (or dialout) lets the account open it
        gate.set()
        assert wait_until(lambda: src.connected, scaled(5))
        first = src.entries.get(timeout=scaled(2))
        assert isinstance(first, Link) and first.up and first.reason == "opened"
        assert "waiting" not in terminal.health()["reader"]
    finally:
        gate.set()
        src.stop()


def test_ctrl_c_while_waiting_for_the_board_exits_cleanly(tmp_path):
    with running(tmp_path, tmp_path / "none", stop=signal.SIGINT,
                 stop_timeout=scaled(15), preexec_fn=as_from_a_shell) as run:
        assert wait_until(lambda: WAITING in read(run.err), scaled(60)), read(run.err)
