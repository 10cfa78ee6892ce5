"""Issue 29, after the outside review: the floor keeps at most 500,000 valid heads of a table, and re-enrolling
does not reset that, so root with the table's key could fill the store with validly signed heads and nothing
was raised until the cap. Now the floor raises ``evidence.anchor.flood`` when a table's heads come far faster
than any table plays hands (more than ``flood_per_min`` a minute beyond an outage's backlog of ``flood_burst``),
long before the cap. The dashboard's clock is moved by the test: nothing waits on the wall clock."""

from __future__ import annotations

import json

import paho.mqtt.publish as publish
import pytest

from dealerbox.dashboard.anchors import CAP_PER_TABLE, FLOOD_BURST
from dealerbox.record.anchor import anchor_message, anchor_topic
from dealerbox.record.logformat import Rx
from tests.waiting import wait_until

from .witness import floor, recorder, table_keys
from tests.conftest import scaled

pytestmark = pytest.mark.timeout(300)
HONEST, BACKLOG, FLOOD = 30, 15, 300


def test_a_table_flooding_the_floor_with_valid_heads_is_raised_long_before_the_cap(tmp_path, broker):
    assert FLOOD_BURST * 100 <= CAP_PER_TABLE       # by default the alert comes within 1 % of the cap
    private, public = table_keys(tmp_path)
    running = floor(tmp_path, broker, public)
    store = running.dash.ingest.anchor_store
    store.flood_burst = 20                          # the default's 2,000, scaled down as the cap test scales its cap
    # every head signed by the table's own recorder and key: honest hands first, then root signing in a loop
    rec = recorder(tmp_path, private)
    heads: list[dict] = []
    rec.on_anchor = heads.append
    for i in range(HONEST + BACKLOG + FLOOD):
        rec.write(Rx(float(i), bytes([i % 256, 1, 2]) * 4))
        rec.seal(hand=i + 1) if i < HONEST else rec.seal()
    payloads = [(anchor_topic("demo", "T01"), json.dumps(anchor_message("demo", h)), 1, False) for h in heads]
    assert len(payloads) == HONEST + BACKLOG + FLOOD

    def kept() -> int:
        return len(store.heads("demo", "T01"))

    def floods() -> list:
        return [a for a in running.store.alerts(site="demo", table="T01") if a.rule == "evidence.anchor.flood"]

    try:
        for i in range(HONEST):                     # a busy table: a hand every 30 s of the floor's clock
            running.clock.offset += 30.0
            publish.single(*payloads[i][:3], hostname=broker.host, port=broker.port)
            assert wait_until(lambda n=i + 1: kept() == n, scaled(20)), (i, kept())
        running.clock.offset += 600.0               # a ten-minute outage, then its backlog resent at once
        publish.multiple(payloads[HONEST:HONEST + BACKLOG], hostname=broker.host, port=broker.port)
        assert wait_until(lambda: kept() == HONEST + BACKLOG, scaled(30))
        assert floods() == []
        # root with the key signs heads in a loop: all valid, all kept, and raised
        publish.multiple(payloads[HONEST + BACKLOG:], hostname=broker.host, port=broker.port)
        assert wait_until(lambda: kept() == len(payloads), scaled(120)), kept()
        [alert] = floods()                          # one alert for the flood, not one a head
        assert alert.severity == "floor" and "faster than 10 a minute" in alert.ruling
        assert len(payloads) < CAP_PER_TABLE // 1000
        others = {a.rule for a in running.store.alerts(site="demo", table="T01")} - {"evidence.anchor.flood"}
        assert others == set()                      # no gap, rollback or forgery: the heads themselves are valid
    finally:
        running.stop()
