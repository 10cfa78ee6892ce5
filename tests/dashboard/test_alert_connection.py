"""Alerts on a connection of their own (issue 30, the start-up burst): the dashboard reads the alert topics on a second
MQTT connection, with its own client id and broker user, so an alert raised while the main connection is taking a
flood of statuses and states is filed without waiting behind them; a burst being filed is cut short for it. A
broker that refuses the alert user, or names both connections alike, gets alerts on the main connection instead,
with one line saying so. Real mosquitto; the order is asserted, never the time."""

from __future__ import annotations

import logging
import threading

import paho.mqtt.client as mqtt
import pytest

from dealerbox.dashboard.service import Dashboard
from dealerbox.dashboard.store import Store
from dealerbox.dashboard.subscriber import BrokerSettings, Subscriber
from tests.conftest import scaled
from tests.dashboard.instances import InProcess
from tests.test_floor_contract import ROOT
from tests.waiting import wait_until

from .tables import alert_bytes
from .test_burst import _message, _state, _status

pytestmark = pytest.mark.timeout(120)

ACL = (ROOT / "docs/mosquitto/acl").read_text()
USERS = {"floor-dashboard-1": "pw-d1", "floor-dashboard-1-alerts": "pw-d1", "publisher": "pw-p"}
PUBLISHER_ACL = "\nuser publisher\ntopic write dealerbox/#\n"    # the test's own stand-in for many tables
HOLD = "dealerbox/s1/tournament/hold/clock"                    # a topic the main connection handles on paho's thread


def _twenty_alerts_filed(p: mqtt.Client, dash) -> None:
    """Table T01 raises 20 alerts; all 20 reach the dashboard's store."""
    for n in range(20):
        p.publish("dealerbox/s1/T01/alert", alert_bytes("s1", "T01", f"h{n}-1", "one", seq=n + 1), qos=1)
    assert wait_until(lambda: len(dash.store.alerts()) == 20, scaled(30)), len(dash.store.alerts())


def _publisher(broker, **login: str) -> mqtt.Client:
    p = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, protocol=mqtt.MQTTv5)
    if login:
        p.username_pw_set(login["user"], login["password"])
    p.connect(broker.host, broker.port)
    p.loop_start()
    return p


def _kinds(store: Store) -> list[str]:
    return [kind for _j, kind, _s, _d in store.journal_after(0, 10_000)]


def test_an_alert_raised_while_the_main_connection_takes_a_flood_of_states_is_filed_before_the_flood(broker, tmp_path):
    store = Store(f"sqlite:///{tmp_path / 'floor.db'}")
    dash = Dashboard(store, clock=lambda: 1000.0)
    tables = [f"T{n:03d}" for n in range(300)]
    held: list[bool] = []

    def hold(_raw: bytes) -> None:
        # the main connection's paho thread stops here, ahead of the flood, until the alert is filed (or gives up):
        # an alert read on the main connection would be stuck behind this message and the flood
        held.append(wait_until(lambda: bool(store.alerts()), scaled(30)))

    connected = threading.Event()
    sub = Subscriber(BrokerSettings(broker.host, broker.port, "s1"), "dash-test", dash._file_batch,
                     lambda up, _note: connected.set() if up else None, aside={HOLD: hold})
    sub.start()
    p = _publisher(broker)
    try:
        assert wait_until(lambda: sub.connected, scaled(20))
        assert sub.alerts_client is not None
        p.publish(HOLD, b"{}", qos=1).wait_for_publish(scaled(10))
        for t in tables:    # a start: every table's birth status and retained state
            p.publish(*_status(t), qos=1, retain=True)
            p.publish(*_state(t), qos=1, retain=True)
        p.publish("dealerbox/s1/T299/alert", alert_bytes("s1", "T299", "h1-1", "raised in the flood"),
                  qos=1).wait_for_publish(scaled(10))
        assert wait_until(lambda: len(held) == 1, scaled(40))
        assert held == [True]        # filed while the main connection had not read past the hold
        assert wait_until(lambda: sum(t["received"] for t in store.tables()) == 2 * 300 + 1, scaled(60))
    finally:
        p.loop_stop()
        sub.stop()
    kinds = _kinds(store)
    assert kinds[0] == "alert" and kinds.count("alert") == 1          # journalled (so sent) ahead of every tile
    assert sorted(t["table_id"] for t in store.tables()) == tables     # and nothing of the flood lost
    assert [a.ruling for a in store.alerts()] == ["raised in the flood"]


