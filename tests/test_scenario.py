"""Scenario scripts compile to the bytes and taps the hardware produces, and run through the real Pipeline."""

from __future__ import annotations

from pathlib import Path

import pytest

from dealerbox.engine import inputs as ev
from dealerbox.engine.inputs import DEALER_ACTIONS
from dealerbox.pipeline import Pipeline
from dealerbox.record.logformat import Input, Link, Rx
from dealerbox.sources.scenario import ScenarioError, compile_file, compile_text
from dealerbox.tags import CardTag, ChipTag, MarkerTag, UnknownTag
from tests.table_checks import final_zones

SCENARIOS = Path(__file__).parent / "scenarios"


def run(compiled):
    """Feed the records through a Pipeline built from the scenario's own header; collect engine inputs."""
    pipe = Pipeline.from_header(compiled.header)
    inputs, events = [], []
    for r in compiled.records:
        if isinstance(r, Rx):
            for frame in pipe.decoder.feed(r.data):
                for s in pipe.sensor_events(r.t, frame):
                    inputs.append(s)
                    events.extend(pipe.engine.apply(s))
        else:
            if isinstance(r, Input):
                inputs.append(r.input)
            events.extend(pipe.feed(r))
    return pipe, inputs, events


@pytest.mark.parametrize("name", ["clean-hand", "misdeal-boxed-cards", "void-duplicate-card"])
def test_example_scenarios_compile_and_decode_cleanly(name):
    compiled = compile_file(SCENARIOS / f"{name}.scn")
    times = [r.t for r in compiled.records]
    assert times == sorted(times)
    ends = [s.end for s in compiled.steps]
    assert ends == sorted(ends) and ends[-1] == len(compiled.records)
    pipe, inputs, events = run(compiled)
    counters = pipe.counters()
    assert counters["bad_crc"] == 0 and counters["seq_gaps"] == 0
    assert counters["unknown_tags"] == 0
    assert isinstance(inputs[0], ev.BoardHello)
    assert any(e.kind == "BoardConnected" for e in events)


def test_clean_hand_deals_clockwise_from_left_of_the_button_and_ends_with_the_deck_in_the_shoe():
    compiled = compile_file(SCENARIOS / "clean-hand.scn")
    _, inputs, _ = run(compiled)
    holes = [(i.zone, i.tag.card) for i in inputs if isinstance(i, ev.ZoneEntered)
             and i.zone.startswith("seat") and isinstance(i.tag, CardTag)]
    assert holes == [("seat1", "9c"), ("seat3", "Ah"), ("seat5", "7s"),
                     ("seat1", "9d"), ("seat3", "Kd"), ("seat5", "2h")]
    board = [i.tag.card for i in inputs if isinstance(i, ev.ZoneEntered) and i.zone == "board"]
    assert board == ["Ac", "8d", "3s", "Qh", "4c"]
    assert sum(1 for i in inputs if isinstance(i, ev.ZoneEntered) and i.zone == "burn") == 3
    bets = [(i.zone, i.tag.value) for i in inputs if isinstance(i, ev.ZoneEntered) and i.zone.startswith("bet")
            and isinstance(i.tag, ChipTag) and i.t < 40]
    assert sum(v for z, v in bets if z == "bet5") == 16 and sum(v for z, v in bets if z == "bet1") == 1
    where = final_zones(inputs)
    cards = [z for u, z in where.items() if isinstance(compiled.registry.lookup(u), CardTag)]
    assert len(cards) == 52 and set(cards) == {"shoe"}
    assert not [u for u, z in where.items() if isinstance(compiled.registry.lookup(u), ChipTag)]
    checks = [i.seat for i in inputs if isinstance(i, ev.DealerInput) and i.action == "check"]
    assert checks == [3, 5, 3, 5]
    award = next(i for i in inputs if isinstance(i, ev.DealerInput) and i.action == "award")
    assert award.seats == (3,) and award.ref == "0"


def test_boxed_and_duplicate_evidence():
    _, boxed, _ = run(compile_file(SCENARIOS / "misdeal-boxed-cards.scn"))
    assert sum(1 for i in boxed if isinstance(i, ev.CardFaceSensed) and i.face_up) == 2
    assert any(isinstance(i, ev.DealerInput) and i.action == "misdeal" for i in boxed)
    _, dup, _ = run(compile_file(SCENARIOS / "void-duplicate-card.scn"))
    queens = [i.tag for i in dup if isinstance(i, ev.ZoneEntered) and isinstance(i.tag, CardTag)
              and i.tag.card == "Qs" and i.zone != "shoe"]
    assert {t.deck_id for t in queens} == {"DEMO-1", "DEMO-2"}


