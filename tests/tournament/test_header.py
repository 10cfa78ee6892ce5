"""A tournament table's log carries its event, so a replay plays the same levels; floor payloads ride on inputs."""

from __future__ import annotations

import json
from pathlib import Path

from dealerbox.config import Config, TableConfig, TournamentSection
from dealerbox.engine.inputs import DealerInput
from dealerbox.pipeline import Pipeline
from dealerbox.record.logformat import Input, from_record, table_header
from dealerbox.tags import demo_registry
from dealerbox.tournament.at_table import played

EXAMPLE = Path(__file__).resolve().parents[2] / "docs" / "tournament.example.toml"


def test_the_header_of_a_tournament_table_carries_the_event_and_a_replay_gets_it_back():
    config = Config(table=TableConfig(kind="tournament"), tournament=TournamentSection(file=str(EXAMPLE)))
    tournament = played(config)
    header = table_header(config, demo_registry(), tournament=tournament)
    again = from_record(json.loads(json.dumps(header.to_record())))
    replayed = Pipeline.from_header(again).engine.tournament
    assert replayed.levels == tournament.levels and replayed.chips == tournament.chips and replayed.id == tournament.id
    assert replayed.levels[2].big_blind == tournament.levels[2].big_blind


def test_a_cash_table_header_has_no_tournament():
    record = table_header(Config(), demo_registry()).to_record()
    assert "tournament" not in record
    assert Pipeline.from_header(from_record(record)).engine.tournament is None


def test_a_floor_payload_rides_on_an_input_record_unchanged():
    payload = json.dumps({"kind": "clock", "level": 3, "left": 412.5, "running": True}, separators=(",", ":"))
    record = Input(DealerInput(t=1.5, action="floor-clock", detail=payload)).to_record()
    assert from_record(json.loads(json.dumps(record))).input.detail == payload
