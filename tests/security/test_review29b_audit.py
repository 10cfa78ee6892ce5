"""Issue 29 reviewed from outside: failure 5 ("verify without --pubkey prints plain intact for a log edited and
re-chained without the key") was fixed in verify, but `dealerbox audit` judges logs by the same unkeyed chain
and printed the same plain "intact" in its report (audit.html, logs.csv): a rewritten, re-chained log must not
read as proof there either. The real CLI: keygen, simulate signed, the attacker's re-chain, audit."""

from __future__ import annotations

import csv
import json

from dealerbox.cli import main
from dealerbox.record.logformat import GENESIS, chain


def test_audit_never_calls_a_re_chained_log_plain_intact(tmp_path, capsys):
    key = tmp_path / "keys" / "T01.key"
    cfg = tmp_path / "t.toml"
    cfg.write_text(f'[table]\nid = "T01"\n[record]\nkey = "{key}"\n')
    assert main(["--config", str(cfg), "keygen"]) == 0
    log = tmp_path / "logs" / "T01-day.jsonl"
    assert main(["--config", str(cfg), "simulate", "--hands", "3", "--seed", "5", "--out", str(log)]) == 0
    # without the key: the signatures dropped (what a rewrite without the key must do), every hash recomputed
    recs = [json.loads(line) for line in log.read_text().splitlines()]
    recs = [r for r in recs if r["k"] != "sig"]
    prev = GENESIS
    for i, r in enumerate(recs):
        r.pop("h", None)
        r["n"] = i
        r["h"] = chain(prev, r)
        prev = r["h"]
    log.write_text("".join(json.dumps(r) + "\n" for r in recs))
    capsys.readouterr()
    assert main(["audit", "--jobs", "1", "--out-dir", str(tmp_path / "report"), str(log)]) == 0
    [row] = list(csv.DictReader(open(tmp_path / "report" / "logs.csv", encoding="utf-8")))
    html = (tmp_path / "report" / "audit.html").read_text(encoding="utf-8")
    for where, text in (("logs.csv", row["verify"]), ("audit.html", html)):
        assert "unauthenticated" in text and "verify --pubkey" in text, f"{where}: {text[:300]}"
