"""Who deals (issue 14): the dealer signs in with an id and PIN (argon2 hashes in ``audit.dealers``) or a
badge held over a zone; the sign-in is a dealer input in the log, the dealer is in the state, and every event
and alert the floor gets names the dealer on duty. The PIN itself is nowhere: not in the log, the outbox, the
floor or the events."""

from __future__ import annotations

import dataclasses
import json
import queue

import pytest

from dealerbox.config import AuditConfig
from dealerbox.engine import events as te
from dealerbox.engine.inputs import DealerInput, ZoneEntered
from dealerbox.pipeline import Pipeline, registry_from_enrolment
from dealerbox.record.audit import hash_pin
from dealerbox.record.logformat import Header, Input, from_record
from dealerbox.record.recorder import Recorder
from dealerbox.runtime.app import Terminal
from dealerbox.sinks.floor import contract as c
from dealerbox.sinks.floor.link import FloorLink
from dealerbox.sinks.floor.view import FloorView
from dealerbox.sinks.screen.signin import LOCK_AFTER, LOCK_S, SignInDesk
from dealerbox.sources import open_log
from dealerbox.sources.replaying import ReplayingSource
from dealerbox.tags import MarkerTag, demo_registry
from tests.test_floor_contract import ROOT, link_config
from tests.conftest import scaled

pytestmark = pytest.mark.timeout(90)
VOID = ROOT / "tests" / "scenarios" / "void-duplicate-card.scn"
PIN = "480917"
BADGE = "04a1b2c3d4"


class Clock:
    def __init__(self, t: float = 1000.0) -> None:
        self.t = t

    def __call__(self) -> float:
        return self.t


@pytest.fixture(scope="module")
def pin_hash() -> str:
    return hash_pin(PIN)


def _with_dealers(config, pin_hash: str):
    audit = AuditConfig(dealers={"D17": pin_hash}, badges={BADGE.upper(): "D17"})
    return dataclasses.replace(config, audit=audit)


def test_the_right_pin_signs_the_dealer_in_by_id_only(pin_hash, tmp_path):
    desk = SignInDesk(_with_dealers(link_config(tmp_path, 1883), pin_hash), Clock())
    tap = desk.pin("D17", PIN)
    assert tap is not None and (tap.action, tap.by, tap.ref) == ("sign-in", "D17", "pin")
    assert PIN not in repr(tap) and PIN not in json.dumps(Input(tap).to_record())
    assert desk.said == "Dealer D17 signed in" and desk.counters["signed_in"] == 1


def test_a_wrong_pin_or_unknown_dealer_is_refused_alike_and_five_in_a_row_lock_the_pad(pin_hash, tmp_path):
    clock = Clock()
    desk = SignInDesk(_with_dealers(link_config(tmp_path, 1883), pin_hash), clock)
    assert desk.pin("D17", "000000") is None and desk.said == "Wrong dealer number or PIN"
    assert desk.pin("D99", PIN) is None and desk.said == "Wrong dealer number or PIN"
    for _ in range(LOCK_AFTER - 2):
        assert desk.pin("D17", "111111") is None
    assert desk.counters["pin_refused"] == LOCK_AFTER
    assert desk.pin("D17", PIN) is None and desk.said.startswith("Too many wrong PINs")   # locked, even right
    clock.t += LOCK_S + 1
    assert desk.pin("D17", PIN) is not None


def test_a_badge_over_a_zone_signs_its_dealer_in_and_another_dealer_takes_over(pin_hash, tmp_path):
    pipe = Pipeline(_with_dealers(link_config(tmp_path, 1883), pin_hash), demo_registry())
    shown = pipe.engine.apply(ZoneEntered(1.0, "seat1", MarkerTag(BADGE, "badge")))
    assert shown == [te.BadgeShown(1.0, pipe.engine.play.hand_no, "seat1", BADGE)]
    desk = SignInDesk(pipe.config, Clock())
    tap = desk.badge(shown[0].uid)
    assert (tap.action, tap.by, tap.ref) == ("sign-in", "D17", "badge")
    assert [e.kind for e in pipe.engine.apply(tap)] == ["DealerSignedIn"]
    assert pipe.engine.snapshot().dealer == "D17"
    swap = pipe.engine.apply(DealerInput(3.0, "sign-in", ref="pin", by="D22"))
    assert [(e.kind, e.dealer) for e in swap] == [("DealerSignedOut", "D17"), ("DealerSignedIn", "D22")]
    assert [e.kind for e in pipe.engine.apply(DealerInput(4.0, "sign-out"))] == ["DealerSignedOut"]
    assert pipe.engine.snapshot().dealer is None
    assert desk.badge("0000000000") is None and desk.counters["badge_refused"] == 1


