"""What the wired tournament rows do to the hand, beyond raising the finding: the stacks, who is dealt in,
what the betting counts. Scenario text through the real decoder and the engine (tests/scenarios/tournament)."""

from __future__ import annotations

from pathlib import Path

from dealerbox.pipeline import Pipeline
from dealerbox.sources.scenario import compile_text

FOLDER = Path(__file__).resolve().parents[2] / "tests" / "scenarios" / "tournament"
TABLE = """tournament t03_event.toml
table seats 9 id {table}
game nlhe blinds 25/50
set game.smallest_chip 5
hello
shoe loaded
sit 1 5000
sit 3 5000
sit 5 5000
button 5
"""


def play(steps: str, table: str = "T02") -> tuple[Pipeline, list]:
    compiled = compile_text(TABLE.format(table=table) + steps, name=str(FOLDER / "inline.scn"))
    pipe = Pipeline.from_header(compiled.header)
    events = []
    for record in compiled.records:
        events += pipe.feed(record)
    return pipe, events


def found(events, rule: str) -> list:
    return [e for e in events if e.kind == "FindingRaised" and e.rule == rule]


def test_a_rebuy_binds_once_adds_the_events_chips_and_a_second_is_refused_with_the_reason():
    pipe, events = play("rebuy 3\nrebuy 3\n")
    rulings = [f.ruling for f in found(events, "tournament.33")]
    assert rulings == ["Seat 3 rebuys for 5000: dealt in now, owes the rebuy until it is made",
                       "Seat 3: no rebuy: the player has made the 1 rebuy(s) allowed"]
    assert pipe.engine.betting.stacks[3] == 10000


def test_a_held_seat_is_seated_with_the_starting_stack_and_dealt_in_at_its_table_only():
    pipe, events = play("post 9 25\n", table="T01")
    started = next(e for e in events if e.kind == "HandStarted")
    assert 9 in started.seats and pipe.engine.betting.stacks[9] == 5000
    _, elsewhere = play("blinds\n", table="T02")
    assert 9 not in next(e for e in elsewhere if e.kind == "HandStarted").seats


def test_an_away_seat_dealt_out_at_a_later_deal_is_a_misdeal_cited_as_tournaments_9():
    first = "blinds\ndeal hole cards\nfold 5\nfold 1\nwin 3\ncleanup\nwait 2s\n"
    _, events = play(first + "away 1\nbutton 1\nblinds\ncard Ah shoe -> seat3\ncard Kh shoe -> seat5\nburn 5d\n")
    misdeal = [f for f in found(events, "tournament.9") if f.outcome == "misdeal"]
    assert [f.seats for f in misdeal] == [(1,)] and not found(events, "misdeal.1j")
    assert [e.outcome for e in events if e.kind == "HandEnded"][-1] == "misdeal"


def test_a_foreign_chip_never_reaches_the_betting_so_the_call_is_still_short():
    _, events = play("blinds\ndeal hole cards\nchips 25 OTHER:25 -> bet5\nwait 1s\nheartbeat\n")
    moved = [e for e in events if e.kind == "ChipsMoved" and e.seat == 5]
    assert [m.amount for m in moved] == [25]
    assert not found(events, "procedures.3") and found(events, "tournament.24")


def test_the_string_bet_counts_only_the_first_move_of_a_raise_said_without_its_amount():
    steps = ("blinds\ndeal hole cards\nwait 2s\ndeclare-raise 5\nchips 100 -> bet5\nchips 100 -> bet5\nwait 4s\n"
             "heartbeat\n")
    _, events = play(steps)
    acts = [(e.action, e.total) for e in events if e.kind == "ActionTaken" and e.seat == 5]
    assert acts == [("raise", 100)]
    assert found(events, "tournament.23")[0].ruling.endswith("return the 100.")


RACE = ('tap floor-clock detail {"level":2,"left":1200,"running":true,"players_left":30}\nleave 3\nsit 3 10\n'
        "chips 5x3 -> bet1\nchips 5x2 -> bet3\ncard As shoe -> seat1 face up\n"
        "card 9s shoe -> seat1 face up\ncard 4d shoe -> seat1 face up\n{seat3}chip-race\n")

AWARD = "Race: take every odd 5 off the table; one 25 each to seat 3 (7h)"   # the odd 5s leave with the award


def test_the_race_award_names_the_seat_left_without_chips_first_and_moves_stacks_once_confirmed():
    shown_only = "card 2c shoe -> seat3 face up\ncard 7h shoe -> seat3 face up\n"
    pipe, events = play(RACE.replace("{seat3}", shown_only))
    award = found(events, "tournament.8c")
    assert award[0].ruling == AWARD and award[1].seats == (3,)
    assert not [e for e in events if e.kind in ("StackChanged", "HandStarted")]     # shown, not yet confirmed
    pipe, events = play(RACE.replace("{seat3}", shown_only) + "chip-race\n")
    assert pipe.engine.tournament_table.chips.race is None and not [e for e in events if e.kind == "HandStarted"]
    raced = {e.seat: (e.stack, e.reason) for e in events if e.kind == "StackChanged"}
    assert raced == {1: (4985, "race"), 3: (25, "race")}      # 15 in 5s gone; 10 in 5s for a 25


