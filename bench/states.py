"""Table states and events to feed sinks in the benchmarks: real engine snapshots of simulated hands, plus
one busy hand-built state (every seat in, full board, side pots, an open
floor finding) as the worst case a full redraw has to draw."""

from __future__ import annotations

from dealerbox.config import Config, GameConfig
from dealerbox.engine import events as te
from dealerbox.engine.state import FindingView, SeatView, TableState
from dealerbox.pipeline import Pipeline
from dealerbox.sources.sim import Simulator
from dealerbox.tags import demo_registry


def busy_state(seats: int = 10) -> TableState:
    views = tuple(SeatView(seat=s, occupied=True, in_hand=s != 4, folded=s == 4, all_in=s == 7, to_act=s == 2,
                           cards_held=0 if s == 4 else 2, bet=25 * s, stack=1000 + 37 * s) for s in range(1, seats + 1))
    finding = FindingView(id="h41-1", rule="misdeal.1c", citation="Misdeals 1(c)", severity="floor", outcome="misdeal",
                          ruling="Two cards were boxed in the deal: call a misdeal, return the blinds, redeal.",
                          seats=(3, 5), cards=("As", "Kd"))
    return TableState(hand=41, phase="river", game="nlhe", button=9, board=("Ah", "Kh", "7c", "2d", "Ts"),
                      burn_count=3, muck_count=2, pot=2400, pots=((1800, (1, 2, 3)), (600, (1, 2))), seats=views,
                      findings=(finding,), to_act=2, deck_id="DEMO-1")


def busy_health() -> dict:
    return {"reader": {"connected": True, "frames": 120_000, "seq_gaps": 1, "frames_lost": 2, "bad_crc": 0},
            "floor": {"connected": True, "outbox_depth": 0, "dropped": 0}}


def busy_events() -> list[te.TableEvent]:
    return [te.PlayerSeated(float(i), 41, i, 200) for i in range(1, 11)]


def simulated_updates(n_hands: int, seed: int = 11, variant: str = "nlhe"):
    """(events, state) after every engine step of ``n_hands`` simulated hands."""
    config = Config(game=GameConfig(variant=variant))
    registry = demo_registry()
    pipe = Pipeline(config, registry)
    out = []
    for hand in Simulator(config, registry, seed).play(n_hands):
        for item in hand.inputs:
            events = pipe.engine.apply(item)
            if events:
                out.append((events, pipe.engine.snapshot()))
    return out
