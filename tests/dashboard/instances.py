"""Dashboard instances for the delivery tests: ``InProcess`` runs the real Dashboard's broker side (subscriber,
filing, receipts) on an event loop thread, without HTTP; ``Served`` runs ``dealerbox dashboard serve`` as its
own process, so a test can SIGKILL it mid-stream as a server dies."""

from __future__ import annotations

import asyncio
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

from dealerbox.dashboard import auth
from dealerbox.dashboard.service import BrokerSettings, Dashboard
from dealerbox.dashboard.store import Store
from tests.fixtures.broker import free_port
from tests.waiting import wait_until
from tests.conftest import scaled


class InProcess:
    """``InProcess(db, settings).start()``: the dashboard's subscriber and filing thread; ``stop()``."""

    def __init__(self, db: str, settings: BrokerSettings, name: str = "dashboard") -> None:
        self.store = Store(db)
        self.dash = Dashboard(self.store, settings, name=name)
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.task: asyncio.Task | None = None

    def _run(self) -> None:
        asyncio.set_event_loop(self.loop)
        self.task = self.loop.create_task(self.dash.run_mqtt())
        try:
            self.loop.run_until_complete(self.task)
        except asyncio.CancelledError:
            pass

    def start(self) -> InProcess:
        self.thread.start()
        assert wait_until(lambda: self.dash.connected,
                          scaled(15)), f"dashboard did not connect: {self.dash.broker_note}"
        return self

    def stop(self) -> None:
        if self.task is not None:
            self.loop.call_soon_threadsafe(self.task.cancel)
        self.thread.join(scaled(15))
        self.store.close()


class Served:
    """``dealerbox dashboard serve`` in its own process (a user added first); ``kill()`` is SIGKILL."""

    def __init__(self, tmp: Path, db: str, broker_port: int, *args: str) -> None:
        self.port = free_port()
        self.log = tmp / f"dashboard-{self.port}.log"
        env = {**os.environ, "PYTHONUNBUFFERED": "1"}
        pw = tmp / "admin.pw"
        pw.write_text("correct-horse-9\n")
        if not Store(db).user_names():
            store = Store(db)
            store.put_user("ada", "admin", auth.hash_password("correct-horse-9"))
            store.close()
        self.argv = [sys.executable, "-m", "dealerbox", "dashboard", "serve", "--db", db, "--site", "+",
                     "--host", "127.0.0.1", "--port", str(broker_port), "--listen", f"127.0.0.1:{self.port}", *args]
        self.proc = subprocess.Popen(self.argv, stdout=self.log.open("w"), stderr=subprocess.STDOUT, env=env)

    def wait_started(self, timeout: float = scaled(60.0)) -> Served:
        deadline = time.monotonic() + timeout
        while "dealerbox dashboard on" not in self.log.read_text():
            assert self.proc.poll() is None, self.log.read_text()
            assert time.monotonic() < deadline, f"the dashboard did not start: {self.log.read_text()}"
            time.sleep(0.05)
        # the line is printed before uvicorn binds its socket: wait until it takes a connection
        while True:
            assert self.proc.poll() is None, self.log.read_text()
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=scaled(0.5)):
                    return self
            except OSError:
                assert time.monotonic() < deadline, f"the dashboard did not listen: {self.log.read_text()}"
                time.sleep(0.05)

    def kill(self) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait(scaled(10))

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(scaled(15))
            except subprocess.TimeoutExpired:
                self.kill()
