"""The dashboard meeting many tables at once (a start, or a broker restart, issue 15): alerts are filed ahead
of states and journalled ahead of the tile pushes the states make, a table's status and states make one tile
push at its newest, and the tile pushed is the one the ingest holds."""

from __future__ import annotations

import asyncio
import json
import re
import threading
from collections.abc import Coroutine
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

import paho.mqtt.client as mqtt
import sqlalchemy as sa

from dealerbox.dashboard.anchors import enrolled
from dealerbox.dashboard.floor import TILES_EVERY_S, TILES_PER_BURST, FloorIngest
from dealerbox.dashboard.live import Live
from dealerbox.dashboard.render import environment
from dealerbox.dashboard.service import Dashboard
from dealerbox.dashboard.store import Store
from dealerbox.dashboard.subscriber import ROUTINE_BATCH_MAX, BrokerSettings, Subscriber
from dealerbox.sinks.floor import contract as c

from .tables import alert_bytes
from tests.conftest import scaled


T = TypeVar("T")


def apart(coroutine: Coroutine[Any, Any, T]) -> T:
    """Run a coroutine on a thread of its own: a browser test before this one in the same worker leaves an event
    loop running on the main thread (playwright's sync API), where asyncio.run refuses to start."""
    with ThreadPoolExecutor(1) as thread:
        return thread.submit(asyncio.run, coroutine).result()


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
    # the start arrives with more waiting behind each burst: nothing pushed yet, not even the first burst's...
    assert ingest.receive_many([_status(t) for t in tables[:20]], 100.0, backlog=True) == []
    assert ingest.receive_many([_status(t) for t in tables[20:]], 100.05, backlog=True) == []
    assert ingest.receive_many([_state(t) for t in tables], 100.1, backlog=True) == []
    # ...until the backlog is filed: one push for each table touched since, however many messages it sent
    pushed = ingest.receive_many([_state(t, 2, "turn") for t in tables], 100.15, backlog=False)
    assert len(pushed) == 40
    rows = _journal(store)
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

    def file(batch: list[tuple[str, bytes]], backlog: bool, _alert_waiting) -> int:
        batches.append(([topic.rsplit("/", 1)[1] for topic, _ in batch], backlog))
        if len(batches) == 4:
            filed.set()
        return len(batch)

    sub = Subscriber(BrokerSettings(), "test", file, lambda connected, note: None)
    for n in range(600):
        msg = mqtt.MQTTMessage(topic=f"{c.ROOT}/s1/T{n:03d}/state".encode())
        sub._on_message(None, None, msg)
    alert = mqtt.MQTTMessage(topic=f"{c.ROOT}/s1/T001/alert".encode())
    sub._on_message(None, None, alert)        # arrived last, behind 600 states
    filer = threading.Thread(target=sub._file_forever, daemon=True)
    filer.start()
    try:
        assert filed.wait(scaled(10)), batches
    finally:
        with sub._ready:
            sub._stopping = True
            sub._ready.notify()
        filer.join(scaled(5))
    assert batches[0] == (["alert"], True)                                 # first, and states still wait
    assert [len(b) for b, _ in batches[1:]] == [250, 250, 100]             # then the states in small bites
    assert [backlog for _, backlog in batches[1:]] == [True, True, False]


