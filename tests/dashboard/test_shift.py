"""A short shift in chromium: twelve real FloorLink tables raise floor calls, three supervisors each work in a
browser context of their own with three tabs (map, floor queue, a table), the dashboard restarts half-way, and
at the end every alert is filed once, every one acknowledged by one of them, and no page is left ringing."""

from __future__ import annotations

import time

import pytest

from tests.waiting import wait_until

from .conftest import PASSWORD
from .tables import play_hand, start_table

pytestmark = pytest.mark.timeout(600)
TABLES = [f"S{n:02d}" for n in range(1, 13)]
SUPERVISORS = ("sam", "ada", "sam")       # two of them share a name, each in a browser of their own
HANDS = (1, 2, 3, 4)


def signed_in_context(browser, dashboard, name: str):
    ctx = browser.new_context()
    page = ctx.new_page()
    page.goto(dashboard.url + "/login")
    page.fill("input[name=name]", name)
    page.fill("input[name=password]", PASSWORD)
    page.click("button:has-text('Sign in')")
    page.wait_for_url(dashboard.url + "/")
    return ctx, page


def test_a_shift_with_a_restart_ends_with_every_alert_filed_once_and_nothing_ringing(tmp_path, browser,
                                                                                      floor_broker, dashboard):
    links = [start_table(tmp_path / t, floor_broker, t, site="shift") for t in TABLES]
    contexts, queues, pages = [], [], []
    try:
        for name in SUPERVISORS:
            ctx, first = signed_in_context(browser, dashboard, name)
            contexts.append(ctx)
            first.goto(dashboard.url + "/?site=shift")
            queue = ctx.new_page()
            queue.goto(dashboard.url + "/alerts?site=shift&severity=floor")
            pages += [first, queue]
            queues.append(queue)
        for link in links:
            play_hand(link, HANDS[0])
        assert wait_until(lambda: len(dashboard.store.alerts(site="shift")) == len(TABLES), 30)
        for n, ctx in enumerate(contexts):
            table = ctx.new_page()
            table.goto(dashboard.url + f"/tables/shift/{TABLES[n]}")
            pages.append(table)
        for page in pages:
            page.wait_for_function("window.dealerboxEvents !== undefined", timeout=30000)

        def work(until: float) -> None:
            """Each supervisor acknowledges an open floor call in their queue (the n-th: they split the work)."""
            while time.monotonic() < until and dashboard.store.alerts(site="shift", open_only=True):
                for n, queue in enumerate(queues):
                    buttons = queue.locator("#queue tr.alert.open button.ack")
                    if buttons.count() > n:
                        try:
                            buttons.nth(n).click(timeout=5000)
                        except Exception:       # the row was re-rendered or closed by a colleague meanwhile
                            pass

        for link in links:
            play_hand(link, HANDS[1])
        work(time.monotonic() + 10)
        dashboard.restart()                      # the dashboard goes away mid-shift and comes back
        for hand in HANDS[2:]:
            for link in links:
                play_hand(link, hand)
        total = len(TABLES) * len(HANDS)
        assert wait_until(lambda: len(dashboard.store.alerts(site="shift")) == total, 60)
        work(time.monotonic() + 400)            # until none is open (the deadline only bounds a failure)
        filed = dashboard.store.alerts(site="shift", limit=10_000)
        assert len(filed) == total == len({(a.table_id, a.boot, a.finding) for a in filed})     # each once
        assert all(a.acked_by in ("sam", "ada") for a in filed), [a for a in filed if a.open][:3]
        for page in pages:                       # nothing stuck: no page still rings or shows an open call
            page.wait_for_function("document.getElementById('alarm').hidden", timeout=30000)
        for queue in queues:
            queue.wait_for_function("document.querySelectorAll('#queue tr.alert.open').length === 0", timeout=30000)
            assert queue.locator("#queue tr.alert").count() == total
    finally:
        for ctx in contexts:
            ctx.close()
        for link in links:
            link.stop()
