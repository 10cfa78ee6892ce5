"""A session in which the floor acknowledges nothing: the real simulator deals hold'em hands each with a card of
another deck that duplicates one in play (Irregularities 3 and 4, each a floor call), fed through the real
pipeline, so every hand leaves two floor calls open. Shared by the engine, screen, link and dashboard tests."""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from dealerbox.config import from_dict
from dealerbox.engine import events as te
from dealerbox.pipeline import Pipeline
from dealerbox.runtime.bus import Update
from dealerbox.sources.simulator import Simulator
from dealerbox.tags import demo_registry


@dataclass(frozen=True)
class OpenCallSession:
    updates: tuple[Update, ...]                 # what a terminal's sinks got, step by step
    calls: tuple[te.FindingRaised, ...]         # every floor call raised, in order
    pipe: Pipeline                              # the pipeline after the last hand (feed it an ack)


def play(hands: int = 150, seed: int = 11) -> OpenCallSession:
    """``hands`` hands, two unacknowledged floor calls each."""
    sim = Simulator(from_dict({"game": {"variant": "nlhe"}}), demo_registry(), seed=seed,
                    irregularities=["duplicate-card"] * hands)
    pipe = Pipeline.from_header(sim.header())
    updates: list[Update] = []
    calls: list[te.FindingRaised] = []
    for record in sim.records(hands):
        step = pipe.feed(record)
        if step:
            updates.append(Update(tuple(step), pipe.engine.snapshot(), {"crc_errors": 0}))
            calls += [e for e in step if isinstance(e, te.FindingRaised) and e.severity == "floor"]
    return OpenCallSession(tuple(updates), tuple(calls), pipe)


@lru_cache(maxsize=1)
def session() -> OpenCallSession:
    """The 150-hand session (300 floor calls open), played once per test process: do not feed its pipeline."""
    return play()
