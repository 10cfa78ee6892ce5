"""Security against a real mosquitto: per-table credentials and the ACL of docs/mosquitto/acl, refused
credentials, the restricted hole-card topic, and TLS with a CA made by the test."""

from __future__ import annotations

import datetime
import ipaddress
import json
import time

import paho.mqtt.client as mqtt
import pytest
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID

from dealerbox.engine.findings import FindingLog
from dealerbox.sinks.floor import contract as c
from dealerbox.sinks.floor.link import FloorLink
from dealerbox.sinks.floor.view import FloorView

from .test_floor_contract import ROOT, assert_no_hole_cards, count_events, hand_updates, link_config
from tests.waiting import wait_until
from tests.conftest import scaled

pytestmark = pytest.mark.timeout(90)

USERS = {"demo/T01": "pw-t01", "demo/T02": "pw-t02", "floor": "pw-floor", "broadcast": "pw-bc"}




def _password_file(tmp_path, user: str, password: str | None = None):
    path = tmp_path / f"{user.replace('/', '-')}.pw"
    path.write_text((password or USERS[user]) + "\n")
    return str(path)


class Raw:
    """A bare MQTT 5 client for the things dealerbox itself would never do."""

    def __init__(self, broker, user: str, password: str | None = None, port: int | None = None) -> None:
        self.acks: dict[int, int] = {}
        self.got: list[tuple[str, bytes]] = []
        self.client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, protocol=mqtt.MQTTv5)
        self.client.username_pw_set(user, password or USERS[user])
        self.client.on_publish = lambda cl, u, mid, rc, p: self.acks.__setitem__(mid, rc.value)
        self.client.on_message = lambda cl, u, m: self.got.append((m.topic, m.payload))
        self.subacks: set[int] = set()
        self.client.on_subscribe = lambda cl, u, mid, codes, p: self.subacks.add(mid)
        self.client.connect(broker.host, port or broker.port)
        self.client.loop_start()

    def subscribe(self, topic: str) -> None:
        """Subscribes and waits for the broker's SUBACK (granted or refused), so what follows is after it."""
        _, mid = self.client.subscribe(topic, qos=1)
        assert wait_until(lambda: mid in self.subacks, scaled(5)), f"no SUBACK for {topic}"

    def publish(self, topic: str, payload: bytes) -> int:
        info = self.client.publish(topic, payload, qos=1)
        assert wait_until(lambda: info.mid in self.acks, scaled(5)), f"no PUBACK for {topic}"
        return self.acks[info.mid]

    def close(self) -> None:
        self.client.disconnect()
        self.client.loop_stop()


@pytest.fixture
def secured(make_broker):
    return make_broker(users=USERS, acl=(ROOT / "docs/mosquitto/acl").read_text())


def test_acl_a_table_writes_only_its_own_topics_and_the_floor_reads_all(secured, tmp_path):
    floor = FloorView(secured.host, secured.port, "demo", username="floor", password=USERS["floor"]).start()
    t01 = FloorLink(link_config(tmp_path, secured.port, username="demo/T01",
                                password_file=_password_file(tmp_path, "demo/T01")), reconnect_min=0.05).start()
    raw = Raw(secured, "demo/T01")
    try:
        ups, _ = hand_updates(1, FindingLog())
        for u in ups:
            t01.submit(u)
        assert floor.wait_until(lambda v: "T01" in v.tables and len(v.events("T01")) == count_events(ups), scaled(10))
        assert t01.health()["publish_refused"] == 0
        # T01 pretending to be T02: the broker answers "Not authorized" (0x87) and nobody receives it
        forged = json.dumps(c.status_payload(c.Envelope("demo", "T02", "x"), "online", "birth", 0, 1)).encode()
        for kind in ("status", "event", "alert", "state"):
            assert raw.publish(f"dealerbox/demo/T02/{kind}", forged) == 0x87
        assert raw.publish("dealerbox/demo/T01/cmd", b"{}") == 0x87          # a table cannot command itself
        assert raw.publish("dealerbox/demo/T01/holecards", b"{}") < 0x80      # T01 is authorised for these
        assert raw.publish("dealerbox/demo/T01/event", b"{}") < 0x80         # its own topics are fine
        time.sleep(0.3)
        assert "T02" not in floor.tables
        # the floor commands T01 (allowed) and T01's link takes it
        finding = floor.tables["T01"].alerts[0]["finding"]["id"]
        floor.ack("T01", finding)
        assert t01.commands.get(timeout=scaled(5)).finding == finding
        # T01 cannot read T02's commands
        raw.subscribe("dealerbox/demo/T02/cmd")
        floor.ack("T02", "h1-1")
        time.sleep(0.3)
        assert not [t for t, _ in raw.got if "T02" in t]
    finally:
        raw.close()
        t01.stop(timeout=scaled(1))
        floor.stop()


