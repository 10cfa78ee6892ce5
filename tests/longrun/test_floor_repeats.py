"""The floor counts each alert once: a QoS 1 redelivery (the broker again, or the table's outbox sending a row
whose PUBACK was lost, marked ``replayed``) carries the same site/table/boot/seq and is dropped, counted and
shown; the same seq from another table or from the table's next boot is a new alert. Real mosquitto."""

from __future__ import annotations

import json

import paho.mqtt.client as mqtt
import pytest

from dealerbox.engine import events as te
from dealerbox.sinks.floor import contract as c
from dealerbox.sinks.floor.view import FloorView
from tests.waiting import wait_until
from tests.conftest import scaled

pytestmark = pytest.mark.timeout(60)


def _alert(table: str, boot: str, replayed: bool = False) -> str:
    env = c.Envelope("demo", table, boot, replayed=replayed)
    finding = te.FindingRaised(5.0, 3, "h3-1", "misdeal.1c", "Misdeals 1(c)", "floor", "misdeal",
                               "Two boxed cards: misdeal.", (3,), ())
    return json.dumps(c.alert_payload(env, finding, 7, 6.0))


def test_a_redelivered_alert_is_filed_once_counted_and_shown(broker):
    view = FloorView("127.0.0.1", broker.port, "demo").start()
    sender = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, protocol=mqtt.MQTTv5)
    sender.connect("127.0.0.1", broker.port)
    sender.loop_start()
    try:
        sends = [("T01", _alert("T01", "bootA")),
                 ("T01", _alert("T01", "bootA", replayed=True)),   # the same row again after a reconnect
                 ("T01", _alert("T01", "bootA")),                  # and a plain QoS 1 redelivery
                 ("T02", _alert("T02", "bootA")),                  # same seq, another table: its own alert
                 ("T01", _alert("T01", "bootB"))]                  # same seq, the table's next boot
        for table, text in sends:
            sender.publish(f"dealerbox/demo/{table}/alert", text, qos=1).wait_for_publish(scaled(5))
        assert wait_until(lambda: view.received == 5, scaled(10))
        assert [len(view.tables[t].alerts) for t in ("T01", "T02")] == [2, 1]
        assert view.duplicates == 2
        assert sum(line.split(" ", 2)[1] == "ALERT" for line in view.feed) == 3
        assert "2 repeats dropped" in view.render().splitlines()[0]
    finally:
        sender.loop_stop()
        sender.disconnect()
        view.stop()


def test_the_dashboard_files_an_alert_that_overtook_its_event_once_and_drops_its_resend(tmp_path):
    # Since the floor link publishes an alert while its outbox row commits, the alert can arrive before the
    # FindingRaised event of the same step; a resend of that row (replayed) must still be dropped.
    from dealerbox.dashboard.floor import FloorIngest
    from dealerbox.dashboard.store import Store

    store = Store(f"sqlite:///{tmp_path / 'floor.db'}")
    ingest = FloorIngest(store)
    env = c.Envelope("demo", "T01", "bootA")
    started = c.event_payload(env, te.HandStarted(1.0, 3, 3, (1, 2, 3), "nlhe", {1: 1, 2: 2}), 1.0)
    finding = te.FindingRaised(5.0, 3, "h3-1", "misdeal.1c", "Misdeals 1(c)", "floor", "misdeal",
                               "Two boxed cards: misdeal.", (3,), ())
    raised = c.event_payload(env, finding, 6.0)
    alert = c.alert_payload(env, finding, raised["seq"], 6.0)
    resent = dict(alert, replayed=True)
    got = [ingest.receive(f"dealerbox/demo/T01/{kind}", json.dumps(p).encode(), 7.0).filed
           for kind, p in (("event", started), ("alert", alert), ("event", raised), ("alert", resent))]
    assert got == [True, True, True, False]
    assert ingest.duplicates == 1
    assert [(a.finding, a.boot) for a in store.alerts(table="T01")] == [("h3-1", "bootA")]
    assert [e["event"] for e in store.hand("demo", "T01", 3)] == ["HandStarted", "FindingRaised"]
