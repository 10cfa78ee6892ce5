"""Antes and the big-blind ante (``game.ante``, ``game.big_blind_ante``), read from the chips like the blinds.

Every player dealt in puts the ante in their bet zone before the deal (with the big-blind ante, only the big
blind, for the whole table); the dealer gathers it with the first round's bets. A motion's chips pay the
blind first and the ante from what is above it; a motion that fits the ante and is not more than the blind
is the ante alone (with the big-blind ante, a motion of exactly the blind is the blind). So ante and blind
may come in one motion or two, in either order. A player putting in every chip
they have pays the ante before the blind, but the big blind before the big-blind ante (the order of
:func:`forced_posts`, Tournaments 19: the one home of the posting order, which the tournament rulings use too).

In the pots an ante is the seat's own contribution (a player all-in for part of it wins that much from each
other player); the big-blind ante is dead money in the main pot. docs/betting.md tells the whole story.
"""

from __future__ import annotations

from ...rulebook import forced_posts, short_post_ruling   # the posting order: its home is below the engine
from .. import events as te
from .betting_turn import BettingTurn
from .ledger import HandLedger
from .posting import Posting
from .pots import uncalled


def ante_dues(ante: int, big_blind_ante: int, dealt_in: list[int], big_blind: int | None) -> dict[int, int]:
    """What each seat dealt in owes before the deal: ``{seat: amount}``.

    >>> ante_dues(5, 0, [1, 3, 4], 4)
    {1: 5, 3: 5, 4: 5}
    >>> ante_dues(0, 200, [1, 3, 4], 4)
    {4: 200}
    """
    if ante:
        return {s: ante for s in dealt_in}
    if big_blind_ante and big_blind in dealt_in:
        return {big_blind: big_blind_ante}
    return {}



