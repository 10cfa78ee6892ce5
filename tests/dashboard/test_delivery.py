"""Delivery end to end against a real mosquitto (issue 30): an alert leaves the terminal's outbox when the floor
has filed it (the dashboard's receipt), not on the broker's PUBACK; every floor tool is its own broker user, so
two tools never share a client id; two dashboard instances share the load through a shared subscription and
one PostgreSQL, and either can be killed mid-burst without losing or doubling an alert."""

from __future__ import annotations

import json
import sqlite3

import paho.mqtt.client as mqtt
import pytest

from dealerbox.dashboard.service import BrokerSettings
from dealerbox.engine.findings import FindingLog
from dealerbox.sinks.floor import contract as c
from dealerbox.sinks.floor.link import FloorLink
from dealerbox.sinks.floor.receipts import validator
from dealerbox.sinks.floor.view import FloorView
from tests.dashboard.instances import InProcess, Served
from tests.dashboard.postgres import Postgres
from tests.test_floor_contract import ROOT, hand_updates, link_config
from tests.waiting import wait_until
from tests.conftest import scaled

pytestmark = pytest.mark.timeout(180)

ACL = (ROOT / "docs/mosquitto/acl").read_text()
# the identity lines of the shipped mosquitto.conf, as tests/security does
CLIENT_ID_IS_USERNAME = "use_username_as_clientid true"
USERS = {"demo/T01": "pw-t01", "floor-dashboard-1": "pw-d1", "floor-dashboard-2": "pw-d2",
         "floor-dashboard-1-alerts": "pw-d1", "floor-dashboard-2-alerts": "pw-d2",   # their alert connections
         "floor-console": "pw-console", "floor": "pw-floor", "receipt-watcher": "pw-w"}
WATCHER_ACL = "\nuser receipt-watcher\ntopic read dealerbox/+/+/receipt\n"   # the test's own eye on receipts


def unfiled(config) -> int:
    """Alerts the broker acknowledged that no receipt has yet named (0 when the outbox has none)."""
    db = sqlite3.connect(config.floor.outbox)
    try:
        return db.execute("SELECT COUNT(*) FROM unfiled").fetchone()[0]
    finally:
        db.close()


def password_file(tmp_path, user: str) -> str:
    path = tmp_path / f"{user.replace('/', '-')}.pw"
    path.write_text(USERS[user] + "\n")
    return str(path)


def submit_hands(link: FloorLink, hands: range, fl: FindingLog) -> int:
    """Whole hands, each with one floor alert; how many alerts."""
    n = 0
    for hand in hands:
        ups, _ = hand_updates(hand, fl, t0=hand * 100.0)
        n += sum(c.is_alert(e) for u in ups for e in u.events)
        for u in ups:
            link.submit(u)
    return n


class Watcher:
    """A subscriber to every receipt, as its own user: who filed what."""

    def __init__(self, broker) -> None:
        self.receipts: list[dict] = []
        self.client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id="receipt-watcher", protocol=mqtt.MQTTv5)
        self.client.username_pw_set("receipt-watcher", USERS["receipt-watcher"])
        self.client.on_message = lambda _c, _u, m: self.receipts.append(json.loads(m.payload))
        self.client.on_connect = lambda cl, *_: cl.subscribe("dealerbox/+/+/receipt", qos=1)
        self.client.connect(broker.host, broker.port)
        self.client.loop_start()
        assert wait_until(lambda: self.client.is_connected(), scaled(10))

    def senders(self) -> set[str]:
        return {r["from"] for r in self.receipts}

    def stop(self) -> None:
        self.client.disconnect()
        self.client.loop_stop()


def test_an_alert_the_broker_took_before_any_dashboard_listened_leaves_the_outbox_only_once_filed(broker, tmp_path):
    # Before: the PUBACK deleted the alert, and a broker with nobody subscribed dropped it: the floor never knew.
    config = link_config(tmp_path, broker.port)
    link = FloorLink(config, reconnect_min=0.05, reconnect_max=0.3, receipt_wait=0.5).start()
    dash = None
    try:
        alerts = submit_hands(link, range(1, 4), FindingLog())
        assert wait_until(lambda: link.health()["outbox_depth"] == 0 and link.health()["acked"] > 0, scaled(10))
        assert unfiled(config) == alerts == 3      # the broker has them all; the floor has filed none
        dash = InProcess(f"sqlite:///{tmp_path / 'floor.db'}", BrokerSettings(broker.host, broker.port, "+")).start()
        assert wait_until(lambda: len(dash.store.alerts()) == 3 and unfiled(config) == 0, scaled(20)), \
            (len(dash.store.alerts()), unfiled(config), link.health())
        health = link.health()
        assert health["filed"] == 3 and health["receipts"] >= 1 and health["receipts_refused"] == 0
        assert health["resent_unfiled"] >= 3
    finally:
        link.stop()
        if dash is not None:
            dash.stop()


