"""Cross-check: random hands played by pokerkit (the referee) and, as chips and taps, by dealerbox's betting.

Every hand must end with the same pots (amounts and winners) and the same stacks in both, and dealerbox must
raise nothing above ``info``: pokerkit only makes legal moves, so any finding here is a false alarm.
Hands use short and deep stacks so all-ins and side pots are common. Cards come from a seeded
``random.Random`` so every run is the same.

This is the fast, focused check of ``HandBetting`` alone (chips and taps straight in, no cards, no table):
300 hands per structure, 200 with each kind of ante, and limit Omaha high-low (the split game pokerkit deals)
with each pot divided by the rule text. The same check at size (1,000 and 2,000 hands) is
``tools/crosscheck_games --betting`` (docs/betting.md), out of the everyday suite. The proof against pokerkit
of whole hands is ``tests/test_simulated_hands.py`` (simulator sensor events through the whole engine), 10,000
a structure with ``tools/crosscheck_games``.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest
from phevaluator import evaluate_cards, evaluate_omaha_cards
from pokerkit import (Automation, FixedLimitOmahaHoldemHighLowSplitEightOrBetter, FixedLimitTexasHoldem,
                      NoLimitTexasHoldem, OmahaEightOrBetterLowHand, OmahaHoldemHand, PotLimitOmahaHoldem,
                      StandardHighHand)

from dealerbox.engine import events as te
from dealerbox.sources.sim.split_reference import split_shares
from tests.test_betting import BettingTable

AUTOMATIONS = (
    Automation.ANTE_POSTING, Automation.BET_COLLECTION, Automation.BLIND_OR_STRADDLE_POSTING,
    Automation.HAND_KILLING,
)
STREET_NAMES = ("preflop", "flop", "turn", "river")
DECK = [r + s for r in "23456789TJQKA" for s in "cdhs"]


class _Ranked:
    """pokerkit's own hand lookup dominates the run time (about 20 ms a hand); the referee keeps its betting
    and pot machinery but ranks hands with phevaluator so 10,000 hands take seconds, not minutes."""
    omaha = False

    @classmethod
    def from_game(cls, hole_cards, board_cards=()):
        hand = cls.__new__(cls)
        hand._rank = rank("plo" if cls.omaha else "nlhe", list(hole_cards), list(board_cards))
        return hand

    def __lt__(self, other):
        return self._rank < other._rank

    def __gt__(self, other):
        return self._rank > other._rank

    def __le__(self, other):
        return self._rank <= other._rank

    def __ge__(self, other):
        return self._rank >= other._rank

    def __eq__(self, other):
        return self._rank == other._rank

    def __hash__(self):
        return hash(self._rank)


class FastHigh(_Ranked, StandardHighHand):
    pass


class FastOmaha(_Ranked, OmahaHoldemHand):
    omaha = True


class FastNoLimit(NoLimitTexasHoldem):
    hand_types = (FastHigh,)


class FastLimit(FixedLimitTexasHoldem):
    hand_types = (FastHigh,)


class FastLimitHeadsUp(FastLimit):
    """Heads-up, raising in limit is unlimited (Betting and Raising 4): pokerkit's cap of four lifted."""
    max_completion_betting_or_raising_count = None


class FastPLO(PotLimitOmahaHoldem):
    hand_types = (FastOmaha,)


class FastO8(FixedLimitOmahaHoldemHighLowSplitEightOrBetter):
    """Limit Omaha high-low: the high ranked fast, the low by pokerkit's own eight-or-better hand."""
    hand_types = (FastOmaha, OmahaEightOrBetterLowHand)


class PotLimitTexasHoldem(PotLimitOmahaHoldem):
    """pokerkit has no ready-made pot-limit hold'em: Omaha's pot-limit machinery with two hole cards."""
    hand_types = (FastHigh,)
    hole_dealing_count = 2


def pokerkit_state(variant: str, stacks: list[int], sb: int, bb: int, ante: int = 0, bb_ante: int = 0,
                   straddle: int = 0):
    """Uniform antes are trimmed like bets (each player's ante is their own contribution); the big-blind ante
    (player 1, the big blind; pokerkit swaps it heads-up) is dead money in the main pot. ``straddle``: player 2
    (left of the big blind) straddles for that much."""
    n = len(stacks)
    trimming, antes = (False, {1: bb_ante}) if bb_ante else (True, ante)
    blinds = (sb, bb, straddle) if straddle else (sb, bb)
    if variant in ("flhe", "o8"):
        cls_limit = (FastLimitHeadsUp if n == 2 else FastLimit) if variant == "flhe" else FastO8
        return cls_limit.create_state(AUTOMATIONS, trimming, antes, blinds, bb, 2 * bb, stacks, n)
    cls = {"nlhe": FastNoLimit, "plhe": PotLimitTexasHoldem, "plo": FastPLO}[variant]
    return cls.create_state(AUTOMATIONS, trimming, antes, blinds, bb, stacks, n)


