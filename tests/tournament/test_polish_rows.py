"""The smaller tournament gaps closed in round 3b: a chip of another house put straight into the pot
(Tournaments 24), the finishing place at a multi-table event from the floor's counts (35), the rebuy owed until
it is paid (33), and the dealer's tap that ends a level when the floor's clock is away (6). Each through the
real decoder and engine."""

from __future__ import annotations

from pathlib import Path

from dealerbox.pipeline import Pipeline
from dealerbox.sources.scenario import compile_file
from tests.tournament.test_rows_engine import TABLE   # the same T02 table the row tests set up

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


REBUY = TABLE.format(table="T02") + """rebuy 3
{paid}
blinds
deal hole cards
wait 1s
heartbeat
"""


def rebuy_played(paid: str, more: str = "") -> list[dict]:
    from dealerbox.sources.scenario import compile_text
    compiled = compile_text(REBUY.format(paid=paid) + more, name=str(FOLDER / "rebuy.scn"))
    pipe = Pipeline.from_header(compiled.header)
    return [e.to_dict() for record in compiled.records for e in pipe.feed(record)]


def rule_33(events: list[dict]) -> list[dict]:
    return [e for e in events if e["event"] == "FindingRaised" and e["rule"] == "tournament.33"]


def test_a_rebuy_owed_is_said_at_each_deal_until_the_dealer_taps_it_paid():
    owed = rule_33(rebuy_played(""))
    assert [e["severity"] for e in owed] == ["dealer", "dealer"]      # announced, then owed at the deal
    assert "Rebuy owed" in owed[1]["ruling"] and "5,000 chips" in owed[1]["ruling"] and owed[1]["seats"] == [3]
    paid = rule_33(rebuy_played("rebuy-paid 3"))
    assert len(paid) == 1 and "rebuys for 5000" in paid[0]["ruling"]  # paid before the deal: no reminder


def test_a_payment_nobody_owed_is_said_and_a_player_leaving_owing_is_the_floors():
    nobody = rule_33(rebuy_played("rebuy-paid 3\nrebuy-paid 3"))
    assert nobody[-1]["severity"] == "info" and "owes no rebuy" in nobody[-1]["ruling"]
    left = rule_33(rebuy_played("", "leave 3\n"))
    assert left[-1]["severity"] == "floor" and "left owing 1 rebuy" in left[-1]["ruling"]


END_LEVEL = """
table seats 6
game nlhe blinds 1/2
tournament t06_levels.toml
hello
shoe loaded
sit 1
sit 3
sit 5
button 1
blinds
deal hole cards 1=9c,9d 3=Ah,Kd 5=7s,2h
wait 5s
{before}
end-level
heartbeat
"""
FLOOR_CLOCK = 'tap floor-clock detail {"level":1,"left":50,"running":true}'


def end_level(before: str = "") -> list[dict]:
    from dealerbox.sources.scenario import compile_text
    compiled = compile_text(END_LEVEL.format(before=before), name=str(FOLDER / "end_level.scn"))
    pipe = Pipeline.from_header(compiled.header)
    return [e.to_dict() for record in compiled.records for e in pipe.feed(record)]


def test_the_dealers_tap_ends_the_level_when_the_floors_clock_is_away():
    events = end_level()
    levels = [e["level"] for e in events if e["event"] == "LevelStarted"]
    assert levels == [1, 2]                            # level 2 starts at the tap, not a minute in
    started = [e for e in events if e["event"] == "LevelStarted"][-1]
    assert started["left_s"] == 60.0
    prompt = [e for e in events if e["event"] == "FindingRaised" and e["rule"] == "tournament.6"]
    assert len(prompt) == 1 and prompt[0]["severity"] == "dealer" and "Level 2" in prompt[0]["ruling"]