def test_routine_messages_are_gathered_into_one_burst_and_an_alert_is_not_held(monkeypatch):
    import dealerbox.dashboard.subscriber as subscriber
    monkeypatch.setattr(subscriber, "ROUTINE_GATHER_S", 3600.0)   # only the count ends the gathering here
    batches: list[list[str]] = []
    filed = threading.Condition()

    def file(batch: list[tuple[str, bytes]], backlog: bool, _alert_waiting) -> int:
        with filed:
            batches.append([topic.rsplit("/", 1)[1] for topic, _ in batch])
            filed.notify_all()
        return len(batch)

    def state(n: int) -> mqtt.MQTTMessage:
        return mqtt.MQTTMessage(topic=f"{c.ROOT}/s1/T{n:03d}/state".encode())

    sub = Subscriber(BrokerSettings(), "test", file, lambda connected, note: None)
    for n in range(30):
        sub._on_message(None, None, state(n))          # a few states: held for more
    filer = threading.Thread(target=sub._file_forever, daemon=True)
    filer.start()
    try:
        sub._on_message(None, None, mqtt.MQTTMessage(topic=f"{c.ROOT}/s1/T001/alert".encode()))
        with filed:
            assert filed.wait_for(lambda: len(batches) == 1, scaled(10)), batches
        for n in range(30, subscriber.ROUTINE_GATHER):
            sub._on_message(None, None, state(n))      # enough to file
        with filed:
            assert filed.wait_for(lambda: len(batches) == 2, scaled(10)), batches
    finally:
        with sub._ready:
            sub._stopping = True
            sub._ready.notify()
        filer.join(scaled(5))
    # the alert went at once, ahead of the states that came before it; the states went as one burst
    assert batches == [["alert"], ["state"] * subscriber.ROUTINE_GATHER]


def _alert(table: str, finding: str) -> tuple[str, bytes]:
    return f"dealerbox/s1/{table}/alert", alert_bytes("s1", table, finding, f"behind the rush at {table}")


def _message(topic: str, raw: bytes) -> mqtt.MQTTMessage:
    m = mqtt.MQTTMessage(topic=topic.encode())
    m.payload = raw
    return m


def _file_all(sub: Subscriber, dash: Dashboard, clock: list[float], step: float, arriving: dict) -> list[list[str]]:
    """The filing thread's loop, one burst at a time in this thread (no receipts: no broker here); what is in
    ``arriving`` under a burst's number comes while that burst is being filed. The kinds each burst held."""
    kinds = []
    while (taken := sub.take()) is not None:
        batch, backlog = taken
        for topic, raw in arriving.pop(len(kinds), []):
            sub._on_message(None, None, _message(topic, raw))
        dash._file_batch(batch, backlog)
        kinds.append([topic.rsplit("/", 1)[1] for topic, _ in batch])
        clock[0] += step
    return kinds


def _restart(tmp_path, tables: list[str]) -> tuple[Subscriber, Dashboard, list[float], Store, Live]:
    """A dashboard whose subscription has just been handed every table's retained status and state, and then
    each table's next state (the room goes on): three messages a table waiting to be filed."""
    store = Store(f"sqlite:///{tmp_path / 'floor.db'}")
    clock = [1000.0]
    dash = Dashboard(store, clock=lambda: clock[0])
    live = Live(dash, environment(), lambda _token: None)
    live.readers[True] = 1                    # a supervisor's stream is open: the bodies are rendered as filed
    sub = Subscriber(BrokerSettings(), "test", dash._file_batch, lambda connected, note: None)
    rush = [_status(t) for t in tables] + [_state(t, 1, "preflop") for t in tables] + [_state(t, 2) for t in tables]
    for topic, raw in rush:
        sub._on_message(None, None, _message(topic, raw))
    return sub, dash, clock, store, live


def test_an_alert_that_arrives_behind_a_rush_of_retained_states_is_journalled_ahead_of_their_tile_pushes(tmp_path):
    tables = [f"T{n:03d}" for n in range(600)]
    sub, dash, clock, store, live = _restart(tmp_path, tables)
    # the alert comes while the first burst of the rush is being filed (the filer's clock stands still: what
    # decides is the order, not how long a burst takes)
    kinds = _file_all(sub, dash, clock, 0.0, {0: [_alert("T599", "h1-1")]})
    assert kinds[0] == ["status"] * ROUTINE_BATCH_MAX and kinds[1] == ["alert"]      # filed next, ahead of the rest
    assert sum(len(k) for k in kinds) == 3 * 600 + 1
    rows = store.journal_after(0, 10_000)
    assert [kind for _j, kind, _s, _d in rows][0] == "alert"        # a browser is sent the alert first...
    alert = json.loads(live.bodies[(rows[0][0], True)] or "{}")
    assert alert["key"] == "s1/T599" and "behind the rush at T599" in alert["html"]
    # ...then one push a table, each at the table's newest state, as rendered when it was journalled
    pushes = [(json.loads(d)["table"], json.loads(live.bodies[(j, True)] or "{}")["tile"])
              for j, kind, _s, d in rows if kind == "table"]
    assert sorted(t for t, _ in pushes) == tables
    assert all("flop" in tile and "preflop" not in tile for _, tile in pushes)
    # nothing lost: every table holds its newest state and counts its messages; the alert is filed once
    counts = {t["table_id"]: (t["state"]["seq"], t["received"]) for t in store.tables()}
    assert counts == {t: (2, 4 if t == "T599" else 3) for t in tables}      # T599's alert is a message too
    assert [a.ruling for a in store.alerts()] == ["behind the rush at T599"]


