"""A review replay never poses as the live table (issue 14), against a real mosquitto: ``run --replay`` does
not connect to the floor at all; with ``--review-floor`` it publishes only under review/dealerbox/..., every
payload says ``replayed: true``, nothing is retained, and the live table's retained state is untouched."""

from __future__ import annotations

import json
import time

import paho.mqtt.client as mqtt
import pytest

from dealerbox.sinks.floor import contract as c
from tests.test_terminal import ROOT, _run
from tests.waiting import wait_until
from tests.conftest import scaled

pytestmark = pytest.mark.timeout(180)

SCENARIO = ROOT / "tests" / "scenarios" / "misdeal-boxed-cards.scn"
LIVE_STATE = b'{"live": "the table as it is now"}'


class Listener:
    """Everything on the broker, live and review, with its retain flag."""

    def __init__(self, broker) -> None:
        self.got: list[tuple[str, bytes, bool]] = []
        self.client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, protocol=mqtt.MQTTv5)
        self.client.on_message = lambda cl, u, m: self.got.append((m.topic, bytes(m.payload), m.retain))
        self.client.connect(broker.host, broker.port)
        self.client.subscribe("#", qos=1)
        self.client.loop_start()

    def close(self) -> None:
        self.client.disconnect()
        self.client.loop_stop()


def _config(tmp_path, port: int) -> str:
    path = tmp_path / "t.toml"
    path.write_text(f'[floor]\nport = {port}\noutbox = "{tmp_path / "outbox.sqlite"}"\n')
    return str(path)


def _seed_live_state(broker, table: str) -> None:
    """The live table's retained state, as its running terminal left it."""
    client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, protocol=mqtt.MQTTv5)
    client.connect(broker.host, broker.port)
    client.loop_start()
    client.publish(c.topic("demo", table, "state"), LIVE_STATE, qos=1, retain=True).wait_for_publish(scaled(5))
    client.disconnect()
    client.loop_stop()


def test_a_replay_does_not_connect_to_the_floor_by_default(broker, tmp_path):
    listener = Listener(broker)
    try:
        r = _run(["--config", _config(tmp_path, broker.port), "run", "--replay", str(SCENARIO), "--speed", "0",
                  "--jsonl"], tmp_path)
        assert r.returncode == 0, r.stderr
        assert "floor off" in r.stderr
        time.sleep(0.3)
        assert listener.got == []
        assert broker.log().count("New client connected") == 1    # the listener only
        assert not (tmp_path / "outbox.sqlite").exists()
    finally:
        listener.close()


def test_review_floor_publishes_only_under_review_replayed_and_never_retained(broker, tmp_path):
    _seed_live_state(broker, "T01")
    listener = Listener(broker)
    try:
        assert wait_until(lambda: len(listener.got) == 1,
                          scaled(5))      # the live retained state, as seen on subscribe
        r = _run(["--config", _config(tmp_path, broker.port), "run", "--replay", str(SCENARIO), "--speed", "0",
                  "--jsonl", "--review-floor"], tmp_path)
        assert r.returncode == 0, r.stderr
        events = sum(1 for line in r.stdout.splitlines() if json.loads(line))
        assert wait_until(lambda: sum(1 for t, _, _ in listener.got if t.endswith("/event")) >= events, scaled(10))
        review = [(t, p, retained) for t, p, retained in listener.got if not t.startswith("dealerbox/")]
        live = [(t, p) for t, p, _ in listener.got if t.startswith("dealerbox/")]
        assert live == [(c.topic("demo", "T01", "state"), LIVE_STATE)]   # nothing new on the live topics
        kinds = {t.rsplit("/", 1)[1] for t, _, _ in review}
        assert {"status", "state", "event"} <= kinds and "holecards" not in kinds
        for t, payload, retained in review:
            assert t.startswith("review/dealerbox/demo/") and not retained
            assert json.loads(payload)["replayed"] is True, t
    finally:
        listener.close()
    # a floor view that subscribes afterwards finds the live state untouched and no review leftovers
    late = Listener(broker)
    try:
        assert wait_until(lambda: len(late.got) >= 1, scaled(5))
        time.sleep(0.3)
        assert [(t, p) for t, p, _ in late.got] == [(c.topic("demo", "T01", "state"), LIVE_STATE)]
        assert (tmp_path / "outbox-review.sqlite").exists() and not (tmp_path / "outbox.sqlite").exists()
    finally:
        late.close()


def test_the_shipped_acl_lets_a_table_show_a_review_and_the_floor_read_it(make_broker, tmp_path):
    from dealerbox.engine.findings import FindingLog
    from dealerbox.sinks.floor.link import FloorLink
    from tests.test_floor_contract import count_events, hand_updates, link_config
    from tests.test_floor_security import USERS, _password_file

    broker = make_broker(users=USERS, acl=(ROOT / "docs/mosquitto/acl").read_text(),
                         extra="use_username_as_clientid true")
    floor = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, protocol=mqtt.MQTTv5)
    got: list[str] = []
    floor.on_message = lambda cl, u, m: got.append(m.topic)
    subacks: list[int] = []
    floor.on_subscribe = lambda cl, u, mid, codes, p: subacks.append(mid)
    floor.username_pw_set("floor", USERS["floor"])
    floor.connect(broker.host, broker.port)
    floor.subscribe("review/dealerbox/demo/+/+", qos=1)
    floor.loop_start()
    assert wait_until(lambda: subacks, scaled(5))     # subscribed before the table publishes
    link = FloorLink(link_config(tmp_path, broker.port, username="demo/T01",
                                 password_file=_password_file(tmp_path, "demo/T01")), review=True,
                     reconnect_min=0.05).start()
    try:
        ups, _ = hand_updates(1, FindingLog())
        for u in ups:
            link.submit(u)
        assert wait_until(lambda: sum(t.endswith("/event") for t in got) == count_events(ups), scaled(10))
        assert wait_until(lambda: link.health()["acked"] >= count_events(ups), scaled(5))   # PUBACKs may trail delivery
        h = link.health()
        assert h["publish_refused"] == 0 and h["connects"] == 1
        assert all(t.startswith("review/dealerbox/demo/T01/") for t in got)
    finally:
        link.stop(timeout=scaled(1))
        floor.disconnect()
        floor.loop_stop()
