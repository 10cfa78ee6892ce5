"""Retention keeps N days on the card and deletes only what the floor or an export holds; daily rotation
makes each day whole files. Real recorders writing real logs; the wall clock is the test's."""

import json
import os

from dealerbox.record.logformat import Header, Input, Rx
from dealerbox.engine.inputs import DealerInput
from dealerbox.record.recorder import Recorder
from dealerbox.record.verify import verify_log
from dealerbox.upkeep.figures import Figures
from dealerbox.upkeep.retention import CONFIRMED_FILE, Retention, log_sets

DAY = 86400.0
T0 = 1_790_000_000.0   # 2026-09-21, a fixed wall clock


class Wall:
    def __init__(self, t):
        self.t = t

    def __call__(self):
        return self.t


def _record(directory, name, wall, days=1, per_day=5):
    rec = Recorder(directory, Header(config={}, enrolment={}), name=name, rotate_daily=True, wall=wall)
    for _ in range(days):
        for i in range(per_day):
            rec.write(Rx(float(i), b"\x01\x00"))
        wall.t += DAY
    rec.close()
    return rec


def _age(paths, when):
    for p in paths:
        os.utime(p, (when, when))


def test_daily_rotation_starts_a_part_per_day_and_the_log_still_verifies(tmp_path):
    wall = Wall(T0)
    rec = _record(tmp_path, "T01", wall, days=3)
    assert rec.part == 2
    names = sorted(p.name for p in tmp_path.glob("*.jsonl"))
    assert names == ["T01.jsonl", "T01.part1.jsonl", "T01.part2.jsonl"]
    report = verify_log(tmp_path / "T01.jsonl")
    assert report.intact and report.records == 15 and report.parts == 3, report.summary()
    # Every part holds its day's records (none is only a header).
    for p in tmp_path.glob("*.jsonl"):
        kinds = [json.loads(line)["k"] for line in p.read_text().splitlines()]
        assert kinds.count("rx") == 5


def test_no_daily_rotation_when_off(tmp_path):
    wall = Wall(T0)
    rec = Recorder(tmp_path, Header(config={}, enrolment={}), name="T01", wall=wall)
    rec.write(Rx(0.0, b"\x01"))
    wall.t += 3 * DAY
    rec.write(Rx(1.0, b"\x01"))
    rec.close()
    assert rec.part == 0


def test_old_parts_stay_until_the_floor_confirms_then_go_from_the_front(tmp_path):
    wall = Wall(T0)
    _record(tmp_path, "T01", wall, days=3)
    parts = sorted(tmp_path.glob("T01*.jsonl"))
    _age(parts, T0)             # all three parts are ten days old
    ret = Retention(tmp_path, keep_days=7, wall=Wall(T0 + 10 * DAY))
    first = ret.sweep()
    assert first.deleted == [] and first.kept_unconfirmed == 1
    # The floor acknowledged an anchor in part 1: part 0 is covered, part 1 only up to that line.
    assert ret.confirm({"log": "T01.jsonl", "part": 1, "n": 2})
    second = ret.sweep()
    assert [p.name for p in second.deleted] == ["T01.jsonl"]
    assert second.freed_bytes > 0 and second.kept_unconfirmed == 1
    # What is left is still a log a reader can follow and verify from its first remaining part.
    assert verify_log(tmp_path / "T01.part1.jsonl").intact


def test_an_anchor_at_the_last_line_covers_the_whole_part_and_marks_go_with_the_log(tmp_path):
    wall = Wall(T0)
    _record(tmp_path, "T01", wall, days=2)
    parts = sorted(tmp_path.glob("T01*.jsonl"))
    _age(parts, T0)
    last_n = len((tmp_path / "T01.part1.jsonl").read_text().splitlines()) - 1
    ret = Retention(tmp_path, keep_days=7, wall=Wall(T0 + 10 * DAY))
    ret.confirm({"log": "T01.jsonl", "part": 1, "n": last_n})
    result = ret.sweep()
    assert len(result.deleted) == 2 and not list(tmp_path.glob("T01*.jsonl"))
    assert json.loads((tmp_path / CONFIRMED_FILE).read_text()) == {}


def test_exported_marker_covers_every_part_but_young_and_active_parts_stay(tmp_path):
    wall = Wall(T0)
    _record(tmp_path, "OLD", wall, days=2)
    _age(sorted(tmp_path.glob("OLD*.jsonl")), T0)
    _record(tmp_path, "NEW", Wall(T0 + 9 * DAY), days=1)
    _age(sorted(tmp_path.glob("NEW*.jsonl")), T0 + 9 * DAY)
    (tmp_path / "OLD.exported").write_text("copied to /mnt/usb 2026-09-30\n")
    (tmp_path / "NEW.exported").write_text("")
    ret = Retention(tmp_path, keep_days=7, wall=Wall(T0 + 10 * DAY))
    result = ret.sweep(active=[tmp_path / "OLD.part1.jsonl"])
    # OLD's first part goes; its second is being written (never deleted); NEW is too young.
    assert [p.name for p in result.deleted] == ["OLD.jsonl"]
    assert {s.name for s in log_sets(tmp_path)} == {"OLD.jsonl", "NEW.jsonl"}
    assert ret.sweep().deleted == [tmp_path / "OLD.part1.jsonl"]
    assert not (tmp_path / "OLD.exported").exists()


def test_keep_days_zero_keeps_everything(tmp_path):
    wall = Wall(T0)
    _record(tmp_path, "T01", wall, days=2)
    _age(sorted(tmp_path.glob("*.jsonl")), T0 - 400 * DAY)
    (tmp_path / "T01.exported").write_text("")
    assert Retention(tmp_path, keep_days=0, wall=Wall(T0)).sweep().deleted == []


def test_a_bad_anchor_is_not_noted_and_figures_count_log_days(tmp_path):
    ret = Retention(tmp_path, keep_days=7)
    assert not ret.confirm({"log": "T01.jsonl", "part": "1"})
    assert ret.confirmed() == {}
    wall = Wall(T0)
    _record(tmp_path, "T01", wall, days=3)
    for n, p in enumerate(sorted(tmp_path.glob("T01*.jsonl"))):
        _age([p], T0 + n * DAY)
    figures = Figures(tmp_path).collect({"outbox_depth": 7})
    assert figures["log_days"] == 3 and figures["outbox_depth"] == 7
    assert figures["memory_mb"] > 5 and figures["disk_free_mb"] > 0


def test_a_tap_is_still_a_record_after_midnight(tmp_path):
    wall = Wall(T0)
    rec = Recorder(tmp_path, Header(config={}, enrolment={}), name="T01", rotate_daily=True, wall=wall)
    rec.write(Rx(0.0, b"\x01"))
    wall.t += DAY
    rec.write(Input(DealerInput(t=1.0, action="new-hand")))
    rec.close()
    assert rec.part == 1 and rec.records == 2
    assert '"a":"new-hand"' in (tmp_path / "T01.part1.jsonl").read_text()