def test_the_dealer_on_duty_is_on_every_event_alert_and_state_the_floor_gets_and_the_pin_nowhere(
        broker, pin_hash, tmp_path):
    log = open_log(VOID)
    config = _with_dealers(link_config(tmp_path, broker.port), pin_hash)
    link = FloorLink(config, reconnect_min=0.05, reconnect_max=0.3)
    recorder = Recorder(tmp_path / "logs", Header(config=config.to_dict(), enrolment=log.header.enrolment),
                        name="T01-who")
    terminal = Terminal(config, registry_from_enrolment(log.header.enrolment), ReplayingSource(log, speed=4.0),
                        floor=link, recorder=recorder)
    console = terminal.bus.subscribe("console", lossless=True)
    floor = FloorView(broker.host, broker.port, "demo").start()
    desk = SignInDesk(config, terminal.clock)
    try:
        terminal.submit(desk.pin("D17", PIN))       # before the first card: the whole hand is D17's
        terminal.start()
        assert floor.wait_until(lambda v: "T01" in v.tables and v.tables["T01"].alerts, scaled(30))
        assert floor.wait_until(lambda v: (v.tables["T01"].state or {}).get("dealer") == "D17", scaled(10))
    finally:
        terminal.stop()
        floor.stop()
    events = floor.events("T01")
    signed = [p for p in events if p["data"]["event"] == "DealerSignedIn"]
    assert len(signed) == 1 and signed[0]["data"]["dealer"] == "D17" and signed[0]["data"]["method"] == "pin"
    after = events[events.index(signed[0]):]
    assert after and all(p.get("dealer") == "D17" for p in after)
    assert all(a.get("dealer") == "D17" for a in floor.tables["T01"].alerts)
    for p in events:
        c.validate("event", p)
    for a in floor.tables["T01"].alerts:
        c.validate("alert", a)
    status = floor.tables["T01"].status
    c.validate("status", status)
    assert set(status["clock"]) == {"wall", "ntp_synchronised"}       # what the envelope's ``at`` is worth
    updates = []
    while True:
        try:
            updates.append(console.get_nowait())
        except queue.Empty:
            break
    assert updates[-1].state.dealer == "D17"
    # the log holds the sign-in as a tap, by id; the PIN is in no file the terminal wrote
    lines = [json.loads(line) for line in recorder.path.read_text().splitlines()]
    taps = [from_record(r).input for r in lines if r.get("k") == "in"]
    assert (taps[0].action, taps[0].by, taps[0].ref) == ("sign-in", "D17", "pin")
    assert all(t.by is None for t in taps[1:])           # the scenario's own taps: no "by", as before
    for path in (recorder.path, tmp_path / "outbox.sqlite"):
        if path.exists():
            assert PIN.encode() not in path.read_bytes()
    assert PIN not in json.dumps(floor.events("T01")) + json.dumps(list(floor.tables["T01"].alerts))


# --- the screen: a sign-in key and the PIN pad ---------------------------------------------------------------

def _tap(screen, key):
    import pygame
    target = screen.frame.target(key)
    assert target is not None, f"no {key!r} key; keys: {[t.key for t in screen.frame.targets]}"
    screen.handle_mouse(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=target.rect.center, button=1))
    return screen.handle_mouse(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=target.rect.center, button=1))


def _type(screen, digits: str) -> None:
    for d in digits:
        _tap(screen, f"pin:digit:{d}")
        screen.render(screen.state, OK_HEALTH, [])


OK_HEALTH = {"reader": {"connected": True, "seq_gaps": 0}, "floor": {"connected": True, "outbox_depth": 0}}