def test_a_backlogs_burst_being_filed_is_cut_short_for_an_alert_and_the_rest_follows_it_in_order(tmp_path):
    store = Store(f"sqlite:///{tmp_path / 'floor.db'}")
    dash = Dashboard(store, clock=lambda: 1000.0)
    sub = Subscriber(BrokerSettings(), "test", dash._file_batch, lambda connected, note: None)
    tables = [f"T{n:03d}" for n in range(400)]    # more than one bite: a backlog, as at a start
    for t in tables:
        sub._on_message(None, None, _message(*_state(t)))
    seen: list[str] = []

    def state_seen(_site: str, table: str, _state: dict) -> list[str]:
        seen.append(table)
        if table in ("T009", "T390"):     # an alert comes while the filer is at this state of its burst
            sub._on_message(None, None, _message(f"dealerbox/s1/{table}/alert",
                                                 alert_bytes("s1", table, "h1-1", f"while {table} was filed")))
        return []
    dash.ingest.state_seen = state_seen
    bursts = []
    while (taken := sub.take()) is not None:
        before = len(seen)
        sub.file_some(*taken)
        bursts.append((taken[0][0][0].rsplit("/", 1)[1], len(seen) - before))
    # the first burst (250 of 400) stopped after its tenth state and the alert went next; the last burst, with
    # nothing behind it (a steady room's size), was not cut: its alert waited for it
    assert bursts == [("state", 10), ("alert", 0), ("state", 250), ("state", 140), ("alert", 0)]
    assert seen == tables                              # every state once, in the order they came
    kinds = _kinds(store)
    assert kinds[0] == "alert" and kinds.count("alert") == 2
    assert {t["table_id"]: t["received"] for t in store.tables()} == \
        {t: 2 if t in ("T009", "T390") else 1 for t in tables}


def test_the_dashboard_takes_alerts_as_its_own_alert_user(make_broker, tmp_path):
    broker = make_broker(users=USERS, acl=ACL + PUBLISHER_ACL, extra="use_username_as_clientid true")
    settings = BrokerSettings(broker.host, broker.port, "+", "floor-dashboard-1", USERS["floor-dashboard-1"])
    dash = InProcess(f"sqlite:///{tmp_path / 'floor.db'}", settings).start()
    p = _publisher(broker, user="publisher", password=USERS["publisher"])
    try:
        assert dash.dash.subscriber is not None and dash.dash.subscriber.alerts_client is not None
        _twenty_alerts_filed(p, dash)
        log = broker.log()
        assert "u'floor-dashboard-1'" in log and "u'floor-dashboard-1-alerts'" in log
        assert "already connected" not in log and "not authorised" not in log.lower()
        assert dash.dash.connected
    finally:
        p.loop_stop()
        dash.stop()


def test_without_an_alert_user_in_the_password_file_alerts_come_on_the_main_connection_said_once(make_broker,
                                                                                                  tmp_path, caplog):
    # the password file of an earlier release: the broker refuses floor-dashboard-1-alerts
    users = {k: v for k, v in USERS.items() if k != "floor-dashboard-1-alerts"}
    broker = make_broker(users=users, acl=ACL + PUBLISHER_ACL, extra="use_username_as_clientid true")
    settings = BrokerSettings(broker.host, broker.port, "+", "floor-dashboard-1", USERS["floor-dashboard-1"])
    caplog.set_level(logging.WARNING, logger="dealerbox.dashboard")
    dash = InProcess(f"sqlite:///{tmp_path / 'floor.db'}", settings).start()
    p = _publisher(broker, user="publisher", password=USERS["publisher"])
    try:
        sub = dash.dash.subscriber
        assert sub is not None
        assert wait_until(lambda: sub.alerts_client is None and sub.connected, scaled(30)), dash.dash.broker_note
        _twenty_alerts_filed(p, dash)
    finally:
        p.loop_stop()
        dash.stop()
    said = [r.getMessage() for r in caplog.records if "alerts come on the main connection" in r.getMessage()]
    assert len(said) == 1 and "'floor-dashboard-1-alerts'" in said[0] and "docs/mosquitto/acl" in said[0], said
    assert "\n" not in said[0]      # one line, naming the user and what to do
    assert "already connected" not in broker.log()


def test_no_alert_connection_where_the_broker_would_name_it_as_the_main_one():
    # mosquitto closes the older of two connections under one name without saying why: they would take turns
    assert BrokerSettings(username="floor-dashboard-1").alerts_connection()
    assert BrokerSettings().alerts_connection()        # anonymous: the client ids differ ("...-alerts")
    assert not BrokerSettings(username="floor-dashboard-1", alerts_username="floor-dashboard-1").alerts_connection()
    # a certificate is the username under use_identity_as_username: the alerts need a certificate of their own
    assert not BrokerSettings(tls=True, cert_file="dash.crt", key_file="dash.key").alerts_connection()
    assert BrokerSettings(tls=True, cert_file="dash.crt", key_file="dash.key", alerts_cert_file="alerts.crt",
                          alerts_key_file="alerts.key").alerts_connection()
    assert BrokerSettings(tls=True, ca_file="ca.crt", username="floor-dashboard-1").alerts_connection()
    assert not BrokerSettings(alerts_apart=False).alerts_connection()


def test_with_one_user_named_for_both_the_dashboard_keeps_one_connection_and_files_every_alert(make_broker, tmp_path):
    broker = make_broker(users=USERS, acl=ACL + PUBLISHER_ACL, extra="use_username_as_clientid true")
    settings = BrokerSettings(broker.host, broker.port, "+", "floor-dashboard-1", USERS["floor-dashboard-1"],
                              alerts_username="floor-dashboard-1")
    dash = InProcess(f"sqlite:///{tmp_path / 'floor.db'}", settings).start()
    p = _publisher(broker, user="publisher", password=USERS["publisher"])
    try:
        assert dash.dash.subscriber is not None and dash.dash.subscriber.alerts_client is None
        _twenty_alerts_filed(p, dash)
    finally:
        p.loop_stop()
        dash.stop()
    assert "already connected" not in broker.log()
