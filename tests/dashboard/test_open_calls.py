"""A table whose floor calls nobody acknowledges (300 open, tests/open_calls.py) through a real FloorLink and
mosquitto to the dashboard: each call is filed as its own alert, all 300, while the table's retained state lists
only the newest and counts them all, and the table page says how many are open at the table."""

from __future__ import annotations

import json

import httpx
import pytest

from dealerbox.engine.state import OPEN_LISTED
from dealerbox.sinks.floor import contract as c
from tests.open_calls import session
from tests.waiting import wait_until

from .conftest import login, scaled
from .tables import start_table

pytestmark = pytest.mark.timeout(300)


def test_three_hundred_open_calls_are_all_filed_as_alerts_while_the_state_lists_the_newest_and_counts_all(
        tmp_path, floor_broker, dashboard):
    s = session()
    link = start_table(tmp_path, floor_broker, "OC1")
    try:
        for u in s.updates:
            link.submit(u)
        assert wait_until(lambda: len(dashboard.store.alerts(table="OC1")) == 300, scaled(120)), \
            (len(dashboard.store.alerts(table="OC1")), link.health())
        filed = {a.finding for a in dashboard.store.alerts(table="OC1")}
        assert filed == {f.id for f in s.calls}

        def state() -> dict:
            return (dashboard.store.table("demo", "OC1") or {}).get("state") or {}
        assert wait_until(lambda: state().get("findings_open") == 300, scaled(30)), state().get("findings_open")
        st = state()
        assert c.schema_errors("state", st) == []
        assert st["findings_oldest"]["id"] == s.calls[0].id
        earlier = [f for f in st["findings"] if f["hand"] != st["hand"]]
        assert [f["id"] for f in earlier] == [f.id for f in s.calls if f.hand != st["hand"]][-OPEN_LISTED:]
        assert len(json.dumps(st)) < 20_000        # was 107 kB with every call in it

        # the oldest call, listed by no state since long ago, can still be acknowledged from the floor
        oldest = s.calls[0].id
        ack = c.command_payload(c.Envelope("demo", "floor", "floorboot"), "ack", 10.0, "dashboard:sam", oldest,
                                table="OC1")
        assert link.handle_command("dealerbox/demo/OC1/cmd", json.dumps(ack).encode()) is not None

        with httpx.Client(base_url=dashboard.url) as web:
            login(web, "vic")
            page = web.get("/tables/demo/OC1").text
        assert "300 open at the table" in page and oldest in page
    finally:
        link.stop()
