"""The tournament director hosted in the dashboard (issue 21): the clock page with Pause / Resume / +1 min /
-1 min for supervisors only, published on the retained clock topic of a real broker, and the balancing plan a
state change sets off, sent on the right table's instruction topic and shown on the page until done."""

from __future__ import annotations

import re
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest

from dealerbox.commands.dashboard import hosted_tournaments
from dealerbox.dashboard import auth
from dealerbox.dashboard.store import Store
from dealerbox.tournament.floor import schema_errors
from tests.fixtures.broker import Mosquitto
from tests.tournament.tables import Ear, state, tournament_file
from tests.waiting import wait_until

from .conftest import PASSWORD, PEOPLE, Running, ShiftedClock, login, new_context, scaled

ROOT = Path(__file__).parents[2]
SITE = "tour"
CLOCK_TOPIC = f"dealerbox/{SITE}/tournament/SUN-500/clock"


@pytest.fixture(scope="module")
def tour(tmp_path_factory):
    """A dashboard hosting tournament SUN-500 (tables T03, T02, T01 of site 'tour') on a broker of its own."""
    work = tmp_path_factory.mktemp("tour")
    broker = Mosquitto(work).start()
    db = f"sqlite:///{work / 'floor.db'}"
    store = Store(db)
    for name, role in PEOPLE.items():
        store.put_user(name, role, auth.hash_password(PASSWORD))
    store.close()
    path = tournament_file(work)
    running = Running(db, broker, ShiftedClock(), tournaments=lambda: hosted_tournaments([str(path)], SITE,
                                                                                           "dashboard")).start()
    yield running
    running.stop()
    broker.stop()


def signed(url: str, name: str) -> tuple[httpx.Client, str]:
    client = httpx.Client(base_url=url, timeout=scaled(10))
    assert login(client, name).status_code == 303
    token = re.search(r'name="csrf" content="([^"]+)"', client.get("/tournaments/SUN-500").text).group(1)
    return client, token


def retained_clock(port: int, want) -> dict:
    """The clock the broker keeps for a table connecting now, once it satisfies ``want``."""
    found: dict = {}

    def check() -> bool:
        ear = Ear(port, f"late-{time.monotonic_ns()}", (CLOCK_TOPIC,))
        try:
            wait_until(lambda: ear.messages("/clock"), scaled(3))
            got = ear.messages("/clock")
            if got and want(got[-1]):
                found.update(got[-1])
                return True
            return False
        finally:
            ear.stop()
    assert wait_until(check, scaled(10)), found
    assert schema_errors("clock", found) == []
    return found


def test_a_viewer_sees_the_clock_and_cannot_pause_it(tour):
    client, token = signed(tour.url, "vic")
    page = client.get("/tournaments/SUN-500").text
    assert "Level 1" in page and "50/100" in page and "next: level 2 100/200 BB ante 200" in page
    assert "clock-pause" not in page                                      # no button for a viewer
    refused = client.post("/tournaments/SUN-500/clock", data={"do": "pause"}, headers={"X-CSRF-Token": token})
    assert refused.status_code == 403 and "vic is a viewer" in refused.text
    assert retained_clock(tour.broker.port, lambda c: True)["running"] is True
    anonymous = httpx.post(tour.url + "/tournaments/SUN-500/clock", data={"do": "pause"})
    assert anonymous.status_code == 401
    sam, _ = signed(tour.url, "sam")
    assert sam.post("/tournaments/SUN-500/clock", data={"do": "pause"}).status_code == 403    # no CSRF token
    assert retained_clock(tour.broker.port, lambda c: True)["running"] is True


def test_a_supervisors_pause_and_minute_reach_the_retained_clock_topic(tour):
    sam, token = signed(tour.url, "sam")
    assert "clock-pause" in sam.get("/tournaments/SUN-500").text

    def act(do: str) -> None:
        r = sam.post("/tournaments/SUN-500/clock", data={"do": do}, headers={"X-CSRF-Token": token})
        assert r.status_code == 200, r.text

    act("pause")
    paused = retained_clock(tour.broker.port, lambda c: not c["running"])
    assert paused["level"] == 1 and paused["tournament"] == "SUN-500" and 0 < paused["left"] <= 1200
    act("plus")
    plus = retained_clock(tour.broker.port, lambda c: c["seq"] > paused["seq"])
    assert plus["left"] == pytest.approx(paused["left"] + 60, abs=0.01) and not plus["running"]
    act("minus")
    act("minus")
    minus = retained_clock(tour.broker.port, lambda c: c["seq"] >= plus["seq"] + 2)
    assert minus["left"] == pytest.approx(paused["left"] - 60, abs=0.01)
    assert "PAUSED" in sam.get("/tournaments/SUN-500").text
    assert sam.post("/tournaments/SUN-500/clock", data={"do": "rewind"},
                    headers={"X-CSRF-Token": token}).status_code == 409
    act("resume")
    assert retained_clock(tour.broker.port, lambda c: c["running"])["level"] == 1


