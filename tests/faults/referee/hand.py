"""One hand, refereed from the rules: given the posts (:class:`Deal`), it follows every action in turn, says
whether it was the seat's turn and a legal amount, and at the end builds the pots and pushes them.

What it follows, in the rulebook's words paraphrased:
- Button and Blind Use: the first round opens with the player left of the big blind, every later round with the
  first active player left of the button; heads-up the button posts the small blind and acts first before the
  flop, last after (Blinds 3). A post is part of the poster's bet and leaves it the option to raise (Blinds 2, 8,
  9); dead chips are not part of anyone's bet (Blinds 9), they go to the middle.
- Kill Pots: the killer acts in proper turn (2); the kill is part of the pot (7); the limits are raised with it
  (the section's preamble: x2 a full kill, x1.5 a half kill), which the caller gives as :class:`Limits`.
- No-Limit 2, 3, 10: a bet at least the bring-in, a raise at least the previous bet or raise, except all in; an
  all-in short of a full raise does not reopen the betting for players who already acted. Pot-Limit 4: the
  largest raise is the pot after the call. Limit: bets and raises of the street's size (Betting 5: an all-in of
  half a bet or more counts as a full bet, less does not reopen).
- Ties 5: a tie splits each pot on its own (5d), an odd chip to the first hand clockwise from the button (5a).
- Bomb pots (house practice; dealerbox's catalogue rows bomb-pot.1 and .2): every player dealt in posts the agreed
  amount (all of a shorter stack: it is all in), the posts are part of each poster's stake but no bet of a round,
  there is no round before the flop, and the flop's round opens with the first active player left of the button.
- Two boards (a double-board bomb pot, runs agreed; catalogue row boards.1, No-Limit 14, Ties 3 and 5a): each pot
  is divided equally by board in the smallest chip, the odd chips to board 1, and each board's part goes to that
  board's best hands as a pot of its own.
- High-low split games (Omaha eight or better): each pot on its own is halved between its best high and its best
  low of eight or better, the odd chip of the halving to the high (Ties 5c); a pot none of whose players makes a
  low goes whole to the high. A player who takes both halves (or the whole pot without a low) scoops it.
"""

from __future__ import annotations

from dataclasses import KW_ONLY, dataclass, field

from tests.faults.referee.cards import low, strength

STREETS = ("preflop", "flop", "turn", "river")


class RefereeError(AssertionError):
    """The record breaks a rule the referee follows: not the seat's turn, or an amount the rules do not allow."""


@dataclass(frozen=True)
class Limits:
    """How much a wager may be: ``structure`` "no-limit", "pot-limit" or "limit"; ``small`` the bring-in and the
    unit of the first two rounds (the big blind in big-bet games), ``big`` of the last two (both already raised
    by a kill)."""
    structure: str
    small: int
    big: int

    def unit(self, street: str) -> int:
        return self.small if street in ("preflop", "flop") else self.big


@dataclass(frozen=True)
class Deal:
    """A hand as the cards are dealt: the button, the seats dealt in (clockwise from the first left of the
    button), their stacks before any post, the posts that play (``live``: blinds, a kill, a make-up's live
    part, a new player's big blind) and the dead money (``dead``), the seat that posted the big blind (the first
    round opens left of it) and the limits."""
    button: int
    order: tuple[int, ...]
    stacks: dict[int, int]
    live: dict[int, int]
    dead: dict[int, int]
    big_blind: int | None
    limits: Limits
    small_blind: int | None = None
    option: bool = False        # Pot-Limit 6: the small blind counts as a big blind when the pot is sized preflop
    _: KW_ONLY                  # the practices by name: a flag passed by place once landed in the wrong field
    bomb: int = 0               # a bomb pot: every seat dealt in posts this before the deal; 0: a hand with blinds
    split: bool = False         # a high-low split game: each pot halved between the high and the low


@dataclass
class Pot:
    amount: int
    eligible: tuple[int, ...]
    winners: tuple[int, ...] = ()      # everyone who takes a share (high and low)
    shares: dict[int, int] = field(default_factory=dict)
    by_board: tuple[tuple[int, ...], ...] = ()    # each board's winners (1 board: the winners)
    lows: tuple[int, ...] = ()         # a split game's low half winners (none: the pot went whole to the high)

    def scooped_by(self) -> int | None:
        """The one player who took this pot whole (both halves, or all of it when nobody made a low)."""
        return self.winners[0] if len(self.winners) == 1 else None


