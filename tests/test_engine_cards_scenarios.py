"""Card and showdown scenarios (tests/scenarios/*.scn) through the real decoder and engine: the rulings named,
the outcome applied, no hole card in the table events."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from dealerbox.pipeline import Pipeline
from dealerbox.sources.scenario import compile_file

SCENARIOS = Path(__file__).parent / "scenarios"

# scenario -> (findings above info as (rule, outcome, seats, cards), outcomes of the hands that ended)
EXPECTED = {
    "holdem-1-exposed-card-replaced": ([("holdem.1", "card-replaced", (4,), ("Qs",))], []),
    "holdem-3-premature-flop": ([("holdem.3", "redeal-board", (1,), ("Qh",))], []),
    "misdeal-1f-out-of-sequence": ([("misdeal.1f", "misdeal", (4, 3), ())], ["misdeal"]),
    "misdeal-boxed-cards": ([("irregularity.7", "card-replaced", (4,), ("Ah",)),
                             ("misdeal.1c", "misdeal", (2,), ("Ah", "Kd"))], ["misdeal"]),
    "showdown-3-wrong-push": ([("showdown.3", "continues", (3,), ())], ["complete"]),
    "showdown-split-odd-chip": ([], ["complete"]),
    # the twin is not named: the face-up Qs would tell that seat 1's hole card is its double
    "void-duplicate-card": ([("irregularity.3", "void", (), ("Qs",)), ("irregularity.4", "void", (), ())],
                            ["void"]),
    "clean-hand": ([], ["complete"]),
}


def run_scenario(name: str):
    compiled = compile_file(SCENARIOS / f"{name}.scn")
    pipe = Pipeline.from_header(compiled.header)
    events = []
    for record in compiled.records:
        events += pipe.feed(record)
    return pipe, events


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_scenario_rulings_and_outcomes(name):
    pipe, events = run_scenario(name)
    findings, outcomes = EXPECTED[name]
    got = [(e.rule, e.outcome, e.seats, e.cards) for e in events if e.kind == "FindingRaised" and e.severity != "info"]
    assert got == findings
    assert [e.outcome for e in events if e.kind == "HandEnded"] == outcomes


def test_premature_flop_scenario_plays_the_new_flop():
    pipe, _ = run_scenario("holdem-3-premature-flop")
    assert pipe.engine.snapshot().board == ("Ts", "8h", "2c")


def test_split_pot_scenario_gives_the_odd_chip_clockwise_from_the_button():
    _, events = run_scenario("showdown-split-odd-chip")
    pot = [e for e in events if e.kind == "HandEnded"][0].pots[0]
    assert (pot.amount, pot.winners, pot.shares) == (7, (1, 4), {4: 4, 1: 3})
    assert [e.rule for e in events if e.kind == "FindingRaised"] == ["showdown.7", "showdown.2", "ties.5a"]


def test_misdeal_scenario_returns_the_blinds_and_keeps_the_button():
    pipe, events = run_scenario("misdeal-1f-out-of-sequence")
    ended = [e for e in events if e.kind == "HandEnded"][0]
    assert ended.stacks == {1: 200, 2: 200, 3: 200, 4: 200}
    assert pipe.engine.seating.keep_button and pipe.engine.seating.last_button == 1


def test_no_hole_card_in_the_table_events_json_before_showdown():
    _, events = run_scenario("holdem-1-exposed-card-replaced")
    text = json.dumps([e.to_dict() for e in events])
    for hidden in ("Ah", "Kh", "9c", "7c", "2d", "Qd", "9d", "5h"):
        assert f'"{hidden}"' not in text
