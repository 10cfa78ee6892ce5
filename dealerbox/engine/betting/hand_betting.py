"""The betting of one hand: its state, the queries the engine and the screen read, the end of a round, the
refund and the award. How chips become actions is in ``chip_motions``, the posts in ``posting``, the turn in
``betting_turn`` and what a wager may be in ``wager_rules``; docs/betting.md tells the whole story."""

from __future__ import annotations

from typing import Protocol

from ...config import Config, GameConfig
from .. import events as te
from .antes import Antes, ante_dues
from .betting_round import BettingRound, Motion, SeatBet, UndoPoint
from .betting_turn import BettingTurn
from .blinds import clockwise, positions
from .chip_motions import ChipMotions
from ..findings import FindingLog
from .kill import KillTracker
from .posting import Posting
from .questions import DealerQuestions, OpenQuestion
from .pots import build_pots, split, uncalled
from .structures import Structure
from .wager_rules import WagerRules

LOST_TRACK = "Lost track of the betting: finish this hand by hand; the terminal picks up at the next deal."

class TableSide(Protocol):
    """What a hand reads and keeps of the table that dealt it (``table_betting.TableBetting`` is the one)."""

    config: Config
    game: GameConfig
    findings: FindingLog
    table_seats: int
    _stacks: dict[int, int]                 # the chips each seat has behind, changed as the hand goes
    owes: dict[int, set[str]]               # blinds a seat missed (Blinds 9)
    new_players: set[int]
    waiting_for_bb: set[int]
    last_big_blind: int | None
    kill: KillTracker
    kill_reason: str
    questions_asked: int

    @property
    def stacks(self) -> dict[int, int]: ...

    def _hand_finished(self, h: HandBetting, main_winners: tuple[int, ...], won: int) -> None: ...


