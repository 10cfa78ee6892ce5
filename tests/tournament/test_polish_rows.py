"""The smaller tournament gaps closed in round 3b: a chip of another house put straight into the pot
(Tournaments 24), the finishing place at a multi-table event from the floor's counts (35), the rebuy owed until
it is paid (33), and the dealer's tap that ends a level when the floor's clock is away (6). Each through the
real decoder and engine."""

from __future__ import annotations

from pathlib import Path

from dealerbox.pipeline import Pipeline
from dealerbox.sources.scenario import compile_file

FOLDER = Path(__file__).resolve().parents[2] / "tests" / "scenarios" / "tournament"


def played(name: str) -> tuple[Pipeline, list[dict]]:
    compiled = compile_file(FOLDER / name)
    pipe = Pipeline.from_header(compiled.header)
    events = [e.to_dict() for record in compiled.records for e in pipe.feed(record)]
    return pipe, events


def test_a_foreign_chip_straight_into_the_pot_is_ruled_and_not_counted():
    pipe, events = played("t24_foreign_chip_pot.scn")
    ruled = [e for e in events if e["event"] == "FindingRaised" and e["rule"] == "tournament.24"]
    assert len(ruled) == 1 and ruled[0]["seats"] == [] and "Straight into the pot" in ruled[0]["ruling"]
    assert pipe.engine.snapshot().pot == 0                # the chip is in the pot zone, not in the pot
    pipe, events = played("t24_foreign_chip_pot-ok.scn")
    assert not [e for e in events if e["event"] == "FindingRaised"]
    assert pipe.engine.snapshot().pot == 25               # the event's own chip counts
