"""The simulator's clean hands through the whole engine (sensor events in, table events out), checked
against pokerkit's account of the same hands: the same pots, winners and final stacks on every hand, and
not one finding above ``info`` (the no-false-alarm requirement shared with the card rules).

A few hundred seeded hands per game here keep the everyday suite honest on two busy cores; the 10,000 per game are a
tool command, ``tools/crosscheck_games`` (docs/betting.md, "Cross-check with pokerkit"), the same check at size.
Where pokerkit and the rulebook differ (docs/betting.md), the simulator plays inside both; the one difference it
cannot avoid, pokerkit's odd chips in a split pot, is pushed by the rulebook and recorded in ``Expected.odd_chips``.
"""

from __future__ import annotations

from collections import Counter

import pytest

from dealerbox.config import from_dict
from dealerbox.engine.table import Engine
from dealerbox.engine.variants import VARIANTS as VARIANT_ROWS
from dealerbox.sources.simulator import Simulator
from dealerbox.tags import demo_registry
from tests.faults.referee import Deal, HandReferee
from tests.faults.referee.hand import Limits

VARIANTS = ["nlhe", "plhe", "flhe", "plo"]
SPLIT_AND_BIG_O = ["o8", "plo8", "plo5", "plo5-8"]   # Omaha high-low and five-card Omaha (issue 33)


LIMITS = {"nlhe": "no-limit", "plhe": "pot-limit", "plo": "pot-limit", "flhe": "limit"}


def refereed_bomb_pot(cfg, exp, end, events) -> tuple:
    """A bomb pot checked against our own referee (tests/faults/referee, written from the rule text: pokerkit has
    no bomb pot of its own), fed only the dealt cards and the actions: the same pots (amount, eligible seats,
    winners, shares), the same winners on each board, the same final stacks. Returns the referee's pots."""
    g = cfg.game
    limit = LIMITS[exp.variant]
    small, big = (g.small_bet, g.big_bet) if limit == "limit" else (g.big_blind, g.big_blind)
    deal = Deal(exp.button, exp.dealt_in, dict(exp.stacks_before), {}, {}, None, Limits(limit, small, big),
                bomb=exp.bomb)
    ref = HandReferee(deal, g.smallest_chip)
    for street, seat, kind, to in exp.actions:
        ref.act(street, seat, kind, to)
    out = ref.finish(exp.hole_cards, exp.board, exp.boards)
    where = (exp.variant, exp.hand, "bomb pot")
    assert {s: end.stacks[s] for s in out.stacks} == out.stacks, where + (end.stacks, out.stacks)
    ours = [(p.amount, tuple(sorted(p.eligible)), tuple(sorted(p.winners)), dict(p.shares)) for p in end.pots]
    theirs = [(p.amount, tuple(sorted(p.eligible)), tuple(sorted(p.winners)), p.shares) for p in out.pots if p.amount]
    assert ours == theirs, where + (ours, theirs)
    parts = {(e.index, e.board): tuple(sorted(e.pot.winners)) for e in events if e.kind == "PotSplitByBoard"}
    if exp.boards:      # each contested pot's winners board by board (a pot one seat alone can win is not divided)
        want = {(i, b + 1): tuple(sorted(w)) for i, p in enumerate(out.pots) if len(p.eligible) > 1
                for b, w in enumerate(p.by_board)}
        assert parts == want, where + (parts, want)
    return out.pots


