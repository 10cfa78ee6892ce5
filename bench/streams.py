"""Realistic reader-board byte streams for the benchmarks: the simulator's hands when it is there, else a
synthetic mix with the same shape (cards and chips moving between zones, a heartbeat now and then)."""

from __future__ import annotations

import random
import sys

from dealerbox.wire import protocol as p


def simulator_messages(n_hands: int, seed: int = 7, variant: str = "nlhe") -> list | None:
    """The protocol messages of ``n_hands`` simulated hands, or None while the simulator is not built."""
    try:
        from dealerbox.config import Config, GameConfig
        from dealerbox.sources.simulator import Simulator
        from dealerbox.tags import demo_registry
    except ImportError:
        return None
    config = Config(game=GameConfig(variant=variant))
    out = []
    try:
        for hand in Simulator(config, demo_registry(), seed).play(n_hands):
            out.extend(m for _, m in hand.messages if isinstance(m, p.Message.__args__))
    except Exception as e:  # a piece still being built must not stop the other figures
        print(f"  (simulator unavailable, using a synthetic stream: {type(e).__name__}: {e})", file=sys.stderr)
        return None
    return out


def synthetic_messages(n: int, seed: int = 7) -> list:
    """``n`` messages shaped like a live table: 7-byte tag UIDs, mostly arrivals and departures."""
    from dealerbox.tags import demo_registry
    rng = random.Random(seed)
    uids = [bytes.fromhex(u) for u in list(demo_registry()._by_uid)[:400]]
    zones = [p.ZONE_SHOE, p.ZONE_BOARD, p.ZONE_BURN, p.ZONE_MUCK, p.ZONE_POT, *range(1, 11), *range(21, 31)]
    out: list = [p.Hello(1, 0, (1, 0, 0), tuple(zones))]
    for i in range(n):
        r = rng.random()
        uid, zone = rng.choice(uids), rng.choice(zones)
        if i % 40 == 39:
            out.append(p.Heartbeat(i * 25, rng.randrange(200), 0))
        elif r < 0.1:
            out.append(p.CardFace(p.ZONE_SHOE, False, uid))
        elif r < 0.55:
            out.append(p.TagArrived(zone, uid))
        else:
            out.append(p.TagLeft(zone, uid))
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
