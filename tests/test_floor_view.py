"""The reference floor view: dedup and gaps, shared subscriptions, the ``dealerbox floor`` command, and the
alert latency from submit to the dashboard (reported, not asserted tightly: benchmarks live in bench/)."""

from __future__ import annotations

import json
import statistics
import subprocess
import sys
import time

import pytest

from dealerbox.engine.findings import FindingLog
from dealerbox.runtime.bus import Update
from dealerbox.sinks.floor import contract as c
from dealerbox.sinks.floor.link import FloorLink
from dealerbox.sinks.floor.view import FloorView

from .test_floor_contract import ROOT, hand_updates, link_config
from tests.waiting import wait_until
from tests.conftest import scaled

pytestmark = pytest.mark.timeout(90)




def _event(env: c.Envelope, seq: int, name: str = "ChipsMoved", **data) -> bytes:
    p = env.wrap("event", 1.0, 2.0, {"data": {"event": name, "t": 1.0, "hand": 1, **data}}, seq=seq)
    return json.dumps(p).encode()


def test_view_deduplicates_notices_gaps_and_accepts_announced_drops():
    view = FloorView("127.0.0.1", 1, "demo")   # never connected: messages are fed in directly
    env = c.Envelope("demo", "T01", "bootA")
    topic = "dealerbox/demo/T01/event"
    for seq in (1, 2, 2, 3, 6, 4):
        view.receive(topic, _event(env, seq))
    assert view.duplicates == 1
    assert view.tables["T01"].gaps() == {("event", "bootA"): [5]}
    view.receive(topic, _event(env, 5))         # the late one fills the gap
    assert view.tables["T01"].gaps() == {}
    for seq in (9, 10):
        view.receive(topic, _event(env, seq))
    assert view.gaps() == {"T01": {("event", "bootA"): [7, 8]}}
    notice = env.wrap("event", 1.0, 2.0, {"data": {"event": "FloorEventsDropped", "t": 1.0, "hand": None, "count": 2,
                                                    "seqs": [{"boot": "bootA", "first": 7, "last": 8}],
                                                    "reason": "outbox-full", "total": 2}}, seq=11)
    view.receive(topic, json.dumps(notice).encode())
    assert view.gaps() == {}                    # announced drops are not losses
    assert any("dropped 2" in line for line in view.feed)
    # a new boot starts its own numbering without a false gap
    view.receive(topic, _event(c.Envelope("demo", "T01", "bootB"), 1))
    assert view.gaps() == {}
    # garbage and lies are counted, never taken
    view.receive(topic, b"{nope")
    view.receive("dealerbox/demo/T02/event", _event(env, 12))            # payload says T01
    view.receive(topic, json.dumps({**json.loads(_event(env, 13)), "v": 2}).encode())
    assert len(view.invalid) == 3 and len(view.events("T01")) == 10


def test_view_keeps_bounded_history_and_samples_the_full_schema():
    view = FloorView("127.0.0.1", 1, "demo", history=5, full_check_every=2)
    env = c.Envelope("demo", "T01", "bootA")
    topic = "dealerbox/demo/T01/event"
    for seq in range(1, 21):
        view.receive(topic, _event(env, seq))
    assert len(view.messages) == 5 and view.messages[-1][1]["seq"] == 20 and view.received == 20
    assert len(view.events("T01")) == 20 and view.duplicates == 0 and view.gaps() == {}
    # an extra top-level field: the display check has no use for it, the contract forbids it
    drift = {**json.loads(_event(env, 21)), "extra": 1}
    view.receive(topic, json.dumps(drift).encode())   # 21st: not sampled
    view.receive(topic, json.dumps({**drift, "seq": 22}).encode())   # 22nd: sampled
    assert len(view.events("T01")) == 22 and not view.invalid
    assert len(view.schema_mismatches) == 1 and "extra" in view.schema_mismatches[0][1]


