"""Chips and betting: read wagers from chip tags moving through the bet zones, follow the turn, keep the pots
and rule on every irregularity of the "Chips and betting" table (RULES.md).

Two objects, as agreed with the engine (docs/betting.md has the full story):

- :class:`TableBetting` lives across hands: stacks (buy-in - what went in + what was won; no stack
  sensors), missed blinds and new players, the dead-button history, kill legs.
- :class:`HandBetting` follows one hand: posts, bets, calls, raises, checks (dealer tap), folds (the engine
  calls ``fold`` when the cards reach the muck), all-ins, side pots, the odd chip.

How chips become actions. Chips entering ``betN`` are seat N's; chips arriving less than ``MOTION_GAP``
apart in one zone are one motion. A motion closes once the gap has passed (``tick``), and then what the zone
holds is read as the seat's wager: the total it adds over what was already accounted for is the action.
Corrections (a short call brought up, a surplus sent back) are rulings: the wager becomes what the rules say,
and chips that later come in to make it up are silent.

Additions to the agreed API (all additive; the engine may ignore them):

- ``HandBetting.deal_started(t)``: the first card left the shoe. Until then chips are posts (blinds,
  straddle, missed blinds, kill); without the call, posts are recognised by seat and amount alone.
- ``HandBetting.declare_raise(t, seat)``: the ``declare-raise`` tap; the seat's next motions count as one.
- ``HandBetting.opening_events``: findings raised by ``start_hand`` (new player between the blinds, dead
  button, kill due); the engine emits them after ``HandStarted``.
- ``next_street(t, "showdown")`` closes the last betting round without opening another.
- ``TableBetting.entitled(button, occupied)``, ``button_for(occupied)``, ``wait_for_bb(t, seat)``,
  ``back_in(t, seat)`` (the ``back-in`` tap), ``sit_out(t, seat)`` (the ``sit-out`` tap), ``kill_puck(t, seat)``
  (the kill button puck put in front of a seat).
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field

from ..config import Config
from ..tags import ChipTag, Tag
from . import events as te
from .blinds import Positions, between_big_blind_and_button, clockwise, next_seat, positions
from .chips import FOREIGN, NOT_A_CHIP, PLAYS, TOO_SMALL, chip_value, classify
from .findings import FindingLog
from .kill import KillTracker
from .pots import build_pots, split, uncalled
from .structures import LIMIT, POT_LIMIT, Structure

MOTION_GAP = 0.5      # chips arriving closer than this in one zone are one motion (Betting 14)
TAKE_BACK_GAP = 0.5   # a chip that left a bet zone and did not reach the pot within this was taken back
DECLARE_HOLD = 3.0    # a declared raise is complete once the hands rest this long (No-Limit 8)


@dataclass(slots=True)
class Motion:
    start: float
    last: float
    values: list[int] = field(default_factory=list)
    foreign: list[str] = field(default_factory=list)
    small: list[int] = field(default_factory=list)


@dataclass
class SeatBet:
    seat: int
    wager: int = 0              # live chips this round, as ruled
    credited: int = 0           # chip value in the zone already accounted for
    zone: dict[str, int] = field(default_factory=dict)   # uid -> value of the playing chips in betN
    folded: bool = False
    dead: bool = False
    all_in: bool = False
    acted_serial: int | None = None   # full-raise serial when the seat last acted this round
    no_raise: bool = False            # checked out of turn: may not bet or raise this turn (Betting 10)
    oot: tuple | None = None          # out-of-turn action waiting for the turn (Betting 10)
    voluntary: bool = False           # has acted (not only posted) this hand
    posted: str = ""                  # "sb", "bb", "straddle", "kill", "missed", "new"

    @property
    def present(self) -> int:
        return sum(self.zone.values())

    @property
    def live(self) -> bool:
        return not self.folded and not self.dead


class TableBetting:
    """Stacks and obligations across hands. ``findings`` is the engine's shared FindingLog."""

    def __init__(self, config: Config, findings: FindingLog) -> None:
        self.config = config
        self.game = config.game
        self.findings = findings
        self.table_seats = config.table.seats
        self._stacks: dict[int, int] = {}
        self.owes: dict[int, set[str]] = {}       # missed "sb"/"bb", or "bb" for a new player (Blinds 4, 9)
        self.new_players: set[int] = set()        # sat down since the game started, not yet dealt in
        self.waiting_for_bb: set[int] = set()
        self.sitting_out: set[int] = set()        # the sit-out tap: not dealt in until back-in or wait-for-bb
        self.returning: set[int] = set()          # tapped back-in owing blinds, not dealt in yet (Blinds 7, 9)
        self.hands_played = 0
        self.last_big_blind: int | None = None
        self.last_button: int | None = None
        self.last_small_blind: int | None = None
        self.kill = KillTracker(config.game.kill, config.game.kill_qualifier)
        self.kill_reason = ""
        self.hand: HandBetting | None = None

    # --- seats ---------------------------------------------------------------------------------------
    @property
    def stacks(self) -> dict[int, int]:
        return dict(self._stacks)

    def sit(self, t: float, seat: int, amount: int | None) -> list[te.TableEvent]:
        self._stacks[seat] = amount or self.game.buy_in
        self.kill.seat_taken(seat)
        if self.hands_played:
            # Blinds 4/12b: a player joining a running game posts a big blind or waits for it.
            self.new_players.add(seat)
            self.owes[seat] = {"bb"}
        return [te.PlayerSeated(t, self._hand_no, seat, self._stacks[seat])]

    def leave(self, t: float, seat: int) -> list[te.TableEvent]:
        stack = self._stacks.pop(seat, 0)
        self.owes.pop(seat, None)
        self.new_players.discard(seat)
        self.waiting_for_bb.discard(seat)
        self.sitting_out.discard(seat)
        self.returning.discard(seat)
        self.kill.seat_left(seat)
        if not self._stacks:
            self._new_game()
        return [te.PlayerLeft(t, self._hand_no, seat, stack)]

    def _new_game(self) -> None:
        """Everyone has left: the next players to sit start a new game, not join a running one, so nobody
        owes a blind, waits for one or counts as new between the blinds (Blinds 4, 7, 9), and no kill is due."""
        self.owes.clear()
        self.new_players.clear()
        self.waiting_for_bb.clear()
        self.sitting_out.clear()
        self.returning.clear()
        self.hands_played = 0
        self.last_big_blind = self.last_button = self.last_small_blind = None
        self.kill = KillTracker(self.config.game.kill, self.config.game.kill_qualifier)
        self.kill_reason = ""

    def rebuy(self, t: float, seat: int, amount: int) -> list[te.TableEvent]:
        self._stacks[seat] = self._stacks.get(seat, 0) + amount
        return [te.StackChanged(t, self._hand_no, seat, self._stacks[seat], "rebuy")]

    def wait_for_bb(self, t: float, seat: int) -> list[te.TableEvent]:
        """The ``wait-for-bb`` tap: the seat is dealt in again when the big blind reaches it (Blinds 9)."""
        self.waiting_for_bb.add(seat)
        self.sitting_out.discard(seat)
        self.returning.discard(seat)
        return []

    def sit_out(self, t: float, seat: int) -> list[te.TableEvent]:
        """The ``sit-out`` tap: the player steps away. From the next hand the seat is not dealt in and every blind
        that passes it is owed (Blinds 9), until ``back-in`` or ``wait-for-bb``."""
        if seat not in self._stacks:
            return []
        self.sitting_out.add(seat)
        self.waiting_for_bb.discard(seat)
        self.returning.discard(seat)
        return []

    def back_in(self, t: float, seat: int) -> list[te.TableEvent]:
        """The ``back-in`` tap: a player sitting out or waiting for the big blind is dealt in again from the next
        hand and posts what they owe before the deal (Blinds 9: the big blind live, a missed small blind dead).
        Blinds may not be made up between the big blind and the button (Blinds 7): until the button passes,
        the seat stays out."""
        if seat not in self._stacks:
            return []
        self.waiting_for_bb.discard(seat)
        self.sitting_out.discard(seat)
        if self.owes.get(seat) and seat not in self.new_players:
            self.returning.add(seat)
        return []

    def kill_puck(self, t: float, seat: int) -> list[te.TableEvent]:
        """The dealer put the kill button in front of ``seat``. It marks the last pot's winner, who keeps it until
        the next hand is completed; it is neutral on a new game, after its holder quits or after a split
        without it (Kill Pots 1), and waits for a holder who stepped away (Kill Pots 5)."""
        k = self.kill
        if not k.enabled or seat == k.holder or (k.holder is None and seat == k.away):
            return []
        if k.holder is None:
            return [self.findings.raise_(
                t, self._hand_no, "kill.1", severity="dealer", outcome="continues", seats=(seat,),
                ruling=f"The kill button is neutral: nobody has a leg up. Take it away from seat {seat}.")]
        return [self.findings.raise_(
            t, self._hand_no, "kill.3", severity="dealer", outcome="continues", seats=(seat, k.holder),
            ruling=f"The kill button belongs to seat {k.holder}, who won the last pot and has a leg up; seat {seat} "
                   f"has none. Put it in front of seat {k.holder}.")]

    @property
    def _hand_no(self) -> int | None:
        return self.hand.hand if self.hand else None

    # --- positions -----------------------------------------------------------------------------------
    def _players(self, occupied) -> list[int]:
        return sorted(s for s in occupied if self._stacks.get(s, 0) > 0)

    def positions(self, button: int, occupied) -> Positions:
        return positions(button, self._players(occupied), self.table_seats, self.last_big_blind,
                         self.config.table.button == "dead")

    def button_for(self, occupied) -> int | None:
        """Where the button belongs for the next hand (moving: next player; dead: before the small blind)."""
        players = self._players(occupied)
        if self.last_button is None or not players:
            return None
        if self.config.table.button == "dead" and self.last_small_blind is not None and len(players) > 2:
            # Blinds 1b: last hand's small blind seat gets the button, even if it is empty now.
            return self.last_small_blind
        return next_seat(self.last_button, players, self.table_seats)

    def blinds_for(self, button: int, occupied) -> dict[int, int]:
        """Seat -> forced amount for the hand: small and big blind, and a kill that is due (all-in if short). A
        killer in a blind seat posts the kill alone, as ``HandBetting`` requires (docs/betting.md)."""
        entitled = set(self.entitled(button, occupied))
        players = [s for s in self._players(occupied)
                   if s in entitled or (s not in self.waiting_for_bb and s not in self.sitting_out)]
        pos = positions(button, players, self.table_seats, self.last_big_blind, self.config.table.button == "dead")
        out: dict[int, int] = {}
        if pos.small_blind is not None:
            out[pos.small_blind] = self.game.small_blind
        if pos.big_blind is not None:
            out[pos.big_blind] = self.game.big_blind
        if self.kill.due in players:
            # the kill is the killer's blind for the hand, only larger: in a blind seat it replaces that blind
            out[self.kill.due] = self.kill.amount(self.game.big_blind)
        return {s: min(a, self._stacks.get(s, 0)) for s, a in out.items()}

    def entitled(self, button: int, occupied) -> tuple[int, ...]:
        """Seats entitled to a hand: players with chips, except those sitting out, those waiting for the big blind
        (until it reaches them) and new or returning players between the big blind and the button (Blinds 7)."""
        players = [s for s in self._players(occupied) if s not in self.sitting_out]
        active = [s for s in players if s not in self.waiting_for_bb]
        out = set(active) if active else set(players)   # nobody to wait behind: everyone plays
        waiting = [s for s in players if s in self.waiting_for_bb] if active else []
        for w in clockwise(button, waiting, self.table_seats):
            if positions(button, active + [w], self.table_seats).big_blind == w:
                out.add(w)
                break       # one big blind a hand: a waiting seat further round waits for the next one
        pos = positions(button, sorted(out), self.table_seats)
        for s in list(out):
            if (s in self.new_players or s in self.returning) and len(out) > 2 and \
                    between_big_blind_and_button(s, pos, self.table_seats):
                out.discard(s)
        return tuple(clockwise(button, out, self.table_seats))

    # --- a hand --------------------------------------------------------------------------------------
    def start_hand(self, t: float, hand: int, button: int, dealt_in) -> HandBetting:
        dealt = [s for s in dealt_in if s in self._stacks]
        h = HandBetting(self, t, hand, button, dealt)
        self.returning -= set(h.seats)
        self._record_missed(h)
        self.hand = h
        return h

    def _record_missed(self, h: HandBetting) -> None:
        """Blinds 9: a seated player not dealt in misses the blind that passes it."""
        pos, n = h.pos, self.table_seats

        def between(a: int | None, b: int | None, s: int) -> bool:
            return a is not None and b is not None and 0 < (s - a) % n < (b - a) % n

        for s, stack in self._stacks.items():
            if s in h.seats or stack <= 0 or s in self.new_players:
                continue
            if between(pos.button, pos.small_blind, s):
                self.owes.setdefault(s, set()).add("sb")
            if between(pos.small_blind if pos.small_blind is not None else pos.button, pos.big_blind, s):
                self.owes.setdefault(s, set()).add("bb")

    def _hand_finished(self, h: HandBetting, main_winners: tuple[int, ...], won: int) -> None:
        self.hands_played += 1
        self.last_button = h.button
        if h.pos.big_blind is not None:
            self.last_big_blind = h.pos.big_blind
        self.last_small_blind = h.pos.small_blind
        for s in h.order:
            self.new_players.discard(s)
        self.kill_reason = self.kill.record_win(main_winners, won, h.killer)