def check_hands(variant: str, n: int, seed: int, bomb_every: int = 0, bomb_boards: int = 1, **game) -> Counter:
    """``bomb_every``: every Nth hand a bomb pot on ``bomb_boards`` boards (house practice), checked against our
    own referee as well as pokerkit (:func:`refereed_bomb_pot`)."""
    cfg = from_dict({"game": {"variant": variant, **game, **({"bomb_pots": True} if bomb_every else {})},
                     "simulator": {"bomb_every": bomb_every, "bomb_boards": bomb_boards}})
    reg = demo_registry()
    engine = Engine(cfg, reg)
    stats: Counter = Counter()
    for hand in Simulator(cfg, reg, seed=seed).play(n):
        events = []
        for i in hand.inputs:
            events += engine.apply(i)
        exp = hand.expected
        where = (variant, hand.number)
        loud = [(e.rule, e.ruling) for e in events if e.kind == "FindingRaised" and e.severity != "info"]
        assert loud == [], where + (loud,)
        ended = [e for e in events if e.kind == "HandEnded"]
        assert len(ended) == 1, where
        end = ended[0]
        for p in end.pots:
            assert set(p.winners) <= set(p.eligible), where
        ours = {s: end.stacks[s] for s in exp.stacks}
        assert ours == exp.stacks, where + (end.stacks, exp.stacks)
        if exp.odd_chips:
            # pokerkit merges pots once the losers are killed and may give one player all of a pot's odd
            # chips; the simulated dealer pushes by Ties 4 and 5(d) (each pot split on its own, one odd chip
            # per winner clockwise from the button) and ``expected`` says so: the same total, and no seat
            # further from pokerkit's split than the odd chips there were
            stats["odd-chip splits"] += 1
            assert sum(exp.odd_chips.values()) == 0, where
            if VARIANT_ROWS[variant].split is None:
                odd = sum(len(p.winners) - 1 for p in end.pots if len(p.winners) > 1)
                assert all(abs(d) <= odd for d in exp.odd_chips.values()), where + (exp.odd_chips,)
            # a split game: pokerkit 0.7.7 also gives a side pot's low half to its players without a low (whole
            # halves apart, not odd chips); the stacks above are the rule text's (split_reference) and ours match
        if any(len(p.eligible) > 1 for p in end.pots):
            # won without a showdown, pokerkit hands back the whole last bet, we only its unmatched part:
            # same stacks, different pot size (docs/betting.md), so only contested pots compare chip for chip
            assert sum(p.amount for p in end.pots) == sum(p.amount for p in exp.pots), where + (end.pots, exp.pots)
            won, want = Counter(), Counter()
            for p in end.pots:
                won.update(p.shares)
            for p in exp.pots:
                want.update(p.shares)
            assert +won == +want, where + (end.pots, exp.pots)
        told = Counter((e.seat, e.draw) for e in events if e.kind == "CardsDrawn")
        assert all(n == 1 for n in told.values()), where + (told,)   # each seat's draw told once (docs/draw.md)
        stats["hands"] += 1
        stats["side pots"] += max(0, len(end.pots) - 1)
        for e in events:
            if e.kind == "FindingRaised" and e.rule in ("highlow.1", "highlow.2", "ties.5c", "kill.10"):
                stats[e.rule] += 1
            if e.kind == "CardsDrawn":      # a draw game (27td): a seat's draw, pat (no card) or not
                stats["pat" if e.count == 0 else "draws"] += 1
        stats["pokerkit differs (split pushed by the rulebook)"] += bool(exp.odd_chips)
        if exp.runs > 1:    # run it twice or three times (game.run_it): the engine read the same boards
            assert end.boards == exp.boards, where + (end.boards, exp.boards)
            stats[f"run {exp.runs} times"] += 1
            stats["pots split by board"] += sum(1 for e in events if e.kind == "PotSplitByBoard") // exp.runs
        if exp.bomb:        # a bomb pot: pokerkit's account above, and our own referee's from the rule text
            assert end.boards == (exp.boards or None), where + (end.boards, exp.boards)
            pots = refereed_bomb_pot(cfg, exp, end, events)
            stats[f"bomb pots on {1 + len(exp.boards)} board{'s' if exp.boards else ''}"] += 1
            stats["bomb side pots"] += max(0, len(pots) - 1)
            stats["bomb pots split by board"] += sum(1 for p in pots if len(set(p.by_board)) > 1)   # winners differ
    return stats


@pytest.mark.parametrize("variant", VARIANTS)
def test_simulated_hands_agree_with_pokerkit(variant):
    """300 seeded hands per structure, the first 300 of the 10,000 that ``tools/crosscheck_games nlhe plhe flhe plo``
    plays (the same seed): the same pots, winners and stacks as pokerkit on every hand, side pots among them."""
    stats = check_hands(variant, 300, seed=2024)
    assert stats["hands"] == 300 and stats["side pots"] > 0


@pytest.mark.parametrize("variant", SPLIT_AND_BIG_O)
def test_simulated_split_and_big_o_hands_agree_with_pokerkit(variant):
    """A few hundred seeded hands per new game; tools/crosscheck_games runs the 10,000 (docs/betting.md)."""
    stats = check_hands(variant, 200, seed=33)
    assert stats["hands"] == 200
    assert stats["side pots"] > 0 or variant == "o8"    # limit stacks are deep: 200 hands may have no side pot
    if variant.endswith("8"):     # the split games: pots divided high and low, and pots with no low, both seen
        assert stats["highlow.1"] > 0 and stats["highlow.2"] > 0


