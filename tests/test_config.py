"""Configuration: defaults run the demo; a broken file is one clear line naming the field, exit code 2."""

import pytest

from dealerbox import cli
from dealerbox.config import Config, ConfigError, load


def test_defaults_are_a_working_demo_config():
    c = load(None)
    assert c == Config()
    assert c.table.seats == 9 and c.game.variant == "nlhe" and c.reader.source == "auto"


def test_empty_file_is_the_defaults(tmp_path):
    f = tmp_path / "empty.toml"
    f.write_text("")
    assert load(f).game == Config().game


def test_values_are_read(tmp_path):
    f = tmp_path / "t.toml"
    f.write_text('[table]\nid = "T07"\nseats = 6\n[game]\nvariant = "plo"\nsmall_blind = 5\nbig_blind = 10\n'
                 '[enrolment]\ndecks = ["a.json", "b.json"]\n')
    c = load(f)
    assert (c.table.id, c.table.seats, c.game.variant, c.game.big_blind) == ("T07", 6, "plo", 10)
    assert c.enrolment.decks == ("a.json", "b.json")


@pytest.mark.parametrize("text, needle", [
    ("[game]\nbig_blind = -2\n", "game.big_blind"),
    ("[table]\nseat = 3\n", "'seat' was unexpected"),
    ("[reader]\nsource = \"usb\"\n", "reader.source"),
    ("[game]\nsmall_blind = 5\nbig_blind = 2\n", "game.small_blind"),
    ("[panel]\nlight_red = 17\n", "panel.light_red: GPIO 17 is already used by panel.button_call_floor"),
    ("[table\nid=1", "not valid TOML"),
    ("[table]\nseats = \"nine\"\n", "table.seats"),
])
def test_broken_file_names_the_file_and_field(tmp_path, text, needle):
    f = tmp_path / "broken.toml"
    f.write_text(text)
    with pytest.raises(ConfigError) as e:
        load(f)
    msg = str(e.value)
    assert str(f) in msg and needle in msg and "\n" not in msg


def test_cli_exits_2_with_one_line_on_a_broken_config(tmp_path, capsys):
    f = tmp_path / "broken.toml"
    f.write_text("[game]\nbig_blind = 0\n")
    assert cli.main(["--config", str(f), "rules"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "game.big_blind" in err[0] and str(f) in err[0]


def test_missing_file_says_what_to_do(tmp_path):
    with pytest.raises(ConfigError, match="no such file"):
        load(tmp_path / "nope.toml")


def test_documented_example_is_exactly_the_defaults():
    # docs/dealerbox.example.toml lists every key: it must stay in step with the code.
    from pathlib import Path
    example = Path(__file__).resolve().parent.parent / "docs" / "dealerbox.example.toml"
    assert load(example) == Config(path=str(example))
    import dataclasses
    text = example.read_text()
    for section in dataclasses.fields(Config):
        if section.name == "path":
            continue
        assert f"[{section.name}]" in text
        for f in dataclasses.fields(section.default_factory()):
            assert f"\n{f.name} = " in text, f"{section.name}.{f.name} missing from the example"


@pytest.mark.parametrize("variant, seats, most", [("plo5", 9, 8), ("plo5-8", 10, 8)])
def test_big_o_seated_past_what_one_deck_deals_is_refused_naming_table_seats(tmp_path, capsys, variant, seats, most):
    # five hole cards: 9 x 5 + 5 board + 3 burns = 53 > 52, so Big O seats at most eight
    f = tmp_path / "bigo.toml"
    f.write_text(f'[table]\nseats = {seats}\n[game]\nvariant = "{variant}"\n')
    assert cli.main(["--config", str(f), "rules"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and str(f) in err[0], err
    assert f"table.seats: {seats} players of {variant} need" in err[0]
    assert f"set table.seats to {most} or fewer" in err[0]
    f.write_text(f'[table]\nseats = {most}\n[game]\nvariant = "{variant}"\n')
    assert cli.main(["--config", str(f), "rules"]) == 0
    capsys.readouterr()


def test_every_other_game_deals_a_full_ten_seat_table_and_a_scenario_is_held_to_the_same_limit():
    from dealerbox.config import from_dict
    from dealerbox.engine.variants import VARIANTS, check_seats, most_players
    from dealerbox.sources.scenario import ScenarioError, compile_text

    for key, v in VARIANTS.items():
        if v.hole_cards <= 4:
            check_seats(from_dict({"table": {"seats": 10}, "game": {"variant": key}}), "t.toml")   # no error
            assert most_players(v) >= 10
    with pytest.raises(ConfigError, match=r"^t\.toml: table\.seats: 9 players of plo5 need 53 cards"):
        check_seats(from_dict({"table": {"seats": 9}, "game": {"variant": "plo5"}}), "t.toml")
    with pytest.raises(ScenarioError, match="table.seats: 9 players of plo5-8 need 53 cards"):
        compile_text("table seats 9\ngame plo5-8 blinds 1/2\nhello\n", "bigo.scn")
    eight = compile_text("table seats 8\ngame plo5-8 blinds 1/2\nhello\n", "bigo.scn")
    assert eight.header.config["table"]["seats"] == 8
