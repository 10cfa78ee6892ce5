"""The floor keeps every signed head (issue 14): the dashboard files each anchor a table publishes (a real
mosquitto, the real subscriber), once each however often the broker redelivers the retained one, refuses
forged or misaddressed ones with a counter, and exports them as the file ``dealerbox verify --anchors`` reads,
which then proves a truncated log truncated."""

from __future__ import annotations

import dataclasses
import json

import paho.mqtt.publish as publish
import pytest

from dealerbox.cli import main
from dealerbox.dashboard.store import Store
from dealerbox.engine.inputs import DealerInput
from dealerbox.dashboard.anchors import AnchorStore
from dealerbox.record.anchor import anchor_message, anchor_topic
from dealerbox.record.logformat import Input, Rx
from dealerbox.record.recorder import Recorder
from dealerbox.record.signing import generate, load_public, load_signer
from tests.dashboard.conftest import Running, ShiftedClock
from tests.waiting import wait_until

from .test_evidence_signing import HEADER
from tests.conftest import scaled

pytestmark = pytest.mark.timeout(90)


def _log_with_every_anchor(tmp_path, hands: int = 3):
    """A signed log and the anchor payloads the floor link publishes: one per seal and one at the close."""
    private = tmp_path / "keys" / "table.key"
    public = generate(private)
    rec = Recorder(tmp_path / "logs", dataclasses.replace(HEADER), name="T01-who", signer=load_signer(private, "T01"))
    published = []
    rec.on_anchor = lambda a: published.append(anchor_message("demo", a))
    t = 0.0
    for hand in range(hands):
        for i in range(4):
            t += 1.0
            rec.write(Rx(t, bytes([hand, i]) * 8))
        rec.write(Input(DealerInput(t=t, action="new-hand")))
        rec.seal()
    rec.close()
    return rec, public, published


def _enrol(db: str, public) -> None:
    store = Store(db)
    AnchorStore(store).enrol("demo", "T01", load_public(public))
    store.close()


def _send(broker, topic: str, payload: bytes | str, retain: bool = True) -> None:
    publish.single(topic, payload, qos=1, retain=retain, hostname=broker.host, port=broker.port)


def test_the_dashboard_keeps_every_anchor_once_and_exports_what_verify_reads(broker, tmp_path, capsys):
    rec, public, published = _log_with_every_anchor(tmp_path)
    assert len({a["head"] for a in published}) == 4                # three hands and the close
    db = f"sqlite:///{tmp_path / 'floor.db'}"
    _enrol(db, public)
    running = Running(db, broker, ShiftedClock()).start()
    topic = anchor_topic("demo", "T01")
    try:
        for a in published:
            _send(broker, topic, json.dumps(a))
        _send(broker, topic, json.dumps(published[-1]))                    # the same head again
        _send(broker, topic, b"{not json", retain=False)
        forged = {**published[-1], "sig": "zz"}
        _send(broker, topic, json.dumps(forged), retain=False)
        _send(broker, anchor_topic("demo", "T02"), json.dumps(published[0]), retain=False)   # T01's on T02's topic
        assert wait_until(lambda: running.store.counters().get("invalid", 0) >= 3, scaled(10)), running.store.counters()
        assert wait_until(lambda: len(running.store.anchors("demo", "T01")) == 4, scaled(10))
        running.restart()                        # the broker hands the retained latest to the new subscription
        assert wait_until(lambda: running.dash.connected, scaled(10))
        _send(broker, topic, json.dumps(published[-1]))
        # a bad one behind them: once it is counted, the redeliveries before it have been filed (in order)
        _send(broker, topic, b"{not json either", retain=False)
        assert wait_until(lambda: running.store.counters().get("invalid", 0) >= 4, scaled(10)), running.store.counters()
    finally:
        running.stop()
    store = Store(db)
    try:
        kept = store.anchors("demo", "T01")
        assert kept == published                                           # as published, oldest first, once each
        assert store.anchors("demo", "T02") == [] and 2 in store.versions()
    finally:
        store.close()

    out = tmp_path / "T01-anchors.jsonl"
    assert main(["dashboard", "anchors", "--db", db, "--site", "demo", "--table", "T01", "--out", str(out)]) == 0
    assert "4 anchors written" in capsys.readouterr().out
    assert [json.loads(line) for line in out.read_text().splitlines()] == published
    assert main(["verify", str(rec.path), "--pubkey", str(public), "--anchors", str(out)]) == 0
    assert "4 anchors found" in capsys.readouterr().out

    # the box cuts the log after the second hand: the floor's copy says so, naming the anchored record
    lines = rec.path.read_text().splitlines(keepends=True)
    sigs = [i for i, line in enumerate(lines) if json.loads(line)["k"] == "sig"]
    rec.path.write_text("".join(lines[:sigs[1] + 1]))
    assert main(["verify", str(rec.path), "--pubkey", str(public), "--anchors", str(out)]) == 1
    assert "the log ends before the anchored head" in capsys.readouterr().out


def test_the_export_goes_to_standard_output_and_an_unwritable_file_is_one_clear_line(tmp_path, capsys):
    db = f"sqlite:///{tmp_path / 'floor.db'}"
    _, public, published = _log_with_every_anchor(tmp_path, hands=1)
    store = Store(db)
    with store.engine.begin() as conn:
        assert store.keep_anchor(conn, published[0], 1.0)
        assert not store.keep_anchor(conn, published[0], 2.0)
    store.close()
    assert main(["dashboard", "anchors", "--db", db]) == 0
    assert [json.loads(line) for line in capsys.readouterr().out.splitlines()] == published[:1]
    assert main(["dashboard", "anchors", "--db", db, "--out", str(tmp_path / "no" / "such" / "dir" / "a.jsonl")]) == 2
    err = capsys.readouterr().err
    assert "--out" in err and "a.jsonl" in err and "Traceback" not in err


def test_the_dashboard_map_shows_the_dealer_on_duty_from_the_table_s_state(broker, tmp_path):
    import httpx

    from dealerbox.dashboard import auth
    from dealerbox.pipeline import Pipeline
    from dealerbox.runtime.bus import Update
    from dealerbox.sinks.floor.link import FloorLink
    from dealerbox.tags import demo_registry
    from tests.dashboard.conftest import PASSWORD, login
    from tests.test_floor_contract import link_config

    db = f"sqlite:///{tmp_path / 'floor.db'}"
    store = Store(db)
    store.put_user("vic", "viewer", auth.hash_password(PASSWORD))
    store.close()
    running = Running(db, broker, ShiftedClock()).start()
    config = link_config(tmp_path, broker.port, table="W01")
    link = FloorLink(config, reconnect_min=0.05, reconnect_max=0.3).start()
    try:
        pipe = Pipeline(config, demo_registry())
        events = pipe.engine.apply(DealerInput(1.0, "sign-in", ref="badge", by="D17"))
        link.submit(Update(tuple(events), pipe.engine.snapshot(), {}))

        def on_map() -> bool:
            rows = [t for t in running.store.tables("demo") if t["table_id"] == "W01"]
            return bool(rows) and (rows[0]["state"] or {}).get("dealer") == "D17"
        assert wait_until(on_map, scaled(10))
        with httpx.Client(base_url=running.url) as c:
            login(c, "vic")
            assert "dealer D17" in c.get("/").text
    finally:
        link.stop()
        running.stop()
