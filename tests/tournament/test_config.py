"""The tournament TOML: the shipped example loads, and each broken file names its file and field."""

import tomllib
from pathlib import Path

import pytest

from dealerbox.config import ConfigError
from dealerbox.tournament import config as tc

EXAMPLE = Path(__file__).parents[2] / "docs" / "tournament.example.toml"


def example() -> dict:
    return tomllib.loads(EXAMPLE.read_text())


def test_the_shipped_example_loads_with_its_levels_breaks_and_chips():
    t = tc.load(EXAMPLE)
    assert (t.id, t.starting_stack, len(t.levels)) == ("SUN-500", 20000, 5)
    assert t.levels[2].big_blind_ante == 400 and t.levels[4].ante == 100
    assert t.breaks[0].after_level == 2 and t.breaks[0].seconds == 600
    assert [c.value for c in t.chips_in_play(1)][:2] == [25, 50]
    assert [c.value for c in t.chips_in_play(2)][0] == 50
    assert t.tables == ("T03", "T02", "T01") and t.held_seats == (("T01", 9),)
    assert t.redraw_at_tables == (2, 1)


@pytest.mark.parametrize("edit, message", [
    (lambda d: d["levels"][2].update(big_blind=0), "levels.3.big_blind: 0 is less than the minimum of 1"),
    (lambda d: d["tournament"].pop("starting_stack"), "tournament: 'starting_stack' is a required property"),
    (lambda d: d["levels"][0].update(small_blind=300), "levels.1.small_blind: 300 is more than the big blind 200"),
    (lambda d: d["levels"][2].update(ante=50), "levels.3: has both ante and big_blind_ante"),
    (lambda d: d["levels"][1].update(small_blind=125), "levels.2.small_blind: 125 cannot be paid"),
    (lambda d: d["chips"][1].update(value=25), "chips: two chips have the same value"),
    (lambda d: d["breaks"][0].update(after_level=5), "breaks.1.after_level: 5 is not before the last level"),
    (lambda d: d["tournament"].update(places_paid=40), "tournament.places_paid: 40 is more than the 27 entrants"),
    (lambda d: d["late_entry"].update(held_seats=["T09:2"]), "late_entry.held_seats: T09:2 names a table"),
    (lambda d: d["tournament"].update(colour="red"), "tournament: Additional properties are not allowed"),
    (lambda d: d["chips"][2].update(colour_up_after_level=3), "levels.5.ante: 100 cannot be paid"),
])
def test_a_broken_tournament_names_the_file_and_the_field(tmp_path, edit, message):
    data = example()
    edit(data)
    with pytest.raises(ConfigError) as e:
        tc.from_dict(data, "sunday.toml")
    assert str(e.value).startswith("sunday.toml: ") and message in str(e.value), str(e.value)


def test_the_near_miss_of_the_chip_check_is_accepted():
    data = example()
    data["levels"][1].update(small_blind=150)       # a multiple of the 50, the smallest chip left at level 2
    assert tc.from_dict(data, "x.toml").levels[1].small_blind == 150


def test_a_missing_or_unparsable_file_says_what_to_do(tmp_path):
    with pytest.raises(tc.TournamentConfigError, match="no such file; copy docs/tournament.example.toml"):
        tc.load(tmp_path / "none.toml")
    bad = tmp_path / "bad.toml"
    bad.write_text("[tournament\n")
    with pytest.raises(tc.TournamentConfigError, match=f"{bad}: not valid TOML"):
        tc.load(bad)
