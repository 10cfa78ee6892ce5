"""The audit's one-pass reader gives exactly the hands of the ordinary replay path (LogSource + Pipeline),
on a rotated log, a damaged one and one cut by a power failure, and calls a log intact only when it is."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from dealerbox.config import Config, GameConfig
from dealerbox.history.fastlog import read_hands_fast
from dealerbox.history.reader import read_hands
from dealerbox.record.recorder import Recorder
from dealerbox.record.verify import verify_log
from dealerbox.sources import LogError
from dealerbox.sources.simulator import Simulator
from dealerbox.tags import demo_registry


@pytest.fixture(scope="module")
def rotated(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("fast")
    sim = Simulator(Config(game=GameConfig(variant="plo")), demo_registry(), seed=5, irregularities=0.3)
    rec = Recorder(folder, sim.header(), rotate_bytes=400_000, name="rot", fsync_every_s=60.0)
    for record in sim.records(30):
        rec.write(record)
    rec.close()
    assert (folder / "rot.part1.jsonl").exists()   # really several parts
    return folder / "rot.jsonl"


def same(path: Path) -> tuple:
    slow, fast = read_hands(path), read_hands_fast(path)
    assert fast.hands.hands == slow.hands and fast.hands.stray == slow.stray
    assert fast.hands.table == slow.table and fast.hands.created == slow.created
    return slow, fast


def test_rotated_log_same_hands_and_intact(rotated):
    slow, fast = same(rotated)
    assert len(slow.hands) >= 30 and fast.check.intact and fast.check.parts >= 2
    assert verify_log(rotated).intact


def copy_log(src: Path, dst: Path) -> Path:
    n = 0
    while True:
        name = "rot.jsonl" if n == 0 else f"rot.part{n}.jsonl"
        if not (src.parent / name).exists():
            return dst / "rot.jsonl"
        (dst / name).write_bytes((src.parent / name).read_bytes())
        n += 1


def test_edited_line_is_damage_and_the_rest_still_replays(rotated, tmp_path):
    log = copy_log(rotated, tmp_path)
    lines = log.read_text().splitlines()
    rec = json.loads(lines[50])
    rec["t"] += 0.25
    lines[50] = json.dumps(rec, separators=(",", ":"))
    lines[60] = "{not json"
    log.write_text("\n".join(lines) + "\n")
    slow, fast = same(log)
    # the edited line and the unparseable one; the line after it is not blamed (its predecessor is unknown)
    assert fast.check.damaged == 2 and not fast.check.intact
    assert len(verify_log(log).problems) == 2
    assert len(slow.hands) >= 30


def test_power_cut_is_not_intact_but_replays(rotated, tmp_path):
    log = copy_log(rotated, tmp_path)
    last = max(tmp_path.glob("rot.part*.jsonl"), key=lambda p: int(p.stem.split("part")[1]))
    data = last.read_bytes().rstrip(b"\n")
    last.write_bytes(data[: data.rindex(b"\n") + 1] + data[data.rindex(b"\n") + 1:][:20])  # half a closing line
    slow, fast = same(log)
    assert fast.check.partial and not fast.check.closed and not fast.check.intact


def test_not_a_log_is_one_clear_error(tmp_path):
    bad = tmp_path / "x.jsonl"
    bad.write_text("hello\n")
    with pytest.raises(LogError, match="line 1 is not a dealerbox log header"):
        read_hands_fast(bad)
    with pytest.raises(LogError, match="no such log"):
        read_hands_fast(tmp_path / "missing.jsonl")


def test_a_log_that_starts_with_an_rx_record_is_one_clear_error(rotated, tmp_path):
    """A header-less piece of a log (its first record an rx line) is named as such, not a crash."""
    lines = rotated.read_text().splitlines(keepends=True)
    rx = next(line for line in lines if json.loads(line)["k"] == "rx")
    piece = tmp_path / "piece.jsonl"
    piece.write_text(rx + "".join(lines[:3]))
    with pytest.raises(LogError, match="line 1 is not a dealerbox log header"):
        read_hands_fast(piece)


def test_hands_only_reading_skips_the_chain_and_never_says_intact(rotated, tmp_path):
    checked, hands_only = read_hands_fast(rotated), read_hands_fast(rotated, verify=False)
    assert hands_only.hands.hands == checked.hands.hands and hands_only.hands.stray == checked.hands.stray
    assert checked.check.intact and not hands_only.check.intact and not hands_only.check.verified
    log = copy_log(rotated, tmp_path)
    lines = log.read_text().splitlines()
    rec = json.loads(lines[50])
    rec["t"] += 0.25                                   # an edit only the chain can see
    lines[50] = json.dumps(rec, separators=(",", ":"))
    lines[60] = "{not json"                            # damage any reader sees
    log.write_text("\n".join(lines) + "\n")
    edited = read_hands_fast(log, verify=False)
    assert edited.check.damaged == 1 and not edited.check.intact
    assert edited.hands.hands == read_hands_fast(log).hands.hands


@pytest.fixture(scope="module")
def sealed_and_clear(tmp_path_factory) -> tuple[Path, Path]:
    """The same seeded hands recorded sealed to a floor key and in the clear."""
    from dealerbox.pipeline import public_events
    from dealerbox.record.sealing import generate_floor_keys, load_floor_public
    folder = tmp_path_factory.mktemp("sealed")
    public = generate_floor_keys(folder / "floor.key")
    sim = Simulator(Config(), demo_registry(), seed=8, irregularities=0.3)
    sealed = Recorder(folder, sim.header(), name="sealed", seal_to=load_floor_public(public), rules=public_events)
    clear = Recorder(folder, sim.header(), name="clear")
    for record in sim.records(8):
        sealed.write(record)
        clear.write(record)
    sealed.close()
    clear.close()
    return sealed.path, clear.path


def test_a_sealed_log_read_without_the_key_gives_the_ordinary_reader_s_hands_and_counters(sealed_and_clear):
    """Its public events are read without an engine (none is made for them)."""
    sealed, clear = sealed_and_clear
    slow, fast = same(sealed)
    assert fast.check.intact and len(fast.hands.hands) >= 8
    assert fast.hands.hands == read_hands_fast(clear).hands.hands   # hole cards are not in either summary
    assert fast.hands.counters == {k: v for k, v in slow.counters.items() if k in fast.hands.counters}
    assert fast.hands.counters["frames"] == 0


def test_raw_records_in_the_clear_in_a_sealed_log_are_replayed_by_neither_reader_with_or_without_the_key(
        sealed_and_clear, tmp_path):
    """The recorder seals every raw record of a sealed log (docs/log-format.md), so a clear rx, tx or in line
    there is not the table's account: whoever can write the file (and re-chain it, as anyone can without the
    table's signing key) must not add hands or cards to what export and audit show. Both readers skip them,
    with the floor's key as without it; the ordinary reader counts them as skipped lines."""
    from dealerbox.record.sealing import Opener, load_floor_private
    sealed, clear = sealed_and_clear
    key = sealed.parent / "floor.key"
    lines = sealed.read_text().splitlines(keepends=True)
    raw = [line for line in clear.read_text().splitlines(keepends=True) if json.loads(line)["k"] in ("rx", "in")]
    assert any(json.loads(line)["k"] == "in" for line in raw[:400])      # taps as well as reads
    mixed = tmp_path / "mixed.jsonl"
    mixed.write_text("".join(lines[:-1] + raw[:400] + lines[-1:]))     # a hand's lines, before the closing one
    for opener in (lambda: None, lambda: Opener(load_floor_private(key))):
        alone = read_hands(sealed, opener=opener()).hands
        slow, fast = read_hands(mixed, opener=opener()), read_hands_fast(mixed, opener=opener())
        assert len(alone) >= 8 and slow.hands == alone and fast.hands.hands == alone and fast.hands.stray == slow.stray
        assert slow.counters["skipped_lines"] == 400
        assert fast.check.records == read_hands_fast(sealed, opener=opener()).check.records + 400   # as verify counts
    assert read_hands_fast(mixed).hands.counters["frames"] == 0                 # no engine was fed a clear read


@pytest.mark.parametrize("junk", [[1, 2], "HandStarted", 7, None])
def test_a_sealed_log_whose_event_is_not_an_object_is_damage_not_a_crash(sealed_and_clear, tmp_path, junk):
    """Both readers skip such an event line and the chain says the log was edited; the other hands still read."""
    sealed, _ = sealed_and_clear
    lines = sealed.read_text().splitlines(keepends=True)
    at = next(i for i, line in enumerate(lines) if json.loads(line)["k"] == "ev" and i > len(lines) // 2)
    record = json.loads(lines[at])
    record["e"] = junk
    edited = tmp_path / "edited.jsonl"
    edited.write_text("".join(lines[:at] + [json.dumps(record) + "\n"] + lines[at + 1:]))
    fast = read_hands_fast(edited)
    assert fast.check.damaged >= 1 and not fast.check.intact
    assert len(fast.hands.hands) >= 7
    assert len(read_hands(edited).hands) >= 7
