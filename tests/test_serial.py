"""The serial source through a real pseudo-terminal: reading, sending, clear errors, and an unplug."""

import os
import queue
import threading
import time

import pytest

from dealerbox.pipeline import Pipeline
from dealerbox.config import Config
from dealerbox.record.logformat import Link, Rx, Tx
from dealerbox.sources.serial_port import SerialSource, SerialSourceError
from dealerbox.tags import demo_registry
from dealerbox.wire import protocol as p
from dealerbox.wire.decoder import FrameDecoder
from tests.conftest import scaled


class TickClock:
    """A clock the test owns: every reading is one tick later."""

    def __init__(self) -> None:
        self.now = 100.0
        self.lock = threading.Lock()

    def __call__(self) -> float:
        with self.lock:
            self.now += 0.001
            return self.now


class RecordingSleep:
    """Remembers the backoff asked for, but waits only a moment of real time so the test stays fast."""

    def __init__(self) -> None:
        self.asked: list[float] = []

    def __call__(self, seconds: float) -> None:
        self.asked.append(seconds)
        time.sleep(0.01)


def drain(src: SerialSource, until, timeout: float = scaled(3.0)) -> list:
    got, deadline = [], time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            got.append(src.entries.get(timeout=scaled(0.05)))
        except queue.Empty:
            continue
        if until(got):
            return got
    raise AssertionError(f"timed out; got {got}")


def rx_bytes(entries) -> bytes:
    return b"".join(e.data for e in entries if isinstance(e, Rx))


def decoded(entries) -> list:
    return [f.message for f in FrameDecoder().feed(rx_bytes(entries))]


def test_reads_frames_with_timestamps_from_the_injected_clock(pty_board):
    clock = TickClock()
    src = SerialSource(str(pty_board.link), 115200, clock=clock)
    src.start()
    try:
        enc = p.Encoder()
        msgs = [p.Hello(1, 0, (1, 0, 0), (0, 1)), p.TagArrived(0, bytes(4)), p.Heartbeat(1, 1, 0)]
        pty_board.write(b"".join(enc.encode(m) for m in msgs))
        got = drain(src, lambda g: decoded(g) == msgs)
        assert isinstance(got[0], Link) and got[0].up
        assert all(100.0 < e.t < clock.now + 1e-9 for e in got)
        assert src.counters["bytes"] == len(rx_bytes(got)) and src.connected
    finally:
        src.stop()


def test_send_writes_an_encoded_command_and_records_it(pty_board):
    src = SerialSource(str(pty_board.link), clock=TickClock())
    src.start()
    try:
        assert src.send(p.CmdHeartbeatPeriod(250))
        wire = pty_board.read(len(p.encode_frame(0, p.CmdHeartbeatPeriod(250))))
        assert [f.message for f in FrameDecoder().feed(wire)] == [p.CmdHeartbeatPeriod(250)]
        got = drain(src, lambda g: any(isinstance(e, Tx) for e in g))
        assert [e.data for e in got if isinstance(e, Tx)] == [wire]
    finally:
        src.stop()


def test_a_missing_port_says_what_to_do(tmp_path):
    with pytest.raises(SerialSourceError, match=r"no such port .*nothing-here: is the reader board plugged in\? "
                                                r"set reader.port"):
        SerialSource(str(tmp_path / "nothing-here"))


def test_a_forbidden_port_says_to_join_dialout(pty_board):
    device = os.ttyname(pty_board.slave)
    os.chmod(device, 0o600)
    as_root = os.geteuid() == 0
    if as_root:
        os.seteuid(65534)  # root may open anything: try as nobody, as the dealer's account would
    try:
        with pytest.raises(SerialSourceError) as caught:
            SerialSource(device).start()
    finally:
        if as_root:
            os.seteuid(0)
    assert str(caught.value) == (f"permission denied on {device}: add the user to the dialout group "
                                 "(sudo usermod -aG dialout $USER, then log in again)")


def test_an_unplug_is_survived_and_the_gap_reported(pty_board):
    clock, sleep = TickClock(), RecordingSleep()
    src = SerialSource(str(pty_board.link), clock=clock, sleep=sleep, reconnect_max_s=0.4)
    src.start()
    try:
        enc = p.Encoder()
        pty_board.write(enc.encode(p.Hello(1, 0, (1, 0, 0), (0, 1))) + enc.encode(p.TagArrived(0, bytes(4))))
        before = drain(src, lambda g: len(decoded(g)) == 2)
        pty_board.write(enc.encode(p.TagLeft(0, bytes(4)))[:4])  # a frame cut by the unplug
        time.sleep(scaled(0.05))
        pty_board.unplug()
        down = drain(src, lambda g: any(isinstance(e, Link) and not e.up for e in g))
        time.sleep(0.3)  # unplugged a while: the backoff grows up to its cap
        enc.seq += 5     # the board kept counting while nobody listened
        pty_board.replug()
        up = drain(src, lambda g: any(isinstance(e, Link) and e.up for e in g))
        # The host asks the board to introduce itself and re-report what it sees.
        asked = [f.message for f in FrameDecoder().feed(pty_board.read(14))]
        assert asked == [p.CmdHello(), p.CmdInventory()]
        pty_board.write(enc.encode(p.TagArrived(1, bytes(4))))
        after = drain(src, lambda g: len(decoded(g)) == 1)
    finally:
        src.stop()
    assert sleep.asked[0] == pytest.approx(0.1) and max(sleep.asked) == pytest.approx(0.4)
    assert sleep.asked == sorted(sleep.asked)
    assert src.counters["reconnects"] == 1 and src.counters["errors"] >= 1 and src.counters["tx_frames"] == 2
    # Through the real pipeline: the link drop, then the frame after the replug with its gap counted.
    pipe = Pipeline(Config(), demo_registry())
    entries = before + down + up + after
    for e in entries:
        pipe.feed(e)
    link = [e for e in entries if isinstance(e, Link)]
    assert [change.up for change in link] == [True, False, True]
    assert pipe.decoder.counters.frames == 3
    assert pipe.decoder.counters.frames_lost == 6  # the cut TagLeft and the five sent while unplugged
    assert [e.t for e in entries] == sorted(e.t for e in entries)
