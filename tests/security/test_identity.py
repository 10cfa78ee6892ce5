"""Identities that cannot be borrowed (issue 14), against a real mosquitto run with the shipped ACL and the
identity lines of the shipped mosquitto.conf: a borrowed client id, a certificate with another table's
password, another site's topics, and the floor user writing as a table."""

from __future__ import annotations

import re
import threading
import time

import paho.mqtt.client as mqtt
import pytest
from cryptography import x509
from cryptography.x509.oid import NameOID

from dealerbox.engine.findings import FindingLog
from dealerbox.sinks.floor.link import FloorLink
from dealerbox.sinks.floor.view import FloorView
from tests.test_floor_contract import ROOT, count_events, hand_updates, link_config
from tests.test_floor_security import USERS, _cert, _key, _password_file, _write
from tests.waiting import wait_until
from tests.conftest import scaled

pytestmark = pytest.mark.timeout(120)

ACL = (ROOT / "docs/mosquitto/acl").read_text()
SHIPPED = (ROOT / "docs/mosquitto/mosquitto.conf").read_text()


def shipped_option(name: str) -> str:
    """The line of the shipped config, so the test runs the broker exactly as documented."""
    match = re.search(rf"^{name} .*$", SHIPPED, re.M)
    assert match, f"docs/mosquitto/mosquitto.conf lost its {name} line"
    return match.group(0)


class Raw:
    """A bare MQTT 5 client that asks for any client id, as an intruder would."""

    def __init__(self, host: str, port: int, user: str, password: str, client_id: str = "", **tls: str) -> None:
        self.acks: dict[int, int] = {}
        self.disconnects = 0
        self.client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id=client_id, protocol=mqtt.MQTTv5)
        self.client.username_pw_set(user, password)
        if tls:
            self.client.tls_set(ca_certs=tls["ca"], certfile=tls["cert"], keyfile=tls["key"])
        self.client.on_publish = lambda cl, u, mid, rc, p: self.acks.__setitem__(mid, rc.value)
        self.client.on_disconnect = lambda *a: setattr(self, "disconnects", self.disconnects + 1)
        self.client.connect(host, port)
        self.client.loop_start()

    def publish(self, topic: str, payload: bytes = b"{}") -> int:
        info = self.client.publish(topic, payload, qos=1)
        if not wait_until(lambda: info.mid in self.acks, scaled(5)):
            return -1   # the broker closed the connection instead of answering
        return self.acks[info.mid]

    def close(self) -> None:
        self.client.disconnect()
        self.client.loop_stop()


def test_the_shipped_config_ties_client_id_and_certificate_to_the_identity():
    assert shipped_option("use_username_as_clientid") == "use_username_as_clientid true"
    assert shipped_option("use_identity_as_username") == "use_identity_as_username true"
    # every listener carries the client-id rule (it is a listener option in mosquitto 2.0)
    assert SHIPPED.count("\nlistener ") == SHIPPED.count("\nuse_username_as_clientid true")


def test_t01_under_t02s_client_id_leaves_t02_connected_with_no_event_delayed(make_broker, tmp_path):
    broker = make_broker(users=USERS, acl=ACL, extra=shipped_option("use_username_as_clientid"))
    view = FloorView(broker.host, broker.port, "demo", username="floor", password=USERS["floor"]).start()
    t02 = FloorLink(link_config(tmp_path, broker.port, table="T02", username="demo/T02",
                                password_file=_password_file(tmp_path, "demo/T02")), reconnect_min=0.05).start()
    assert wait_until(lambda: t02.health()["connected"], scaled(10))
    intruders: list[Raw] = []
    stop = threading.Event()

    def borrow() -> None:
        # T01's credentials asking for T02's client id, again and again while T02 plays
        while not stop.is_set() and len(intruders) < 5:
            intruders.append(Raw(broker.host, broker.port, "demo/T01", USERS["demo/T01"],
                                 client_id="dealerbox-demo-T02"))
            time.sleep(0.1)

    thief = threading.Thread(target=borrow)
    try:
        thief.start()
        sent = 0
        fl = FindingLog()
        for hand in range(1, 6):
            ups, _ = hand_updates(hand, fl, t0=hand * 100.0)
            for u in ups:
                t02.submit(u)
            sent += count_events(ups)
            time.sleep(0.1)
        thief.join(scaled(10))
        assert len(intruders) == 5
        assert view.wait_until(lambda v: len(v.events("T02")) == sent, scaled(15)), (len(view.events("T02")), sent)
        h = t02.health()
        assert h["connects"] == 1 and h["connected"], h      # never knocked off
        assert h["replayed"] == 0                              # so no event went out late
        assert not [e for e in view.events("T02") if e.get("replayed")]
        assert "as demo/T01" in broker.log() and "as dealerbox-demo-T02" not in broker.log()
    finally:
        stop.set()
        thief.join(scaled(10))
        for raw in intruders:
            raw.close()
        t02.stop(timeout=scaled(1))
        view.stop()


