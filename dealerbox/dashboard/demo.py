"""``dealerbox dashboard demo``: both ends without hardware. Starts a mosquitto on a free local port, a few
simulated tables (``dealerbox run --headless`` with the built-in simulator, irregularities switched on) whose
floor link points at it, and the dashboard, then prints the URL and a first login. Everything lives in one
temporary directory that is removed on Ctrl-C."""

from __future__ import annotations

import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from . import auth
from .service import BrokerSettings, Dashboard
from .store import Store

TABLE_CONFIG = """[table]
id = "{table}"
site = "demo"
[reader]
source = "simulator"
[floor]
host = "127.0.0.1"
port = {port}
outbox = "{dir}/outbox-{table}.sqlite"
[panel]
enabled = false
[display]
mode = "headless"
[record]
enabled = false
[simulator]
seed = {seed}
speed = {speed}
irregularities = 0.3
"""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def run_demo(tables: int, listen_port: int, speed: float) -> int:
    import uvicorn

    from .app import create_app

    mosquitto = shutil.which("mosquitto") or "/usr/sbin/mosquitto"
    if not Path(mosquitto).exists():
        print("dealerbox dashboard demo: mosquitto is not installed: apt-get install mosquitto", file=sys.stderr)
        return 2
    work = Path(tempfile.mkdtemp(prefix="dealerbox-demo-"))
    port = free_port()
    (work / "mosquitto.conf").write_text(f"listener {port} 127.0.0.1\nallow_anonymous true\n")
    procs = [subprocess.Popen([mosquitto, "-c", str(work / "mosquitto.conf")], stdout=subprocess.DEVNULL,
                              stderr=subprocess.DEVNULL)]
    try:
        time.sleep(0.5)
        for n in range(1, tables + 1):
            table = f"T{n:02d}"
            cfg = work / f"{table}.toml"
            cfg.write_text(TABLE_CONFIG.format(table=table, port=port, dir=work, seed=n, speed=speed))
            procs.append(subprocess.Popen([sys.executable, "-m", "dealerbox", "--config", str(cfg), "run",
                                           "--headless"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
        store = Store(f"sqlite:///{work / 'floor.db'}")
        password = secrets.token_urlsafe(9)
        store.put_user("floor", "admin", auth.hash_password(password))
        dash = Dashboard(store, BrokerSettings("127.0.0.1", port, "demo"), escalate_after=60.0)
        print(f"broker 127.0.0.1:{port}, {tables} simulated tables, files in {work}")
        print(f"dashboard: http://127.0.0.1:{listen_port}/   first login: floor / {password}   (Ctrl-C stops all)",
              flush=True)
        # uvicorn re-raises SIGTERM after its own shutdown: turn it into an exit so the clean-up below still runs
        signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
        uvicorn.run(create_app(dash), host="127.0.0.1", port=listen_port, log_level="warning",
                    timeout_graceful_shutdown=2)
        return 0
    finally:
        for p in reversed(procs):
            p.terminate()
        for p in procs:
            try:
                p.wait(10)
            except subprocess.TimeoutExpired:
                p.kill()
        shutil.rmtree(work, ignore_errors=True)
