"""Three tournament terminals and the floor's Director on one real mosquitto: as players bust, three tables
shrink to two. Each terminal is the real thing (Terminal, pipeline, FloorLink, recorder) fed by a small
scenario that seats its players; the Director (``dealerbox tournament``) reads their retained states. The
balancing move reaches the right tables and shows on their screens, the dealers confirm it with a tap, a
table is broken and shows so, and its log replays to the same broken table."""

from __future__ import annotations

import dataclasses
import json
import subprocess
import sys

import pytest

from dealerbox.engine.inputs import DealerInput
from dealerbox.pipeline import Pipeline, registry_from_enrolment
from dealerbox.record.logformat import Input, table_header
from dealerbox.record.recorder import Recorder
from dealerbox.runtime.app import Terminal
from dealerbox.sinks.floor.link import FloorLink
from dealerbox.sinks.screen import Screen
from dealerbox.sources import open_log
from dealerbox.sources.replaying import ReplayingSource
from dealerbox.tournament.config import load
from tests.test_floor_contract import ROOT, link_config
from tests.test_screen import OK_HEALTH, Clock, press
from tests.waiting import wait_until

from .tables import tournament_file
from tests.conftest import scaled

pytestmark = pytest.mark.timeout(120)


class Table:
    """One terminal: seated by its scenario, then driven by the floor and by its dealer's taps."""

    def __init__(self, broker, tmp_path, name: str, seated: range | tuple) -> None:
        scenario = tmp_path / f"{name}.scn"
        scenario.write_text("\n".join([f"table seats 9 id {name}", "set table.kind tournament", "hello",
                                       *(f"sit {s} 10000" for s in seated)]) + "\n")
        log = open_log(scenario)
        config = link_config(tmp_path, broker.port, table=name)
        self.config = dataclasses.replace(config, table=dataclasses.replace(config.table, kind="tournament"))
        registry = registry_from_enrolment(log.header.enrolment)
        event = load(tournament_file(tmp_path))      # as `dealerbox run` loads the [tournament] file
        self.recorder = Recorder(tmp_path / "logs", table_header(self.config, registry, tournament=event), name=name)
        self.link = FloorLink(self.config, reconnect_min=0.05, reconnect_max=0.3)
        self.terminal = Terminal(self.config, registry, ReplayingSource(log, speed=0), recorder=self.recorder,
                                 floor=self.link, tournament=event)
        self.screen = Screen(self.config, (800, 480), clock=Clock())
        self.name = name

    @property
    def state(self):
        return self.terminal.pipeline.engine.snapshot()

    def seated(self) -> set[int]:
        return {s.seat for s in self.state.seats if s.occupied}

    def shown(self):
        """The dealer's screen drawn from the table as it stands now."""
        self.screen.render(self.state, OK_HEALTH, [])
        return self.screen.frame

    def tap(self, key: str) -> None:
        """The dealer taps a key on the screen: it goes through submit like every tap."""
        self.shown()
        self.terminal.submit(press(self.screen, key))

    def arrive(self, seat: int, chips: int) -> None:
        """The moved player sits: the dealer taps the seat's key and counts the chips on the keypad."""
        self.shown()
        assert press(self.screen, f"moved-in:{seat}") is None
        for digit in str(chips):
            self.shown()
            press(self.screen, f"sheet:digit:{digit}")
        self.shown()
        self.terminal.submit(press(self.screen, "sheet:ok"))

    def bust(self, seat: int) -> None:
        self.terminal.submit(DealerInput(0.0, "leave", seat=seat))


