"""The floor's tournament instructions at one table (Tournaments 12, 14a, 14b, 15, 16, 17): what the dealer is
told, what the dealer confirms, and the seats moved in. Pure: the instruction arrives as a logged input
(``floor-instruction``, its payload in ``detail``), so a replay rules exactly as the live table did.

The floor plans across tables (``dealerbox.tournament.floor.Director``); this table only follows:

- ``move``: for each player this table sends, name the seat (14a: the floor's choice, or the player due for
  the big blind next deal when the floor leaves it to the table) and wait for the dealer's ``moved-out``; for
  each player it receives, name the seat (14b: the floor's, or the open seat the big blind reaches first)
  and wait for ``moved-in``. With the floor's table counts, this table is flagged when it is the one off
  balance (16).
- ``break``: this table breaks (12): every player's destination; once the last has gone it shows "broken".
- ``redraw``: the field reached a redraw point (17): the floor redraws the seats.

A player moved in is dealt in at the next deal wherever the blinds are, never held back as a new player
between the big blind and the button (15, in place of ``blinds.7``).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from collections.abc import Callable

from ...tournament.seating import TableSeats, balance_flags, player_to_send, seat_for_arrival
from .. import events as te
from ..catalogue import raised_at
from ..inputs import DealerInput
from ..cards.misdeal import Ruling
from ..state import InstructionView
from ..referee import Referee
from ..seating import Seating
from ...config import Config
from ..betting import TableBetting


MOVE_ACTIONS = frozenset({"floor-instruction", "moved-out", "moved-in"})
INSTRUCTIONS = ("move", "break", "redraw")


@dataclass(frozen=True, slots=True)
class Move:
    from_table: str
    from_seat: int | None
    to_table: str
    to_seat: int | None
    rule: str


@dataclass(frozen=True, slots=True)
class Instruction:
    """An instruction payload as this table reads it (schemas/floor/tournament.json)."""
    plan: int
    instruction: str
    rule: str
    moves: tuple[Move, ...]
    tables_left: int | None = None
    counts: dict[str, int] = field(default_factory=dict)   # every table's players, when the floor sends them


def read_instruction(detail: str | None, table: str) -> Instruction | None:
    """The instruction in a ``floor-instruction`` input's ``detail``, or None when it is not one for ``table``
    (the floor link checked the schema; a log edited by hand or a scenario may still carry anything)."""
    try:
        data = json.loads(detail or "")
        if not isinstance(data, dict) or data.get("table") != table or data.get("instruction") not in INSTRUCTIONS:
            return None
        moves = tuple(Move(str(m["from_table"]), _seat(m.get("from_seat")), str(m["to_table"]),
                           _seat(m.get("to_seat")), str(data.get("rule", ""))) for m in data.get("moves", ()))
        counts = data.get("counts") or {}
        return Instruction(int(data["plan"]), data["instruction"], str(data.get("rule", "")), moves,
                           data.get("tables_left"), {str(k): int(v) for k, v in counts.items()})
    except (ValueError, TypeError, KeyError, AttributeError):
        return None


def _seat(value: object) -> int | None:
    if value is None:
        return None
    if isinstance(value, int | str):
        return int(value)
    raise TypeError(f"a seat is a number, not {value!r}")


@dataclass
class TableMoves:
    """This table's side of the floor's plans: the open instruction and the seats still to confirm."""
    table: str
    plan: int = 0
    instruction: str = ""
    rule: str = ""
    text: str = ""
    lines: tuple[str, ...] = ()
    send: dict[int, str] = field(default_factory=dict)      # seat -> where the player goes
    receive: dict[int, str] = field(default_factory=dict)   # seat -> where the player comes from
    redraw: str = ""                                        # the redraw prompt, until the next deal (17)
    breaking: bool = False
    broken: bool = False
    moved_in: set[int] = field(default_factory=set)         # confirmed moved in, not dealt yet (Tournaments 15)
    refused: int = 0                                        # instructions this table could not read
    counted: int | None = None   # players in the event by the floor's last counts, less the busts here since
    counted_plan: int = 0        # the plan those counts came with

    def view(self) -> InstructionView | None:
        if self.broken:
            return InstructionView(self.plan, "break", "tournament.12", "This table is broken", self.lines,
                                   broken=True)
        if self.instruction:
            extra = (self.redraw,) if self.redraw else ()
            return InstructionView(self.plan, self.instruction, self.rule, self.text, self.lines + extra,
                                   tuple(sorted(self.send)), tuple(sorted(self.receive)))
        if self.redraw:
            return InstructionView(self.plan, "redraw", "tournament.17", self.redraw)
        return None

    def close_if_done(self, occupied: set[int]) -> None:
        if self.send or self.receive:
            return
        if self.breaking and not occupied:
            self.broken = True
        if not self.breaking or self.broken:
            self.instruction = ""

    def left(self, seat: int) -> None:
        """The dealer confirmed seat ``seat`` moved out."""
        self.send.pop(seat, None)

    def arrived(self, seat: int) -> None:
        """The dealer confirmed a player moved in at ``seat``: dealt in at the next deal (Tournaments 15)."""
        self.moved_in.add(seat)
        self.receive.pop(seat, None)

    def reopen(self) -> None:
        """A player sent to a broken table: the floor reopened it."""
        if self.broken:
            self.broken = self.breaking = False

    def hand_dealt(self) -> set[int]:
        """A hand starts: the redraw prompt is over (the new deal is at the new seats); the seats moved in
        since the last deal, now dealt in."""
        self.redraw = ""
        moved_in, self.moved_in = self.moved_in, set()
        return moved_in

    def busted_to(self, left: int) -> None:
        """Players went out here: the floor's count of the event, less them."""
        self.counted = left

    def instructed(self, detail: str | None, seats: TableSeats) -> list[Raise]:
        """The floor's instruction in ``detail``, this table's seats as ``seats``: what the dealer is told."""
        inst = read_instruction(detail, self.table)
        if inst is None:
            self.refused += 1
            return []
        if inst.plan < self.plan:
            return []            # an older plan arriving late: the floor has planned afresh since
        self.plan = inst.plan
        if inst.counts:      # every table's players as the floor planned: the event's field, when no clock says it
            self.counted, self.counted_plan = sum(inst.counts.values()), inst.plan
        if inst.instruction == "redraw":   # comes after the same plan's moves: those stay open
            left = inst.tables_left
            self.redraw = f"Redraw for seats: the field is down to {left} table(s)" if left else "Redraw for seats"
            return [("tournament.17", "floor", "continues", self.redraw + "; the floor runs the draw.", ())]
        self.instruction, self.rule = inst.instruction, inst.rule
        self.send, self.receive = {}, {}
        said: list[Raise] = []
        lines: list[str] = []
        taken: set[int] = set()
        for m in inst.moves:
            if m.from_table == self.table:
                seat = m.from_seat if m.from_seat is not None else player_to_send(seats)
                if seat is None:
                    continue
                where = (f"{m.to_table} seat {m.to_seat}" if m.to_seat is not None
                         else f"{m.to_table} (the floor seats them)")
                self.send[seat] = where
                lines.append(f"Seat {seat} to {where}")
            elif m.to_table == self.table:
                seat = m.to_seat if m.to_seat is not None else seat_for_arrival(seats, frozenset(taken))
                if seat is None:
                    continue
                taken.add(seat)
                self.receive[seat] = f"{m.from_table} seat {m.from_seat}"
                lines.append(f"Seat {seat} for the player from {m.from_table} seat {m.from_seat}")
        self.lines = tuple(lines)
        if inst.instruction == "break":
            self.breaking = True
            self.text = "This table breaks"
            said.append(("tournament.12", "floor", "continues",
                         f"This table breaks on the floor's call: {'; '.join(lines)}. Tap Moved out as each seat "
                         "empties.",
                         tuple(sorted(self.send))))
            return said
        if self.send:
            in_play = {n: c for n, c in inst.counts.items() if c > 0}   # an emptied (broken) table balances nothing
            flagged = [r for r in balance_flags(in_play) if r.ruling.startswith(f"{self.table} has")]
            said += [(r.rule, r.severity, r.outcome, r.ruling + ".", ()) for r in flagged]
            for seat, where in sorted(self.send.items()):
                said.append(("tournament.14a", "dealer", "continues",
                             f"Send seat {seat} to {where}: the player due for the big blind next deal. Tap Moved out "
                             "when the seat is empty.", (seat,)))
        for seat, origin in sorted(self.receive.items()):
            said.append(("tournament.14b", "dealer", "continues",
                         f"Seat {seat} is for the player from {origin}: the open seat the big blind reaches first. "
                         "Tap Moved in when they sit.", (seat,)))
        self.text = "Balancing: move players" if self.send else "Balancing: players arrive"
        return said


