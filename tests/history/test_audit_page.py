"""The audit's page and figures as a manager reads them: the rule chart shows rulings, not the info notes that
outnumber them; every rule has its severity; hour labels do not crowd a long room; an intact log's record count
is verify's; an unclosed log is a damaged log (exit 1, one line)."""

from __future__ import annotations

import re
from pathlib import Path

from dealerbox.cli import main
from dealerbox.history.audit import HandRow, LogAudit, Room
from dealerbox.history.fastlog import read_hands_fast
from dealerbox.history.report import MAX_LABELS, html_page
from dealerbox.history.summary import Finding
from dealerbox.record.recorder import Recorder
from dealerbox.record.verify import verify_log
from dealerbox.sources.scenario import compile_file

SCENARIOS = Path(__file__).parent.parent / "scenarios"


def finding(rule: str, severity: str) -> Finding:
    return Finding(f"{rule}-x", rule, f"cite {rule}", severity, "continues", "ruling", (1,), 0.0)


def room_of(hours: int, notes_per_hand: int = 3) -> Room:
    rows = []
    for n in range(hours):
        hour = f"2026-03-{1 + n // 24:02d} {n % 24:02d}:00"
        found = tuple(finding("showdown.7", "info") for _ in range(notes_per_hand))
        found += (finding("betting.14", "dealer"),) if n % 4 == 0 else ()
        found += (finding("irregularity.4", "floor"),) if n == 5 else ()
        rows.append(HandRow("a.jsonl", "T01", "", n + 1, "complete", hour, hour + ":00", found))
    return Room.of([LogAudit("a.jsonl", "T01", "intact", "intact", hands=rows)])


def svg_after(page: str, title: str) -> str:
    start = page.index(title)
    return page[start:page.index("</svg>", start)]


def test_the_rule_chart_shows_rulings_and_the_table_gives_every_rule_its_severity():
    page = html_page(room_of(30))
    chart = svg_after(page, "Rulings per rule")
    assert "betting.14" in chart and "irregularity.4" in chart and "showdown.7" not in chart
    table = page[page.index("<h2>Findings per rule</h2>"):]
    assert "<th>severity</th>" in table
    rows = re.findall(r"<tr><td>([^<]+)</td><td>(\w+)</td>", table)
    assert rows[:3] == [("irregularity.4", "floor"), ("betting.14", "dealer"), ("showdown.7", "info")]


def test_hour_labels_are_thinned_over_a_long_room():
    page = html_page(room_of(56, notes_per_hand=0))
    chart = svg_after(page, "Hands per hour")
    shown = re.findall(r"<text[^>]*>2026-03-\d\d \d\d:00</text>", chart)
    assert 10 <= len(shown) <= MAX_LABELS


def recorded(tmp_path: Path, scenario: str, close: bool = True) -> Path:
    compiled = compile_file(SCENARIOS / scenario)
    rec = Recorder(tmp_path, compiled.header, name=Path(scenario).stem)
    for record in compiled.records:
        rec.write(record)
    rec.close()
    if not close:   # a power cut before the close: the file ends, on a line boundary, before its closing record
        lines = rec.path.read_bytes().splitlines(keepends=True)
        while b'"k":"closed"' not in lines.pop():
            pass
        rec.path.write_bytes(b"".join(lines))
    return rec.path


def test_an_intact_logs_record_count_is_verifys(tmp_path):
    log = recorded(tmp_path, "clean-hand.scn")
    check = read_hands_fast(log).check
    report = verify_log(log)
    assert check.intact and report.intact
    assert f"{report.records} records" in check.summary(str(log))


def test_an_unclosed_log_audits_as_damaged_with_exit_1(tmp_path, capsys):
    log = recorded(tmp_path, "clean-hand.scn", close=False)
    assert not verify_log(log).closed
    assert main(["audit", str(log), "--out-dir", str(tmp_path / "r"), "--jobs", "1"]) == 1
    err = capsys.readouterr().err
    assert "no closing record" in err and log.name in err