def test_three_tables_shrink_to_two_with_the_floors_moves_shown_confirmed_and_logged(broker, tmp_path):
    tables = {"T01": Table(broker, tmp_path, "T01", range(1, 9)), "T02": Table(broker, tmp_path, "T02", range(1, 6)),
              "T03": Table(broker, tmp_path, "T03", range(1, 8))}
    for t in tables.values():
        assert t.link.tournament_topics()[1] == "dealerbox/demo/tournament/SUN-500/clock"   # from the Terminal
        t.terminal.start()
    assert wait_until(lambda: all(t.link.health()["connected"] and t.link.health()["states_published"]
                                  and len(t.seated()) for t in tables.values()), scaled(15))
    assert wait_until(lambda: [len(t.seated()) for t in tables.values()] == [8, 5, 7], scaled(10))
    director = subprocess.Popen(
        [sys.executable, "-m", "dealerbox", "tournament", "--tournament", str(tournament_file(tmp_path)),
         "--port", str(broker.port), "--for", "60"], cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        text=True)
    t01, t02, t03 = tables["T01"], tables["T02"], tables["T03"]
    try:
        # 8, 5, 7: T01 is two above T02 (one allowed): it sends its next big blind to T02's first open seat
        assert wait_until(lambda: t01.state.instruction is not None and t02.state.instruction is not None, scaled(25))
        send, receive = t01.state.instruction.send, t02.state.instruction.receive
        assert len(send) == 1 and len(receive) == 1 and t03.state.instruction is None
        assert t01.shown().texts("instruction-line") == [f"Seat {send[0]} to T02 seat {receive[0]}"]
        assert t02.shown().target(f"moved-in:{receive[0]}") is not None
        t01.tap(f"moved-out:{send[0]}")
        t02.arrive(receive[0], 10000)
        assert wait_until(lambda: t01.state.instruction is None and t02.state.instruction is None, scaled(10))
        assert wait_until(lambda: (len(t01.seated()), len(t02.seated())) == (7, 6), scaled(5))
        assert t02.state.seats[receive[0] - 1].stack == 10000
        # two busts: 7, 6, 6 still needs three tables; 6, 6, 6 fits in two and T03 breaks first
        t03.bust(4)
        assert wait_until(lambda: len(t03.seated()) == 6, scaled(5))
        t01.bust(min(t01.seated()))
        assert wait_until(lambda: t03.state.instruction is not None, scaled(25))
        breaking = t03.state.instruction
        assert (breaking.instruction, breaking.send) == ("break", tuple(sorted(t03.seated())))
        frame = t03.shown()
        assert frame.texts("instruction-title") == ["FLOOR  This table breaks"]
        assert wait_until(lambda: all(t.state.instruction is not None and len(t.state.instruction.receive) == 3
                                      for t in (t01, t02)), scaled(10))
        assert wait_until(lambda: all(t.state.instruction.lines[-1].startswith("Redraw for seats")
                                      for t in (t01, t02)), scaled(10))
        for seat in breaking.send:
            t03.tap(f"moved-out:{seat}")
        for t in (t01, t02):
            for seat in t.state.instruction.receive:
                t.arrive(seat, 10000)
        assert wait_until(lambda: t03.state.instruction is not None and t03.state.instruction.broken, scaled(10))
        assert t03.shown().texts("instruction-title") == ["FLOOR  This table is broken"]
        assert wait_until(lambda: (len(t01.seated()), len(t02.seated()), len(t03.seated())) == (9, 9, 0), scaled(10))
    finally:
        director.terminate()
        director.communicate(timeout=scaled(10))
        for t in tables.values():
            t.terminal.stop()
    # the broken table's log holds the floor's instruction and every confirm, and replays to a broken table
    records = list(open_log(t03.recorder.path))
    inputs = [r.input for r in records if isinstance(r, Input)]
    instruction = next(i for i in inputs if i.action == "floor-instruction")
    assert instruction.by == "floor" and json.loads(instruction.detail)["instruction"] == "break"
    assert sorted(i.seat for i in inputs if i.action == "moved-out") == list(breaking.send)
    clocks = [json.loads(i.detail) for i in inputs if i.action == "floor-clock"]
    assert clocks and clocks[0]["tournament"] == "SUN-500" and all(i.by == "floor" for i in inputs
                                                                     if i.action.startswith("floor-"))
    replay = Pipeline.from_header(open_log(t03.recorder.path).header)
    for r in records:
        replay.feed(r)
    assert replay.engine.snapshot().instruction.broken
