"""The simulator's independent referee: pokerkit (pinned), with hands ranked by phevaluator.

pokerkit decides which actions are legal, takes the cards the simulator deals, and computes the pots, winners
and final stacks the engine is checked against; this module is where its settings live.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from itertools import combinations
from typing import Any

from phevaluator import evaluate_cards, evaluate_omaha_cards
from pokerkit import (Automation, BettingStructure, Card, Deck, Hand, Mode, OmahaEightOrBetterLowHand, Opening,
                      StandardLookup, StandardLowHand, State, Street)

from ...config import GameConfig
from ..raising import rulebook_shares
from .outcome import Expected
from .split_reference import board_shares, split_shares

VARIANTS = {  # config.game.variant -> (betting structure, hole cards)
    "nlhe": (BettingStructure.NO_LIMIT, 2),
    "plhe": (BettingStructure.POT_LIMIT, 2),
    "flhe": (BettingStructure.FIXED_LIMIT, 2),
    "plo": (BettingStructure.POT_LIMIT, 4),
    "o8": (BettingStructure.FIXED_LIMIT, 4),
    "plo8": (BettingStructure.POT_LIMIT, 4),
    "plo5": (BettingStructure.POT_LIMIT, 5),
    "plo5-8": (BettingStructure.POT_LIMIT, 5),
    "27td": (BettingStructure.FIXED_LIMIT, 5),
}
DRAW = {"27td"}     # draw games (deuce-to-seven triple draw): no board, three draws, pokerkit's deuce-to-seven low
SPLIT = {"o8", "plo8", "plo5-8"}   # high-low eight or better: pokerkit's own Omaha low hand is the second hand type
# No HOLE_CARDS_SHOWING_OR_MUCKING: its muck decision ranks every hand once per player; _run shows them all
# (same pots and winners: the hand killing still takes the losers out).
AUTOMATIONS = (Automation.ANTE_POSTING, Automation.BET_COLLECTION, Automation.BLIND_OR_STRADDLE_POSTING,
               Automation.HAND_KILLING, Automation.CHIPS_PULLING)


CARD = {repr(c): c for c in Card.parse("".join(r + s for r in "23456789TJQKA" for s in "cdhs"))}
_CARD_ID = {c: i for i, c in enumerate(CARD.values())}   # phevaluator's card numbers: 2c=0, 2d=1, ... As=51
# The same numbers by object identity: pokerkit keeps the very Card objects we deal (from CARD), and hashing
# a Card runs Python code, which showdown (every hand against every pot) would do thousands of times.
_CARD_NUMBER = {id(c): i for c, i in _CARD_ID.items()}


def _numbers(cards: Any) -> list[int]:
    cards = tuple(cards)  # pokerkit may pass a one-shot iterator
    try:
        return [_CARD_NUMBER[id(c)] for c in cards]
    except KeyError:  # a Card pokerkit made itself: look it up by value
        return [_CARD_ID[c] for c in cards]


class _RankedHand(Hand):
    """A pokerkit hand ranked by phevaluator (pinned): pokerkit's own lookup was most of a hand's run time.

    Same strength order as pokerkit's StandardHighHand / OmahaHoldemHand (phevaluator: 1 is the best hand),
    and the same refusal (ValueError) when the cards cannot make a hand yet.
    """
    lookup = StandardLookup()
    low = False
    omaha = False
    __slots__ = ("rank",)
    rank: int  # phevaluator's rank, set by from_game

    @classmethod
    def from_game(cls, hole_cards: Any, board_cards: Any = ()) -> _RankedHand:
        hole = _numbers(hole_cards)
        board = _numbers(board_cards)
        hand = object.__new__(cls)
        if not cls.omaha:
            if not 5 <= len(hole) + len(board) <= 7:
                raise ValueError(f"{len(hole) + len(board)} cards make no hold'em hand")
            hand.rank = evaluate_cards(*hole, *board)
        elif len(hole) == 4 and len(board) == 5:
            hand.rank = evaluate_omaha_cards(*board, *hole)
        elif len(hole) >= 2 and len(board) >= 3:  # exactly two from the hole and three from the board
            hand.rank = min(evaluate_cards(*h, *b) for h in combinations(hole, 2) for b in combinations(board, 3))
        else:
            raise ValueError("an Omaha hand needs two hole cards and three board cards")
        return hand

    def __eq__(self, other: Any) -> bool:
        return self.rank == other.rank

    def __hash__(self) -> int:
        return hash(self.rank)

    def __lt__(self, other: Any) -> bool:
        return self.rank > other.rank      # a bigger phevaluator rank is a weaker hand

    def __le__(self, other: Any) -> bool:
        return self.rank >= other.rank

    def __gt__(self, other: Any) -> bool:
        return self.rank < other.rank

    def __ge__(self, other: Any) -> bool:
        return self.rank <= other.rank

    def __repr__(self) -> str:
        return f"{type(self).__name__}(rank={self.rank})"


class HIGH(_RankedHand):
    pass


class OMAHA(_RankedHand):
    omaha = True


@dataclass(frozen=True)
class Posts:
    """Posts of one hand outside the blinds' places, by pokerkit player index (0 left of the button): ``live``
    chips that play and act in turn (a due kill, Kill Pots 2; a returning player's big blind, Blinds 9), ``dead``
    chips to the middle (a missed small blind made up), and ``scale`` for the limits (x2 a full kill, x1.5 half).

    pokerkit expresses them as it is: a live post is a blind given as a NEGATIVE value at that index (pokerkit
    posts its absolute value, but the preflop opener follows only the positive blinds, so action still starts
    left of the big blind), a dead post a per-player ante (dead money), the scale the streets' bet sizes."""
    live: dict[int, int] = field(default_factory=dict)
    dead: dict[int, int] = field(default_factory=dict)
    scale: float = 1.0
    small_dead: bool = False    # no small blind (Blinds 1b: a dead button's small blind before an empty seat)
    last: int | None = None     # lowball's optional kill (Kill Pots 10): the killer's index, acting last preflop


NO_POSTS = Posts()


def referee_streets(game: GameConfig, structure: BettingStructure, holes: int,
                    scale: float = 1.0) -> tuple[Street, ...]:
    """Hold'em's four streets for pokerkit: the bet sizes (scaled in a killed pot) and the limit cap of ``game``."""
    fixed = structure is BettingStructure.FIXED_LIMIT
    cap = game.max_raises + 1 if fixed else None
    small, big = (game.small_bet, game.big_bet) if fixed else (game.big_blind, game.big_blind)
    small, big = int(small * scale), int(big * scale)     # the engine's Structure rounds the same way
    if game.variant in DRAW:    # a draw before each of the last three rounds: burn, discards, replacements
        return (Street(False, (False,) * holes, 0, False, Opening.POSITION, small, cap),
                Street(True, (), 0, True, Opening.POSITION, small, cap),
                Street(True, (), 0, True, Opening.POSITION, big, cap),
                Street(True, (), 0, True, Opening.POSITION, big, cap))
    return (Street(False, (False,) * holes, 0, False, Opening.POSITION, small, cap),
            Street(True, (), 3, False, Opening.POSITION, small, cap),
            Street(True, (), 1, False, Opening.POSITION, big, cap),
            Street(True, (), 1, False, Opening.POSITION, big, cap))


def live_blinds(blinds: tuple[int, ...], live: dict[int, int], players: int) -> tuple[int, ...]:
    """``blinds`` with the live posts of ``live`` (player index -> amount) in place: negative, so that they play
    but do not move the opener, except in the big blind's own place (a killer in the big blind), where the
    largest blind is what opens the action left of it anyway. Heads-up pokerkit reads its blinds reversed."""
    out = list(blinds) + [0] * max(0, players - len(blinds))
    for index, amount in live.items():
        place = 1 - index if players == 2 else index
        out[place] = amount if place == 1 else -amount
    return tuple(out)


def referee_state(game: GameConfig, structure: BettingStructure, holes: int, stacks: tuple[int, ...],
                  rng: random.Random, live_posts: tuple[int, ...] = (), posts: Posts = NO_POSTS) -> State:
    """pokerkit's state for one hand; ``stacks`` in player order (index 0 left of the button). ``live_posts``:
    players (indices) posting a big blind where they sit (a new player, Blinds 4); ``posts`` a kill or missed
    blinds made up (see :class:`Posts`). Both are live but act in turn: pokerkit's opener follows the positive
    blinds only, so they are given negative (posted as their size)."""
    if live_posts:
        posts = replace(posts, live={**{i: game.big_blind for i in live_posts}, **posts.live})
    streets = referee_streets(game, structure, holes, posts.scale)
    blinds: tuple[int, ...] = (game.small_blind, game.big_blind)
    if game.straddle and len(stacks) >= 4 and rng.random() < 0.25 and not posts.live:
        blinds = (game.small_blind, game.big_blind, 2 * game.big_blind)
    if posts.small_dead:     # the big blind is player 0, the first left of the button; the opener after it
        blinds = (game.big_blind,)
    if posts.live:
        blinds = live_blinds(blinds, posts.live, len(stacks))
    if posts.last is not None:   # the lowball killer's post, the largest blind: the action opens left of it
        blinds = tuple(list(blinds) + [0] * max(0, len(stacks) - len(blinds)))
        blinds = tuple(posts.live[posts.last] if i == posts.last else b for i, b in enumerate(blinds))
    hand_types: tuple[type[Hand], ...] = (HIGH,) if holes == 2 else (OMAHA,)
    if game.variant in SPLIT:
        hand_types = (OMAHA, OmahaEightOrBetterLowHand)
    if game.variant in DRAW:
        hand_types = (StandardLowHand,)
    # antes: each player's own (trimmed like bets); the big-blind ante: player 1's, dead money (game.ante)
    # A big blind short of both posts the blind first (rulebook.forced_posts): pokerkit posts antes first, so
    # it is given only what is left above the blind (player 1 is the big blind, heads-up too: pokerkit reverses)
    big_blind_stack = stacks[0] if len(stacks) == 2 else stacks[1]
    bb_ante = min(game.big_blind_ante, max(0, big_blind_stack - game.big_blind))
    antes: int | dict[int, int] = {1: bb_ante} if game.big_blind_ante and not game.ante else game.ante
    if posts.dead:      # dead money per player (the simulator makes blinds up only at tables without antes)
        antes = {**(antes if isinstance(antes, dict) else {}), **posts.dead}
    # A table that runs it twice (game.run_it, a house practice) plays pokerkit's cash game, where the players
    # select a run-out count after an all-in; elsewhere its tournament mode: one run-out.
    mode = Mode.CASH_GAME if game.run_it > 1 else Mode.TOURNAMENT
    return State(AUTOMATIONS, Deck.STANDARD, hand_types, streets, structure, not isinstance(antes, dict), antes,
                 blinds, 0, stacks, len(stacks), mode=mode)


def bomb_state(game: GameConfig, structure: BettingStructure, holes: int, stacks: tuple[int, ...], amount: int,
               boards: int) -> State:
    """pokerkit's state for a bomb pot (house practice): every player posts ``amount`` as an ante (all in when
    short), no blinds and no preflop betting: the first street deals the hole cards and then, after its burn, the
    flop, on ``boards`` boards (pokerkit's starting board count; each street board 1 first, then board 2). Its
    betting opens left of the button, as every round after the flop does; the bring-in is the big blind."""
    std = referee_streets(game, structure, holes)
    flop = std[1]
    streets = (Street(True, (False,) * holes, 3, False, Opening.POSITION, flop.min_completion_betting_or_raising_amount,
                      flop.max_completion_betting_or_raising_count), std[2], std[3])
    hand_types: tuple[type[Hand], ...] = (HIGH,) if holes == 2 else (OMAHA,)
    if game.variant in SPLIT:
        hand_types = (OMAHA, OmahaEightOrBetterLowHand)
    return State(AUTOMATIONS, Deck.STANDARD, hand_types, streets, structure, True, amount, (0, 0), 0, stacks,
                 len(stacks), mode=Mode.TOURNAMENT, starting_board_count=boards)


def odd_chips(st: State, pushes: list, order: Sequence[int], stacks_before: dict[int, int],
              expected: Expected, holes: int, smallest_chip: int) -> dict[int, int]:
    """Seat -> chips the rulebook's split gives minus pokerkit's, when a split pot's odd chips differ
    (pokerkit merges pots once the losers are killed; Ties 4 and 5d split each pot on its own)."""
    split_game = expected.variant in SPLIT
    boards = st.board_count
    if not split_game and boards == 1 and not any(sum(1 for a in op.amounts if a) > 1 for op in pushes):
        return {}
    won = {s: sum(op.amounts[i] for op in pushes) for i, s in enumerate(order)}
    contributed = {s: stacks_before[s] - st.stacks[i] + won[s] for i, s in enumerate(order)}
    # a big-blind ante (antes not trimmed) is dead money in the main pot, not its payer's contribution
    dead = 0 if st.ante_trimming_status else sum(st.get_effective_ante(i) for i in range(len(order)))
    if dead:
        contributed = {s: c - st.get_effective_ante(i) for i, (s, c) in enumerate(contributed.items())}
    live = set(order) - {seat for _, seat, kind, _ in expected.actions if kind == "fold"}
    hand_type = HIGH if holes == 2 else OMAHA
    reads: list[tuple[dict[int, int], dict[int, int]]] = []
    for b in range(boards):     # each board read on its own (run it twice or three times)
        board = list(st.get_board_cards(b))
        try:
            strength = _deuce_to_seven(expected, live) if expected.variant in DRAW else \
                {s: hand_type.from_game([CARD[c] for c in expected.hole_cards[s]], board).rank for s in live}
        except (KeyError, ValueError):
            return {}
        reads.append((strength, _lows(expected, live, board) if split_game else {}))
    if boards > 1:
        ruled = board_shares(contributed, live, reads, order, smallest_chip, dead)
    elif split_game:
        ruled = split_shares(contributed, live, reads[0][0], reads[0][1], order, smallest_chip, dead)
    else:
        ruled = rulebook_shares(contributed, live, reads[0][0], order, smallest_chip, dead)
    if sum(ruled.values()) != sum(won.values()):
        return {}
    return {s: ruled.get(s, 0) - won[s] for s in order if ruled.get(s, 0) != won[s]}


def _deuce_to_seven(expected: Expected, live: set[int]) -> dict[int, int]:
    """Seat -> pokerkit's deuce-to-seven low index (lower is better) of each live hand, as it stands after its
    draws (``Expected.hole_cards`` follows them)."""
    return {s: StandardLowHand.from_game([CARD[c] for c in expected.hole_cards[s]]).entry.index for s in live}


def _lows(expected: Expected, live: set[int], board: list[Card]) -> dict[int, int]:
    """Seat -> pokerkit's eight-or-better low index (lower is better) of each live hand that makes a low."""
    out: dict[int, int] = {}
    for s in live:
        try:
            hand = OmahaEightOrBetterLowHand.from_game([CARD[c] for c in expected.hole_cards[s]], board)
        except ValueError:
            continue
        out[s] = hand.entry.index
    return out
