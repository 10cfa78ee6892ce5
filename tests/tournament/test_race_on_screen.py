"""The chip race guided on the dealer's screen (Tournaments 8a-8d), pygame's dummy driver: the race scenarios
played through the real decoder and engine up to the dealer's first ``chip-race`` tap; from there the dealer
taps the screen's key, and the tap goes to the engine like any other. The bar lists each seat's odd chips and
the race cards read in its seat zone, then what each seat wins; the second tap confirms and the bar goes.
Asserted through what the frames say they drew."""

from __future__ import annotations

from pathlib import Path

import pytest

from dealerbox.config import Config
from dealerbox.engine.state import RaceView
from dealerbox.pipeline import Pipeline
from dealerbox.runtime.bus import Update
from dealerbox.sinks.screen import Screen
from dealerbox.sinks.screen.race import race_key, race_lines, race_step
from dealerbox.sources.scenario import compile_text
from tests.test_screen import OK_HEALTH, SIZES, Clock, assert_fits, press

FOLDER = Path(__file__).resolve().parents[2] / "tests" / "scenarios" / "tournament"


def up_to_the_tap(name: str, cash: bool = False) -> tuple[Pipeline, Screen, list]:
    """The scenario without its ``chip-race`` taps, fed to the engine and a screen (800x480)."""
    lines = [line for line in (FOLDER / name).read_text().splitlines() if not line.startswith("chip-race")]
    if cash:
        lines = [line for line in lines if not line.startswith(("tournament ", "tap floor-clock"))]
    compiled = compile_text("\n".join(lines), name=str(FOLDER / name))
    pipe = Pipeline.from_header(compiled.header)
    screen = Screen(Config(), (800, 480), clock=Clock())
    events = []
    for record in compiled.records:
        events += pipe.feed(record)
        show(pipe, screen, [])
    return pipe, screen, events


def show(pipe: Pipeline, screen: Screen, events: list) -> None:
    screen.accept(Update(tuple(events), pipe.engine.snapshot(), OK_HEALTH))
    screen.redraw_if_changed()


def tap_race_key(pipe: Pipeline, screen: Screen) -> list:
    tap = press(screen, "chip-race")
    assert tap is not None and tap.action == "chip-race"
    events = pipe.feed_input(tap)
    show(pipe, screen, events)
    return events


def test_the_bar_lists_odd_chips_and_race_cards_then_the_awards_and_the_confirm_changes_the_stacks():
    pipe, screen, _ = up_to_the_tap("t08c_race_award.scn")
    f = screen.frame
    assert f.texts("race-title") == ["CHIP RACE  5 (white) off, for 25 (green)"]
    assert f.texts("race-line") == ["S1  3 x 5: As 9s 4d   S3  2 x 5: 2c 7h"]
    assert f.texts("race-step") == ["Every card is dealt: check the deal."]
    before = {s.seat: s.stack for s in pipe.engine.snapshot().seats}
    events = tap_race_key(pipe, screen)            # the deal is right: the awards are shown
    assert any(e.rule == "tournament.8c" for e in events if type(e).__name__ == "FindingRaised")
    f = screen.frame
    assert f.texts("race-line") == ["S1  3 x 5: As 9s 4d -> nothing   S3  2 x 5: 2c 7h -> 1 x 25"]
    assert screen.frame.banner is not None and screen.frame.banner.rule.startswith("tournament.8")
    assert_fits(screen)                             # clock, race bar and banner together on the smallest screen
    assert screen.frame.target("chip-race").label == "Confirm the chip race awards"
    assert {s.seat: s.stack for s in pipe.engine.snapshot().seats} == before     # nothing moved yet
    events = tap_race_key(pipe, screen)            # the dealer confirms
    changed = {e.seat: e.stack for e in events if type(e).__name__ == "StackChanged"}
    assert changed == {1: before[1] - 15, 3: before[3] - 10 + 25}
    assert pipe.engine.snapshot().race is None and screen.frame.texts("race-title") == []


def test_a_wrong_race_deal_keeps_the_bar_on_the_deal_with_the_finding_in_the_banner():
    pipe, screen, _ = up_to_the_tap("t08b_race_deal.scn")
    assert screen.frame.texts("race-line") == ["S1  3 x 5: 2c 9s 4d   S3  2 x 5: Kd 7h"]
    events = tap_race_key(pipe, screen)
    assert [e.rule for e in events if type(e).__name__ == "FindingRaised"] == ["tournament.8b"]
    assert pipe.engine.snapshot().race.won is None
    assert screen.frame.target("chip-race").label == "Check the chip race deal"
    assert screen.frame.banner is not None and screen.frame.banner.rule == "tournament.8b"


def test_a_cash_table_has_no_race_bar():
    pipe, screen, _ = up_to_the_tap("t08c_race_award.scn", cash=True)
    assert pipe.engine.snapshot().race is None and screen.frame.texts("race-title") == []


RACE = RaceView(25, 100, "green", "black", odd=tuple((s, 3) for s in range(1, 10)),
                cards=tuple((s, ("Ah", "Kd", "2c")) for s in range(1, 10)))


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_a_nine_seat_race_fits_every_screen_and_says_how_many_more_seats(size):
    from tests.test_screen_moments import clean_hand
    import dataclasses
    screen = Screen(Config(), size, clock=Clock())
    screen.render(dataclasses.replace(clean_hand(), phase="ended", race=RACE), OK_HEALTH, [])
    lines = screen.frame.texts("race-line")
    assert lines and all("S" in line for line in lines[:-1])
    shown = sum(line.count(" x 25:") for line in lines)
    assert shown == 9 or lines[-1] == f"... {9 - shown} more seats"
    assert_fits(screen)


def test_the_words_and_the_key_follow_the_race():
    empty = RaceView(5, 25, "white", "green")
    assert race_step(empty).startswith("Odd chips into each player's bet zone")
    assert race_key(empty).colour != race_key(RaceView(5, 25, odd=((1, 1),), cards=((1, ("As",)),))).colour
    half = RaceView(5, 25, odd=((1, 2), (4, 1)), cards=((1, ("As",)),))
    assert race_step(half) == "A card per odd chip, face up, from seat 1: 1 of 3."
    assert race_lines(half) == ["S1  2 x 5: As", "S4  1 x 5: no card yet"]
    won = RaceView(5, 25, odd=((1, 2), (4, 1)), cards=((1, ("As", "2c")), (4, ("Kd",))), won=((1, 1), (4, 0)))
    assert race_lines(won) == ["S1  2 x 5: As 2c -> 1 x 25", "S4  1 x 5: Kd -> nothing"]
    assert race_key(won).label == "Confirm race awards"