@pytest.mark.parametrize("size", [(800, 480), (1280, 800)])
def test_the_dealer_signs_in_on_the_pin_pad_and_the_pin_is_never_drawn(pin_hash, tmp_path, size):
    from dealerbox.engine.state import TableState
    from dealerbox.sinks.screen import Screen
    config = _with_dealers(link_config(tmp_path, 1883), pin_hash)
    screen = Screen(config, size, clock=Clock())
    screen.render(TableState(), OK_HEALTH, [])
    assert _tap(screen, "sign-in") is None
    screen.render(TableState(), OK_HEALTH, [])
    assert screen.frame.texts("pinpad-title") == ["Sign in: your dealer number"]
    assert screen.frame.target("pin:ok") is None                       # nothing typed: no Next yet
    _type(screen, "17")
    assert screen.frame.texts("pinpad-entry") == ["17"]
    _tap(screen, "pin:ok")
    screen.render(TableState(), OK_HEALTH, [])
    assert screen.frame.texts("pinpad-title") == ["Dealer 17: your PIN"]
    _type(screen, "999")
    assert screen.frame.texts("pinpad-entry") == ["\u2022" * 3]        # dots, never the digits
    assert _tap(screen, "pin:ok") is None                              # wrong: back to the start, told why
    screen.render(TableState(), OK_HEALTH, [])
    assert screen.frame.texts("pinpad-said") == ["Wrong dealer number or PIN"]
    assert screen.frame.texts("pinpad-title") == ["Sign in: your dealer number"]
    _type(screen, "17")
    _tap(screen, "pin:ok")
    screen.render(TableState(), OK_HEALTH, [])
    _type(screen, PIN)
    drawn = " ".join(d.text for d in screen.frame.drawn if isinstance(d.text, str))
    assert PIN not in drawn and "\u2022" * len(PIN) in drawn
    tap = _tap(screen, "pin:ok")
    assert tap is not None and (tap.action, tap.by, tap.ref) == ("sign-in", "D17", "pin")
    assert screen.ui.pad is None                                       # closed: the typed PIN is gone
    on_duty = dataclasses.replace(TableState(), dealer="D17")
    screen.render(on_duty, OK_HEALTH, [])
    assert screen.frame.find("pinpad") == []
    assert any("Dealer D17" in t for t in screen.frame.texts("who"))
    out = _tap(screen, "sign-out")
    assert out is not None and out.action == "sign-out"


def test_without_dealers_in_the_config_there_is_no_sign_in_key(tmp_path):
    from dealerbox.engine.state import TableState
    from dealerbox.sinks.screen import Screen
    screen = Screen(link_config(tmp_path, 1883), (800, 480), clock=Clock())
    screen.render(TableState(), OK_HEALTH, [])
    assert screen.frame.target("sign-in") is None and screen.frame.texts("who") == []


def test_the_terminal_signs_in_whoever_s_badge_the_engine_saw(pin_hash, tmp_path):
    from dealerbox.engine.state import TableState
    from dealerbox.runtime.bus import EventBus, Update
    from dealerbox.runtime.sinks import BadgeSink, Notifier
    config = _with_dealers(link_config(tmp_path, 1883), pin_hash)
    terminal = Terminal(config, demo_registry(), ReplayingSource(open_log(VOID), speed=0))
    assert [s.name for s in terminal.notifier.sinks] == ["badge"]       # wired where the config names badges
    taps: list[DealerInput] = []
    notifier = Notifier(EventBus())
    sink = BadgeSink(SignInDesk(config, Clock()))
    notifier.attach(sink)
    notifier.start(taps.append)
    try:
        notifier.publish(Update((te.BadgeShown(5.0, None, "seat3", BADGE),), TableState(), {}))
        notifier.publish(Update((te.BadgeShown(6.0, None, "seat3", "0102030405"),), TableState(), {}))
    finally:
        notifier.stop()
    assert [(t.action, t.by, t.ref) for t in taps] == [("sign-in", "D17", "badge")]
    assert sink.health()["badge_refused"] == 1
    plain = Terminal(link_config(tmp_path, 1883), demo_registry(), ReplayingSource(open_log(VOID), speed=0))
    assert plain.notifier.sinks == []
