"""The sink and source contracts as the terminal uses them: a floor acknowledgement comes back from a real
broker as a dealer input, the panel follows on its own thread, and every source shares one runner."""

from __future__ import annotations

import queue
import threading

import pytest
from gpiozero.pins.mock import MockFactory

from dealerbox.config import PanelConfig
from dealerbox.engine import events as te
from dealerbox.runtime.bus import EventBus, Update
from dealerbox.runtime.sinks import Notifier, PanelSink
from dealerbox.sinks.panel import Panel
from dealerbox.sources import open_log
from dealerbox.sources.base import PacedSource, Source, ThreadedSource
from dealerbox.sources.replaying import ReplayingSource
from dealerbox.sources.serial_port import SerialSource
from dealerbox.sources.sim import SimulatedSource, Simulator
from dealerbox.tags import demo_registry

from tests.floor_terminal import VOID, drain, floor_table
from tests.waiting import wait_until
from tests.conftest import scaled

pytestmark = pytest.mark.timeout(90)


def test_every_source_keeps_the_one_contract_and_shares_the_runner(tmp_path):
    from dealerbox.config import Config
    replaying = ReplayingSource(open_log(VOID), speed=0)
    simulated = SimulatedSource(Simulator(Config(), demo_registry(), seed=1), speed=5.0)
    serial = SerialSource(str(tmp_path / "no-board"), wait_for_board=True)
    for source in (replaying, simulated, serial):
        assert isinstance(source, Source) and isinstance(source, ThreadedSource)
    assert isinstance(replaying, PacedSource) and isinstance(simulated, PacedSource)
    assert "no-board" in serial.waiting and replaying.waiting == ""
    assert not replaying.send(None)  # a recorded board cannot answer


def test_a_replayed_log_plays_out_and_says_it_is_finished():
    source = ReplayingSource(open_log(VOID), speed=0, maxsize=4)
    source.start()
    got = []
    while not (source.finished.is_set() and source.entries.empty()):
        try:
            got.append(source.entries.get(timeout=scaled(1)))
        except queue.Empty:
            pass
    source.stop()
    assert len(got) == source.counters["records"] == len(list(open_log(VOID)))
    assert not source.connected


def test_stop_is_prompt_even_with_a_full_queue_and_a_slow_pace():
    source = ReplayingSource(open_log(VOID), speed=0.001, maxsize=1)  # a thousandth of real time
    source.start()
    assert wait_until(lambda: source.entries.full(), scaled(5))
    stopped = threading.Thread(target=source.stop)
    stopped.start()
    stopped.join(scaled(3))
    assert not stopped.is_alive() and source.finished.is_set()


def test_floor_acknowledgement_comes_back_to_the_engine_through_submit(broker, tmp_path):
    table = floor_table(broker, tmp_path)
    terminal, console, view = table.terminal, table.console, table.view
    try:
        terminal.start()
        assert view.wait_until(lambda v: "T01" in v.tables and v.tables["T01"].alerts, scaled(20))
        finding = view.tables["T01"].alerts[0]["finding"]["id"]
        view.ack("T01", finding)
        seen: list[te.TableEvent] = []

        def acknowledged() -> bool:
            seen.extend(e for u in drain(console) for e in u.events)
            return any(isinstance(e, te.FindingAcknowledged) and e.id == finding for e in seen)
        assert wait_until(acknowledged, scaled(20)), [e.kind for e in seen]
        assert terminal.health()["floor"]["commands_accepted"] == 1
    finally:
        terminal.stop()
        view.stop()


def test_panel_follows_updates_on_its_own_thread_and_stops_with_the_notifier():
    factory = MockFactory()
    panel = Panel(PanelConfig(), factory, lambda tap: None, clock=lambda: 0.0, hold_s=0.05)
    taps: list = []
    notifier = Notifier(EventBus())
    notifier.attach(PanelSink(panel))
    notifier.start(taps.append)
    try:
        from dealerbox.engine.state import TableState
        called = te.FloorCalled(t=1.0, hand=1, reason="dispute")
        notifier.publish(Update((called,), TableState(), {}))
        assert wait_until(lambda: panel.lit == "red", scaled(5))
        factory.pin(PanelConfig().button_call_floor).drive_low()  # the dealer presses "call floor"
        assert wait_until(lambda: [t.action for t in taps] == ["call-floor"], scaled(5)), taps
    finally:
        notifier.stop()
        panel.close()
        factory.reset()
    assert not any(th.name == "dealerbox-panel" for th in threading.enumerate())
