"""The dashboard meeting many tables at once (a start, or a broker restart, issue 15): alerts are filed ahead
of states, a table's status and state make one tile push, and the tile pushed is the one the ingest holds."""

from __future__ import annotations

import json
import threading

import paho.mqtt.client as mqtt

from dealerbox.dashboard.floor import FloorIngest
from dealerbox.dashboard.store import Store
from dealerbox.dashboard.subscriber import BrokerSettings, Subscriber
from dealerbox.sinks.floor import contract as c

from .tables import alert_bytes


def _envelope(table: str, kind: str, seq: int, **body) -> bytes:
    return json.dumps({"v": 1, "kind": kind, "site": "s1", "table": table, "boot": "b" + table, "seq": seq,
                       "t": 1.0, "at": 1.0, "replayed": False, **body}).encode()


def _status(table: str) -> tuple[str, bytes]:
    return f"dealerbox/s1/{table}/status", _envelope(table, "status", 0, status="online", reason="birth")


def _state(table: str, seq: int = 1, phase: str = "flop") -> tuple[str, bytes]:
    return f"dealerbox/s1/{table}/state", _envelope(table, "state", seq, hand=1, phase=phase, findings=[],
                                                    health={"link": {"link": "connected"}})


def _journal(store: Store) -> list[tuple[str, dict]]:
    return [(kind, json.loads(data)) for _id, kind, _site, data in store.journal_after(0, 10_000)]


def test_a_backlog_of_statuses_and_states_makes_one_tile_push_per_table(tmp_path):
    store = Store(f"sqlite:///{tmp_path / 'floor.db'}")
    ingest = FloorIngest(store)
    tables = [f"T{n:02d}" for n in range(40)]
    assert ingest.receive_many([_status(t) for t in tables[:20]], 100.0, backlog=True)   # first: pushed at once
    assert len(_journal(store)) == 20
    # the rest of the start arrives while more waits: nothing pushed yet...
    assert ingest.receive_many([_status(t) for t in tables[20:]], 100.05, backlog=True) == []
    assert ingest.receive_many([_state(t) for t in tables], 100.1, backlog=True) == []
    # ...until the backlog is filed: one push for each table touched since, however many messages it sent
    pushed = ingest.receive_many([_state(t, 2, "turn") for t in tables], 100.15, backlog=False)
    assert len(pushed) == 40
    rows = _journal(store)[20:]
    assert sorted(d["table"] for kind, d in rows) == tables and {kind for kind, _ in rows} == {"table"}
    # statuses, states and counts are all filed, in one statement each per burst
    t = store.table("s1", "T33")
    assert (t["status"], t["state"]["phase"], t["received"]) == ("online", "turn", 3)
    # the tile the ingest holds is what the store holds, without reading it back
    row, open_alerts = ingest.board.row(("s1", "T33"))
    assert (row["status"], row["state"]["phase"], open_alerts) == ("online", "turn", [])


def test_a_last_will_after_a_state_in_one_burst_leaves_the_table_offline(tmp_path):
    store = Store(f"sqlite:///{tmp_path / 'floor.db'}")
    ingest = FloorIngest(store)
    will = ("dealerbox/s1/T01/status", _envelope("T01", "status", 0, status="offline", reason="lost"))
    ingest.receive_many([_status("T01"), _state("T01"), will], 5.0)
    assert store.table("s1", "T01")["status"] == "offline"
    assert ingest.board.row(("s1", "T01"))[0]["status"] == "offline"


def test_an_alert_push_carries_the_tile_and_its_table_gets_no_second_push(tmp_path):
    store = Store(f"sqlite:///{tmp_path / 'floor.db'}")
    ingest = FloorIngest(store)
    ingest.receive_many([_status("T01"), _state("T01"),
                         ("dealerbox/s1/T01/alert", alert_bytes("s1", "T01", "h1-1", "a floor call"))], 5.0)
    kinds = [kind for kind, _ in _journal(store)]
    assert kinds == ["alert"]
    alert_id = _journal(store)[0][1]["id"]
    assert ingest.filed_alert(alert_id).ruling == "a floor call"         # known as filed, no read back
    assert ingest.filed_alert(alert_id) is None                             # handed over once
    assert [a.severity for a in ingest.board.row(("s1", "T01"))[1]] == [store.alert(alert_id).severity]


def test_alerts_are_filed_ahead_of_a_backlog_of_states():
    batches: list[tuple[list[str], bool]] = []
    filed = threading.Event()

    def file(batch: list[tuple[str, bytes]], backlog: bool) -> None:
        batches.append(([topic.rsplit("/", 1)[1] for topic, _ in batch], backlog))
        if len(batches) == 4:
            filed.set()

    sub = Subscriber(BrokerSettings(), "test", file, lambda connected, note: None)
    for n in range(600):
        msg = mqtt.MQTTMessage(topic=f"{c.ROOT}/s1/T{n:03d}/state".encode())
        sub._on_message(None, None, msg)
    alert = mqtt.MQTTMessage(topic=f"{c.ROOT}/s1/T001/alert".encode())
    sub._on_message(None, None, alert)        # arrived last, behind 600 states
    filer = threading.Thread(target=sub._file_forever, daemon=True)
    filer.start()
    try:
        assert filed.wait(10), batches
    finally:
        with sub._ready:
            sub._stopping = True
            sub._ready.notify()
        filer.join(5)
    assert batches[0] == (["alert"], True)                                 # first, and states still wait
    assert [len(b) for b, _ in batches[1:]] == [250, 250, 100]             # then the states in small bites
    assert [backlog for _, backlog in batches[1:]] == [True, True, False]