def test_a_misconfigured_table_id_is_refused_by_the_acl_and_says_so(secured, tmp_path):
    # The terminal's config says T02 but it logs in as T01: every publish is refused, nothing is lost.
    link = FloorLink(link_config(tmp_path, secured.port, table="T02", username="demo/T01",
                                 password_file=_password_file(tmp_path, "demo/T01")), reconnect_min=0.05).start()
    try:
        for u in hand_updates(1, FindingLog())[0]:
            link.submit(u)
        assert wait_until(lambda: link.health()["link"] == "refused", scaled(10))
        # the refusal can come before the spooler has written the hand: wait for it to be kept
        assert wait_until(lambda: link.health()["outbox_depth"] > 0, scaled(10))
        h = link.health()
        assert "ACL" in h["last_error"] and "'demo/T01'" in h["last_error"]
        assert "dealerbox/demo/T02/status" in h["last_error"]
        assert h["outbox_depth"] > 0 and h["acked"] == 0 and h["published"] == 0   # kept, not sent into a void
        assert h["connects"] <= 2   # and it does not hammer the broker (slow retry after a refusal)
    finally:
        link.stop(timeout=scaled(0.5))


def test_refused_credentials_give_a_clear_message_and_keep_spooling(secured, tmp_path):
    link = FloorLink(link_config(tmp_path, secured.port, username="demo/T01",
                                 password_file=_password_file(tmp_path, "demo/T01", "wrong")),
                     reconnect_min=0.05, reconnect_max=0.2).start()
    try:
        ups, _ = hand_updates(1, FindingLog())
        for u in ups:
            link.submit(u)
        assert wait_until(lambda: link.health()["link"] == "refused", scaled(10))
        assert wait_until(lambda: link.health()["outbox_depth"] == count_events(ups) + 1, scaled(10))
        h = link.health()
        assert f"{secured.host}:{secured.port}" in h["last_error"]
        assert "floor.password_file" in h["last_error"] and h["connect_failures"] >= 1 and not h["connected"]
    finally:
        link.stop(timeout=scaled(0.2))
    missing = FloorLink(link_config(tmp_path, secured.port, username="demo/T01",
                                    password_file=str(tmp_path / "nope.pw")), reconnect_min=0.05).start()
    try:
        assert wait_until(lambda: missing.health()["link"] == "config-error", scaled(5))
        assert "nope.pw" in missing.health()["last_error"]
    finally:
        missing.stop(timeout=scaled(0.2))


def test_hole_cards_only_on_the_restricted_topic_and_only_for_broadcast(secured, tmp_path):
    snoop = Raw(secured, "floor")
    snoop.subscribe("dealerbox/#")          # the floor tries to see everything
    bc = Raw(secured, "broadcast")
    bc.subscribe("dealerbox/demo/+/holecards")
    link = FloorLink(link_config(tmp_path, secured.port, username="demo/T01", hole_cards_topic=True,
                                 password_file=_password_file(tmp_path, "demo/T01")), reconnect_min=0.05).start()
    try:
        fl = FindingLog()
        ups, hole = hand_updates(1, fl)
        public = {e.card for u in ups for e in u.events if e.kind == "BoardCardDealt"}
        for u in ups:
            link.submit(u)
        secret_events = sum(1 for u in ups for e in u.events if e.SECRET_FIELDS)
        assert wait_until(lambda: len(bc.got) == secret_events, scaled(10)), (len(bc.got), secret_events)
        assert wait_until(lambda: any(t.endswith("/alert") for t, _ in snoop.got), scaled(5))
        time.sleep(0.3)
        assert not [t for t, _ in snoop.got if t.endswith("/holecards")]
        assert_no_hole_cards(snoop.got, hole - public)
        dealt = set()
        for _t, raw in bc.got:
            p = json.loads(raw)
            c.validate("holecards", p)
            dealt.add(p["data"]["card"])
        assert {x for x in dealt if x} == hole   # every hole and burn card, revealed, only here
    finally:
        link.stop(timeout=scaled(1))
        snoop.close()
        bc.close()


