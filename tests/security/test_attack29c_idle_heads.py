"""Issue 29, outside attack after window 2 got its time bound: the recorder signs whenever *any* record has
waited ``record.sign_idle_s``, and the board's heartbeat (once a second) is a record. A table left on with
nobody playing (a night, a closed section) therefore signed and anchored a head a minute of nothing: 1,440 a
day, 525,600 a year, past the floor's cap of 500,000 heads per table ("about ten years of honest heads") in
under a year, after which the floor keeps no head of the table at all; and a link down over an idle weekend
resent more than the flood allowance (2,000) at once, so an honest table was raised as flooding. Window 2
exists for what the engine rules after a hand's end (a tap, chips pushed, a finding): a tail of heartbeats
alone has nothing to protect, so the terminal signs on idle only when the tail holds a tap or a table event."""

from __future__ import annotations

import json
from typing import Any

import pytest

from cobs import cobs

from dealerbox.config import Config
from dealerbox.engine.inputs import DealerInput
from dealerbox.record.logformat import Rx
from dealerbox.record.recorder import Recorder
from dealerbox.record.signing import load_signer
from dealerbox.runtime.app import Terminal
from dealerbox.sources import open_log
from dealerbox.sources.replaying import ReplayingSource
from dealerbox.tags import demo_registry
from dealerbox.wire import protocol as p
from tests.dashboard.conftest import PASSWORD
from tests.test_floor_contract import ROOT
from tests.waiting import wait_until

from .witness import HEADER, floor, link, table_keys
from tests.conftest import scaled

pytestmark = pytest.mark.timeout(180)
VOID = ROOT / "tests" / "scenarios" / "void-duplicate-card.scn"
IDLE_MIN = 5            # minutes of heartbeats alone, on the terminal's clock


class Clock:
    """The terminal's, the recorder's and the replay's clock: the replay's waits move it (the records come at
    their recorded pace on this clock, one at a time), and so does the test."""

    def __init__(self, t: float = 500.0) -> None:
        self.t = t

    def __call__(self) -> float:
        return self.t

    def sleep(self, s: float) -> None:
        self.t += s


class Turns:
    """A sink on the core thread: each publish tells which clock time the core loop has reached."""

    name = "turns"
    queued = False

    def __init__(self, clock: Clock) -> None:
        self.clock, self.seen = clock, 0.0

    def start(self, submit: Any) -> None:
        """Nothing to submit."""

    def accept(self, update: Any) -> None:
        self.seen = self.clock()

    def health(self) -> dict[str, int]:
        return {}

    def stop(self) -> None:
        """Nothing to release."""


def _with_idle_heartbeats() -> tuple[Any, list]:
    """The scenario's records, then IDLE_MIN minutes of nothing but the board's heartbeat once a second, numbered
    on from the scenario's last frame as the board numbers them (no gap, no finding: truly nothing happens)."""
    log = open_log(VOID)
    records = list(log)
    last = [r for r in records if isinstance(r, Rx)][-1]
    _, seq, _ = p.parse_raw(cobs.decode(last.data.rstrip(b"\x00").split(b"\x00")[-1]))
    encoder = p.Encoder(first_seq=(seq + 1) % p.SEQ_MODULO)
    t = last.t
    beats = [Rx(t + 1 + i, encoder.encode(p.Heartbeat(int((t + 1 + i) * 1000), 0, 0))) for i in range(IDLE_MIN * 60)]
    return log, records + beats


def test_an_idle_table_s_heartbeats_alone_anchor_no_head_but_a_break_s_tap_still_does(tmp_path, broker,
                                                                                   monkeypatch):
    monkeypatch.setenv("DEALERBOX_FLOOR_PASSWORD", PASSWORD)
    private, public = table_keys(tmp_path)
    running = floor(tmp_path, broker, public)
    floor_link = link(tmp_path, broker.port)
    clock = Clock()
    rec = Recorder(tmp_path / "var" / "logs", HEADER, name="T01-idle", clock=clock,
                   signer=load_signer(private, "T01"), hand_count=tmp_path / "var" / "hands-T01.json")
    rec.on_anchor = floor_link.submit_anchor
    store = running.dash.ingest.anchor_store
    log, records = _with_idle_heartbeats()
    source = ReplayingSource(_Log(log, records), speed=1.0, clock=clock, sleep=clock.sleep, maxsize=1)
    terminal = Terminal(Config(), demo_registry(), source, recorder=rec, clock=clock)
    turns = Turns(clock)
    terminal.notifier.attach(turns)
    try:
        terminal.start()
        # the hand, then the night: IDLE_MIN minutes of heartbeats, one a second on the clock, taken one at a time
        assert wait_until(lambda: terminal.hands_ended >= 1 and rec.records >= len(records), scaled(120))
        # and a minute more with nothing at all: a turn of the core loop at +61 s and one after it (which signs)
        for _ in range(2):
            clock.t += 61.0
            assert wait_until(lambda: turns.seen >= clock.t, scaled(20))
        signed = sum(1 for line in rec.path.read_text().splitlines() if json.loads(line)["k"] == "sig")
        assert wait_until(lambda: len(store.heads("demo", "T01")) == signed, scaled(20))   # every head is on the floor
        at_end = len(store.heads("demo", "T01"))
        assert at_end >= 1                                  # the hand's end was signed and is on the floor
        # a tap on the break, after the night: signed within record.sign_idle_s, as window 2 promises
        terminal.submit(DealerInput(t=0.0, action="award", ref="0", seats=(3,)))
        assert wait_until(lambda: rec.records > len(records), scaled(10))
        clock.t += 61.0
        assert wait_until(lambda: len(store.heads("demo", "T01")) > at_end, scaled(20))
        heads = store.heads("demo", "T01")
        last_tap = [json.loads(line) for line in rec.path.read_text().splitlines()
                    if json.loads(line)["k"] == "in"][-1]
        assert last_tap["a"] == "award" and heads[-1]["n"] >= last_tap["n"]
        assert len(heads) == at_end + 1, [h["n"] for h in heads]
    finally:
        terminal.stop()
        floor_link.stop(timeout=scaled(2))
        running.stop()
    # no head was signed for heartbeats alone: each one covers a tap or a record the engine ruled on
    quiet_from = max(r.t for r in records[:len(records) - IDLE_MIN * 60] if hasattr(r, "t"))
    since, idle_heads = [], []
    for line in (json.loads(x) for x in rec.path.read_text().splitlines()):
        if line["k"] == "sig":
            if since and all(k == "rx" and t > quiet_from for k, t in since):
                idle_heads.append(line["t"])
            since = []
        elif line["k"] in ("rx", "in", "tx", "link"):
            since.append((line["k"], line["t"]))
    assert idle_heads == [], f"heads signed over heartbeats alone at t {idle_heads}"


class _Log:
    """The scenario's header with the records given (a LogSource's shape for ReplayingSource)."""

    def __init__(self, log: Any, records: list) -> None:
        self.header, self._records = log.header, records

    def __iter__(self):
        return iter(self._records)
