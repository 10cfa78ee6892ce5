"""Players that make one irregularity in an otherwise clean hand, then carry out the engine's ruling.

Each class is one fault class the engine rules on (a "Chips and betting" row a sensor or a tap can raise). It
injects at its first chance in the hand (the chance comes at random, so the fault lands anywhere in the hand),
remembers where in the event stream the fault was, and applies the ruling's remedy the way a dealer would.
Every remedy here restores the clean hand, so the hand must end with pokerkit's stacks (play_one checks them),
and ``check_findings`` asks: the expected rule at the fault, and nothing above ``info`` anywhere else.
"""

from __future__ import annotations

from dealerbox.engine import events as te
from dealerbox.tags import ChipTag
from tests.test_crosscheck_pokerkit import CleanPlayers

LOUD = ("dealer", "floor")


class FaultyPlayers(CleanPlayers):
    expected: tuple[str, ...] = ()      # rule ids the ruling may carry (the row's rule, or its sibling)
    chance = 0.35                       # per opportunity: spreads the fault over the streets
    straddle_table = False              # the table allows a live straddle, and the seat left of the big blind takes it

    def __init__(self, *args) -> None:
        super().__init__(*args)
        self.fault: tuple[int, int] | None = None    # (first, last) index of the fault's events in game.events

    def _inject(self, seat: int, amount: int) -> bool:
        """Whether to make the fault now: once a hand, at a random one of its chances."""
        return self.fault is None and self.rng.random() < self.chance

    def _mark(self, start: int) -> None:
        self.fault = (start, len(self.game.events))

    def _remove(self, seat: int, chips: list[ChipTag]) -> None:
        for chip in chips:
            self.game.events += self.hand.chip_left(self.game.t, seat, chip)
        self.game._step()

    def check_findings(self, context) -> None:
        events = self.game.events
        loud = [(i, e) for i, e in enumerate(events) if isinstance(e, te.FindingRaised) and e.severity in LOUD]
        if self.fault is None:
            assert not loud, (loud, context)
            return
        first, last = self.fault
        at_fault = [e.rule for i, e in loud if first <= i < last]
        elsewhere = [e for i, e in loud if not first <= i < last]
        assert at_fault and set(at_fault) <= set(self.expected), (type(self).__name__, at_fault, context)
        assert not elsewhere, (type(self).__name__, elsewhere, context)
        self.stats[f"injected {type(self).__name__}"] += 1


class ShortCall(FaultyPlayers):
    """A call one chip short, not all-in (Betting 16; Betting 12 when it matches the bet before a raise):
    ruled brought up, and the dealer has the player add the chip."""
    expected = ("betting.16", "betting.12")

    def call(self, seat: int, amount: int) -> None:
        if amount >= 2 and amount < self.hand.ledger.stack(seat) and self._inject(seat, amount):
            start = len(self.game.events)
            self.game.put(seat, amount - 1)
            self._mark(start)
            self.game.put(seat, 1)
            return
        super().call(seat, amount)


class ForeignChip(FaultyPlayers):
    """A chip of another card room in the call (Procedures 3): it does not play; it is handed back."""
    expected = ("procedures.3",)

    def call(self, seat: int, amount: int) -> None:
        if self._inject(seat, amount):
            start = len(self.game.events)
            chips = self.game.box.make(amount) + [self.game.chip(5, "OTHER")]
            self.game.put(seat, chips=chips)
            self._mark(start)
            return
        super().call(seat, amount)


class StringRaise(FaultyPlayers):
    """A call, then one more chip in a second motion without a word (Betting 14): the call stands and the
    chip goes back."""
    expected = ("betting.14",)

    def call(self, seat: int, amount: int) -> None:
        super().call(seat, amount)
        if self.hand.ledger.stack(seat) >= 1 and self.hand.in_hand(seat) and not self.hand.all_in(seat) and \
                self._inject(seat, amount):
            start = len(self.game.events)
            extra = [self.game.chip(1)]
            self.game.put(seat, chips=extra)
            self._mark(start)
            self._remove(seat, extra)


