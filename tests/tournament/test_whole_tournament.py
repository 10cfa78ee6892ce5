"""A whole single-table tournament through the simulator, from the draw for the button to the winner, with the
levels rising (Tournaments 6, 7), busts placed (35), and the recorded log replayed to the same events."""

from __future__ import annotations

from pathlib import Path

import pytest

from dealerbox.config import load
from dealerbox.pipeline import Pipeline
from dealerbox.record.recorder import Recorder
from dealerbox.sources import open_log
from dealerbox.sources.sim import Simulator
from dealerbox.tags import demo_registry
from dealerbox.tournament.at_table import for_table
from tests.conftest import scaled

ROOT = Path(__file__).resolve().parents[2]
TABLE = ROOT / "docs" / "tournament-table.demo.toml"
SEED = 3     # four entrants: three busts in different hands, six levels and the break


@pytest.fixture(scope="module")
def played(tmp_path_factory):
    """The tournament played live (simulator -> pipeline) while its records are written to a log."""
    config = load(TABLE)
    tournament = for_table(config)
    sim = Simulator(config, demo_registry(), seed=SEED, tournament=tournament)
    pipe = Pipeline.from_header(sim.header())
    folder = tmp_path_factory.mktemp("log")
    recorder = Recorder(folder, sim.header(), rotate_bytes=1 << 40, name="tournament", fsync_every_s=60.0)
    events = []
    for record in sim.records():
        recorder.write(record)
        events += pipe.feed(record)
    recorder.close()
    return tournament, sim, pipe, [e.to_dict() for e in events], recorder.path


def of(events, kind):
    return [e for e in events if e["event"] == kind]


def test_the_simulator_plays_until_one_player_holds_every_chip(played):
    tournament, sim, pipe, events, _ = played
    assert len(sim.stacks) == 1 and sim.finished
    won = of(events, "TournamentWon")
    assert len(won) == 1 and won[0]["stack"] == tournament.entrants * tournament.starting_stack
    assert won[0]["seat"] == next(iter(sim.stacks))
    seated = of(events, "PlayerSeated")
    assert len(seated) == tournament.entrants and {e["stack"] for e in seated} == {tournament.starting_stack}


def test_the_levels_rise_on_the_clock_and_each_hand_plays_the_level_it_was_dealt_at(played):
    tournament, _, _, events, _ = played
    levels = of(events, "LevelStarted")
    assert [e["level"] for e in levels] == list(range(1, len(levels) + 1)) and len(levels) >= 4
    assert len(of(events, "BreakStarted")) == 1
    prompts = [e for e in of(events, "FindingRaised") if e["rule"] == "tournament.6"]
    assert len(prompts) == len(levels) - 1 + 1          # every new level after the first, and the break
    assert all(e["outcome"] == "continues" and e["severity"] == "dealer" for e in prompts)
    periods = [(e["t"], (e["small_blind"], e["big_blind"])) for e in levels] + [
        (e["t"], (tournament.level(e["next_level"]).small_blind, tournament.level(e["next_level"]).big_blind))
        for e in of(events, "BreakStarted")]       # a deal during a break plays the level after it
    stacks = {e["seat"]: e["stack"] for e in of(events, "PlayerSeated")}
    for e in events:
        if e["event"] == "HandEnded":
            stacks.update({int(s): v for s, v in e["stacks"].items()})
        if e["event"] != "HandStarted":
            continue
        small, big = max((p for p in periods if p[0] <= e["t"]), key=lambda p: p[0])[1]
        for seat, amount in e["blinds"].items():     # each blind is the level's, or all the seat has
            assert amount in (min(small, stacks[int(seat)]), min(big, stacks[int(seat)])), (e, small, big)
        assert max(e["blinds"].values()) == min(big, max(stacks[int(s)] for s in e["blinds"]))
    # a level that started during a hand changed nothing in it (Tournaments 7): its blinds are the old level's
    ends = {e["hand"]: e["t"] for e in of(events, "HandEnded")}
    mid = 0
    for before, lv in zip(sorted(periods)[:-1], sorted(periods)[1:], strict=True):
        hand = [h for h in of(events, "HandStarted") if h["t"] < lv[0] < ends.get(h["hand"], 1e9)]
        if hand and lv[1] != before[1]:
            mid += 1
            assert max(hand[0]["blinds"].values()) <= before[1][1] < lv[1][1]
    assert mid, "no level ended during a hand in this run"

