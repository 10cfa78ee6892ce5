"""The dashboard without a browser: escalation on the injected clock (published on its own topic and valid
against its schema), assign and resolve with a note, history filters and the CSV export, dropping QoS 1
redeliveries by envelope id, the store's migrations, and `dealerbox dashboard add-user`."""

from __future__ import annotations

import csv
import io
import json
import queue
import subprocess
import sys
from pathlib import Path

import httpx
import jsonschema
import paho.mqtt.client as mqtt
import pytest

from dealerbox.dashboard.floor import FloorIngest
from dealerbox.dashboard.store import LIFE_CYCLE_COLUMNS, Store
from tests.waiting import wait_until

from .conftest import csrf_of, login, scaled
from .tables import alert_bytes, send_raw

pytestmark = pytest.mark.timeout(90)
SCHEMA = json.loads((Path(__file__).parents[2] / "dealerbox/schemas/floor/escalation.json").read_text())


def _listen(broker, topic: str) -> tuple[mqtt.Client, queue.Queue]:
    got: queue.Queue = queue.Queue()
    client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, protocol=mqtt.MQTTv5)
    client.on_message = lambda c, u, m: got.put((m.topic, m.payload, m.properties))
    client.connect(broker.host, broker.port)
    client.subscribe(topic, qos=1)
    client.loop_start()
    return client, got


def test_an_unacknowledged_floor_alert_escalates_when_the_clock_says_so(dashboard, clock):
    pager, got = _listen(dashboard.broker, "dealerbox/demo/E01/escalation")   # other tests leave alerts open
    try:
        send_raw(dashboard.broker, "dealerbox/demo/E01/alert", alert_bytes("demo", "E01", "h4-1", "floor call"))
        send_raw(dashboard.broker, "dealerbox/demo/E01/alert",
                 alert_bytes("demo", "E01", "h4-2", "dealer note", severity="dealer", seq=2))
        assert wait_until(lambda: len(dashboard.store.alerts(table="E01")) == 2, scaled(5))
        assert got.empty()
        clock.offset += 50                           # not yet (wall time passes too: leave it a margin)
        with pytest.raises(queue.Empty):
            got.get(timeout=scaled(1.5))
        clock.offset += 15                           # past the 60 s: the next tick escalates it, once
        topic, raw, props = got.get(timeout=scaled(5))
        payload = json.loads(raw)
        jsonschema.validate(payload, SCHEMA)
        assert topic == "dealerbox/demo/E01/escalation"
        assert payload["alert"]["finding"] == "h4-1" and payload["after_s"] == 60
        assert ("schema", "dealerbox.floor.escalation/1") in props.UserProperty
        with pytest.raises(queue.Empty):
            got.get(timeout=scaled(1.5))                     # not again, and the dealer-severity one never
        first = dashboard.store.alerts(site="demo")[0]
        assert first.finding == "h4-1" and first.escalated_at is not None   # moved to the top
        with httpx.Client(base_url=dashboard.url) as c:
            login(c, "vic")
            assert "ESCALATED" in c.get("/alerts?table=E01").text
    finally:
        pager.loop_stop()
        pager.disconnect()


def test_assign_resolve_history_filters_and_csv(dashboard):
    send_raw(dashboard.broker, "dealerbox/demo/E02/alert", alert_bytes("demo", "E02", "h5-1", "=HYPERLINK(\"x\")"))
    assert wait_until(lambda: dashboard.store.alerts(table="E02"), scaled(5))
    alert_id = dashboard.store.alerts(table="E02")[0].id
    with httpx.Client(base_url=dashboard.url) as c:
        login(c, "sam")
        token = csrf_of(c)
        assert c.post(f"/alerts/{alert_id}/assign", data={"to": "nobody", "csrf": token}).status_code == 409
        assert c.post(f"/alerts/{alert_id}/assign", data={"to": "ada", "csrf": token}).status_code == 303
        assert c.post(f"/alerts/{alert_id}/resolve", data={"note": " ", "csrf": token}).status_code == 409
        assert c.post(f"/alerts/{alert_id}/resolve", data={"note": "dealer re-dealt", "csrf": token}).status_code == 303
        a = dashboard.store.alert(alert_id)
        assert (a.assigned_to, a.resolved_by, a.note, a.acked_by) == ("ada", "sam", "dealer re-dealt", "sam")
        assert [x.id for x in dashboard.store.alerts(supervisor="ada", table="E02")] == [alert_id]
        assert dashboard.store.alerts(table="E02", severity="dealer") == []
        assert dashboard.store.alerts(table="E02", since=a.raised_at + 10) == []
        listed = c.get("/alerts?table=E02&rule=misdeal.1c").text
        assert "dealer re-dealt" in listed and "assigned to ada" in listed
        rows = list(csv.DictReader(io.StringIO(c.get("/alerts.csv?table=E02").text)))
        assert len(rows) == 1 and rows[0]["note"] == "dealer re-dealt"
        assert rows[0]["ruling"].startswith("'=")        # never a live formula in a spreadsheet


