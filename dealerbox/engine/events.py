"""What the engine emits: table events, past-tense facts. Every sink (screen, floor, panel, recorder)
reads these and nothing else.

``to_dict()`` is the JSON contract of ``dealerbox replay --jsonl`` (docs/table-events.md): one object per
event, ``{"event": "CardDealt", "t": ..., "hand": ..., ...}``. Fields named in ``SECRET_FIELDS`` hold hole
cards, or a dealer's badge UID (a UID-only badge is cloned from it): they are written as ``null`` unless
``reveal=True`` (audit use only; never the floor). The objects themselves keep them: the live terminal signs
a badge's dealer in from ``BadgeShown.uid``.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Any, ClassVar, TypeVar


@dataclass(frozen=True, slots=True)
class TableEvent:
    t: float
    hand: int | None

    SECRET_FIELDS: ClassVar[tuple[str, ...]] = ()
    OPTIONAL_FIELDS: ClassVar[tuple[str, ...]] = ()   # left out of to_dict() when None: older output unchanged

    @property
    def kind(self) -> str:
        return type(self).__name__

    def to_dict(self, reveal: bool = False) -> dict[str, Any]:
        out: dict[str, Any] = {"event": self.kind}
        for f in dataclasses.fields(self):
            value = getattr(self, f.name)
            if f.name in self.SECRET_FIELDS and not reveal:
                value = None
            elif value is None and f.name in self.OPTIONAL_FIELDS:
                continue
            out[f.name] = _jsonable(value)
        return out


E = TypeVar("E", bound=TableEvent)


def _direct_init(cls: type[E]) -> type[E]:
    """Give a frequent event an ``__init__`` that sets each slot through its descriptor, not through
    ``object.__setattr__`` as a frozen dataclass's does: same signature, same frozen object, 40 % cheaper to make
    (the engine makes one per chip pushed and per action). Only for events whose fields have no default."""
    fields = dataclasses.fields(cls)
    if any(f.default is not dataclasses.MISSING or f.default_factory is not dataclasses.MISSING for f in fields):
        raise TypeError(f"{cls.__name__}: _direct_init takes only fields without a default")
    names = [f.name for f in fields]
    scope: dict[str, Any] = {f"_set_{n}": getattr(cls, n).__set__ for n in names}
    exec(f"def __init__(self, {', '.join(names)}):\n" + "".join(f"    _set_{n}(self, {n})\n" for n in names), scope)
    scope["__init__"].__qualname__ = f"{cls.__qualname__}.__init__"
    cls.__init__ = scope["__init__"]   # type: ignore[method-assign]  # the generated __init__ replaces the dataclass one on purpose
    return cls


def _jsonable(value: Any) -> Any:
    if isinstance(value, tuple | list):
        return [_jsonable(v) for v in value]
    if isinstance(value, dict):
        return {str(k): _jsonable(v) for k, v in value.items()}
    if dataclasses.is_dataclass(value):
        return {f.name: _jsonable(getattr(value, f.name)) for f in dataclasses.fields(value)}
    return value


# --- the table and the reader board -----------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class BoardConnected(TableEvent):
    protocol: str
    firmware: str
    zones: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class ReaderHealthChanged(TableEvent):
    reader: int
    zone: str
    ok: bool
    code: int


@dataclass(frozen=True, slots=True)
class SensorDataLost(TableEvent):
    count: int
    reason: str


@dataclass(frozen=True, slots=True)
class UnknownTagSeen(TableEvent):
    """A tag no enrolment names arrived in ``zone``. It may be a dealer's badge this table does not hold as a
    ``badge`` marker (a new badge, a dealer from another table), so its uid is masked in every public view as a
    badge's is; only a keyed replay with ``--reveal-hole-cards`` prints it."""
    zone: str
    uid: str | None
    SECRET_FIELDS: ClassVar[tuple[str, ...]] = ("uid",)


@dataclass(frozen=True, slots=True)
class PlayerSeated(TableEvent):
    seat: int
    stack: int


@dataclass(frozen=True, slots=True)
class PlayerLeft(TableEvent):
    seat: int
    stack: int


@dataclass(frozen=True, slots=True)
class StackChanged(TableEvent):
    seat: int
    stack: int
    reason: str  # "rebuy", "award", "refund"


@dataclass(frozen=True, slots=True)
class ButtonMoved(TableEvent):
    seat: int


@dataclass(frozen=True, slots=True)
class DeckChanged(TableEvent):
    deck_id: str
    back: str


