"""A finding the engine raises just after a hand's end (a duplicate card found once the hand is voided) names
that hand: the summary, the audit (its list, findings.csv, the hourly charts) and the PHH export keep it with
its hand, so the audit's floor list adds up to its headline."""

from __future__ import annotations

import csv
import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

from dealerbox.cli import main
from dealerbox.history.audit import LogAudit, Room, audit_log
from dealerbox.history.fastlog import read_hands_fast
from dealerbox.history.summary import HandBook, summarise
from dealerbox.pipeline import Pipeline
from dealerbox.sources import open_log
from tests.conftest import scaled

TWIN = Path(__file__).parent.parent / "scenarios" / "faults-twin-dealt-to-one-seat.scn"


def table_events(path: Path) -> list:
    source = open_log(path)
    pipeline = Pipeline.from_header(source.header)
    return [event for entry in source for event in pipeline.feed(entry)]


def test_the_scenario_raises_a_finding_after_the_void_that_names_the_hand():
    kinds = [(type(e).__name__, getattr(e, "rule", None)) for e in table_events(TWIN)
             if type(e).__name__ in ("HandEnded", "FindingRaised")]
    assert kinds[-2:] == [("HandEnded", None), ("FindingRaised", "irregularity.4")]


def test_a_finding_raised_after_the_void_joins_the_voided_hand():
    hands = summarise(table_events(TWIN))
    assert [h.outcome for h in hands] == ["void"]
    assert [f.rule for f in hands[0].findings] == ["irregularity.3", "irregularity.4"]


def test_the_book_gives_the_ended_hand_again_with_the_late_finding_and_keeps_it_once():
    book = HandBook(keep=True)
    given = [s for s in map(book.feed, table_events(TWIN)) if s is not None]
    assert [s.hand for s in given] == [1, 1]   # at its end, then again with the late finding
    assert len(given[0].findings) == 1 and len(given[1].findings) == 2
    assert book.hands == [given[1]] and book.stray_findings == []


def test_the_fast_reader_keeps_the_late_finding_with_its_hand(tmp_path):
    got = read_hands_fast(TWIN).hands
    assert got.stray == [] and [f.rule for f in got.hands[0].findings] == ["irregularity.3", "irregularity.4"]


def test_the_audit_lists_every_floor_finding_with_its_hand_and_hour(tmp_path, capsys):
    room = tmp_path / "room"
    room.mkdir()
    log = room / TWIN.name
    shutil.copy(TWIN, log)
    out = tmp_path / "report"
    assert main(["audit", str(log), "--out-dir", str(out), "--jobs", "1"]) == 0, capsys.readouterr().err
    with open(out / "findings.csv", newline="", encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
    assert {r["rule"] for r in rows} == {"irregularity.3", "irregularity.4"}
    assert all(r["hand"] == "1" and r["hour"] and r["started_utc"] for r in rows)
    page = (out / "audit.html").read_text(encoding="utf-8")
    headline = int(re.search(r"floor findings (\d+)", page).group(1))
    listed = re.search(r"<h2>Floor findings, each with its hand</h2>\s*<table>.*?</table>", page, re.S).group(0)
    assert headline == 2 and listed.count("<tr>") == headline + 1   # the header row and one per floor finding
    report = audit_log(str(log))
    room_figures = Room.of([report])
    assert sum(room_figures.by_hour.values()) == len(rows)   # every finding is in the hourly charts


def test_a_floor_finding_outside_any_hand_is_still_listed():
    report = LogAudit("x.jsonl", table="T01")
    report.stray = list(read_hands_fast(TWIN).hands.hands[0].findings[:1])
    room = Room.of([report])
    assert room.by_severity["floor"] == len(room.floor) == 1 and room.floor[0][0] is None


def test_the_phh_export_keeps_the_late_finding_in_the_hand(tmp_path):
    out = tmp_path / "twin.phhs"
    done = subprocess.run([sys.executable, "-m", "dealerbox", "export", str(TWIN), "--out", str(out)],
                          capture_output=True, text=True, timeout=scaled(120))
    assert done.returncode == 0, done.stderr
    text = out.read_text(encoding="utf-8")
    rules = re.search(r"_rules = (\[.*?\])", text)
    assert rules and json.loads(rules.group(1).replace("'", '"')) == ["irregularity.3", "irregularity.4"]