def test_a_long_backlog_pushes_tiles_every_interval_a_few_at_a_time_and_every_table_at_its_newest(tmp_path):
    tables = [f"T{n:03d}" for n in range(600)]
    sub, dash, clock, store, _live = _restart(tmp_path, tables)
    before = store.last_journal_id()
    # a slow filer: each burst takes longer than the push interval, so pushes are due while the backlog lasts
    kinds = _file_all(sub, dash, clock, TILES_EVERY_S * 1.2, {3: [_alert("T000", "h1-1")]})
    pushed: dict[str, int] = {}
    for jid, kind, _site, data in store.journal_after(before, 10_000):
        if kind == "table":
            pushed[json.loads(data)["table"]] = jid
    bursts = len(kinds)
    assert bursts > 5
    with store.engine.connect() as conn:
        per_burst = [n for (n,) in conn.execute(sa.text("SELECT count(*) FROM journal WHERE kind = 'table' "
                                                        "GROUP BY at ORDER BY at"))]
        alert_burst = conn.execute(sa.text("SELECT at FROM journal WHERE kind = 'alert'")).scalar_one()
        with_alert = conn.execute(sa.text("SELECT count(*) FROM journal WHERE kind = 'table' AND at = :at"),
                                  {"at": alert_burst}).scalar_one()
    # while more waits, a burst journals at most TILES_PER_BURST pushes (what an alert can wait behind), and the
    # alert's own burst none (they would be rendered before it is sent)...
    assert max(per_burst[:-1]) <= TILES_PER_BURST and with_alert == 0
    # ...and every table is pushed, its last push at its newest state (the board's tile is what the store holds)
    assert set(pushed) == set(tables)
    for t in ("T000", "T321", "T599"):
        row, _open = dash.ingest.board.row(("s1", t))
        assert row["state"]["seq"] == 2 and store.table("s1", t)["state"]["seq"] == 2


def test_online_statuses_of_a_burst_reach_the_anchor_store_in_order_with_an_offline(tmp_path):
    store = Store(f"sqlite:///{tmp_path / 'floor.db'}")
    ingest = FloorIngest(store)
    for t in ("T01", "T02", "T03"):
        ingest.anchor_store.enrol("s1", t, "00" * 32, now=1.0)

    def offline(t: str) -> tuple[str, bytes]:
        return f"dealerbox/s1/{t}/status", _envelope(t, "status", 0, status="offline", reason="lost")

    def presence() -> dict[str, tuple[float | None, float | None]]:
        with store.engine.connect() as conn:
            return {r.table_id: (r.down_at, r.up_at) for r in conn.execute(sa.select(enrolled))}
    ingest.receive_many([offline("T01"), offline("T03")], 10.0)
    assert presence() == {"T01": (10.0, None), "T02": (None, None), "T03": (10.0, None)}
    # one burst: T01 comes back; T02 says online, then drops; T03 stays away; forty other tables say online
    ingest.receive_many([_status("T01"), _status("T02"), offline("T02"), *[_status(f"X{n:02d}") for n in range(40)]],
                        20.0)
    # as if each status were told on its own: T01's outage is closed by its next head, T02's drop is what stands
    assert presence() == {"T01": (10.0, 20.0), "T02": (20.0, None), "T03": (10.0, None)}