def test_redeliveries_are_dropped_by_envelope_id_or_by_seq(tmp_path):
    store = Store(f"sqlite:///{tmp_path / 'f.db'}")
    ingest = FloorIngest(store)
    event = {"v": 1, "kind": "event", "site": "demo", "table": "T01", "boot": "b1", "seq": 1, "t": 1.0, "at": 1.0,
             "data": {"event": "HandStarted", "t": 1.0, "hand": 1}}
    raw = json.dumps(event).encode()
    assert ingest.receive("dealerbox/demo/T01/event", raw, 1.0).filed
    assert not ingest.receive("dealerbox/demo/T01/event", raw, 1.0).filed        # same (boot, seq)
    with_id = dict(event, seq=2, id="env-2")
    assert ingest.receive("dealerbox/demo/T01/event", json.dumps(with_id).encode(), 1.0).filed
    assert not ingest.receive("dealerbox/demo/T01/event", json.dumps(with_id).encode(), 1.0).filed
    assert ingest.duplicates == 2 and len(store.hand("demo", "T01", 1)) == 2
    secret = dict(event, seq=3, data={"event": "CardDealt", "t": 1.0, "hand": 1, "seat": 1, "card": "As",
                                      "face_up": False})
    refused = ingest.receive("dealerbox/demo/T01/event", json.dumps(secret).encode(), 1.0)
    assert not refused.filed and "hole card" in refused.reason
    assert "As" not in json.dumps(store.hand("demo", "T01", 1))
    assert store.counters() == {"received": 2, "invalid": 1}


def test_store_migrates_once_and_remembers_it(tmp_path):
    url = f"sqlite:///{tmp_path / 'm.db'}"
    Store(url).close()
    again = Store(url)
    assert again.versions() == [1, 2, 3, 4]
    with again.engine.connect() as conn:
        assert conn.exec_driver_sql("PRAGMA journal_mode").scalar() == "wal"
    with pytest.raises(ValueError, match="role"):
        again.put_user("x", "root", "hash")
    # a database from before migration 3 (no life-cycle columns, sessions or refusals) gains them on the next start
    with again.engine.begin() as conn:
        for column in LIFE_CYCLE_COLUMNS:
            conn.exec_driver_sql(f"ALTER TABLE alerts DROP COLUMN {column}")
        conn.exec_driver_sql("DROP TABLE sessions")
        conn.exec_driver_sql("DROP TABLE refusals")
        conn.exec_driver_sql("DELETE FROM schema_migrations WHERE version = 3")
    again.close()
    third = Store(url)
    assert third.versions() == [1, 2, 3, 4] and third.refusals() == []
    with third.engine.connect() as conn:
        assert {r[1] for r in conn.exec_driver_sql("PRAGMA table_info(alerts)")} >= set(LIFE_CYCLE_COLUMNS)


def test_add_user_command(tmp_path):
    db = f"sqlite:///{tmp_path / 'u.db'}"
    (tmp_path / "pw").write_text("s3cret-enough\n")
    run = [sys.executable, "-m", "dealerbox", "dashboard", "add-user", "boss", "--role", "admin", "--db", db,
           "--password-file", str(tmp_path / "pw")]
    done = subprocess.run(run, capture_output=True, text=True, timeout=scaled(60))
    assert done.returncode == 0, done.stderr
    assert Store(db).user("boss")[0] == "admin"
    (tmp_path / "pw").write_text("short\n")
    bad = subprocess.run(run, capture_output=True, text=True, timeout=scaled(60))
    assert bad.returncode == 2 and "at least 8" in bad.stderr
    empty = subprocess.run([sys.executable, "-m", "dealerbox", "dashboard", "--db", f"sqlite:///{tmp_path}/e.db"],
                           capture_output=True, text=True, timeout=scaled(60))
    assert empty.returncode == 2 and "add-user" in empty.stderr


def test_add_user_with_no_terminal_and_no_password_file_says_so_in_one_line(tmp_path):
    done = subprocess.run([sys.executable, "-m", "dealerbox", "dashboard", "add-user", "boss", "--db",
                           f"sqlite:///{tmp_path / 'u.db'}"], stdin=subprocess.DEVNULL, capture_output=True,
                          text=True, timeout=scaled(60))
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert done.stderr.strip().splitlines() == [
        "dealerbox dashboard: add-user: no terminal to ask the password on: pass --password-file FILE"]


