"""The recorder writes a hash-chained, rotating log; verify finds tampering; a power cut or a full disk
never spoils what was already recorded."""

import json
import os
from pathlib import Path

import pytest

from dealerbox.config import Config
from dealerbox.engine.inputs import DealerInput
from dealerbox.pipeline import Pipeline, enrolment_of
from dealerbox.record.logformat import Gap, Header, Input, Rx, part_path
from dealerbox.record.recorder import Recorder
from dealerbox.record.verify import verify_log
from dealerbox.sources import LogError, open_log
from dealerbox.tags import demo_registry
from dealerbox.wire import protocol as p


class FakeClock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def header() -> Header:
    return Header(config=Config().to_dict(), enrolment=enrolment_of(demo_registry()), created="2025-01-02T03:04:05Z")


def rx(i: int) -> Rx:
    return Rx(i * 0.25, p.encode_frame(i, p.Heartbeat(i, 0, 0)))


def record(tmp_path, n=20, rotate_bytes=1 << 20, **kw) -> Recorder:
    rec = Recorder(tmp_path, header(), rotate_bytes, name="T01-test", **kw)
    for i in range(n):
        rec.write(rx(i))
    rec.write(Input(DealerInput(t=n * 0.25, action="check", seat=3)))
    rec.close()
    return rec


def lines_of(path: Path) -> list[bytes]:
    return path.read_bytes().splitlines(keepends=True)


def test_a_closed_log_is_intact_and_reads_back(tmp_path):
    rec = record(tmp_path)
    report = verify_log(rec.path)
    assert report.intact, report.summary()
    assert (report.records, report.parts, report.first_t, report.last_t) == (21, 1, 0.0, 5.0)
    src = open_log(rec.path)
    assert src.header.config["table"]["id"] == "T01"
    got = list(src)
    assert got[:20] == [rx(i) for i in range(20)]
    assert got[20] == Input(DealerInput(t=5.0, action="check", seat=3))
    assert src.counters["chain_breaks"] == 0


def test_rotation_chains_parts_and_replays_across_them(tmp_path):
    rec = record(tmp_path, n=300, rotate_bytes=40_000)
    assert rec.part >= 3
    headers = [json.loads(lines_of(f)[0]) for f in rec.parts]
    assert [h["part"] for h in headers] == list(range(rec.part + 1))
    for before, after in zip(rec.parts, headers[1:], strict=False):
        assert after["prev"] == json.loads(lines_of(before)[-1])["h"]
    # Later parts carry the board's HELLO only once one was seen; here none was.
    assert verify_log(rec.path).intact
    assert [r.t for r in open_log(rec.path) if isinstance(r, Rx)] == [i * 0.25 for i in range(300)]


def test_later_parts_carry_the_last_hello(tmp_path):
    rec = Recorder(tmp_path, header(), 40_000, name="hello")
    rec.write(Rx(0.0, p.encode_frame(0, p.Hello(1, 0, (2, 3, 4), (0, 1, 31)))))
    for i in range(1, 100):
        rec.write(rx(i))
    rec.close()
    later = json.loads(lines_of(rec.parts[-1])[0])
    assert later["hello"] == {"protocol": "1.0", "firmware": "2.3.4", "zones": ["shoe", "seat1", "pot"]}


@pytest.mark.parametrize("tamper, where, what", [
    ("edit", 5, "edited"),
    ("delete", 5, "deleted"),
    ("insert", 5, "inserted"),
])
def test_tampering_is_found_and_located(tmp_path, tamper, where, what):
    rec = record(tmp_path)
    lines = lines_of(rec.path)
    if tamper == "edit":
        lines[where - 1] = lines[where - 1].replace(b'"t":0.75', b'"t":0.8')
        assert b'"t":0.8' in lines[where - 1]
    elif tamper == "delete":
        del lines[where - 1]
    else:
        lines.insert(where - 1, lines[where - 1].replace(b'"t":0.75', b'"t":0.7'))
    rec.path.write_bytes(b"".join(lines))
    report = verify_log(rec.path)
    assert not report.intact
    assert report.problems[0].line == where and report.problems[0].file == rec.path.name
    assert what in report.problems[0].what
    assert report.summary().startswith("BROKEN: T01-test.jsonl line 5:")


def test_a_single_flipped_byte_is_found(tmp_path):
    rec = record(tmp_path)
    data = bytearray(rec.path.read_bytes())
    at = data.index(b'"d":"') + 8
    data[at] = ord("f") if data[at] != ord("f") else ord("e")
    rec.path.write_bytes(bytes(data))
    report = verify_log(rec.path)
    assert report.problems and report.problems[0].line == 2


def test_truncation_on_a_line_boundary_is_incomplete_and_mid_line_is_a_partial_line(tmp_path):
    rec = record(tmp_path)
    lines = lines_of(rec.path)
    rec.path.write_bytes(b"".join(lines[:10]))
    report = verify_log(rec.path)
    assert not report.intact and not report.problems
    assert report.summary().startswith("INCOMPLETE: 9 records")
    rec.path.write_bytes(b"".join(lines[:10]) + lines[10][:17])
    report = verify_log(rec.path)
    assert report.partial_line is not None and report.partial_line.line == 11
    assert "unfinished last line" in report.summary()


