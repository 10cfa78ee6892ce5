"""Outside review of issue 30, in chromium against the shared dashboard: a supervisor signing out in one tab
signs every tab of that browser out (they share one live stream), and signing in again gives the tabs a live
stream again."""

from __future__ import annotations

import pytest

from .conftest import PASSWORD, scaled
from .tables import alert_bytes, send_raw
from .test_browser_pages import context, filed, live_page, received  # noqa: F401  (a signed-in browser context)

pytestmark = pytest.mark.timeout(240)


def test_sign_out_in_one_tab_signs_out_every_tab_and_a_new_sign_in_is_live_again(context, dashboard):  # noqa: F811
    pages = [live_page(context, dashboard.url + u) for u in ("/", "/alerts", "/health")]
    pages[0].click("button:has-text('Sign out')")
    pages[0].wait_for_url(dashboard.url + "/login**")
    for page in pages[1:]:                          # the shared stream was refused: each tab goes to sign in
        page.wait_for_url(dashboard.url + "/login**", timeout=scaled(30000))
    again = pages[1]
    again.fill("input[name=name]", "sam")
    again.fill("input[name=password]", PASSWORD)
    again.click("button:has-text('Sign in')")
    again.wait_for_url(lambda url: "/login" not in url)
    fresh = live_page(context, dashboard.url + "/alerts")
    send_raw(dashboard.broker, "dealerbox/tabs/SO1/alert", alert_bytes("tabs", "SO1", "h1-1", "after sign-in"))
    received(fresh, filed(dashboard, "SO1", "h1-1"))
