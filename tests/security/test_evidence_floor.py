"""Evidence that leaves the table (issues 14, 29), with a real mosquitto: every signed head the floor link sends
through its outbox on ``.../anchor``, in order, naming the log's identity. A reveal of hole cards needs the floor's
private key, not a PIN, and is journalled and sent to the floor on ``.../audit``: tests/security/test_sealing.py."""

from __future__ import annotations

import json
import threading
from pathlib import Path

import paho.mqtt.client as mqtt
import pytest

from dealerbox.cli import main
from dealerbox.config import load
from dealerbox.record.anchor import anchor_errors, anchor_topic
from dealerbox.sinks.floor.link import FloorLink
from tests.waiting import wait_until

from .test_evidence_signing import _signed_log, keys  # noqa: F401 - the key pair fixture
from tests.conftest import scaled

SCHEMAS = Path(__file__).resolve().parents[2] / "dealerbox" / "schemas" / "floor"   # test_sealing.py reads it


def _listen(broker, topic: str) -> list[tuple[dict, bool]]:
    got: list[tuple[dict, bool]] = []
    ready = threading.Event()
    client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, protocol=mqtt.MQTTv5)
    client.on_connect = lambda c, u, f, rc, p: (c.subscribe(topic, qos=1), ready.set())
    client.on_message = lambda c, u, m: got.append((json.loads(m.payload), bool(m.retain)))
    client.connect(broker.host, broker.port)
    client.loop_start()
    assert ready.wait(scaled(5))
    got.append(({}, False))   # a marker dropped below: the list object is what the caller polls
    got.pop()
    _listen.clients.append(client)
    return got


_listen.clients = []


@pytest.fixture(autouse=True)
def _stop_listeners():
    yield
    while _listen.clients:
        c = _listen.clients.pop()
        c.loop_stop()
        c.disconnect()


def _config(tmp_path, broker, **audit) -> Path:
    cfg = tmp_path / "t.toml"
    sup = ", ".join(f'{k} = "{v}"' for k, v in audit.items())
    cfg.write_text(f'[table]\nid = "T01"\nsite = "demo"\n[floor]\nhost = "{broker.host}"\nport = {broker.port}\n'
                   f'outbox = "{tmp_path / "o.sqlite"}"\n[audit]\njournal = "{tmp_path / "audit.jsonl"}"\n'
                   f'supervisors = {{ {sup} }}\n')
    return cfg


def test_the_floor_link_sends_every_signed_head_in_order_through_its_outbox(broker, tmp_path, keys):  # noqa: F811 - keys is the fixture imported above
    cfg_path = _config(tmp_path, broker)
    config = load(cfg_path)
    heard = _listen(broker, anchor_topic("demo", "T01"))
    link = FloorLink(config, reconnect_min=0.05, reconnect_max=0.3).start()
    handed: list[dict] = []
    try:
        rec = _signed_log(tmp_path, keys, on_anchor=lambda a: (handed.append(a), link.submit_anchor(a)))
        assert wait_until(lambda: len(heard) == len(handed) == 4, scaled(10))      # three hands and the close
        assert wait_until(lambda: link.anchor_acked is not None and link.anchor_acked["a"] == 4, scaled(10))
    finally:
        link.stop(timeout=scaled(2))
    for (payload, retained), mine in zip(heard, handed, strict=True):
        assert not retained and anchor_errors(payload) == []              # all of them, not the latest retained
        assert (payload["a"], payload["head"], payload["log"]) == (mine["a"], mine["head"], mine["log"])
        assert "file" not in payload                                      # an identity, never a file name
    assert link.anchor_acked["file"] == rec.path.name                     # retention still finds the file


@pytest.fixture(scope="module")
def sim_log(tmp_path_factory) -> str:
    out = tmp_path_factory.mktemp("sim") / "sim.jsonl"
    assert main(["simulate", "--hands", "2", "--seed", "5", "--out", str(out)]) == 0
    return str(out)


def test_replay_without_reveal_still_masks_hole_cards(sim_log, capsys):
    assert main(["replay", "--jsonl", sim_log]) == 0
    dealt = [json.loads(line) for line in capsys.readouterr().out.splitlines() if '"CardDealt"' in line]
    assert dealt and not any(e.get("card") for e in dealt)


def test_a_scenario_script_reveals_without_a_pin_its_cards_are_in_its_own_text(capsys):
    scenario = Path(__file__).resolve().parents[1] / "scenarios" / "clean-hand.scn"
    assert main(["replay", "--jsonl", str(scenario), "--reveal-hole-cards"]) == 0
    dealt = [json.loads(line) for line in capsys.readouterr().out.splitlines() if '"CardDealt"' in line]
    assert dealt and all(e.get("card") for e in dealt)