def test_busts_are_placed_and_no_irregularity_is_raised_on_a_clean_tournament(played):
    tournament, _, _, events, _ = played
    out = of(events, "PlayerEliminated")
    assert sorted(e["place"] for e in out) == list(range(2, tournament.entrants + 1))
    assert all(e["chips_at_start"] > 0 for e in out)
    places = [e for e in of(events, "FindingRaised") if e["rule"] == "tournament.35"]
    assert {e["seats"][0] for e in places} == {e["seat"] for e in out}
    loud = [e for e in of(events, "FindingRaised") if e["severity"] != "info" and e["rule"] != "tournament.6"]
    assert loud == []
    left = [e["seat"] for e in of(events, "PlayerLeft")]
    assert sorted(left) == sorted(e["seat"] for e in out)


def test_the_screen_view_follows_the_clock_and_the_players_left(played):
    tournament, _, pipe, events, _ = played
    view = pipe.engine.snapshot().tournament
    last = of(events, "LevelStarted")[-1]
    assert view is not None and view.tournament == tournament.id and view.level == last["level"]
    assert (view.small_blind, view.big_blind, view.big_blind_ante) == \
        (last["small_blind"], last["big_blind"], last["big_blind_ante"])
    assert view.players_left == 1 and view.next_level is None and view.running


def test_the_recorded_log_replays_to_the_same_events_and_result(played):
    _, _, _, events, path = played
    log = open_log(path)
    assert log.header.tournament is not None
    pipe = Pipeline.from_header(log.header)
    again = []
    for record in log:
        again += [e.to_dict() for e in pipe.feed(record)]
    # the log keeps times to the microsecond: the same events, their times equal to that precision
    assert [rounded(e) for e in again] == [rounded(e) for e in events]
    assert of(again, "TournamentWon") and [e["place"] for e in of(again, "PlayerEliminated")] == \
        [e["place"] for e in of(events, "PlayerEliminated")]


def rounded(event: dict) -> dict:
    return {k: round(v, 3) if isinstance(v, float) else v for k, v in event.items()}


def test_every_event_of_the_tournament_fits_the_floor_contract_and_a_bad_place_does_not(played):
    from dealerbox.engine import events as te
    from dealerbox.sinks.floor import contract as c
    _, _, _, events, _ = played
    env = c.Envelope("demo", "T01", "boot1")
    kinds = {"LevelStarted", "BreakStarted", "PlayerEliminated", "TournamentWon"}
    checked = 0
    for e in events:
        if e["event"] in kinds:
            fields = {k: v for k, v in e.items() if k != "event"}
            payload = c.event_payload(env, te.EVENT_TYPES[e["event"]](**fields), 1.0)
            c.validate("event", payload)
            checked += 1
    assert checked >= 8
    bad = c.event_payload(env, te.PlayerEliminated(1.0, 3, 4, 2, 100), 1.0)
    bad["data"]["place"] = 0
    assert any("place" in err for err in c.schema_errors("event", bad))
    doc = (ROOT / "docs/asyncapi.yaml").read_text()
    assert "data: {event: LevelStarted," in doc and "data: {event: PlayerEliminated," in doc


def test_the_readme_demo_runs_the_tournament_to_its_winner_and_stops():
    import json
    import os
    import subprocess
    import sys
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    done = subprocess.run([sys.executable, "-m", "dealerbox", "-c", str(TABLE), "run", "--jsonl", "--speed", "1000"],
                          cwd=ROOT, env=env, capture_output=True, text=True, timeout=scaled(120))
    assert done.returncode == 0, done.stderr
    events = [json.loads(line) for line in done.stdout.splitlines() if line.startswith("{")]
    assert len(of(events, "TournamentWon")) == 1 and len(of(events, "PlayerEliminated")) == 3
    assert [e["level"] for e in of(events, "LevelStarted")] == [1, 2, 3, 4, 5, 6]


def test_simulate_writes_the_tournament_as_a_log_that_replays_to_its_winner(tmp_path):
    import json
    import os
    import subprocess
    import sys
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    out = tmp_path / "turbo.jsonl"
    made = subprocess.run([sys.executable, "-m", "dealerbox", "-c", str(TABLE), "simulate", "--out", str(out),
                           "--seed", str(SEED), "--hands", "500"], cwd=ROOT, env=env, capture_output=True, text=True,
                          timeout=scaled(120))
    assert made.returncode == 0, made.stderr
    hands = int(made.stdout.split()[0])
    assert 0 < hands < 500                         # the tournament ended long before 500 hands
    done = subprocess.run([sys.executable, "-m", "dealerbox", "replay", str(out), "--jsonl"], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=scaled(120))
    assert done.returncode == 0, done.stderr
    events = [json.loads(line) for line in done.stdout.splitlines() if line.startswith("{")]
    assert [e["place"] for e in of(events, "PlayerEliminated")] == [4, 3, 2]
    assert len(of(events, "TournamentWon")) == 1 and len(of(events, "HandEnded")) == hands
