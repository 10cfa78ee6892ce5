"""The dashboard in a real browser (Debian's chromium, headless, through Playwright) against a real broker and
real FloorLink tables: alerts arrive live, acknowledgements reach the table, roles hold, markup stays inert, the
browser catches up after a dashboard restart and the dashboard after a broker restart."""

from __future__ import annotations

import re

import httpx
import pytest

from tests.test_floor_contract import assert_no_hole_cards
from tests.waiting import wait_until

from .conftest import csrf_of, login, new_context, scaled
from .tables import alert_bytes, play_hand, send_raw, start_table

pytestmark = pytest.mark.timeout(120)


def test_alert_from_a_table_appears_live_in_the_open_browser(tmp_path, floor_broker, signed_in, dashboard):
    # live, without a reload; how fast is bench/dashboard.py's figure, not a test's (it must hold under load)
    page = signed_in("vic")
    page.goto(dashboard.url + "/alerts")
    page.wait_for_function("window.dealerboxEvents !== undefined")
    link = start_table(tmp_path, floor_broker, "B01")
    try:
        play_hand(link, 7)
        page.wait_for_selector("#queue tr.alert.floor.open", timeout=scaled(60_000))
        row = page.inner_text("#queue tr.alert.floor.open")
        assert "Misdeals 1(c)" in row and "demo/B01" in row
        assert page.is_visible("#alarm")                  # a floor call shows until somebody acknowledges it
        assert page.locator("button.ack").count() == 0    # vic is a viewer
    finally:
        link.stop()


def test_acknowledge_in_the_browser_reaches_the_table_with_who(tmp_path, floor_broker, signed_in, dashboard):
    link = start_table(tmp_path, floor_broker, "B02")
    try:
        page = signed_in("sam")
        page.goto(dashboard.url + "/alerts?table=B02")
        play_hand(link, 3)
        page.wait_for_selector("#queue tr.alert.floor.open", timeout=scaled(5000))
        # a locator, not a handle: the row is re-rendered live (seen by sam) and may be replaced meanwhile
        page.locator("#queue tr.alert.floor.open button.ack").click()
        cmd = link.commands.get(timeout=scaled(5))
        assert (cmd.cmd, cmd.finding, cmd.sender) == ("ack", "h3-1", "dashboard:sam")
        page.wait_for_selector("#queue tr.alert.closed", timeout=scaled(5000))
        assert "acknowledged by sam" in page.inner_text("#queue tr.alert.closed")
        assert not page.is_visible("#alarm") or page.locator("tr.alert.open.floor").count() == 0
    finally:
        link.stop()


def test_viewer_cannot_acknowledge_and_every_post_needs_csrf(dashboard):
    send_raw(dashboard.broker, "dealerbox/demo/B03/alert", alert_bytes("demo", "B03", "h1-1", "plain"))
    assert wait_until(lambda: dashboard.store.alerts(table="B03"), scaled(5))
    alert_id = dashboard.store.alerts(table="B03")[0].id
    with httpx.Client(base_url=dashboard.url) as anon:
        assert anon.get("/alerts").status_code == 303 or anon.get("/alerts", follow_redirects=False).status_code == 303
        assert anon.post(f"/alerts/{alert_id}/ack").status_code == 401
        assert anon.get("/events").status_code == 401
    with httpx.Client(base_url=dashboard.url) as viewer:
        assert login(viewer, "vic").status_code == 303
        token = csrf_of(viewer)
        refused = viewer.post(f"/alerts/{alert_id}/ack", headers={"x-csrf-token": token})
        assert refused.status_code == 403 and "viewer" in refused.text
    with httpx.Client(base_url=dashboard.url) as sup:
        login(sup, "sam")
        assert sup.post(f"/alerts/{alert_id}/ack").status_code == 403                          # no token
        assert sup.post(f"/alerts/{alert_id}/ack", headers={"x-csrf-token": "forged"}).status_code == 403
        assert dashboard.store.alert(alert_id).open
        with httpx.Client(base_url=dashboard.url) as other:     # a token from another session is no good either
            login(other, "ada")
            assert sup.post(f"/alerts/{alert_id}/ack", headers={"x-csrf-token": csrf_of(other)}).status_code == 403
        ok = sup.post(f"/alerts/{alert_id}/ack", headers={"x-csrf-token": csrf_of(sup)})
        assert ok.status_code == 200 and dashboard.store.alert(alert_id).acked_by == "sam"


def test_login_is_required_and_rate_limited(browser, dashboard):
    ctx = new_context(browser)
    try:
        page = ctx.new_page()
        page.goto(dashboard.url + "/health")
        assert page.url.startswith(dashboard.url + "/login")
        for _ in range(5):
            page.fill("input[name=name]", "nobody")
            page.fill("input[name=password]", "wrong-password")
            page.click("button:has-text('Sign in')")
            assert "Wrong name or password" in page.inner_text("#error")
        page.fill("input[name=name]", "nobody")
        page.fill("input[name=password]", "wrong-password")
        page.click("button:has-text('Sign in')")
        assert "Too many failed sign-ins" in page.inner_text("#error")
    finally:
        ctx.close()