# --- a hand -----------------------------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class HandStarted(TableEvent):
    button: int
    seats: tuple[int, ...]          # dealt in, in dealing order (first left of the button first)
    game: str                       # variant key, e.g. "nlhe", "plo"
    blinds: dict[int, int] = field(default_factory=dict)   # seat -> amount owed


@dataclass(frozen=True, slots=True)
class DealtAround(TableEvent):
    """A seat the hand started with owed a post (a new player's big blind, or missed blinds) and had posted
    nothing when the deal passed it: it waits (Blinds 4a, 5, 9), out of this hand, still seated and owing."""
    seat: int
    owed: int                       # the chips it owes, as it would post them (Blinds 4b, 9)


@_direct_init
@dataclass(frozen=True, slots=True)
class CardDealt(TableEvent):
    seat: int
    card: str | None
    face_up: bool
    SECRET_FIELDS: ClassVar[tuple[str, ...]] = ("card",)


@_direct_init
@dataclass(frozen=True, slots=True)
class CardBurned(TableEvent):
    card: str | None
    SECRET_FIELDS: ClassVar[tuple[str, ...]] = ("card",)


@_direct_init
@dataclass(frozen=True, slots=True)
class BoardCardDealt(TableEvent):
    street: str   # "flop", "turn", "river"
    card: str


@dataclass(frozen=True, slots=True)
class CardsDrawn(TableEvent):
    """A draw game: ``seat`` was given its ``count`` cards in draw ``draw`` (1, 2, 3); the cards are not told."""
    seat: int
    draw: int
    count: int


@dataclass(frozen=True, slots=True)
class RunCardDealt(TableEvent):
    """A card of board 2 or 3: a run agreed after an all-in, or a bomb pot's second board."""
    board: int    # 2 or 3
    street: str   # the street this card completes on its board: "flop", "turn", "river"
    card: str


@dataclass(frozen=True, slots=True)
class RunsAgreed(TableEvent):
    """The dealer agreed to deal the rest of the board ``runs`` times (house practice: run it twice)."""
    runs: int
    board: tuple[str, ...]   # the cards every run shares


@dataclass(frozen=True, slots=True)
class BombPotStarted(TableEvent):
    """The dealer started a bomb pot (house practice): every player posts ``amount``, no preflop betting."""
    amount: int
    boards: int


@_direct_init
@dataclass(frozen=True, slots=True)
class CardMucked(TableEvent):
    seat: int | None
    card: str | None
    SECRET_FIELDS: ClassVar[tuple[str, ...]] = ("card",)


@_direct_init
@dataclass(frozen=True, slots=True)
class ChipsMoved(TableEvent):
    zone: str
    seat: int | None
    amount: int          # positive in, negative out
    chips: tuple[int, ...]   # chip values in this motion


@_direct_init
@dataclass(frozen=True, slots=True)
class ActionTaken(TableEvent):
    seat: int
    action: str          # "post", "ante", "straddle", "check", "bet", "call", "raise", "fold", "all-in"
    amount: int          # chips added by this action
    total: int           # seat's total wager this round after it
    street: str


@dataclass(frozen=True, slots=True)
class BettingRoundEnded(TableEvent):
    street: str
    pot: int


@dataclass(frozen=True, slots=True)
class HandShown(TableEvent):
    seat: int
    cards: tuple[str, ...]
    rank: str            # "Two Pair, Aces and Kings"


@dataclass(frozen=True, slots=True)
class Pot:
    amount: int
    eligible: tuple[int, ...]
    winners: tuple[int, ...] = ()
    shares: dict[int, int] = field(default_factory=dict)   # seat -> chips won from this pot


@dataclass(frozen=True, slots=True)
class PotAwarded(TableEvent):
    index: int           # 0 main, 1.. side pots
    pot: Pot


@dataclass(frozen=True, slots=True)
class PotSplitByBoard(TableEvent):
    """A pot played on two or more boards (runs agreed, a double-board bomb pot): one board's part of it."""
    index: int           # the pot: 0 main, 1.. side pots
    board: int           # 1-based
    pot: Pot             # this board's part: amount, winners, shares


@dataclass(frozen=True, slots=True)
class PotSplitByHalf(TableEvent):
    """A split game's pot divided high and low (highlow.1): one half's part of it, on one board."""
    index: int           # the pot: 0 main, 1.. side pots
    board: int           # 1-based: 1 on a hand dealt on one board
    half: str            # "high" or "low"
    pot: Pot             # this half's part: amount (the odd chip to the high, Ties 5c), winners, shares


