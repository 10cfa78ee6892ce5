"""The floor's state topic at a Big O high-low table: it names the game, carries five cards held a seat and
never a hole card before the showdown (simulated hands through the whole engine, payloads against the schema)."""

from __future__ import annotations

import json

from dealerbox.config import from_dict
from dealerbox.engine.table import Engine
from dealerbox.sinks.floor import contract as c
from dealerbox.sources.simulator import Simulator
from dealerbox.tags import demo_registry
from tests.test_floor_contract import assert_no_hole_cards


def test_the_state_topic_of_a_big_o_high_low_table_names_the_game_and_hides_the_hole_cards():
    cfg = from_dict({"game": {"variant": "plo5-8"}})
    reg = demo_registry()
    engine = Engine(cfg, reg)
    env = c.Envelope("demo", "T01", "boot1")
    states = held = 0
    for hand in Simulator(cfg, reg, seed=4).play(3):
        hole = {card for cards in hand.expected.hole_cards.values() for card in cards}
        for item in hand.inputs:
            engine.apply(item)
            state = engine.snapshot()
            payload = c.state_payload(env, state, 1.0, 2.0, {}, {})
            c.validate("state", payload)
            assert payload["game"] == "plo5-8"
            if state.phase in ("showdown", "ended"):
                continue
            assert_no_hole_cards([("state", json.dumps(payload).encode())], hole)
            states += 1
            held += any(s["cards_held"] == 5 for s in payload["seats"])
    assert states > 50 and held > 10