def test_markup_and_control_codes_from_a_table_show_inert(signed_in, dashboard):
    page = signed_in("sam")
    page.goto(dashboard.url + "/alerts?table=B04")
    page.wait_for_function("window.dealerboxEvents !== undefined")
    page.evaluate("window.pwned = false")
    hostile = '<script>window.pwned = true</script><img src=x onerror="window.pwned=true">\x1b[2J\x07bell'
    send_raw(dashboard.broker, "dealerbox/demo/B04/alert", alert_bytes("demo", "B04", "h1-1", hostile))
    page.wait_for_selector("#queue tr.alert", timeout=scaled(5000))
    text = page.inner_text("#queue .ruling")
    assert "<script>window.pwned = true</script>" in text and "\\x1b[2J\\x07bell" in text
    page.reload()                                         # the server-rendered page too, not only the live row
    assert "<script>window.pwned" in page.inner_text("#queue .ruling")
    assert page.evaluate("window.pwned") in (False, None)
    assert page.locator("#queue .ruling img").count() == 0
    html = httpx_page(dashboard, "/tables/demo/B04")
    assert "<script>window.pwned" not in html and "&lt;script&gt;" in html and "\x1b" not in html


def httpx_page(dashboard, path: str) -> str:
    with httpx.Client(base_url=dashboard.url) as c:
        login(c, "vic")
        return c.get(path).text


def test_malformed_payloads_are_counted_and_shown_on_the_health_page(signed_in, dashboard):
    page = signed_in("vic")
    page.goto(dashboard.url + "/health")
    page.wait_for_function("window.dealerboxEvents !== undefined")
    before = int(page.inner_text("#invalid"))
    send_raw(dashboard.broker, "dealerbox/demo/B05/alert", b"{not json")
    send_raw(dashboard.broker, "dealerbox/demo/B05/state", b'{"v": 1, "kind": "state"}')
    send_raw(dashboard.broker, "dealerbox/demo/B05/event", b"x" * (300 * 1024))
    page.wait_for_function(f"Number(document.getElementById('invalid').textContent) >= {before + 3}",
                           timeout=scaled(5000))
    feed = page.inner_text("#refused-feed")
    assert "malformed JSON" in feed and "oversized" in feed
    page.reload()
    assert int(page.inner_text("#invalid")) >= before + 3
    assert re.search(r"B05\s+\?\s+0\s+3", page.inner_text("table.health"))


def test_no_hole_card_in_any_page_stream_or_export(tmp_path, floor_broker, signed_in, dashboard):
    link = start_table(tmp_path, floor_broker, "B06")
    page = signed_in("ada")
    page.goto(dashboard.url + "/alerts")
    streamed: list[str] = []
    page.on("console", lambda m: streamed.append(m.text))
    page.evaluate("""() => { const s = new EventSource('/events?after=0');
        s.onmessage = e => console.log(e.data);
        ['alert','table','invalid','broker'].forEach(k => s.addEventListener(k, e => console.log(e.data))); }""")
    try:
        hole: set[str] = set()
        for hand in (11, 12):
            hole |= play_hand(link, hand)
        assert wait_until(lambda: len(dashboard.store.hand("demo", "B06", 12)) >= 20, scaled(10))
    finally:
        link.stop()
    seen = []
    with httpx.Client(base_url=dashboard.url) as c:
        login(c, "ada")
        for path in ("/", "/alerts", "/alerts.csv", "/health", "/tables/demo/B06", "/tables/demo/B06/hands/11",
                     "/tables/demo/B06/hands/12"):
            r = c.get(path)
            assert r.status_code == 200, path
            seen.append((path, r.content))
    page.goto(dashboard.url + "/tables/demo/B06/hands/12")
    page.click("#next")
    assert page.inner_text("#where") == f"step 2 of {len(dashboard.store.hand('demo', 'B06', 12))}"
    seen.append(("hand page", page.content().encode()))
    seen += [("sse", s.encode()) for s in streamed]
    assert any(b"CardDealt" in raw for _, raw in seen)
    assert_no_hole_cards(seen, hole)


def test_browser_catches_up_after_the_dashboard_restarts(signed_in, dashboard):
    page = signed_in("vic")
    page.goto(dashboard.url + "/alerts?table=B07")
    page.wait_for_function("window.dealerboxEvents !== undefined")
    send_raw(dashboard.broker, "dealerbox/demo/B07/alert", alert_bytes("demo", "B07", "h1-1", "before the restart"))
    page.wait_for_selector("text=before the restart", timeout=scaled(5000))
    dashboard.server.should_exit = True                      # the dashboard goes away ...
    dashboard.thread.join(scaled(15))
    assert not dashboard.thread.is_alive()
    # ... an alert comes while it is away: the broker keeps it in the dashboard's persistent session
    send_raw(dashboard.broker, "dealerbox/demo/B07/alert",
             alert_bytes("demo", "B07", "h2-1", "while it was down", seq=2, hand=2))
    dashboard.store.close()
    dashboard.start()
    send_raw(dashboard.broker, "dealerbox/demo/B07/alert", alert_bytes("demo", "B07", "h3-1", "after the restart",
                                                                       seq=3, hand=3))
    page.wait_for_selector("text=after the restart", timeout=scaled(10000))     # EventSource reconnected by itself
    assert page.locator("text=while it was down").count() == 1
    assert page.locator("text=before the restart").count() == 1          # Last-Event-ID: nothing twice


def test_dashboard_resubscribes_after_the_broker_restarts(signed_in, dashboard, floor_broker):
    page = signed_in("vic")
    page.goto(dashboard.url + "/alerts?table=B08")
    page.wait_for_function("window.dealerboxEvents !== undefined")
    floor_broker.restart()
    page.wait_for_function("document.getElementById('broker').className === 'down'", timeout=scaled(10000))
    assert wait_until(lambda: dashboard.dash.connected, scaled(15))
    send_raw(floor_broker, "dealerbox/demo/B08/alert", alert_bytes("demo", "B08", "h1-1", "after the broker came back"))
    page.wait_for_selector("text=after the broker came back", timeout=scaled(10000))
    assert page.get_attribute("#broker", "class") == "ok"
