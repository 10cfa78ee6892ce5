"""FloorLink against a real mosquitto: every payload validated, retained status/state and the last will,
the broker killed mid-stream, the terminal killed mid-stream (in-process and with SIGKILL), hole cards
never on a topic, commands over the wire."""

from __future__ import annotations

import json
import signal
import sqlite3
import subprocess
import sys
import textwrap
import time

import paho.mqtt.client as mqtt
import pytest

from dealerbox.config import Config, GameConfig
from dealerbox.engine.findings import FindingLog
from dealerbox.pipeline import Pipeline
from dealerbox.runtime.bus import Update
from dealerbox.sinks.floor import contract as c
from dealerbox.sinks.floor.link import FloorLink
from dealerbox.sinks.floor.view import FloorView
from dealerbox.tags import demo_registry

from .test_floor_contract import ROOT, assert_no_hole_cards, count_events, hand_updates, link_config
from tests.waiting import wait_until
from tests.conftest import scaled

pytestmark = pytest.mark.timeout(90)


def validate_all(view: FloorView) -> None:
    """Every message the view saw is valid JSON that matches the schema of its topic."""
    assert not view.invalid, view.invalid[:3]
    assert view.messages, "nothing received"
    for topic, payload, _retain, _props in list(view.messages):
        kind = c.parse_topic(topic)[2]
        c.validate(kind, payload)


def event_seqs(view: FloorView, table: str = "T01") -> list[tuple[str, int]]:
    return [(e["boot"], e["seq"]) for e in view.events(table)]


def play(link: FloorLink, hands: range, fl: FindingLog) -> tuple[int, set[str]]:
    """Submit whole hands; returns (events sent, cards that were never public in any of them)."""
    n, hole, public = 0, set(), set()
    for hand in hands:
        ups, cards = hand_updates(hand, fl, t0=hand * 100.0)
        hole |= cards
        public |= {e.card for u in ups for e in u.events if e.kind == "BoardCardDealt"}
        n += count_events(ups)
        for u in ups:
            link.submit(u)
    return n, hole - public


@pytest.fixture
def view_of(request):
    views: list[FloorView] = []

    def make(broker, **kw) -> FloorView:
        v = FloorView(broker.host, broker.port, kw.pop("site", "demo"), **kw).start()
        views.append(v)
        return v

    yield make
    for v in views:
        v.stop()


@pytest.fixture
def links():
    made: list[FloorLink] = []

    def make(config, **kw) -> FloorLink:
        link = FloorLink(config, reconnect_min=kw.pop("reconnect_min", 0.05),
                         reconnect_max=kw.pop("reconnect_max", 0.3),
                         **kw).start()
        made.append(link)
        return link

    yield make
    for link in made:
        if link._threads:
            link.stop(timeout=scaled(1))


def test_every_payload_matches_its_schema_and_hole_cards_stay_off(broker, view_of, links, tmp_path):
    view = view_of(broker)
    link = links(link_config(tmp_path, broker.port))
    # connected first: what is spooled while connecting goes out as "replayed", and the spooler is fast
    # enough (one fsync per group) to spool all five hands before the CONNACK
    assert view.wait_until(lambda v: link.health()["connected"], scaled(10))
    n, hole = play(link, range(1, 6), FindingLog())
    assert view.wait_until(lambda v: len(v.events("T01")) == n and len(v.tables["T01"].alerts) == 5, scaled(20))
    assert view.wait_until(lambda v: v.tables["T01"].state and v.tables["T01"].state["hand"] == 5, scaled(5))
    validate_all(view)
    assert_no_hole_cards(list(view.raw), hole)
    assert {c.parse_topic(t)[2] for t, *_ in list(view.messages)} == {"status", "state", "event", "alert"}
    # MQTT 5 properties: JSON content type everywhere, the schema named, an expiry on the retained state
    for topic, _p, _r, props in list(view.messages):
        assert props["ContentType"] == "application/json"
        assert ["schema", f"dealerbox.floor.{c.parse_topic(topic)[2]}/1"] in [list(x) for x in props["UserProperty"]]
    states = [props for t, _p, _r, props in list(view.messages) if t.endswith("/state")]
    assert all(0 < p["MessageExpiryInterval"] <= c.STATE_EXPIRY_S for p in states)
    assert view.tables["T01"].gaps() == {} and view.duplicates == 0
    assert event_seqs(view) == [(link.boot, i) for i in range(1, n + 1)]   # in order, no holes
    alert = view.tables["T01"].alerts[0]
    assert alert["finding"]["severity"] == "floor" and alert["event_seq"] in [s for _, s in event_seqs(view)]
    assert not any(a["replayed"] for a in list(view.tables["T01"].alerts))   # live ones are not "late"


