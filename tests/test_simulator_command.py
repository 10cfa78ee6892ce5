"""``dealerbox simulate`` writes a hash-chained log that the log reader replays through the decoder."""

from dealerbox.cli import main
from dealerbox.pipeline import Pipeline
from dealerbox.record.logformat import Input, Rx
from dealerbox.sources import open_log


def test_simulate_writes_a_replayable_log(tmp_path, capsys):
    out = tmp_path / "sim.jsonl"
    assert main(["simulate", "--hands", "3", "--out", str(out), "--seed", "4"]) == 0
    assert "3 hands" in capsys.readouterr().out
    log = open_log(out)
    records = list(log)
    assert log.counters["chain_breaks"] == 0 and log.counters["skipped_lines"] == 0
    assert any(isinstance(r, Input) and r.input.action == "sit" for r in records)
    pipe = Pipeline.from_header(log.header)
    for r in records:
        pipe.feed(r)
    counters = pipe.counters()
    assert counters["bad_crc"] == 0 and counters["unknown_tags"] == 0
    assert sum(isinstance(r, Rx) for r in records) > 100


def test_simulate_refuses_bad_arguments(tmp_path, capsys):
    out = tmp_path / "sim.jsonl"
    assert main(["simulate", "--hands", "1", "--out", str(tmp_path / "x.txt")]) == 2
    assert ".jsonl" in capsys.readouterr().err
    assert main(["simulate", "--hands", "1", "--out", str(out), "--irregularities", "2"]) == 2
    assert "between 0 and 1" in capsys.readouterr().err
    assert main(["simulate", "--hands", "1", "--out", str(out), "--irregularities", "cheating"]) == 2
    assert "unknown irregularities" in capsys.readouterr().err
    assert main(["simulate", "--hands", "1", "--out", str(out)]) == 0
    assert main(["simulate", "--hands", "1", "--out", str(out)]) == 2
    assert "already exists" in capsys.readouterr().err


def test_simulate_deals_bomb_pots_on_the_schedule_asked(tmp_path, capsys):
    out = tmp_path / "bombs.jsonl"
    assert main(["simulate", "--hands", "4", "--out", str(out), "--seed", "3", "--bomb-every", "2",
                 "--bomb-boards", "2"]) == 0
    log = open_log(out)
    records = list(log)
    assert log.header.config["game"]["bomb_pots"] is True and log.header.config["simulator"]["bomb_every"] == 2
    taps = [r.input for r in records if isinstance(r, Input) and r.input.action == "bomb-pot"]
    assert [(t.amount, t.ref) for t in taps] == [(10, "2"), (10, "2")]     # hands 2 and 4, five big blinds each
    pipe = Pipeline.from_header(log.header)
    events = [e for r in records for e in pipe.feed(r)]
    assert sum(e.kind == "BombPotStarted" for e in events) == 2 and sum(e.kind == "HandEnded" for e in events) == 4
    assert not [e for e in events if e.kind == "FindingRaised" and e.severity != "info"]
    assert main(["simulate", "--hands", "1", "--out", str(tmp_path / "x.jsonl"), "--bomb-every", "0"]) == 2
    assert "--bomb-every" in capsys.readouterr().err