class LoneChip(FaultyPlayers):
    """A call made with one chip bigger than the call, without a word (No-Limit 9, Betting 15): it is a call
    and the change goes back (from the dealer's float: the chip stays in the zone)."""
    expected = ("no-limit.9", "betting.15")

    def call(self, seat: int, amount: int) -> None:
        chip = next((v for v in (5, 25, 100, 500) if v > amount), None)
        if chip is not None and chip <= self.hand.ledger.stack(seat) and self._inject(seat, amount):
            start = len(self.game.events)
            self.game.put(seat, chips=[self.game.chip(chip)])
            self._mark(start)
            return
        super().call(seat, amount)


class OverThePot(FaultyPlayers):
    """Pot limit: a raise to the pot with one chip too many (Pot-Limit 1, 4, 6): cut back to the pot, the
    chip goes back."""
    expected = ("pot-limit.1", "pot-limit.4", "pot-limit.6")

    def raise_by(self, seat: int, amount: int) -> None:
        b = self.hand.seats[seat]
        _, max_to = self.hand.wagers.raise_range(seat, b.wager + self.hand.ledger.stack(seat))
        if self.hand.structure.kind == "pot-limit" and b.wager + amount == max_to and \
                amount + 1 <= self.hand.ledger.stack(seat) and self._inject(seat, amount):
            start = len(self.game.events)
            chips = self.game.box.make(amount, (1,)) if amount < 8 else self.game.box.make(amount)
            extra = [self.game.chip(1)]
            self.game.put(seat, chips=chips + extra)
            self._mark(start)
            self._remove(seat, extra)
            return
        super().raise_by(seat, amount)


class PotSizedChip(FaultyPlayers):
    """Pot limit: an opening bet of the pot made with one chip larger than the pot, without a word (Pot-Limit 7):
    it is a pot-sized bet, and the change goes back (from the dealer's float: the chip stays in the zone)."""
    expected = ("pot-limit.7",)
    chance = 1.0                        # an opening bet of exactly the pot is rare enough

    def raise_by(self, seat: int, amount: int) -> None:
        b = self.hand.seats[seat]
        _, max_to = self.hand.wagers.raise_range(seat, b.wager + self.hand.ledger.stack(seat))
        chip = next((v for v in (5, 25, 100, 500) if v > amount), None)
        if self.hand.structure.kind == "pot-limit" and self.hand.current_bet == 0 and b.wager + amount == max_to \
                and chip is not None and chip <= self.hand.ledger.stack(seat) and self._inject(seat, amount):
            start = len(self.game.events)
            self.game.put(seat, chips=[self.game.chip(chip)])
            self._mark(start)
            return
        super().raise_by(seat, amount)


class ShortRaise(FaultyPlayers):
    """A minimum bet or raise one chip short, not all-in: brought up to the minimum (No-Limit 2, 10 in big-bet
    games; Betting 14 or 16 in limit), and the dealer has the player add the chip."""
    expected = ("no-limit.2", "no-limit.10", "betting.14", "betting.16")

    def raise_by(self, seat: int, amount: int) -> None:
        b = self.hand.seats[seat]
        min_to, _ = self.hand.wagers.raise_range(seat, b.wager + self.hand.ledger.stack(seat))
        short = b.wager + amount - 1 - self.hand.current_bet
        if b.wager + amount == min_to and amount < self.hand.ledger.stack(seat) and short * 2 >= min_to - \
                self.hand.current_bet and short > 0 and self._inject(seat, amount):
            start = len(self.game.events)
            self.game.put(seat, amount - 1)
            self._mark(start)
            self.game.put(seat, 1)
            return
        super().raise_by(seat, amount)


