"""Memory that does not follow the backlog (issue 30): the floor link's outbox lives on disk, so with the floor
slow (a real mosquitto behind a 30 kB/s link) or absent, ten times the rows in the outbox must not mean more
memory: SQLite's (its own allocator, read with sqlite3_memory_used) stays under its fixed page caches, and
what the link holds in Python is bounded by its in-flight window (bench.memory and bench.soak measure RSS)."""

from __future__ import annotations

import _sqlite3
import ctypes
import gc

import pytest

from bench.broker import free_port
from bench.slowlink import SlowLink
from dealerbox.engine.findings import FindingLog
from dealerbox.sinks.floor.link import FloorLink
from dealerbox.sinks.floor import contract as c
from tests.test_floor_contract import count_events, hand_updates, link_config
from tests.waiting import wait_until
from tests.conftest import scaled

pytestmark = pytest.mark.timeout(240)

_used = ctypes.CDLL(_sqlite3.__file__).sqlite3_memory_used   # the library the sqlite3 module runs on
_used.restype = ctypes.c_int64
SQLITE_MB = 1.6      # the outbox's two connections with their fixed page caches, and SQLite's own overhead


def fill(link: FloorLink, hands: range) -> None:
    """Submit whole hands and wait until every row is in the outbox."""
    rows = link.health()["spooled"]
    for hand in hands:
        ups, _ = hand_updates(hand, FindingLog(), t0=hand * 100.0)   # a log per hand: the test keeps nothing
        rows += count_events(ups) + sum(c.is_alert(e) for u in ups for e in u.events)
        for u in ups:
            link.submit(u)
    assert wait_until(lambda: link.health()["spooled"] >= rows and link.health()["queued"] == 0,
                      scaled(120)), link.health()


@pytest.mark.parametrize("floor", ["slow", "absent"])
def test_ten_times_the_outbox_is_not_more_memory_with_a_slow_or_an_absent_floor(make_broker, tmp_path, floor):
    slow = None
    if floor == "slow":
        broker = make_broker()
        slow = SlowLink(broker.host, broker.port, rate=30_000).start()
    config = link_config(tmp_path, slow.port if slow else free_port(), outbox_max=1_000_000)
    gc.collect()       # the counter is the whole process's: earlier tests' connections left for the collector go
    before = _used()
    link = FloorLink(config, reconnect_min=0.05, reconnect_max=0.3).start()
    try:
        fill(link, range(1, 31))             # some 800 rows: past start-up and first-use caches
        small = (link.health()["outbox_depth"], _used() - before)
        fill(link, range(31, 331))           # eleven times as many
        large = (link.health()["outbox_depth"], _used() - before)
        # the floor did not take them (absent), or took few (slow: some 100 a second of about 9,000): on disk
        assert large[0] > 4000 and large[0] > small[0], (small, large)
        # SQLite: its page caches fill up to their fixed size and stop there (2.2 MB and climbing before)
        assert large[1] < SQLITE_MB * 2**20, f"SQLite holds {large[1] / 2**20:.2f} MB at {large[0]} rows"
        # what the link keeps in memory for the rows is bounded by the in-flight window, not the outbox
        drain = link.drain
        assert len(drain.express) + len(drain.sent_early) + len(drain.inflight) <= 3 * link.session.window
        assert len(link.receipts.pending) == 0 and link.health()["queued"] == 0
        assert link.health()["connected"] is (floor == "slow")
    finally:
        link.abandon()
        if slow:
            slow.stop()


def test_the_link_remembers_the_alerts_the_floor_may_acknowledge_not_every_info_finding(tmp_path):
    """Every hand raises info findings (921 in 720 simulated hands, and no alert): remembering each of them, up to
    5,000, for an acknowledgement the floor could not send (it never got an alert for one) grew with the hands."""
    import json

    link = FloorLink(link_config(tmp_path, free_port()), reconnect_min=0.05, reconnect_max=0.3).start()
    try:
        fill(link, range(1, 41))      # each hand: a floor alert (h{n}-1) and an info finding (h{n}-2)
        assert len(link.desk.known_findings) == 40

        def ack(finding: str, seq: int) -> bool:
            payload = c.command_payload(c.Envelope("demo", "floor", "floorboot"), "ack", 10.0, "floor-1", finding,
                                        table="T01")
            raw = json.dumps({**payload, "seq": seq}).encode()
            return link.handle_command("dealerbox/demo/T01/cmd", raw) is not None

        assert ack("h1-1", 1)          # the first hand's floor call: acknowledged however long ago
        assert not ack("h40-2", 2)     # an info finding the floor was never alerted to
        assert any("unknown finding h40-2" in r for r in link.refusals)
    finally:
        link.abandon()


def test_a_slow_floor_gets_the_newest_table_state_and_never_a_queue_of_them(make_broker, tmp_path):
    """A day of floor calls nobody acknowledged makes a table state some 50 kB. Published four times a second
    behind a link that carries a few kB a second, the states piled up in paho waiting for their PUBACKs: 1,000
    of them, 42 MB, after 10,000 hands of bench.soak with a slow floor. The next state now waits for the last."""
    from dealerbox.engine.state import FindingView, TableState
    from dealerbox.runtime.bus import Update
    from dealerbox.sinks.floor.view import FloorView

    broker = make_broker()
    slow = SlowLink(broker.host, broker.port, rate=20_000).start()
    view = FloorView(broker.host, broker.port, "demo").start()
    link = FloorLink(link_config(tmp_path, slow.port), reconnect_min=0.05, reconnect_max=0.3).start()
    calls = tuple(FindingView(f"h{n}-1", "procedures.22", "Procedures 22", "floor", "continues",
                              "A card left the muck during the hand: nobody may look through the discards.")
                  for n in range(200))

    def states_in_flight() -> int:
        return sum(topic.endswith("/state") for topic in dict(link.drain.topics).values())

    try:
        assert wait_until(lambda: link.health()["connected"], scaled(60)), link.health()
        most = 0
        for hand in range(1, 41):   # a new state every 50 ms: some 12 due in 2 s, each needing ~2.5 s of link
            link.submit(Update((), TableState(hand=hand, phase="preflop", findings=calls), {}))
            assert not wait_until(lambda: states_in_flight() > 1, 0.05), "a second state went before the first's PUBACK"
            most = max(most, states_in_flight())
        assert most == 1
        # and the floor gets the newest one in the end, not every one in between
        def last_hand() -> int | None:
            states = [m[1] for m in list(view.messages) if m[0].endswith("/T01/state") and m[1]]
            return states[-1]["hand"] if states else None
        assert wait_until(lambda: last_hand() == 40, scaled(120)), last_hand()
        assert link.health()["states_published"] < 40
    finally:
        link.abandon()
        view.stop()
        slow.stop()
