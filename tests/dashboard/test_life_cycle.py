"""The alert's life cycle and the sessions, in process (Starlette's test client, the real store, the real
broker where a command must reach a table): resolve tells the table, a table cannot close a floor alert by
naming the floor, who and when for every step; sign-out, demotion, a new password and removal end a session at
once; Secure cookies over TLS or behind a trusted proxy; a login limit that slows a guesser and lets the rightful
user in."""

from __future__ import annotations

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
from .tables import alert_bytes, event_bytes, play_hand, start_table

pytestmark = pytest.mark.timeout(120)
PASSWORD = "life-cycle-pass-1"


def test_resolving_an_unacknowledged_floor_alert_acknowledges_it_and_tells_the_table(tmp_path, floor_broker,
                                                                                     dashboard):
    link = start_table(tmp_path, floor_broker, "L01")
    try:
        play_hand(link, 4)
        assert wait_until(lambda: dashboard.store.alerts(table="L01", severity="floor"), scaled(10))
        a = dashboard.store.alerts(table="L01", severity="floor")[0]
        with httpx.Client(base_url=dashboard.url) as sam:
            login(sam, "sam")
            r = sam.post(f"/alerts/{a.id}/resolve", data={"note": "re-dealt, checked on camera"},
                         headers={"x-csrf-token": csrf_of(sam)})
            assert r.status_code == 200, r.text
        cmd = link.commands.get(timeout=scaled(10))                   # the table hears it, as from Acknowledge
        assert (cmd.cmd, cmd.finding, cmd.sender) == ("ack", a.finding, "dashboard:sam")
        done = dashboard.store.alert(a.id)
        assert (done.acked_by, done.resolved_by, done.note) == ("sam", "sam", "re-dealt, checked on camera")
        assert done.acked_at is not None and done.resolved_at is not None
    finally:
        link.stop()


@pytest.fixture
def app(tmp_path):
    now = [10_000.0]
    store = Store(f"sqlite:///{tmp_path / 'floor.db'}")
    for name, role in (("ada", "admin"), ("sam", "supervisor"), ("vic", "viewer")):
        store.put_user(name, role, auth.hash_password(PASSWORD))
    dash = Dashboard(store, clock=lambda: now[0])
    yield dash, now
    store.close()


def signed_in(dash: Dashboard, name: str, **kw) -> TestClient:
    client = TestClient(create_app(dash, background=False), **kw)
    token = re.search(r'name="csrf" value="([^"]+)"', client.get("/login").text).group(1)
    r = client.post("/login", data={"name": name, "password": PASSWORD, "csrf": token}, follow_redirects=False)
    assert r.status_code == 303, r.text
    return client


def token_of(client: TestClient) -> str:
    return re.search(r'name="csrf" content="([^"]+)"', client.get("/").text).group(1)


def test_a_table_naming_the_floor_does_not_close_a_floor_alert_and_each_step_says_who_and_when(app):
    dash, now = app
    dash.receive("dealerbox/demo/L02/alert", alert_bytes("demo", "L02", "h1-1", "floor call"))
    dash.receive("dealerbox/demo/L02/alert", alert_bytes("demo", "L02", "h1-2", "dealer note", severity="dealer",
                                                         seq=2))
    floor, dealer = sorted(dash.store.alerts(table="L02"), key=lambda a: a.finding)
    for seq, finding in ((1, "h1-1"), (2, "h1-2")):
        dash.receive("dealerbox/demo/L02/event", event_bytes("demo", "L02", {
            "event": "FindingAcknowledged", "t": 2.0, "hand": 1, "id": finding, "by": "dashboard:sam"}, seq=seq))
    spoofed = dash.store.alert(floor.id)
    assert spoofed.open and spoofed.acked_by is None                      # only the floor's own records close it
    assert spoofed.table_acked_by == "dashboard:sam"                      # what the table said, kept as said
    assert not dash.store.alert(dealer.id).open                           # a dealer alert is the table's to close
    assert dash.ingest.board.floor_calls() == {"demo": 1}
    with signed_in(dash, "sam") as sam:
        token = token_of(sam)
        assert "the table says acknowledged by dashboard:sam" in sam.get("/alerts?table=L02").text
        now[0] += 5
        assert sam.post("/alerts/seen", data={"ids": f"{floor.id}"}, headers={"x-csrf-token": token}).text == "1"
        now[0] += 5
        assert sam.post(f"/alerts/{floor.id}/assign", data={"to": "ada"}, headers={"x-csrf-token": token}).is_success
        now[0] += 5
        # the table said it was acknowledged there: resolving needs no broker to tell it again
        assert sam.post(f"/alerts/{floor.id}/resolve", data={"note": "seen to"},
                        headers={"x-csrf-token": token}).is_success
        a = dash.store.alert(floor.id)
        assert (a.seen_by, a.seen_at, a.assigned_to, a.assigned_by, a.assigned_at) == \
            ("sam", 10_005.0, "ada", "sam", 10_010.0)
        assert (a.acked_by, a.acked_at, a.resolved_by, a.resolved_at) == ("sam", 10_015.0, "sam", 10_015.0)
        assert dash.ingest.board.floor_calls() == {}
        row = sam.get("/alerts?table=L02").text
        assert "seen by sam" in row and "assigned to ada by sam" in row and "resolved by sam" in row
        csv = sam.get("/alerts.csv?table=L02").text
        assert "seen_by" in csv.splitlines()[0] and ",ada,sam," in csv


