"""One real mosquitto, one running dashboard (uvicorn on a free port, SQLite in a tmp dir) and one headless
chromium per test session, shared by the dashboard tests so they stay fast. The dashboard's clock is a
:class:`ShiftedClock`: tests move it forward to make an escalation fall due without sleeping."""

from __future__ import annotations

import re
import threading
import time
from pathlib import Path

import httpx
import pytest
import uvicorn

from dealerbox.dashboard import auth
from dealerbox.dashboard.app import create_app
from dealerbox.dashboard.service import BrokerSettings, Dashboard
from dealerbox.dashboard.store import Store
from tests.fixtures.broker import Mosquitto, free_port
from tests.conftest import scaled

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
                 "--disable-sync", "--no-first-run"]
PASSWORD = "correct-horse-9"
PEOPLE = {"ada": "admin", "sam": "supervisor", "vic": "viewer"}


class ShiftedClock:
    """Wall time plus an offset the test controls."""

    def __init__(self) -> None:
        self.offset = 0.0

    def __call__(self) -> float:
        return time.time() + self.offset


class Running:
    """A dashboard served by uvicorn in a thread; ``restart()`` serves a fresh one over the same database."""

    def __init__(self, db: str, broker: Mosquitto, clock: ShiftedClock, escalate_after: float = 60.0,
                 tournaments=lambda: []) -> None:
        self.db, self.broker, self.clock, self.escalate_after = db, broker, clock, escalate_after
        self.tournaments = tournaments      # () -> the TournamentFloors to host, fresh for each start
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.server: uvicorn.Server | None = None
        self.thread: threading.Thread | None = None

    def start(self) -> Running:
        self.store = Store(self.db)
        self.dash = Dashboard(self.store, BrokerSettings(self.broker.host, self.broker.port, "+"), clock=self.clock,
                              escalate_after=self.escalate_after, tournaments=self.tournaments())
        config = uvicorn.Config(create_app(self.dash), host="127.0.0.1", port=self.port, log_level="warning",
                                timeout_graceful_shutdown=1,
                                lifespan="on")
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, daemon=True)
        self.thread.start()
        deadline = time.monotonic() + scaled(15)
        while not (self.server.started and self.dash.connected):
            assert time.monotonic() < deadline, f"dashboard did not start: broker {self.dash.broker_note}"
            time.sleep(0.02)
        return self

    def stop(self) -> None:
        if self.server is not None:
            self.server.should_exit = True
            self.thread.join(scaled(15))
            assert not self.thread.is_alive(), "the dashboard did not stop"
            self.store.close()
            self.server = None

    def restart(self) -> Running:
        self.stop()
        return self.start()


def login(client: httpx.Client, name: str, password: str = PASSWORD) -> httpx.Response:
    page = client.get("/login")
    token = re.search(r'name="csrf" value="([^"]+)"', page.text).group(1)
    return client.post("/login", data={"name": name, "password": password, "csrf": token, "next": "/"})


def csrf_of(client: httpx.Client) -> str:
    return re.search(r'name="csrf" content="([^"]+)"', client.get("/alerts").text).group(1)


@pytest.fixture(scope="session")
def floor_broker(tmp_path_factory):
    b = Mosquitto(tmp_path_factory.mktemp("dash-broker")).start()
    yield b
    b.stop()


@pytest.fixture(scope="session")
def clock() -> ShiftedClock:
    return ShiftedClock()


@pytest.fixture(scope="session")
def dashboard(tmp_path_factory, floor_broker, clock):
    db = f"sqlite:///{Path(tmp_path_factory.mktemp('dash-db')) / 'floor.db'}"
    store = Store(db)
    for name, role in PEOPLE.items():
        store.put_user(name, role, auth.hash_password(PASSWORD))
    store.close()
    running = Running(db, floor_broker, clock).start()
    yield running
    running.stop()


def new_context(browser, **options):
    """A browser context whose waits (playwright's 30 s default for each) are hang guards scaled like the rest."""
    ctx = browser.new_context(**options)
    ctx.set_default_timeout(scaled(30_000))
    return ctx


@pytest.fixture(scope="session")
def browser():
    from playwright.sync_api import sync_playwright
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        yield b
        b.close()


@pytest.fixture
def signed_in(browser, dashboard):
    """``signed_in(name)`` -> a fresh page of a fresh browser context, signed in as that user."""
    contexts = []

    def make(name: str):
        ctx = new_context(browser)
        contexts.append(ctx)
        page = ctx.new_page()
        page.goto(dashboard.url + "/login")
        page.fill("input[name=name]", name)
        page.fill("input[name=password]", PASSWORD)
        page.click("button:has-text('Sign in')")
        page.wait_for_url(dashboard.url + "/")
        return page

    yield make
    for ctx in contexts:
        ctx.close()