class HandBetting(ChipMotions, Posting, Antes, BettingTurn, WagerRules, DealerQuestions):
    """The betting of one hand. Every method returns table events, except the queries and ``settle``."""

    def __init__(self, table: TableSide, t: float, hand: int, button: int, dealt_in: list[int]) -> None:
        self.table = table
        self.game = table.game
        self.findings = table.findings
        self.house = table.config.enrolment.house
        self.smallest_chip = self.game.smallest_chip
        self.hand = hand
        self.t0 = t
        self.button = button
        self.table_seats = table.table_seats
        self.heads_up_blinds_ruled = False
        self.binding_reminded: set[tuple[int, str, int]] = set()
        self.order = clockwise(button, dealt_in, self.table_seats)
        self.round = BettingRound({s: SeatBet(s) for s in self.order}, last_raise=self.game.big_blind)
        self.seats: dict[int, SeatBet] = self.round.seats   # the round's, read everywhere: set again with the round
        self.live: set[int] = set(self.order)   # seats neither folded nor dead, kept by fold and kill_hand
        self.zones: dict[int, dict[str, int]] = {}          # bet zones of seats not dealt in
        self.positions = positions(button, self.order, self.table_seats, table.last_big_blind,
                                   table.config.table.button == "dead")
        self.killer: int | None = None
        scale = 1.0
        self.structure = Structure.from_game(self.game)
        self.street = "preflop"
        self.contributed: dict[int, int] = {s: 0 for s in self.order}
        self.dead_money: dict[int, int] = {}
        self.motions: dict[int, Motion] = {}
        self.leaving: dict[str, tuple[float, int, int]] = {}
        self.held: dict[int, float] = {}
        self.declared: set[int] = set()
        self.lost = False        # lost track of the betting: says so once, then quiet until the next deal
        self.question: OpenQuestion | None = None    # the one question to the dealer the hand waits for
        self.undo_offer: UndoPoint | None = None     # a short call that may be taken back (Betting 12)
        self.dealing = False
        self.pot_chips = 0
        self.settled = False
        self.ended_streets: set[str] = set()
        self.opening_events: list[te.TableEvent] = []
        self.required: dict[int, tuple[str, int]] = {}
        # blinds owed by the seats dealt in: a post pays them, a misdeal gives the post back and the debt with it
        self.owed_at_start = {s: set(owed) for s, owed in table.owes.items() if s in self.seats}
        if self.positions.small_blind in self.seats:
            self.required[self.positions.small_blind] = ("sb", self.game.small_blind)
        if self.positions.big_blind in self.seats:
            self.required[self.positions.big_blind] = ("bb", self.game.big_blind)
        self.big_blind_ante = bool(self.game.big_blind_ante and not self.game.ante)
        self.ante_due = ante_dues(self.game.ante, self.game.big_blind_ante, self.order, self.positions.big_blind)
        self.ante_paid: dict[int, int] = {}
        kill = table.kill
        if kill.enabled and kill.due is not None:
            if kill.due in self.seats:
                self.killer = kill.due
                self.required[kill.due] = ("kill", kill.amount(self.game.big_blind))
                scale = kill.scale
                self._opening(kill.due_rule, "info", "continues",
                              f"Seat {kill.due} must kill this pot for {kill.amount(self.game.big_blind)}; the "
                              f"limits are raised x{kill.scale:g}. ({table.kill_reason})", (kill.due,))
            else:
                self._opening("kill.6", "dealer", "continues",
                              f"Seat {kill.due} owes a required kill of {kill.amount(self.game.big_blind)}: it must "
                              f"be posted this hand even when sitting out; no play until it is.", (kill.due,))
        if scale != 1.0:
            self.structure = Structure.from_game(self.game, scale)
            self.round.last_raise = self.structure.min_bet("preflop")
        self._opening_checks()
        self.round.pending = self._preflop_order()

    # --- findings helpers -----------------------------------------------------------------------------
    def _finding(self, t, rule_id, severity, outcome, ruling, seats=()) -> te.FindingRaised:
        return self.findings.raise_(t, self.hand, rule_id, severity=severity, outcome=outcome, ruling=ruling,
                                    seats=tuple(seats))

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
    def round_complete(self) -> bool:
        return not self.held and not self.motions and self.to_act is None

    @property
    def actions_after_blinds(self) -> int:
        return self.round.voluntary_actions

    @property
    def last_aggressor(self) -> int | None:
        return self.round.aggressor

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

    def pots(self) -> list[te.Pot]:
        totals = {s: self.contributed[s] + b.wager for s, b in self.seats.items()}
        seat, extra = uncalled(totals)
        if seat is not None and self.seats[seat].live:   # a dead hand's unmatched chips stay in the pot
            totals[seat] -= extra
        live = {s for s, b in self.seats.items() if not b.folded and not b.dead}   # b.live, without the property
        all_in = {s for s, b in self.seats.items() if b.all_in}
        return build_pots(totals, live, sum(self.dead_money.values()), all_in)

    def live_seats(self) -> set[int]:
        """Seats still contesting the pot (not folded, not dead). Read only."""
        return self.live

    def pot_total(self) -> int:
        """What ``pots()`` adds up to (every pot together), without building the side pots."""
        totals = [self.contributed[s] + b.wager for s, b in self.seats.items()]
        seat, extra = uncalled(dict(zip(self.seats, totals)))
        if seat is not None and not self.seats[seat].live:
            extra = 0                           # as pots(): a dead hand takes nothing back
        return sum(totals) - extra + sum(self.dead_money.values())

    def _live_count(self) -> int:
        return len(self.live)

    def _active(self) -> list[int]:
        """Seats that can still bet: live and not all-in, in order from the button."""
        return [s for s in self.order if not (b := self.seats[s]).folded and not b.dead and not b.all_in]

    def _stack(self, seat: int) -> int:
        return self.table._stacks.get(seat, 0)

    def _zone(self, seat: int) -> dict[str, int]:
        b = self.seats.get(seat)
        return b.zone if b else self.zones.setdefault(seat, {})

    def lose_track(self, t: float, reason: str) -> list[te.TableEvent]:
        """The chips can no longer be followed (sensor frames were lost while the betting ran, so chips may have
        moved unseen). Say so once; from here chip motions, taps and answers are not judged, nobody is to act,
        and the cards are still followed. The next hand starts clean."""
        if self.lost or self.settled:
            return []
        self.lost = True
        out = self._close_question(t)
        self.motions.clear()
        self.held.clear()
        self.leaving.clear()
        self.declared.clear()
        self.undo_offer = None
        self.round.pending = []
        return out + [te.BettingLost(t, self.hand, reason, LOST_TRACK)]

    def _end_round(self, t: float) -> list[te.TableEvent]:
        out = self._flush(t) + self._close_question(t)
        wagers = {s: b.wager for s, b in self.seats.items()}
        seat, extra = uncalled(wagers)
        if seat is not None and self.seats[seat].live:
            self.seats[seat].wager -= extra
            self.table._stacks[seat] += extra
            out.append(te.StackChanged(t, self.hand, seat, self._stack(seat), "refund"))
        for s, b in self.seats.items():
            self.contributed[s] += b.wager
            b.wager = 0
            b.ante = 0            # gathered with the round: from here the zone's chips are all wager
            b.credited = b.present
            b.acted_serial = None
            b.no_raise = False
            b.out_of_turn = None
        self.round.current_bet, self.round.full_raise_level, self.round.raises = 0, 0, 0
        self.round.last_raise = self.structure.min_bet("flop")
        self.round.capped_multiway = False
        self.round.wager_levels = []
        self.round.full_raise_serial += 1
        self.undo_offer = None
        return out

    def next_street(self, t: float, street: str) -> list[te.TableEvent]:
        if street == self.street or self.settled or street in self.ended_streets:
            return []
        out = self._end_round(t)
        self.ended_streets.add(self.street)
        out.append(te.BettingRoundEnded(t, self.hand, self.street, self.pot_total()))
        self.street = street
        self.round.aggressor = None if street != "showdown" else self.round.aggressor
        self.round.pending = self._postflop_order() if street != "showdown" else []
        return out

    def refund(self, t: float, reason: str) -> list[te.TableEvent]:
        """Misdeal or void: every chip goes back to whoever put it in."""
        if self.settled:
            return []
        self.motions.clear()
        self.held.clear()
        self.leaving.clear()
        out: list[te.TableEvent] = self._close_question(t)
        for s, b in self.seats.items():
            back = self.contributed[s] + b.wager + self.dead_money.get(s, 0)
            if back:
                self.table._stacks[s] += back
                out.append(te.StackChanged(t, self.hand, s, self._stack(s), "refund"))
            self.contributed[s], b.wager = 0, 0
        self.dead_money.clear()
        for s, owed in self.owed_at_start.items():
            self.table.owes.setdefault(s, set()).update(owed)
        self.settled = True
        return out

    def settle(self, t: float, winners_by_pot: list[tuple[int, ...]]) -> tuple[list[te.Pot], dict[int, int]]:
        """Award every pot: ``winners_by_pot[i]`` won pot ``i`` of ``pots()`` (main first). A pot with no
        winners named goes to its only eligible seat. Returns the pots with shares, and every seat's stack."""
        if self.settled:
            return [], self.table.stacks
        self.question = None     # the hand is over: nothing left to ask
        if self.street != "showdown":
            self._end_round(t)
            self.ended_streets.add(self.street)
        self._return_unmatched_ante()
        pots = self.pots()
        unit = max(1, self.game.smallest_chip)
        done: list[te.Pot] = []
        for i, pot in enumerate(pots):
            winners = tuple(winners_by_pot[i]) if i < len(winners_by_pot) and winners_by_pot[i] else ()
            winners = tuple(w for w in winners if w in pot.eligible) or (pot.eligible if len(pot.eligible) == 1 else ())
            if not winners:
                winners = pot.eligible     # nobody named: split among the eligible rather than lose chips
            awarded = split(pot, winners, self.button, self.table_seats, unit)
            for s, share in awarded.shares.items():
                self.table._stacks[s] = self._stack(s) + share
            done.append(awarded)
        self.settled = True
        main = done[0] if done else None
        main_winners = main.winners if main else ()
        won = 0
        if len(main_winners) == 1:
            w = main_winners[0]
            won = sum(p.shares.get(w, 0) for p in done) - self.contributed.get(w, 0)
        self.table._hand_finished(self, main_winners, won)
        return done, self.table.stacks