def test_retained_status_and_state_reach_a_late_subscriber_and_the_will_says_offline(broker, view_of, links, tmp_path):
    link = links(link_config(tmp_path, broker.port))
    play(link, range(1, 2), FindingLog())
    assert wait_until(lambda: link.health()["outbox_depth"] == 0 and link.health()["states_published"] > 0, scaled(10))
    late = view_of(broker)   # subscribes after everything was published
    assert late.wait_until(lambda v: "T01" in v.tables and v.tables["T01"].online and v.tables["T01"].state, scaled(5))
    assert late.tables["T01"].state["hand"] == 1 and late.tables["T01"].status["boot"] == link.boot
    retained = {t for t, _p, r, _ in list(late.messages) if r}
    assert retained == {"dealerbox/demo/T01/status", "dealerbox/demo/T01/state"}
    link.abandon()   # the terminal dies: no goodbye, the broker publishes the will
    assert late.wait_until(lambda v: v.tables["T01"].status["status"] == "offline", scaled(10))
    assert late.tables["T01"].status["reason"] == "will"
    validate_all(late)
    later = view_of(broker)  # and the will is retained for whoever looks next
    assert later.wait_until(lambda v: "T01" in v.tables and v.tables["T01"].status
                            and v.tables["T01"].status["status"] == "offline", scaled(5))


def test_broker_killed_mid_stream_loses_nothing_and_keeps_order(make_broker, view_of, links, tmp_path):
    broker = make_broker(persistence=True)
    view = view_of(broker, client_id="floor-view-persistent", persistent=True)
    link = links(link_config(tmp_path, broker.port, replay_rate=400))
    fl = FindingLog()
    n1, _ = play(link, range(1, 4), fl)
    assert view.wait_until(lambda v: len(v.events("T01")) == n1, scaled(10))
    assert wait_until(lambda: (broker.dir / "mosquitto.db").exists(), scaled(5))   # the view's session is on disk
    broker.kill()
    n2, _ = play(link, range(4, 9), fl)   # the table goes on while the broker is gone
    assert wait_until(lambda: link.health()["spooled"] >= n1 + n2 + 8
                      and link.health()["link"] in ("down", "connecting"), scaled(10))
    assert link.health()["outbox_depth"] >= n2
    broker.start()
    n3, _ = play(link, range(9, 11), fl)   # and while it comes back
    total = n1 + n2 + n3
    assert view.wait_until(lambda v: len(v.events("T01")) == total and len(v.tables["T01"].alerts) == 10, scaled(30)), \
        (len(view.events("T01")), total, link.health())
    assert event_seqs(view) == [(link.boot, i) for i in range(1, total + 1)]   # zero lost, in order
    late = {e["seq"] for e in view.events("T01") if e["replayed"]}
    assert set(range(n1 + 1, n1 + n2 + 1)) <= late   # everything made during the outage came out late, flagged
    assert any(a["replayed"] for a in view.tables["T01"].alerts)
    assert view.tables["T01"].gaps() == {}
    assert link.health()["connects"] >= 2 and wait_until(lambda: link.health()["outbox_depth"] == 0, scaled(5))
    validate_all(view)
    assert_no_hole_cards(list(view.raw), secret_cards(range(1, 11)))


