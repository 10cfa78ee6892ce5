"""Screenshots of the dashboard for the README, made from the tests' own fixtures (a real broker, real
FloorLink tables, the dashboard, Debian's chromium):

    PYTHONPATH=. python -m tests.dashboard.screenshots docs/img
    PYTHONPATH=. python -m tests.dashboard.screenshots docs/img tournament    # only the tournament page
    PYTHONPATH=. python -m tests.dashboard.screenshots docs/img hand          # only the hand page

The hand page shows tests/scenarios/house-boards.1-highlow.scn, played by the real engine and sent by a real
FloorLink: a hand run twice at Omaha high-low, so its two boards and each board's high and low halves.
"""

from __future__ import annotations

import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from playwright.sync_api import sync_playwright

from dealerbox.dashboard import auth
from dealerbox.dashboard.store import Store
from tests.fixtures.broker import Mosquitto
from tests.waiting import wait_until

from .conftest import CHROMIUM, CHROMIUM_ARGS, PASSWORD, Running, ShiftedClock, new_context, scaled
from .tables import play_hand, start_table

HAND_SCENARIO = "house-boards.1-highlow.scn"    # run twice, each board split high and low
HAND_TABLE = "T13"


def _floor_with_sam(work: Path) -> tuple[Mosquitto, str]:
    """A broker and a dashboard database with the supervisor sam: where every screenshot starts."""
    broker = Mosquitto(work / "broker").start()
    db = f"sqlite:///{work / 'floor.db'}"
    store = Store(db)
    store.put_user("sam", "supervisor", auth.hash_password(PASSWORD))
    store.close()
    return broker, db


@contextmanager
def _signed_in(p, url: str) -> Iterator:
    """A chromium page signed in as sam on the dashboard at ``url``."""
    browser = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
    try:
        page = new_context(browser, viewport={"width": 1100, "height": 640}).new_page()
        page.goto(url + "/login")
        page.fill("input[name=name]", "sam")
        page.fill("input[name=password]", PASSWORD)
        page.click("button:has-text('Sign in')")
        page.wait_for_url(url + "/")
        yield page
    finally:
        browser.close()


def main(out: Path) -> None:
    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        broker, db = _floor_with_sam(work)
        dash = Running(db, broker, ShiftedClock()).start()
        links = [start_table(work / f"t{n}", broker, f"T{n:02d}") for n in range(1, 13)]
        try:
            for n, link in enumerate(links, 1):
                play_hand(link, n, alert=n % 4 == 1)
            assert wait_until(lambda: len(dash.store.tables()) == 12 and len(dash.store.alerts()) == 3, scaled(20))
            links[-1].stop()                                  # one table goes dark
            time.sleep(scaled(1.0))
            with sync_playwright() as p, _signed_in(p, dash.url) as page:
                page.screenshot(path=str(out / "dashboard-map.png"))
                page.goto(dash.url + "/alerts")
                page.screenshot(path=str(out / "dashboard-queue.png"))
                _play_hand_page_scenario(work, broker, dash)   # after the map: its table is not on it
                _hand_page(page, dash, out)
        finally:
            for link in links[:-1]:
                link.stop()
            dash.stop()
            broker.stop()
    print(f"wrote {out}/dashboard-map.png, dashboard-queue.png, dashboard-hand.png")


def _play_hand_page_scenario(work: Path, broker: Mosquitto, dash: Running) -> None:
    """The hand of HAND_SCENARIO, sent to the floor by table HAND_TABLE, filed by the dashboard."""
    from .test_browser_new_games import scenario_updates
    link = start_table(work / "hand", broker, HAND_TABLE)
    try:
        for u in scenario_updates(HAND_SCENARIO)[0]:
            link.submit(u)
        assert wait_until(lambda: any(r["event"] == "HandEnded" for r in dash.store.hand("demo", HAND_TABLE, 1)),
                          scaled(30)), "the hand did not reach the floor"
    finally:
        link.stop()


def _hand_page(page, dash: Running, out: Path) -> None:
    page.goto(f"{dash.url}/tables/demo/{HAND_TABLE}/hands/1")
    page.wait_for_selector("section.result .board-part")
    page.screenshot(path=str(out / "dashboard-hand.png"))      # the viewport: the result, the first steps


def hand(out: Path) -> None:
    """The hand page alone: HAND_SCENARIO's hand, its boards and halves."""
    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        broker, db = _floor_with_sam(work)
        dash = Running(db, broker, ShiftedClock()).start()
        try:
            _play_hand_page_scenario(work, broker, dash)
            with sync_playwright() as p, _signed_in(p, dash.url) as page:
                _hand_page(page, dash, out)
        finally:
            dash.stop()
            broker.stop()
    print(f"wrote {out}/dashboard-hand.png")


def tournament(out: Path) -> None:
    """The tournament page of a dashboard hosting SUN-500, after a balancing move was sent and carried out."""
    import json

    import paho.mqtt.client as mqtt

    from dealerbox.commands.dashboard import hosted_tournaments
    from tests.tournament.tables import state, tournament_file

    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        broker, db = _floor_with_sam(work)
        path = tournament_file(work)
        dash = Running(db, broker, ShiftedClock(),
                       tournaments=lambda: hosted_tournaments([str(path)], "demo", "dashboard")).start()
        tables = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, protocol=mqtt.MQTTv5)
        tables.connect("127.0.0.1", broker.port)
        tables.loop_start()

        def says(name: str, occupied: set[int], button: int, seq: int) -> None:
            tables.publish(f"dealerbox/demo/{name}/state", json.dumps(state(name, occupied, button, seq)),
                           qos=1, retain=True).wait_for_publish(scaled(5))
            time.sleep(scaled(0.3))
        try:
            says("T01", set(range(1, 9)), 2, 1)
            says("T02", {1, 2, 3, 4, 5}, 1, 1)
            says("T03", set(range(1, 8)), 1, 1)
            says("T01", set(range(1, 9)) - {5}, 2, 2)
            says("T02", {1, 2, 3, 4, 5, 6}, 1, 2)
            says("T03", {1, 2, 4, 5, 6, 7}, 1, 2)
            with sync_playwright() as p, _signed_in(p, dash.url) as page:
                page.goto(dash.url + "/tournaments/SUN-500")
                page.click("button.clock-pause")
                page.wait_for_selector(".clock.paused .run:has-text('PAUSED')", timeout=scaled(5000))
                page.screenshot(path=str(out / "dashboard-tournament.png"))
        finally:
            tables.loop_stop()
            tables.disconnect()
            dash.stop()
            broker.stop()
    print(f"wrote {out}/dashboard-tournament.png")


if __name__ == "__main__":
    where = Path(sys.argv[1] if len(sys.argv) > 1 else "docs/img")
    if sys.argv[2:] == ["tournament"]:
        tournament(where)
    elif sys.argv[2:] == ["hand"]:
        hand(where)
    else:
        main(where)
        tournament(where)
