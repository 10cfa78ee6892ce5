"""Which of pokerkit's raises the rulebook also allows, for the simulator's random play.

pokerkit (the simulator's referee) is looser than Robert's Rules in three places (docs/betting.md): it
allows a fifth bet before the flop in limit (Betting 3 counts the big blind as the opening bet), it lets a
player who already acted raise again after an all-in that was not a full raise (No-Limit 3, Betting 5), and
after a short all-in its minimum raise is counted from the all-in rather than from the last full raise (in
limit it raises a short all-in by a full bet instead of completing it). A simulated clean hand must stay
inside both rulebooks, so :class:`RaiseRules` follows one betting round the way the rulebook counts it and
narrows pokerkit's ``[lo, hi]`` to the raises both allow (or none).

>>> r = RaiseRules("no-limit", big_blind=2, small_bet=2, big_bet=4, max_raises=3)
>>> r.start({1: 1, 2: 2}, straddled=False)
>>> r.acted(3, 6)                     # a raise to 6: the minimum re-raise is to 10
>>> r.legal(4, wager=0, stack=100, lo=10, hi=100, active=3)
(10, 100)
>>> r.acted(4, 9)                     # all-in for 9: short of a full raise, it does not reopen
>>> r.legal(3, wager=6, stack=50, lo=12, hi=56, active=2) is None
True
"""

from __future__ import annotations

from collections.abc import Sequence

LIMIT, POT_LIMIT, NO_LIMIT = "limit", "pot-limit", "no-limit"


class RaiseRules:
    """One hand's betting, counted as the rulebook counts it (the same counting as engine.betting)."""

    def __init__(self, structure: str, big_blind: int, small_bet: int, big_bet: int, max_raises: int) -> None:
        self.structure = structure
        self.big_blind, self.small_bet, self.big_bet = big_blind, small_bet, big_bet
        self.cap = 1 + max_raises            # a bet and ``max_raises`` raises (Betting 3)
        self.street = "preflop"
        self.wagers: dict[int, int] = {}
        self.cur = self.last_raise = self.full_level = self.raises = self.serial = 0
        self.acted_at: dict[int, int] = {}
        self.capped_multiway = False
        self.small_blind = 0
        self.blind_seats: tuple[int, int] | None = None    # (small, big): Pot-Limit 6's option is played

    def pot_option(self, small_blind: int, small: int, big: int) -> None:
        """The house option of Pot-Limit 6: before the flop the small blind counts as a big blind in the pot, as
        long as it is still the small blind's only wager and the big blind has not acted."""
        self.small_blind, self.blind_seats = small_blind, (small, big)

    def _phantom(self) -> int:
        """Chips the option adds to the pot now (0 when it does not apply)."""
        if self.blind_seats is None or self.street != "preflop":
            return 0
        small, big = self.blind_seats
        if self.wagers.get(small) != self.small_blind or big in self.acted_at:
            return 0
        return self.big_blind - self.small_blind

    def unit(self) -> int:
        return self.small_bet if self.street in ("preflop", "flop") else self.big_bet

    def start(self, posted: dict[int, int], straddled: bool) -> None:
        """Before the flop: the blinds (and straddle) are in; the big blind is the opening bet."""
        self.street = "preflop"
        self.wagers = dict(posted)
        self.cur = max(posted.values(), default=0)
        self.last_raise = max(self.big_blind, self.cur) if straddled else self.big_blind
        self.full_level = max(self.cur, self.big_blind)
        self.raises = 1
        self.acted_at = {}
        self.capped_multiway = False

    def new_street(self, street: str) -> None:
        if street == self.street:
            return
        self.street = street
        self.wagers = {}
        self.cur = self.full_level = self.raises = 0
        self.last_raise = self.big_blind
        self.serial += 1
        self.acted_at = {}
        self.capped_multiway = False

    def acted(self, seat: int, total: int, active_after: int = 0) -> None:
        """``seat`` checked, called, bet or raised to ``total`` this round (``active_after``: players still
        able to bet once it has)."""
        cur = self.cur
        if total > cur:
            if self.structure == LIMIT:
                full = (total - self.full_level) * 2 >= self.unit()
            else:
                inc = total - cur
                full = inc >= self.last_raise if cur else total >= self.big_blind
                if full:
                    self.last_raise = max(self.last_raise if cur else 0, inc)
            if full:
                self.serial += 1
                self.full_level = total
                self.raises += 1
                if self.structure == LIMIT and self.raises >= self.cap and active_after >= 3:
                    self.capped_multiway = True
            self.cur = total
        self.wagers[seat] = total
        self.acted_at[seat] = self.serial

    def legal(self, seat: int, wager: int, stack: int, lo: int, hi: int, active: int,
              in_middle: int | None = None) -> tuple[int, int] | None:
        """The raises-to in pokerkit's ``[lo, hi]`` that the rulebook allows ``seat`` now, as (smallest,
        largest), or None. ``active``: players still able to bet, this seat included; ``in_middle``: every
        chip in the pot and the bet zones (pot-limit)."""
        if active < 2:
            return None
        if self.acted_at.get(seat) == self.serial and self.cur > wager:
            return None                      # not reopened by a short all-in (No-Limit 3, Betting 5)
        if self.structure == LIMIT and self.raises >= self.cap and (active >= 3 or self.capped_multiway):
            return None                      # capped (Betting 3)
        all_in = wager + stack
        if self.structure == LIMIT:
            min_to = max_to = self.unit() if self.cur == 0 else self.full_level + self.unit()
        else:
            base = max(self.cur, self.big_blind if self.street == "preflop" else 0)
            min_to = self.big_blind if self.cur == 0 else base + self.last_raise
            max_to = all_in
            if self.structure == POT_LIMIT and in_middle is not None:
                max_to = max(min_to, self.cur + in_middle + self._phantom() + (self.cur - wager))
        ok = [x for x in (lo, hi, max(lo, min_to), min(hi, max_to))
              if lo <= x <= hi and (min_to <= x <= max_to or x == all_in < min_to)]
        if not ok:
            return None
        return min(ok), max(ok)