def test_terminal_closed_without_draining_drains_after_restart(broker, view_of, tmp_path):
    config = link_config(tmp_path, broker.port, replay_rate=300)
    view = view_of(broker)
    first = FloorLink(config, reconnect_min=0.05, reconnect_max=0.3).start()
    fl = FindingLog()
    n, _ = play(first, range(1, 11), fl)
    assert wait_until(lambda: first.health()["spooled"] >= n + 10, scaled(10))   # events and the 10 alerts are on disk
    first.abandon()   # mid-stream: the replay rate cap keeps most rows in the outbox
    left = sqlite3.connect(config.floor.outbox).execute("SELECT COUNT(*) FROM outbox").fetchone()[0]
    assert left > 0
    second = FloorLink(config, reconnect_min=0.05, reconnect_max=0.3).start()
    try:
        assert second.boot != first.boot
        assert view.wait_until(lambda v: len(v.events("T01")) == n, scaled(20)), (len(view.events("T01")), n)
        assert event_seqs(view) == [(first.boot, i) for i in range(1, n + 1)]
        assert view.tables["T01"].gaps() == {}
        assert wait_until(lambda: second.health()["outbox_depth"] == 0, scaled(5))
    finally:
        second.stop(timeout=scaled(1))
    validate_all(view)


def test_a_full_outbox_reaches_the_floor_with_its_drops_announced(broker, view_of, tmp_path, caplog):
    view = view_of(broker)
    # first the table runs with its broker unreachable and a small outbox; then it restarts and reaches it
    offline = FloorLink(link_config(tmp_path, 1, outbox_max=50), reconnect_min=5, reconnect_max=5).start()
    fl = FindingLog()
    n, _ = play(offline, range(1, 9), fl)
    offline.submit("not an update")            # bad input: counted, the spooler goes on
    play(offline, range(9, 10), fl)
    offline.stop(timeout=scaled(0.2))
    assert offline.health()["dropped"] > 0 and offline.health()["bad_updates"] == 1
    online = FloorLink(link_config(tmp_path, broker.port, outbox_max=50), reconnect_min=0.05).start()
    try:
        assert view.wait_until(lambda v: "T01" in v.tables and len(v.tables["T01"].alerts) == 9
                               and v.events("T01", "FloorEventsDropped"), scaled(15))
        assert wait_until(lambda: online.health()["outbox_depth"] == 0, scaled(10))
        time.sleep(0.2)
        assert view.gaps() == {}                       # every missing seq was announced as dropped
        dropped = sum(e["data"]["count"] for e in view.events("T01", "FloorEventsDropped"))
        assert dropped == offline.health()["dropped"]
        kept = [e["data"]["event"] for e in view.events("T01")]
        assert kept.count("FindingRaised") == 18 and "ChipsMoved" not in kept
    finally:
        online.stop(timeout=scaled(1))
    validate_all(view)


CHILD = textwrap.dedent("""
    import sys, time
    sys.path.insert(0, {root!r})
    from dealerbox.engine.findings import FindingLog
    from dealerbox.sinks.floor.link import FloorLink
    from tests.test_floor_contract import hand_updates, link_config
    from pathlib import Path
    link = FloorLink(link_config(Path({tmp!r}), {port}, replay_rate=100000), boot_id="child").start()
    fl = FindingLog()
    hand = 0
    while True:
        hand += 1
        for u in hand_updates(hand, fl, t0=hand * 100.0)[0]:
            link.submit(u)
        if hand == 3:
            print("going", flush=True)
        time.sleep(0.01)
""")


def test_terminal_sigkilled_mid_stream_loses_nothing_after_restart(broker, view_of, tmp_path):
    view = view_of(broker)
    child = subprocess.Popen([sys.executable, "-c", CHILD.format(root=str(ROOT), tmp=str(tmp_path), port=broker.port)],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=ROOT)
    try:
        assert child.stdout.readline().strip() == b"going", child.stderr.read()[-2000:]
        assert view.wait_until(lambda v: len(v.events("T01")) > 40, scaled(20))
        child.send_signal(signal.SIGKILL)   # the power cord, as far as a process can tell
        child.wait(scaled(10))
    finally:
        if child.poll() is None:
            child.kill()
        child.stdout.close()
        child.stderr.close()
    assert view.wait_until(lambda v: v.tables["T01"].status["status"] == "offline", scaled(10))   # last will
    config = link_config(tmp_path, broker.port)
    spooled_max = sqlite3.connect(config.floor.outbox).execute(
        "SELECT MAX(seq) FROM outbox WHERE kind='event'").fetchone()[0]
    received_max = max(s for _, s in event_seqs(view))
    highest = max(spooled_max or 0, received_max)
    restarted = FloorLink(config, reconnect_min=0.05, reconnect_max=0.3).start()
    try:
        # every event the dead terminal had made durable reaches the floor, in order, once each after dedup
        assert view.wait_until(lambda v: {("child", i) for i in range(1, highest + 1)}
                               <= set(event_seqs(v)), scaled(20)), (highest, len(view.events("T01")))
        child_seqs = [s for b, s in event_seqs(view) if b == "child"]
        assert child_seqs == list(range(1, highest + 1))
        assert view.tables["T01"].gaps() == {}
        assert view.wait_until(lambda v: v.tables["T01"].online and v.tables["T01"].boot == restarted.boot, scaled(5))
    finally:
        restarted.stop(timeout=scaled(1))
    validate_all(view)


