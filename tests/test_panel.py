"""The panel with gpiozero's mock pins: real gpiozero devices, only the pins are simulated."""

import logging
import time

import pytest
from gpiozero.pins.mock import MockFactory

from dealerbox.config import PanelConfig
from dealerbox.engine import events as te
from dealerbox.engine.state import FindingView, QuestionView, TableState
from dealerbox.runtime.bus import EventBus, Update
from dealerbox.sinks.panel import Panel, light_for
from tests.conftest import scaled

CFG = PanelConfig()


@pytest.fixture
def rig():
    factory = MockFactory()
    got: list = []
    panel = Panel(CFG, factory, got.append, clock=lambda: 42.0, hold_s=0.05)
    yield panel, factory, got
    panel.close()
    factory.reset()


def lamps(factory) -> dict[str, bool]:
    return {name: bool(factory.pin(getattr(CFG, f"light_{name}")).state) for name in ("green", "amber", "red")}


def finding(severity: str, acknowledged: bool = False, id: str = "h3-1") -> FindingView:
    return FindingView(id, "misdeal.1c", "Misdeals 1(c)", severity, "misdeal", "Misdeal.", acknowledged=acknowledged)


def wait_for(predicate, timeout=scaled(2.0)):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if predicate():
            return True
        time.sleep(0.01)
    return False


def test_call_floor_button_submits_on_press(rig):
    panel, factory, got = rig
    factory.pin(CFG.button_call_floor).drive_low()
    assert wait_for(lambda: got)
    factory.pin(CFG.button_call_floor).drive_high()
    assert [(i.action, i.t) for i in got] == [("call-floor", 42.0)]


def test_misdeal_and_new_hand_need_a_hold_not_a_bump(rig):
    panel, factory, got = rig
    bump = factory.pin(CFG.button_misdeal)
    bump.drive_low()
    bump.drive_high()  # released before the hold time
    time.sleep(0.15)
    assert got == []
    for pin, action in ((CFG.button_misdeal, "misdeal"), (CFG.button_new_hand, "new-hand")):
        factory.pin(pin).drive_low()
        assert wait_for(lambda action=action: any(i.action == action for i in got)), action
        factory.pin(pin).drive_high()
    assert [i.action for i in got] == ["misdeal", "new-hand"]


def test_light_for_each_situation(rig):
    panel, factory, _ = rig
    play = TableState(hand=3, phase="flop")
    assert panel.show(play) == "green"
    assert lamps(factory) == {"green": True, "amber": False, "red": False}
    assert panel.show(TableState(hand=3, phase="flop", findings=(finding("dealer"),))) == "amber"
    assert lamps(factory) == {"green": False, "amber": True, "red": False}
    assert panel.show(TableState(hand=3, phase="showdown", winners={2: 40})) == "amber"
    assert panel.show(TableState(hand=3, phase="flop", findings=(finding("dealer"), finding("floor", id="h3-2")))) \
        == "red"
    assert lamps(factory) == {"green": False, "amber": False, "red": True}
    # Acknowledged findings no longer light anything; info never does.
    assert panel.show(TableState(hand=3, phase="flop", findings=(finding("floor", True), finding("info")))) == "green"
    assert lamps(factory) == {"green": True, "amber": False, "red": False}


def test_floor_call_stays_red_until_acknowledged_or_next_hand(rig):
    panel, factory, _ = rig
    play = TableState(hand=3, phase="turn")
    assert panel.show(play, [te.FloorCalled(1.0, 3, "dispute")]) == "red"
    assert panel.show(play) == "red"
    assert lamps(factory)["red"]
    assert panel.show(play, [te.FindingAcknowledged(2.0, 3, "h3-1")]) == "green"
    panel.show(play, [te.FloorCalled(3.0, 3, "")])
    assert panel.show(TableState(hand=4, phase="deal"), [te.HandStarted(4.0, 4, 1, (2, 3), "nlhe")]) == "green"


def test_buzzer_sounds_once_per_new_floor_finding(rig):
    panel, factory, _ = rig
    raised = te.FindingRaised(1.0, 3, "h3-1", "misdeal.1c", "Misdeals 1(c)", "floor", "misdeal", "Misdeal.")
    state = TableState(hand=3, phase="deal", findings=(finding("floor"),))
    buzzer = factory.pin(CFG.buzzer)
    panel.show(state, [raised])
    assert wait_for(lambda: sum(1 for s in buzzer.states if s.state) >= 3)
    assert wait_for(lambda: not buzzer.state)
    count = len(buzzer.states)
    panel.show(state, [raised])  # the same finding again (a redelivered update) must not buzz again
    time.sleep(0.3)
    assert len(buzzer.states) == count
    dealer = te.FindingRaised(2.0, 3, "h3-2", "holdem.1", "Hold'em 1", "dealer", "card-replaced", "Replace it.")
    panel.show(state, [dealer])
    time.sleep(0.3)
    assert len(buzzer.states) == count


def test_run_follows_a_bus_queue(rig):
    panel, factory, _ = rig
    bus = EventBus()
    q = bus.subscribe("panel")
    bus.publish(Update((), TableState(hand=1, phase="flop", findings=(finding("floor"),)), {}))
    q.put(None)
    panel.run(q)
    assert panel.lit == "red" and lamps(factory)["red"]


def test_create_without_gpio_returns_none_with_one_log_line(caplog):
    caplog.set_level(logging.INFO, logger="dealerbox.sinks.panel")
    assert Panel.create(PanelConfig(pin_factory="no-such-factory"), lambda i: None) is None
    assert Panel.create(PanelConfig(enabled=False), lambda i: None) is None
    lines = [r.getMessage() for r in caplog.records]
    assert len(lines) == 2
    assert "no-such-factory" in lines[0] and "without buttons" in lines[0]
    assert "disabled" in lines[1]


def test_create_with_a_factory_passed_in():
    factory = MockFactory()
    try:
        panel = Panel.create(CFG, lambda i: None, pin_factory=factory)
        assert panel is not None and panel.lit == "green"
        assert factory.pin(CFG.light_green).state
        panel.close()
    finally:
        factory.reset()


def test_light_for_is_pure():
    assert light_for(TableState()) == "green"
    assert light_for(TableState(), floor_called=True) == "red"


def test_a_question_to_the_dealer_lights_amber_and_the_floor_still_wins():
    asked = TableState(question=QuestionView("q1", "Seat 2 stands by the call?", (("yes", "Yes"), ("no", "No"))))
    assert light_for(asked) == "amber"
    assert light_for(asked, floor_called=True) == "red"