class Antes:
    """Part of :class:`HandBetting`: the antes owed (``due``), posted (``paid``) and judged when the deal
    starts. It asks ``posting`` which blind a seat owes, since a motion's chips pay the blind first."""

    def __init__(self, ledger: HandLedger, posting: Posting, turn: BettingTurn, is_tournament: bool,
                 bomb: int = 0) -> None:
        self.ledger = ledger
        self.posting = posting
        self.turn = turn
        self.is_tournament = is_tournament
        self.bomb = bomb     # a bomb pot (house practice): every player posts it as an ante, no preflop round
        game = ledger.game
        self.big_blind_ante = bool(game.big_blind_ante and not game.ante and not bomb)
        self.due = ({s: bomb for s in ledger.order} if bomb else
                    ante_dues(game.ante, game.big_blind_ante, ledger.order, ledger.positions.big_blind))
        self.paid: dict[int, int] = {}

    def antes_in(self, t: float, seat: int) -> list[te.TableEvent]:
        """The chips of a closed motion that pay ``seat``'s ante; what is above it plays as a blind or a bet."""
        led = self.ledger
        b = led.seats.get(seat)
        due = self.due.get(seat, 0) - self.paid.get(seat, 0)
        if b is None or due <= 0 or led.street != "preflop" or b.voluntary or not b.live or b.all_in or led.lost:
            return []
        if led.dealing and seat == led.to_act:
            return []         # the player to act is acting: the missing ante was already flagged at the deal
        fresh = b.present - max(b.credited, b.wager)
        stack = led.stack(seat)
        if fresh <= 0 or stack <= 0:
            return []
        kind, blind = self.posting.required.get(seat, ("", 0)) if not b.posted else ("", 0)
        blind = blind if kind in ("sb", "bb") else 0
        if fresh >= stack:                              # all in: the posting order of forced_posts
            own = (0, blind, 0, due) if self.big_blind_ante else (blind, 0, due, 0)
            posts = forced_posts({seat: fresh}, seat if blind and not self.big_blind_ante else None,
                                 seat if self.big_blind_ante else 0, own)
            amount = sum(p.amount for p in posts if p.what in ("ante", "big blind ante"))
        elif fresh <= due and (fresh < blind or (fresh == blind and not self.big_blind_ante)):
            amount = fresh                              # the ante alone, before the blind (ante first on a tie)
        else:
            amount = min(due, max(0, fresh - blind))    # the blind first, the ante from what is above it
        amount = min(amount, stack)
        if amount <= 0:
            return []
        b.ante_in(amount)
        self.paid[seat] = self.paid.get(seat, 0) + amount
        led.take(seat, amount)
        if self.big_blind_ante:
            led.dead_in(seat, amount)
        else:
            led.contribute(seat, amount)
        out: list[te.TableEvent] = [te.ActionTaken(t, led.hand, seat, "ante", amount, b.wager, led.street)]
        if led.stack(seat) == 0:
            b.went_all_in()
            if amount < self.due[seat]:
                out += self.short_ante(t, seat)
            if not led.round.voluntary_actions and not self.bomb:
                led.round.turn_order(self.turn.preflop_order())
                out += self.turn.advance(t)
        return out

    def return_unmatched(self) -> None:
        """The hand is over: an ante nobody matched (everyone else all-in for less, or folded having put in
        less) goes back to its seat, as an unmatched bet does; pokerkit trims antes the same way."""
        led = self.ledger
        if not self.paid or self.big_blind_ante:
            return
        totals = {s: led.contributed[s] + b.wager for s, b in led.seats.items()}
        seat, extra = uncalled(totals)
        if seat is not None and extra and led.seats[seat].live:
            led.give(seat, extra)

    def short_ante(self, t: float, seat: int) -> list[te.TableEvent]:
        """All in for part of the ante: at a tournament table Tournaments 19 says so; at a cash table an all-in
        for less is simply all in."""
        if not self.is_tournament:
            return []
        paid, due = self.paid[seat], self.due[seat]
        what = "big blind ante" if self.big_blind_ante else "ante"
        return [self.ledger.finding(t, "tournament.19", "info", "continues",
                                    short_post_ruling(seat, paid, due, what) + ".",
                              (seat,))]

    def dealt_around(self, seat: int) -> None:
        """The deal passed ``seat`` (it owed a post and waits): no ante is due from it this hand."""
        self.due.pop(seat, None)

    def at_deal(self, t: float, later: set[int] | frozenset[int] = frozenset()) -> list[te.TableEvent]:
        """The first card left the shoe: an ante not posted, or posted short with chips behind, is flagged
        (Blinds 10: dealt in owing a forced post); the player antes now, or brings it up. ``later``: seats judged
        when the deal reaches them (``unpaid``), since it may pass them instead."""
        out: list[te.TableEvent] = []
        for seat in self.due:
            if seat not in later:
                out += self.unpaid(t, seat)
        return out

    def unpaid(self, t: float, seat: int) -> list[te.TableEvent]:
        """``seat``'s ante, judged as it is dealt in: flagged when not posted, or short with chips behind."""
        led = self.ledger
        out: list[te.TableEvent] = []
        what = "big blind ante" if self.big_blind_ante else "ante"
        due = self.due.get(seat, 0)
        if due:
            paid = self.paid.get(seat, 0)
            if paid >= due or led.stack(seat) == 0 or not led.seats[seat].live:
                return out
            if self.bomb:
                out.append(led.finding(t, "bomb-pot.2", "dealer", "wager-corrected",
                                       f"Bomb pot: seat {seat} is dealt in with {paid} of the {due} every player "
                                       f"posts: put in {due - paid} now, before the flop.", (seat,)))
            elif paid == 0:
                out.append(led.finding(t, "blinds.10", "dealer", "continues",
                                         f"Seat {seat} is dealt in without posting the {what} of {due}: put it in "
                                         f"now, before acting.", (seat,)))
            else:
                out.append(led.finding(t, "blinds.10", "dealer", "wager-corrected",
                                         f"Seat {seat} posted {paid} of the {due} {what}: bring it up by "
                                         f"{due - paid} before acting.", (seat,)))
        return out
