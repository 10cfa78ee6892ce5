"""Freed memory goes back to the system between hands (dealerbox/upkeep/trim.py): glibc's malloc_trim really
returns what the heap kept, the terminal calls it only when no hand is under way, and at most as often as its
trimmer's clock allows. Real glibc, a real terminal replaying a real scenario; the trimmer's clock is the test's."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

from dealerbox.config import Config
from dealerbox.pipeline import Pipeline, registry_from_enrolment
from dealerbox.runtime.app import Terminal
from dealerbox.sources import open_log
from dealerbox.sources.base import ThreadedSource
from dealerbox.sources.replaying import ReplayingSource
from dealerbox.upkeep.trim import Trimmer, glibc_malloc_trim
from tests.conftest import scaled
from tests.waiting import wait_until

ROOT = Path(__file__).resolve().parents[2]
FOUR_HANDS = ROOT / "tests" / "scenarios" / "chips-blinds.9-late.scn"
glibc = pytest.mark.skipif(glibc_malloc_trim() is None, reason="malloc_trim is glibc's (this is not glibc)")

# 40 MB of 2,000-byte objects (above pymalloc's 512, so glibc's own heap), one kept in 50 so no page at the
# heap's top is free and glibc's own trimming on free() gives nothing back.
BURST = """
import os, sys
sys.path.insert(0, sys.argv[1])
from dealerbox.upkeep.trim import Trimmer
rss = lambda: int(open('/proc/self/statm').read().split()[1]) * os.sysconf('SC_PAGE_SIZE')
start = rss()
burst = [bytes(2000) for _ in range(20000)]
keep = burst[::50]
del burst
held = rss()
trimmer = Trimmer()
gave = trimmer.trim()
print(held - start, held - rss(), gave, trimmer.trims, trimmer.released)
"""


class Clock:
    def __init__(self, t: float = 0.0, step: float = 0.0) -> None:
        self.t, self.step = t, step

    def __call__(self) -> float:
        self.t += self.step
        return self.t


@glibc
def test_malloc_trim_gives_back_what_glibc_kept_after_a_burst_of_freed_memory():
    out = subprocess.run([sys.executable, "-c", BURST, str(ROOT)], capture_output=True, text=True, timeout=scaled(60),
                         env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert out.returncode == 0, out.stderr
    kept, returned, gave, trims, released = (int(x) for x in out.stdout.split())
    assert kept > 30 << 20          # freed, yet still resident: what glibc keeps without a trim
    assert returned > 25 << 20      # most of it back to the system
    assert (gave, trims, released) == (1, 1, 1)


def test_a_terminal_has_a_trimmer_unless_told_otherwise():
    log = open_log(FOUR_HANDS)
    registry = registry_from_enrolment(log.header.enrolment)
    assert isinstance(Terminal(Config(), registry, ReplayingSource(log, speed=0)).trimmer, Trimmer)
    assert Terminal(Config(), registry, ReplayingSource(log, speed=0), trimmer=None).trimmer is None


class HandFed(ThreadedSource):
    """A board the test feeds: it puts records into ``entries`` itself, a hand at a time."""

    thread_name = "hand-fed"

    @property
    def connected(self) -> bool:
        return True

    @property
    def counters(self) -> dict[str, int]:
        return {}

    def produce(self) -> None:
        self.stopping.wait()


def _hands(log) -> list[list]:
    """The log's records cut after each record that ends a hand (found by a pipeline of its own)."""
    pipe = Pipeline.from_header(log.header)
    hands: list[list] = [[]]
    for record in log:
        hands[-1].append(record)
        if any(e.kind == "HandEnded" for e in pipe.feed(record)):
            hands.append([])
    return hands


def _play(trimmer) -> tuple[Terminal, list[tuple[int, bool]]]:
    """The scenario's four hands fed to a terminal one hand at a time, each once the last was ruled on, with
    ``trimmer(trim)`` as its trimmer; returns what each trim saw: the hands ended, and whether no hand was under
    way."""
    log = open_log(FOUR_HANDS)
    hands = _hands(open_log(FOUR_HANDS))
    real = glibc_malloc_trim()
    seen: list[tuple[int, bool]] = []
    terminal: Terminal

    def trim(pad: int) -> int:   # glibc's own call, noted: it runs on the core thread, which owns the engine
        seen.append((terminal.hands_ended, terminal.pipeline.engine.between_hands))
        return real(pad) if real is not None else 0

    source = HandFed()
    terminal = Terminal(Config(), registry_from_enrolment(log.header.enrolment), source, trimmer=trimmer(trim))
    terminal.start()
    try:
        for n, hand in enumerate(hands, start=1):
            for record in hand:
                source.entries.put(record)
            if n < len(hands):
                assert wait_until(lambda n=n: terminal.hands_ended == n, scaled(30)), n
    finally:
        terminal.stop()
    return terminal, seen


def test_the_terminal_trims_between_hands_once_after_each_hand_when_its_clock_allows():
    terminal, seen = _play(lambda trim: Trimmer(every_s=0.0, clock=Clock(step=1.0), trim=trim))
    assert terminal.hands_ended == 4
    # once per hand, after it ended and before the next began (the scenario's records after its last hand
    # start none); never twice for one hand however long the table then stays idle
    assert seen == [(1, True), (2, True), (3, True), (4, True)]


def test_the_terminal_trims_no_more_often_than_its_trimmer_allows():
    clock = Clock(t=1000.0)   # time stands still: the first trim is the only one
    terminal, seen = _play(lambda trim: Trimmer(every_s=30.0, clock=clock, trim=trim))
    assert terminal.hands_ended == 4
    assert seen == [(1, True)]