class OutOfTurnCall(FaultyPlayers):
    """The issue's case: the next seat puts in a call out of turn (Betting 10); the seat whose turn it was then
    calls or raises, so the chips stop binding. When they still match the call the engine asks the dealer;
    the answer (or taking the chips back) follows what the player really does next."""
    expected = ("betting.10",)

    def __init__(self, *args) -> None:
        super().__init__(*args)
        self.early: tuple[int, int] | None = None       # (seat, chips it put in out of turn)

    def _out_of_turn(self, seat: int) -> None:
        pending = self.hand.round.pending
        if self.fault is not None or self.hand.to_act != seat or len(pending) < 2:
            return
        nxt = pending[1]
        b = self.hand.seats[nxt]
        owed = self.hand.current_bet - b.wager
        if 0 < owed < self.hand.ledger.stack(nxt) and self._inject(nxt, owed):
            start = len(self.game.events)
            self.game.put(nxt, owed)
            self._mark(start)
            self.early = (nxt, owed)

    def _settle_early(self, seat: int, move: str, amount: int = 0) -> bool:
        """At the early seat's turn: answer the question the way the player acted. True when standing by the
        chips was the whole move."""
        if self.early is None or self.early[0] != seat:
            return False
        _, put = self.early
        self.early = None
        q = self.hand.question
        stands = move == "call" and amount == put
        if q is not None and q.seat == seat:
            self.stats["questions asked"] += 1
            self.game.events += self.hand.answer(self.game.t, q.id, "stands" if stands else "takes-back")
            self.game._step()
        if stands:
            return True             # the player leaves the chips in: that is the call, whether asked or not
        zone = self.hand.seats[seat].zone
        taken, got = [], 0
        for uid, value in reversed(list(zone.items())):   # the chips put in out of turn came in last
            if got >= put:
                break
            taken.append(ChipTag(uid, "DEMO", value))
            got += value
        assert got == put, (seat, put, zone)
        self._remove(seat, taken)
        return False

    def fold(self, seat: int) -> None:
        self._settle_early(seat, "fold")
        super().fold(seat)

    def call(self, seat: int, amount: int) -> None:
        if self._settle_early(seat, "call", amount):
            return
        self._out_of_turn(seat)
        super().call(seat, amount)

    def raise_by(self, seat: int, amount: int) -> None:
        self._settle_early(seat, "raise")
        self._out_of_turn(seat)
        super().raise_by(seat, amount)


class _CallPlusExtra(FaultyPlayers):
    """A call with ``extra`` chips more in the same motion, where the rulebook lets the extra not play: ruled
    a call, and the dealer hands the extra back."""

    def _extra(self, seat: int, amount: int) -> int:
        """Chips over the call this class puts in now (0: no chance for the fault here)."""
        raise AssertionError("each fault class says how much it over-calls")

    def call(self, seat: int, amount: int) -> None:
        extra = self._extra(seat, amount) if self.fault is None else 0
        if 0 < extra and amount + extra < self.hand.ledger.stack(seat) and amount + extra <= 200 and \
                self._inject(seat, amount):
            start = len(self.game.events)
            over = [self.game.chip(1) for _ in range(extra)]
            self.game.put(seat, chips=self.game.box.make(amount, (1,)) + over)
            self._mark(start)
            self._remove(seat, over)
            return
        super().call(seat, amount)


class RaiseNotAllowed(_CallPlusExtra):
    """A raise where none is allowed: past the cap in limit (Betting 3, and Betting 4 once capped multiway),
    or by a player who already acted and faces only a short all-in (Betting 5, No-Limit 3). It is a call;
    the raise chips go back."""
    expected = ("betting.3", "betting.5", "no-limit.3")
    chance = 0.6

    def _extra(self, seat: int, amount: int) -> int:
        allowed, rule, _ = self.hand.wagers.may_raise(seat)
        if allowed or rule not in self.expected:
            return 0
        self.stats[f"chance {rule}"] += 1
        st = self.hand.structure
        return st.unit(self.hand.street) if st.is_limit else max(st.big_blind, self.hand.current_bet)


class UnderRaise(_CallPlusExtra):
    """Limit: a call with chips over it worth less than half a bet, without a word (Betting 6): a call, the
    odd chips go back."""
    expected = ("betting.6",)

    def _extra(self, seat: int, amount: int) -> int:
        if not self.hand.structure.is_limit or not self.hand.wagers.may_raise(seat)[0]:
            return 0
        return (self.hand.structure.unit(self.hand.street) - 1) // 2


