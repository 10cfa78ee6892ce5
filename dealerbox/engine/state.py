"""A snapshot of the table for displays (screen, floor ``state`` topic). Built by ``Engine.snapshot()``.

Holds no hidden hole card: ``SeatView.shown`` is filled only once a hand is shown at showdown.
"""

from __future__ import annotations

from dataclasses import dataclass, field

# Floor calls of earlier hands the snapshot lists, newest first kept: with nobody acknowledging, a long session
# piles them up (some 200 by hand 10,000 of a soak), and every state, the screen's and the retained floor state,
# carried them all. Each one went to the floor as its own alert; the snapshot counts the rest (findings_open).
OPEN_LISTED = 20
# a draw game's betting rounds carry the hold'em street names inside the engine (docs/draw.md)
DRAW_BET_ROUNDS = {"preflop": 1, "flop": 2, "turn": 3, "river": 4}


@dataclass(frozen=True, slots=True)
class SeatView:
    seat: int
    occupied: bool = False
    in_hand: bool = False
    folded: bool = False
    all_in: bool = False
    to_act: bool = False
    dead: bool = False
    cards_held: int = 0               # how many, never which
    shown: tuple[str, ...] = ()       # filled at showdown only
    bet: int = 0                      # chips in the bet zone this round
    stack: int = 0
    drawn: int | None = None          # a draw being dealt: cards given to it in this draw (0: stood pat), None
                                      # until its turn is done; how many, never which
    to_draw: bool = False             # a draw being dealt: its turn to throw and draw (or stand pat)


@dataclass(frozen=True, slots=True)
class FindingView:
    id: str
    rule: str
    citation: str
    severity: str
    outcome: str
    ruling: str
    seats: tuple[int, ...] = ()
    cards: tuple[str, ...] = ()
    acknowledged: bool = False
    hand: int | None = None            # the hand that raised it
    t: float = 0.0                     # when it was raised, on the source clock


@dataclass(frozen=True, slots=True)
class QuestionView:
    """A question only the dealer can answer (the chips cannot tell): the hand waits for one tap.

    ``answers`` are (key, label) pairs, the first the likely one; a tap sends
    ``DealerInput(action="answer", ref=id, choice=key)``.
    """
    id: str
    text: str
    answers: tuple[tuple[str, str], ...]
    seat: int | None = None
    rule: str = ""


@dataclass(frozen=True, slots=True)
class TournamentView:
    """A tournament table's clock and event, as the screen and the floor's state show them (docs/tournaments.md).

    ``left_s`` is the time left at source time ``at``: a painter counts down from there while ``running``."""
    tournament: str                       # the event's id
    level: int                            # the level playing (during a break: the level after it)
    small_blind: int
    big_blind: int
    ante: int
    big_blind_ante: int
    left_s: float
    at: float
    running: bool
    on_break: bool
    next_level: int | None = None         # None on the last level
    next_small_blind: int = 0
    next_big_blind: int = 0
    next_ante: int = 0
    next_big_blind_ante: int = 0
    next_is_break: bool = False
    players_left: int | None = None       # in the whole event, as the floor counts them; None: not known
    tables_left: int | None = None
    rebuys_owed: tuple[int, ...] = ()     # seats playing on a rebuy not paid yet (Tournaments 33)


@dataclass(frozen=True, slots=True)
class InstructionView:
    """The floor's open instruction to this table (Tournaments 12, 14a, 14b, 17), as the screen's banner shows it.

    Each seat in ``send`` waits for the dealer's ``moved-out`` tap (the seat is empty), each in ``receive``
    for ``moved-in`` (the seat is taken); ``lines`` say who goes where, one per move. ``broken``: this table
    broke on the floor's call and its last player has gone."""
    plan: int
    instruction: str                      # "move", "break" or "redraw"
    rule: str                             # the row the floor sent it under
    text: str                             # the headline, e.g. "This table breaks"
    lines: tuple[str, ...] = ()           # "Seat 5 to T02 seat 6"
    send: tuple[int, ...] = ()            # seats still to see empty
    receive: tuple[int, ...] = ()         # seats still to see taken
    broken: bool = False


