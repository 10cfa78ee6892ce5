"""Realistic reader-board byte streams for the benchmarks: the simulator's hands, encoded and cut the way
a serial read loop sees them."""

from __future__ import annotations

import random

from dealerbox.config import Config, GameConfig
from dealerbox.sources.sim import Simulator
from dealerbox.tags import demo_registry
from dealerbox.wire import protocol as p


def simulator_messages(n_hands: int, seed: int = 7, variant: str = "nlhe") -> list:
    """The protocol messages of ``n_hands`` simulated hands (dealer taps left out: they are not bytes)."""
    config = Config(game=GameConfig(variant=variant))
    out = []
    for hand in Simulator(config, demo_registry(), seed).play(n_hands):
        out.extend(m for _, m in hand.messages if isinstance(m, p.Message.__args__))
    return out


def encode(messages: list) -> bytes:
    enc = p.Encoder()
    return b"".join(enc.encode(m) for m in messages)


def chunks(data: bytes, seed: int = 7, low: int = 1, high: int = 64) -> list[bytes]:
    """Cut a stream the way a serial read loop sees it: whatever arrived since the last read (1..64 bytes)."""
    rng = random.Random(seed)
    out, at = [], 0
    while at < len(data):
        n = rng.randint(low, high)
        out.append(data[at:at + n])
        at += n
    return out