class HandBetting:
    """The betting of one hand. Every method returns table events, except the queries and ``settle``."""

    def __init__(self, table: TableBetting, t: float, hand: int, button: int, dealt_in: list[int]) -> None:
        self.table = table
        self.game = table.game
        self.findings = table.findings
        self.house = table.config.enrolment.house
        self.smallest_chip = self.game.smallest_chip
        self.hand = hand
        self.t0 = t
        self.button = button
        self.n = table.table_seats
        self.blinds3_raised = False
        self.binding_told: set[tuple[int, str, int]] = set()
        self.order = clockwise(button, dealt_in, self.n)
        self.seats = {s: SeatBet(s) for s in self.order}
        self.live: set[int] = set(self.order)   # seats neither folded nor dead, kept by fold and kill_hand
        self.zones: dict[int, dict[str, int]] = {}          # bet zones of seats not dealt in
        self.pos = positions(button, self.order, self.n, table.last_big_blind, table.config.table.button == "dead")
        self.killer: int | None = None
        scale = 1.0
        self.structure = Structure.from_game(self.game)
        self.street = "preflop"
        self.cur = 0
        self.last_raise = self.game.big_blind
        self.full_level = 0
        self.raises = 0
        self.raise_serial = 0
        self.vol_serial = 0
        self.action_serial = 0
        self.last_actor: int | None = None
        self.last_actor_serial = -1
        self.aggressor: int | None = None
        self.capped_multiway = False
        self.levels: list[int] = []
        self.contributed: dict[int, int] = {s: 0 for s in self.order}
        self.dead_money: dict[int, int] = {}
        self.motions: dict[int, Motion] = {}
        self.leaving: dict[str, tuple[float, int, int]] = {}
        self.held: dict[int, float] = {}
        self.declared: set[int] = set()
        self.withdrawable: tuple[int, int, dict] | None = None
        self.dealing = False
        self.voluntary_actions = 0
        self.pot_chips = 0
        self.settled = False
        self.ended_streets: set[str] = set()
        self.opening_events: list[te.TableEvent] = []
        self.required: dict[int, tuple[str, int]] = {}
        if self.pos.small_blind in self.seats:
            self.required[self.pos.small_blind] = ("sb", self.game.small_blind)
        if self.pos.big_blind in self.seats:
            self.required[self.pos.big_blind] = ("bb", self.game.big_blind)
        kill = table.kill
        if kill.enabled and kill.due is not None:
            if kill.due in self.seats:
                self.killer = kill.due
                self.required[kill.due] = ("kill", kill.amount(self.game.big_blind))
                scale = kill.scale
                self._opening("kill.7" if "again" in table.kill_reason else "kill.3", "info", "continues",
                              f"Seat {kill.due} must kill this pot for {kill.amount(self.game.big_blind)}; the "
                              f"limits are raised x{kill.scale:g}. ({table.kill_reason})", (kill.due,))
            else:
                self._opening("kill.6", "dealer", "continues",
                              f"Seat {kill.due} owes a required kill of {kill.amount(self.game.big_blind)}: it must "
                              f"be posted this hand even when sitting out; no play until it is.", (kill.due,))
        if scale != 1.0:
            self.structure = Structure.from_game(self.game, scale)
            self.last_raise = self.structure.min_bet("preflop")
        self._opening_checks()
        self.pending = self._preflop_order()

    # --- findings helpers -----------------------------------------------------------------------------
    def _finding(self, t, rule_id, severity, outcome, ruling, seats=()) -> te.FindingRaised:
        return self.findings.raise_(t, self.hand, rule_id, severity=severity, outcome=outcome, ruling=ruling,
                                    seats=tuple(seats))

    def _opening(self, rule_id, severity, outcome, ruling, seats=()) -> None:
        self.opening_events.append(self._finding(self.t0, rule_id, severity, outcome, ruling, seats))

    def _opening_checks(self) -> None:
        tb = self.table
        for s in self.order:
            if s in tb.new_players and between_big_blind_and_button(s, self.pos, self.n) and len(self.order) > 2:
                self._opening("blinds.7", "dealer", "misdeal",
                              f"Seat {s} is new and sits between the big blind and the button: it cannot be dealt in "
                              f"until the button passes. Misdeal: redeal without seat {s} (Misdeals 1i).", (s,))
        if tb.config.table.button == "dead" and len(self.order) > 2:
            if self.pos.small_blind is None or self.button not in self.seats:
                self._opening("blinds.1", "info", "continues",
                              f"Dead button: the big blind is seat {self.pos.big_blind}"
                              + ("; no small blind this hand" if self.pos.small_blind is None else "")
                              + (f"; the button stays in front of empty seat {self.button}"
                                 if self.button not in self.seats else "") + ".",
                              tuple(s for s in (self.pos.big_blind,) if s))
        if self.killer is not None:
            for s in self.order:
                if s in tb.new_players:
                    self._opening("kill.12", "dealer", "continues",
                                  f"Seat {s} is new and this pot is killed: it may play only by agreeing to kill the "
                                  f"next pot.", (s,))

    # --- queries --------------------------------------------------------------------------------------
    @property
    def to_act(self) -> int | None:
        if self.settled or not self.pending or self._live_count() <= 1:
            return None
        return self.pending[0]

    @property
    def round_complete(self) -> bool:
        return not self.held and not self.motions and self.to_act is None

    @property
    def actions_after_blinds(self) -> int:
        return self.voluntary_actions

    @property
    def last_aggressor(self) -> int | None:
        return self.aggressor

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
        if seat is not None:
            totals[seat] -= extra
        live = {s for s, b in self.seats.items() if b.live}
        all_in = {s for s, b in self.seats.items() if b.all_in}
        return build_pots(totals, live, sum(self.dead_money.values()), all_in)

    def live_seats(self) -> set[int]:
        """Seats still contesting the pot (not folded, not dead). Read only."""
        return self.live

    def pot_total(self) -> int:
        """What ``pots()`` adds up to (every pot together), without building the side pots."""
        totals = [self.contributed[s] + b.wager for s, b in self.seats.items()]
        _, extra = uncalled(dict(zip(self.seats, totals)))
        return sum(totals) - extra + sum(self.dead_money.values())

    def _live_count(self) -> int:
        return len(self.live)

    def _active(self) -> list[int]:
        """Seats that can still bet: live and not all-in, in order from the button."""
        return [s for s in self.order if self.seats[s].live and not self.seats[s].all_in]

    def _stack(self, seat: int) -> int:
        return self.table._stacks.get(seat, 0)

    def _zone(self, seat: int) -> dict[str, int]:
        b = self.seats.get(seat)
        return b.zone if b else self.zones.setdefault(seat, {})

    # --- turn order -----------------------------------------------------------------------------------
    def _preflop_order(self) -> list[int]:
        last = self.pos.big_blind
        straddler = next((s for s, b in self.seats.items() if b.posted == "straddle"), None)
        if straddler is not None:
            last = straddler
        if last is None:
            return self._active()
        return clockwise(last, self._active(), self.n)

    def _postflop_order(self) -> list[int]:
        active = self._active()
        return active if len(active) >= 2 else []

    # --- sensor input ---------------------------------------------------------------------------------
    def tick(self, t: float) -> list[te.TableEvent]:
        """Close chip motions whose gap has passed, settle take-backs and declared raises at rest."""
        if not (self.motions or self.leaving or self.held):
            return []       # the common case: called before every input
        out: list[te.TableEvent] = []
        if self.motions:
            due = [s for s, m in self.motions.items() if t - m.last >= MOTION_GAP]
            if len(due) > 1:
                due.sort(key=lambda s: self.motions[s].start)
            for seat in due:
                out += self._close_motion(t, seat)
        if self.leaving:
            due = []
            for uid, (lt, _, _) in self.leaving.items():   # in the order they left (chip_left keeps it so)
                if t - lt < TAKE_BACK_GAP:
                    break
                due.append(uid)
            for uid in due:
                _, seat, value = self.leaving.pop(uid)
                out += self._taken_back(t, seat, value)
        if self.held:
            for seat in [s for s, ht in self.held.items() if t - ht >= DECLARE_HOLD and s not in self.motions]:
                out += self._release(t, seat)
        return out

    def _sync(self, t: float, seat: int | None = None) -> list[te.TableEvent]:
        """Before any act of ``seat``: close motions, and complete other seats' declared raises."""
        out = self.tick(t)
        if not self.held:
            return out
        for other in [s for s in self.held if s != seat]:
            if other in self.motions:
                out += self._close_motion(t, other)
            out += self._release(t, other)
        return out

    def _flush(self, t: float) -> list[te.TableEvent]:
        out = []
        for seat in list(self.motions):
            out += self._close_motion(t, seat)
        for seat in list(self.held):
            out += self._release(t, seat)
        for uid in list(self.leaving):
            _, seat, value = self.leaving.pop(uid)
            out += self._taken_back(t, seat, value)
        return out

    def chip_entered(self, t: float, seat: int, tag: Tag) -> list[te.TableEvent]:
        out = self._sync(t, seat)
        if self.settled:
            return out
        if type(tag) is ChipTag and tag.house == self.house and tag.value >= self.smallest_chip:
            kind = PLAYS    # the common case, one of our own chips, without the full classification
        else:
            kind = classify(tag, self.house, self.smallest_chip)
            if kind == NOT_A_CHIP:
                return out
        m = self.motions.get(seat) or Motion(t, t)
        m.last = t
        if kind == PLAYS:
            value = tag.value
            self._zone(seat)[tag.uid] = value
            m.values.append(value)
        elif kind == FOREIGN:
            m.foreign.append(getattr(tag, "house", "unregistered"))
        elif kind == TOO_SMALL:
            m.small.append(chip_value(tag))
        self.motions[seat] = m
        return out

    def chip_left(self, t: float, seat: int, tag: Tag) -> list[te.TableEvent]:
        out = self.tick(t)
        zone = self._zone(seat)
        if tag.uid in zone:
            value = zone.pop(tag.uid)
            m = self.motions.get(seat)
            if m and value in m.values:
                m.values.remove(value)      # put in and taken out within one motion: never happened
            else:
                self.leaving.pop(tag.uid, None)     # re-inserted at the end: the dict stays in time order
                self.leaving[tag.uid] = (t, seat, value)
        return out

    def chip_to_pot(self, t: float, tag: Tag) -> list[te.TableEvent]:
        out = self.tick(t)
        self.leaving.pop(tag.uid, None)
        self.pot_chips += chip_value(tag)
        return out

    def chip_from_pot(self, t: float, tag: Tag) -> list[te.TableEvent]:
        out = self.tick(t)
        self.pot_chips -= chip_value(tag)
        return out

    def deal_started(self, t: float) -> list[te.TableEvent]:
        """The first card left the shoe: posts are in. Flags a required kill or owed blinds not posted."""
        out = self._sync(t)
        for seat in list(self.motions):
            out += self._close_motion(t, seat)
        if self.dealing:
            return out
        self.dealing = True
        for seat, (kind, amount) in self.required.items():
            b = self.seats[seat]
            if kind == "kill" and b.posted != "kill":
                out.append(self._finding(t, "kill.6", "dealer", "wager-corrected",
                                         f"Seat {seat} must post the required kill of {amount} before playing "
                                         f"this hand.", (seat,)))
        for seat, b in self.seats.items():
            owed = self.table.owes.get(seat)
            if owed and not b.posted and seat != self.pos.big_blind:
                amount = self._owed_amount(owed)
                out.append(self._finding(t, "blinds.10", "dealer", "continues",
                                         f"Seat {seat} owes {amount} in blinds and is dealt in without posting: if "
                                         f"the player looks at the cards before posting, the hand is dead; once "
                                         f"they act and put chips in, the hand plays and they post next deal.",
                                         (seat,)))
        return out

    def declare_raise(self, t: float, seat: int) -> list[te.TableEvent]:
        out = self._sync(t, seat)
        self.declared.add(seat)
        return out

    # --- motions ---------------------------------------------------------------------------------------
    def _close_motion(self, t: float, seat: int) -> list[te.TableEvent]:
        m = self.motions.pop(seat)
        out: list[te.TableEvent] = []
        if m.foreign:
            out.append(self._finding(t, "procedures.3", "dealer", "wager-corrected",
                                     f"Seat {seat}: {len(m.foreign)} chip(s) not of this house do not play; hand "
                                     f"them back and change them up after the hand.", (seat,)))
        if m.small:
            out.append(self._finding(t, "betting.7", "dealer", "wager-corrected",
                                     f"Seat {seat}: chips of {sorted(set(m.small))} are below the smallest chip in "
                                     f"play ({self.game.smallest_chip}) and do not play, even in quantity.", (seat,)))
        if not m.values:
            return out
        out.append(te.ChipsMoved(t, self.hand, f"bet{seat}", seat, sum(m.values), tuple(m.values)))
        if seat in self.declared or seat in self.held:
            self.declared.discard(seat)
            self.held[seat] = m.last
            return out
        return out + self._chips_in(t, seat, m.values[0] if len(m.values) == 1 else None)

    def _release(self, t: float, seat: int) -> list[te.TableEvent]:
        if self.held.pop(seat, None) is None:
            return []
        return self._chips_in(t, seat, None, declared=True)

    def _chips_in(self, t: float, seat: int, single: int | None, declared: bool = False) -> list[te.TableEvent]:
        b = self.seats.get(seat)
        if b is None:
            return [self._finding(t, "betting.10", "dealer", "wager-corrected",
                                  f"Seat {seat} is not in this hand: those chips do not play; return them.", (seat,))]
        present = b.present
        baseline = max(b.credited, b.wager)
        if present <= baseline:
            b.credited = present      # making up a corrected wager: nothing new
            return []
        extra = present - baseline
        if not b.live or b.all_in:
            b.credited = present
            why = "has folded" if b.folded else ("has a dead hand" if b.dead else "is all-in")
            return [self._finding(t, "betting.10", "dealer", "wager-corrected",
                                  f"Seat {seat} {why} and has no action: those {extra} do not play; return them.",
                                  (seat,))]
        if self.street == "preflop" and not b.voluntary:
            posted = self._try_post(t, seat, present)
            if posted is not None:
                return posted
        intent = b.wager + extra
        if seat != self.to_act:
            if seat in self.pending:
                b.oot = ("chips", intent, single, self.vol_serial)
                return [self._finding(t, "betting.10", "dealer", "continues",
                                      f"Seat {seat} put chips in out of turn (seat {self.to_act} is to act). It is "
                                      f"binding if nobody in between bets, calls or raises; otherwise seat {seat} "
                                      f"may take the chips back and act again.", (seat, self.to_act))]
            if seat == self.last_actor and self.action_serial == self.last_actor_serial and not declared:
                b.credited = present
                return [self._finding(t, "betting.14", "dealer", "wager-corrected",
                                      f"String raise: seat {seat} added {extra} in a second motion without "
                                      f"declaring a raise. The first action ({b.wager}) stands; return the {extra}.",
                                      (seat,))]
            b.credited = present
            return [self._finding(t, "betting.10", "dealer", "wager-corrected",
                                  f"Seat {seat} has no action pending: those {extra} do not play; return them.",
                                  (seat,))]
        out = self._act(t, seat, intent, single, declared)
        return out + self._advance(t)

    # --- posts -----------------------------------------------------------------------------------------
    def _owed_post(self, owed: set[str]) -> tuple[int, int]:
        """The smallest correct make-up (live, dead), Blinds 9: all the blinds missed, live up to the big blind.
        Only the small blind missed: the small blind, live. The big blind missed: the big blind live and a
        missed small blind dead. (A new player owes the big blind, Blinds 4.)"""
        g = self.game
        if "bb" not in owed:
            return g.small_blind, 0
        return g.big_blind, (g.small_blind if "sb" in owed else 0)

    def _owed_amount(self, owed: set[str]) -> int:
        return sum(self._owed_post(owed))

    def _missed_post(self, t: float, seat: int, owed: set[str], present: int, live_due: int,
                     dead_due: int) -> list[te.TableEvent]:
        g, b = self.game, self.seats[seat]
        out: list[te.TableEvent] = []
        short = live_due + dead_due - present
        if short > 0:
            # the ruling is applied: the whole make-up is charged now, the chips that bring it up are silent
            live, dead = live_due, dead_due
            if dead_due and present >= g.big_blind:
                what = (f"missed the small blind too: post the small blind of {g.small_blind} as well (dead, to "
                        f"the middle)")
            elif dead_due:
                what = (f"missed both blinds: post the big blind of {g.big_blind} live and the small blind of "
                        f"{g.small_blind} dead, to the middle")
            elif "bb" in owed:
                what = f"owes the big blind of {g.big_blind}"
            else:
                what = (f"missed the small blind: post it, {g.small_blind}, live (or a big blind of {g.big_blind} "
                        f"to play at once)")
            out.append(self._finding(t, "blinds.9", "dealer", "wager-corrected",
                                     f"Seat {seat} {what}; {short} more.", (seat,)))
        else:
            # up to the big blind plays; what is above it goes to the middle, at most the small blind missed
            live = min(present, g.big_blind)
            dead = min(present - live, g.small_blind) if "sb" in owed else 0
            if dead:
                out.append(self._finding(t, "blinds.9", "info", "continues",
                                         f"Seat {seat} posts the missed blinds: {live} live, {dead} dead in the "
                                         f"middle. The player has the option to raise.", (seat,)))
            elif "bb" not in owed:
                out.append(self._finding(t, "blinds.9", "info", "continues",
                                         f"Seat {seat} missed the small blind and posts {live}, all live (it is not "
                                         f"over the big blind): it counts toward the call, with the option to "
                                         f"raise.", (seat,)))
        self.table.owes.pop(seat, None)
        self.table.waiting_for_bb.discard(seat)
        out += self._post(t, seat, live, dead, "missed", present)
        b.credited = max(b.credited, present + max(short, 0))
        return out

    def _try_post(self, t: float, seat: int, present: int) -> list[te.TableEvent] | None:
        b = self.seats[seat]
        g = self.game
        if b.posted:
            return None
        out: list[te.TableEvent] = []
        req = self.required.get(seat)
        if req is not None:
            kind, amount = req
            # a big blind short of chips posts what it has (all in): not a small blind in the wrong seat
            if (self.pos.heads_up and kind == "bb" and present < min(amount, self._stack(seat))
                    and not self.voluntary_actions):
                out += self._blinds3(t)
            if self.pos.heads_up and kind == "sb" and present >= g.big_blind and not self.voluntary_actions:
                out += self._blinds3(t)
            if kind == "bb":
                self.table.owes.pop(seat, None)
                self.table.waiting_for_bb.discard(seat)
            return out + self._post(t, seat, min(present, amount), 0, kind, present)
        owed = self.table.owes.get(seat)
        if owed and not (self.dealing and seat == self.to_act):
            live_due, dead_due = self._owed_post(owed)
            # a missed blind made up before the deal may come in short; after it, small chips are a bet
            if present >= live_due or not (self.dealing or seat in self.table.new_players):
                return self._missed_post(t, seat, owed, present, live_due, dead_due)
        if self.dealing or self.voluntary_actions:
            return None
        straddle_amount = 2 * g.big_blind
        kill = self.table.kill
        if kill.enabled and present == kill.amount(g.big_blind) and seat not in self.required:
            if self.killer is not None:
                return [self._finding(t, "kill.11", "dealer", "wager-corrected",
                                      f"Only one kill per deal: seat {self.killer} already killed this pot; seat "
                                      f"{seat} takes the {present} back.", (seat, self.killer))]
            self.killer = seat
            self.structure = Structure.from_game(g, kill.scale)
            return self._post(t, seat, present, 0, "kill", present)
        if present == straddle_amount:
            bb_posted = self.pos.big_blind in self.seats and self.seats[self.pos.big_blind].posted
            if not g.straddle or self.structure.kind == LIMIT:
                why = ("no straddle at limit poker (Blinds 15)" if self.structure.kind == LIMIT
                       else "this table does not allow a straddle")
                b.credited = present
                return [self._finding(t, "no-limit.12", "dealer", "wager-corrected",
                                      f"Seat {seat} put {present} in before the deal but {why}: take it back.",
                                      (seat,))]
            if seat != self.pos.straddle or not bb_posted:
                b.credited = present
                return [self._finding(t, "no-limit.12", "dealer", "wager-corrected",
                                      f"Only the player left of the big blind (seat {self.pos.straddle}) may straddle: "
                                      f"seat {seat} takes the {present} back.", (seat,))]
            out = self._post(t, seat, present, 0, "straddle", present)
            out.append(self._finding(t, "no-limit.12", "info", "continues",
                                     f"Seat {seat} straddles for {present}: live, and acts last before the flop.",
                                     (seat,)))
            return out
        return None

    def _blinds3(self, t: float) -> list[te.FindingRaised]:
        if self.blinds3_raised:
            return []
        self.blinds3_raised = True
        return [self._finding(t, "blinds.3", "dealer", "misdeal",
                             f"Heads-up the small blind is on the button: seat {self.button} posts "
                             f"{self.game.small_blind}, seat {self.pos.big_blind} posts {self.game.big_blind}. "
                             f"Misdeal: correct the blinds and redeal.", (self.button, self.pos.big_blind))]

    def _post(self, t: float, seat: int, live: int, dead: int, kind: str, present: int) -> list[te.TableEvent]:
        b = self.seats[seat]
        live = min(live, self._stack(seat))
        dead = min(dead, self._stack(seat) - live)
        self.table._stacks[seat] -= live + dead
        b.wager += live
        b.credited = present
        b.posted = kind
        if dead:
            self.dead_money[seat] = self.dead_money.get(seat, 0) + dead
        if self._stack(seat) == 0:
            b.all_in = True
        self.cur = max(self.cur, b.wager)
        if kind in ("straddle", "kill"):
            self.last_raise = max(self.last_raise, b.wager)
        self.full_level = max(self.full_level, self.cur, self.game.big_blind if self.pos.big_blind else 0)
        self.raises = 1
        out: list[te.TableEvent] = [te.ActionTaken(t, self.hand, seat, "straddle" if kind == "straddle" else "post",
                                                   live + dead, b.wager, self.street)]
        if not self.voluntary_actions:
            self.pending = self._preflop_order()
            # a blind all in for its post can leave one player with nothing to call: nobody is to act
            out += self._advance(t)
        return out

    # --- the rules of a wager ---------------------------------------------------------------------------
    def _pot_now(self, seat: int) -> int:
        pot = sum(self.contributed.values()) + sum(self.dead_money.values()) + sum(b.wager for b in self.seats.values())
        if (self.structure.sb_counts_as_bb and self.street == "preflop" and self.pos.small_blind in self.seats
                and self.pos.big_blind in self.seats and self.seats[self.pos.big_blind].acted_serial is None
                and self.seats[self.pos.small_blind].wager == self.game.small_blind):
            pot += self.game.big_blind - self.game.small_blind     # Pot-Limit 6
        return pot

    def _rounding(self) -> str:
        r = self.structure.pot_round_to
        return f" (rounded up to a multiple of {r})" if r > 1 else ""

    def _raise_range(self, seat: int, max_total: int) -> tuple[int, int]:
        st, b = self.structure, self.seats[seat]
        if st.is_limit:
            unit = st.unit(self.street)
            target = unit if self.cur == 0 else self.full_level + unit
            return target, target
        base = max(self.cur, self.structure.min_bet(self.street) if self.street == "preflop" else 0)
        min_to = st.min_bet(self.street) if self.cur == 0 else base + self.last_raise
        if st.kind == POT_LIMIT:
            return min_to, max(min_to, st.pot_max_to(self.cur, b.wager, self._pot_now(seat)))
        return min_to, max_total

    def _may_raise(self, seat: int) -> tuple[bool, str, str]:
        """(allowed, rule, ruling) for a raise by ``seat`` now."""
        b, st = self.seats[seat], self.structure
        if b.no_raise:
            return False, "betting.10", f"Seat {seat} checked out of turn and may not bet or raise this turn"
        others = [s for s in self._active() if s != seat]
        if not others:
            return False, "", ""
        if b.acted_serial is not None and b.acted_serial == self.raise_serial and self.cur > b.wager:
            rule = "betting.5" if st.is_limit else "no-limit.3"
            return False, rule, (f"Seat {seat} already acted and was not fully raised (the all-in was short), so "
                                 f"it may only call or fold")
        if st.is_limit and self.raises >= st.cap:
            if len(self._active()) >= 3 or self.capped_multiway:
                extra = " (it was capped before it became heads-up, Betting 4)" if len(self._active()) < 3 else ""
                return False, "betting.3", f"The betting is capped at a bet and {st.max_raises} raises{extra}"
        return True, "", ""

    def _act(self, t: float, seat: int, intent: int, single: int | None, declared: bool) -> list[te.TableEvent]:
        b, st = self.seats[seat], self.structure
        max_total = b.wager + self._stack(seat)
        total = min(intent, max_total)
        cur = self.cur
        out: list[te.TableEvent] = []

        def rule(rule_id: str, ruling: str, severity: str = "dealer") -> None:
            out.append(self._finding(t, rule_id, severity, "wager-corrected", ruling, (seat,)))

        if total <= cur:
            if total < cur and total < max_total:
                target = min(cur, max_total)
                earlier = [lv for lv in self.levels[:-1] if lv == total]
                if self.killer is not None and total == self.game.big_blind and cur >= self.table.kill.amount(
                        self.game.big_blind):
                    rule("kill.9", f"The pot is killed (kill button up): seat {seat} must put in the full {target}.")
                elif earlier or (self.levels and total == (self.levels[-2] if len(self.levels) > 1 else 0)):
                    self.withdrawable = (seat, self.action_serial, self._snapshot(seat))
                    rule("betting.12", f"Seat {seat} put in {total}, unaware of the raise to {cur}: bring it up to "
                                       f"{target}, or take the chips back and act again (nobody has acted since).")
                else:
                    rule("betting.16", f"Seat {seat} must bring the call up to {target} before the round ends.")
                total = target
            return out + self._apply(t, seat, total)
        facing = cur > b.wager
        if single is not None and facing and not declared:
            call_to = min(cur, max_total)
            rule("betting.15" if st.is_limit else "no-limit.9",
                 f"Seat {seat}'s single {single} chip, put in without a word, is a call of {call_to - b.wager}; "
                 f"give back {total - call_to} in change.")
            return out + self._apply(t, seat, call_to)
        allowed, why_rule, why = self._may_raise(seat)
        if not allowed:
            target = min(cur, max_total)
            if why_rule:
                action = f"a call of {target - b.wager}" if target > b.wager else "a check"
                rule(why_rule, f"{why}: the wager is {action}; return {total - target}.")
            return out + self._apply(t, seat, target)
        min_to, max_to = self._raise_range(seat, max_total)
        all_in = total >= max_total
        if total < min_to and not all_in:
            inc_needed = min_to - cur
            short = total - cur
            target = min(min_to, max_total)
            if st.is_limit:
                if cur == 0:
                    rule("betting.16", f"Seat {seat} must bring the bet up to {target} (the bet on this round).")
                elif short * 2 >= st.unit(self.street):
                    rule("betting.14", f"Seat {seat} put in a call and half a bet or more: that is a raise; "
                                       f"it must be completed to {target}.")
                else:
                    target = min(cur, max_total)
                    rule("betting.6", f"Seat {seat}'s {short} over the call is less than a raise: it is a call "
                                      f"of {target - b.wager}; return {short}.")
            else:
                if cur == 0:
                    rule("no-limit.2", f"Seat {seat} must bring the bet up to {target} (the minimum bet).")
                elif short * 2 >= inc_needed:
                    rule("no-limit.10", f"Seat {seat} must bring the raise up to {target} (minimum raise), no more.")
                else:
                    target = min(cur, max_total)
                    rule("no-limit.10", f"Seat {seat}'s {short} over the call is under half the minimum raise: it "
                                        f"is a call of {target - b.wager}; return {short}.")
            total = target
        elif total > max_to:
            surplus = total - max_to
            if st.is_limit:
                rule("betting.16", f"The limit is {max_to} in all: seat {seat}'s wager is {max_to}; return {surplus}.")
            elif single is not None and not facing:
                rule("pot-limit.7", f"Seat {seat}'s single {single} chip is larger than the pot: it is a pot-sized "
                                    f"bet of {max_to}; return {surplus}.")
            elif cur == 0:
                rule("pot-limit.1", f"Seat {seat}'s bet is over the pot{self._rounding()}: it is reduced to {max_to}; "
                                    f"return {surplus}.")
            elif self.street == "preflop" and st.sb_counts_as_bb:
                rule("pot-limit.6", f"With the small blind counted as a big blind the most seat {seat} may make it is "
                                    f"{max_to}; return {surplus}.")
            else:
                rule("pot-limit.4", f"The largest raise is the pot after the call{self._rounding()}: seat {seat} makes it {max_to} "
                                    f"in all; return {surplus}.")
            total = max_to
        return out + self._apply(t, seat, total)

    def _apply(self, t: float, seat: int, total: int) -> list[te.TableEvent]:
        """Record ``seat``'s wager as ``total`` this round: stacks, raise bookkeeping, the turn."""
        b, st = self.seats[seat], self.structure
        cur_before = self.cur
        delta = total - b.wager
        self.table._stacks[seat] -= delta
        b.wager = total
        b.credited = b.present
        b.all_in = self._stack(seat) == 0
        out: list[te.TableEvent] = []
        if total > cur_before:
            action = "bet" if cur_before == 0 else "raise"
            if st.is_limit:
                unit = st.unit(self.street)
                full = (total - self.full_level) * 2 >= unit
            else:
                inc = total - cur_before
                full = inc >= self.last_raise if cur_before else total >= st.min_bet(self.street)
                if full:
                    self.last_raise = max(self.last_raise if cur_before else 0, inc)
            if st.is_limit and self.raises >= st.cap and full:
                out.append(self._finding(t, "betting.4", "info", "continues",
                                         f"Heads-up: raising is unlimited, so seat {seat}'s raise beyond the cap "
                                         f"stands.", (seat,)))
            if full:
                self.raise_serial += 1
                self.full_level = total
                self.raises += 1
                if st.is_limit and self.raises >= st.cap and len(self._active()) >= 3:
                    self.capped_multiway = True
            self.cur = total
            self.aggressor = seat
            self.levels.append(total)
            self.vol_serial += 1
            self.pending = [s for s in clockwise(seat, self._active(), self.n) if s != seat]
        else:
            action = "check" if delta == 0 else "call"
            if delta:
                self.vol_serial += 1
        if b.all_in and delta:
            action = "all-in"
        b.acted_serial = self.raise_serial
        b.voluntary = True
        b.no_raise = False
        b.oot = None
        if self.street == "preflop":
            self.voluntary_actions += 1
        self.action_serial += 1
        self.last_actor, self.last_actor_serial = seat, self.action_serial
        if seat in self.pending:
            self.pending.remove(seat)
        return out + [te.ActionTaken(t, self.hand, seat, action, delta, total, self.street)]

    def _advance(self, t: float) -> list[te.TableEvent]:
        """Skip seats that can no longer act and carry out binding out-of-turn actions (Betting 10)."""
        out: list[te.TableEvent] = []
        while self.pending:
            if self._live_count() <= 1:
                self.pending = []
                break
            seat = self.pending[0]
            b = self.seats[seat]
            if not b.live or b.all_in:
                self.pending.pop(0)
                continue
            active = self._active()
            if len(active) == 1 and b.wager >= self.cur:
                self.pending = []
                break
            if b.oot is None:
                break
            kind, intent, single, serial = b.oot
            b.oot = None
            if serial != self.vol_serial:
                if kind == "check":
                    b.no_raise = True
                break
            if kind == "check":
                if b.wager >= self.cur:
                    out.append(self._apply(t, seat, b.wager)[-1])
                continue
            out += self._act(t, seat, intent, single, False)
        return out

    def _snapshot(self, seat: int) -> dict:
        keys = ("seats", "pending", "cur", "last_raise", "full_level", "raises", "raise_serial", "vol_serial",
                "action_serial", "last_actor", "last_actor_serial", "aggressor", "levels", "capped_multiway",
                "voluntary_actions")
        snap = {k: copy.deepcopy(getattr(self, k)) for k in keys}
        snap["_stack"] = self._stack(seat)
        return snap

    def _taken_back(self, t: float, seat: int, value: int) -> list[te.TableEvent]:
        b = self.seats.get(seat)
        out: list[te.TableEvent] = [te.ChipsMoved(t, self.hand, f"bet{seat}", seat, -value, (value,))]
        if b is None or self.settled:
            return out
        present = b.present
        top, extra = uncalled({s: x.wager for s, x in self.seats.items()})
        # the uncalled part of a bet handed back at the end of the round; once everyone else has folded the
        # whole pot is this seat's, so whatever it takes back early changes nothing
        if (top == seat and self.to_act is None and present >= b.wager - extra) or (
                b.live and self._live_count() <= 1):
            b.credited = min(b.credited, present)
            return out
        if present < b.wager:
            w = self.withdrawable
            if w and w[0] == seat and w[1] + 1 == self.action_serial:
                snap = w[2]
                zone = b.zone
                for k, v in snap.items():
                    if k != "_stack":
                        setattr(self, k, v)
                self.table._stacks[seat] = snap["_stack"]
                self.live = {s for s, x in self.seats.items() if x.live}
                self.seats[seat].zone = zone
                self.seats[seat].credited = present
                self.withdrawable = None
                return out
            if not b.folded and (seat, self.street, b.wager) not in self.binding_told:
                self.binding_told.add((seat, self.street, b.wager))
                out.append(self._finding(t, "betting.12", "dealer", "wager-corrected",
                                         f"Seat {seat} took chips back: a bet released into the pot is binding; "
                                         f"put {b.wager - present} back.", (seat,)))
        b.credited = min(b.credited, present)
        return out

    # --- taps and the engine's calls ---------------------------------------------------------------------
    def check(self, t: float, seat: int | None = None) -> list[te.TableEvent]:
        out = self._sync(t, seat)
        if self.settled:
            return out
        seat = seat if seat is not None else self.to_act
        if seat is None:
            return out
        b = self.seats.get(seat)
        if b is None or not b.live or b.all_in:
            return out + [self._finding(t, "betting.10", "dealer", "continues",
                                        f"Seat {seat} has no hand in play or is all-in: the check means nothing.",
                                        (seat,))]
        if seat != self.to_act:
            if seat in self.pending:
                b.oot = ("check", b.wager, None, self.vol_serial)
                return out + [self._finding(t, "betting.10", "dealer", "continues",
                                            f"Seat {seat} checked out of turn (seat {self.to_act} is to act): the check "
                                            f"is binding if nobody in between bets; if someone does, seat {seat} may "
                                            f"not raise on that turn.", (seat, self.to_act))]
            if b.wager >= self.cur:
                return out      # a check with nothing to answer (e.g. everyone else all-in) changes nothing
            return out + [self._finding(t, "betting.10", "dealer", "continues",
                                        f"Seat {seat} has no action pending: the check changes nothing.", (seat,))]
        if b.wager < self.cur:
            return out + [self._finding(t, "betting.16", "dealer", "wager-corrected",
                                        f"Seat {seat} cannot check facing {self.cur}: call {self.cur - b.wager}, "
                                        f"raise or fold.", (seat,))]
        return out + self._apply(t, seat, b.wager) + self._advance(t)

    def fold(self, t: float, seat: int) -> list[te.TableEvent]:
        out = self._sync(t, seat)
        b = self.seats.get(seat)
        if self.settled or b is None or not b.live:
            return out
        if seat != self.to_act and seat in self.pending and self.to_act is not None:
            out.append(self._finding(t, "betting.10", "dealer", "continues",
                                     f"Seat {seat} folded out of turn (seat {self.to_act} is to act): the fold stands.",
                                     (seat,)))
        b.folded = True
        self.live.discard(seat)
        b.voluntary = True
        if self.street == "preflop":
            self.voluntary_actions += 1
        if seat in self.pending:
            self.pending.remove(seat)
        self.action_serial += 1
        out.append(te.ActionTaken(t, self.hand, seat, "fold", 0, b.wager, self.street))
        return out + self._advance(t)

    def kill_hand(self, t: float, seat: int) -> list[te.TableEvent]:
        """A dead hand (the engine's ruling): out of the pot, its chips stay in."""
        out = self._sync(t, seat)
        b = self.seats.get(seat)
        if b is None or not b.live:
            return out
        b.dead = True
        self.live.discard(seat)
        if seat in self.pending:
            self.pending.remove(seat)
        return out + self._advance(t)

    def _end_round(self, t: float) -> list[te.TableEvent]:
        out = self._flush(t)
        wagers = {s: b.wager for s, b in self.seats.items()}
        seat, extra = uncalled(wagers)
        if seat is not None and self.seats[seat].live:
            self.seats[seat].wager -= extra
            self.table._stacks[seat] += extra
            out.append(te.StackChanged(t, self.hand, seat, self._stack(seat), "refund"))
        for s, b in self.seats.items():
            self.contributed[s] += b.wager
            b.wager = 0
            b.credited = b.present
            b.acted_serial = None
            b.no_raise = False
            b.oot = None
        self.cur, self.full_level, self.raises = 0, 0, 0
        self.last_raise = self.structure.min_bet("flop")
        self.capped_multiway = False
        self.levels = []
        self.raise_serial += 1
        self.withdrawable = None
        return out

    def next_street(self, t: float, street: str) -> list[te.TableEvent]:
        if street == self.street or self.settled or street in self.ended_streets:
            return []
        out = self._end_round(t)
        self.ended_streets.add(self.street)
        out.append(te.BettingRoundEnded(t, self.hand, self.street, self.pot_total()))
        self.street = street
        self.aggressor = None if street != "showdown" else self.aggressor
        self.pending = self._postflop_order() if street != "showdown" else []
        return out

    def refund(self, t: float, reason: str) -> list[te.TableEvent]:
        """Misdeal or void: every chip goes back to whoever put it in."""
        if self.settled:
            return []
        self.motions.clear()
        self.held.clear()
        self.leaving.clear()
        out: list[te.TableEvent] = []
        for s, b in self.seats.items():
            back = self.contributed[s] + b.wager + self.dead_money.get(s, 0)
            if back:
                self.table._stacks[s] += back
                out.append(te.StackChanged(t, self.hand, s, self._stack(s), "refund"))
            self.contributed[s], b.wager = 0, 0
        self.dead_money.clear()
        self.settled = True
        return out

    def settle(self, t: float, winners_by_pot: list[tuple[int, ...]]) -> tuple[list[te.Pot], dict[int, int]]:
        """Award every pot: ``winners_by_pot[i]`` won pot ``i`` of ``pots()`` (main first). A pot with no
        winners named goes to its only eligible seat. Returns the pots with shares, and every seat's stack."""
        if self.settled:
            return [], self.table.stacks
        if self.street != "showdown":
            self._end_round(t)
            self.ended_streets.add(self.street)
        pots = self.pots()
        unit = max(1, self.game.smallest_chip)
        done: list[te.Pot] = []
        for i, pot in enumerate(pots):
            winners = tuple(winners_by_pot[i]) if i < len(winners_by_pot) and winners_by_pot[i] else ()
            winners = tuple(w for w in winners if w in pot.eligible) or (pot.eligible if len(pot.eligible) == 1 else ())
            if not winners:
                winners = pot.eligible     # nobody named: split among the eligible rather than lose chips
            awarded = split(pot, winners, self.button, self.n, unit)
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
