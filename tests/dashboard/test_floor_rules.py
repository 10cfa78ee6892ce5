"""Rules of the floor that a shift leans on: an acknowledgement that comes after the floor resolved an alert
changes nothing (real broker, real dashboard, a real floor link as the table); the last admin stays an admin; an
alert is assigned to someone who can act on it; the queries pages and escalation run on alerts use an index
(EXPLAIN on SQLite and on a real PostgreSQL)."""

from __future__ import annotations

import re

import httpx
import pytest
import sqlalchemy as sa
from sqlalchemy import event as sa_event
from starlette.testclient import TestClient

from dealerbox.dashboard import auth
from dealerbox.dashboard.app import create_app
from dealerbox.dashboard.service import Dashboard
from dealerbox.dashboard.store import Store
from tests.waiting import wait_until

from .conftest import csrf_of, login, scaled
from .postgres import Postgres
from .tables import alert_bytes, event_bytes, play_hand, send_raw, start_table

pytestmark = pytest.mark.timeout(180)
PASSWORD = "floor-rules-pass-1"


def test_an_ack_arriving_after_the_floor_resolved_leaves_it_resolved_once_and_the_table_told_once(
        tmp_path, floor_broker, dashboard):
    link = start_table(tmp_path, floor_broker, "FR1")
    clients: list[httpx.Client] = []
    try:
        play_hand(link, 3)
        assert wait_until(lambda: dashboard.store.alerts(table="FR1", severity="floor"), scaled(15))
        a = dashboard.store.alerts(table="FR1", severity="floor")[0]
        for who in ("sam", "ada"):
            c = httpx.Client(base_url=dashboard.url, timeout=scaled(30))
            login(c, who)
            clients.append(c)
        sam, ada = clients
        r = sam.post(f"/alerts/{a.id}/resolve", data={"note": "re-dealt"}, headers={"x-csrf-token": csrf_of(sam)})
        assert r.status_code == 200, r.text
        told = link.commands.get(timeout=scaled(15))
        assert (told.cmd, told.finding, told.sender) == ("ack", a.finding, "dashboard:sam")

        # the table's own acknowledgement of the finding comes in after the floor resolved it
        send_raw(floor_broker, "dealerbox/demo/FR1/event", event_bytes("demo", "FR1", {
            "event": "FindingAcknowledged", "t": 9.0, "hand": 3, "id": a.finding, "by": "dashboard:sam"},
            seq=10_000, boot=a.boot))
        assert wait_until(lambda: dashboard.store.alert(a.id).table_acked_at is not None, scaled(15))
        # and a second supervisor, whose page still showed it open, presses Acknowledge
        late = ada.post(f"/alerts/{a.id}/ack", headers={"x-csrf-token": csrf_of(ada)})
        assert late.status_code == 409 and "already" in late.text, (late.status_code, late.text)

        done = dashboard.store.alert(a.id)
        assert (done.acked_by, done.resolved_by, done.note) == ("sam", "sam", "re-dealt")
        assert not done.open and done.table_acked_by == "dashboard:sam"
        same = [x for x in dashboard.store.alerts(table="FR1") if (x.boot, x.finding) == (a.boot, a.finding)]
        assert [x.id for x in same] == [a.id]                               # one record
        assert dashboard.dash.ingest.board.floor_calls().get("demo", 0) == \
            len([x for x in dashboard.store.alerts(site="demo", severity="floor", open_only=True)])

        # told once: the next command the table hears is the ack of a later alert, not a second one of this
        play_hand(link, 4)
        assert wait_until(lambda: len(dashboard.store.alerts(table="FR1", severity="floor")) == 2, scaled(15))
        b = next(x for x in dashboard.store.alerts(table="FR1", severity="floor") if x.id != a.id)
        assert sam.post(f"/alerts/{b.id}/ack", headers={"x-csrf-token": csrf_of(sam)}).status_code == 200
        marker = link.commands.get(timeout=scaled(15))
        assert (marker.cmd, marker.finding) == ("ack", b.finding), "the table heard the resolved alert twice"
    finally:
        for c in clients:
            c.close()
        link.stop()


@pytest.fixture
def floor(tmp_path):
    store = Store(f"sqlite:///{tmp_path / 'floor.db'}")
    for name, role in (("ada", "admin"), ("sam", "supervisor"), ("vic", "viewer")):
        store.put_user(name, role, auth.hash_password(PASSWORD))
    dash = Dashboard(store, clock=lambda: 10_000.0)
    yield dash
    store.close()


def signed_in(dash: Dashboard, name: str) -> tuple[TestClient, str]:
    client = TestClient(create_app(dash, background=False))
    token = re.search(r'name="csrf" value="([^"]+)"', client.get("/login").text).group(1)
    r = client.post("/login", data={"name": name, "password": PASSWORD, "csrf": token}, follow_redirects=False)
    assert r.status_code == 303, r.text
    return client, re.search(r'name="csrf" content="([^"]+)"', client.get("/").text).group(1)