def test_a_silent_table_goes_dead_when_its_state_expires(tmp_path):
    from starlette.testclient import TestClient

    from dealerbox.dashboard import auth
    from dealerbox.dashboard.app import create_app
    from dealerbox.dashboard.service import Dashboard
    from dealerbox.sinks.floor import contract as c

    now = [1000.0]
    store = Store(f"sqlite:///{tmp_path / 's.db'}")
    store.put_user("vic", "viewer", auth.hash_password("viewer-pass-1"))
    dash = Dashboard(store, clock=lambda: now[0])
    env = c.Envelope("demo", "Z01", "boot1")
    dash.receive("dealerbox/demo/Z01/status", json.dumps(env.wrap("status", 0, 0, {"status": "online",
                                                                                   "reason": "birth"}, seq=0)).encode())
    dash.receive("dealerbox/demo/Z01/state", json.dumps(env.wrap("state", 1, 1, {
        "event_seq": 0, "hand": 3, "phase": "flop", "game": "nlhe", "findings": [], "health": {}})).encode())
    with TestClient(create_app(dash, background=False)) as client:
        import re
        token = re.search(r'name="csrf" value="([^"]+)"', client.get("/login").text).group(1)
        client.post("/login", data={"name": "vic", "password": "viewer-pass-1", "csrf": token})
        assert 'class="tile alive' in client.get("/").text
        before = store.last_journal_id()
        now[0] += 301                          # no last will, no new state: past the state's 300 s expiry
        dash.sweep_stale()
        dash.sweep_stale()                     # told once, not every tick
        assert store.last_journal_id() == before + 1
        page = client.get("/").text
        assert 'class="tile dead' in page and ">stale<" in page


def test_the_terminal_never_imports_the_dashboard():
    code = ("import sys, dealerbox.cli, dealerbox.commands.run, dealerbox.pipeline; "
            "bad = sorted(m for m in sys.modules if m.startswith(('dealerbox.dashboard', 'starlette', 'uvicorn', "
            "'sqlalchemy', 'aiomqtt', 'argon2', 'jinja2'))); print(bad); sys.exit(1 if bad else 0)")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=scaled(60))
    assert done.returncode == 0, done.stdout + done.stderr


def test_starlette_test_client_imports_without_a_deprecation_warning():
    # starlette 1.x warns when its TestClient has only httpx: the pinned httpx2 is what it now asks for
    import subprocess
    import sys
    done = subprocess.run([sys.executable, "-W", "error", "-c", "import starlette.testclient"],
                          capture_output=True, text=True, timeout=scaled(60))
    assert done.returncode == 0, done.stderr[-500:]


def test_a_state_is_filed_as_sent_and_a_tile_is_pushed_only_when_it_changes(tmp_path):
    store = Store(f"sqlite:///{tmp_path / 'floor.db'}")
    ingest = FloorIngest(store)
    env = {"v": 1, "kind": "state", "site": "s1", "table": "T1", "boot": "b", "t": 1.0, "at": 1.0,
           "replayed": False, "hand": 3, "phase": "flop", "findings": [], "health": {"link": {"link": "connected"}}}
    first = json.dumps({**env, "seq": 1})
    assert ingest.receive_many([("dealerbox/s1/T1/state", first.encode())], 5.0)      # a new tile: pushed
    assert store.table("s1", "T1")["state"]["phase"] == "flop"
    with store.engine.connect() as conn:
        assert conn.exec_driver_sql("SELECT state FROM floor_tables").scalar_one() == first    # the text as sent
    assert ingest.receive_many([("dealerbox/s1/T1/state", json.dumps({**env, "seq": 2}).encode())], 6.0) == []
    # json.loads takes UTF-16 too: such a state is filed (re-encoded), never a crash that loses the burst
    turn = json.dumps({**env, "seq": 3, "phase": "turn"}).encode("utf-16")
    assert ingest.receive_many([("dealerbox/s1/T1/state", turn)], 7.0)                # the phase changed: pushed
    assert store.table("s1", "T1")["state"]["phase"] == "turn" and store.table("s1", "T1")["received"] == 3


def test_an_ack_while_the_broker_is_down_is_refused_and_the_health_page_says_so(tmp_path):
    import re
    import socket

    from starlette.testclient import TestClient

    from dealerbox.dashboard import auth
    from dealerbox.dashboard.app import create_app
    from dealerbox.dashboard.service import BrokerSettings, Dashboard

    with socket.socket() as s:                    # a port nobody listens on: the broker is down
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    store = Store(f"sqlite:///{tmp_path / 'down.db'}")
    store.put_user("sam", "supervisor", auth.hash_password("super-pass-1"))
    dash = Dashboard(store, BrokerSettings("127.0.0.1", port, "+"))
    dash.receive("dealerbox/demo/D01/alert", alert_bytes("demo", "D01", "h1-1", "nobody can be told"))
    with TestClient(create_app(dash)) as client:  # background on: the subscriber runs and keeps retrying
        token = re.search(r'name="csrf" value="([^"]+)"', client.get("/login").text).group(1)
        client.post("/login", data={"name": "sam", "password": "super-pass-1", "csrf": token})
        token = re.search(r'name="csrf" content="([^"]+)"', client.get("/alerts").text).group(1)
        r = client.post(f"/alerts/{store.alerts()[0].id}/ack", headers={"x-csrf-token": token})
        assert r.status_code == 409 and "not connected" in r.text
        assert store.alerts()[0].open                          # not marked acknowledged: the table never heard
        assert wait_until(lambda: "lost 127.0.0.1" in client.get("/health").text, scaled(10))
        assert not dash.connected
