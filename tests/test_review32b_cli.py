"""Outside review of issue 32: the dashboard's actions are real subcommands, so an option given before the
action keeps the meaning it has there (the broker's password), never the action's option of the same name."""

from __future__ import annotations

import subprocess
import sys
from tests.conftest import scaled


def test_the_brokers_password_file_before_add_user_is_never_the_new_users_password(tmp_path):
    broker = tmp_path / "broker.pw"
    broker.write_text("the-brokers-password\n")
    db = f"sqlite:///{tmp_path / 'floor.db'}"
    done = subprocess.run([sys.executable, "-m", "dealerbox", "dashboard", "--password-file", str(broker),
                           "add-user", "boss", "--db", db], capture_output=True, text=True, timeout=scaled(120),
                          stdin=subprocess.DEVNULL)
    assert done.returncode == 2, done.stdout + done.stderr
    assert done.stderr == ("dealerbox dashboard: add-user: no terminal to ask the password on: "
                           "pass --password-file FILE\n")


def test_keygen_out_a_folder_says_out_is_the_key_file_not_that_a_key_is_there(tmp_path, capsys):
    from dealerbox.cli import main
    for floor in ([], ["--floor"]):
        assert main(["keygen", "--out", str(tmp_path), *floor]) == 2
        err = capsys.readouterr().err
        assert err == f"dealerbox keygen: --out {tmp_path}: a folder; --out is the private key's file, e.g. " \
                      f"{tmp_path}/table.key\n"


def test_audit_out_dir_naming_a_file_says_so_before_any_work(tmp_path, capsys):
    from dealerbox.cli import main

    from .cli.test_one_line_errors import CLEAN
    taken = tmp_path / "report.html"
    taken.write_text("not a folder")
    assert main(["audit", str(CLEAN), "--out-dir", str(taken)]) == 2
    assert capsys.readouterr().err == (f"dealerbox audit: --out-dir {taken}: a file, not a folder; "
                                       "give a folder for audit.html and the CSV files\n")