def test_the_last_admin_cannot_be_demoted_or_removed_and_a_second_admin_makes_it_possible(floor):
    ada, token = signed_in(floor, "ada")
    h = {"x-csrf-token": token}
    r = ada.post("/users", data={"name": "ada", "role": "supervisor"}, headers=h)
    assert r.status_code == 409 and "last admin" in r.text, (r.status_code, r.text)
    with pytest.raises(ValueError, match="last admin"):        # the store refuses it however it is asked
        floor.store.remove_user("ada")
    with pytest.raises(ValueError, match="last admin"):
        floor.store.put_user("ada", "viewer", auth.hash_password("another-pass-1"))
    assert floor.store.user("ada")[0] == "admin"
    # with a second admin, either may step down; then the other is the last and stays
    assert ada.post("/users", data={"name": "sam", "role": "admin"}, headers=h).is_success
    sam, sam_token = signed_in(floor, "sam")
    assert sam.post("/users/ada/remove", headers={"x-csrf-token": sam_token}).is_success
    assert floor.store.user("ada") is None
    r = sam.post("/users", data={"name": "sam", "role": "viewer"}, headers={"x-csrf-token": sam_token})
    assert r.status_code == 409 and "last admin" in r.text
    assert floor.store.user("sam")[0] == "admin"


def test_an_alert_cannot_be_assigned_to_a_viewer(floor):
    floor.receive("dealerbox/demo/FR2/alert", alert_bytes("demo", "FR2", "h1-1", "two boxed cards"))
    a = floor.store.alerts(table="FR2")[0]
    sam, token = signed_in(floor, "sam")
    h = {"x-csrf-token": token}
    r = sam.post(f"/alerts/{a.id}/assign", data={"to": "vic"}, headers=h)
    assert r.status_code == 409 and "vic is a viewer" in r.text, (r.status_code, r.text)
    assert floor.store.alert(a.id).assigned_to is None
    assert sam.post(f"/alerts/{a.id}/assign", data={"to": "ada"}, headers=h).is_success
    assert floor.store.alert(a.id).assigned_to == "ada"


def queries_pages_run(store: Store) -> list[tuple[str, object]]:
    """The SQL (and its parameters) of the alert queries the pages and the escalation run, as the store sends it."""
    seen: list[tuple[str, object]] = []

    def note(_conn, _cursor, statement, parameters, _context, _many) -> None:
        if "FROM alerts" in statement:
            seen.append((statement, parameters))
    sa_event.listen(store.engine, "before_cursor_execute", note)
    try:
        store.due_for_escalation(20_000.0, 60.0)               # escalation, every second
        store.floor_calls()                                      # every page's alarm
        store.alerts(open_only=True, limit=5000)                 # the map
        store.alerts(site="demo", table="FR3", limit=50)         # a table's page
    finally:
        sa_event.remove(store.engine, "before_cursor_execute", note)
    assert len(seen) == 4
    return seen


def fill(store: Store) -> None:
    dash = Dashboard(store, clock=lambda: 10_000.0)
    for n in range(1, 41):
        dash.receive(f"dealerbox/demo/FR{n % 4}/alert", alert_bytes("demo", f"FR{n % 4}", f"h{n}-1", "x", seq=n))


def test_the_alert_queries_of_pages_and_escalation_use_an_index_on_sqlite(tmp_path):
    store = Store(f"sqlite:///{tmp_path / 'floor.db'}")
    try:
        fill(store)
        with store.engine.connect() as conn:
            for sql, params in queries_pages_run(store):
                plan = " / ".join(r[-1] for r in conn.exec_driver_sql("EXPLAIN QUERY PLAN " + sql, params))
                assert "USING INDEX alerts_open" in plan or "USING INDEX alerts_by_table" in plan, (sql, plan)
                assert "SCAN alerts" not in plan or "USING INDEX" in plan, (sql, plan)
    finally:
        store.close()


def test_a_database_made_before_the_indexes_gets_them_on_the_next_start(tmp_path):
    url = f"sqlite:///{tmp_path / 'floor.db'}"
    store = Store(url)
    with store.engine.begin() as conn:
        conn.exec_driver_sql("DROP INDEX alerts_open")
        conn.exec_driver_sql("DROP INDEX alerts_by_table")
        conn.exec_driver_sql("DELETE FROM schema_migrations WHERE version = 4")
    store.close()
    again = Store(url)
    try:
        assert again.versions() == [1, 2, 3, 4]
        assert {"alerts_open", "alerts_by_table"} <= {i["name"] for i in sa.inspect(again.engine).get_indexes("alerts")}
    finally:
        again.close()


def test_the_alert_queries_of_pages_and_escalation_can_use_an_index_on_postgresql():
    pg = Postgres().start()
    store = None
    try:
        store = Store(pg.url)
        fill(store)
        with store.engine.connect() as conn:
            raw = conn.connection.driver_connection
            for sql, params in queries_pages_run(store):
                with raw.cursor() as cur:
                    cur.execute("SET enable_seqscan = off")     # a table this small is read whole otherwise
                    cur.execute("EXPLAIN " + sql, params)
                    plan = " / ".join(r[0] for r in cur.fetchall())
                assert "alerts_open" in plan or "alerts_by_table" in plan, (sql, plan)
    finally:
        if store is not None:
            store.close()
        pg.stop()
