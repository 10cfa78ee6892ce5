"""A full disk is survived: a real terminal (simulator, pipeline, recorder) writing its log on a small tmpfs
that fills up keeps ruling hands and says what it cannot record, then recovers when space returns and the
log verifies, with a gap record saying exactly how many records were lost."""

import os
import subprocess
import time

import pytest

from dealerbox.config import Config, RecordConfig, SimulatorConfig
from dealerbox.record.logformat import Header
from dealerbox.record.recorder import Recorder
from dealerbox.record.verify import verify_log
from dealerbox.runtime.app import Terminal, load_registry
from dealerbox.sinks.screen.health import HealthMonitor
from dealerbox.sources.simulator import SimulatedSource, Simulator
from dealerbox.upkeep.keeper import Upkeep
from tests.conftest import scaled


@pytest.fixture
def small_disk(tmp_path):
    """A 4 MiB tmpfs: a real filesystem that really runs out (ENOSPC), mounted only for this test. Room enough
    that, once the filler goes, the table (400 times a dealer's pace) cannot fill it again before the check."""
    mnt = tmp_path / "disk"
    mnt.mkdir()
    r = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=4m,mode=0755", "tmpfs", str(mnt)],
                       capture_output=True, text=True)
    assert r.returncode == 0, f"this test needs root to mount a tmpfs: {r.stderr}"
    yield mnt
    subprocess.run(["umount", "-l", str(mnt)], check=True)


def _fill(mnt):
    """Take every free byte with a filler file; return it so the test can free the space again."""
    filler = mnt / "filler"
    with open(filler, "wb", buffering=0) as f:
        try:
            while True:
                f.write(b"\0" * 4096)
        except OSError:
            pass
    return filler


def _wait(cond, timeout=scaled(60.0)):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if cond():
            return True
        time.sleep(0.05)
    return False


def test_full_disk_keeps_ruling_says_what_is_not_recorded_and_recovers(small_disk):
    config = Config(record=RecordConfig(dir=str(small_disk)), simulator=SimulatorConfig(seed=5))
    registry = load_registry(config)
    source = SimulatedSource(Simulator(config, registry, seed=5), speed=400)
    # A small buffer so the outage outlasts it: records are dropped, and the gap says how many.
    recorder = Recorder(small_disk, Header(config={}, enrolment={}), name="T01", retry_every_s=0.05,
                        buffer_max=300)
    terminal = Terminal(config, registry, source, recorder=recorder, upkeep=Upkeep(small_disk, keep_days=7))
    terminal.start()
    try:
        assert _wait(lambda: terminal.hands_ended >= 1)
        filler = _fill(small_disk)
        before = terminal.hands_ended
        # The table goes on: hands are still ruled while nothing can be written.
        assert _wait(lambda: terminal.hands_ended >= before + 3 and recorder.dropped > 0)
        health = terminal.health()
        assert health["recorder"]["write_errors"] > 0 and health["recorder"]["ok"] is False
        assert "No space left" in health["recorder"]["last_error"]
        assert health["disk_free_mb"] < 0.1
        assert 10 < health["memory_mb"] < 500 and health["log_days"] == 1   # the upkeep figures, filled in
        view = HealthMonitor().judge(health, now=0.0)
        assert view.level == "bad"
        assert "Not recording" in view.message and "lost" in view.message and "Disk full" in view.message
        # Space returns: the recorder catches up by itself.
        os.unlink(filler)
        assert _wait(lambda: recorder.health()["ok"] and recorder.health()["buffered"] == 0)
        during = terminal.hands_ended
        assert _wait(lambda: terminal.hands_ended >= during + 1)
    finally:
        terminal.stop()
    report = verify_log(small_disk / "T01.jsonl")
    assert report.intact, report.summary()
    gaps = [line for line in (small_disk / "T01.jsonl").read_text().splitlines() if '"k":"gap"' in line]
    assert len(gaps) >= 1
    lost = sum(int(g.split('"records":')[1].split(",")[0]) for g in gaps)
    assert lost == recorder.dropped