def test_shared_subscription_splits_alerts_but_every_member_sees_every_status(broker, tmp_path):
    members = [FloorView(broker.host, broker.port, "demo", share="floorview", name=f"m{i}").start() for i in range(2)]
    links = [FloorLink(link_config(tmp_path, broker.port, table=t), reconnect_min=0.05).start() for t in ("T01", "T02")]
    try:
        fl = FindingLog()
        for hand in range(1, 5):
            for link in links:
                for u in hand_updates(hand, fl, t0=hand * 100.0)[0]:
                    link.submit(u)
        total_alerts = 8
        assert wait_until(lambda: sum(len(tv.alerts) for m in members for tv in m.tables.values()) >= total_alerts,
                          scaled(15))
        time.sleep(0.3)
        got = [(t, a["seq"]) for m in members for t, tv in m.tables.items() for a in tv.alerts]
        assert len(got) == total_alerts and len(set(got)) == total_alerts   # each alert to exactly one member
        for m in members:                                                    # retained status: everyone
            assert m.wait_until(lambda v: all(t in v.tables and v.tables[t].online for t in ("T01", "T02")), scaled(5))
    finally:
        for link in links:
            link.stop(timeout=scaled(1))
        for m in members:
            m.stop()


def _dealerbox(*args: str, stdin: str | None = None, timeout: float = scaled(30)) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "dealerbox", *args], input=stdin, capture_output=True, text=True,
                          timeout=timeout, cwd=ROOT)


def test_floor_command_shows_tables_and_acknowledges(broker, tmp_path):
    link = FloorLink(link_config(tmp_path, broker.port), reconnect_min=0.05).start()
    try:
        ups, _ = hand_updates(7, FindingLog())
        for u in ups:
            link.submit(u)
        assert wait_until(lambda: link.health()["outbox_depth"] == 0 and link.health()["acked"] > 0, scaled(10))
        once = _dealerbox("floor", "--port", str(broker.port), "--once", "--settle", "0.5")
        assert once.returncode == 0, once.stderr
        row = [line for line in once.stdout.splitlines() if line.startswith("T01")]
        assert row and "online" in row[0] and " 7 " in row[0], once.stdout
        watch = _dealerbox("floor", "--port", str(broker.port), "--for", "2.5", stdin="ack T01 h7-1\nbogus\n")
        assert watch.returncode == 0, watch.stderr
        assert "sent ack h7-1 to T01" in watch.stdout and "commands:" in watch.stdout
        cmd = link.commands.get(timeout=scaled(5))
        assert (cmd.cmd, cmd.finding, cmd.sender) == ("ack", "h7-1", "floor")
    finally:
        link.stop(timeout=scaled(1))
    offline = _dealerbox("floor", "--port", str(broker.port), "--once", "--settle", "0.3")
    assert "offline" in [line for line in offline.stdout.splitlines() if line.startswith("T01")][0]


def test_floor_command_names_an_unreachable_broker():
    from tests.fixtures.broker import free_port
    port = free_port()
    result = _dealerbox("floor", "--port", str(port), "--once")
    assert result.returncode == 2 and f"127.0.0.1:{port}" in result.stderr


def test_alert_latency_submit_to_dashboard(broker, tmp_path, capsys):
    """Submit -> spool (fsync) -> publish -> broker -> view, for 100 alerts, one engine step each."""
    view = FloorView(broker.host, broker.port, "demo").start()
    link = FloorLink(link_config(tmp_path, broker.port), reconnect_min=0.05).start()
    try:
        assert wait_until(lambda: link.health()["connected"], scaled(5))
        fl = FindingLog()
        latencies = []
        ups, _ = hand_updates(1, fl)
        base = ups[-1].state
        for i in range(100):
            f = fl.raise_(float(i), 1, "misdeal.1c", severity="floor", outcome="continues", ruling="test")
            sent = time.perf_counter()
            link.submit(Update((f,), base, {}))
            assert view.wait_until(
                lambda v, i=i: len(v.tables.get("T01").alerts if "T01" in v.tables else []) == i + 1, scaled(5))
            latencies.append((time.perf_counter() - sent) * 1000)
        latencies.sort()
        p50, p99 = statistics.median(latencies), latencies[98]
        with capsys.disabled():
            print(f"\n  floor alert latency submit->dashboard: median {p50:.1f} ms, p99 {p99:.1f} ms")
        assert p99 < 1000   # a sanity bound only; bench/ owns the real target
    finally:
        link.stop(timeout=scaled(1))
        view.stop()
