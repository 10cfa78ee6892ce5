"""Evidence that leaves the table (issue 14), with a real mosquitto: the signed head the floor link publishes
retained on ``.../anchor`` and ``verify --from-floor`` reading it back. A reveal of hole cards needs the floor's
private key, not a PIN, and is journalled and sent to the floor on ``.../audit``: tests/security/test_sealing.py."""

from __future__ import annotations

import json
import threading
from pathlib import Path

import paho.mqtt.client as mqtt
import pytest

from dealerbox.cli import main
from dealerbox.config import Config, load
from dealerbox.pipeline import Pipeline
from dealerbox.record.anchor import anchor_errors, anchor_topic
from dealerbox.runtime.bus import Update
from dealerbox.sinks.floor.link import FloorLink
from dealerbox.tags import demo_registry
from tests.waiting import wait_until

from .test_evidence_signing import _signed_log, keys  # noqa: F401 - the key pair fixture

SCHEMAS = Path(__file__).resolve().parents[2] / "dealerbox" / "schemas" / "floor"


def _listen(broker, topic: str) -> list[tuple[dict, bool]]:
    got: list[tuple[dict, bool]] = []
    ready = threading.Event()
    client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, protocol=mqtt.MQTTv5)
    client.on_connect = lambda c, u, f, rc, p: (c.subscribe(topic, qos=1), ready.set())
    client.on_message = lambda c, u, m: got.append((json.loads(m.payload), bool(m.retain)))
    client.connect(broker.host, broker.port)
    client.loop_start()
    assert ready.wait(5)
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


def test_the_floor_link_publishes_the_signed_head_retained_and_verify_reads_it_back(broker, tmp_path, keys, capsys):
    rec = _signed_log(tmp_path, keys)
    cfg_path = _config(tmp_path, broker)
    config = load(cfg_path)
    link = FloorLink(config, reconnect_min=0.05, reconnect_max=0.3).start()
    try:
        pipe = Pipeline(Config(), demo_registry())
        link.submit(Update((), pipe.engine.snapshot(), {"recorder": rec.health()}))
        late = []
        assert wait_until(lambda: link.health()["states_published"] >= 1, 10)
        late = _listen(broker, anchor_topic("demo", "T01"))    # a subscriber that comes later still gets it
        assert wait_until(lambda: late, 10)
    finally:
        link.stop(timeout=2)
    payload, retained = late[0]
    assert retained and anchor_errors(payload) == []
    assert (payload["part"], payload["n"], payload["head"]) == (rec.anchor["part"], rec.anchor["n"],
                                                                  rec.anchor["head"])
    assert main(["verify", str(rec.path), "--pubkey", str(keys[1]), "--config", str(cfg_path),
                 "--from-floor", f"{broker.host}:{broker.port}"]) == 0
    assert "1 anchors found" in capsys.readouterr().out
    # the box's copy cut back to the second hand: the floor's anchor proves the cut
    lines = rec.path.read_text().splitlines(keepends=True)
    sigs = [i for i, line in enumerate(lines) if '"k":"sig"' in line]
    rec.path.write_text("".join(lines[:sigs[1] + 1]))
    assert main(["verify", str(rec.path), "--pubkey", str(keys[1]), "--config", str(cfg_path),
                 "--from-floor", f"{broker.host}:{broker.port}"]) == 1
    assert "the log ends before the anchored head" in capsys.readouterr().out


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
