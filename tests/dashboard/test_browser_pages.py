"""Pages that stay right and stay open, in chromium against the shared dashboard: twenty tabs of one browser on
one live stream, the floor-call alarm held by the server's open floor alerts (not the last message), live rows
through each page's own filter, and the health page's count equal to the server's."""

from __future__ import annotations

import httpx
import pytest

from tests.waiting import wait_until

from .conftest import PASSWORD, csrf_of, login, new_context, scaled
from .tables import alert_bytes, send_raw

pytestmark = pytest.mark.timeout(240)


@pytest.fixture
def context(browser, dashboard):
    """A browser context signed in as sam (a supervisor): its tabs share the cookie and the live stream."""
    ctx = new_context(browser)
    page = ctx.new_page()
    page.goto(dashboard.url + "/login")
    page.fill("input[name=name]", "sam")
    page.fill("input[name=password]", PASSWORD)
    page.click("button:has-text('Sign in')")
    page.wait_for_url(dashboard.url + "/")
    page.close()
    yield ctx
    ctx.close()


def live_page(context, url: str):
    page = context.new_page()
    page.goto(url)
    page.wait_for_function("window.dealerboxEvents !== undefined", timeout=scaled(20000))
    return page


def received(page, alert_id: int) -> None:
    page.wait_for_function(f"window.dealerboxEvents.some(e => e.kind === 'alert' && e.id === {alert_id})",
                           timeout=scaled(15000))


def filed(dashboard, table: str, finding: str) -> int:
    assert wait_until(lambda: any(a.finding == finding for a in dashboard.store.alerts(table=table)), scaled(10))
    return next(a.id for a in dashboard.store.alerts(table=table) if a.finding == finding)


def test_twenty_tabs_of_one_browser_all_receive_a_new_alert(context, dashboard):
    urls = ["/", "/alerts", "/health", "/users"] + [f"/alerts?table=W{n:02d}" for n in range(1, 17)]
    pages = [live_page(context, dashboard.url + u) for u in urls]     # the seventh tab loads too
    assert len(pages) == 20
    send_raw(dashboard.broker, "dealerbox/tabs/W01/alert", alert_bytes("tabs", "W01", "h1-1", "twenty tabs"))
    alert_id = filed(dashboard, "W01", "h1-1")
    for page in pages:
        received(page, alert_id)
    assert pages[1].locator("text=twenty tabs").count() == 1 and pages[4].locator("text=twenty tabs").count() == 1
    assert pages[5].locator("text=twenty tabs").count() == 0          # /alerts?table=W02: not its table


def test_the_alarm_stays_on_while_a_floor_call_is_open(context, dashboard):
    page = live_page(context, dashboard.url + "/?site=alarm")
    assert not page.is_visible("#alarm")
    send_raw(dashboard.broker, "dealerbox/alarm/A01/alert", alert_bytes("alarm", "A01", "h1-1", "floor call"))
    floor_id = filed(dashboard, "A01", "h1-1")
    received(page, floor_id)
    assert page.is_visible("#alarm")
    # a later dealer alert and the acknowledgement of another alert are not the end of the floor call
    send_raw(dashboard.broker, "dealerbox/alarm/A02/alert",
             alert_bytes("alarm", "A02", "h1-1", "dealer note", severity="dealer"))
    send_raw(dashboard.broker, "dealerbox/alarm/A03/alert", alert_bytes("alarm", "A03", "h1-1", "another call"))
    dealer_id, other_id = filed(dashboard, "A02", "h1-1"), filed(dashboard, "A03", "h1-1")
    with httpx.Client(base_url=dashboard.url) as sam:
        login(sam, "sam")
        token = csrf_of(sam)
        assert sam.post(f"/alerts/{other_id}/resolve", data={"note": "done"},
                        headers={"x-csrf-token": token}).status_code == 200
        received(page, dealer_id)
        page.wait_for_function(f"window.dealerboxEvents.filter(e => e.id === {other_id}).length >= 2",
                               timeout=scaled(15000))
        assert page.is_visible("#alarm") and page.get_attribute("body", "data-calls") == "1"
        later = live_page(context, dashboard.url + "/health")            # every page, from the server's count
        assert int(later.get_attribute("body", "data-calls")) >= 1 and later.is_visible("#alarm")
        # the floor's own acknowledgement ends it, on every page
        assert sam.post(f"/alerts/{floor_id}/ack", headers={"x-csrf-token": token}).status_code == 200
        page.wait_for_function("document.getElementById('alarm').hidden", timeout=scaled(15000))


def test_live_rows_follow_each_pages_filter_as_a_reload_does(context, dashboard):
    send_raw(dashboard.broker, "dealerbox/flt/F01/alert", alert_bytes("flt", "F01", "h0-1", "first", severity="dealer"))
    filed(dashboard, "F01", "h0-1")
    pages = {"floor": live_page(context, dashboard.url + "/alerts?site=flt&severity=floor"),
             "F02": live_page(context, dashboard.url + "/alerts?table=F02"),
             "table F01": live_page(context, dashboard.url + "/tables/flt/F01")}
    send_raw(dashboard.broker, "dealerbox/flt/F01/alert",
             alert_bytes("flt", "F01", "h1-1", "dealer-level at F01", severity="dealer", seq=2, hand=2))
    send_raw(dashboard.broker, "dealerbox/flt/F02/alert", alert_bytes("flt", "F02", "h1-1", "floor-level at F02"))
    ids = [filed(dashboard, "F01", "h1-1"), filed(dashboard, "F02", "h1-1")]
    for name, page in pages.items():
        for alert_id in ids:
            received(page, alert_id)
        live = page.inner_text("#queue")
        page.reload()
        assert page.inner_text("#queue").count("level at") == live.count("level at"), name   # as a reload shows
    assert "floor-level at F02" in pages["floor"].inner_text("#queue")
    assert "dealer-level" not in pages["floor"].inner_text("#queue")
    assert "dealer-level" not in pages["F02"].inner_text("#queue")
    assert "floor-level" not in pages["table F01"].inner_text("#queue")
    assert "dealer-level at F01" in pages["table F01"].inner_text("#queue")


def test_the_health_page_counts_refusals_as_the_server_does(context, dashboard):
    for n in range(3):
        send_raw(dashboard.broker, "dealerbox/hl/H01/alert", f"{{not json {n}".encode())
    assert wait_until(lambda: dashboard.store.counters().get("invalid", 0) >= 3, scaled(10))
    page = live_page(context, dashboard.url + "/health")
    assert int(page.inner_text("#invalid")) == dashboard.store.counters()["invalid"]
    assert "malformed JSON" in page.inner_text("#refused-feed")        # recent refusals, read from the store
    send_raw(dashboard.broker, "dealerbox/hl/H01/alert", b"{the last one")
    page.wait_for_function("document.getElementById('refused-feed').textContent.includes('hl/H01') && "
                           "window.dealerboxEvents.some(e => e.kind === 'invalid')", timeout=scaled(15000))
    page.wait_for_function(f"Number(document.getElementById('invalid').textContent) >= "
                           f"{dashboard.store.counters()['invalid']}", timeout=scaled(15000))
    assert int(page.inner_text("#invalid")) == dashboard.store.counters()["invalid"]   # not twice the server's
