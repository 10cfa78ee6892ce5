"""The floor's tournament director without a broker: which table hears what, and when it plans again."""

from dealerbox.tournament import config as tc
from dealerbox.tournament.floor import Director, clock_payload, schema_errors
from dealerbox.tournament.clock import Clock

from .tables import state, tournament_file


def director(tmp_path) -> Director:
    return Director(tc.load(tournament_file(tmp_path)), "demo", "boot1")


def test_nothing_is_planned_until_every_table_of_the_tournament_has_reported(tmp_path):
    d = director(tmp_path)
    assert d.observe("T01", state("T01", set(range(1, 9)), 2), 0.0, 1.0) == []
    assert d.observe("T02", state("T02", {1, 2, 3, 4, 5}, 1), 0.0, 1.0) == []
    out = d.observe("T03", state("T03", set(range(1, 8)), 1), 0.0, 1.0)
    assert [(topic, p["instruction"], p["moves"]) for topic, p in out] == [
        ("dealerbox/demo/T01/tournament", "move",
         [{"from_table": "T01", "from_seat": 5, "to_table": "T02", "to_seat": 6}]),
        ("dealerbox/demo/T02/tournament", "move",
         [{"from_table": "T01", "from_seat": 5, "to_table": "T02", "to_seat": 6}]),
    ]
    assert all(schema_errors("tournament", p) == [] for _, p in out)
    assert out[0][1]["rule"] == "tournament.14a" and out[0][1]["plan"] == 1


def test_a_move_in_progress_is_not_planned_twice(tmp_path):
    d = director(tmp_path)
    for table, occ, b in (("T01", set(range(1, 9)), 2), ("T02", {1, 2, 3, 4, 5}, 1), ("T03", set(range(1, 8)), 1)):
        d.observe(table, state(table, occ, b), 0.0, 1.0)
    # the player has left T01 but not yet sat at T02: 7, 5, 7 would otherwise call another move
    assert d.observe("T01", state("T01", set(range(1, 9)) - {5}, 2), 1.0, 2.0) == []
    assert d.observe("T02", state("T02", {1, 2, 3, 4, 5, 6}, 1), 2.0, 3.0) == []      # done, and balanced
    assert d.pending is None or d._settled(2.0)
    # a move never carried out is planned afresh once the settle time has passed
    d2 = director(tmp_path)
    for table, occ, b in (("T01", set(range(1, 9)), 2), ("T02", {1, 2, 3, 4, 5}, 1), ("T03", set(range(1, 8)), 1)):
        d2.observe(table, state(table, occ, b), 0.0, 1.0)
    assert d2.observe("T03", state("T03", set(range(1, 8)), 1), 10.0, 2.0) == []
    assert len(d2.observe("T03", state("T03", set(range(1, 8)), 1), 500.0, 3.0)) == 2


def test_an_unreadable_state_is_counted_and_ignored(tmp_path):
    d = director(tmp_path)
    assert d.observe("T01", {"seats": "many"}, 0.0, 1.0) == [] and d.ignored == 1
    assert d.observe("T09", state("T09", {1, 2}, 1), 0.0, 1.0) == [] and "T09" not in d.tables   # not ours


def test_the_clock_payload_matches_its_schema(tmp_path):
    t = tc.load(tournament_file(tmp_path))
    view = Clock.start(t, 0.0).view(1300.0)
    p = clock_payload("demo", t.id, view, boot="b", seq=1, at=1.0, players_left=20, tables_left=3)
    assert schema_errors("clock", p) == []
    assert (p["level"], p["big_blind_ante"], p["next"], p["left"]) == (2, 200, None, 1100.0)
    assert schema_errors("clock", {**p, "left": -1}) != []


def test_the_asyncapi_document_names_both_tournament_topics_and_their_examples_validate():
    import json
    from pathlib import Path

    doc = (Path(__file__).parents[2] / "docs" / "asyncapi.yaml").read_text()
    assert "dealerbox/{site}/{table}/tournament" in doc and "dealerbox/{site}/tournament/{tournament}/clock" in doc
    # the examples are written as JSON (valid YAML), so they can be checked without a YAML parser
    examples = [json.loads(line.split("- payload: ", 1)[1]) for line in doc.splitlines()
                if line.lstrip().startswith("- payload: {\"")]
    for kind in ("tournament", "clock"):
        assert f"$ref: '../dealerbox/schemas/floor/{kind}.json'" in doc
        mine = [e for e in examples if e["kind"] == kind]
        assert len(mine) == 1 and schema_errors(kind, mine[0]) == []


def test_a_terminal_follows_the_floor_clock_less_the_time_the_message_waited(tmp_path):
    from dealerbox.tournament.floor import follow_floor_clock

    t = tc.load(tournament_file(tmp_path))
    floor = Clock.start(t, 0.0).follow(0.0, level=2, left=300.0, running=True)
    msg = clock_payload("demo", t.id, floor.view(0.0), boot="f", seq=3, at=1000.0)
    table = Clock.start(t, 50.0)
    followed, why = follow_floor_clock(table, msg, now=60.0, wall_now=1004.0)
    assert why is None and (followed.view(60.0).level, followed.view(60.0).left) == (2, 296.0)
    paused, _ = follow_floor_clock(table, {**msg, "running": False}, now=60.0, wall_now=1004.0)
    assert paused.view(9999.0).left == 300.0 and not paused.view(9999.0).running
    for bad, reason in (({**msg, "tournament": "OTHER"}, "tournament OTHER"), ({**msg, "level": 7}, "level 7"),
                        ({**msg, "left": "soon"}, "left")):
        kept, why = follow_floor_clock(table, bad, now=60.0, wall_now=1004.0)
        assert kept is table and reason in why, why


def test_every_rule_id_the_tournament_code_raises_has_a_row_in_the_docs():
    import re
    from pathlib import Path

    root = Path(__file__).parents[2]
    used = set()
    for src in (root / "dealerbox" / "tournament").glob("*.py"):
        used |= set(re.findall(r'"(tournament\.[0-9]+[a-d]?)"', src.read_text()))
    doc = (root / "docs" / "tournaments.md").read_text()
    assert len(used) >= 13
    assert [r for r in sorted(used) if f"| `{r}` |" not in doc] == []
