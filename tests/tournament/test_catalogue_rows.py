"""The catalogue's tournament rows against RULES.md's Tournaments table, ``dealerbox rules --json`` marking them,
the table's kind in the configuration, and no tournament row at a cash table."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from dealerbox import cli
from dealerbox.config import ConfigError, from_dict, load
from dealerbox.engine.catalogue import OUTCOMES, RULES, SEVERITIES, raised_at
from dealerbox.tournament.at_table import for_table

from ..test_engine_cards import HANDS, Table

RULES_TOURNAMENTS = Path(__file__).parent.parent / "fixtures" / "rules-tournaments.md"
EXAMPLE = Path(__file__).parent.parent.parent / "docs" / "tournament.example.toml"


def table_rows() -> list[str]:
    return re.findall(r"^\| `(tournament\.[0-9a-z]+)` \|", RULES_TOURNAMENTS.read_text(), re.M)


def test_every_row_of_the_tournaments_table_is_in_the_catalogue_and_nothing_else():
    rows = table_rows()
    assert len(rows) == 29
    ours = [r.id for r in RULES.values() if r.tournament]
    assert sorted(ours) == sorted(rows)
    assert all(r.id.startswith("tournament.") for r in RULES.values() if r.tournament)
    assert not [r.id for r in RULES.values() if r.id.startswith("tournament.") and not r.tournament]


def test_each_tournament_row_carries_a_citation_and_the_outcome_vocabulary():
    for r in (r for r in RULES.values() if r.tournament):
        number = re.match(r"tournament\.(\d+)", r.id).group(1)
        assert r.citation == f"Tournaments {number}", r
        assert r.severities and set(r.severities) <= set(SEVERITIES), r
        assert r.outcomes and set(r.outcomes) <= set(OUTCOMES), r


def test_the_outcomes_match_the_outcome_column_of_rules_md():
    text = RULES_TOURNAMENTS.read_text()
    for r in (r for r in RULES.values() if r.tournament):
        line = next(row for row in text.splitlines() if row.startswith(f"| `{r.id}` |"))
        outcome_column = line.rstrip(" |").rsplit("|", 1)[1]
        assert any(o in outcome_column for o in r.outcomes), (r.id, outcome_column)


def test_rules_json_lists_the_tournament_rows_marked(capsys):
    assert cli.main(["rules", "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    marked = {r["rule"]: r for r in rows if r["tournament"]}
    assert sorted(marked) == sorted(table_rows())
    assert marked["tournament.19"]["outcomes"] == ["continues"] and marked["tournament.19"]["severities"] == ["info"]
    assert not [r for r in rows if not r["tournament"] and r["rule"].startswith("tournament.")]
    assert next(r for r in rows if r["rule"] == "blinds.10")["tournament"] is False


def test_rules_text_says_which_rows_are_for_tournament_tables_only(capsys):
    assert cli.main(["rules"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert all(ln.endswith("(tournament tables only)") for ln in lines if ln.startswith("tournament."))
    assert not [ln for ln in lines if ln.startswith("blinds.") and "tournament" in ln]


def test_a_table_is_cash_by_default_and_tournament_by_kind_or_by_a_tournament_file(tmp_path):
    assert not from_dict({}).is_tournament
    assert from_dict({"table": {"kind": "tournament"}}).is_tournament
    conf = tmp_path / "table.toml"
    (tmp_path / "sunday.toml").write_text(EXAMPLE.read_text())
    conf.write_text('[tournament]\nfile = "sunday.toml"\n')
    c = load(conf)
    assert c.is_tournament
    t = for_table(c)
    assert t is not None and t.levels and t.path.endswith("sunday.toml")
    assert for_table(from_dict({})) is None


def test_a_table_kind_not_known_is_named(tmp_path):
    f = tmp_path / "bad.toml"
    f.write_text('[table]\nkind = "sit-and-go"\n')
    with pytest.raises(ConfigError, match=r"bad.toml: table.kind: 'sit-and-go' is not one of"):
        load(f)


def test_a_missing_tournament_file_is_named(tmp_path):
    conf = tmp_path / "table.toml"
    conf.write_text('[tournament]\nfile = "nowhere.toml"\n')
    with pytest.raises(ConfigError, match="nowhere.toml: no such file"):
        for_table(load(conf))


def test_raised_at_keeps_tournament_rows_off_cash_tables():
    assert not raised_at("tournament.34", tournament_table=False)
    assert raised_at("tournament.34", tournament_table=True)
    assert raised_at("blinds.10", tournament_table=False) and raised_at("blinds.10", tournament_table=True)


def test_tournament_34_is_raised_at_a_tournament_table():
    t = Table(stack=50, kind="tournament").blinds().deal_holes(HANDS).bet(4, 50).bet(1, 50).fold(2).fold(3).run()
    f = t.finding("tournament.34")
    assert f.severity == "info" and set(f.seats) == {1, 4} and f.citation == "Tournaments 34"


def test_tournament_34_is_never_raised_at_a_cash_table():
    t = Table(stack=50).blinds().deal_holes(HANDS).bet(4, 50).bet(1, 50).fold(2).fold(3).run()
    assert "tournament.34" not in t.rules(above_info=False)
    assert not [f for f in t.engine.findings.raised if f.rule.startswith("tournament.")]