# --- TLS -------------------------------------------------------------------------------------------

def _key():
    return ec.generate_private_key(ec.SECP256R1())


def _cert(subject: str, key, issuer_name, issuer_key, ca: bool = False, server: bool = False):
    now = datetime.datetime.now(datetime.UTC)
    b = (x509.CertificateBuilder().subject_name(x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, subject)]))
         .issuer_name(issuer_name).public_key(key.public_key()).serial_number(x509.random_serial_number())
         .not_valid_before(now - datetime.timedelta(minutes=5)).not_valid_after(now + datetime.timedelta(days=1))
         .add_extension(x509.BasicConstraints(ca=ca, path_length=None), critical=True))
    if server:
        b = b.add_extension(x509.SubjectAlternativeName([x509.DNSName("localhost"),
                                                         x509.IPAddress(ipaddress.ip_address("127.0.0.1"))]), False)
    return b.sign(issuer_key, hashes.SHA256())


def _write(path, cert=None, key=None):
    if cert is not None:
        path.write_bytes(cert.public_bytes(serialization.Encoding.PEM))
    else:
        path.write_bytes(key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                           serialization.NoEncryption()))
    return str(path)


@pytest.fixture
def pki(tmp_path):
    """A throwaway floor CA, a broker certificate for 127.0.0.1 and a client certificate for table T01."""
    d = tmp_path / "pki"
    d.mkdir()
    ca_key = _key()
    ca_name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "dealerbox test floor CA")])
    ca = _cert("dealerbox test floor CA", ca_key, ca_name, ca_key, ca=True)
    srv_key, cli_key, other_key = _key(), _key(), _key()
    other_ca = _cert("someone else", other_key, x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "someone else")]),
                     other_key, ca=True)
    return {
        "ca": _write(d / "ca.crt", ca), "other_ca": _write(d / "other.crt", other_ca),
        "cert": _write(d / "broker.crt", _cert("127.0.0.1", srv_key, ca_name, ca_key, server=True)),
        "key": _write(d / "broker.key", key=srv_key),
        "client_cert": _write(d / "t01.crt", _cert("demo/T01", cli_key, ca_name, ca_key)),
        "client_key": _write(d / "t01.key", key=cli_key),
    }


def test_tls_with_client_certificates_and_a_wrong_ca_is_refused(make_broker, pki, tmp_path):
    broker = make_broker(users=USERS, acl=(ROOT / "docs/mosquitto/acl").read_text(),
                         tls={"ca": pki["ca"], "cert": pki["cert"], "key": pki["key"], "require": True})
    view = FloorView(broker.host, broker.tls_port, "demo", username="floor", password=USERS["floor"], tls=True,
                     ca_file=pki["ca"], cert_file=pki["client_cert"], key_file=pki["client_key"]).start()
    link = FloorLink(link_config(tmp_path, broker.tls_port, username="demo/T01",
                                 password_file=_password_file(tmp_path, "demo/T01"),
                                 tls=True, ca_file=pki["ca"], cert_file=pki["client_cert"], key_file=pki["client_key"]),
                     reconnect_min=0.05).start()
    wrong = FloorLink(link_config(tmp_path, broker.tls_port, table="T02", username="demo/T02",
                                  password_file=_password_file(tmp_path, "demo/T02"), tls=True, ca_file=pki["other_ca"],
                                  cert_file=pki["client_cert"], key_file=pki["client_key"]), reconnect_min=0.05).start()
    try:
        ups, hole = hand_updates(2, FindingLog())
        for u in ups:
            link.submit(u)
        assert view.wait_until(lambda v: "T01" in v.tables and len(v.events("T01")) == count_events(ups), scaled(10))
        assert link.health()["connected"]
        for _t, payload, _r, _p in list(view.messages):
            c.validate(c.parse_topic(_t)[2], payload)
        assert wait_until(lambda: "certificate verify failed" in wrong.health()["last_error"],
                          scaled(10)), wrong.health()
        assert not wrong.health()["connected"]
    finally:
        link.stop(timeout=scaled(1))
        wrong.stop(timeout=scaled(0.2))
        view.stop()