def test_cutting_the_end_of_a_rotated_part_is_found_at_the_next_part(tmp_path):
    rec = record(tmp_path, n=300, rotate_bytes=40_000)
    first = rec.parts[0]
    first.write_bytes(b"".join(lines_of(first)[:-1]))
    report = verify_log(rec.path)
    assert report.problems[0].file == rec.parts[1].name and report.problems[0].line == 1
    assert "previous part" in report.problems[0].what


def test_a_power_cut_partial_last_line_is_skipped_and_the_rest_replays(tmp_path):
    rec = Recorder(tmp_path, header(), name="cut")
    for i in range(10):
        rec.write(rx(i))
    # No close(): the power went. Simulate the half-written line the cut left behind.
    with open(rec.path, "ab") as f:
        f.write(b'{"k":"rx","t":2.5,"d":"0306')
    src = open_log(rec.path)
    assert list(src) == [rx(i) for i in range(10)]
    assert src.counters["partial_lines"] == 1 and src.counters["chain_breaks"] == 0
    report = verify_log(rec.path)
    assert report.records == 10 and not report.problems and not report.closed


def test_a_full_disk_is_counted_buffered_and_retried_never_raised(tmp_path, caplog):
    clock = FakeClock()
    rec = Recorder(tmp_path, header(), name="full", clock=clock, retry_every_s=1.0, buffer_max=5)
    path = rec.path
    rec.write(rx(0))
    rec._close_file()  # the card goes bad mid-session: the next open of the file meets /dev/full
    moved = path.with_suffix(".good")
    path.rename(moved)
    os.symlink("/dev/full", path)
    for i in range(1, 9):
        clock.now += 0.5
        rec.write(rx(i))  # never raises
    h = rec.health()
    assert h["write_errors"] >= 1 and not h["ok"]
    assert "No space left on device" in h["last_error"] and str(path) in h["last_error"]
    assert h["buffered"] == 5 and h["dropped"] == 3
    assert any("free space" in r.message for r in caplog.records)
    # Space comes back: the same file, with what was written before.
    path.unlink()
    moved.rename(path)
    clock.now += 1.0
    rec.write(rx(9))
    rec.close()
    assert rec.health()["ok"] and rec.health()["buffered"] == 0
    report = verify_log(path)
    assert report.intact, report.summary()
    got = list(open_log(path))
    assert got[0] == rx(0)
    assert isinstance(got[1], Gap) and got[1].records == 3 and got[1].t == rx(1).t
    assert got[2:] == [rx(i) for i in range(4, 10)]


def test_a_failed_half_written_line_is_cut_back_before_the_retry(tmp_path):
    rec = Recorder(tmp_path, header(), name="half")
    rec.write(rx(0))
    with open(rec.path, "ab") as f:
        f.write(b'{"k":"rx","t":9')  # what a write cut by an error could leave
    rec._close_file()
    rec.write(rx(1))
    rec.close()
    assert verify_log(rec.path).intact


def test_open_log_errors_are_one_clear_line(tmp_path):
    with pytest.raises(LogError, match="no such log: .*missing.jsonl"):
        open_log(tmp_path / "missing.jsonl")
    bad = tmp_path / "notes.jsonl"
    bad.write_text("hello world\n")
    with pytest.raises(LogError, match="line 1 is not a dealerbox log header"):
        open_log(bad)


def test_a_recorded_log_replays_to_the_same_events_as_the_live_bytes(tmp_path):
    from tests.stream_samples import table_stream
    stream = table_stream()
    live = Pipeline.from_header(header())
    live_events = [e.to_dict(reveal=True) for entry in stream for e in live.feed(entry)]
    rec = Recorder(tmp_path, header(), 33_000, name="eq")
    for entry in stream:
        rec.write(entry)
    rec.close()
    src = open_log(rec.path)
    replayed = Pipeline.from_header(src.header)
    replay_events = [e.to_dict(reveal=True) for entry in src for e in replayed.feed(entry)]
    assert len(live_events) > 5
    assert replay_events == live_events
    assert replayed.counters() == live.counters()


def test_an_empty_last_part_is_a_rotation_cut_short_not_damage_but_an_empty_middle_part_is(tmp_path):
    rec = Recorder(tmp_path, header(), 40_000, name="T01-rot")
    for i in range(300):
        rec.write(rx(i))
    # a power cut as the recorder rotated (so no closing record): the new part exists, its header never reached
    # the disk
    empty = part_path(rec.path, rec.part + 1)
    empty.write_bytes(b"")
    report = verify_log(rec.path)
    assert not report.problems, report.summary()
    assert report.partial_line is not None and "stopped as it rotated" in report.partial_line.what
    assert [r.t for r in open_log(rec.path) if isinstance(r, Rx)] == [i * 0.25 for i in range(300)]
    # the same empty file with a part after it is a hole in the set
    part_path(rec.path, rec.part + 2).write_bytes(rec.parts[0].read_bytes())
    assert any("empty file" in p.what for p in verify_log(rec.path).problems)