@pytest.mark.parametrize("game", [{}, {"kill": "full", "lowball_kill": True}])
def test_simulated_triple_draw_hands_agree_with_pokerkit(game):
    """Deuce-to-seven triple draw (docs/draw.md): three draws acted out in turn (discards to the muck, as many from
    the stub, a stander's knock tapped), pokerkit's FixedLimitDeuceToSevenLowballTripleDraw streets and low hand;
    at a table with lowball's optional kill, players sometimes kill after two cards (kill.10 at info, acting last)."""
    stats = check_hands("27td", 150, seed=27, **game)
    assert stats["hands"] == 150 and stats["draws"] > 0 and stats["pat"] > 0
    assert (stats["kill.10"] > 0) == bool(game)


@pytest.mark.parametrize("variant, runs", [("nlhe", 2), ("plo", 2), ("nlhe", 3), ("plo8", 2)])
def test_simulated_hands_run_twice_agree_with_pokerkit(variant, runs):
    """A run-it table (game.run_it, a house practice): every all-in with no more betting is run two or three times
    by pokerkit's run-out count, and the engine reads the same boards and splits each pot by board to the same
    stacks. A few hundred seeded hands here; tools/crosscheck_games --run-it runs the 10,000 (docs/betting.md)."""
    stats = check_hands(variant, 150, seed=34, run_it=runs)
    assert stats["hands"] == 150 and stats[f"run {runs} times"] > 10 and stats["pots split by board"] > 10


@pytest.mark.parametrize("variant, boards, every", [("nlhe", 1, 1), ("nlhe", 2, 1), ("plo", 1, 1), ("plo", 2, 1),
                                                    ("nlhe", 2, 3)])
def test_simulated_bomb_pots_agree_with_pokerkit_and_our_referee(variant, boards, every):
    """A bomb-pot table (game.bomb_pots, a house practice) where the simulated dealer starts one every ``every``-th
    hand (simulator.bomb_every), on one board or two: pokerkit's account and our own referee's (tests/faults/referee,
    from the rule text, fed the cards and the actions) give the engine's pots, each board's winners and the stacks.
    A few hundred seeded hands here; tools/crosscheck_games --bomb-every 1 runs the 10,000 (docs/betting.md)."""
    stats = check_hands(variant, 200, seed=35, bomb_every=every, bomb_boards=boards)
    bombs = stats[f"bomb pots on {boards} board{'s' if boards > 1 else ''}"]
    assert stats["hands"] == 200 and bombs == 200 // every and stats["bomb side pots"] > 0
    if boards > 1:      # pots whose boards went to different hands: the division by board did something
        assert stats["bomb pots split by board"] > 0


def test_a_tie_on_one_board_of_a_pot_of_two_chips_pays_that_winner_nothing_rightly():
    """plo seed 5 hand 195, a double-board bomb pot: seat 4, all in for 1, ties seat 3 on board 1 and wins board 2;
    the pot of 2 is 1 a board and board 1's chip goes to seat 4, first from the button, so seat 3 is paid nothing.
    The engine took that for a shared pot pushed whole to one winner (showdown.3 on a clean hand)."""
    stats = check_hands("plo", 195, seed=5, bomb_every=1, bomb_boards=2)
    assert stats["hands"] == 195 and stats["bomb pots on 2 boards"] == 195


def test_a_winner_posting_the_next_blind_with_chips_just_pushed_to_them_starts_the_hand():
    """plo8 seed 4001 hand 235: a winner posted the next blind with chips of the pot just pushed to their bet
    zone; the engine took them for a share being slid over (issue 31's split-pot misaward) and never started the
    hand: a cascade of rulings on a clean hand."""
    assert check_hands("plo8", 240, seed=4001)["hands"] == 240


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("game", [{"ante": 1}, {"big_blind_ante": 2}], ids=["ante", "bb-ante"])
def test_simulated_hands_with_antes_agree_with_pokerkit(variant, game):
    stats = check_hands(variant, 30, seed=5, **game)
    assert stats["hands"] == 30
