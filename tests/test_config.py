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
