"""The README's tournament demo as the dealer sees it: the simulator plays docs/tournament-table.demo.toml through
the real decoder and engine into the screen (pygame's dummy driver), the screen's clock set to the source time.
The clock strip must show each level as it starts and count its time down, say the break, count the players
left as they bust (and never drop a player who is all in but still playing), and end on the winner; the
recorded log, replayed, paints the same strip. Asserted through what the frames say they drew."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from dealerbox.config import load
from dealerbox.pipeline import Pipeline
from dealerbox.record.recorder import Recorder
from dealerbox.runtime.bus import Update
from dealerbox.sinks.screen import Screen
from dealerbox.sources import open_log
from dealerbox.sources.sim import Simulator
from dealerbox.tags import demo_registry
from dealerbox.tournament.at_table import for_table
from tests.test_screen import OK_HEALTH, Clock

ROOT = Path(__file__).resolve().parents[2]
TABLE = ROOT / "docs" / "tournament-table.demo.toml"
SEED = 3
WATCHED = {"LevelStarted", "BreakStarted", "PlayerEliminated", "TournamentWon", "HandStarted", "HandEnded"}


def watch(records, pipe: Pipeline, config) -> list[dict]:
    """Feed ``records`` to ``pipe`` and the screen; one row per record that brought a watched event (and every
    20th record, so the countdown is seen between events): the events and what the strip showed."""
    clock = Clock(0.0)
    screen = Screen(config, (1024, 600), clock=clock)
    rows = []
    for i, record in enumerate(records):
        events = pipe.feed(record)
        clock.t = max(clock.t, record.t)
        names = [type(e).__name__ for e in events if type(e).__name__ in WATCHED]
        screen.accept(Update(tuple(events), pipe.engine.snapshot(), OK_HEALTH))
        if not names and i % 20:
            continue
        screen.redraw_if_changed()
        f = screen.frame
        rows.append({"t": record.t, "events": names, "level": f.texts("clock-level"), "left": f.texts("clock-left"),
                     "next": f.texts("clock-next"), "players": f.texts("clock-players"),
                     "hand": [e for e in events if type(e).__name__ == "HandStarted"],
                     "levels": [e for e in events if type(e).__name__ == "LevelStarted"]})
    return rows


@pytest.fixture(scope="module")
def demo(tmp_path_factory):
    config = load(TABLE)
    tournament = for_table(config)
    sim = Simulator(config, demo_registry(), seed=SEED, tournament=tournament)
    folder = tmp_path_factory.mktemp("log")
    recorder = Recorder(folder, sim.header(), rotate_bytes=1 << 40, name="demo", fsync_every_s=60.0)
    records = []
    for record in sim.records():
        recorder.write(record)
        records.append(record)
    recorder.close()
    live = watch(records, Pipeline.from_header(sim.header()), config)
    return tournament, live, recorder.path, config


def seconds(text: str) -> int:
    m, s = re.match(r"(\d+):(\d\d)", text).groups()
    return int(m) * 60 + int(s)


def test_each_level_shows_on_the_strip_as_it_starts_with_a_full_minute_counting_down(demo):
    tournament, live, _, _ = demo
    shown = []
    for row in live:
        for lv in row["levels"]:
            level = tournament.level(lv.level)
            assert row["level"][0].startswith(f"Level {lv.level}  {level.small_blind:,}/{level.big_blind:,}")
            assert 55 <= seconds(row["left"][0]) <= 60
            shown.append(lv.level)
    assert shown == [1, 2, 3, 4, 5, 6]
    # within a level the time left only goes down, and it moves between the level's events
    by_level: dict[str, list[int]] = {}
    for row in live:
        if row["level"]:
            by_level.setdefault(row["level"][0], []).append(seconds(row["left"][0]))
    for level, left in by_level.items():
        assert left == sorted(left, reverse=True), level
    assert any(len(set(left)) > 3 for left in by_level.values())


def test_the_break_reads_as_a_break_and_no_hand_is_dealt_during_it(demo):
    _, live, _, _ = demo
    on_break = [row for row in live if row["level"] and row["level"][0].startswith("Break before level 4")]
    assert on_break and on_break[0]["events"] == ["BreakStarted"]
    assert on_break[0]["next"] == ["Next: 100/200 BBA 200"]
    # a dealer stops for the break: every hand starts at a level, none on the break
    assert not [row for row in on_break if "HandStarted" in row["events"]]
    after = live.index(on_break[-1]) + 1
    assert live[after]["level"][0].startswith("Level 4") and "LevelStarted" in live[after]["events"]


def test_players_left_count_the_busts_only_never_a_player_all_in(demo):
    tournament, live, _, _ = demo
    counts = [int(row["players"][0].split()[0]) for row in live if row["players"]]
    assert counts[0] == tournament.entrants and counts[-1] == 1
    assert counts == sorted(counts, reverse=True), "a player all in dropped from the count and came back"
    busts = 0
    for row in live:
        busts += row["events"].count("PlayerEliminated")
        if row["players"]:
            assert int(row["players"][0].split()[0]) == tournament.entrants - busts
    assert busts == tournament.entrants - 1 and any("TournamentWon" in row["events"] for row in live)


def test_the_last_level_says_so_and_the_winner_is_the_last_player_left(demo):
    _, live, _, _ = demo
    assert live[-1]["next"] == ["Last level"] and live[-1]["players"] == ["1 left"]


def test_the_recorded_log_replayed_paints_the_same_strip(demo):
    _, live, path, config = demo
    log = open_log(path)
    again = watch(list(log), Pipeline.from_header(log.header), config)
    strip = ("events", "level", "left", "next", "players")
    assert [tuple(r[k] for k in strip) for r in again] == [tuple(r[k] for k in strip) for r in live]


def test_the_readme_screenshot_is_taken_from_the_demos_log_at_a_moment(demo, tmp_path):
    from dealerbox.commands.screenshot import log_after, save_png
    _, _, path, config = demo
    state, health, events = log_after(path, None, 290.0)
    view = state.tournament
    assert (view.level, view.big_blind_ante, view.players_left) == (4, 200, 3)
    assert any(s.all_in for s in state.seats)          # the all-in player still counts among the three
    screen = save_png(config, (1024, 600), state, health, events, tmp_path / "shot.png")
    assert (tmp_path / "shot.png").stat().st_size > 10_000
    assert screen.frame.texts("clock-players") == ["3 left"]
    assert screen.frame.texts("clock-level") == ["Level 4  100/200 BBA 200"]
    early, _, _ = log_after(path, 12, None)             # --step counts a log's records
    assert early.hand is None and early.tournament is None