def test_commands_over_the_broker_accepted_or_refused(broker, view_of, links, tmp_path):
    view = view_of(broker)
    link = links(link_config(tmp_path, broker.port))
    play(link, range(1, 3), FindingLog())
    assert view.wait_until(lambda v: "T01" in v.tables and len(v.tables["T01"].alerts) == 2, scaled(10))
    finding = view.tables["T01"].alerts[0]["finding"]["id"]
    view.ack("T01", finding)
    cmd = link.commands.get(timeout=scaled(5))
    assert cmd.cmd == "ack" and cmd.finding == finding and cmd.sender == "floor"
    states_before = link.health()["states_published"]
    view.refresh("T01")
    assert link.commands.get(timeout=scaled(5)).cmd == "refresh"
    assert wait_until(lambda: link.health()["states_published"] > states_before, scaled(5))
    raw = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, protocol=mqtt.MQTTv5)
    raw.connect(broker.host, broker.port)
    raw.loop_start()
    try:
        for payload in (b"\x00garbage", b'{"v":1}', json.dumps({**json.loads(json.dumps(
                c.command_payload(c.Envelope("demo", "floor", "x"), "ack", 1.0, "evil", "h99-1",
                                  table="T01")))}).encode()):
            raw.publish("dealerbox/demo/T01/cmd", payload, qos=1).wait_for_publish(scaled(5))
        assert wait_until(lambda: link.health()["commands_refused"] >= 3, scaled(5))
    finally:
        raw.loop_stop()
        raw.disconnect()
    assert link.commands.empty()
    assert any(r.startswith("malformed JSON") for r in link.refusals)
    assert any("unknown finding h99-1" in r for r in link.refusals)


def test_real_pipeline_events_reach_the_floor(broker, view_of, links, tmp_path):
    """The shell's path: bytes -> the real decoder and engine -> FloorLink -> broker -> floor view."""
    from dealerbox.wire.protocol import Encoder, Hello, ReaderFault
    config = link_config(tmp_path, broker.port)
    pipe = Pipeline(Config(table=config.table, floor=config.floor, game=GameConfig()), demo_registry())
    view = view_of(broker)
    link = links(config)
    enc = Encoder()
    sent = 0
    for t, msg in ((0.0, Hello(1, 0, (1, 0, 0), (0, 1, 2))), (1.0, ReaderFault(1, 1, 3))):
        events = pipe.feed_bytes(t, enc.encode(msg))
        sent += len(events)
        link.submit(Update(tuple(events), pipe.engine.snapshot(), pipe.counters()))
    assert sent >= 2
    assert view.wait_until(lambda v: len(v.events("T01")) == sent and v.tables["T01"].state, scaled(10))
    assert [e["data"]["event"] for e in view.events("T01")][:2] == ["BoardConnected", "ReaderHealthChanged"]
    reader = view.tables["T01"].state["health"]["reader"]
    assert "frames" in json.dumps(reader) or reader
    validate_all(view)


def secret_cards(hands: range) -> set[str]:
    """Hole and burn cards of these hands that no board of any of them made public."""
    hole, public = set(), set()
    for hand in hands:
        ups, cards = hand_updates(hand, FindingLog(), t0=hand * 100.0)
        hole |= cards
        public |= {e.card for u in ups for e in u.events if e.kind == "BoardCardDealt"}
    return hole - public