def test_every_dealer_action_and_sensor_event_is_expressible():
    taps = "\n".join(f"tap {a} seat 2" if a not in ("award", "ack") else f"tap {a} ref 0 seats 2"
                     for a in DEALER_ACTIONS)
    text = f"""
table seats 4
set game.smallest_chip 5
hello firmware 2.1.0
heartbeat
sit 2 100
button 2
card 5h shoe -> seat3
card 5h seat3 -> muck
card 6h shoe -> off
card X1 shoe -> seat1
card blue:As shoe -> board
card uid:04010203040506 -> seat4
card 7d seat4 -> off
chips 20 then 10 -> bet2
chips OTHER:25 unknown 1x2 -> bet3
chips all bet2 -> pot
chips 5 pot -> bet4
chips all bet3 -> off
puck kill -> seat1
fault reader 3 zone seat3 code 2
recover reader 3 zone seat3
garbage de ad be ef 00
lose 2 frames
link down cable pulled
link up
at 500
heartbeat tags 3
{taps}
exposed Ah
ack h1-2
check 3
"""
    compiled = compile_text(text, "all.scn")
    pipe, inputs, _ = run(compiled)
    kinds = {type(i).__name__ for i in inputs}
    assert {"BoardHello", "BoardAlive", "ZoneEntered", "ZoneLeft", "CardFaceSensed", "ReaderFaulted",
            "DealerInput"} <= kinds
    actions = {i.action for i in inputs if isinstance(i, ev.DealerInput)}
    assert set(DEALER_ACTIONS) <= actions
    tags = [i.tag for i in inputs if isinstance(i, ev.ZoneEntered)]
    assert any(isinstance(t, CardTag) and t.is_joker for t in tags)
    assert any(isinstance(t, CardTag) and t.back == "blue" for t in tags)
    assert any(isinstance(t, ChipTag) and t.house == "OTHER" for t in tags)
    assert sum(isinstance(t, UnknownTag) for t in tags) == 2  # the unknown chip and the uid: card
    assert any(isinstance(t, ChipTag) and t.value == 1 for t in tags)  # below the smallest chip
    assert any(isinstance(t, MarkerTag) and t.kind == "kill" for t in tags)
    assert any(isinstance(r, Link) and not r.up for r in compiled.records)
    counters = pipe.decoder.counters.as_dict()
    assert counters["frames_lost"] == 2 and counters["garbage_bytes"] + counters["bad_cobs"] > 0
    assert any(isinstance(i, ev.FramesLost) and i.count == 2 for i in inputs)
    hello = next(i for i in inputs if isinstance(i, ev.BoardHello))
    assert hello.firmware == "2.1.0" and "seat4" in hello.zones and "seat5" not in hello.zones
    assert max(r.t for r in compiled.records) >= 500
    # two motions: the second chip arrives a second after the first group
    bet2 = [i.t for i in inputs if isinstance(i, ev.ZoneEntered) and i.zone == "bet2"]
    assert max(b - a for a, b in zip(bet2, bet2[1:], strict=False)) >= 0.9


def test_same_seed_same_random_cards():
    text = "seed 9\nshoe loaded\nsit 1\nsit 2\nbutton 1\ndeal hole cards\nflop\n"
    a = compile_text(text).records
    assert [r.to_record() for r in a] == [r.to_record() for r in compile_text(text).records]
    cards = [r for r in a if isinstance(r, Rx)]
    assert len(cards) > 52


@pytest.mark.parametrize("text,line,words", [
    ("hello\nsit 12 100\n", 2, "seat 12 is not at this table"),
    ("hello\nteleport 3\n", 2, "unknown step 'teleport'"),
    ("hello\ntable seats 6\n", 2, "before the first event"),
    ("game nlhe blinds 1-2\n", 1, "two whole numbers"),
    ("set game.big_blind -4\n\nhello\n", 3, "game.big_blind"),
    ("card Zz shoe -> seat1\n", 1, "not a card"),
    ("card Ah shoe seat1\n", 1, "missing '->'"),
    ("card Ah shoe -> seat11\n", 1, "unknown zone"),
    ("chips 7.5 -> bet1\n", 1, "not a chip amount"),
    ("chips 30 pot -> bet1\n", 1, "no chips making exactly 30"),
    ("deal hole cards\n", 1, "place the button first"),
    ("wait 2s\nat 1\n", 2, "cannot go back"),
    ("tap dance\n", 1, "tap ACTION"),
    ("garbage zz\n", 1, "hex bytes"),
])
def test_errors_name_file_line_and_problem(text, line, words):
    with pytest.raises(ScenarioError) as err:
        compile_text(text, "bad.scn")
    msg = str(err.value)
    assert msg.startswith(f"bad.scn:{line}: ") and words in msg, msg


def test_compile_file_names_the_file(tmp_path):
    f = tmp_path / "x.scn"
    f.write_text("hello\nsit x\n")
    with pytest.raises(ScenarioError, match=r"x\.scn:2: expected a seat number"):
        compile_file(f)


def test_a_scenario_opens_wherever_a_log_does():
    from dealerbox.sources import open_log
    log = open_log(SCENARIOS / "clean-hand.scn")
    compiled = compile_file(SCENARIOS / "clean-hand.scn")
    assert [r.to_record() for r in log] == [r.to_record() for r in compiled.records]
    assert log.header.config["table"]["seats"] == 6
