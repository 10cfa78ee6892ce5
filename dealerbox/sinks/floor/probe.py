"""What this terminal's identity may and may not publish, asked of the real broker (``dealerbox doctor``).

One connection made exactly as the link makes it (same client id, credentials and TLS), then one QoS 1 publish
per topic and its PUBACK reason code read back. Probes are empty, never retained, and carry the user property
``dealerbox-probe``, so they replace no retained status or state. Because the broker ties the client id to the
identity, the probe's connection takes over the running terminal's for a moment: the link reconnects and
resends from its outbox, nothing is lost.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass

import paho.mqtt.client as mqtt
from paho.mqtt.packettypes import PacketTypes
from paho.mqtt.properties import Properties

from ...config import Config
from . import contract as c
from .outbox import OutboxError
from .security import client_id, configure_security

PROBE_TIMEOUT_S = 5.0


@dataclass(frozen=True, slots=True)
class Probe:
    topic: str
    should: bool          # what a correct broker set-up answers: True may publish, False must be refused
    allowed: bool | None  # what the broker answered; None when it did not answer
    reason: str

    @property
    def ok(self) -> bool:
        return self.allowed is self.should


def probe_topics(site: str, table: str, hole_cards: bool) -> list[tuple[str, bool]]:
    """Own topics (allowed), and the ones a table must never be able to write."""
    own = [(c.topic(site, table, kind), True) for kind in ("status", "state", "event", "alert")]
    own.append((c.topic(site, table, "holecards"), hole_cards))
    other_table = "T99" if table != "T99" else "T98"
    other_site = "othersite" if site != "othersite" else "elsewhere"
    return own + [
        (c.topic(site, table, "cmd"), False),                 # a table cannot command itself
        (c.topic(site, other_table, "alert"), False),          # nor write as another table
        (c.topic(other_site, table, "alert"), False),          # nor under another site
    ]


class _Answers:
    def __init__(self) -> None:
        self.cond = threading.Condition()
        self.connack: tuple[bool, str] | None = None
        self.acks: dict[int, tuple[bool, str]] = {}
        self.gone = False

    def on_connect(self, client, userdata, flags, reason_code, properties) -> None:
        with self.cond:
            self.connack = (not reason_code.is_failure, str(reason_code))
            self.cond.notify_all()

    def on_publish(self, client, userdata, mid, reason_code, properties) -> None:
        with self.cond:
            self.acks[mid] = (not reason_code.is_failure, str(reason_code))
            self.cond.notify_all()

    def on_disconnect(self, client, userdata, flags, reason_code, properties) -> None:
        with self.cond:
            self.gone = True
            self.cond.notify_all()


def _properties() -> Properties:
    props = Properties(PacketTypes.PUBLISH)
    props.UserProperty = [("dealerbox-probe", "doctor")]
    return props


def _connect(config: Config, answers: _Answers, timeout: float) -> tuple[mqtt.Client | None, str]:
    fc = config.floor
    where = f"{fc.host}:{fc.port}"
    client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id=client_id(config.table.site, config.table.id),
                         protocol=mqtt.MQTTv5)
    try:
        configure_security(client, fc.username, fc.password_file, fc.tls, fc.ca_file, fc.cert_file, fc.key_file)
    except OutboxError as e:
        return None, f"cannot build the client: {e}"
    client.on_connect, client.on_publish = answers.on_connect, answers.on_publish
    client.on_disconnect = answers.on_disconnect
    try:
        client.connect(fc.host, fc.port, keepalive=15)
    except (OSError, ValueError) as e:
        return None, f"cannot reach the floor broker {where}: {e}"
    client.loop_start()
    with answers.cond:
        answers.cond.wait_for(lambda: answers.connack is not None or answers.gone, timeout)
        connack = answers.connack
    if connack is None or not connack[0]:
        client.disconnect()
        client.loop_stop()
        why = connack[1] if connack else "no answer"
        return None, (f"the floor broker {where} refused user {fc.username!r}: {why} (check floor.username, "
                      f"floor.password_file and the client certificate)")
    return client, f"connected to {where} as {fc.username or '(no username)'}"


def probe_identity(config: Config, timeout: float = PROBE_TIMEOUT_S) -> tuple[str, list[Probe]]:
    """(how the connection went, one :class:`Probe` per topic); no probes when the broker would not connect.
    One connection serves every probe (a broker that drops a client after a refusal gets a new one)."""
    probes: list[Probe] = []
    answers = _Answers()
    client, outcome = _connect(config, answers, timeout)
    if client is None:
        return outcome, []
    try:
        for topic, should in probe_topics(config.table.site, config.table.id, config.floor.hole_cards_topic):
            if answers.gone:
                client.loop_stop()
                answers = _Answers()
                client, again = _connect(config, answers, timeout)
                if client is None:
                    return again, probes
            info = client.publish(topic, b"", qos=1, retain=False, properties=_properties())
            with answers.cond:
                # bound now (defaults): the predicate must not read a later pass's answers
                def answered(mid: int = info.mid, now: _Answers = answers) -> bool:
                    return mid in now.acks or now.gone
                answers.cond.wait_for(answered, timeout)
                answer = answers.acks.get(info.mid)
            if answer is None:
                probes.append(Probe(topic, should, False if answers.gone else None,
                                    "connection closed (refused)" if answers.gone else "no answer"))
            else:
                probes.append(Probe(topic, should, answer[0], answer[1]))
    finally:
        if client is not None:  # None when a reconnection failed: nothing left to close
            client.disconnect()
            client.loop_stop()
    return outcome, probes
