"""A real mosquitto on a free 127.0.0.1 port: the one launcher of the benchmarks and the tests.

It needs nothing but the standard library, so the benchmarks run without pytest installed; the tests' fixtures
(tests/fixtures/broker.py) build on it. ``Mosquitto()`` makes its own temporary directory and removes it on
``stop()``; given a ``directory`` it leaves the directory alone. Password files, an ACL, a TLS listener and
persistence are options; ``kill()`` (SIGKILL), ``stop()`` and ``start()`` again reuse the same port.

>>> with Mosquitto() as broker:          # doctest: +SKIP
...     broker.port
"""

from __future__ import annotations

import random
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from pathlib import Path

MOSQUITTO = shutil.which("mosquitto") or "/usr/sbin/mosquitto"
MOSQUITTO_PASSWD = shutil.which("mosquitto_passwd") or "/usr/bin/mosquitto_passwd"


class BrokerMissing(RuntimeError):
    """mosquitto is not installed; the message says how to install it."""


_PICK = random.SystemRandom()     # not the global generator: tests seed it, and two workers would pick alike


def _ephemeral_low() -> int:
    try:
        return int(Path("/proc/sys/net/ipv4/ip_local_port_range").read_text().split()[0])
    except (OSError, ValueError, IndexError):
        return 0


def free_port() -> int:
    """A free port below the kernel's ephemeral range: a port from bind(0) is in that range, and between its
    release and the server's own bind any outgoing connection may take it (a dashboard's bind failed with
    "address already in use" in a loaded run of two suites at once)."""
    low = _ephemeral_low()
    for _ in range(200) if low > 10_000 else ():
        port = _PICK.randrange(10_000, low)
        with socket.socket() as s:
            try:
                s.bind(("127.0.0.1", port))
            except OSError:
                continue
            return port
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Mosquitto:
    """One mosquitto process with a generated config under ``directory`` (a temporary one by default)."""

    def __init__(self, directory: Path | None = None, *, port: int | None = None,
                 users: dict[str, str] | None = None, acl: str | None = None, tls: dict[str, str] | None = None,
                 persistence: bool = False, max_inflight: int = 20, extra: str = "") -> None:
        self._own_dir = directory is None
        self.dir = Path(tempfile.mkdtemp(prefix="dealerbox-mqtt-")) if directory is None else Path(directory)
        self.dir.mkdir(parents=True, exist_ok=True)
        self.host = "127.0.0.1"
        self.port = port or free_port()
        self.tls_port = free_port() if tls else None
        self.proc: subprocess.Popen | None = None
        lines = [
            "per_listener_settings false",
            f"listener {self.port} {self.host}",
            "user root",                               # run as root: do not drop to a user who can't read tmp
            f"log_dest file {self.dir / 'mosquitto.log'}",
            "log_type error", "log_type warning", "log_type notice", "log_type information",
            "connection_messages true",
            "max_queued_messages 0",                  # queue without limit for offline persistent sessions
            f"max_inflight_messages {max_inflight}",  # 0: unlimited (a benchmark's stalled subscriber loses nothing)
        ]
        if tls:
            lines += [f"listener {self.tls_port} {self.host}", f"cafile {tls['ca']}", f"certfile {tls['cert']}",
                      f"keyfile {tls['key']}", f"require_certificate {str(bool(tls.get('require'))).lower()}"]
        if users is not None:
            pw = self.dir / "passwords"
            pw.write_text("")
            for name, password in users.items():
                subprocess.run([MOSQUITTO_PASSWD, "-b", str(pw), name, password], check=True,
                               capture_output=True, timeout=10)
            lines += ["allow_anonymous false", f"password_file {pw}"]
        else:
            lines += ["allow_anonymous true"]
        if acl is not None:
            (self.dir / "acl").write_text(acl)
            lines += [f"acl_file {self.dir / 'acl'}"]
        if persistence:
            # save on every change, so a SIGKILLed broker still comes back with its sessions and subscriptions
            lines += ["persistence true", f"persistence_location {self.dir}/", "autosave_interval 1",
                      "autosave_on_changes true"]
        else:
            lines += ["persistence false"]
        lines += [extra]
        self.config = self.dir / "mosquitto.conf"
        self.config.write_text("\n".join(lines) + "\n")

    def start(self, timeout: float = 10.0) -> Mosquitto:
        if not Path(MOSQUITTO).exists():
            raise BrokerMissing("mosquitto is not installed (tools/test installs it: apt-get install mosquitto)")
        self.proc = subprocess.Popen([MOSQUITTO, "-c", str(self.config)], stdout=subprocess.DEVNULL,
                                     stderr=subprocess.PIPE)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"mosquitto exited ({self.proc.returncode}): "
                                   f"{self.proc.stderr.read().decode(errors='replace')}\n{self.log()}")
            try:
                with socket.create_connection((self.host, self.port), timeout=0.2):
                    return self
            except OSError:
                time.sleep(0.05)
        self._halt()
        raise RuntimeError(f"mosquitto did not listen on {self.host}:{self.port} within {timeout}s\n{self.log()}")

    def kill(self) -> None:
        """SIGKILL: the broker vanishes mid-stream, as on a crash or a pulled cable."""
        if self.proc and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait(10)

    def stop(self) -> None:
        """Terminate the broker; a directory it made itself goes with it."""
        self._halt()
        if self._own_dir:
            shutil.rmtree(self.dir, ignore_errors=True)

    def restart(self) -> Mosquitto:
        self._halt()
        return self.start()

    @property
    def running(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def log(self) -> str:
        path = self.dir / "mosquitto.log"
        return path.read_text(errors="replace") if path.exists() else ""

    def __enter__(self) -> Mosquitto:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def _halt(self) -> None:
        if self.proc and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(10)
        if self.proc and self.proc.stderr:
            self.proc.stderr.close()
