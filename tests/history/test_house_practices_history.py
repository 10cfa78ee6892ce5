"""Run it twice and bomb pots in the hand history, the audit and the floor topics: the summary knows the practice
and the boards, the audit's hands.csv names it, the PHH export names why such a hand is not a PHH game, and the
floor's event and state topics carry the new events and boards (board cards only, never a hole card)."""

from __future__ import annotations

import csv
import json
import re
from pathlib import Path

import pytest

from dealerbox.history import phh
from dealerbox.history.audit import LogAudit, Room, rows_of
from dealerbox.history.report import write_csv
from dealerbox.history.summary import summarise
from dealerbox.pipeline import Pipeline
from dealerbox.sinks.floor import contract as c
from dealerbox.sources.scenario import compile_file

SCENARIOS = Path(__file__).resolve().parent.parent / "scenarios"
NEW_EVENTS = {"RunsAgreed", "RunCardDealt", "PotSplitByBoard", "BombPotStarted"}


def replayed(name: str):
    """(events, snapshot after each record) of a scenario."""
    compiled = compile_file(SCENARIOS / name)
    pipe = Pipeline.from_header(compiled.header)
    events, states = [], []
    for record in compiled.records:
        events += pipe.feed(record)
        states.append(pipe.engine.snapshot())
    return events, states


@pytest.mark.parametrize("name, practice, boards", [
    ("house-boards.1.scn", "run it twice", 1),
    ("house-run-it-three-times.scn", "run it 3 times", 2),
    ("house-bomb-pot.1.scn", "bomb pot, 2 boards", 1),
])
def test_the_summary_audit_and_phh_know_the_practice(name, practice, boards, tmp_path):
    events, _ = replayed(name)
    hands = [h for h in summarise(events) if h.outcome == "complete"]
    assert len(hands) == 1 and hands[0].practice == practice and len(hands[0].boards) == boards
    assert all(len(b) == 5 for b in hands[0].boards)
    why = phh.expressible(hands[0])
    assert why is not None and why.startswith(practice) and "run-out" in why
    log = LogAudit(name, "T01", "intact", hands=rows_of(name, "T01", "", None, hands))
    write_csv(Room.of([log]), tmp_path)
    with open(tmp_path / "hands.csv", encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
    assert [r["practice"] for r in rows] == [practice] and [r["game"] for r in rows] == ["nlhe"]


def test_a_plain_hand_has_no_practice_and_stays_a_phh_game(tmp_path):
    events, _ = replayed("showdown-highlow-split.scn")
    hands = [h for h in summarise(events) if h.outcome == "complete"]
    assert hands and all(h.practice == "" and h.boards == () for h in hands)
    # the audit's hands.csv names the game each hand was (here Omaha high-low), beside its empty practice
    log = LogAudit("split", "T01", "intact", hands=rows_of("split", "T01", "", None, hands))
    write_csv(Room.of([log]), tmp_path)
    with open(tmp_path / "hands.csv", encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
    assert {(r["game"], r["practice"]) for r in rows} == {(hands[0].game, "")} and hands[0].game.endswith("8")


@pytest.mark.parametrize("name", ["house-boards.1.scn", "house-bomb-pot.1.scn"])
def test_the_floor_topics_carry_the_new_events_and_boards_without_a_hole_card(name):
    events, states = replayed(name)
    hole = {card for ev in events if ev.kind == "CardDealt" and ev.card for card in [ev.card]}
    assert hole
    env = c.Envelope("demo", "T01", "boot1")
    seen = set()
    shown_at = next(i for i, ev in enumerate(events) if ev.kind == "HandShown")
    for i, ev in enumerate(events):
        p = c.event_payload(env, ev, 1.0)
        c.validate("event", p)
        if ev.kind in NEW_EVENTS:
            seen.add(ev.kind)
        if i < shown_at:    # before the showdown no payload names a hole card
            text = json.dumps(p)
            assert not {card for card in re.findall(r'"([2-9TJQKA][shdc])"', text) if card in hole}, text[:200]
    assert seen >= ({"RunsAgreed", "RunCardDealt", "PotSplitByBoard"} if "boards" in name
                    else {"BombPotStarted", "RunCardDealt", "PotSplitByBoard"})
    with_boards = [s for s in states if s.house.boards]
    assert with_boards
    for s in with_boards:
        p = c.state_payload(env, s, 1.0, 2.0, {}, {})
        c.validate("state", p)
        assert p["boards"] == [list(b) for b in s.house.boards]
        if s.phase not in ("showdown", "ended"):
            assert not {card for card in re.findall(r'"([2-9TJQKA][shdc])"', json.dumps(p)) if card in hole}
