"""``dealerbox doctor --mosquitto-conf``: the broker settings end-to-end delivery relies on (persistence on, its
directory there and writable by the broker's user), checked on the configuration a real mosquitto runs with."""

from __future__ import annotations

import os
import pwd
import shutil
import tempfile
from pathlib import Path

import paho.mqtt.client as mqtt

import pytest

from dealerbox.cli import main
from tests.fixtures.broker import Mosquitto
from tests.conftest import scaled
from tests.security.test_doctor import write_config
from tests.waiting import wait_until

pytestmark = pytest.mark.timeout(60)


def doctor(tmp_path, conf, capsys) -> tuple[int, str]:
    config = write_config(tmp_path, 1, "", "")
    code = main(["--config", config, "doctor", "--no-broker", "--mosquitto-conf", str(conf)])
    return code, capsys.readouterr().out


def test_doctor_passes_the_settings_of_a_persistent_broker_that_can_save(make_broker, tmp_path, capsys):
    broker = make_broker(persistence=True)
    code, out = doctor(tmp_path, broker.config, capsys)
    assert code == 0, out
    assert "ok  persistence true" in out and f"ok  persistence_location {broker.dir}" in out and "BAD" not in out


def test_doctor_fails_a_broker_without_persistence(make_broker, tmp_path, capsys):
    broker = make_broker()            # the test brokers run with persistence false
    code, out = doctor(tmp_path, broker.config, capsys)
    assert code == 1 and "BAD persistence is false" in out and "set persistence true" in out


def test_doctor_fails_a_persistence_directory_the_brokers_user_cannot_write_and_the_broker_indeed_cannot(
        tmp_path, capsys):
    # The broker: persistence on, but its directory is not the broker's to write (root's, the broker
    # running as nobody; or, run by another user, a read-only directory).
    work = Path(tempfile.mkdtemp(prefix="dealerbox-doctor-"))   # not under pytest's 0700 root-only tmp
    try:
        os.chmod(work, 0o755)
        store = work / "store"
        store.mkdir(mode=0o755)
        as_root = os.geteuid() == 0
        user = "nobody" if as_root else pwd.getpwuid(os.geteuid()).pw_name
        if not as_root:
            os.chmod(store, 0o555)
        broker = Mosquitto(work / "b", persistence=True)
        broker.config.write_text(broker.config.read_text().replace("user root", f"user {user}").replace(
            f"persistence_location {broker.dir}/", f"persistence_location {store}/"))
        os.chmod(broker.dir, 0o777)
        code, out = doctor(tmp_path, broker.config, capsys)
        assert code == 1 and f"BAD persistence_location {store} is not writable by {user}" in out, out
        broker.start()
        try:
            client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id="keeper", protocol=mqtt.MQTTv5)
            client.connect(broker.host, broker.port, clean_start=False)   # a session the broker must save
            client.loop_start()
            assert wait_until(client.is_connected, scaled(10))    # the session exists before the broker stops
            client.loop_stop()
        finally:
            broker.stop()
        assert "Error saving in-memory database" in broker.log(), broker.log()   # what doctor warned of
    finally:
        shutil.rmtree(work, ignore_errors=True)


def test_doctor_fails_a_persistence_directory_that_does_not_exist_and_names_an_unreadable_file(tmp_path, capsys):
    conf = tmp_path / "mosquitto.conf"
    conf.write_text(f"persistence true\npersistence_location {tmp_path / 'gone'}/\nuser root\n")
    code, out = doctor(tmp_path, conf, capsys)
    assert code == 1 and f"BAD persistence_location {tmp_path / 'gone'} (" in out and "does not exist" in out
    code, out = doctor(tmp_path, tmp_path / "nowhere.conf", capsys)
    assert code == 1 and f"{tmp_path / 'nowhere.conf'}: cannot read the broker's configuration" in out


def test_doctor_names_a_floor_user_of_the_password_file_with_no_acl_lines_of_its_own(make_broker, tmp_path, capsys):
    # mosquitto grants such a user's subscriptions and delivers it nothing: a dashboard's alert connection under
    # a user left out of the ACL would take no alert, and the tables would resend them for ever.
    acl = (Path(__file__).parents[2] / "docs/mosquitto/acl").read_text()
    users = {"floor-dashboard-1": "a", "floor-dashboard-1-alerts": "a", "floor-dashboard-3-alerts": "b",
             "demo/T01": "c"}
    broker = make_broker(users=users, acl=acl, persistence=True)
    code, out = doctor(tmp_path, broker.config, capsys)
    assert code == 1, out
    bad = [line for line in out.splitlines() if "BAD" in line and "no `user` block" in line]
    assert len(bad) == 1 and "floor-dashboard-3-alerts" in bad[0] and "floor-dashboard-1" not in bad[0], out
    assert "demo/T01" not in bad[0]          # a table is covered by the pattern lines


def test_doctor_passes_floor_users_that_each_have_acl_lines(make_broker, tmp_path, capsys):
    acl = (Path(__file__).parents[2] / "docs/mosquitto/acl").read_text()
    broker = make_broker(users={"floor-dashboard-1": "a", "floor-dashboard-1-alerts": "a", "demo/T01": "c"},
                         acl=acl, persistence=True)
    code, out = doctor(tmp_path, broker.config, capsys)
    assert code == 0 and "ok  every floor user of" in out, out
