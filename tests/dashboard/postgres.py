"""A throwaway PostgreSQL server on a free port for the dashboard's store test: initdb + pg_ctl from Debian's
postgresql package (tools/test installs it), in a fresh directory under /tmp. PostgreSQL refuses to run as
root, so as root the server runs as the unprivileged ``nobody`` (runuser); as anyone else, as that user."""

from __future__ import annotations

import glob
import os
import shutil
import subprocess
import tempfile
import time

import pytest

from tests.fixtures.broker import free_port
from tests.conftest import scaled


def _bin(name: str) -> str:
    found = sorted(glob.glob(f"/usr/lib/postgresql/*/bin/{name}"))
    if not found:
        pytest.fail("PostgreSQL is not installed: run tools/test (it installs it) or apt-get install postgresql")
    return found[-1]


class Postgres:
    def __init__(self) -> None:
        self.dir = tempfile.mkdtemp(prefix="dealerbox-pg-")      # not under pytest's 0700 root-only tmp
        self.port = free_port()
        self.as_user = ["runuser", "-u", "nobody", "--"] if os.geteuid() == 0 else []
        if self.as_user:
            os.chmod(self.dir, 0o700)
            shutil.chown(self.dir, "nobody")
        self.data = os.path.join(self.dir, "data")

    def _run(self, *argv: str) -> None:
        done = subprocess.run([*self.as_user, *argv], capture_output=True, text=True, timeout=scaled(120), cwd="/")
        if done.returncode:
            raise RuntimeError(f"{argv[0]} failed: {done.stdout}\n{done.stderr}")

    def start(self) -> Postgres:
        self._run(_bin("initdb"), "-D", self.data, "-U", "dealerbox", "--auth=trust", "-E", "UTF8", "--no-sync")
        self._run(_bin("pg_ctl"), "-D", self.data, "-l", os.path.join(self.dir, "log"), "-w", "-t", "60", "-o",
                  f"-p {self.port} -k {self.dir} -c listen_addresses=127.0.0.1 -c fsync=off", "start")
        deadline = time.monotonic() + scaled(30)
        while subprocess.run([_bin("pg_isready"), "-h", "127.0.0.1", "-p", str(self.port)],
                             capture_output=True).returncode:
            assert time.monotonic() < deadline, "PostgreSQL did not become ready"
            time.sleep(0.1)
        return self

    @property
    def url(self) -> str:
        return f"postgresql+psycopg://dealerbox@127.0.0.1:{self.port}/postgres"

    def stop(self) -> None:
        subprocess.run([*self.as_user, _bin("pg_ctl"), "-D", self.data, "-m", "fast", "-w", "stop"],
                       capture_output=True, timeout=scaled(60), cwd="/")
        shutil.rmtree(self.dir, ignore_errors=True)
