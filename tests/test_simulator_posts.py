"""The simulator's posts beyond the blinds (sources/sim/posts.py): a due kill posted by the killer (or not, with
``post_kills=False``), the kill button moved to the leg holder, a staged board, and the rulebook's odd chips of a
many-way split spread over the winner's pots. The whole hands are judged by the engine in tests/faults/."""

from __future__ import annotations

from dealerbox.config import from_dict
from dealerbox.engine import inputs as ev
from dealerbox.sources.sim.wagering import spread_odd_chips
from dealerbox.sources.simulator import Simulator
from dealerbox.tags import MarkerTag, demo_registry


def kill_table(seed: str, **options) -> Simulator:
    config = from_dict({"game": {"variant": "nlhe", "kill": "full"}, "table": {"seats": 6}})
    return Simulator(config, demo_registry(), seed=seed, irregularities=0.0, **options)


def test_a_due_kill_is_posted_by_the_killer_and_the_puck_follows_the_leg():
    sim = kill_table("posts")
    killed, holder, moved = 0, None, 0
    for hand in sim.play(30):
        due = sim.posts.killer
        if due is not None:
            killed += 1
            assert hand.expected.blinds[due] == min(4, hand.expected.stacks_before[due])   # 2x the big blind of 2
        pucks = [x for x in hand.inputs if isinstance(x, ev.ZoneEntered) and isinstance(x.tag, MarkerTag)
                 and x.tag.kind == "kill"]
        for x in pucks:     # moved before the deal to the seat that won the last pot (Kill Pots 1)
            assert x.zone == f"seat{holder}", (x.zone, holder)
            moved += 1
        holder = sim.posts.kill.holder
    assert killed >= 3 and moved >= 3


def test_without_post_kills_no_kill_is_ever_posted():
    sim = kill_table("posts", post_kills=False)
    for hand in sim.play(30):
        assert sim.posts.killer is None
        assert all(amount <= 2 for amount in hand.expected.blinds.values())


def test_a_staged_board_is_dealt():
    sim = kill_table("board")
    royal = ("As", "Ks", "Qs", "Js", "Ts")
    boards = []
    for _ in range(10):
        sim.stage_board(royal)
        boards.append(next(sim.play(1)).expected.board)
    assert all(board == royal[:len(board)] for board in boards), boards     # a hand folded early deals less
    assert royal in boards


def test_odd_chips_never_leave_a_share_below_nothing():
    # the rulebook gives seat 7 six chips less than pokerkit, which gave it 1 in the first pot and 36 in the next
    shares = spread_odd_chips([{8: 5, 9: 1, 7: 1, 10: 1, 2: 1}, {8: 40, 9: 36, 7: 36, 10: 36}],
                              {7: -6, 8: 2, 9: 1, 10: 2, 2: 1})
    assert shares[0][7] == 0 and shares[1][7] == 31
    assert all(a >= 0 for push in shares for a in push.values())
    assert sum(map(sum, (p.values() for p in shares))) == 5 + 1 + 1 + 1 + 1 + 40 + 36 * 3
