"""Issue 29, root on the box once more: the table's hand count deleted and anchored hands re-recorded as its next
log; and the floor's clock, not the table's, judging a late head. Real mosquitto, the real dashboard and floor
link, the real CLI."""

from __future__ import annotations

import csv
import json
import time

import pytest
import sqlalchemy as sa

from dealerbox.cli import main
from dealerbox.dashboard.anchors import AnchorStore, enrolled
from dealerbox.dashboard.store import Store
from dealerbox.record.anchor import anchor_message, hand_conflicts
from dealerbox.record.signing import anchor_digest, anchor_fields_text, anchor_text, load_signer
from tests.dashboard.conftest import ShiftedClock
from tests.waiting import wait_until

from .witness import anchored_session, floor, link, play, recorder, table_keys
from tests.conftest import scaled

pytestmark = [pytest.mark.timeout(300), pytest.mark.usefixtures("floor_password")]


def _open_alerts(running, rule: str) -> list:
    return [a for a in running.store.alerts(site="demo", table="T01", open_only=True) if a.rule == rule]


def test_hands_re_recorded_as_the_next_log_fail_verify_and_audit_naming_both_logs_and_the_hands(tmp_path, broker,
                                                                                               capsys):
    rec, (private, public), running = anchored_session(tmp_path, broker)
    store = running.dash.ingest.anchor_store
    try:
        (tmp_path / "var" / "hands-T01.json").unlink()          # root resets the hand count
        floor_link = link(tmp_path, broker.port)
        forged = recorder(tmp_path, private, name="T01-night")
        forged.on_anchor = floor_link.submit_anchor
        try:
            play(forged, range(1, 5), salt=7)
            forged.close()
            assert wait_until(lambda: len(store.heads("demo", "T01")) == 10, scaled(20))
        finally:
            floor_link.stop(timeout=scaled(2))
        day, night = rec.anchor["log"], forged.anchor["log"]
        assert forged.anchor["hands"] == [1, 4] and rec.anchor["hands"] == [1, 4]
        # the floor keeps the heads (they are the table's, and evidence) and raises one alert naming both logs
        raised = _open_alerts(running, "evidence.anchor.hands")
        assert len(raised) == 1 and night in raised[0].ruling and day in raised[0].ruling
        assert "starts again at hand 1, but the floor holds hands up to 4" in raised[0].ruling
        verify = ["--pubkey", str(public), "--from-floor", running.url, "--floor-user", "vic"]
        assert main(["verify", str(forged.path), *verify]) == 1
        out = capsys.readouterr().out
        assert out.startswith("BROKEN:") and f"log {night} (place 2) holds hands 1-4" in out and day in out
        # the log anchored first stays intact, and is told that another log repeats its hands
        assert main(["verify", str(rec.path), *verify]) == 0
        out = capsys.readouterr().out
        assert out.startswith("intact:") and "(from the floor at " in out
        assert f"  note: demo/T01's log {night} (place 2) holds hands 1-4" in out
        # the audit of both logs: the conflict, in its output and its CSV, and where the heads came from
        logs = tmp_path / "var" / "logs"
        assert main(["audit", str(logs), "--out", str(tmp_path / "report"), "--jobs", "1",
                     "--from-floor", running.url, "--floor-user", "vic"]) == 1
        err = capsys.readouterr().err
        assert f"10 signed heads from the floor at {running.url}" in err
        assert f"log {night} (place 2) holds hands 1-4, which the floor anchored first under log {day}" in err
        with open(tmp_path / "report" / "hand-conflicts.csv", newline="") as f:
            rows = list(csv.DictReader(f))
        assert [(r["kind"], r["log"], r["first"], r["last"], r["other_log"]) for r in rows] == \
            [("repeat", night, "1", "4", day)]
        # the same heads from a file: said to be a file given on the command line, not the floor's word
        export = tmp_path / "heads.jsonl"
        export.write_text("".join(json.dumps(h) + "\n" for h in store.heads("demo", "T01")))
        assert main(["audit", str(logs), "--out", str(tmp_path / "report2"), "--jobs", "1",
                     "--anchors", str(export)]) == 1
        err = capsys.readouterr().err
        assert f"10 signed heads from {export}, a file given on the command line (not read from the floor)" in err
        assert main(["verify", str(rec.path), "--pubkey", str(public), "--anchors", str(export)]) == 0
        assert "a file given on the command line (not read from the floor)" in capsys.readouterr().out
    finally:
        running.stop()


def test_hand_conflicts_names_repeats_a_count_gone_back_a_gap_and_a_restarted_sequence():
    def head(log: str, seq: int, hands: list[int] | None) -> dict:
        return {"a": 1, "site": "demo", "table": "T01", "log": log, "seq": seq,
                **({"hands": hands} if hands is not None else {})}

    clean = [head("a", 1, [1, 0]), head("a", 1, [1, 3]), head("b", 2, [4, 7]), head("c", 3, [8, 7])]
    assert hand_conflicts(clean) == []
    got = hand_conflicts([head("a", 1, [1, 3]), head("b", 2, [4, 9]), head("c", 3, [2, 5])])
    assert [(c.kind, c.log, c.first, c.last, c.other) for c in got] == [("repeat", "c", 2, 3, "a"),
                                                                       ("repeat", "c", 4, 5, "b")]
    got = hand_conflicts([head("a", 1, [5, 9]), head("b", 2, [2, 1])])        # no hand yet, but numbered back
    assert [(c.kind, c.first, c.last, c.other) for c in got] == [("behind", 2, 9, "a")]
    got = hand_conflicts([head("a", 1, [1, 4]), head("b", 2, [9, 12])])
    assert [(c.kind, c.first, c.last) for c in got] == [("gap", 5, 8)]
    assert "hands 5-8 are in no log the floor anchored" in got[0].text()
    got = hand_conflicts([head("a", 2, [1, 4]), head("b", 1, None)])             # version 2 heads: the place only
    assert [(c.kind, c.log, c.other) for c in got] == [("restart", "b", "a")]
    assert hand_conflicts([head("a", 1, None), head("b", 2, None)]) == []


