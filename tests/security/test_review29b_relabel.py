"""Issue 29 reviewed from outside: root on the box relabels T01's anchored log as another table (the header's
table id changed, every line re-signed with T01's own key under the new name). The auditor checks it against
T01's heads: from the floor with ``--table demo/T01`` and from the file ``dealerbox dashboard anchors`` wrote.
Real mosquitto, the real dashboard, the real floor link, the real CLI."""

from __future__ import annotations

import pytest

from dealerbox.cli import main
from dealerbox.record.signing import load_signer

from .witness import resign, rx_edit

pytestmark = [pytest.mark.timeout(300), pytest.mark.usefixtures("floor_password")]


def test_t01_s_log_rewritten_and_relabelled_as_another_table_does_not_pass_against_t01_s_heads(tmp_path, capsys,
                                                                                                 anchored):
    rec, (private, public), running = anchored

    def relabel(recs):
        recs = rx_edit(2)(recs)                        # hand 2 rewritten ...
        recs[0]["config"]["table"]["id"] = "T09"       # ... and the log now says it is T09's
        return recs
    forged = tmp_path / "T09-exhibit.jsonl"
    resign(rec.path, load_signer(private, "T09"), relabel, forged)   # T01's key, signing as "T09"
    exported = tmp_path / "T01-anchors.jsonl"
    assert main(["dashboard", "anchors", "--db", running.db, "--site", "demo", "--table", "T01",
                 "--out", str(exported)]) == 0
    capsys.readouterr()
    for how in (["--from-floor", running.url, "--floor-user", "vic", "--table", "demo/T01"],
                ["--anchors", str(exported)]):
        code = main(["verify", str(forged), "--pubkey", str(public), *how])
        out = capsys.readouterr().out
        # T01's key signed it and the auditor gave T01's five heads: none of them may be silently set aside
        assert code == 1, f"verify {how[0]}: exit {code}: {out.strip()}"
        assert "T09" in out and "T01" in out, out
