"""``dealerbox doctor`` against a real mosquitto: it reports what the configured identity may and may not
publish, and fails when the broker lets a table do too much or the username does not bind site and table."""

from __future__ import annotations

import sqlite3

import pytest

from dealerbox.cli import main
from tests.test_floor_contract import ROOT
from tests.test_floor_security import USERS, _password_file

pytestmark = pytest.mark.timeout(60)

ACL = (ROOT / "docs/mosquitto/acl").read_text()


def write_config(tmp_path, port: int, username: str, password_file: str, hole_cards: bool = True) -> str:
    path = tmp_path / "dealerbox.toml"
    path.write_text(f"""
[table]
site = "demo"
id = "T01"

[floor]
port = {port}
username = "{username}"
password_file = "{password_file}"
outbox = "{tmp_path / 'outbox.sqlite'}"
hole_cards_topic = {str(hole_cards).lower()}

[record]
dir = "{tmp_path / 'logs'}"
""")
    return str(path)


def test_doctor_reports_what_the_identity_may_and_may_not_publish(make_broker, tmp_path, capsys):
    broker = make_broker(users=USERS, acl=ACL, extra="use_username_as_clientid true")
    (tmp_path / "logs").mkdir()
    (tmp_path / "logs" / "table.dblog").write_bytes(b"x")
    db = sqlite3.connect(tmp_path / "outbox.sqlite")
    db.execute("CREATE TABLE outbox (id INTEGER PRIMARY KEY)")
    db.executemany("INSERT INTO outbox VALUES (?)", [(i,) for i in range(7)])
    db.commit()
    db.close()
    config = write_config(tmp_path, broker.port, "demo/T01", _password_file(tmp_path, "demo/T01"))
    assert main(["--config", config, "doctor"]) == 0
    out = capsys.readouterr().out
    assert "connected to 127.0.0.1" in out and "BAD" not in out
    for kind in ("status", "state", "event", "alert", "holecards"):
        assert f"ok  dealerbox/demo/T01/{kind}: may publish" in out
    assert "ok  dealerbox/demo/T01/cmd: refused" in out
    assert "ok  dealerbox/demo/T99/alert: refused" in out and "ok  dealerbox/othersite/T01/alert: refused" in out
    assert "outbox: 7 message(s) waiting" in out and "logs: 1 file(s)" in out and "MiB available" in out


def test_doctor_fails_on_a_broker_that_lets_a_table_write_anywhere(make_broker, tmp_path, capsys):
    broker = make_broker(users=USERS, acl="pattern write dealerbox/#\n")
    config = write_config(tmp_path, broker.port, "demo/T01", _password_file(tmp_path, "demo/T01"), False)
    assert main(["--config", config, "doctor"]) == 1
    out = capsys.readouterr().out
    assert "BAD dealerbox/othersite/T01/alert: may publish" in out and "should be refused" in out
    assert "BAD dealerbox/demo/T01/holecards: may publish" in out


def test_doctor_names_a_username_that_does_not_bind_site_and_table(make_broker, tmp_path, capsys):
    broker = make_broker(users={**USERS, "T01": "pw-old"}, acl=ACL)
    config = write_config(tmp_path, broker.port, "T01", _password_file(tmp_path, "T01", "pw-old"))
    assert main(["--config", config, "doctor"]) == 1
    out = capsys.readouterr().out
    assert "BAD floor.username 'T01' is not 'demo/T01'" in out
    assert "BAD dealerbox/demo/T01/status: refused" in out


def test_doctor_says_when_the_broker_refuses_the_credentials(make_broker, tmp_path, capsys):
    broker = make_broker(users=USERS, acl=ACL)
    config = write_config(tmp_path, broker.port, "demo/T01", _password_file(tmp_path, "demo/T01", "wrong"))
    assert main(["--config", config, "doctor"]) == 1
    out = capsys.readouterr().out
    assert "refused user 'demo/T01'" in out and "floor.password_file" in out and "outbox: no outbox yet" in out
