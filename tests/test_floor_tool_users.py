"""Each floor tool logs in as its own broker user by default (issue 30): under use_username_as_clientid one user
is one client id, so two tools on one account knocked each other off. A real mosquitto with the shipped ACL and
a password for every floor user; each command is given only its password file."""

from __future__ import annotations

import subprocess
import sys

import pytest

from dealerbox.commands.broker_options import TOOL_USERS
from tests.dashboard.instances import Served
from tests.test_floor_contract import ROOT
from tests.waiting import wait_until
from tests.conftest import scaled

pytestmark = pytest.mark.timeout(180)

ACL = (ROOT / "docs/mosquitto/acl").read_text()
USERS = {"floor-console": "pw-console", "floor-director": "pw-director", "floor-dashboard-1": "pw-d1",
         "floor-dashboard-2": "pw-d2",
         # each dashboard's alert connection: its own user, the same password (docs/mosquitto/acl)
         "floor-dashboard-1-alerts": "pw-d1", "floor-dashboard-2-alerts": "pw-d2"}


def connected_as(broker, user: str) -> bool:
    """mosquitto's connect line names the username: ``... (p5, c1, k30, u'floor-console').``"""
    return f"u'{user}'" in broker.log()


def dealerbox(*argv: str, timeout: float = scaled(90)) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "dealerbox", *argv], capture_output=True, text=True, timeout=timeout,
                          cwd=ROOT)


def test_the_floor_tools_defaults_are_the_acls_own_users():
    for tool, user in TOOL_USERS.items():
        assert f"\nuser {user}\n" in ACL, (tool, user)
    assert len(set(TOOL_USERS.values())) == len(TOOL_USERS)      # no two tools share one


def test_each_floor_command_logs_in_as_its_own_user_given_only_its_password(make_broker, tmp_path):
    broker = make_broker(users=USERS, acl=ACL, extra="use_username_as_clientid true")
    pw = {}
    for user, password in USERS.items():
        pw[user] = tmp_path / f"{user}.pw"
        pw[user].write_text(password + "\n")
    where = ["--host", broker.host, "--port", str(broker.port)]
    console = dealerbox("floor", "--site", "demo", *where, "--password-file", str(pw["floor-console"]), "--once",
                        "--settle", "0.3")
    assert console.returncode == 0, console.stderr
    assert connected_as(broker, "floor-console")
    director = dealerbox("tournament", "--tournament", str(ROOT / "docs/tournament.demo.toml"), "--site", "demo",
                         *where, "--password-file", str(pw["floor-director"]), "--for", "0.5")
    assert director.returncode == 0, director.stderr
    assert connected_as(broker, "floor-director")
    served = Served(tmp_path, f"sqlite:///{tmp_path / 'floor.db'}", broker.port, "--password-file",
                    str(pw["floor-dashboard-1"]))
    try:
        served.wait_started()
        assert wait_until(lambda: connected_as(broker, "floor-dashboard-1"), scaled(20)), broker.log()[-600:]
        # its alert connection, as its own user, given the same password file
        assert wait_until(lambda: connected_as(broker, "floor-dashboard-1-alerts"), scaled(20)), broker.log()[-600:]
    finally:
        served.stop()
    assert "not authorised" not in broker.log().lower() and "already connected" not in broker.log()


def test_a_shared_dashboard_without_its_own_user_is_refused_in_one_line(tmp_path):
    # two instances both on the default user would be one client id: each must be given its own
    done = dealerbox("dashboard", "serve", "--db", f"sqlite:///{tmp_path / 'f.db'}", "--share", "floor",
                     "--port", "1", "--listen", "127.0.0.1:1")
    assert done.returncode == 2
    assert done.stderr.strip().splitlines() == [
        "dealerbox dashboard: --share: give each instance its own --username (floor-dashboard-1, floor-dashboard-2 "
        "in docs/mosquitto/acl)"]
