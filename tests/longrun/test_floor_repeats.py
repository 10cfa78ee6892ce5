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
            sender.publish(f"dealerbox/demo/{table}/alert", text, qos=1).wait_for_publish(5)
        assert wait_until(lambda: view.received == 5, 10)
        assert [len(view.tables[t].alerts) for t in ("T01", "T02")] == [2, 1]
        assert view.duplicates == 2
        assert sum(line.split(" ", 2)[1] == "ALERT" for line in view.feed) == 3
        assert "2 repeats dropped" in view.render().splitlines()[0]
    finally:
        sender.loop_stop()
        sender.disconnect()
        view.stop()