@dataclass(frozen=True, slots=True)
class HandEnded(TableEvent):
    OPTIONAL_FIELDS: ClassVar[tuple[str, ...]] = ("boards",)
    outcome: str         # "complete", "misdeal", "void"
    pots: tuple[Pot, ...]
    stacks: dict[int, int]   # every seated player's stack after the award or refund
    board: tuple[str, ...] = ()
    boards: tuple[tuple[str, ...], ...] | None = None   # boards 2.. when the hand had more than one


# --- findings ---------------------------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class FindingRaised(TableEvent):
    id: str              # unique per table session: "h12-3" (hand 12, third finding)
    rule: str            # catalogue id, e.g. "misdeal.1c"
    citation: str        # "Misdeals 1(c)"
    severity: str        # "info" | "dealer" | "floor"
    outcome: str         # see catalogue.OUTCOMES
    ruling: str          # plain words for the dealer
    seats: tuple[int, ...] = ()
    cards: tuple[str, ...] = ()   # only cards already exposed or dead; never a live hidden hole card


@dataclass(frozen=True, slots=True)
class FindingAcknowledged(TableEvent):
    id: str
    by: str | None = None    # who: the floor command's sender ("dashboard:<user>"); None for the dealer's own tap

    OPTIONAL_FIELDS: ClassVar[tuple[str, ...]] = ("by",)


@dataclass(frozen=True, slots=True)
class DealerSignedIn(TableEvent):
    """The dealer ``dealer`` (an id from the config, never the PIN) took over the table, proved by ``method``
    ("pin" or "badge")."""
    dealer: str
    method: str


@dataclass(frozen=True, slots=True)
class BadgeShown(TableEvent):
    """A tag enrolled as a badge was held over ``zone``: the terminal signs in the dealer it belongs to. The uid
    is what a cloned badge copies, so every public view (the log's clear events, the floor, the dashboard) masks
    it as hole cards are masked; only a keyed replay with ``--reveal-hole-cards`` prints it."""
    zone: str
    uid: str | None
    SECRET_FIELDS: ClassVar[tuple[str, ...]] = ("uid",)


@dataclass(frozen=True, slots=True)
class DealerSignedOut(TableEvent):
    """The dealer on duty left the table (signed out, or another dealer signed in)."""
    dealer: str


@dataclass(frozen=True, slots=True)
class FloorCalled(TableEvent):
    reason: str


@dataclass(frozen=True, slots=True)
class BettingLost(TableEvent):
    reason: str          # what made the chips unreadable: "sequence-gap", "link-down"
    text: str            # for the dealer: finish the hand by hand; the terminal picks up at the next deal


# --- questions to the dealer --------------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class QuestionAsked(TableEvent):
    id: str              # "q3": the ref the answer tap carries
    seat: int | None
    rule: str            # the rule the answer decides, e.g. "betting.10"
    text: str
    answers: tuple[tuple[str, str], ...]   # (key, label), the likely answer first


@dataclass(frozen=True, slots=True)
class QuestionAnswered(TableEvent):
    id: str
    choice: str          # the key answered; "" when the play answered it first
    by: str              # "dealer" (the answer tap) or "play" (the seat's chips or cards moved, or the hand ended)


# --- a tournament table (docs/tournaments.md) ------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class LevelStarted(TableEvent):
    """The clock entered a level (or the table's first deal started it): its amounts play from the next deal."""
    tournament: str      # the event's id
    level: int           # 1-based, as announced
    small_blind: int
    big_blind: int
    ante: int
    big_blind_ante: int
    left_s: float        # seconds left in the level as it was seen


@dataclass(frozen=True, slots=True)
class BreakStarted(TableEvent):
    """The clock entered a break: finish the hand, then stop; ``next_level`` follows it."""
    tournament: str
    next_level: int
    left_s: float


@dataclass(frozen=True, slots=True)
class PlayerEliminated(TableEvent):
    """A player left without chips at a hand's end is out of the event (Tournaments 35)."""
    seat: int
    place: int | None    # finishing place; None: the players left in the event are not known here (the floor places)
    chips_at_start: int  # what the player started the hand with: busts of one hand are ranked by it


@dataclass(frozen=True, slots=True)
class TournamentWon(TableEvent):
    """The last player of the event holds every chip."""
    seat: int
    stack: int


EVENT_TYPES: dict[str, type[TableEvent]] = {
    cls.__name__: cls for cls in TableEvent.__subclasses__()
}
