"""Betting structures as data: limit, pot-limit and no-limit sizing (Betting and Raising, No-Limit, Pot-Limit).

A :class:`Structure` answers the sizing questions the betting round asks: the bet unit on a street (limit),
the smallest legal raise and the largest (pot-limit: the pot after the call). Which structure a game uses is
a column of ``engine.variants.VARIANTS``, so a new variant is one row there.
"""

from __future__ import annotations

from dataclasses import dataclass

from ...config import GameConfig
from ..variants import VARIANTS

LIMIT, POT_LIMIT, NO_LIMIT = "limit", "pot-limit", "no-limit"

# variant key (config game.variant) -> betting structure: the variants' own rows say it
STRUCTURE_OF = {key: v.structure for key, v in VARIANTS.items()}

STREETS = ("preflop", "flop", "turn", "river")


@dataclass(frozen=True, slots=True)
class Structure:
    kind: str
    small_blind: int
    big_blind: int
    small_bet: int
    big_bet: int
    max_raises: int          # limit: a bet and this many raises (Betting 3)
    sb_counts_as_bb: bool    # pot-limit option (Pot-Limit 6)
    scale: float = 1.0       # killed pot: 2.0 full kill, 1.5 half kill (Kill Pots)
    pot_round_to: int = 0    # pot-limit option: pot size rounded up to a multiple of this (Pot-Limit 5)

    @classmethod
    def from_game(cls, game: GameConfig, scale: float = 1.0) -> Structure:
        return cls(STRUCTURE_OF.get(game.variant, NO_LIMIT), game.small_blind, game.big_blind, game.small_bet,
                   game.big_bet, game.max_raises, game.sb_counts_as_bb, scale, game.pot_round_to)

    @property
    def is_limit(self) -> bool:
        return self.kind == LIMIT

    def unit(self, street: str) -> int:
        """Limit: the size of a bet or raise on ``street`` (small bet on the first two rounds)."""
        base = self.small_bet if street in ("preflop", "flop") else self.big_bet
        return int(base * self.scale)

    @property
    def cap(self) -> int:
        """Limit: bets and raises allowed on a round (a bet and three raises = 4)."""
        return 1 + self.max_raises

    def min_bet(self, street: str) -> int:
        """The smallest opening bet: the limit unit, or the big blind (No-Limit 2)."""
        if self.is_limit:
            return self.unit(street)
        return int(self.big_blind * self.scale)

    def pot_max_to(self, current: int, wager: int, pot: int) -> int:
        """Pot-limit: the largest total wager for a seat that has ``wager`` in, facing ``current``, with
        ``pot`` = everything in the middle and every bet zone (Pot-Limit 4: call, then raise the pot)."""
        return current + self.pot_size(pot + current - wager)

    def pot_size(self, pot: int) -> int:
        """The pot size a pot-limit raise may be: exact, or rounded up to the house's unit (Pot-Limit 5)."""
        r = self.pot_round_to
        return -(-pot // r) * r if r > 1 else pot
