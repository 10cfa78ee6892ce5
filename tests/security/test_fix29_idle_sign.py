"""Issue 29, after the outside review: window 2 had no time bound. The taps after a hand's end (an award
corrected after ``HandEnded``) stayed unsigned until the next hand ended, a whole break on an idle table, and
root could rewrite them and re-sign. Now the recorder signs (and the floor link anchors) the head once records
have waited unsigned ``record.sign_idle_s`` (default 60 s) on its clock; the tests hand it a clock they move,
so nothing here waits on the wall clock."""

from __future__ import annotations

import json

import pytest

from dealerbox.cli import main
from dealerbox.config import Config
from dealerbox.engine.inputs import DealerInput
from dealerbox.record.logformat import Input, Rx
from dealerbox.record.recorder import Recorder
from dealerbox.record.signing import load_signer
from dealerbox.runtime.app import Terminal
from dealerbox.sources import open_log
from dealerbox.sources.replaying import ReplayingSource
from dealerbox.tags import demo_registry
from tests.dashboard.conftest import PASSWORD
from tests.test_floor_contract import ROOT
from tests.waiting import wait_until

from .witness import HEADER, floor, link, play, resign, table_keys
from tests.conftest import scaled

pytestmark = pytest.mark.timeout(180)
VOID = ROOT / "tests" / "scenarios" / "void-duplicate-card.scn"


class Clock:
    """The recorder's clock, moved by the test."""

    def __init__(self, t: float = 500.0) -> None:
        self.t = t

    def __call__(self) -> float:
        return self.t


def _recorder(tmp_path, private, clock: Clock) -> Recorder:
    return Recorder(tmp_path / "var" / "logs", HEADER, name="T01-break", clock=clock,
                    signer=load_signer(private, "T01"), hand_count=tmp_path / "var" / "hands-T01.json")


def _lines(rec: Recorder) -> list[dict]:
    return [json.loads(line) for line in rec.path.read_text().splitlines()]


def test_a_tap_after_the_hand_s_end_is_anchored_within_sign_idle_s_and_its_rewrite_then_fails(tmp_path, broker,
                                                                                               capsys, monkeypatch):
    monkeypatch.setenv("DEALERBOX_FLOOR_PASSWORD", PASSWORD)
    private, public = table_keys(tmp_path)
    running = floor(tmp_path, broker, public)
    floor_link = link(tmp_path, broker.port)
    clock = Clock()
    rec = _recorder(tmp_path, private, clock)
    rec.on_anchor = floor_link.submit_anchor
    store = running.dash.ingest.anchor_store
    try:
        play(rec, range(1, 3))                        # two hands, each signed at its end
        assert wait_until(lambda: len(store.heads("demo", "T01")) == 2, scaled(20))
        # the break: the last hand's award corrected after HandEnded, then only the board's heartbeats
        rec.write(Input(DealerInput(t=26.0, action="award", ref="0", seats=(3,))))
        for i in range(3):
            rec.write(Rx(27.0 + i, b"\x07\x00\x01" * 4))
        tap_n = next(line["n"] for line in _lines(rec) if line["k"] == "in" and line["a"] == "award")
        assert rec.sign_if_idle() is False            # just written: nothing has waited yet
        clock.t += 59.0
        assert rec.sign_if_idle() is False            # under record.sign_idle_s (60 s)
        clock.t += 2.0
        assert rec.sign_if_idle() is True             # the oldest unsigned record waited 61 s: signed
        assert rec.sign_if_idle() is False            # nothing new since: no second head
        assert wait_until(lambda: any(h["n"] > tap_n for h in store.heads("demo", "T01")), scaled(20))
        assert len(store.heads("demo", "T01")) == 3
    finally:
        floor_link.stop(timeout=scaled(2))
    # root on the box after the break: the link is cut, the log closed, and the corrected award put back
    rec.close()

    def edit(recs):
        for r in recs:
            if r["k"] == "in" and r["a"] == "award":
                r["seats"] = [1]
        return recs

    forged = tmp_path / "T01-forged.jsonl"
    resign(rec.path, load_signer(private, "T01"), edit, forged)
    verify = ["--pubkey", str(public), "--from-floor", running.url, "--floor-user", "vic"]
    try:
        assert main(["verify", str(forged), *verify]) == 1
        out = capsys.readouterr().out
        assert "BROKEN" in out
        assert main(["verify", str(rec.path), *verify]) == 0         # the log as the table wrote it: intact
        assert "3 anchors found" in capsys.readouterr().out
    finally:
        running.stop()


def test_the_terminal_signs_a_waiting_tail_on_its_own_while_the_table_is_idle(tmp_path):
    private, _ = table_keys(tmp_path)
    clock = Clock()
    rec = _recorder(tmp_path, private, clock)
    heads: list[dict] = []
    rec.on_anchor = heads.append
    log = open_log(VOID)
    recorded = len(list(log))
    terminal = Terminal(Config(), demo_registry(), ReplayingSource(log, speed=0), recorder=rec)
    try:
        terminal.start()
        assert wait_until(lambda: terminal.hands_ended >= 1 and rec.records >= recorded, scaled(60))
        ended = len(heads)
        assert ended >= 1                                          # the hand's end was signed, as before
        terminal.submit(DealerInput(t=0.0, action="award", ref="0", seats=(3,)))   # a tap on the break
        assert wait_until(lambda: rec.records > recorded, scaled(10))
        clock.t += 61.0
        assert wait_until(lambda: len(heads) > ended, scaled(10))          # the core loop signed it: no hand ended
        last_tap = [line for line in _lines(rec) if line["k"] == "in"][-1]
        assert last_tap["a"] == "award" and heads[-1]["n"] >= last_tap["n"]   # the head covers the break's tap
    finally:
        terminal.stop()
