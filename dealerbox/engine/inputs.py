"""What the engine consumes: sensor events (a frame interpreted through the tag registry) and dealer inputs.

Every input carries ``t``, seconds on the source's clock (recorded log or live monotonic clock): the
engine's only notion of time. Zones are named as in the protocol (``shoe``, ``seat3``, ``bet3``, ``pot``).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..tags import Tag


@dataclass(frozen=True, slots=True)
class ZoneEntered:
    """A tag arrived in a zone's field."""
    t: float
    zone: str
    tag: Tag


@dataclass(frozen=True, slots=True)
class ZoneLeft:
    """A tag left a zone's field."""
    t: float
    zone: str
    tag: Tag


@dataclass(frozen=True, slots=True)
class CardFaceSensed:
    """The shoe's orientation sensor saw a card leave face up or face down (sent before its ZoneLeft)."""
    t: float
    zone: str
    tag: Tag
    face_up: bool


@dataclass(frozen=True, slots=True)
class ZoneReadState:
    """How completely the board read a zone (protocol 2.0 ZONE_INVENTORY; a 1.x board never sends it).

    ``state``: "complete" (the zone's tags are all known), "uncertain" (``tags`` were proven, more may be
    there: the zone's value is unknown, never a smaller number) or "unreadable" (something answers but no
    tag reads: neither empty nor changed).
    """
    t: float
    zone: str
    state: str
    tags: int


@dataclass(frozen=True, slots=True)
class BoardHello:
    """The reader board (re)started or reconnected."""
    t: float
    protocol: str      # "1.0"
    firmware: str      # "1.2.3"
    zones: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class ReaderFaulted:
    """A reader's health changed; ``code`` 0 means it recovered."""
    t: float
    reader: int
    zone: str
    code: int


@dataclass(frozen=True, slots=True)
class BoardAlive:
    """Heartbeat."""
    t: float
    uptime_ms: int
    tags_present: int
    faulty_readers: int


@dataclass(frozen=True, slots=True)
class FramesLost:
    """The decoder saw a sequence gap, or the serial link was down: something may have been missed."""
    t: float
    count: int          # frames known lost (0 when unknown, e.g. the port was unplugged)
    reason: str         # "sequence-gap" | "link-down"


# Dealer inputs: one tap on the touchscreen or a panel button. The action names are the contract
# shared by the screen, the panel, scenarios and the engine.
DEALER_ACTIONS = {
    "sit": "a player sits in `seat` with `amount` chips (buy-in)",
    "leave": "the player in `seat` leaves the table",
    "rebuy": "the player in `seat` adds `amount` chips",
    "check": "the player in turn (`seat`) checks",
    "exposed": "the dealer exposed or flashed `card` (or the last card dealt when omitted)",
    "misdeal": "the dealer declares a misdeal",
    "call-floor": "the dealer calls the floor",
    "new-hand": "the dealer starts the next hand (the shoe is shuffled and ready)",
    "award": "the dealer confirms pushing pot `ref` (0 main, 1.. side pots) to `seats`",
    "ack": "the dealer acknowledges finding `ref`",
    "wait-for-bb": "the player in `seat` with missed blinds chooses to wait for the big blind",
    "sit-out": "the player in `seat` steps away: not dealt in, missing the blinds that pass, until `back-in` or `wait-for-bb`",
    "back-in": "the player in `seat`, sitting out or waiting for the big blind, is dealt in again and posts what they owe",
    "declare-raise": "the player in `seat` declared a raise before putting chips in",
    "run-it": "after an all-in with no more betting, the players agreed to run the rest of the board `amount` times (2 or 3; house practice, game.run_it)",
    "bomb-pot": "the next hand is a bomb pot: every player posts `amount`, no preflop betting, on `ref` boards (1 or 2; house practice, game.bomb_pots)",
    "stand-pat": "a draw game: the player in `seat` stands pat in the draw under way (knocked: draws no card)",
    "muck-unshown": "the player in `seat` threw away their hand at showdown without showing",
    "sign-in": "the dealer `by` (an id, never the PIN) takes over the table, proved by `ref` (\"pin\" or \"badge\")",
    "sign-out": "the dealer on duty leaves the table",
    "answer": "the dealer answers the engine's open question `ref` with `choice` (one of its answers)",
    # At a tournament table (docs/tournaments.md): at a cash table these taps change nothing
    "away": "the player in `seat` stepped away: still dealt in and posted for; the hand dies at the last starting card unless `back-in` (Tournaments 9, 11)",
    "rebuy-paid": "the player in `seat` paid a rebuy they owe (announced, bound and played on before paying: Tournaments 33)",
    "seat-sold": "the late-entry seat `seat`, held and posted for, is sold: its entrant takes it (Tournaments 5)",
    "chip-race": "the race cards are dealt: check the race deal and show the awards; again once shown: the dealer confirms them (Tournaments 8b-8d)",
    "end-level": "the dealer ends the level or break at the room's signal, the floor's clock being away: the next one starts now (Tournaments 6)",
    "deck-damaged": "the deck is changed for a damaged card: the new deck is allowed (Tournaments 28)",
    # From the floor at a tournament table: the payload as received and checked against its schema, in `detail`
    "floor-clock": "the floor's tournament clock (`detail`: the clock payload, schemas/floor/clock.json)",
    "floor-instruction": "the floor's instruction for this table (`detail`: the payload, schemas/floor/tournament.json)",
    # The dealer's confirmations of the floor's moves (engine/tournament/moves.py, Tournaments 12, 14, 15)
    "moved-out": "the player in `seat` has gone to the table the floor named: the seat is empty",
    "moved-in": "a player moved by the floor has taken `seat` with `amount` chips (their stack)",
}


@dataclass(frozen=True, slots=True)
class DealerInput:
    t: float
    action: str
    seat: int | None = None
    card: str | None = None
    amount: int | None = None
    ref: str | None = None
    seats: tuple[int, ...] = field(default=())
    choice: str | None = None     # with "answer": the key of the answer the dealer tapped
    by: str | None = None         # who: the floor sender of an "ack" ("dashboard:<user>"), the dealer signing in
    detail: str | None = None     # with "floor-clock"/"floor-instruction": the floor's payload, compact JSON

    def __post_init__(self) -> None:
        if self.action not in DEALER_ACTIONS:
            raise ValueError(f"unknown dealer action {self.action!r}; known: {', '.join(DEALER_ACTIONS)}")


SensorEvent = (ZoneEntered | ZoneLeft | CardFaceSensed | BoardHello | ReaderFaulted | BoardAlive | FramesLost
               | ZoneReadState)
EngineInput = SensorEvent | DealerInput
