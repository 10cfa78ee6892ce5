"""A terminal replaying a scenario with its floor link on a test broker, and a floor view watching it: the set-up
the acknowledgement tests share (tests/test_sinks.py, tests/security/test_who_ack.py)."""

from __future__ import annotations

import queue
from dataclasses import dataclass
from pathlib import Path

from dealerbox.pipeline import registry_from_enrolment
from dealerbox.runtime.app import Terminal
from dealerbox.sinks.floor.link import FloorLink
from dealerbox.sinks.floor.view import FloorView
from dealerbox.sources import open_log
from dealerbox.sources.replaying import ReplayingSource
from tests.test_floor_contract import ROOT, link_config

VOID = ROOT / "tests" / "scenarios" / "void-duplicate-card.scn"   # raises a floor alert to acknowledge


@dataclass
class FloorTable:
    terminal: Terminal
    link: FloorLink
    console: queue.Queue      # every update the terminal publishes, none dropped
    view: FloorView


def floor_table(broker, tmp_path: Path, scenario: Path = VOID) -> FloorTable:
    """Built, not started: the caller starts ``terminal`` and stops both ``terminal`` and ``view``."""
    log = open_log(scenario)
    config = link_config(tmp_path, broker.port)
    link = FloorLink(config, reconnect_min=0.05, reconnect_max=0.3)
    terminal = Terminal(config, registry_from_enrolment(log.header.enrolment), ReplayingSource(log, speed=0),
                        floor=link)
    console = terminal.bus.subscribe("console", lossless=True)
    return FloorTable(terminal, link, console, FloorView(broker.host, broker.port, "demo").start())


def drain(updates: queue.Queue) -> list:
    """Every update waiting on ``updates``, without blocking."""
    out = []
    while True:
        try:
            out.append(updates.get_nowait())
        except queue.Empty:
            return out
