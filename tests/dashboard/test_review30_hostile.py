"""Outside review of issue 30: hostile payloads on every topic the dashboard files, and hostile numbers in its
URLs. A payload nested deeper than Python's recursion limit or carrying an integer longer than 4,300 digits
made ``json.loads`` raise something other than a JSON error: the whole burst's transaction was rolled back (the
good alerts and events that came with it went unfiled) and the refusal was never counted."""

from __future__ import annotations

import json
import re

import httpx
import pytest
from starlette.testclient import TestClient

from dealerbox.dashboard import auth
from dealerbox.dashboard.app import create_app
from dealerbox.dashboard.service import Dashboard
from dealerbox.dashboard.store import Store
from tests.waiting import wait_until

from .conftest import csrf_of, login, scaled
from .tables import alert_bytes, send_raw

pytestmark = pytest.mark.timeout(120)
PASSWORD = "review-thirty-1"
DEEP = ("[" * 100_000 + "]" * 100_000).encode()            # 200 KB: under the 256 KiB limit
BIG_INT = b'{"v": 1, "seq": ' + b"9" * 5000 + b"}"            # int() refuses more than 4,300 digits
HOSTILE = {"deep": DEEP, "big-int": BIG_INT, "binary": bytes(range(256)), "null": b"null",
           "wrong-types": json.dumps({"v": "1", "site": 5, "table": None, "seq": "x", "boot": [], "data": 3}).encode()}
KINDS = ("status", "state", "event", "alert", "anchor")


@pytest.fixture
def dash(tmp_path):
    store = Store(f"sqlite:///{tmp_path / 'floor.db'}")
    store.put_user("sam", "supervisor", auth.hash_password(PASSWORD))
    yield Dashboard(store, clock=lambda: 10_000.0)
    store.close()


def test_hostile_payloads_on_every_filed_topic_are_refused_without_losing_the_burst(dash):
    burst = [(f"dealerbox/demo/H{i:02d}/{kind}", raw) for i, (kind, (_, raw)) in
             enumerate((k, item) for k in KINDS for item in HOSTILE.items())]
    good = ("dealerbox/demo/GOOD/alert", alert_bytes("demo", "GOOD", "h1-1", "a real floor call"))
    dash.ingest.receive_many([*burst[:5], good, *burst[5:]], dash.clock())      # must not raise
    assert [a.finding for a in dash.store.alerts(table="GOOD")] == ["h1-1"]    # the good one came through
    assert dash.store.counters().get("invalid") == len(burst)                  # every hostile one counted
    assert len(dash.store.refusals(100)) == len(burst)


def test_a_deeply_nested_payload_through_the_real_broker_is_counted_and_filing_goes_on(dashboard, floor_broker):
    before = dashboard.store.counters().get("invalid", 0)
    send_raw(floor_broker, "dealerbox/demo/RV1/state", DEEP)
    send_raw(floor_broker, "dealerbox/demo/RV1/alert", alert_bytes("demo", "RV1", "h1-1", "after the bomb"))
    assert wait_until(lambda: dashboard.store.alerts(table="RV1"), scaled(20))
    assert wait_until(lambda: dashboard.store.counters().get("invalid", 0) >= before + 1, scaled(20))


def _signed_in(dash: Dashboard) -> tuple[TestClient, dict]:
    client = TestClient(create_app(dash, background=False), raise_server_exceptions=False)
    token = re.search(r'name="csrf" value="([^"]+)"', client.get("/login").text).group(1)
    client.post("/login", data={"name": "sam", "password": PASSWORD, "csrf": token}, follow_redirects=False)
    csrf = re.search(r'name="csrf" content="([^"]+)"', client.get("/").text).group(1)
    return client, {"x-csrf-token": csrf}


def test_assign_refuses_an_unknown_or_resolved_alert(dash):
    client, h = _signed_in(dash)
    r = client.post("/alerts/999/assign", data={"to": "sam"}, headers=h)
    assert r.status_code == 409 and "no alert 999" in r.text, (r.status_code, r.text[:200])  # was a 500
    dash.receive("dealerbox/demo/A1/alert", alert_bytes("demo", "A1", "h1-1", "dealer note", severity="dealer"))
    a = dash.store.alerts(table="A1")[0]
    assert dash.store.claim_alert(a.id, ("resolved_at",), resolved_by="sam", resolved_at=1.0, note="done")
    r = client.post(f"/alerts/{a.id}/assign", data={"to": "sam"}, headers=h)
    assert r.status_code == 409 and "resolved" in r.text                 # a closed alert is not reassigned
    assert dash.store.alert(a.id).assigned_to is None