def rank(variant: str, hole, board) -> int:
    """Hand strength, higher is better (phevaluator ranks 1 = best)."""
    names = [f"{c.rank}{c.suit}" for c in hole + board]
    if variant in ("plo", "o8"):
        return -evaluate_omaha_cards(*names[4:], *names[:4])
    return -evaluate_cards(*names)


def random_stack(rng: random.Random, bb: int) -> int:
    roll = rng.random()
    if roll < 0.3:
        return rng.randint(bb, 12 * bb)        # short: all-ins and side pots
    if roll < 0.9:
        return rng.randint(20 * bb, 150 * bb)
    return rng.randint(150 * bb, 400 * bb)


class CleanPlayers:
    """How the players' moves reach the chips: the clean way. The fault-injection harness (tests/faults/) swaps
    in players that make one irregularity and carry out the ruling's remedy."""
    heads_up = False        # deal two players only
    raise_below = 0.5       # a roll below this (and not a fold) raises when a raise is legal


    def __init__(self, game: BettingTable, hand, rng: random.Random, stats: Counter) -> None:
        self.game, self.hand, self.rng, self.stats = game, hand, rng, stats

    def before_deal(self, order: list[int]) -> None:
        """The blinds are in, no card is out yet: clean players wait for their cards."""

    def straddle(self, seat: int, amount: int) -> None:
        """The player left of the big blind straddles, after the blinds and before the deal."""
        self.game.put(seat, amount)

    def fold(self, seat: int) -> None:
        self.game.fold(seat)

    def check(self, seat: int) -> None:
        self.game.check(seat)

    def call(self, seat: int, amount: int) -> None:
        self.game.put(seat, amount)

    def raise_by(self, seat: int, amount: int) -> None:
        put_raise(self.game, self.hand, self.rng, seat, amount, self.stats)

    def check_findings(self, context) -> None:
        loud = [f for f in self.game.found() if f.severity != "info"]
        assert not loud, (loud, context)