def test_a_wrong_race_deal_is_flagged_then_redealt_and_awarded():
    wrong = "card 2c shoe -> seat3 face up\n"                 # one card for two odd chips
    fixed = "chip-race\ncard 2c seat3 -> shoe\n" + "card 2c shoe -> seat3 face up\ncard 7h shoe -> seat3 face up\n"
    _, events = play(RACE.replace("{seat3}", wrong + fixed))
    assert [f.seats for f in found(events, "tournament.8b")] == [(3,)]
    assert found(events, "tournament.8c")[0].ruling == AWARD


def test_a_tournament_table_without_the_events_file_deals_the_away_player_in_and_kills_the_hand():
    text = TABLE.format(table="T02").replace("tournament t03_event.toml\n", "set table.kind tournament\n")
    compiled = compile_text(text + "away 5\nblinds\ndeal hole cards\nchips OTHER:25 -> bet5\nwait 1s\nheartbeat\n",
                            name=str(FOLDER / "inline.scn"))
    pipe = Pipeline.from_header(compiled.header)
    events = [e for record in compiled.records for e in pipe.feed(record)]
    assert pipe.engine.tournament is None and compiled.config.is_tournament
    assert [(f.outcome, f.seats) for f in found(events, "tournament.9")] == [("continues", (5,))]
    assert [(f.outcome, f.seats) for f in found(events, "tournament.11")] == [("dead-hand", (5,))]
    assert not found(events, "tournament.24")        # no chip set without the event: the house's rule stands


def test_sitting_out_at_a_tournament_table_is_being_away_the_seat_is_still_dealt_in():
    _, events = play("sit-out 5\nblinds\ndeal hole cards\n")
    assert 5 in next(e for e in events if e.kind == "HandStarted").seats
    assert [f.seats for f in found(events, "tournament.11")] == [(5,)]
    assert not found(events, "misdeal.1i")


HAND_AND_NEW_DECK = ("blinds\ndeal hole cards\nfold 5\nfold 1\nwin 3\ncleanup\nwait 2s\n{between}"
                     "shoe loaded DEMO-2\nbutton 1\nblinds\ndeal hole cards\n")


def test_a_new_deck_after_a_new_dealer_signs_in_is_allowed_and_without_one_it_is_flagged():
    _, changed = play(HAND_AND_NEW_DECK.format(between=""))
    assert [f.outcome for f in found(changed, "tournament.28")] == ["continues"]
    assert not found(changed, "procedures.21")       # replaced at a tournament table
    _, new_dealer = play(HAND_AND_NEW_DECK.format(between="tap sign-in by D7 ref pin\n"))
    assert not found(new_dealer, "tournament.28")
    assert [e.deck_id for e in new_dealer if e.kind == "DeckChanged"][-1] == "DEMO-2"


def test_a_clock_payload_that_does_not_read_is_counted_and_changes_nothing():
    pipe, events = play('tap floor-clock detail {"level":3\ntap floor-clock detail [2]\nblinds\n')
    levels = pipe.engine.tournament_table.levels
    assert levels.floor_clock_refused == 2 and levels.level() == 1
    assert not found(events, "tournament.8a")


def test_a_race_never_run_ends_with_the_next_deal_and_a_raced_off_chip_then_does_not_play():
    pipe, events = play('tap floor-clock detail {"level":2,"left":1200,"running":true,"players_left":30}\n'
                        "chips 50 -> bet1\nchips 100 -> bet3\ndeal hole cards\nchips 100 5 -> bet5\nwait 1s\n"
                        "heartbeat\n")
    assert pipe.engine.tournament_table.chips.race is None
    assert [f.outcome for f in found(events, "tournament.8a")] == ["continues", "wager-corrected"]


def test_a_foreign_chip_gathered_into_the_pot_still_does_not_play_and_bet_again_next_hand_is_ruled_again():
    hand = "blinds\ndeal hole cards\nchips 25 OTHER:25 -> bet5\nchips 25 -> bet5\nwait 1s\ncheck 3\ngather\n"
    pipe, events = play(hand + "fold 1\nfold 3\nwin 5\ncleanup\nwait 2s\nbutton 1\n" + hand.replace("bet5", "bet3"))
    ended = [e for e in events if e.kind == "HandEnded"]
    assert ended and ended[0].pots[0].amount == 125          # 25 + 50 + the 50 call in the event's chips: no foreign 25
    assert [f.seats for f in found(events, "tournament.24")] == [(5,), (3,)]