def test_sign_out_demotion_password_change_and_removal_end_a_session_at_once(app):
    dash, _ = app
    dash.receive("dealerbox/demo/L03/alert", alert_bytes("demo", "L03", "h1-1", "floor call"))
    alert_id = dash.store.alerts(table="L03")[0].id
    with signed_in(dash, "ada") as ada, signed_in(dash, "sam") as sam:
        admin = token_of(ada)
        copied = dict(sam.cookies)                       # a cookie copied before sign-out
        assert all("itsdangerous" not in v and "sam" not in v for v in copied.values())   # a token, not the role
        sam.post("/logout", data={"csrf": token_of(sam)})
        with TestClient(create_app(dash, background=False), cookies=copied) as thief:
            assert thief.get("/alerts", follow_redirects=False).status_code == 303
            assert thief.get("/alerts.csv", follow_redirects=False).status_code == 303
            assert thief.get("/events").status_code == 401
    with signed_in(dash, "ada") as ada, signed_in(dash, "sam") as sam:
        admin, token = token_of(ada), token_of(sam)
        ada.post("/users", data={"name": "sam", "role": "viewer", "password": ""}, headers={"x-csrf-token": admin})
        refused = sam.post(f"/alerts/{alert_id}/ack", headers={"x-csrf-token": token})
        assert refused.status_code == 403 and "viewer" in refused.text      # the role is the store's, now
        assert sam.get("/alerts").status_code == 200                        # still signed in, as a viewer
        ada.post("/users", data={"name": "sam", "role": "supervisor", "password": "a-new-password-2"},
                 headers={"x-csrf-token": admin})
        assert sam.get("/alerts", follow_redirects=False).status_code == 303   # a new password signs out
    with signed_in(dash, "ada") as ada, signed_in(dash, "vic") as vic:
        ada.post("/users/vic/remove", data={}, headers={"x-csrf-token": token_of(ada)})
        assert vic.get("/alerts", follow_redirects=False).status_code == 303
        assert dash.store.user("vic") is None


def test_the_cookie_is_secure_over_tls_or_behind_a_trusted_proxy_only(app):
    dash, _ = app

    def session_cookie(client: TestClient, **headers: str) -> str:
        token = re.search(r'name="csrf" value="([^"]+)"', client.get("/login", headers=headers).text).group(1)
        r = client.post("/login", data={"name": "vic", "password": PASSWORD, "csrf": token}, headers=headers,
                        follow_redirects=False)
        assert r.status_code == 303, r.text
        found = [h for h in r.headers.get_list("set-cookie") if h.startswith(auth.SESSION_COOKIE + "=")]
        assert found and "httponly" in found[0].lower() and "samesite=strict" in found[0].lower()
        return found[0].lower()

    def login_cookie(client: TestClient, **headers: str) -> str:
        found = [h for h in client.get("/login", headers=headers).headers.get_list("set-cookie")
                 if h.startswith(auth.LOGIN_COOKIE + "=")]
        assert found
        return found[0].lower()

    with TestClient(create_app(dash, background=False), base_url="https://floor.example") as tls:
        assert "; secure" in session_cookie(tls)
    with TestClient(create_app(dash, background=False)) as plain:
        assert "; secure" not in session_cookie(plain, **{"x-forwarded-proto": "https"})   # nobody trusted
    proxy = auth.Proxies.parse(["127.0.0.0/8"])
    with TestClient(create_app(dash, background=False, proxies=proxy), client=("127.0.0.1", 5000)) as behind:
        assert "; secure" in login_cookie(behind, **{"x-forwarded-proto": "https"})
        assert "; secure" not in login_cookie(behind)
    with TestClient(create_app(dash, background=False, proxies=proxy), client=("10.9.9.9", 5000)) as other:
        assert "; secure" not in login_cookie(other, **{"x-forwarded-proto": "https"})  # not the proxy
    with pytest.raises(ValueError, match="--trust-proxy"):
        auth.Proxies.parse(["not-an-address"])


def test_the_login_limit_slows_a_guesser_and_lets_the_rightful_user_in(app):
    dash, _ = app
    clock = [0.0]
    limit = auth.LoginLimit(clock=lambda: clock[0])
    for _ in range(auth.FREE_TRIES):
        assert limit.wait("sam", "10.0.0.66") == 0
        limit.failed("sam", "10.0.0.66")
    assert limit.wait("sam", "10.0.0.66") == pytest.approx(auth.FIRST_WAIT_S)     # the guesser waits ...
    assert limit.wait("sam", "10.0.0.7") == 0                                     # ... sam at his desk does not
    clock[0] += auth.FIRST_WAIT_S
    limit.failed("sam", "10.0.0.66")
    assert limit.wait("sam", "10.0.0.66") == pytest.approx(2 * auth.FIRST_WAIT_S)  # and each miss doubles it
    for n in range(auth.SPRAYING_ADDRESS + 1):                 # one address trying many names waits on every name
        limit.failed(f"user{n}", "10.0.0.99")
    assert limit.wait("ada", "10.0.0.99") > 0 and limit.wait("ada", "10.0.0.7") == 0
    # through the app, behind a trusted proxy: the guesser's address gets 429, the right password elsewhere gets in
    proxy = auth.Proxies.parse(["127.0.0.1"])
    with TestClient(create_app(dash, background=False, proxies=proxy), client=("127.0.0.1", 5000)) as c:
        def attempt(password: str, address: str) -> int:
            token = re.search(r'name="csrf" value="([^"]+)"', c.get("/login").text).group(1)
            return c.post("/login", data={"name": "sam", "password": password, "csrf": token},
                          headers={"x-forwarded-for": address}, follow_redirects=False).status_code
        assert [attempt("guess-number-x", "203.0.113.9") for _ in range(auth.FREE_TRIES)] == [401] * auth.FREE_TRIES
        assert attempt(PASSWORD, "203.0.113.9") == 429        # even the right password waits, from the guesser
        assert attempt(PASSWORD, "198.51.100.4") == 303       # sam from his own machine gets in at once
