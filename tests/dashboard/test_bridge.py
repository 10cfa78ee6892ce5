"""Two sites, each with its own mosquitto bridged (MQTT 5) to a central one, the dashboard on the central one
watching every site: alerts from both sites arrive, the per-site filter holds, an acknowledgement goes back to
the right site's table, and the retained status, the retained state and its expiry survive the bridge."""

from __future__ import annotations

import json
import queue
from pathlib import Path

import httpx
import paho.mqtt.client as mqtt
import pytest

from dealerbox.dashboard import auth
from dealerbox.dashboard.store import Store
from tests.fixtures.broker import Mosquitto
from tests.waiting import wait_until

from .conftest import PASSWORD, Running, ShiftedClock, csrf_of, login, scaled
from .tables import play_hand, start_table

pytestmark = pytest.mark.timeout(120)
BRIDGE = Path(__file__).parents[2] / "docs/mosquitto/bridge-site-to-central.conf"


def site_broker(directory: Path, site: str, central: Mosquitto) -> Mosquitto:
    """A site broker whose bridge block is the shipped file, with the site and the central address filled in."""
    block = BRIDGE.read_text().replace("SITE", site).replace("CENTRAL_HOST:1883", f"127.0.0.1:{central.port}")
    return Mosquitto(directory, extra=block).start()


def _subscribed(broker: Mosquitto, topic: str, topics: int) -> list:
    """What a new subscriber to ``topic`` receives until the first message of ``topics`` distinct topics (or a
    short while: a message the broker does not hold retained yet comes only live)."""
    got: queue.Queue = queue.Queue()
    seen: set[str] = set()
    client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, protocol=mqtt.MQTTv5)
    client.on_message = lambda c, u, m: (seen.add(m.topic), got.put(m))
    client.connect(broker.host, broker.port)
    client.subscribe(topic, qos=1)
    client.loop_start()
    wait_until(lambda: len(seen) >= topics, scaled(2))
    client.loop_stop()
    client.disconnect()
    return [got.get() for _ in range(got.qsize())]


def _retained(broker: Mosquitto, topic: str, topics: int) -> list:
    """What a new subscriber to ``topic`` receives, once the broker holds a retained message on ``topics`` distinct
    topics (the bridge may still be carrying one over: a subscriber before it gets it only live)."""
    seen: list = []

    def held() -> bool:
        seen[:] = _subscribed(broker, topic, topics)
        firsts = {m.topic: m for m in reversed(seen)}    # the first message on each topic
        return len(firsts) >= topics and all(m.retain for m in firsts.values())

    assert wait_until(held, scaled(15)), [(m.topic, m.retain) for m in seen]
    return seen


def test_two_sites_bridged_to_one_dashboard(tmp_path):
    central = Mosquitto(tmp_path / "central").start()
    north = site_broker(tmp_path / "north", "north", central)
    south = site_broker(tmp_path / "south", "south", central)
    db = f"sqlite:///{tmp_path / 'central.db'}"
    store = Store(db)
    store.put_user("sam", "supervisor", auth.hash_password(PASSWORD))
    store.close()
    dash = Running(db, central, ShiftedClock()).start()
    n1 = start_table(tmp_path / "n", north, "N01", site="north")
    s1 = start_table(tmp_path / "s", south, "S01", site="south")
    try:
        play_hand(n1, 1)
        play_hand(s1, 2)
        assert wait_until(lambda: {(a.site, a.table_id) for a in dash.store.alerts()} ==
                          {("north", "N01"), ("south", "S01")}, scaled(15)), dash.store.alerts()
        # retained status and state crossed the bridge retained, with the state's expiry still on it
        seen = _retained(central, "dealerbox/+/+/state", 2)
        # the first message per topic on subscribing is the retained one; a table may publish live ones after it
        states = [next(m for m in seen if m.topic == t) for t in dict.fromkeys(m.topic for m in seen)]
        assert {m.topic for m in states} == {"dealerbox/north/N01/state", "dealerbox/south/S01/state"}
        assert all(m.retain for m in states)
        assert all(0 < m.properties.MessageExpiryInterval <= 300 for m in states)
        assert all(("schema", "dealerbox.floor.state/1") in m.properties.UserProperty for m in states)
        statuses = _retained(central, "dealerbox/+/+/status", 2)
        assert {json.loads(m.payload)["status"] for m in statuses} == {"online"} and len(statuses) == 2
        with httpx.Client(base_url=dash.url) as c:
            login(c, "sam")
            north_only = c.get("/alerts?site=north").text
            assert "north/N01" in north_only and "south/S01" not in north_only
            assert "N01" in c.get("/?site=north").text and "S01" not in c.get("/?site=north").text
            south_alert = dash.store.alerts(site="south")[0]
            r = c.post(f"/alerts/{south_alert.id}/ack", headers={"x-csrf-token": csrf_of(c)})
            assert r.status_code == 200, r.text
        cmd = s1.commands.get(timeout=scaled(10))                 # down the south bridge to the south table ...
        assert (cmd.cmd, cmd.finding, cmd.sender) == ("ack", south_alert.finding, "dashboard:sam")
        with pytest.raises(queue.Empty):
            n1.commands.get(timeout=scaled(1.0))                   # ... and never to the north one
    finally:
        n1.stop()
        s1.stop()
        dash.stop()
        for b in (north, south, central):
            b.stop()
