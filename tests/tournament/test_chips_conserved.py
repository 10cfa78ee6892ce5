"""No chip is lost or made by a hand: every complete hand of every scenario script ends with the players holding
exactly the chips they held as it started. Found on t04_absent_entrant.scn: seat 5 away, its big blind posted
by the dealer and its hand dead at the last starting card, seat 1 folds, seat 3 (small blind 1) wins. The
engine took the big blind's unmatched chip out of the pot as if it were to go back to seat 5, but a dead hand
takes nothing back, so the chip went to nobody (pot 2, 599 of 600). The pot is 3."""

from __future__ import annotations

from pathlib import Path

import pytest

from dealerbox.pipeline import Pipeline
from dealerbox.sources.scenario import compile_file

ROOT = Path(__file__).resolve().parents[2]
SCENARIOS = sorted((ROOT / "tests" / "scenarios").rglob("*.scn"))


def events_of(path: Path) -> list[dict]:
    compiled = compile_file(path)
    pipe = Pipeline.from_header(compiled.header)
    return [e.to_dict() for record in compiled.records for e in pipe.feed(record)]


def unbalanced_hands(events: list[dict]) -> tuple[int, list[tuple[int, int, int]]]:
    """(complete hands checked, [(hand, chips at the start, chips at the end)] for each that did not balance).
    A hand where chips came or went between its start and end (a player sat, left, rebought or raced chips
    off) is not checked; a refund moves chips from a bet zone back to the stack and is checked."""
    bank: dict[int, int] = {}
    start: int | None = None
    clean, checked, bad = True, 0, []
    for e in events:
        kind = e["event"]
        if kind == "PlayerSeated":
            bank[e["seat"]] = e["stack"]
            clean = clean and start is None
        elif kind == "PlayerLeft":
            bank.pop(e["seat"], None)
            clean = clean and start is None
        elif kind == "StackChanged" and e["reason"] != "refund":
            bank[e["seat"]] = e["stack"]
            clean = clean and start is None
        elif kind == "HandStarted":
            start, clean = sum(bank.values()), True
        elif kind == "HandEnded":
            stacks = {int(s): v for s, v in e["stacks"].items()}
            if start is not None and clean and e["outcome"] == "complete":
                checked += 1
                end = sum(stacks.values()) + sum(v for s, v in bank.items() if s not in stacks)
                if end != start:
                    bad.append((e["hand"], start, end))
            bank.update(stacks)
            start = None
    return checked, bad


@pytest.mark.parametrize("name", ["t04_absent_entrant.scn", "t04_absent_entrant_ok.scn"])
def test_a_dead_hands_big_blind_stays_in_the_pot_the_small_blind_wins(name):
    events = events_of(ROOT / "tests" / "scenarios" / "tournament" / name)
    ended = [e for e in events if e["event"] == "HandEnded"][-1]
    assert ended["pots"][0]["amount"] == 3 and ended["pots"][0]["winners"] == [3]
    assert ended["stacks"] == {"1": 200, "3": 202, "5": 198}
    assert unbalanced_hands(events) == (1, [])


def test_every_complete_hand_of_every_scenario_keeps_every_chip():
    checked, bad = 0, []
    for path in SCENARIOS:
        n, wrong = unbalanced_hands(events_of(path))
        checked += n
        bad += [(path.name, *w) for w in wrong]
    assert bad == []
    assert checked >= 80          # the check ran on the scenarios' hands, not on none
