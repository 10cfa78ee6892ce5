"""``dealerbox audit``: a small room of simulated logs (two tables, one damaged log) audited across two
processes; the counts agree with replaying each log alone, the damaged log is named with its first bad line
and still counted, and the HTML page stands alone (inline SVG, no script, nothing from the net)."""

from __future__ import annotations

import csv
import json
import re
from collections import Counter
from pathlib import Path

import pytest

from dealerbox.cli import main
from dealerbox.history.reader import read_hands


@pytest.fixture(scope="module")
def room(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("room")
    for n, (table, variant) in enumerate([("T01", "nlhe"), ("T02", "plo"), ("T03", "flhe")]):
        config = folder / f"{table}.toml"
        config.write_text(f'[table]\nid = "{table}"\n[game]\nvariant = "{variant}"\n')
        assert main(["-c", str(config), "simulate", "--hands", "25", "--seed", str(40 + n),
                     "--irregularities", "0.3", "--out", str(folder / "logs" / f"{table}.jsonl")]) == 0
        config.unlink()
    # T03's log is damaged in the middle: one rx record's bytes edited after the fact.
    damaged = folder / "logs" / "T03.jsonl"
    lines = damaged.read_text().splitlines()
    rec = json.loads(lines[200])
    assert rec["k"] == "rx"
    rec["t"] += 0.5
    lines[200] = json.dumps(rec, separators=(",", ":"))
    damaged.write_text("\n".join(lines) + "\n")
    return folder


def read_csv(path: Path) -> list[dict[str, str]]:
    with open(path, newline="", encoding="utf-8") as f:
        return list(csv.DictReader(f))


def test_room_audit_agrees_with_replaying_each_log(room, tmp_path, capsys):
    out = tmp_path / "report"
    rc = main(["audit", str(room / "logs"), "--out", str(out), "--jobs", "2"])
    assert rc == 1   # one log is damaged
    err = capsys.readouterr().err
    assert "T03.jsonl" in err and "line 201" in err and "broken" in err
    hands = read_csv(out / "hands.csv")
    findings = read_csv(out / "findings.csv")
    logs = {Path(r["log"]).name: r for r in read_csv(out / "logs.csv")}
    assert logs["T03.jsonl"]["status"] == "broken" and "line 201" in logs["T03.jsonl"]["first_bad_line"]
    assert logs["T01.jsonl"]["status"] == "intact"
    want_hands, want_rules, want_floor = 0, Counter(), 0
    for name in ("T01", "T02", "T03"):
        got = read_hands(room / "logs" / f"{name}.jsonl")
        want_hands += len(got.hands)
        assert int(logs[f"{name}.jsonl"]["hands"]) == len(got.hands) >= 25   # the damaged log is still counted
        for h in got.hands:
            want_rules.update(f.rule for f in h.findings)
            want_floor += len(h.floor_findings)
        want_rules.update(f.rule for f in got.stray)
    assert len(hands) == want_hands
    assert Counter(r["rule"] for r in findings) == want_rules
    assert {r["table"] for r in hands} == {"T01", "T02", "T03"}
    summary = {(r["measure"], r["key"]): r["value"] for r in read_csv(out / "summary.csv")}
    misdeals = sum(r["outcome"] == "misdeal" for r in hands)
    assert summary[("hands", "")] == str(want_hands)
    assert float(summary[("misdeal_rate", "")]) == pytest.approx(misdeals / want_hands, abs=1e-4)
    assert sum(int(v) for (m, _), v in summary.items() if m == "hands_per_hour") == want_hands
    assert all(re.fullmatch(r"\d{4}-\d\d-\d\d \d\d:00", r["hour"]) for r in hands)

    page = (out / "audit.html").read_text()
    assert page.count("<svg") >= 4
    assert "<script" not in page.lower()
    assert not re.search(r"(src|href)=[\"']?https?:", page)
    assert "T03.jsonl" in page and "Damaged logs" in page
    floor_rows = re.findall(r"<h2>Floor findings, each with its hand</h2>\s*<table>.*?</table>", page, re.S)
    assert floor_rows and floor_rows[0].count("<tr>") == want_floor + 1   # header row + one per floor finding


def test_nothing_to_audit_is_exit_2(tmp_path, capsys):
    assert main(["audit", str(tmp_path / "none"), "--out", str(tmp_path / "r")]) == 2
    assert "no such file or folder" in capsys.readouterr().err