@dataclass(frozen=True, slots=True)
class RaceView:
    """A chip race between hands (Tournaments 8a-8d), as the screen guides it: the chip raced off and the one it
    is raced for, each seat's odd chips read in its bet zone, the race cards read face up in its seat zone (no
    hole card: a race card is dealt face up for everyone to see), and, once the ``chip-race`` tap found the
    deal right, the new chips each seat wins (``won``; None until then), which a second tap confirms."""
    old_value: int
    new_value: int
    old_colour: str = ""
    new_colour: str = ""
    odd: tuple[tuple[int, int], ...] = ()                  # (seat, odd chips), seats in order
    cards: tuple[tuple[int, tuple[str, ...]], ...] = ()    # (seat, race cards in the order dealt)
    won: tuple[tuple[int, int], ...] | None = None         # (seat, new chips won) for every seat racing


@dataclass(frozen=True, slots=True)
class HouseView:
    """The house practices in the snapshot (engine/practices.py): what the table allows, the keys open now, and
    the hand's boards beyond the first with what each board won at the showdown."""
    practices: str = ""                   # the house practices this table allows, for the top bar ("" = none)
    runs_offer: int = 0                   # the most runs the dealer may agree now (0: the key is not offered)
    bomb_offer: int = 0                   # between hands at a bomb-pot table: the post the bomb-pot keys start
    boards: tuple[tuple[str, ...], ...] = ()   # boards 2.. of the hand (runs agreed, a double-board bomb pot)
    board_winners: tuple[str, ...] = ()   # at the showdown, a line per board: "Board 2: S5 Two Pair"
    bomb_boards: int = 2                  # with bomb_offer: the most boards the deck deals the players now (1, 2)


@dataclass(frozen=True, slots=True)
class DrawView:
    """A draw game's hand (27td, docs/draw.md): the draw under way or last (0: none yet), whether it is being
    dealt now, and whose turn it is to draw (the ``stand-pat`` key's seat)."""
    number: int = 0
    dealing: bool = False
    turn: int | None = None

    def round_name(self, phase: str) -> str | None:
        """The round as the dealer's screen and the floor say it: "Draw 1" to "Draw 3" while a draw is dealt,
        "Bet 1" to "Bet 4" in a betting round; None in the other phases (the deal, the showdown)."""
        if phase not in DRAW_BET_ROUNDS:
            return None
        return f"Draw {self.number}" if self.dealing else f"Bet {DRAW_BET_ROUNDS[phase]}"


@dataclass(frozen=True, slots=True)
class TableState:
    hand: int | None = None
    phase: str = "idle"      # "idle", "deal", "preflop", "flop", "turn", "river", "showdown", "misaward", "ended"
    game: str = ""
    button: int | None = None
    board: tuple[str, ...] = ()
    burn_count: int = 0
    muck_count: int = 0
    pot: int = 0                         # chips in the pot zone (gathered)
    pots: tuple[tuple[int, tuple[int, ...]], ...] = ()  # (amount, eligible seats): main first
    seats: tuple[SeatView, ...] = ()
    findings: tuple[FindingView, ...] = ()   # the hand's findings, and the newest OPEN_LISTED floor calls of
                                             # earlier hands still unacknowledged
    findings_open: int = 0               # unacknowledged findings open in all, those not listed included
    oldest_open: FindingView | None = None   # the oldest of them (listed or not)
    to_act: int | None = None
    deck_id: str | None = None
    winners: dict[int, int] = field(default_factory=dict)  # seat -> chips to push, at showdown
    pot_winners: tuple[tuple[int, ...], ...] = ()  # winners of each pot in `pots` order, at showdown
    pot_halves: tuple[str, ...] = ()   # split games at showdown, per pot: "High: seat 3 Flush · Low: seat 5 7-5-4-2-A"
    question: QuestionView | None = None  # an open question to the dealer; the hand waits for its answer
    dealer: str | None = None             # the dealer signed in (an id, never a PIN), None when nobody is
    tournament: TournamentView | None = None   # a tournament table's clock and event; None at a cash table
    instruction: InstructionView | None = None  # the floor's open move/break/redraw (engine/tournament/moves.py)
    race: RaceView | None = None          # a chip race open between hands (engine/tournament/chips.py)
    house: HouseView = field(default_factory=lambda: HouseView())   # run it twice, bomb pots (house practices)
    draw: DrawView | None = None          # a draw game's hand under way: its draws (None: not a draw game)