def test_late_is_judged_on_the_floor_s_clock_from_the_table_s_offline_not_from_its_signed_at(tmp_path, broker):
    private, public = table_keys(tmp_path)
    clock = ShiftedClock()
    running = floor(tmp_path, broker, public, clock)
    store = running.dash.ingest.anchor_store
    floor_link = link(tmp_path, broker.port)
    rec = recorder(tmp_path, private)
    rec.on_anchor = floor_link.submit_anchor
    try:
        play(rec, range(1, 2))
        assert wait_until(lambda: len(store.heads("demo", "T01")) == 1, scaled(10))
        clock.offset = 60 * 60         # an idle hour, the link up all along: the next hand's head is not late
        play(rec, range(2, 3))
        assert wait_until(lambda: len(store.heads("demo", "T01")) == 2, scaled(10))
        floor_link.stop(timeout=scaled(2))     # the table goes offline (the floor hears it)...
        assert wait_until(lambda: _down_at(running) is not None, scaled(10))
        clock.offset = 60 * 60 + 3 * 60                   # ...and comes back 3 minutes later: within the window
        floor_link = link(tmp_path, broker.port)
        rec.on_anchor = floor_link.submit_anchor
        play(rec, range(3, 4))
        assert wait_until(lambda: len(store.heads("demo", "T01")) == 3, scaled(10))
        assert _open_alerts(running, "evidence.anchor.late") == []
        assert _down_at(running) is None                   # a head after the return closes the outage
        floor_link.stop(timeout=scaled(2))
        assert wait_until(lambda: _down_at(running) is not None, scaled(10))
        clock.offset = 60 * 60 + 40 * 60                   # away 37 minutes: past the window
        floor_link = link(tmp_path, broker.port)
        rec.on_anchor = floor_link.submit_anchor
        play(rec, range(4, 5))
        assert wait_until(lambda: _open_alerts(running, "evidence.anchor.late"), scaled(10))
        late = _open_alerts(running, "evidence.anchor.late")[0].ruling
        assert "could not hear the table" in late and "it was back 37 min later" in late
        assert f"the table dates this head {store.heads('demo', 'T01')[-1]['at']}" in late   # told, not trusted
    finally:
        floor_link.stop(timeout=scaled(2))
        running.stop()


def _down_at(running) -> float | None:
    with running.store.engine.connect() as conn:
        return conn.execute(sa.select(enrolled.c.down_at)).scalar()


def test_a_head_signed_as_of_long_ago_with_the_table_in_hearing_is_not_late_and_an_old_floor_database_is_upgraded(
        tmp_path):
    private, _ = table_keys(tmp_path)
    signer = load_signer(private, "T01")
    db = f"sqlite:///{tmp_path / 'old.db'}"
    store = Store(db)
    with store.engine.begin() as conn:      # the anchor store as its first version made it: no hands, no presence
        conn.exec_driver_sql("CREATE TABLE anchor_tables (site VARCHAR(32) NOT NULL, table_id VARCHAR(32) NOT NULL, "
                             "pubkey VARCHAR(64) NOT NULL, enrolled_at FLOAT NOT NULL, a INTEGER NOT NULL, digest "
                             "VARCHAR(64) NOT NULL, seq INTEGER NOT NULL, part INTEGER NOT NULL, n INTEGER NOT NULL, "
                             "kept INTEGER NOT NULL, PRIMARY KEY (site, table_id))")
        conn.exec_driver_sql(f"INSERT INTO anchor_tables VALUES ('demo', 'T01', '{signer.public_hex}', 0, 0, '', 0, "
                             f"0, -1, 0)")
    anchors = AnchorStore(store)
    with store.engine.begin() as conn:
        cols = {c["name"] for c in sa.inspect(conn).get_columns("anchor_tables")}
        assert {"hand", "hand_log", "down_at", "up_at", "log_id"} <= cols
        prev = "0" * 64
        for a, at in ((1, "2020-01-01T00:00:00Z"), (2, "2020-01-01T00:01:00Z")):
            text = anchor_text("demo", "T01", "0123456789abcdef", 1, "0" * 64, 0, a, "1" * 64, a, prev, (1, a))
            head = anchor_message("demo", {"table": "T01", "log": "0123456789abcdef", "seq": 1, "origin": "0" * 64,
                                           "part": 0, "n": a, "head": "1" * 64, "sig": signer.sign(0, a, "1" * 64),
                                           "key": "0" * 16, "t": 1.0, "at": at, "a": a, "prev": prev,
                                           "asig": signer.sign_bytes(text), "hands": [1, a]})
            verdict = anchors.receive(conn, "demo", "T01", head, time.time())
            assert verdict.kept and verdict.alerts == []   # signed "in 2020", heard now: the date is the table's
            prev = anchor_digest(anchor_fields_text(head))
    store.close()
