"""Who acknowledged (issues 14 and 15): a floor ack carries its sender from the dashboard through a real
mosquitto, the floor link's ``on_command`` and the terminal into the engine's FindingAcknowledged, the log
and the dealer's screen ("acknowledged by sam")."""

from __future__ import annotations

import json
import time

import paho.mqtt.publish as publish
import pytest

from dealerbox.config import Config
from dealerbox.engine import events as te
from dealerbox.engine.inputs import DealerInput
from dealerbox.record.logformat import Input, from_record
from dealerbox.sinks.floor import contract as c
from dealerbox.sinks.screen import Screen
from tests.floor_terminal import drain, floor_table
from tests.waiting import wait_until
from tests.conftest import scaled

pytestmark = pytest.mark.timeout(90)
OK_HEALTH = {"reader": {"connected": True, "seq_gaps": 0}, "floor": {"connected": True, "outbox_depth": 0}}


def test_an_ack_from_the_dashboard_reaches_the_terminal_with_who_and_the_screen_shows_the_name(broker, tmp_path):
    table = floor_table(broker, tmp_path)
    terminal, link, console, dashboard = table.terminal, table.link, table.console, table.view
    updates: list = []
    try:
        terminal.start()
        assert dashboard.wait_until(lambda v: "T01" in v.tables and v.tables["T01"].alerts, scaled(20))
        finding = dashboard.tables["T01"].alerts[0]["finding"]["id"]
        # what the dashboard's acknowledge() sends when sam clicks (dashboard/service.py)
        ack = c.command_payload(c.Envelope("demo", "dashboard", "dashboardboot"), "ack", time.time(),
                                "dashboard:sam", finding, table="T01")
        c.validate("cmd", ack)
        publish.single(c.topic("demo", "T01", "cmd"), json.dumps(ack), qos=1, hostname=broker.host, port=broker.port)

        def acknowledged() -> bool:
            updates.extend(drain(console))
            return any(isinstance(e, te.FindingAcknowledged) and e.id == finding for u in updates for e in u.events)
        assert wait_until(acknowledged, scaled(20))
        # the floor sees the table's own event saying who acknowledged
        assert dashboard.wait_until(lambda v: any(
            p["data"]["event"] == "FindingAcknowledged" and p["data"].get("by") == "dashboard:sam"
            for p in v.events("T01")), scaled(10))
    finally:
        terminal.stop()
        dashboard.stop()
    ack = next(e for u in updates for e in u.events if isinstance(e, te.FindingAcknowledged))
    assert (ack.id, ack.by) == (finding, "dashboard:sam")
    assert link.health()["commands_accepted"] == 1
    assert any(line.endswith(f"{finding} acknowledged by dashboard:sam") for line in dashboard.feed)  # the console
    for p in dashboard.events("T01"):
        c.validate("event", p)

    screen = Screen(Config(), (800, 480))
    events = [e for u in updates for e in u.events]
    screen.render(updates[-1].state, OK_HEALTH, events)
    assert any(f"{finding} acknowledged by sam" in text for text in screen.frame.texts("who")), \
        [(d.kind, d.text) for d in screen.frame.drawn][:12]
    assert screen.frame.find("banner", finding) == []            # the banner is gone once acknowledged


def test_the_sender_is_recorded_with_the_tap_and_old_lines_stay_byte_identical():
    with_who = Input(DealerInput(12.5, "ack", ref="h3-1", by="dashboard:sam"))
    line = json.dumps(with_who.to_record(), separators=(",", ":"))
    assert json.loads(line)["by"] == "dashboard:sam"
    assert from_record(json.loads(line)).input == with_who.input
    plain = Input(DealerInput(12.5, "ack", ref="h3-1"))
    assert "by" not in plain.to_record()                         # a dealer's own tap: the line as before
    assert "by" not in te.FindingAcknowledged(1.0, 3, "h3-1").to_dict()
    assert te.FindingAcknowledged(1.0, 3, "h3-1", "dashboard:sam").to_dict()["by"] == "dashboard:sam"


def test_a_dealers_own_acknowledgement_says_no_name_and_the_history_says_who(tmp_path):
    from dealerbox.sinks.screen.history import describe
    assert describe(te.FindingAcknowledged(1.0, 3, "h3-1")).text == "Finding h3-1 acknowledged"
    assert describe(te.FindingAcknowledged(1.0, 3, "h3-1", "dashboard:sam")).text == \
        "Finding h3-1 acknowledged by sam"
    assert describe(te.FindingAcknowledged(1.0, 3, "h3-1", "floor")).text == "Finding h3-1 acknowledged by floor"


def test_the_dashboard_files_who_acknowledged_at_the_table(tmp_path):
    from dealerbox.dashboard.floor import FloorIngest
    from dealerbox.dashboard.store import Store
    from tests.dashboard.tables import alert_bytes

    store = Store(f"sqlite:///{tmp_path / 'floor.db'}")
    try:
        ingest = FloorIngest(store)
        for finding in ("h1-1", "h1-2"):
            ingest.receive("dealerbox/demo/T09/alert", alert_bytes("demo", "T09", finding, "plain",
                                                                   seq=int(finding[-1])), 1.0)
        env = c.Envelope("demo", "T09", "rawboot")
        for event in (te.FindingAcknowledged(5.0, 1, "h1-1", "floor"), te.FindingAcknowledged(6.0, 1, "h1-2")):
            payload = c.event_payload(env, event, 2.0)
            c.validate("event", payload)
            ingest.receive("dealerbox/demo/T09/event", json.dumps(payload).encode(), 2.0)
        said = {a.finding: (a.table_acked_by, a.open) for a in store.alerts(table="T09")}
    finally:
        store.close()
    # the console's ack says so; the dealer's own tap: "table". Both are floor alerts: noted, left open for the
    # floor's own records to close (issue 30)
    assert said == {"h1-1": ("floor", True), "h1-2": ("table", True)}