@pytest.mark.parametrize("path", ["/alerts?page=99999999999999999999999", "/alerts?page=%C2%B2",
                                  "/health?before=99999999999999999999999",
                                  "/tables/demo/A1/hands/99999999999999999999999"])
def test_huge_or_odd_numbers_in_a_url_are_not_server_errors(dash, path):
    client, _ = _signed_in(dash)
    assert client.get(path).status_code < 500, path


@pytest.mark.parametrize("action", ["ack", "resolve", "assign"])
def test_huge_alert_ids_are_refused_not_server_errors(dash, action):
    client, h = _signed_in(dash)
    r = client.post(f"/alerts/99999999999999999999999/{action}", data={"note": "n", "to": "sam"}, headers=h)
    assert r.status_code == 409, (r.status_code, r.text[:200])


def test_a_double_click_and_two_supervisors_at_once_send_the_table_one_ack(tmp_path, floor_broker, dashboard):
    import threading

    from .tables import play_hand, start_table
    link = start_table(tmp_path, floor_broker, "RV2")
    try:
        play_hand(link, 7)
        assert wait_until(lambda: dashboard.store.alerts(table="RV2", severity="floor"), scaled(15))
        a = dashboard.store.alerts(table="RV2", severity="floor")[0]
        results: list[int] = []
        clients = []
        for who in ("sam", "sam", "ada", "ada"):
            c = httpx.Client(base_url=dashboard.url, timeout=scaled(30))
            login(c, who)
            clients.append((c, csrf_of(c)))
        go = threading.Barrier(len(clients))

        def click(i: int) -> None:
            c, token = clients[i]
            go.wait()
            path = "ack" if i % 2 == 0 else "resolve"
            results.append(c.post(f"/alerts/{a.id}/{path}", data={"note": "settled"},
                                  headers={"x-csrf-token": token}).status_code)
        threads = [threading.Thread(target=click, args=(i,)) for i in range(len(clients))]
        for t in threads:
            t.start()
        for t in threads:
            t.join(scaled(60))
        assert sorted(results)[0] == 200 and all(s in (200, 409) for s in results), results
        done = dashboard.store.alert(a.id)
        assert done.acked_by and done.acked_at is not None and not done.open
        first = link.commands.get(timeout=scaled(15))
        assert (first.cmd, first.finding) == ("ack", a.finding)
        # a marker: the next alert's ack, sent after the race, must be the very next command the table hears
        play_hand(link, 8)
        assert wait_until(lambda: len(dashboard.store.alerts(table="RV2", severity="floor")) == 2, scaled(15))
        b = next(x for x in dashboard.store.alerts(table="RV2", severity="floor") if x.id != a.id)
        c, token = clients[0]
        assert c.post(f"/alerts/{b.id}/ack", headers={"x-csrf-token": token}).status_code == 200
        marker = link.commands.get(timeout=scaled(15))
        assert (marker.cmd, marker.finding) == ("ack", b.finding), "the table heard the first alert twice"
    finally:
        for c, _ in clients:
            c.close()
        link.stop()


@pytest.mark.parametrize("name", ["", "   ", "x" * 65, "tab\there"])
def test_an_admin_cannot_add_a_user_without_a_usable_name(tmp_path, name):
    store = Store(f"sqlite:///{tmp_path / 'floor.db'}")
    store.put_user("ada", "admin", auth.hash_password(PASSWORD))
    dash = Dashboard(store, clock=lambda: 10_000.0)
    try:
        client = TestClient(create_app(dash, background=False), raise_server_exceptions=False)
        token = re.search(r'name="csrf" value="([^"]+)"', client.get("/login").text).group(1)
        client.post("/login", data={"name": "ada", "password": PASSWORD, "csrf": token}, follow_redirects=False)
        csrf = re.search(r'name="csrf" content="([^"]+)"', client.get("/").text).group(1)
        r = client.post("/users", data={"name": name, "role": "viewer", "password": "long-enough-1"},
                        headers={"x-csrf-token": csrf})
        assert r.status_code == 409, (r.status_code, r.text[:200])       # was 200: a user named "" (or 5,000 x)
        assert [n for n, _ in store.user_names()] == ["ada"]
    finally:
        store.close()
