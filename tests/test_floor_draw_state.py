"""A 27td table's state on the floor topic: the round as the dealer's screen names it ("Draw 1", "Bet 2") and how
many cards each seat drew in the draw being dealt, never which (tests/dashboard/test_browser_new_games.py shows
them on the dashboard)."""

from __future__ import annotations

import json

from dealerbox.sinks.floor import contract as c
from tests.dashboard.test_browser_new_games import scenario_updates
from tests.test_floor_contract import assert_no_hole_cards

ENV = c.Envelope("demo", "D27", "boot")


def states() -> tuple[list[dict], set[str]]:
    ups, _events, secret = scenario_updates("lowball-triple-draw-ok.scn")
    return [c.state_payload(ENV, u.state, 1.0, 2.0, {}, {}) for u in ups], secret


def test_a_triple_draw_state_names_each_draw_and_betting_round_and_counts_each_seat_s_cards_drawn():
    payloads, secret = states()
    for p in payloads:
        assert c.schema_errors("state", p) == []
    rounds = [p["draw"]["round"] for p in payloads if p.get("draw") and p["draw"]["round"]]
    assert list(dict.fromkeys(rounds)) == ["Bet 1", "Draw 1", "Bet 2", "Draw 2", "Bet 3", "Draw 3", "Bet 4"]
    # draw 1, seat 4's turn: seat 2 threw two and was given two, seat 3 one (the scenario's `draw` lines)
    p = next(p for p in payloads if p.get("draw") and p["draw"]["number"] == 1 and p["draw"]["turn"] == 4)
    seats = {s["seat"]: (s["drawn"], s["to_draw"]) for s in p["seats"] if s["occupied"]}
    assert seats == {1: (None, False), 2: (2, False), 3: (1, False), 4: (None, True)}
    assert_no_hole_cards([("state", json.dumps(p).encode()) for p in payloads], secret)


def test_a_hold_em_state_carries_no_draw_fields():
    ups, _, _ = scenario_updates("house-boards.1.scn")
    for u in ups:
        p = c.state_payload(ENV, u.state, 1.0, 2.0, {}, {})
        assert "draw" not in p and all("drawn" not in s and "to_draw" not in s for s in p["seats"])