Raise = tuple[str, str, str, str, tuple[int, ...]]   # rule, severity, outcome, ruling, seats


Tap = Callable[[DealerInput], list[te.TableEvent]]


class FloorMoves:
    """The floor's moves at this table, kept in ``moves``: a player moved out leaves and one moved in sits (by
    the ``tap`` handed to :meth:`follow`), seats read from ``seating``; cash tables raise nothing of it."""

    def __init__(self, config: Config, moves: TableMoves, seating: Seating, betting: TableBetting,
                 referee: Referee) -> None:
        self.config = config
        self.moves = moves
        self.seating = seating
        self.betting = betting
        self.referee = referee

    def follow(self, e: DealerInput, tap: Tap) -> list[te.TableEvent]:
        """The engine's answer to a ``floor-instruction``, ``moved-out`` or ``moved-in`` input; ``tap`` seats and
        unseats as the dealer's ``sit`` and ``leave`` taps do."""
        moves, occupied = self.moves, self.seating.occupied
        if e.action == "floor-instruction":
            seating = self.seating
            seats = TableSeats(moves.table, seating.seats, frozenset(seating.occupied),
                               seating.puck or seating.last_button)
            return self._raise(e.t, moves.instructed(e.detail, seats))
        if e.seat is None:
            return []
        if e.action == "moved-out":
            said: list[Raise] = []
            if moves.instruction and e.seat not in moves.send and moves.send:
                said.append(("tournament.14a", "dealer", "continues",
                             f"Seat {e.seat} moved out, but the floor's plan {moves.plan} sends seat(s) "
                             f"{', '.join(map(str, sorted(moves.send)))}: call the floor.", (e.seat,)))
            moves.left(e.seat)
            out = tap(DealerInput(e.t, "leave", seat=e.seat)) if e.seat in occupied else []
            moves.close_if_done(self.seating.occupied)
            return out + self._raise(e.t, said)
        # moved-in: seated at once, not a new player waiting for the button to pass (Tournaments 15)
        said = _unassigned(moves, e.seat)
        moves.reopen()   # a broken table the floor sends a player to is a table again
        out = tap(DealerInput(e.t, "sit", seat=e.seat, amount=e.amount))
        self.betting.moved_in(e.seat)
        moves.arrived(e.seat)
        moves.close_if_done(self.seating.occupied)
        return out + self._raise(e.t, said)

    def dealt(self, t: float, order: tuple[int, ...]) -> list[te.TableEvent]:
        """At the start of a hand: the players moved in since the last deal are dealt in (Tournaments 15)."""
        moved_in = self.moves.hand_dealt()
        if not moved_in:
            return []
        from ...tournament.entrants import moved_in_deal   # the tournament package only where a player was moved in
        arrived = {s for s in moved_in if s in self.seating.occupied}
        rulings = moved_in_deal(arrived, set(order))
        return self._raise(t, [(r.rule, r.severity, r.outcome, r.ruling + ".", r.seats) for r in rulings])

    def _raise(self, t: float, said: list[Raise]) -> list[te.TableEvent]:
        if not raised_at("tournament.12", self.config.is_tournament):
            return []             # a cash table follows no tournament instruction
        return self.referee.rule(t, [_ruling(*r) for r in said])


def _unassigned(moves: TableMoves, seat: int) -> list[Raise]:
    """An arrival in a seat the floor did not assign (arrivals take only the floor's seats, Tournaments 12)."""
    if not moves.instruction or not moves.receive or seat in moves.receive:
        return []
    assigned = ", ".join(map(str, sorted(moves.receive)))
    if moves.rule == "tournament.12":
        return [("tournament.12", "floor", "continues", f"Seat {seat} was taken by a player from a broken table, "
                 f"but the floor assigned seat(s) {assigned}: call the floor.", (seat,))]
    return [("tournament.14b", "dealer", "continues", f"Seat {seat} was taken, but the floor's plan {moves.plan} "
             f"seats the arrival at seat(s) {assigned}: call the floor.", (seat,))]


def _ruling(rule: str, severity: str, outcome: str, text: str, seats: tuple[int, ...]) -> Ruling:
    return Ruling(rule, outcome, text, seats, (), severity=severity)
