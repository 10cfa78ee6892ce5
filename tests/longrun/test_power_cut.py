"""Restarts are boring: a recording process killed with SIGKILL at random points, many times over (fixed seed,
bounded count), leaves logs that still verify, lose no record beyond a torn last line, and are never
overwritten by the next start, which says what it found."""

import logging
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

from dealerbox.record.verify import verify_log
from dealerbox.record.logformat import Rx, part_number
from dealerbox.sources.logfile import open_log
from dealerbox.upkeep.resume import check_last_stop, unclosed_logs

ROOT = Path(__file__).resolve().parents[2]
KILLS = 16      # each a fresh writer fsyncing every record: 16 land in first parts and rotated sets, half torn


def _records(path):
    return [e for e in open_log(path) if isinstance(e, Rx)]


def test_sigkill_at_random_points_never_breaks_or_loses_a_log(tmp_path, caplog):
    rng = random.Random(19)
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    acknowledged = {}
    cut = 0
    for run in range(KILLS):
        name = f"T01-run{run:02d}"
        proc = subprocess.Popen([sys.executable, str(ROOT / "tests/longrun/killed_writer.py"), str(tmp_path), name],
                                stdout=subprocess.PIPE, env=env, cwd=tmp_path)
        target, seen = rng.randint(1, 400), 0
        while seen < target:
            line = proc.stdout.readline()
            assert line, f"the writer died on its own in run {run}"
            seen = int(line)
        time.sleep(rng.random() * 0.02)   # somewhere mid-write, not only between records
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        for line in proc.stdout:          # counts printed before the kill landed
            seen = int(line)
        proc.stdout.close()
        acknowledged[name] = seen
        if run % 2:
            # SIGKILL never tears a write() (the kernel finishes it); a power cut can, when the page cache's
            # tail never reached the card: cut the newest part inside its last line, as the card would be.
            # (the newest by number: a part cut short as it rotated is empty, and then there is no line to tear)
            last = max(tmp_path.glob(f"{name}*.jsonl"), key=part_number)
            data = last.read_bytes()
            start = data.rstrip(b"\n").rfind(b"\n") + 1
            if start > 0:
                last.write_bytes(data[:rng.randint(start + 1, len(data) - 2)])
                acknowledged[name] = seen - 1    # the torn record is the only one allowed to go
                cut += 1
        # The next start checks the log the kill left: unclosed, chain intact, at most one torn line.
        caplog.clear()
        with caplog.at_level(logging.WARNING, logger="dealerbox.upkeep"):
            report = check_last_stop(tmp_path)
        assert report is not None and Path(report.path).name == f"{name}.jsonl"
        assert not report.problems and not report.closed, report.summary()
        assert "not clean" in caplog.text
    # Every log of every run still verifies; none was overwritten by a later run.
    assert len(unclosed_logs(tmp_path, newest=KILLS)) == KILLS
    torn = parts = 0
    for name, seen in acknowledged.items():
        report = verify_log(tmp_path / f"{name}.jsonl")
        assert not report.problems, report.summary()
        torn += report.partial_line is not None and "unfinished last line" in report.partial_line.what
        parts += report.parts
        numbers = [int.from_bytes(e.data[:4], "big") for e in _records(tmp_path / f"{name}.jsonl")]
        # Records are whole and in order from the first; every write() that returned is there.
        assert numbers == list(range(1, len(numbers) + 1))
        assert len(numbers) >= seen, f"{name}: {seen} writes returned, only {len(numbers)} in the log"
    print(f"{KILLS} kills: {torn} torn last lines, {parts} parts")
    assert parts > KILLS     # the kills also landed in rotated sets, not only in a first part
    assert torn == cut >= KILLS // 3
