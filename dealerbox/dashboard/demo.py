"""``dealerbox dashboard demo``: both ends without hardware. Starts a mosquitto on a free local port, a few
simulated tables (``dealerbox run --headless`` with the built-in simulator, irregularities switched on, and a
cue file each for drills) whose floor link points at it, and the dashboard on 8080 or a free port (a port asked
for with --listen that is taken is said before anything starts), then prints the URL and a first login.
Everything lives in one temporary directory that is removed on Ctrl-C."""

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
from .subscriber import share_the_lock_often

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
cue_file = "{dir}/{table}.cue"
"""
DEFAULT_PORT = 8080


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def listening_socket(port: int | None) -> socket.socket:
    """The dashboard's socket, bound before anything is started or printed: ``port``, or with None 8080 when it
    is free and any free port when not. OSError (naming the port) when a port asked for is taken."""
    for want in ([port] if port is not None else [DEFAULT_PORT, 0]):
        sock = socket.socket()
        try:
            sock.bind(("127.0.0.1", want))
        except OSError as e:
            sock.close()
            if port is not None:
                raise OSError(f"--listen 127.0.0.1:{port}: the port is taken ({e.strerror}): stop what uses it, "
                              f"or leave --listen out and the demo picks a free port") from None
            continue
        sock.listen(128)
        return sock
    raise OSError("no free port for the dashboard")      # binding port 0 does not fail in practice


def run_demo(tables: int, listen_port: int | None, speed: float) -> int:
    import uvicorn

    from .app import create_app

    mosquitto = shutil.which("mosquitto") or "/usr/sbin/mosquitto"
    if not Path(mosquitto).exists():
        print("dealerbox dashboard demo: mosquitto is not installed: apt-get install mosquitto", file=sys.stderr)
        return 2
    try:
        sock = listening_socket(listen_port)
    except OSError as e:
        print(f"dealerbox dashboard demo: {e}", file=sys.stderr)
        return 2
    listen_port = sock.getsockname()[1]
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
        print(f"drill: `echo duplicate-card > {work}/T01.cue` makes T01 play that irregularity in its next hand "
              f"(kinds: dealerbox simulate --help)")
        print(f"dashboard: http://127.0.0.1:{listen_port}/   first login: floor / {password}   (Ctrl-C stops all)",
              flush=True)
        # uvicorn re-raises SIGTERM after its own shutdown: turn it into an exit so the clean-up below still runs
        signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
        config = uvicorn.Config(create_app(dash), log_level="warning", timeout_graceful_shutdown=2,
                                proxy_headers=False)
        share_the_lock_often()
        uvicorn.Server(config).run(sockets=[sock])
        return 0
    finally:
        for p in reversed(procs):
            p.terminate()
        for p in procs:
            try:
                p.wait(10)
            except subprocess.TimeoutExpired:
                p.kill()
        sock.close()
        shutil.rmtree(work, ignore_errors=True)
