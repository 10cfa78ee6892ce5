"""The facts of one hand's betting that every part reads: the round (each seat's wager and standing, the turn),
who is still live, the street, what went in, the structure and the killer, and the seats' stacks; the pots
built from them. :class:`HandLedger` owns these facts; the other parts of :class:`HandBetting` are handed it."""

from __future__ import annotations

from ...config import GameConfig
from .. import events as te
from ..findings import FindingLog
from .betting_round import BettingRound, SeatBet, UndoPoint
from .blinds import Positions
from .pots import build_pots, divide_portions, split, uncalled
from .structures import Structure


class HandLedger:
    """The betting state of one hand, and the queries over it. ``stacks`` is the table's own dict of the chips
    each seat has behind: the ledger changes it in place as chips go in and come back."""

    def __init__(self, game: GameConfig, findings: FindingLog, stacks: dict[int, int], hand: int, button: int,
                 order: list[int], positions: Positions, table_seats: int) -> None:
        self.game = game
        self.findings = findings
        self.stacks = stacks
        self.hand = hand
        self.button = button
        self.order = order
        self.positions = positions
        self.table_seats = table_seats
        self.round = BettingRound({s: SeatBet(s) for s in order}, last_raise=game.big_blind)
        self.seats: dict[int, SeatBet] = self.round.seats   # the round's, read everywhere: set again with the round
        self.live: set[int] = set(order)   # seats neither folded nor dead, kept by fold and kill_hand
        self.structure = Structure.from_game(game)   # scaled while a pot is killed
        self.killer: int | None = None
        self.acts_last: int | None = None   # a lowball killer (Kill Pots 10): last on the first round
        self.street = "preflop"
        self.ended_streets: set[str] = set()
        self.contributed: dict[int, int] = {s: 0 for s in order}
        self.dead_money: dict[int, int] = {}
        self.refunded: dict[int, int] = {}   # seat -> the uncalled part of its bets given back at a gather this hand
        # seat -> how much of that went back straight from its bet zone, never reaching the pot (so is not owed
        # from it); the round under way's (``round_back``) is folded in at its gather
        self.refunded_straight: dict[int, int] = {}
        # the round's count, seat -> [its uncalled part, how much of its wager is gone from the zone, how much of
        # that reached the pot after all (moved with the gather later than a take-back is waited for)]
        self.round_back: dict[int, list[int]] = {}
        self.lost = False        # lost track of the betting: says so once, then quiet until the next deal
        self.dealing = False     # the first card left the shoe: chips are no longer posts
        self.settled = False

    def finding(self, t: float, rule_id: str, severity: str, outcome: str, ruling: str,
                seats: tuple[int | None, ...] = ()) -> te.FindingRaised:
        """A finding of this hand's betting. ``seats`` may hold a seat to act (``to_act``), None when nobody is:
        the finding names only the seats there are."""
        return self.findings.raise_(t, self.hand, rule_id, severity=severity, outcome=outcome, ruling=ruling,
                                    seats=tuple(s for s in seats if s is not None))

    # --- queries --------------------------------------------------------------------------------------
    @property
    def current_bet(self) -> int:
        """The total every live seat must match this round."""
        return self.round.current_bet

    @property
    def to_act(self) -> int | None:
        if self.settled or not self.round.pending or len(self.live) <= 1:
            return None
        return self.round.pending[0]

    @property
    def bets(self) -> dict[int, int]:
        return {s: b.wager for s, b in self.seats.items() if b.wager}

    def in_hand(self, seat: int) -> bool:
        return seat in self.live

    def all_in(self, seat: int) -> bool:
        b = self.seats.get(seat)
        return bool(b and b.all_in)

    def acted(self, seat: int) -> bool:
        b = self.seats.get(seat)
        return bool(b and b.acted_serial is not None)

    def stack(self, seat: int) -> int:
        return self.stacks.get(seat, 0)

    def active(self) -> list[int]:
        """Seats that can still bet: live and not all-in, in order from the button."""
        seats = self.seats   # bound once, not looked up on self for every seat
        return [s for s in self.order if not ((b := seats[s]).folded or b.dead or b.all_in)]

    def pots(self) -> list[te.Pot]:
        totals = {s: self.contributed[s] + b.wager for s, b in self.seats.items()}
        seat, extra = uncalled(totals)
        if seat is not None and self.seats[seat].live:   # a dead hand's unmatched chips stay in the pot
            totals[seat] -= extra
        live = {s for s, b in self.seats.items() if not b.folded and not b.dead}   # b.live, without the property
        all_in = {s for s, b in self.seats.items() if b.all_in}
        return build_pots(totals, live, sum(self.dead_money.values()), all_in)

    def uncalled_back(self) -> dict[int, int]:
        """Seats whose bet was not all called this hand, with how much of it is still to go back to them from the
        pot (the part nobody matched, given back at a gather, and the last wagers' now), less what the dealer
        handed back straight from the bet zone: those chips never went into the pot, so a push of them is none
        of that seat's."""
        seat, extra = uncalled({s: self.contributed[s] + b.wager for s, b in self.seats.items()})
        back = dict(self.refunded)
        if seat is not None and self.seats[seat].live:
            back[seat] = back.get(seat, 0) + extra
        straight = dict(self.refunded_straight)
        for s in self.round_back:
            straight[s] = straight.get(s, 0) + self.straight_back(s)
        out = {s: v - min(v, straight.get(s, 0)) for s, v in back.items()}
        return {s: v for s, v in out.items() if v}

    def uncalled_handed_back(self, seat: int, extra: int, gone: int) -> None:
        """``gone`` of ``seat``'s wager is out of its bet zone and not on its way to the pot, the round's betting
        over with ``extra`` of it uncalled: that much of the uncalled part went back straight (the latest count
        stands, so change made in the zone meanwhile is not counted twice)."""
        late = self.round_back[seat][2] if seat in self.round_back else 0
        self.round_back[seat] = [extra, gone, late]

    def straight_back(self, seat: int) -> int:
        """How much of ``seat``'s uncalled part went back straight from its bet zone in the round under way."""
        extra, gone, late = self.round_back.get(seat, (0, 0, 0))
        return min(extra, max(0, gone - late))

    def reached_pot_late(self, seat: int, value: int) -> None:
        """A chip of ``seat``'s zone counted as taken back landed in the pot after all, in the round under way: it
        did not go back straight (issue 31: a chip the gather moved slowly was taken for uncalled chips handed
        back, and the push of it to another seat was not ruled)."""
        if seat in self.round_back:
            self.round_back[seat][2] += value

    def pot_total(self) -> int:
        """What ``pots()`` adds up to (every pot together), without building the side pots."""
        totals = [self.contributed[s] + b.wager for s, b in self.seats.items()]
        seat, extra = uncalled(dict(zip(self.seats, totals, strict=True)))
        if seat is not None and not self.seats[seat].live:
            extra = 0                           # as pots(): a dead hand takes nothing back
        return sum(totals) - extra + sum(self.dead_money.values())

    # --- changes ---------------------------------------------------------------------------------------
    def take(self, seat: int, amount: int) -> None:
        """``amount`` leaves ``seat``'s stack for the pot."""
        self.stacks[seat] -= amount

    def give(self, seat: int, amount: int) -> None:
        """``amount`` goes back to ``seat``'s stack from what it put in this hand."""
        self.contributed[seat] -= amount
        self.stacks[seat] += amount

    def contribute(self, seat: int, amount: int) -> None:
        """``amount`` of ``seat``'s joins the pot outside the round's wager (an ante)."""
        self.contributed[seat] += amount

    def killed_by(self, seat: int | None, structure: Structure, acts_last: bool = False) -> None:
        """``seat`` kills the pot (None: nobody does), the limits as ``structure`` says; ``acts_last``: the killer
        acts last on the first round (lowball's optional kill, Kill Pots 10), not in turn (Kill Pots 2)."""
        self.killer = seat
        self.structure = structure
        self.acts_last = seat if acts_last else None

    def dealt_around(self, seat: int) -> None:
        """The deal passed ``seat``, which owed a post and put nothing in: it is not one of this hand's seats."""
        self.order.remove(seat)
        self.live.discard(seat)
        self.round.dealt_around(seat)
        self.contributed.pop(seat, None)

    def deal_begins(self) -> None:
        """The first card left the shoe: chips are no longer posts."""
        self.dealing = True

    def track_lost(self) -> None:
        self.lost = True

    def street_begins(self, street: str) -> None:
        self.street = street

    def street_ended(self) -> None:
        """The betting on the current street is over."""
        self.ended_streets.add(self.street)

    def folded(self, seat: int) -> None:
        """``seat`` folded: out of the hand and of the turn."""
        self.live.discard(seat)
        self.round.folded(seat, self.street == "preflop")

    def killed(self, seat: int) -> None:
        """``seat``'s hand was ruled dead: out of the hand and of the turn."""
        self.live.discard(seat)
        self.round.killed(seat)

    def close(self) -> None:
        """The hand's chips are settled (awarded, or given back)."""
        self.settled = True

    def dead_in(self, seat: int, amount: int) -> None:
        """``amount`` of ``seat``'s goes into the pot as dead money (no part of a wager)."""
        self.dead_money[seat] = self.dead_money.get(seat, 0) + amount

    def restore(self, undo: UndoPoint, present: int) -> None:
        """Betting 12: the short call of ``undo.seat`` is taken back; the round is as it was before it."""
        seat = undo.seat
        zone = self.seats[seat].zone
        self.round = undo.round
        self.seats = self.round.seats
        self.stacks[seat] = undo.stack
        self.live = {s for s, x in self.seats.items() if x.live}
        self.seats[seat].keep(zone, present)

    def gather(self, t: float) -> list[te.TableEvent]:
        """The end of a round: the uncalled part goes back, the wagers join what each seat put in, and the
        round's bookkeeping starts over."""
        out: list[te.TableEvent] = []
        wagers = {s: b.wager for s, b in self.seats.items()}
        seat, extra = uncalled(wagers)
        if seat is not None and self.seats[seat].live:
            self.seats[seat].returned(extra)
            self.stacks[seat] += extra
            self.refunded[seat] = self.refunded.get(seat, 0) + extra
            straight = min(extra, self.straight_back(seat))
            if straight:
                self.refunded_straight[seat] = self.refunded_straight.get(seat, 0) + straight
            out.append(te.StackChanged(t, self.hand, seat, self.stack(seat), "refund"))
        self.round_back.clear()
        for s, b in self.seats.items():
            self.contributed[s] += b.wager
            b.gathered()
        self.round.gathered(self.structure.min_bet("flop"))
        return out

    def give_back(self, t: float) -> list[te.TableEvent]:
        """Misdeal or void: every chip goes back to whoever put it in."""
        out: list[te.TableEvent] = []
        for s, b in self.seats.items():
            back = self.contributed[s] + b.wager + self.dead_money.get(s, 0)
            if back:
                self.stacks[s] += back
                out.append(te.StackChanged(t, self.hand, s, self.stack(s), "refund"))
            self.contributed[s] = 0
            b.returned(b.wager)
        self.dead_money.clear()
        return out

    def award(self, winners_by_pot: list[tuple[int, ...]], unit: int,
              portions_by_pot: list[list[tuple[tuple[int, ...], ...]]] | None = None,
              ) -> tuple[list[te.Pot], list[list[te.Pot]], list[list[list[te.Pot]]]]:
        """Every pot shared among its winners (``winners_by_pot[i]`` won pot ``i``, main first) and paid to
        their stacks. A pot with no winners named goes to its only eligible seat, or is split among the eligible.
        ``portions_by_pot[i]``, where given, divides pot ``i`` first (:func:`divide_portions`): per board, board 1
        first, the winners of each half (high, then low in a split game). Returns the pots; for a pot divided on
        two or more boards, its part on each board; for a pot divided high and low, per board, each half's part."""
        done: list[te.Pot] = []
        parts: list[list[te.Pot]] = []
        halves_by_pot: list[list[list[te.Pot]]] = []
        for i, pot in enumerate(self.pots()):
            awarded, portions, halves = self._shared(i, pot, winners_by_pot, unit, portions_by_pot)
            for s, share in awarded.shares.items():
                self.stacks[s] = self.stack(s) + share
            done.append(awarded)
            parts.append(portions)
            halves_by_pot.append(halves)
        return done, parts, halves_by_pot

    def shares_due(self, winners_by_pot: list[tuple[int, ...]], unit: int,
                   portions_by_pot: list[list[tuple[tuple[int, ...], ...]]] | None = None) -> dict[int, int]:
        """What :meth:`award` would pay each seat from the pots as they stand, without paying it: the chips the
        cards send to each seat (engine/misaward.py checks the push against it)."""
        due: dict[int, int] = {}
        for i, pot in enumerate(self.pots()):
            for s, share in self._shared(i, pot, winners_by_pot, unit, portions_by_pot)[0].shares.items():
                due[s] = due.get(s, 0) + share
        return due

    def _shared(self, i: int, pot: te.Pot, winners_by_pot: list[tuple[int, ...]], unit: int,
                portions_by_pot: list[list[tuple[tuple[int, ...], ...]]] | None,
                ) -> tuple[te.Pot, list[te.Pot], list[list[te.Pot]]]:
        """Pot ``i`` shared among its winners: the pot with its shares, its parts by board, its halves."""
        winners = tuple(winners_by_pot[i]) if i < len(winners_by_pot) and winners_by_pot[i] else ()
        winners = tuple(w for w in winners if w in pot.eligible) or (pot.eligible if len(pot.eligible) == 1 else ())
        if not winners:
            winners = pot.eligible     # nobody named: split among the eligible rather than lose chips
        boards = portions_by_pot[i] if portions_by_pot and i < len(portions_by_pot) else []
        boards = [tuple(tuple(w for w in half if w in pot.eligible) for half in halves) for halves in boards]
        if len(pot.eligible) > 1 and (len(boards) > 1 or (boards and sum(map(bool, boards[0])) > 1)):
            awarded, portions, halves = divide_portions(pot, boards, self.button, self.table_seats, unit)
            return (awarded, portions if len(boards) > 1 else [],
                    halves if any(sum(map(bool, b)) > 1 for b in boards) else [])
        return split(pot, winners, self.button, self.table_seats, unit), [], []