def rulebook_shares(contributed: dict[int, int], live: set[int], strength: dict[int, int], order: Sequence[int],
                    unit: int = 1, dead: int = 0) -> dict[int, int]:
    """What each seat wins when every pot is split on its own (Ties 5d) and each pot's odd chips go one per
    winner, clockwise from the button (Ties 4, 5a). pokerkit merges pots once the losing hands are killed
    and splits the merged amount, which can move a chip; the simulated dealer pushes as the rulebook says.

    ``contributed``: chips each seat put in this hand (uncalled bets already back); ``live``: seats still
    holding cards; ``strength``: phevaluator rank per live seat (lower is better); ``order``: seats from the
    first left of the button; ``dead``: dead money in the main pot (a big-blind ante).

    >>> rulebook_shares({1: 5, 2: 10, 3: 10}, {1, 2, 3}, {1: 7, 2: 5, 3: 5}, [1, 2, 3])
    {2: 13, 3: 12}
    """
    won: dict[int, int] = {}
    prev = 0
    levels = sorted({contributed[s] for s in live})
    for k, level in enumerate(levels):
        top = k == len(levels) - 1
        amount = sum((c if top else min(c, level)) - min(c,
                                                         prev) for c in contributed.values()) + (dead if k == 0 else 0)
        prev = level
        if amount <= 0:
            continue
        eligible = [s for s in order if s in live and contributed[s] >= level]
        best = min(strength[s] for s in eligible)
        winners = [s for s in eligible if strength[s] == best]
        share = amount // len(winners) // unit * unit
        odd = amount - share * len(winners)
        for s in winners:
            extra = min(unit, odd)
            odd -= extra
            won[s] = won.get(s, 0) + share + extra
    return won