def test_a_stream_that_fell_behind_sends_each_tables_newest_tile_once(tmp_path):
    store = Store(f"sqlite:///{tmp_path / 'floor.db'}")
    dash = Dashboard(store, clock=lambda: 1000.0)
    live = Live(dash, environment(), lambda _token: None)
    live.readers[True] = 1                    # the pushes are rendered as filed
    tables = [f"T{n:02d}" for n in range(40)]
    start = store.last_journal_id()
    dash._file_batch([_status(t) for t in tables], False)                     # 40 pushes: online, no hand
    dash._file_batch([_state(t, 1, "preflop") for t in tables[:20]], False)   # 20 more: preflop
    dash._file_batch([_state(t, 2) for t in tables[:10]], False)              # 10 more: flop
    dash._file_batch([_alert("T05", "h1-1")], False)                          # T05's tile goes with its alert
    assert len(store.journal_after(start, 1000)) == 71

    async def read(after: int) -> str:
        gen = live.stream("token", "supervisor", "csrf", None, after, _never_gone)
        try:
            assert await gen.__anext__() == "retry: 1000\n\n"
            return await gen.__anext__()
        finally:
            await gen.aclose()

    behind = apart(read(start))     # a stream that has all 71 rows to send
    events = re.findall(r"id: (\d+)\nevent: (\w+)\ndata: (.*)\n\n", behind)
    ids = [int(jid) for jid, _kind, _data in events]
    assert ids == sorted(ids) and ids[-1] == store.last_journal_id()       # resumable after the last one
    sent = [(kind, json.loads(data)) for _jid, kind, data in events]
    tiles = {d["key"]: d["tile"] for kind, d in sent}
    assert [kind for kind, _ in sent].count("table") == 39 and sorted(tiles) == [f"s1/{t}" for t in tables]
    assert all("flop" in tiles[f"s1/{t}"] and "preflop" not in tiles[f"s1/{t}"] for t in tables[:10])
    assert all("preflop" in tiles[f"s1/{t}"] for t in tables[10:20])
    assert all("hand -" in tiles[f"s1/{t}"] for t in tables[20:])
    assert [d["key"] for kind, d in sent if kind == "alert"] == ["s1/T05"]
    # a stream only a few rows behind is sent every row as it was journalled
    recent = apart(read(store.last_journal_id() - 11))
    assert [kind for kind in re.findall(r"event: (\w+)", recent)] == ["table"] * 10 + ["alert"]


def test_a_stream_far_behind_looks_past_the_rows_it_reads_for_a_tables_newest_tile(tmp_path):
    store = Store(f"sqlite:///{tmp_path / 'floor.db'}")
    dash = Dashboard(store, clock=lambda: 1000.0)
    live = Live(dash, environment(), lambda _token: None)
    live.readers[True] = 1
    tables = [f"T{n:03d}" for n in range(300)]
    start = store.last_journal_id()
    dash._file_batch([_status(t) for t in tables], False)
    dash._file_batch([_state(t, 2) for t in tables], False)      # 600 pushes: more than one read of 500

    async def read() -> list[str]:
        gen = live.stream("token", "supervisor", "csrf", None, start, _never_gone)
        try:
            return [await gen.__anext__() for _ in range(3)]    # the retry line, then the two reads
        finally:
            await gen.aclose()

    chunks = apart(read())
    sent = re.findall(r"id: (\d+)\nevent: table\ndata: (.*)\n\n", "".join(chunks[1:]))
    # the first read held 300 status pushes and 200 state pushes, the state pushes of the last 100 tables came
    # in the second: not one status push was sent, every table's state push was
    assert len(sent) == 300 and all("flop" in json.loads(data)["tile"] for _jid, data in sent)
    assert [int(jid) for jid, _ in sent] == sorted(int(jid) for jid, _ in sent)


async def _never_gone() -> bool:
    return False