def test_a_receipt_is_schema_valid_and_a_bad_one_is_refused_with_a_counter_not_a_crash(broker, tmp_path):
    config = link_config(tmp_path, broker.port)
    link = FloorLink(config, reconnect_min=0.05, reconnect_max=0.3, receipt_wait=60).start()
    dash = InProcess(f"sqlite:///{tmp_path / 'floor.db'}", BrokerSettings(broker.host, broker.port, "+")).start()
    got: list[bytes] = []
    spy = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id="spy", protocol=mqtt.MQTTv5)
    spy.on_message = lambda _c, _u, m: got.append(m.payload)
    spy.connect(broker.host, broker.port)
    spy.subscribe("dealerbox/demo/T01/receipt", qos=1)
    spy.loop_start()
    try:
        submit_hands(link, range(1, 3), FindingLog())
        assert wait_until(lambda: link.health()["filed"] == 2 and unfiled(config) == 0, scaled(15)), link.health()
        assert got and all(not list(validator().iter_errors(json.loads(raw))) for raw in got)
        for bad in (b"[" * 100_000, b"\xff\xfe", b'{"v": 1}', json.dumps(
                {"v": 1, "kind": "receipt", "site": "demo", "table": "T02", "from": "x", "at": 1.0,
                 "filed": [{"boot": "b", "seq": 1}]}).encode()):
            spy.publish("dealerbox/demo/T01/receipt", bad, qos=1).wait_for_publish(scaled(5))
        assert wait_until(lambda: link.health()["receipts_refused"] == 4, scaled(10)), link.health()
        assert link.health()["connected"]
        submit_hands(link, range(3, 4), FindingLog())   # the link still runs and still takes receipts
        assert wait_until(lambda: link.health()["filed"] == 3, scaled(15)), link.health()
    finally:
        spy.loop_stop()
        link.stop()
        dash.stop()


def test_the_dashboard_and_a_console_each_on_its_own_floor_user_get_all_50_alerts(make_broker, tmp_path):
    # Before: both tools logged in as "floor", so both were client "floor" and kicked each other off (29 of 50 lost).
    broker = make_broker(users=USERS, acl=ACL, extra=CLIENT_ID_IS_USERNAME)
    config = link_config(tmp_path, broker.port, username="demo/T01", password_file=password_file(tmp_path, "demo/T01"))
    settings = BrokerSettings(broker.host, broker.port, "+", "floor-dashboard-1", USERS["floor-dashboard-1"])
    dash = InProcess(f"sqlite:///{tmp_path / 'floor.db'}", settings).start()
    console = FloorView(broker.host, broker.port, "demo", username="floor-console", password=USERS["floor-console"],
                        name="console").start()
    link = FloorLink(config, reconnect_min=0.05, reconnect_max=0.3, receipt_wait=2.0).start()
    try:
        alerts = submit_hands(link, range(1, 51), FindingLog())
        assert alerts == 50
        assert wait_until(lambda: len(dash.store.alerts()) == 50 and unfiled(config) == 0, scaled(60)), \
            (len(dash.store.alerts()), unfiled(config))
        seen = lambda v: {(p["boot"], p["seq"]) for t, p, *_ in list(v.messages) if t.endswith("/alert")}  # noqa: E731
        assert console.wait_until(lambda v: len(seen(v)) == 50, scaled(20)), len(seen(console))
        assert "already connected, closing old connection" not in broker.log()
    finally:
        link.stop()
        console.stop()
        dash.stop()


def test_a_second_instance_on_the_same_floor_user_would_take_the_first_ones_client_id(make_broker, tmp_path):
    # Why each instance needs its own user: under use_username_as_clientid, the same user is the same client.
    broker = make_broker(users=USERS, acl=ACL, extra=CLIENT_ID_IS_USERNAME)
    first = FloorView(broker.host, broker.port, "demo", username="floor", password=USERS["floor"], name="a").start()
    second = FloorView(broker.host, broker.port, "demo", username="floor", password=USERS["floor"], name="b").start()
    try:
        assert wait_until(lambda: "already connected, closing old connection" in broker.log()
                          or "Client floor already connected" in broker.log(), scaled(10)), broker.log()[-800:]
    finally:
        first.stop()
        second.stop()


@pytest.fixture
def postgres():
    pg = Postgres().start()
    yield pg
    pg.stop()