class ChipsFromAFoldedSeat(FaultyPlayers):
    """Chips land in the bet zone of a seat that has folded or is all in (Betting 10: no action, they do not
    play): handed back, and the seat to act then calls as it meant to."""
    expected = ("betting.10",)

    def call(self, seat: int, amount: int) -> None:
        idle = [s for s, b in sorted(self.hand.seats.items()) if (b.folded or b.all_in) and s != seat]
        if idle and self._inject(seat, amount):
            start = len(self.game.events)
            idler = self.rng.choice(idle)
            chips = [self.game.chip(self.rng.choice((1, 5)))]
            self.game.put(idler, chips=chips)
            self._mark(start)
            self._remove(idler, chips)
            self.stats["into an all-in seat" if self.hand.seats[idler].all_in else "into a folded seat"] += 1
        super().call(seat, amount)


class StraddleOutOfPlace(FaultyPlayers):
    """Before the deal a player who is not left of the big blind (or at a table without straddles, anyone)
    puts in twice the big blind as a straddle (No-Limit 12; Blinds 15 at limit): it does not play, the player
    takes it back, and the hand is dealt as usual."""
    expected = ("no-limit.12",)
    chance = 0.5

    def before_deal(self, order: list[int]) -> None:
        bb = self.hand.structure.big_blind
        idle = [s for s in order if not self.hand.seats[s].posted and self.hand.ledger.stack(s) > 2 * bb]
        if idle and self._inject(idle[0], 2 * bb):
            seat = self.rng.choice(idle)
            start = len(self.game.events)
            chips = [self.game.chip(1) for _ in range(2 * bb)]
            self.game.put(seat, chips=chips)
            self._mark(start)
            self._remove(seat, chips)


class InfoRuled(FaultyPlayers):
    """A fault class whose row is ruled at ``info`` (``info_rule``): the hand plays on as the player meant it, so
    nothing is for the dealer in the whole hand, and the ruling said at the fault is that info row alone."""
    info_rule = ""

    def check_findings(self, context) -> None:
        events = self.game.events
        loud = [e for e in events if isinstance(e, te.FindingRaised) and e.severity in LOUD]
        assert not loud, (loud, context)
        if self.fault is not None:
            first, last = self.fault
            said = [(e.rule, e.severity) for e in events[first:last] if isinstance(e, te.FindingRaised)]
            assert said == [(self.info_rule, "info")], (said, context)
            self.stats[f"injected {type(self).__name__}"] += 1


class StraddleInPlace(InfoRuled):
    """A live straddle in its place (No-Limit 12): the player left of the big blind puts in twice the big blind
    before the deal at a table that allows it. Ruled at ``info`` (live, acts last before the flop), and the stacks
    are pokerkit's with the same straddle."""
    info_rule = "no-limit.12"
    straddle_table = True

    def straddle(self, seat: int, amount: int) -> None:
        start = len(self.game.events)
        super().straddle(seat, amount)
        self._mark(start)


class HeadsUpPastTheCap(InfoRuled):
    """Heads-up limit, the players raise on past the cap (Betting and Raising 4: unlimited heads-up, the round
    never having been capped with more players). Ruled at ``info`` (the raise stands), and the stacks are
    pokerkit's with the cap lifted for two players."""
    info_rule = "betting.4"
    heads_up = True
    raise_below = 0.9

    def raise_by(self, seat: int, amount: int) -> None:
        start = len(self.game.events)
        super().raise_by(seat, amount)
        if self.fault is None and any(isinstance(e, te.FindingRaised) and e.rule == self.info_rule
                                      for e in self.game.events[start:]):
            self._mark(start)


FAULTS = (ShortCall, ForeignChip, StringRaise, LoneChip, OverThePot, PotSizedChip, ShortRaise, OutOfTurnCall,
          RaiseNotAllowed,
          UnderRaise, ChipsFromAFoldedSeat, StraddleOutOfPlace, StraddleInPlace,
          HeadsUpPastTheCap)