@dataclass
class Outcome:
    """The referee's account of a hand: every pot with its winners and shares, the stacks after the hand, the
    uncalled chips handed back, and what each seat put in that played (dead money aside)."""
    pots: list[Pot]
    stacks: dict[int, int]
    returned: dict[int, int]
    put_in: dict[int, int]
    folded: frozenset[int]


class HandReferee:
    """One hand's betting, followed action by action (:meth:`act`), then the pots (:meth:`finish`).

    >>> d = Deal(3, (1, 2, 3), {1: 100, 2: 100, 3: 100}, {1: 1, 2: 2}, {}, 2, Limits("no-limit", 2, 2))
    >>> r = HandReferee(d)
    >>> r.to_act
    3
    >>> r.act("preflop", 3, "raise", 6); r.act("preflop", 1, "fold", 0); r.act("preflop", 2, "fold", 0)
    >>> r.finish({}, ()).stacks
    {1: 99, 2: 98, 3: 103}
    """

    def __init__(self, deal: Deal, smallest_chip: int = 1) -> None:
        self.deal = deal
        self.chip = smallest_chip
        self.stacks = dict(deal.stacks)
        self.bets: dict[int, int] = {s: 0 for s in deal.order}
        self.put_in: dict[int, int] = {s: 0 for s in deal.order}
        self.folded: set[int] = set()
        for seat, amount in deal.dead.items():
            self.stacks[seat] -= amount
        for seat, amount in deal.live.items():
            amount = min(amount, self.stacks[seat])
            self.stacks[seat] -= amount
            self.bets[seat] += amount
            self.put_in[seat] += amount
        for seat in deal.order if deal.bomb else ():    # a post, not a bet: the flop's round starts from nothing
            amount = min(deal.bomb, self.stacks[seat])
            self.stacks[seat] -= amount
            self.put_in[seat] += amount
        self.street = 1 if deal.bomb else 0             # a bomb pot has no round before the flop
        self.bb_acted = False
        self._open_round()

    # --- the betting ----------------------------------------------------------------------------------------
    @property
    def street_name(self) -> str:
        return STREETS[self.street] if self.street < len(STREETS) else "showdown"

    def _in_hand(self) -> list[int]:
        return [s for s in self.deal.order if s not in self.folded]

    def _can_act(self, seat: int) -> bool:
        return seat not in self.folded and self.stacks[seat] > 0

    def _open_round(self) -> None:
        """A betting round starts: everyone able to act must act once; who opens it (Button and Blind Use)."""
        order = self.deal.order
        self.current = max(self.bets.values(), default=0)
        self.last_raise = self.deal.limits.unit(self.street_name)
        self.raises = 0
        self.pending = [s for s in order if self._can_act(s)]
        self.may_raise = set(self.pending)
        if self.street == 0:
            heads_up = len(order) == 2 and self.deal.button in order
            opener = self.deal.button if heads_up else self._after(self.deal.big_blind)
        else:
            opener = order[0]
        self.last = self._before(opener)
        # nobody left to bet against: one player able to act, facing nothing more
        if len([s for s in self._in_hand() if self.stacks[s] > 0]) <= 1 and \
                all(self.bets[s] >= self.current for s in self.pending):
            self.pending = []

    def _after(self, seat: int | None) -> int:
        order = self.deal.order
        if seat is None or seat not in order:
            return order[0]
        return order[(order.index(seat) + 1) % len(order)]

    def _before(self, seat: int) -> int:
        order = self.deal.order
        return order[(order.index(seat) - 1) % len(order)]

    @property
    def to_act(self) -> int | None:
        """The seat whose turn it is (None: the round is over)."""
        if not self.pending:
            return None
        order = self.deal.order
        start = order.index(self.last)
        return next(order[(start + k) % len(order)] for k in range(1, len(order) + 1)
                    if order[(start + k) % len(order)] in self.pending)

    def act(self, street: str, seat: int, kind: str, to: int) -> None:
        """One action of the record: ``kind`` fold, check, call, bet or raise; ``to`` the seat's wager in the round
        after it. Raises RefereeError when it is not the seat's turn, or not an amount the rules allow."""
        where = f"{street} seat {seat} {kind} {to}"
        if street != self.street_name:
            raise RefereeError(f"{where}: the referee is at the {self.street_name}")
        if seat != self.to_act:
            raise RefereeError(f"{where}: seat {self.to_act} is to act (Button and Blind Use; Kill Pots 2)")
        facing = self.current - self.bets[seat]
        if kind == "fold":
            self.folded.add(seat)
        elif kind == "check":
            if facing:
                raise RefereeError(f"{where}: a check facing {facing}")
        elif kind == "call":
            if not facing or to != min(self.current, self.bets[seat] + self.stacks[seat]):
                raise RefereeError(f"{where}: the call is to {self.current}")
            self._put(seat, to)
        elif kind in ("bet", "raise"):
            self._wager(where, seat, to)
        else:
            raise RefereeError(f"{where}: no such action")
        self.bb_acted = self.bb_acted or seat == self.deal.big_blind
        if seat in self.pending:
            self.pending.remove(seat)
        self.may_raise.discard(seat)
        self.last = seat
        self._close_round()

    def _put(self, seat: int, to: int) -> None:
        more = to - self.bets[seat]
        self.stacks[seat] -= more
        self.bets[seat] = to
        self.put_in[seat] += more

    def _wager(self, where: str, seat: int, to: int) -> None:
        lim = self.deal.limits
        all_in = to == self.bets[seat] + self.stacks[seat]
        if to <= self.current or to > self.bets[seat] + self.stacks[seat]:
            raise RefereeError(f"{where}: a wager must be above {self.current} and within the stack")
        if seat not in self.may_raise:
            raise RefereeError(f"{where}: the betting was not reopened for a seat that already acted "
                               "(No-Limit 3; Betting 5)")
        raise_by = to - self.current
        unit = lim.unit(self.street_name)
        if lim.structure == "limit":
            full = raise_by >= unit or 2 * raise_by >= unit and all_in
            if raise_by > unit or (raise_by < unit and not all_in):
                raise RefereeError(f"{where}: limit wagers go up by {unit}")
        else:
            full = raise_by >= self.last_raise
            if not full and not all_in:
                raise RefereeError(f"{where}: at least {self.current + self.last_raise} (No-Limit 2, 3, 10)")
            if lim.structure == "pot-limit":
                pot = sum(self.put_in.values()) + sum(self.deal.dead.values()) + self._option()
                top = self.current + pot + facing_of(self.current, self.bets[seat])
                if to > top:
                    raise RefereeError(f"{where}: the pot allows {top} at most (Pot-Limit 1, 4)")
        self._put(seat, to)
        if full:
            self.last_raise = max(raise_by, unit) if lim.structure != "limit" else unit
            self.raises += 1
        self.current = to
        # everyone else able to act answers it; after a full raise they may raise again (reopened)
        self.pending = [s for s in self.deal.order if s != seat and self._can_act(s)]
        if full:
            self.may_raise = set(self.pending)

    def _option(self) -> int:
        """Pot-Limit 6: while the big blind has not acted on the first round, the small blind, still as posted,
        counts as a big blind in the pot's size."""
        d, small = self.deal, self.deal.small_blind
        if not d.option or self.street or self.bb_acted or small is None or d.big_blind is None:
            return 0
        return max(0, d.live.get(d.big_blind, 0) - self.put_in[small]) if self.put_in[small] == d.live.get(small) \
            else 0

    def _close_round(self) -> None:
        in_hand = self._in_hand()
        if len(in_hand) == 1:
            self.pending, self.street = [], len(STREETS)
            return
        self.pending = [s for s in self.pending if self._can_act(s)]
        if self.pending:
            return
        # the round is over: the next street, or straight to the showdown when nobody can bet any more
        self.street += 1
        if self.street >= len(STREETS) or sum(1 for s in in_hand if self.stacks[s] > 0) <= 1:
            self.street = len(STREETS)
            return
        self.bets = {s: 0 for s in self.deal.order}
        self._open_round()

    # --- the pots ---------------------------------------------------------------------------------------------
    def finish(self, holes: dict[int, tuple[str, ...]], board: tuple[str, ...],
               more_boards: tuple[tuple[str, ...], ...] = ()) -> Outcome:
        """The hand is over: the uncalled chips back, the pots built and pushed, the stacks after. ``more_boards``:
        boards 2.. of a hand dealt on several (each pot divided by board, odd chips to board 1)."""
        # the last seat able to act, facing nothing (the others all in): whether it checks is no decision
        able = [s for s in self._in_hand() if self.stacks[s] > 0]
        if self.pending and not (len(able) == 1 and self.bets[able[0]] >= self.current):
            raise RefereeError(f"the hand ended with seat {self.to_act} still to act at the {self.street_name}")
        in_hand = self._in_hand()
        put = dict(self.put_in)
        returned: dict[int, int] = {}
        # an uncalled bet goes back: what the top wager has beyond the next one
        top = max(put, key=lambda s: put[s])
        second = max((v for s, v in put.items() if s != top), default=0)
        if put[top] > second:
            returned[top] = put[top] - second
            put[top] = second
        pots = self._pots(put, in_hand)
        boards = (board, *more_boards) if len(in_hand) > 1 else (board,)
        reads = [{s: strength(holes.get(s, ()), b) for s in in_hand} if len(in_hand) > 1 else {} for b in boards]
        stacks = dict(self.stacks)
        for seat, amount in returned.items():
            stacks[seat] += amount
        split = self.deal.split and len(in_hand) > 1
        low_reads = [{s: low(holes.get(s, ()), b) for s in in_hand} if split else {} for b in boards]
        for pot in pots:
            by_board, pot_lows = [], []
            for ranks, lows, part in zip(reads, low_reads, self._by_board(pot.amount, len(boards)), strict=True):
                best = min(ranks[s] for s in pot.eligible) if ranks else None
                highs = tuple(s for s in pot.eligible if not ranks or ranks[s] == best)
                made = [lows[s] for s in pot.eligible if lows.get(s) is not None]
                low_half = part // self.chip // 2 * self.chip
                board_lows = tuple(s for s in pot.eligible if made and low_half and lows.get(s) == min(made))
                shares = self._split(part, highs)
                if board_lows:    # Ties 5c: halved, the odd chip of the halving to the high
                    shares = self._split(part - low_half, highs)
                    for seat, amount in self._split(low_half, board_lows).items():
                        shares[seat] = shares.get(seat, 0) + amount
                for seat, amount in shares.items():
                    pot.shares[seat] = pot.shares.get(seat, 0) + amount
                by_board.append(tuple(s for s in pot.eligible if s in highs or s in board_lows))
                pot_lows += [s for s in board_lows if s not in pot_lows]
            pot.by_board = tuple(by_board)
            pot.lows = tuple(s for s in pot.eligible if s in pot_lows)
            pot.winners = tuple(s for s in pot.eligible if any(s in w for w in by_board))
            for seat, amount in pot.shares.items():
                stacks[seat] += amount
        return Outcome(pots, stacks, returned, put, frozenset(self.folded))

    def _by_board(self, amount: int, boards: int) -> list[int]:
        """A pot divided equally among ``boards`` in the smallest chip (Ties 3), the odd chips to board 1."""
        each = amount // (boards * self.chip) * self.chip
        return [amount - each * (boards - 1)] + [each] * (boards - 1)

    def _pots(self, put: dict[int, int], in_hand: list[int]) -> list[Pot]:
        """Main pot and side pots: one layer per all-in level of the players still in; folded chips and dead
        money stay in the pots they reach (dead money in the main pot)."""
        levels = sorted({put[s] for s in in_hand if put[s] > 0})
        pots: list[Pot] = []
        below = 0
        for level in levels:
            amount = sum(min(v, level) - min(v, below) for v in put.values())
            eligible = tuple(s for s in self.deal.order if s in in_hand and put[s] >= level)
            if pots and pots[-1].eligible == eligible:
                pots[-1].amount += amount
            else:
                pots.append(Pot(amount, eligible))
            below = level
        if not pots:
            pots.append(Pot(0, tuple(in_hand)))
        pots[0].amount += sum(self.deal.dead.values())
        leftover = sum(max(0, v - below) for v in put.values())     # a folded wager above every live one
        pots[-1].amount += leftover
        return pots

    def _split(self, amount: int, winners: tuple[int, ...]) -> dict[int, int]:
        return split_tie(amount, winners, self.chip)


def split_tie(amount: int, winners: tuple[int, ...], chip: int = 1) -> dict[int, int]:
    """Ties 5a: equal shares in the smallest chip, the odd chips one each, first to the first winner clockwise from
    the button (``winners`` come in that order: the deal's).

    >>> split_tie(25, (7, 2), 5)
    {7: 15, 2: 10}
    """
    n = len(winners)
    each = amount // (n * chip) * chip
    shares = {s: each for s in winners}
    odd = amount - each * n
    for seat in winners:
        give = min(chip, odd)
        shares[seat] += give
        odd -= give
    return shares


def facing_of(current: int, bet: int) -> int:
    """What a seat with ``bet`` in must add to call ``current``."""
    return max(0, current - bet)