def play_one(rng: random.Random, variant: str, stats: Counter, players=CleanPlayers, ante: int = 0,
             bb_ante: int = 0, straddle: bool = False) -> None:
    """One random hand through pokerkit and HandBetting. ``straddle``: a table that allows a live straddle, and
    from four players up the player left of the big blind straddles (No-Limit 12; never at limit)."""
    sb, bb = 1, 2
    n = 2 if players.heads_up else rng.randint(2, 6)
    seats = sorted(rng.sample(range(1, 10), n))
    button = rng.choice(seats)
    order = sorted(seats, key=lambda s: (s - button - 1) % 9)   # pokerkit player i = order[i], button last
    stacks = [random_stack(rng, bb) for _ in order]
    if ante and rng.random() < 0.1:
        stacks[rng.randrange(n)] = rng.randint(1, ante + bb)    # all in on the ante, or on ante and blind
    if bb_ante:
        # the big blind before the big-blind ante (Tournaments 19); pokerkit posts the ante first, so the
        # stacks cover both and the order never matters here
        stacks = [max(s, bb + bb_ante + 1) for s in stacks]
    straddled = straddle and n >= 4 and variant not in ("flhe", "o8")
    if straddled:
        stacks[2] = max(stacks[2], 2 * bb + 1)      # a straddle that is not all in
    game = BettingTable(variant, seats=order, stack=dict(zip(order, stacks, strict=True)), small_blind=sb, big_blind=bb,
                        small_bet=bb, big_bet=2 * bb, ante=ante, big_blind_ante=bb_ante, straddle=straddle)
    state = pokerkit_state(variant, stacks, sb, bb, ante, bb_ante, 2 * bb if straddled else 0)
    if ante or bb_ante:
        hand = post_antes_and_blinds(game, rng, button, order, stacks, ante, bb_ante, stats)
    else:
        hand = game.start(button=button, dealt=order, deal=False)
    moves = players(game, hand, rng, stats)
    if straddled:
        moves.straddle(order[2], 2 * bb)
    moves.before_deal(order)
    game.deal()
    deck = DECK[:]
    rng.shuffle(deck)
    street = 0
    referee_pots = None
    while state.status:
        if state.can_show_or_muck_hole_cards():
            state.show_or_muck_hole_cards(True)     # everyone shows: pokerkit's own mucking logic is slow
            continue
        if state.can_push_chips():
            if referee_pots is None:
                referee_pots = [(pot.amount, tuple(pot.player_indices)) for pot in state.pots]
            state.push_chips()
            continue
        if state.can_pull_chips():
            state.pull_chips()
            continue
        if state.can_deal_hole():
            state.deal_hole(deck.pop())
            continue
        if state.can_burn_card():
            state.burn_card(deck.pop())
            continue
        if state.can_deal_board():
            state.deal_board("".join(deck.pop() for _ in range(state.street.board_dealing_count)))
            continue
        if state.street_index is not None and state.street_index != street:
            street = state.street_index
            game.street(STREET_NAMES[street])
        i = state.actor_index
        if i is None:
            break
        seat = order[i]
        # pokerkit still offers a check to the one player left with chips when everyone else is all-in;
        # nobody could call a raise, so dealerbox has nobody to act (the dealer's tap is harmless)
        idle = hand.to_act is None and state.checking_or_calling_amount == 0
        dealt_out = [str(o) for o in state.operations if "Dealing" not in type(o).__name__]
        assert hand.to_act == seat or idle, (hand.to_act, seat, dealt_out, game.actions(), game.found())
        before = state.bets[i]
        roll = rng.random()
        if roll < 0.15 and state.can_fold() and not idle:     # nothing to call: a fold would be a check
            state.fold()
            moves.fold(seat)
            stats["fold"] += 1
        elif roll < moves.raise_below and state.can_complete_bet_or_raise_to() and \
                (to := pick_raise(hand, state, seat, rng, stats)) is not None:
            state.complete_bet_or_raise_to(to)
            moves.raise_by(seat, to - before)
            stats["raise"] += 1
        else:
            op = state.check_or_call()
            if op.amount:
                moves.call(seat, op.amount)
                stats["call"] += 1
            else:
                moves.check(seat)
                stats["check"] += 1
    game.street("showdown")
    # pokerkit merges pots once it has killed the losing hands, so winners per pot come from the cards
    hole: dict[int, list] = {}
    board: list = []
    for op in state.operations:
        if type(op).__name__ == "HoleDealing":
            hole.setdefault(op.player_index, []).extend(op.cards)
        elif type(op).__name__ == "BoardDealing":
            board.extend(op.cards)
    strength = {order[j]: rank(variant, cards, board) for j, cards in hole.items()} if len(board) == 5 else {}
    winners = []
    for pot in hand.pots():
        if len(pot.eligible) == 1:
            winners.append(pot.eligible)
            continue
        best = max(strength[s] for s in pot.eligible)
        winners.append(tuple(s for s in pot.eligible if strength[s] == best))
    won = [0] * n
    for op in state.operations:
        if type(op).__name__ == "ChipsPushing":
            won = [a + b for a, b in zip(won, op.amounts, strict=True)]
    if variant in SPLIT:
        split_award(game, hand, state, order, stacks, strength, hole, board, won, stats)
        moves.check_findings(variant)
        stats["hands"] += 1
        return
    pots, final = hand.settle(game.t, winners)
    context = (variant, order, stacks,
               [str((p.amount, p.eligible, p.shares)) for p in pots] + [str(winners), str(referee_pots)]
               + [str(op) for op in state.operations if "Dealing" not in type(op).__name__])
    # pokerkit drops hands it killed at showdown from a pot's players; ours lists every seat that contested
    contested = sum(1 for b in hand.seats.values() if b.live) > 1
    # won without a showdown, pokerkit hands the winner back its whole last bet, we only the unmatched part:
    # the stacks agree either way (docs/betting.md), so only contested pots are compared chip for chip
    if contested:
        assert sum(p.amount for p in pots) == sum(amount for amount, _ in referee_pots), context
    if contested and len(pots) == len(referee_pots):
        assert [p.amount for p in pots] == [amount for amount, _ in referee_pots], context
    ours = [final[s] for s in order]
    if any(len(p.winners) > 1 and p.amount % len(p.winners) for p in pots):
        # split with odd chips: pokerkit merges pots once the losers are killed and may give one player
        # several odd chips; Ties 4 and 5(d) say one odd chip each, every pot split on its own. Same total,
        # each seat within one chip per pot, or per odd chip when there are more.
        stats["odd-chip splits"] += 1
        assert sum(ours) == sum(state.stacks), context
        # several odd chips of one pot (a 4-way split of 43) may all go to one player in pokerkit's split
        odd = sum(len(p.winners) - 1 for p in pots if len(p.winners) > 1)
        assert all(abs(a - b) <= max(len(pots), odd) for a, b in zip(ours, state.stacks, strict=True)), context
    else:
        if contested:
            assert [sum(p.shares.get(order[j], 0) for p in pots) for j in range(n)] == won, context
        assert ours == list(state.stacks), context
    moves.check_findings(context)
    stats["hands"] += 1
    stats["side pots"] += max(0, len(pots) - 1)
    stats["all-in"] += sum(1 for e in game.events if isinstance(e, te.ActionTaken) and e.action == "all-in")


