"""``dealerbox replay``, ``verify`` and ``record`` as a user runs them; a recorded log and a scenario
replay to the same events; replay pacing with a clock the test owns."""

import argparse
import json
import threading
from pathlib import Path

from dealerbox.cli import main
from dealerbox.commands import replay
from dealerbox.record.logformat import Rx
from dealerbox.record.recorder import Recorder
from dealerbox.record.verify import verify_log
from dealerbox.sources import open_log
from dealerbox.sources.pacing import paced
from dealerbox.sources.scenario import compile_file
from dealerbox.wire import protocol as p
from dealerbox.wire.decoder import FrameDecoder
from tests.conftest import scaled

SCENARIO = Path(__file__).parent / "scenarios" / "clean-hand.scn"


class FakeClock:
    def __init__(self) -> None:
        self.now = 0.0
        self.slept: list[float] = []

    def __call__(self) -> float:
        return self.now

    def sleep(self, seconds: float) -> None:
        self.slept.append(seconds)
        self.now += seconds


def record_scenario(tmp_path) -> Path:
    compiled = compile_file(SCENARIO)
    rec = Recorder(tmp_path, compiled.header, name="from-scenario")
    for record in compiled.records:
        rec.write(record)
    rec.close()
    return rec.path


def jsonl(capsys, *argv) -> tuple[int, list[dict], str]:
    code = main(["replay", *argv, "--jsonl"])
    out, err = capsys.readouterr()
    return code, [json.loads(line) for line in out.splitlines()], err


def test_a_recorded_log_and_its_scenario_replay_to_the_same_events(tmp_path, capsys):
    log = record_scenario(tmp_path)
    code_log, from_log, err = jsonl(capsys, str(log))
    code_scn, from_scn, _ = jsonl(capsys, str(SCENARIO))
    assert code_log == code_scn == 0
    assert len(from_log) > 20 and from_log == from_scn
    assert "frames" in err and "records" in err


def test_hole_cards_are_masked_unless_revealed(capsys):
    _, masked, _ = jsonl(capsys, str(SCENARIO))
    _, revealed, _ = jsonl(capsys, str(SCENARIO), "--reveal-hole-cards")
    dealt = [e for e in masked if e["event"] == "CardDealt" and not e.get("face_up")]
    assert dealt and all(e["card"] is None for e in dealt)
    assert {e["card"] for e in revealed if e["event"] == "CardDealt" and not e.get("face_up")} >= {"Ah", "Kd"}


def test_text_output_is_one_line_per_event(capsys):
    assert main(["replay", str(SCENARIO)]) == 0
    text = capsys.readouterr().out.splitlines()
    _, events, _ = jsonl(capsys, str(SCENARIO))
    assert len(text) == len(events)
    assert "BoardConnected" in text[0] and "PlayerSeated  seat=1 stack=200" in text[1]


def test_a_missing_or_broken_file_is_one_line_and_exit_2(tmp_path, capsys):
    assert main(["replay", str(tmp_path / "nope.jsonl")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "no such log" in err
    junk = tmp_path / "junk.jsonl"
    junk.write_text("{not json\n")
    assert main(["replay", str(junk)]) == 2
    assert "not a dealerbox log header" in capsys.readouterr().err


def test_replay_at_speed_follows_recorded_time_on_the_injected_clock(tmp_path, capsys):
    log = record_scenario(tmp_path)
    clock = FakeClock()
    args = argparse.Namespace(log=str(log), jsonl=True, speed=4.0, reveal_hole_cards=False)
    assert replay.run(args, clock=clock, sleep=clock.sleep) == 0
    records = list(open_log(log))
    span = records[-1].t - records[0].t
    assert clock.now == __import__("pytest").approx(span / 4.0)
    capsys.readouterr()


def test_pacing_as_fast_as_possible_never_sleeps_and_long_silences_are_cut():
    clock = FakeClock()
    records = [Rx(0.0, b""), Rx(1.0, b""), Rx(1000.0, b""), Rx(1001.0, b"")]
    assert list(paced(records, None, clock, clock.sleep)) == records and clock.slept == []
    list(paced(records, 1.0, clock, clock.sleep, max_wait_s=10.0))
    assert clock.now == 12.0  # 1 s, then a 999 s silence waited as 10 s, then 1 s


def test_verify_command_exit_codes(tmp_path, capsys):
    log = record_scenario(tmp_path)
    assert main(["verify", str(log)]) == 0
    out = capsys.readouterr().out
    assert out.startswith("intact, unauthenticated: ") and "nothing was authenticated (pass --pubkey" in out
    lines = log.read_bytes().splitlines(keepends=True)
    log.write_bytes(b"".join(lines[:3] + lines[4:]))
    assert main(["verify", str(log)]) == 1
    assert capsys.readouterr().out.startswith(f"BROKEN: {log.name} line 4: 1 line deleted")
    assert main(["verify", str(tmp_path / "gone.jsonl")]) == 2


def test_record_command_records_the_live_port(pty_board, tmp_path, capsys):
    enc = p.Encoder()
    frames = [p.Hello(1, 0, (1, 0, 0), (0, 1)), p.TagArrived(0, bytes.fromhex("04a1b2c3"))]

    def board():
        # Answer the host's HELLO request, as the firmware would.
        asked = FrameDecoder().feed(pty_board.read(14, timeout=scaled(3)))
        if asked and asked[0].message == p.CmdHello():
            pty_board.write(b"".join(enc.encode(m) for m in frames))

    th = threading.Thread(target=board)
    th.start()
    code = main(["record", "--out", str(tmp_path), "--port", str(pty_board.link), "--duration", "0.6"])
    th.join()
    assert code == 0, capsys.readouterr().err
    logs = sorted(tmp_path.glob("*.jsonl"))
    assert len(logs) == 1 and verify_log(logs[0]).intact
    src = open_log(logs[0])
    got = FrameDecoder().feed(b"".join(r.data for r in src if isinstance(r, Rx)))
    assert [f.message for f in got] == frames
    assert src.header.config["reader"]["port"]


def test_record_without_the_board_is_one_clear_line(tmp_path, capsys):
    assert main(["record", "--out", str(tmp_path), "--port", str(tmp_path / "no-board"), "--duration", "0.1"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "is the reader board plugged in?" in err
