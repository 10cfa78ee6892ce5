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


MULTI_TABLE_BUSTS = """
table seats 6 id T02
game nlhe blinds 50/100
tournament t03_event.toml
hello
shoe loaded
sit 1 200
sit 3 5000
sit 5 150
button 1
{counts}
blinds
deal hole cards 1=9c,9d 3=Ah,Ad 5=7s,2h
raise 1 200
call 3 150
call 5 100
gather
flop Ac 8d 3s
turn Qh
river 4c
win 3
cleanup
"""
REDRAW = ('floor-instruction by floor detail {{"v":1,"kind":"tournament","site":"demo","table":"T02",'
          '"tournament":"SUN-500","boot":"floor1","seq":1,"at":1000000001.0,"plan":{plan},"instruction":"redraw",'
          '"rule":"tournament.17","moves":[],"tables_left":2,"from":"tournament","counts":{{"T01":7,"T02":3}}}}')


def multi_table(counts: str) -> list[dict]:
    from dealerbox.sources.scenario import compile_text
    compiled = compile_text(MULTI_TABLE_BUSTS.format(counts=counts), name=str(FOLDER / "multi.scn"))
    pipe = Pipeline.from_header(compiled.header)
    return [e.to_dict() for record in compiled.records for e in pipe.feed(record)]


def test_a_bust_at_a_multi_table_event_is_placed_from_the_floors_counts_and_the_floor_confirms():
    events = multi_table(REDRAW.format(plan=4))
    out = {e["seat"]: e["place"] for e in events if e["event"] == "PlayerEliminated"}
    assert out == {1: 9, 5: 10}          # ten players by the floor's counts; seat 1 started with more chips
    confirm = [e for e in events if e["event"] == "FindingRaised" and e["rule"] == "tournament.35"
               and e["severity"] == "floor"]
    assert len(confirm) == 1 and "plan 4" in confirm[0]["ruling"] and confirm[0]["seats"] == [1, 5]


def test_with_no_clock_and_no_counts_the_place_is_left_to_the_floor_and_the_finding_says_why():
    events = multi_table("")
    assert [e["place"] for e in events if e["event"] == "PlayerEliminated"] == [None, None]
    said = [e["ruling"] for e in events if e["event"] == "FindingRaised" and e["rule"] == "tournament.35"]
    assert len(said) == 2 and all("no count of the players left" in s for s in said)
