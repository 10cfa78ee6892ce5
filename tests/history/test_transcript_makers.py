"""A sealed log's public events are read back by one generated function per event type (record/transcript.py):
it gives the very event, or the very kind of error, that reading the fields one by one gives, on every event
a simulated table makes and on each of them broken field by field."""

from __future__ import annotations

import functools
from typing import Any

import pytest

from dealerbox.config import Config, GameConfig
from dealerbox.engine import events as e
from dealerbox.pipeline import Pipeline
from dealerbox.record import transcript
from dealerbox.record.transcript import TranscriptError, event_from_dict
from dealerbox.sources.simulator import Simulator
from dealerbox.tags import demo_registry


def _events(variant: str, hands: int, seed: int, **game: Any) -> list[e.TableEvent]:
    sim = Simulator(Config(game=GameConfig(variant=variant, **game)), demo_registry(), seed=seed, irregularities=0.5)
    pipeline = Pipeline.from_header(sim.header())
    out: list[e.TableEvent] = []
    for record in sim.records(hands):
        out += pipeline.feed(record)
    return out


@pytest.fixture(scope="module")
def samples() -> dict[type, list[dict[str, Any]]]:
    """Up to 20 JSON forms of every event type that 12 irregular hands of hold'em, Omaha hi-lo and run it twice make."""
    got: dict[type, list[dict[str, Any]]] = {}
    for event in _events("nlhe", 12, 3) + _events("plo8", 12, 4) + _events("nlhe", 12, 5, run_it=2):
        rows = got.setdefault(type(event), [])
        if len(rows) < 20:
            rows.append(event.to_dict())
    return got


def _broken(row: dict[str, Any]) -> list[dict[str, Any]]:
    """``row`` with each field left out, and with each field of a wrong kind."""
    out = []
    for name in row:
        if name == "event":
            continue
        out.append({k: v for k, v in row.items() if k != name})
        for wrong in (None, "x", "7", 1.5, True, [1, "a"], {"3": 4}, ["As", "Kd"], 0):
            out.append({**row, name: wrong})
    return out


def _outcome(read: Any, row: dict[str, Any]) -> tuple[str, object]:
    try:
        return "event", read(row)
    except (TypeError, ValueError, KeyError, AttributeError) as err:
        return "error", type(err)


def test_the_generated_reader_gives_what_reading_field_by_field_gives(samples):
    assert len(samples) >= 15   # the simulator's hands make most kinds of event: the comparison covers them
    compared = 0
    for cls, rows in samples.items():
        fields = transcript._fields(cls)
        make = transcript._maker(cls)
        by_fields = functools.partial(transcript._by_fields, cls, fields)
        for row in rows:
            assert event_from_dict(row) == make(row) == by_fields(row)
            for bad in _broken(row):
                assert _outcome(make, bad) == _outcome(by_fields, bad), \
                    (cls.__name__, bad)
                compared += 1
    assert compared > 1000


def test_an_event_with_a_field_of_the_wrong_shape_is_a_transcript_error():
    row = e.ChipsMoved(1.0, 1, "bet1", 1, 5, (5,)).to_dict()
    assert event_from_dict(row) == e.ChipsMoved(1.0, 1, "bet1", 1, 5, (5,))
    with pytest.raises(TranscriptError):
        event_from_dict({**row, "chips": ["five"]})
    with pytest.raises(TranscriptError):
        event_from_dict({k: v for k, v in row.items() if k != "zone"})