def test_another_sites_topics_are_refused(make_broker, tmp_path):
    broker = make_broker(users=USERS, acl=ACL, extra=shipped_option("use_username_as_clientid"))
    raw = Raw(broker.host, broker.port, "demo/T01", USERS["demo/T01"])
    try:
        assert raw.publish("dealerbox/demo/T01/alert") < 0x80              # its own site and table
        for kind in ("status", "state", "event", "alert"):
            assert raw.publish(f"dealerbox/othersite/T01/{kind}") == 0x87
    finally:
        raw.close()
    # the terminal configured for another site with this site's identity: refused, and it says so
    link = FloorLink(link_config(tmp_path, broker.port, site="othersite", username="demo/T01",
                                 password_file=_password_file(tmp_path, "demo/T01")), reconnect_min=0.05).start()
    try:
        for u in hand_updates(1, FindingLog())[0]:
            link.submit(u)
        assert wait_until(lambda: link.health()["link"] == "refused", scaled(10))
        assert "dealerbox/othersite/T01/status" in link.health()["last_error"]
        assert wait_until(lambda: link.health()["outbox_depth"] > 0, scaled(5))    # kept for when the config is fixed
        assert link.health()["acked"] == 0
    finally:
        link.stop(timeout=scaled(0.3))


def test_the_floor_user_cannot_write_table_topics(make_broker):
    broker = make_broker(users=USERS, acl=ACL, extra=shipped_option("use_username_as_clientid"))
    raw = Raw(broker.host, broker.port, "floor", USERS["floor"])
    try:
        assert raw.publish("dealerbox/demo/T01/cmd") < 0x80                # commands are its job
        for kind in ("status", "state", "event", "alert", "holecards"):
            assert raw.publish(f"dealerbox/demo/T01/{kind}") == 0x87
    finally:
        raw.close()


@pytest.fixture
def identity_pki(tmp_path):
    """A floor CA, a broker certificate, and client certificates whose CN is the identity."""
    d = tmp_path / "pki"
    d.mkdir()
    ca_key = _key()
    ca_name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "dealerbox test floor CA")])
    srv_key, t01_key, floor_key = _key(), _key(), _key()
    return {
        "ca": _write(d / "ca.crt", _cert("dealerbox test floor CA", ca_key, ca_name, ca_key, ca=True)),
        "cert": _write(d / "broker.crt", _cert("127.0.0.1", srv_key, ca_name, ca_key, server=True)),
        "key": _write(d / "broker.key", key=srv_key),
        "t01_cert": _write(d / "t01.crt", _cert("demo/T01", t01_key, ca_name, ca_key)),
        "t01_key": _write(d / "t01.key", key=t01_key),
        "floor_cert": _write(d / "floor.crt", _cert("floor", floor_key, ca_name, ca_key)),
        "floor_key": _write(d / "floor.key", key=floor_key),
    }


def test_t01s_certificate_with_t02s_password_is_refused_as_t02(make_broker, identity_pki, tmp_path):
    pki = identity_pki
    broker = make_broker(users=USERS, acl=ACL,
                         tls={"ca": pki["ca"], "cert": pki["cert"], "key": pki["key"], "require": True},
                         extra="\n".join(shipped_option(o) for o in ("use_username_as_clientid",
                                                                     "use_identity_as_username")))
    view = FloorView(broker.host, broker.tls_port, "demo", username="floor", password="not used", tls=True,
                     ca_file=pki["ca"], cert_file=pki["floor_cert"], key_file=pki["floor_key"]).start()
    # configured as T02 with T02's username and password, but holding T01's certificate
    forger = FloorLink(link_config(tmp_path, broker.tls_port, table="T02", username="demo/T02",
                                   password_file=_password_file(tmp_path, "demo/T02"), tls=True, ca_file=pki["ca"],
                                   cert_file=pki["t01_cert"], key_file=pki["t01_key"]), reconnect_min=0.05).start()
    links = [forger]
    try:
        ups, _ = hand_updates(1, FindingLog())
        for u in ups:
            forger.submit(u)
        assert wait_until(lambda: forger.health()["link"] == "refused", scaled(10)), forger.health()
        assert "dealerbox/demo/T02/status" in forger.health()["last_error"]
        forger.stop(timeout=scaled(0.3))   # it would share T01's client id with the real T01 below (the same identity)
        # T01 with its own certificate (and no valid password at all) is T01
        t01 = FloorLink(link_config(tmp_path, broker.tls_port, username="demo/T01",
                                    password_file=_password_file(tmp_path, "demo/T01", "anything"), tls=True,
                                    ca_file=pki["ca"], cert_file=pki["t01_cert"], key_file=pki["t01_key"]),
                        reconnect_min=0.05).start()
        links.append(t01)
        for u in ups:
            t01.submit(u)
        assert view.wait_until(lambda v: "T01" in v.tables and len(v.events("T01")) == count_events(ups), scaled(10))
        time.sleep(0.3)
        assert "T02" not in view.tables and forger.health()["acked"] == 0
    finally:
        for link in links:
            link.stop(timeout=scaled(0.5))
        view.stop()
