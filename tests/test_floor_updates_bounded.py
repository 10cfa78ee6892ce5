"""FloorLink.submit never blocks and the spooler takes its queue whole, so at a table the queue holds an update or
two; but a spooler that cannot write (a stalled card, a dead thread) let it grow by a whole table state per
engine step. Now it holds at most UPDATES_MAX entries: past that an update merges into the newest one queued,
every event kept, only the intermediate states gone (the floor is sent only the latest state anyway)."""

from __future__ import annotations

import json
import sqlite3

from dealerbox.sinks.floor.link import FloorLink
from dealerbox.sinks.floor.updates import UPDATES_MAX
from tests.conftest import scaled
from tests.fixtures.broker import free_port
from tests.open_calls import session
from tests.test_floor_contract import link_config
from tests.waiting import wait_until


def test_a_spooler_that_takes_nothing_leaves_at_most_a_thousand_updates_queued_and_then_spools_every_event(tmp_path):
    s = session()
    assert len(s.updates) > 1.5 * UPDATES_MAX
    link = FloorLink(link_config(tmp_path, free_port()), reconnect_min=0.05, reconnect_max=0.3)
    # not started: nothing takes the queue, as when the spooler cannot write
    for u in s.updates:
        link.submit(u)
    assert link.updates.qsize() == UPDATES_MAX             # was one per update: 1,917
    assert link.health()["updates_merged"] == len(s.updates) - UPDATES_MAX
    events = [e for u in s.updates for e in u.events]
    link.start()
    try:
        assert wait_until(lambda: link.depth.rows == len(events) + len(s.calls), scaled(60)), \
            (link.depth.rows, len(events) + len(s.calls))
        taken = link.latest.take()
        assert taken is not None and taken[0] is s.updates[-1].state    # the newest state, not a merged-away one
    finally:
        link.abandon()
    db = sqlite3.connect(link_config(tmp_path, 1).floor.outbox)
    rows = db.execute("SELECT kind, seq, payload FROM outbox ORDER BY id").fetchall()
    db.close()
    spooled = [json.loads(p)["data"] for kind, _, p in rows if kind == "event"]
    assert [(d["event"], d["t"]) for d in spooled] == [(type(e).__name__, e.t) for e in events]   # all, in order
    assert [seq for kind, seq, _ in rows if kind == "event"] == list(range(1, len(events) + 1))
    assert sorted(json.loads(p)["finding"]["id"] for kind, _, p in rows if kind == "alert") == \
        sorted(f.id for f in s.calls)