def test_two_dashboards_share_the_load_and_one_killed_mid_burst_loses_and_doubles_nothing(make_broker, tmp_path,
                                                                                          postgres):
    broker = make_broker(users=USERS, acl=ACL + WATCHER_ACL, extra=CLIENT_ID_IS_USERNAME)
    watcher = Watcher(broker)
    served: list[Served] = []
    config = link_config(tmp_path, broker.port, username="demo/T01", password_file=password_file(tmp_path, "demo/T01"))
    link = FloorLink(config, reconnect_min=0.05, reconnect_max=0.3, receipt_wait=1.0)
    try:
        for i in (1, 2):   # one after the other: two first starts on one new database race for its settings row
            served.append(Served(tmp_path, postgres.url, broker.port, "--username", f"floor-dashboard-{i}",
                                 "--password-file", password_file(tmp_path, f"floor-dashboard-{i}"), "--share", "floor",
                                 "--name", f"dash{i}").wait_started())
        assert wait_until(lambda: broker.log().count("as floor-dashboard-") >= 4 or
                          sum(f"u'floor-dashboard-{i}{alerts}'" in broker.log() for i in (1, 2)
                              for alerts in ("", "-alerts")) == 4, scaled(20)), broker.log()[-800:]
        link.start()
        fl = FindingLog()
        sent = submit_hands(link, range(1, 41), fl)
        # mid-burst: once the first instance has filed some of this table's alerts, it dies without a word
        assert wait_until(lambda: "dealerbox-dashboard-dash1" in watcher.senders(), scaled(30)), watcher.senders()
        served[0].kill()
        sent += submit_hands(link, range(41, 101), fl)
        assert sent == 100
        from dealerbox.dashboard.store import Store
        store = Store(postgres.url)
        try:
            assert wait_until(lambda: len(store.alerts(limit=1000)) == 100 and unfiled(config) == 0, scaled(90)), \
                (len(store.alerts(limit=1000)), unfiled(config), link.health())
            filed = store.alerts(limit=1000)
            assert len({(a.boot, a.finding) for a in filed}) == len(filed) == 100   # each exactly once
        finally:
            store.close()
        assert watcher.senders() == {"dealerbox-dashboard-dash1", "dealerbox-dashboard-dash2"}   # both took a share
    finally:
        link.stop()
        for s in served:
            s.stop()
        watcher.stop()


def test_an_alert_missing_from_a_tables_sequence_is_shown_as_a_floor_alert_until_it_arrives(broker, tmp_path):
    # Before: alerts 1, 2 and 4 of a run filed, 3 never came, and nothing on the floor said so.
    env = c.Envelope("demo", "T01", "gapboot1")
    fl = FindingLog()
    payloads = []
    for hand in range(1, 5):
        f = fl.raise_(hand * 10.0, hand, "misdeal.1c", severity="floor", outcome="continues", ruling="exposed")
        payloads.append(c.alert_payload(env, f, hand, hand * 10.0))
    assert [p["seq"] for p in payloads] == [1, 2, 3, 4]
    dash = InProcess(f"sqlite:///{tmp_path / 'floor.db'}", BrokerSettings(broker.host, broker.port, "+"))
    dash.dash.alert_gap_after = 1.0
    dash.start()
    table = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id="T01", protocol=mqtt.MQTTv5)
    table.connect(broker.host, broker.port)
    table.loop_start()
    gaps = lambda: dash.store.alerts(rule="floor.alert-gap", site="demo", table="T01")  # noqa: E731
    try:
        for p in (payloads[0], payloads[1], payloads[3]):
            c.validate("alert", p)
            table.publish("dealerbox/demo/T01/alert", json.dumps(p), qos=1).wait_for_publish(scaled(5))
        assert wait_until(lambda: len(dash.store.alerts(rule="misdeal.1c")) == 3, scaled(10))
        assert wait_until(lambda: len(gaps()) == 1, scaled(15)), dash.store.alerts()
        gap = gaps()[0]
        assert gap.severity == "floor" and gap.open and gap.finding == "gap-3-3" and gap.boot == "gapboot1"
        assert "alert 3 of this table's run gapboot1 never reached the floor" in gap.ruling
        table.publish("dealerbox/demo/T01/alert", json.dumps(payloads[2]), qos=1).wait_for_publish(scaled(5))   # late
        assert wait_until(lambda: gaps()[0].resolved_by == "floor", scaled(15)), gaps()
        assert len(dash.store.alerts(rule="misdeal.1c")) == 4 and len(gaps()) == 1
    finally:
        table.loop_stop()
        dash.stop()
