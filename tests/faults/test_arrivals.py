"""One fault, one ruling, for a player arriving mid-session (issue 18): a fixed-seed slice of the arrival run
(tests/faults/arrivals.py). A new player waits for the big blind, or posts one where they sit and plays once the
button has passed them (both quiet, pokerkit's stacks every hand, the live big blind out of position refereed
too); the fault: the new player dealt in between the big blind and the button, ruled blinds.7 at that card (the
misdeal), dealt again without them, and quiet through the rest of the session; and a new player who posted,
passed over by the deal (dealt out: ruled out of sequence at the next card), dealt again with them. The large run is
tools/fault-injection; its figures are in docs/engine.md."""

from __future__ import annotations

from collections import Counter

import pytest

from dealerbox.config import from_dict
from dealerbox.sources.sim import SimulatorError
from dealerbox.sources.simulator import Simulator
from dealerbox.tags import demo_registry
from tests.faults.arrivals import EXPECTED, KINDS, run

SESSIONS = 3


@pytest.mark.parametrize("kind", KINDS)
def test_a_new_player_arriving_mid_session_gives_at_most_one_ruling(kind):
    stats: Counter = Counter()
    run((kind,), SESSIONS, seed=5, stats=stats)
    assert stats["sessions"] == 4 * SESSIONS
    # the player did arrive and play, often: a class that never fires would prove nothing
    assert stats[f"arrived ({kind})"] >= 2 * SESSIONS, stats
    assert stats[f"new player dealt in ({kind})"] >= 4 * SESSIONS, stats
    if kind == "new-player-waits-for-the-big-blind":
        assert stats[f"first hand in the big blind ({kind})"] >= 2 * SESSIONS, stats
    else:
        assert stats[f"live big blind out of position ({kind})"] >= SESSIONS, stats
    if kind != "new-player-dealt-in-between":
        # issue 31: some arrive in the seat just after the button, which the moving button now passes by (Blinds 1a,
        # 7), and the engine, the simulator and the referee agree on every hand after it
        assert stats[f"arrived just after the button ({kind})"] >= 1, stats
    # our own referee (tests/faults/refereed.py) agreed on every hand played, the new player's posts included
    assert stats["refereed hands"] == stats["hands"], stats
    if kind != "new-player-waits-for-the-big-blind":
        assert stats["refereed new players' big blinds"] >= SESSIONS, stats
    for rule in EXPECTED[kind]:
        assert stats[f"ruled {rule} ({kind})"] >= 2 * SESSIONS, stats
        assert stats[f"hands after the fault ({kind})"] >= 4 * SESSIONS, stats


def test_the_simulator_seats_a_new_player_only_in_an_empty_seat_of_a_cash_table():
    config = from_dict({"game": {"variant": "nlhe"}, "table": {"seats": 6}})
    sim = Simulator(config, demo_registry(), seed=3, irregularities=0.0)
    next(sim.play(1))
    taken = min(sim.stacks)
    with pytest.raises(SimulatorError, match=f"seat {taken}"):
        sim.seat_player(taken)
    with pytest.raises(SimulatorError, match="seat 7"):
        sim.seat_player(7)
    empty = min(set(range(1, 7)) - set(sim.stacks))
    sim.seat_player(empty, amount=150, wait_for_bb=True)
    hand = next(sim.play(1))
    sat = [x for x in hand.inputs if getattr(x, "action", None) in ("sit", "wait-for-bb")]
    assert [(x.action, x.seat) for x in sat] == [("sit", empty), ("wait-for-bb", empty)]
    assert sat[0].amount == 150 and empty in sim.stacks
    # waiting, the new player is dealt in only as the big blind
    assert empty not in hand.expected.dealt_in or hand.expected.blinds.get(empty) == 2