SPLIT = {"o8"}   # the split games pokerkit deals: limit Omaha high-low eight or better


def split_award(game: BettingTable, hand, state, order: list[int], stacks: list[int], strength: dict[int, int],
                hole: dict[int, list], board: list, won: list[int], stats: Counter) -> None:
    """A split game's settlement: each pot divided high and low by the rule text (``split_reference``, kept apart
    from the engine), the lows read by pokerkit's own eight-or-better hand. pokerkit 0.7.7 divides differently
    where a side pot has no low of its own or a half has several odd chips (docs/betting.md), so the stacks are
    compared with pokerkit's where the two agree and with the rule text's always."""
    lows: dict[int, int] = {}
    for j, cards in hole.items():
        if len(board) == 5:
            try:
                lows[order[j]] = OmahaEightOrBetterLowHand.from_game(cards, board).entry.index
            except ValueError:
                pass        # no eight-or-better low
    winners, halves = [], []
    for pot in hand.pots():
        contenders = [s for s in pot.eligible if s in strength]
        if len(pot.eligible) == 1 or not contenders:
            winners.append(pot.eligible)
            halves.append((pot.eligible,))
            continue
        best = max(strength[s] for s in contenders)
        high = tuple(s for s in contenders if strength[s] == best)
        low_seats = [s for s in contenders if s in lows]
        if not low_seats:
            winners.append(high)
            halves.append((high,))
            stats["pots with no low"] += 1
            continue
        best_low = min(lows[s] for s in low_seats)
        low = tuple(s for s in low_seats if lows[s] == best_low)
        winners.append(tuple(sorted({*high, *low})))
        halves.append((high, low))
        stats["pots split high and low"] += 1
    pots, final = hand.settle(game.t, winners, [[h] for h in halves])   # one board, its halves
    ours = [final[s] for s in order]
    context = ("o8", order, stacks, [str((p.amount, p.eligible, p.shares)) for p in pots], str(halves),
               [str(op) for op in state.operations if "Dealing" not in type(op).__name__])
    assert sum(ours) == sum(state.stacks), context
    contested = sum(1 for b in hand.seats.values() if b.live) > 1
    if not contested:
        assert ours == list(state.stacks), context
        return
    live = {s for s in order if hand.seats[s].live}
    contributed = {s: stacks[j] - state.stacks[j] + won[j] for j, s in enumerate(order)}
    ruled = split_shares(contributed, live, {s: -strength[s] for s in live}, {s: lows[s] for s in live if s in lows},
                         order)
    assert ours == [stacks[j] - contributed[s] + ruled.get(s, 0) for j, s in enumerate(order)], context + (ruled,)
    stats["pokerkit differs (rule text pushed)"] += ours != list(state.stacks)


def post_antes_and_blinds(game: BettingTable, rng: random.Random, button: int, order: list[int], stacks: list[int],
                          ante: int, bb_ante: int, stats: Counter):
    """Antes and blinds as chips in the bet zones before the deal: each in its own motion, in either order,
    or together in one motion; never more chips than the player has."""
    blinds = game.table.blinds_for(button, order)
    hand = game.start(button=button, dealt=order, post=False, deal=False)
    dues = {s: ante for s in order} if ante else {hand.positions.big_blind: bb_ante}
    left = dict(zip(order, stacks, strict=True))
    for seat in order:
        a = min(dues.get(seat, 0), left[seat])
        if bb_ante:      # the big blind before its ante
            blind = min(blinds.get(seat, 0), left[seat])
            a = min(a, left[seat] - blind)
        else:
            blind = min(blinds.get(seat, 0), left[seat] - a)
        parts = [p for p in (a, blind) if p]
        if len(parts) == 2 and rng.random() < 0.4:
            parts = [a + blind]
            stats["ante and blind in one motion"] += 1
        elif len(parts) == 2 and rng.random() < 0.5 and not (a + blind == left[seat] and not bb_ante):
            parts.reverse()
            stats["blind before ante"] += 1
        for p in parts:
            game.put(seat, p)
        left[seat] -= a + blind
        stats["ante all-in"] += int(left[seat] == 0)
    return hand   # dealt by the caller, after the players' before-deal moves