def test_the_tap_is_refused_while_the_floor_runs_the_clock_and_on_the_last_level():
    events = end_level(FLOOR_CLOCK)
    assert [e["level"] for e in events if e["event"] == "LevelStarted"] == [1]
    said = [e for e in events if e["event"] == "FindingRaised" and e["rule"] == "tournament.6"]
    assert [e["severity"] for e in said] == ["info"] and "ask the floor" in said[0]["ruling"]
    # a floor clock seen long ago is away: the dealer's tap works again
    events = end_level(FLOOR_CLOCK + "\nwait 40s")
    assert [e["level"] for e in events if e["event"] == "LevelStarted"][-1] == 2
    events = end_level("end-level\nend-level\nend-level")   # 2, the break, 3: then nothing to end
    assert [e["level"] for e in events if e["event"] == "LevelStarted"] == [1, 2, 3]
    assert "last level" in [e for e in events if e["event"] == "FindingRaised"][-1]["ruling"]


def test_the_seat_sheet_has_a_rebuy_paid_key_lit_while_the_seat_owes_one():
    from dealerbox.config import Config
    from dealerbox.runtime.bus import Update
    from dealerbox.sinks.screen import Screen
    from dealerbox.sources.scenario import compile_text
    from tests.test_screen import OK_HEALTH, Clock, press
    compiled = compile_text(REBUY.format(paid=""), name=str(FOLDER / "rebuy.scn"))   # rebuy, then a hand dealt
    pipe = Pipeline.from_header(compiled.header)
    for record in compiled.records:
        pipe.feed(record)
    assert pipe.engine.snapshot().tournament.rebuys_owed == (3,)
    screen = Screen(Config(), (800, 480), clock=Clock())

    def show():
        screen.accept(Update((), pipe.engine.snapshot(), OK_HEALTH))
        screen.redraw_if_changed()
        screen.open_sheet(3, True)      # the sheet opened over the banner already up
        screen.redraw_if_changed()

    show()
    tap = press(screen, "sheet:rebuy-paid")
    assert (tap.action, tap.seat) == ("rebuy-paid", 3)
    assert pipe.feed_input(tap) == []                        # paid: nothing to say
    show()
    assert screen.frame.target("sheet:rebuy-paid") is None   # owes nothing now: the key is dim
    assert screen.frame.target("sheet:wait-for-bb") is None  # never at a tournament table


def test_between_hands_the_key_column_offers_end_level_with_a_confirm_and_the_engine_takes_it():
    from dealerbox.config import Config
    from dealerbox.runtime.bus import Update
    from dealerbox.sinks.screen import Screen
    from dealerbox.sources.scenario import compile_text
    from tests.test_screen import OK_HEALTH, SIZES, Clock, assert_fits, press
    text = END_LEVEL.format(before="").split("wait 5s")[0] + "fold 1\nfold 3\nwin 5\ncleanup\n"
    compiled = compile_text(text, name=str(FOLDER / "end_level.scn"))
    pipe = Pipeline.from_header(compiled.header)
    events = tuple(e for record in compiled.records for e in pipe.feed(record))   # the pot pushed: no award key
    state = pipe.engine.snapshot()
    assert state.phase == "ended" and state.tournament.level == 1
    for size in SIZES:
        screen = Screen(Config(), size, clock=Clock())
        screen.accept(Update(events, state, OK_HEALTH))
        screen.redraw_if_changed()
        assert screen.frame.target("end-level") is not None, [t.key for t in screen.frame.targets]
        assert screen.frame.target("exposed") is None
        assert_fits(screen)
    assert press(screen, "end-level") is None                 # first tap: the confirm
    screen.redraw_if_changed()
    tap = press(screen, "confirm:end-level")
    assert tap.action == "end-level"
    after = [e.to_dict() for e in pipe.feed_input(tap)]
    assert [e["level"] for e in after if e["event"] == "LevelStarted"] == [2]
    cash = Screen(Config(), (800, 480), clock=Clock())       # a cash table keeps its exposed key
    import dataclasses
    cash.accept(Update(events, dataclasses.replace(state, tournament=None), OK_HEALTH))
    cash.redraw_if_changed()
    assert cash.frame.target("end-level") is None