def test_a_state_that_unbalances_the_tables_sends_the_move_to_the_right_tables(tour):
    port = tour.broker.port
    ear = Ear(port, "ear", (f"dealerbox/{SITE}/+/tournament",))
    table = Ear(port, "tables")
    try:
        def says(name: str, occupied: set[int], button: int, seq: int) -> None:
            table.publish(f"dealerbox/{SITE}/{name}/state", state(name, occupied, button, seq, site=SITE))

        says("T02", {1, 2, 3, 4, 5}, 1, 1)
        says("T03", set(range(1, 8)), 1, 1)
        viewer, _ = signed(tour.url, "vic")
        assert wait_until(lambda: "waiting for the state of T01" in viewer.get("/tournaments/SUN-500").text, scaled(10))
        assert ear.received == []                       # no plan before every table has reported
        says("T01", set(range(1, 9)), 2, 1)             # 8, 5, 7: one off is the most allowed
        assert wait_until(lambda: ear.messages("T02/tournament"), scaled(10)), ear.received
        move = {"from_table": "T01", "from_seat": 5, "to_table": "T02", "to_seat": 6}
        assert [p["moves"] for p in ear.messages("T01/tournament")] == [[move]]
        assert [p["moves"] for p in ear.messages("T02/tournament")] == [[move]]
        assert ear.messages("T03/tournament") == []
        for _, p, retained in ear.received:
            assert schema_errors("tournament", p) == [] and p["from"] == "dashboard" and not retained
        page = viewer.get("/tournaments/SUN-500").text
        assert re.search(r'data-from="T01:5">.*?T02 seat 6.*?waiting', page, re.S), page
        assert "Players left: <b id=\"players-left\">20</b>" in page
        says("T01", set(range(1, 9)) - {5}, 2, 2)
        says("T02", {1, 2, 3, 4, 5, 6}, 1, 2)
        assert wait_until(lambda: re.search(r'data-from="T01:5">.*?<td class="state">done',
                                            viewer.get("/tournaments/SUN-500").text, re.S), scaled(10))
        assert len(ear.messages("T01/tournament")) == 1                 # balanced now: no second plan
        # busts leave 6, 6, 6: two tables seat them all, so T03 (first in the break order) breaks
        says("T03", {1, 2, 3, 5, 6, 7}, 1, 2)
        says("T01", {1, 2, 3, 4, 6, 7}, 2, 3)
        assert wait_until(lambda: ear.messages("T03/tournament"), scaled(10)), ear.received
        assert [(p["instruction"], p["rule"]) for p in ear.messages("T03/tournament")] == [("break", "tournament.12")]
        page = viewer.get("/tournaments/SUN-500").text
        assert re.search(r'class="ttable broken" data-table="T03"', page), page
        assert page.count("table breaks") == 6 and "tables left: <b id=\"tables-left\">2</b>" in page
    finally:
        ear.stop()
        table.stop()


def test_the_pause_button_in_the_browser_pauses_every_table_of_the_tournament(tour, browser):
    ctx = new_context(browser)
    try:
        page = ctx.new_page()
        page.goto(tour.url + "/login")
        page.fill("input[name=name]", "sam")
        page.fill("input[name=password]", PASSWORD)
        page.click("button:has-text('Sign in')")
        page.wait_for_url(tour.url + "/")
        page.click("a:has-text('Tournament')")
        page.wait_for_url(tour.url + "/tournaments/SUN-500")
        page.click("button.clock-pause")
        page.wait_for_selector(".clock.paused .run:has-text('PAUSED')", timeout=scaled(5000))    # pushed over SSE
        assert retained_clock(tour.broker.port, lambda c: not c["running"])["level"] == 1
        page.click("button.clock-resume")
        page.wait_for_selector(".clock.running", timeout=scaled(5000))
        assert retained_clock(tour.broker.port, lambda c: c["running"])["running"] is True
    finally:
        ctx.close()


def test_a_restarted_dashboard_carries_on_from_the_retained_clock(tour):
    sam, token = signed(tour.url, "sam")
    assert sam.post("/tournaments/SUN-500/clock", data={"do": "pause"},
                    headers={"X-CSRF-Token": token}).status_code == 200
    before = retained_clock(tour.broker.port, lambda c: not c["running"])
    tour.restart()
    # the new run has a boot of its own and took level, time left and "paused" from what the broker kept
    after = retained_clock(tour.broker.port, lambda c: c["boot"] != before["boot"])
    assert (after["level"], after["running"]) == (before["level"], False)
    assert after["left"] == pytest.approx(before["left"], abs=0.01)
    sam, token = signed(tour.url, "sam")
    assert "PAUSED" in sam.get("/tournaments/SUN-500").text
    assert sam.post("/tournaments/SUN-500/clock", data={"do": "resume"},
                    headers={"X-CSRF-Token": token}).status_code == 200


def test_a_broken_tournament_file_stops_the_dashboard_naming_the_field(tmp_path):
    bad = tmp_path / "bad.toml"
    bad.write_text(tournament_file(tmp_path).read_text().replace("big_blind = 100", "big_blind = 0"))
    result = subprocess.run([sys.executable, "-m", "dealerbox", "dashboard", "--tournament", str(bad), "--site",
                             SITE, "--db", f"sqlite:///{tmp_path / 'f.db'}"], cwd=ROOT, capture_output=True,
                            text=True, timeout=scaled(60))
    assert result.returncode == 2
    assert f"{bad}: levels.1.big_blind: 0 is less than the minimum of 1" in result.stderr