def pick_raise(hand, state, seat: int, rng: random.Random, stats: Counter) -> int | None:
    """A raise both rulebooks allow, or None. pokerkit is looser in three places (docs/betting.md): it
    allows a fifth bet preflop in limit (Betting 3 counts the big blind as the bet), it lets a player who
    checked or called raise a short all-in (No-Limit 3, Betting 5), and in limit it raises a short all-in by
    a full bet instead of completing it (Betting 5). The driver plays only moves legal under both."""
    lo = state.min_completion_betting_or_raising_to_amount
    hi = state.max_completion_betting_or_raising_to_amount
    allowed, _, _ = hand.wagers.may_raise(seat)
    b = hand.seats[seat]
    all_in = b.wager + hand.ledger.stack(seat)
    if not allowed:
        stats["raise refused by the rulebook"] += 1
        return None
    min_to, max_to = hand.wagers.raise_range(seat, all_in)
    legal = [x for x in (lo, hi, max(lo, min_to), min(hi, max_to)) if lo <= x <= hi and (min_to <= x <= max_to
                                                                                     or x == all_in < min_to)]
    if not legal:
        stats["raise size differs"] += 1
        return None
    a, z = min(legal), max(legal)
    return z if rng.random() < 0.25 else rng.randint(a, z)


def put_raise(game: BettingTable, hand, rng: random.Random, seat: int, amount: int, stats: Counter) -> None:
    """A bet or raise in one motion. A lone chip facing a bet would only call (No-Limit 9, Betting 15), so the
    player either declares the raise first or breaks the chip into smaller ones."""
    chips = game.box.make(amount)
    facing = hand.current_bet > hand.seats[seat].wager
    if len(chips) == 1 and facing:
        if rng.random() < 0.5:
            game.declare(seat)
            game.put(seat, chips=chips)
            game._step(3.0)     # the declared raise is complete once the hands rest (No-Limit 8)
            stats["declared"] += 1
            return
        else:
            small = [d for d in (100, 25, 5, 1) if d < chips[0].value]
            chips = game.box.make(amount, tuple(small))
    game.put(seat, chips=chips)


def run(variant: str, hands: int, seed: int, ante: int = 0, bb_ante: int = 0) -> Counter:
    rng = random.Random(f"{variant}-{seed}" + (f"-ante{ante}-bbante{bb_ante}" if ante or bb_ante else ""))
    stats: Counter = Counter()
    for _ in range(hands):
        play_one(rng, variant, stats, ante=ante, bb_ante=bb_ante)
    return stats


@pytest.mark.parametrize("variant", ["nlhe", "plhe", "flhe", "plo"])
def test_crosscheck_quick(variant):
    stats = run(variant, 300, seed=7)
    assert stats["hands"] == 300 and stats["side pots"] > 0 and stats["all-in"] > 0


def test_crosscheck_limit_omaha_high_low_quick():
    """Limit Omaha high-low, the split game pokerkit deals: the same turn to act, pots and totals as pokerkit, each
    pot divided high and low as the rule text says, and no finding above info."""
    stats = run("o8", 200, seed=7)
    assert stats["hands"] == 200
    assert stats["pots split high and low"] > 0 and stats["pots with no low"] > 0


@pytest.mark.parametrize("variant", ["nlhe", "plhe", "flhe", "plo"])
@pytest.mark.parametrize("ante, bb_ante", [(1, 0), (2, 0), (0, 2)], ids=["ante-1", "ante-2", "bb-ante-2"])
def test_crosscheck_antes_quick(variant, ante, bb_ante):
    stats = run(variant, 200, seed=11, ante=ante, bb_ante=bb_ante)
    assert stats["hands"] == 200 and stats["side pots"] > 0 and stats["all-in"] > 0
    assert stats["ante and blind in one motion"] > 0 and stats["blind before ante"] > 0
    if ante:
        assert stats["ante all-in"] > 0

