"""The built-in simulator: realistic hands at a table, as the bytes a reader board and taps a dealer produce.

pokerkit (pinned) is the independent referee: it decides which actions are legal, takes the cards this
simulator deals from its own seeded shuffle of the enrolled deck, and computes the pots, winners and final
stacks that the engine is checked against (``SimulatedHand.expected``). Everything physical follows the
choreography in ``docs/scenarios.md`` and goes through :mod:`.choreography`.

Every random choice comes from ``random.Random(seed)``: the same config, registry and seed give the same
bytes.

>>> from dealerbox.config import Config
>>> from dealerbox.tags import demo_registry
>>> sim = Simulator(Config(), demo_registry(), seed=7)
>>> hand = next(sim.play(1))
>>> sum(hand.expected.stacks.values()) == sum(hand.expected.stacks_before.values())
True
"""

from __future__ import annotations

import queue
import random
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from itertools import combinations
from typing import Any

from phevaluator import evaluate_cards, evaluate_omaha_cards
from pokerkit import (Automation, BetCollection, BettingStructure, BlindOrStraddlePosting, Card, Deck, Hand, Mode,
                      Opening, StandardLookup, State, Street)

from ..config import Config
from ..engine import inputs as ev
from ..record.logformat import Header, Input, Record, Rx
from ..tags import JOKERS, CardTag, TagRegistry
from ..wire import protocol as p
from .choreography import CHIP_GAP, Choreography, SensedChoreography, Timed, board_hello, to_messages
from .raising import RaiseRules, rulebook_shares

IRREGULARITIES = {
    # kind: (rule the engine should cite, what the simulated dealer then does)
    "boxed-card": ("irregularity.7", "card-replaced"),
    "duplicate-card": ("irregularity.4", "void"),
    "other-deck": ("irregularity.3", "void"),
    "joker": ("irregularity.8", "card-replaced"),
    "out-of-sequence": ("misdeal.1f", "misdeal"),
    "first-card-wrong-seat": ("misdeal.1h", "misdeal"),
    "premature-flop": ("holdem.3", "redeal-board"),
    "string-raise": ("betting.14", "wager-corrected"),
    "short-call": ("betting.16", "wager-corrected"),
    "foreign-chip": ("procedures.3", "wager-corrected"),
    "unknown-chip": ("procedures.3", "wager-corrected"),
    "small-chip": ("betting.7", "wager-corrected"),
}
DEAL_KINDS = {"boxed-card", "duplicate-card", "other-deck", "joker", "out-of-sequence", "first-card-wrong-seat"}
CHIP_KINDS = {"string-raise", "short-call", "foreign-chip", "unknown-chip", "small-chip"}

VARIANTS = {  # config.game.variant -> (betting structure, hole cards)
    "nlhe": (BettingStructure.NO_LIMIT, 2),
    "plhe": (BettingStructure.POT_LIMIT, 2),
    "flhe": (BettingStructure.FIXED_LIMIT, 2),
    "plo": (BettingStructure.POT_LIMIT, 4),
}
# No HOLE_CARDS_SHOWING_OR_MUCKING: its muck decision ranks every hand once per player; _run shows them all
# (same pots and winners: the hand killing still takes the losers out).
AUTOMATIONS = (Automation.ANTE_POSTING, Automation.BET_COLLECTION, Automation.BLIND_OR_STRADDLE_POSTING,
               Automation.HAND_KILLING, Automation.CHIPS_PULLING)
DEAL_PACE = 0.4          # seconds per card dealt
HEARTBEAT_PERIOD = 5.0   # seconds between the board's heartbeats in records()


_CARD = {repr(c): c for c in Card.parse("".join(r + s for r in "23456789TJQKA" for s in "cdhs"))}
_CARD_ID = {c: i for i, c in enumerate(_CARD.values())}   # phevaluator's card numbers: 2c=0, 2d=1, ... As=51
# The same numbers by object identity: pokerkit keeps the very Card objects we deal (from _CARD), and hashing
# a Card runs Python code, which showdown (every hand against every pot) would do thousands of times.
_CARD_NUMBER = {id(c): i for c, i in _CARD_ID.items()}


def _numbers(cards: Any) -> list[int]:
    cards = tuple(cards)  # pokerkit may pass a one-shot iterator
    try:
        return [_CARD_NUMBER[id(c)] for c in cards]
    except KeyError:  # a Card pokerkit made itself: look it up by value
        return [_CARD_ID[c] for c in cards]


class _RankedHand(Hand):
    """A pokerkit hand ranked by phevaluator (pinned): pokerkit's own lookup was most of a hand's run time.

    Same strength order as pokerkit's StandardHighHand / OmahaHoldemHand (phevaluator: 1 is the best hand),
    and the same refusal (ValueError) when the cards cannot make a hand yet.
    """
    lookup = StandardLookup()
    low = False
    omaha = False
    __slots__ = ("rank",)

    @classmethod
    def from_game(cls, hole_cards: Any, board_cards: Any = ()) -> Hand:
        hole = _numbers(hole_cards)
        board = _numbers(board_cards)
        hand = object.__new__(cls)
        if not cls.omaha:
            if not 5 <= len(hole) + len(board) <= 7:
                raise ValueError(f"{len(hole) + len(board)} cards make no hold'em hand")
            hand.rank = evaluate_cards(*hole, *board)
        elif len(hole) == 4 and len(board) == 5:
            hand.rank = evaluate_omaha_cards(*board, *hole)
        elif len(hole) >= 2 and len(board) >= 3:  # exactly two from the hole and three from the board
            hand.rank = min(evaluate_cards(*h, *b) for h in combinations(hole, 2) for b in combinations(board, 3))
        else:
            raise ValueError("an Omaha hand needs two hole cards and three board cards")
        return hand

    def __eq__(self, other: Any) -> bool:
        return self.rank == other.rank

    def __hash__(self) -> int:
        return hash(self.rank)

    def __lt__(self, other: Any) -> bool:
        return self.rank > other.rank      # a bigger phevaluator rank is a weaker hand

    def __le__(self, other: Any) -> bool:
        return self.rank >= other.rank

    def __gt__(self, other: Any) -> bool:
        return self.rank < other.rank

    def __ge__(self, other: Any) -> bool:
        return self.rank <= other.rank

    def __repr__(self) -> str:
        return f"{type(self).__name__}(rank={self.rank})"


class _HIGH(_RankedHand):
    pass


class _OMAHA(_RankedHand):
    omaha = True


class SimulatorError(RuntimeError):
    """The simulator cannot play with this config or registry (e.g. no chips of the house)."""


@dataclass(frozen=True)
class ExpectedPot:
    amount: int
    eligible: tuple[int, ...]           # seats
    winners: tuple[int, ...]            # seats that got a share
    shares: dict[int, int] = field(default_factory=dict)


@dataclass
class Expected:
    """What the referee says happened in one hand (seats, not pokerkit's player indices)."""
    hand: int
    variant: str
    button: int
    dealt_in: tuple[int, ...]           # clockwise from the first seat left of the button
    blinds: dict[int, int]
    stacks_before: dict[int, int]
    stacks: dict[int, int]              # after the hand
    hole_cards: dict[int, tuple[str, ...]] = field(default_factory=dict)
    board: tuple[str, ...] = ()
    pots: list[ExpectedPot] = field(default_factory=list)
    winners: tuple[int, ...] = ()
    returned: dict[int, int] = field(default_factory=dict)   # uncalled bets handed back, per seat
    # split pots pushed by the rulebook (Ties 4, 5d) where pokerkit's merged split differs: per seat, the
    # chips the rulebook gives minus pokerkit's (``stacks`` and ``pots`` are the rulebook's)
    odd_chips: dict[int, int] = field(default_factory=dict)
    actions: list[tuple[str, int, str, int]] = field(default_factory=list)  # (street, seat, kind, to)
    outcome: str = "played"             # played | misdeal | void
    irregularity: str | None = None
    rule: str | None = None


@dataclass
class SimulatedHand:
    number: int
    inputs: list[ev.EngineInput]
    expected: Expected
    _messages: list[Timed] | None = field(default=None, init=False, repr=False, compare=False)

    @property
    def messages(self) -> list[Timed]:
        """The same hand as (t, protocol message or DealerInput): built on first use, most callers want inputs."""
        if self._messages is None:
            self._messages = to_messages(self.inputs)
        return self._messages


class _Chips:
    """The house chips in play: each seat's pool, the dealer's rack (bank), and what each zone holds."""

    def __init__(self, registry: TagRegistry, house: str, smallest: int) -> None:
        try:
            chip_set = registry.chips_of(house)
        except KeyError:
            raise SimulatorError(f"enrolment.house: no chips registered for house {house!r}") from None
        self.value: dict[str, int] = dict(chip_set.chips)
        self.bank: dict[int, list[str]] = {}
        for uid, v in sorted(chip_set.chips.items()):
            self.bank.setdefault(v, []).append(uid)
        self.denoms = sorted((v for v in self.bank if v >= smallest), reverse=True)
        if not self.denoms:
            raise SimulatorError(f"house {house!r} has no chip of at least game.smallest_chip={smallest}")
        self.below = sorted(v for v in self.bank if v < smallest)
        self.pools: dict[int, dict[int, list[str]]] = {}
        self.zone: dict[str, list[str]] = {}

    def total(self) -> int:
        return sum(v * len(u) for v, u in self.bank.items())

    def _draw(self, source: dict[int, list[str]], amount: int, denoms: Sequence[int]) -> list[str] | None:
        picked: list[str] = []
        for v in denoms:
            have = source.get(v, [])
            k = min(amount // v, len(have))
            if k:
                picked.extend(have[-k:])
                del have[-k:]
                amount -= k * v
        if amount:
            for uid in picked:
                source.setdefault(self.value[uid], []).append(uid)
            return None
        return picked

    def fill(self, seat: int, amount: int) -> None:
        """Chips worth ``amount`` from the rack into the seat's pool (buy-in, rebuy, colour change)."""
        got = self._draw(self.bank, amount, self.denoms) or self._draw(self.bank, amount, sorted(self.bank, reverse=True))
        if got is None:
            raise SimulatorError(f"the rack has no chips left to make {amount}; register more chips")
        pool = self.pools.setdefault(seat, {})
        for uid in got:
            pool.setdefault(self.value[uid], []).append(uid)

    def empty(self, seat: int) -> None:
        for uids in self.pools.pop(seat, {}).values():
            for uid in uids:
                self.bank.setdefault(self.value[uid], []).append(uid)

    def pay(self, seat: int, amount: int) -> list[str]:
        """Chips worth ``amount`` from the seat's pool, largest first; the dealer makes change if needed."""
        pool = self.pools.setdefault(seat, {})
        got = self._draw(pool, amount, self.denoms)
        if got is None:
            keep = sum(v * len(u) for v, u in pool.items()) - amount
            self.empty(seat)
            got = self._draw(self.bank, amount, self.denoms) or self._draw(self.bank, amount, sorted(self.bank, reverse=True))
            if got is None:
                raise SimulatorError(f"the rack has no chips left to make {amount}; register more chips")
            self.fill(seat, keep)
        return got

    def receive(self, seat: int, uids: Sequence[str]) -> None:
        pool = self.pools.setdefault(seat, {})
        for uid in uids:
            pool.setdefault(self.value[uid], []).append(uid)

    def colour_up(self, seat: int, most: int = 12) -> None:
        """A player with a pile of small chips changes them for bigger ones at the rack (off the antennas)."""
        pool = self.pools.get(seat, {})
        if sum(len(u) for u in pool.values()) > most:
            value = sum(v * len(u) for v, u in pool.items())
            self.empty(seat)
            self.fill(seat, value)

    def worth(self, uids: Sequence[str]) -> int:
        return sum(self.value[u] for u in uids)


class Simulator:
    """Plays hands at one table. See the module docstring; ``irregularities`` is a chance per hand (float)
    or a list of kinds (one per hand, in order); None takes ``config.simulator.irregularities``."""

    def __init__(self, config: Config, registry: TagRegistry, seed: int | None = None,
                 irregularities: float | Sequence[str] | None = None, start: float = 0.0) -> None:
        game = config.game
        if game.variant not in VARIANTS:
            raise SimulatorError(f"game.variant: the simulator plays {', '.join(VARIANTS)}, not {game.variant!r}")
        self.config = config
        self.registry = registry
        self.seed = config.simulator.seed if seed is None else seed
        self.rng = random.Random(self.seed)
        self.structure, self.holes = VARIANTS[game.variant]
        if not registry.decks:
            raise SimulatorError("enrolment.decks: the simulator needs at least one enrolled deck")
        self.deck = registry.decks[0]
        self.card_uid = {c: u for u, c in self.deck.cards.items()}
        self.cards = [c for c in self.card_uid if c not in JOKERS]
        self.shoe_uids = {self.card_uid[c] for c in self.cards}
        self._keep_button = False
        if len(self.cards) != 52:
            raise SimulatorError(f"deck {self.deck.deck_id} has {len(self.cards)} cards, not 52")
        self.chips = _Chips(registry, config.enrolment.house, game.smallest_chip)
        if isinstance(irregularities, (list, tuple)):
            unknown = [k for k in irregularities if k not in IRREGULARITIES]
            if unknown:
                raise SimulatorError(f"unknown irregularities {unknown}; known: {', '.join(IRREGULARITIES)}")
            self.planned: list[str] = list(irregularities)
            self.rate = 0.0
        else:
            self.planned = []
            self.rate = config.simulator.irregularities if irregularities is None else float(irregularities)
        self.t = start
        self.hand_no = 0
        self.stacks: dict[int, int] = {}
        self.button: int | None = None
        self.new_session = True
        self._hello_sent = False
        self._tags: dict[str, Any] = {}   # uid -> Tag, shared by every hand's choreography

    # --- public API ----------------------------------------------------------------------------------
    def header(self) -> Header:
        from ..pipeline import enrolment_of
        hello = board_hello(self.config.table.seats)
        return Header(config=self.config.to_dict(), enrolment=enrolment_of(self.registry),
                      hello={"protocol": f"{hello.protocol_major}.{hello.protocol_minor}",
                             "firmware": ".".join(map(str, hello.firmware)),
                             "zones": [p.zone_name(z) for z in hello.zones]})

    def play(self, n: int | None = None) -> Iterator[SimulatedHand]:
        """Play ``n`` hands (None: without end), one SimulatedHand each."""
        played = 0
        while n is None or played < n:
            played += 1
            yield self._hand()

    def records(self, n: int | None = None) -> Iterator[Record]:
        """Log records of ``n`` hands: the board's HELLO first, heartbeats every few seconds, Rx per frame."""
        encoder = p.Encoder()
        present = 0
        if not self._hello_sent:
            self._hello_sent = True
            yield Rx(self.t, encoder.encode(board_hello(self.config.table.seats)))
        start = self.t
        next_beat = self.t + HEARTBEAT_PERIOD
        for hand in self.play(n):
            for t, m in hand.messages:
                while t >= next_beat:
                    yield Rx(next_beat, encoder.encode(p.Heartbeat(int((next_beat - start) * 1000), present, 0)))
                    next_beat += HEARTBEAT_PERIOD
                if isinstance(m, ev.DealerInput):
                    yield Input(m)
                    continue
                if isinstance(m, p.TagArrived):
                    present += 1
                elif isinstance(m, p.TagLeft):
                    present = max(0, present - 1)
                yield Rx(t, encoder.encode(m))

    # --- one hand ------------------------------------------------------------------------------------
    def _wait(self, c: Choreography, lo: float, hi: float) -> None:
        c.wait(self.rng.uniform(lo, hi))

    def _pick_irregularity(self) -> str | None:
        if self.planned:
            return self.planned.pop(0)
        if self.rate and self.rng.random() < self.rate:
            return self.rng.choice(sorted(IRREGULARITIES))
        return None

    def _stack_size(self) -> int:
        g = self.config.game
        unit = g.smallest_chip
        if self.rng.random() < 0.3:
            amount = self.rng.uniform(0.05, 0.4) * g.buy_in
        else:
            amount = self.rng.uniform(0.5, 1.5) * g.buy_in
        return max(unit, g.small_blind, int(amount) // unit * unit)

    def _start_session(self, c: Choreography) -> None:
        """Everyone sits; at the very first hand the shoe holds the deck and the button puck is placed."""
        seats = self.config.table.seats
        for seat in sorted(self.stacks):
            c.tap("leave", seat=seat)
            self.chips.empty(seat)
            c.wait(0.5)
        self.stacks = {}
        count = self.rng.randint(2, seats)
        for seat in sorted(self.rng.sample(range(1, seats + 1), count)):
            amount = self._stack_size()
            self.stacks[seat] = amount
            self.chips.fill(seat, amount)
            c.tap("sit", seat=seat, amount=amount)
            c.wait(self.rng.uniform(0.5, 2.0))
        if self.hand_no == 1:
            for card in self.cards:
                c.enter("shoe", self.card_uid[card])
        new_button = self.rng.choice(sorted(self.stacks))
        self._place_button(c, new_button)
        self.new_session = False

    def _button_uid(self) -> str:
        for uid, kind in self.registry.chips_of(self.config.enrolment.house).markers.items():
            if kind == "button":
                return uid
        raise SimulatorError(f"house {self.config.enrolment.house!r} has no button puck registered")

    def _place_button(self, c: Choreography, seat: int) -> None:
        uid = self._button_uid()
        if self.button == seat:
            return
        c.move(uid, f"seat{self.button}" if self.button else None, f"seat{seat}", travel=0.6)
        self.button = seat
        c.wait(1.0)

    def _next_seat(self, seat: int) -> int:
        occupied = sorted(self.stacks)
        return next((s for s in occupied if s > seat), occupied[0])

    def _hand(self) -> SimulatedHand:
        self.hand_no += 1
        c = SensedChoreography(self.registry, self.t, self._tags)
        kind = self._pick_irregularity()
        if self.new_session or self._table_too_rich():
            self._start_session(c)
        elif not self._keep_button:
            self._place_button(c, self._next_seat(self.button))
        self._keep_button = False
        for seat in sorted(self.stacks):
            if self.stacks[seat] == 0:
                amount = self._stack_size()
                self.stacks[seat] = amount
                self.chips.fill(seat, amount)
                c.tap("rebuy", seat=seat, amount=amount)
                c.wait(1.0)
        c.wait(self.rng.uniform(1.0, 3.0))
        hand = _Hand(self, c, kind)
        expected = hand.play()
        self.t = c.t + self.rng.uniform(2.0, 5.0)
        return SimulatedHand(self.hand_no, c.inputs, expected)

    def _table_too_rich(self) -> bool:
        # Rebuys add chips for ever; a fresh session keeps the table within the registered chips.
        return sum(self.stacks.values()) > 0.35 * (self.chips.total() + sum(self.stacks.values()))


class _Abort(Exception):
    """The simulated dealer stops the hand (misdeal or void); ``outcome`` says which."""

    def __init__(self, outcome: str) -> None:
        self.outcome = outcome


class _Hand:
    """One hand: pokerkit decides, the choreography acts it out."""

    def __init__(self, sim: Simulator, c: Choreography, kind: str | None) -> None:
        self.sim, self.c, self.kind, self.rng = sim, c, kind, sim.rng
        self.game = sim.config.game
        btn = sim.button
        occupied = sorted(sim.stacks)
        after = [s for s in occupied if s > btn] + [s for s in occupied if s <= btn]
        self.order = after                         # player index i -> seat, index 0 left of the button
        self.index = {s: i for i, s in enumerate(after)}
        self.stacks_before = {s: sim.stacks[s] for s in after}
        self.deck = list(sim.cards)
        self.rng.shuffle(self.deck)
        self.cards_out: dict[str, str] = {}       # uid -> zone, this hand's cards off the shoe
        self.bets: dict[int, list[str]] = {s: [] for s in after}
        self.pot: list[str] = []
        self.expected = Expected(sim.hand_no, self.game.variant, btn, tuple(after), {}, dict(self.stacks_before),
                                 dict(self.stacks_before), irregularity=kind,
                                 rule=IRREGULARITIES[kind][0] if kind else None)
        self.street = "preflop"
        self.raises_seen = 0
        self.chip_trick = kind if kind in CHIP_KINDS else None
        self.trick_at = self.rng.randint(0, 3)    # voluntary actions to let pass before the chip irregularity
        self.applied = kind is not None and kind not in CHIP_KINDS and kind != "premature-flop"
        self._premature_burn: str | None = None
        self._joker_uid: str | None = None

    # --- pokerkit ------------------------------------------------------------------------------------
    def _state(self) -> State:
        g = self.game
        fixed = self.sim.structure is BettingStructure.FIXED_LIMIT
        cap = g.max_raises + 1 if fixed else None
        small, big = (g.small_bet, g.big_bet) if fixed else (g.big_blind, g.big_blind)
        streets = (Street(False, (False,) * self.sim.holes, 0, False, Opening.POSITION, small, cap),
                   Street(True, (), 3, False, Opening.POSITION, small, cap),
                   Street(True, (), 1, False, Opening.POSITION, big, cap),
                   Street(True, (), 1, False, Opening.POSITION, big, cap))
        blinds: tuple[int, ...] = (g.small_blind, g.big_blind)
        if g.straddle and len(self.order) >= 4 and self.rng.random() < 0.25:
            blinds = (g.small_blind, g.big_blind, 2 * g.big_blind)
        hand_types = (_HIGH,) if self.sim.holes == 2 else (_OMAHA,)
        return State(AUTOMATIONS, Deck.STANDARD, hand_types, streets, self.sim.structure, True, 0, blinds, 0,
                     tuple(self.stacks_before[s] for s in self.order), len(self.order), mode=Mode.TOURNAMENT)  # one runout, no run-it-twice

    def _sync_deck(self) -> None:
        """pokerkit's deck: only the cards this hand can still deal, in our dealing order.

        pokerkit hashes its whole deck and scans it (Card hashing and equality run in Python) for every card
        dealt or burnt; with the next card first and no more cards than the hand can use, that stays short.
        At most: every hole card, 3 burns, 5 board cards, and a few more drawn by an irregularity."""
        can_use = self.sim.holes * len(self.order) + 8 + 4
        order = [_CARD[self._premature_burn]] if self._premature_burn else []  # dealt early, burnt later
        order += (_CARD[card] for card in self.deck[:-can_use - 1:-1])
        self.st.deck_cards.clear()
        self.st.deck_cards.extend(order)

    # --- physical helpers ----------------------------------------------------------------------------
    def _card(self, dest: str, face_up: bool = False, card: str | None = None) -> str:
        card = card or self.deck.pop()
        uid = self.sim.card_uid[card]
        self.c.deal(uid, dest, face_up)
        self.cards_out[uid] = dest
        self.c.wait(DEAL_PACE - 0.2)
        return card

    def _foreign_uid(self, kind: str) -> str:
        if kind == "unknown-chip":
            return "04" + self.rng.getrandbits(48).to_bytes(6, "big").hex()
        for cs in self.sim.registry.chip_sets:
            if cs.house != self.sim.config.enrolment.house and cs.chips:
                return sorted(cs.chips)[self.rng.randrange(len(cs.chips))]
        return "04" + self.rng.getrandbits(48).to_bytes(6, "big").hex()

    def _put(self, seat: int, amount: int, trick: str | None = None, raising: bool = False) -> None:
        """The seat puts chips worth ``amount`` into its bet zone: one motion, unless ``trick`` says otherwise.
        ``raising``: a raise facing a bet, which a lone chip would not make (No-Limit 9, Betting 15)."""
        if amount <= 0:
            return
        zone = f"bet{seat}"
        chips = self.sim.chips
        if trick in ("foreign-chip", "unknown-chip", "small-chip"):
            odd = self._odd_chip(trick)
            if odd is not None:
                uids = chips.pay(seat, amount)
                self.bets[seat].extend(uids)
                self.c.motion(zone, uids[:1] + [odd] + uids[1:])
                self.c.wait(self.rng.uniform(1.0, 2.0))
                self.c.leave(zone, odd)         # the dealer hands the odd chip back; it does not play
                self._applied()
                return
        if trick == "short-call":
            unit = self.game.smallest_chip
            first = amount // 2 // unit * unit
            if 0 < first < amount:
                for part in (first, amount - first):
                    uids = chips.pay(seat, part)
                    self.bets[seat].extend(uids)
                    self.c.motion(zone, uids)
                    self.c.wait(self.rng.uniform(1.5, 3.0))  # brought up to the call in a second motion
                self._applied()
                return
        uids = chips.pay(seat, amount)
        if raising and len(uids) == 1:
            # a lone chip facing a bet is a call: break it into smaller chips, or say "raise" first
            chips.receive(seat, uids)
            smaller = [d for d in chips.denoms if d < chips.value[uids[0]]]
            broken = chips._draw(chips.pools[seat], amount, smaller) if self.rng.random() < 0.5 else None
            uids = broken if broken and len(broken) > 1 else chips.pay(seat, amount)
            if len(uids) == 1:
                self.c.tap("declare-raise", seat=seat)
                self.c.wait(0.3)
        self.bets[seat].extend(uids)
        self.c.motion(zone, uids)

    def _string_raise(self, seat: int, call: int, extra: int) -> None:
        """A call, then more chips in a second motion: only the call plays, the dealer hands the rest back."""
        zone = f"bet{seat}"
        self._put(seat, call)
        self.c.wait(self.rng.uniform(1.0, 2.0))
        more = self.sim.chips.pay(seat, extra)
        self.c.motion(zone, more)
        self.c.wait(self.rng.uniform(1.5, 3.0))
        self.c.take(zone, more)
        self.sim.chips.receive(seat, more)
        self._applied()

    def _applied(self) -> None:
        self.chip_trick = None
        self.applied = True

    def _odd_chip(self, trick: str) -> str | None:
        if trick == "small-chip":
            below = self.sim.chips.below
            if not below or not self.sim.chips.bank.get(below[0]):
                return None  # no chip below the smallest that plays: nothing to inject
            uid = self.sim.chips.bank[below[0]].pop()
            self.sim.chips.bank[below[0]].insert(0, uid)  # back in the rack once handed back
            return uid
        return self._foreign_uid(trick)

    def _take_from(self, zone_chips: list[str], amount: int, zone: str) -> list[str]:
        """Chips worth exactly ``amount`` out of a zone; the dealer swaps a big chip for change if needed."""
        chips = self.sim.chips
        for _ in range(20):
            ordered = sorted(zone_chips, key=lambda u: chips.value[u], reverse=True)
            picked, left = [], amount
            for uid in ordered:
                v = chips.value[uid]
                if v <= left:
                    picked.append(uid)
                    left -= v
            if left == 0:
                for uid in picked:
                    zone_chips.remove(uid)
                return picked
            # Change: the smallest chip bigger than what is missing leaves, its value in smaller chips enters.
            spare = [u for u in ordered if u not in picked and chips.value[u] > left]
            if not spare:
                break
            big = min(spare, key=lambda u: chips.value[u])
            smaller = [d for d in sorted(chips.bank, reverse=True) if d < chips.value[big]]
            change = chips._draw(chips.bank, chips.value[big], smaller)
            if change is None:
                break
            self.c.leave(zone, big)
            zone_chips.remove(big)
            chips.bank.setdefault(chips.value[big], []).append(big)
            self.c.motion(zone, change, gap=0.0)
            zone_chips.extend(change)
            self.c.wait(1.0)  # each change is its own gesture, apart from the next
        raise SimulatorError(f"cannot make {amount} from the chips in {zone}")

    # --- the hand ------------------------------------------------------------------------------------
    def play(self) -> Expected:
        st = self._state()
        self.st = st
        self._sync_deck()
        for op in st.operations:
            if isinstance(op, BlindOrStraddlePosting):
                seat = self.order[op.player_index]
                self.expected.blinds[seat] = op.amount
                self._put(seat, op.amount)
                self.c.wait(self.rng.uniform(0.8, 2.0))
        g = self.game
        kind = {BettingStructure.FIXED_LIMIT: "limit", BettingStructure.POT_LIMIT: "pot-limit"}.get(
            self.sim.structure, "no-limit")
        self.rules = RaiseRules(kind, g.big_blind, g.small_bet, g.big_bet, g.max_raises)
        self.rules.start({self.order[i]: b for i, b in enumerate(st.bets) if b}, len(self.expected.blinds) > 2)
        self.done_ops = len(st.operations)
        try:
            self._deal_holes(st)
            self._run(st)
        except _Abort as a:
            self._abort(a.outcome)
            return self.expected
        self._cleanup()
        e = self.expected
        if not self.applied:
            e.irregularity = e.rule = None  # the chance for it never came up in this hand
        e.stacks = {s: st.stacks[i] + e.odd_chips.get(s, 0) for i, s in enumerate(self.order)}
        for s, v in e.stacks.items():
            self.sim.stacks[s] = v
            self.sim.chips.colour_up(s)
        e.board = tuple(repr(c) for c in st.get_board_cards(0))
        e.winners = tuple(sorted({w for pot in e.pots for w in pot.winners}))
        return e

    def _deal_holes(self, st: State) -> None:
        kind = self.kind if self.kind in DEAL_KINDS else None
        n = len(self.order)
        slots = [(r, i) for r in range(self.sim.holes) for i in range(n)]
        bad_at = self.rng.randrange(len(slots)) if kind else -1
        if kind == "first-card-wrong-seat":
            self._card(f"seat{self.order[-1]}")   # the first card goes to the button instead
            raise _Abort("misdeal")
        if kind == "out-of-sequence":
            bad_at = self.rng.randrange(max(1, len(slots) - 1))
        held: dict[int, list[str]] = {s: [] for s in self.order}
        k = 0
        while k < len(slots):
            r, i = slots[k]
            seat = self.order[i]
            if k == bad_at:
                if kind == "out-of-sequence":
                    r2, i2 = slots[k + 1]
                    self._card(f"seat{self.order[i2]}")   # skips a seat
                    raise _Abort("misdeal")
                if kind in ("duplicate-card", "other-deck"):
                    self._other_deck_card(f"seat{seat}", duplicate=kind == "duplicate-card", held=held)
                    raise _Abort("void")
                if kind in ("boxed-card", "joker"):
                    if kind == "boxed-card":
                        bad = self._card(f"seat{seat}", face_up=True)
                    else:
                        bad = self._joker(f"seat{seat}")
                    self.c.wait(1.0)
                    uid = self._joker_uid if kind == "joker" else self.sim.card_uid[bad]
                    self.c.move(uid, f"seat{seat}", "muck")  # the scrap of paper is set aside
                    self.cards_out[uid] = "muck"
                    self.c.wait(0.6)
            card = self._card(f"seat{seat}")
            held[seat].append(card)
            st.deal_hole(_CARD[card])  # a Card, not text: pokerkit would parse the text every time
            k += 1
        self.expected.hole_cards = {s: tuple(v) for s, v in held.items()}

    def _joker(self, dest: str) -> str:
        for deck in [self.sim.deck] + self.sim.registry.decks:
            for uid, card in deck.cards.items():
                if card in JOKERS:
                    self._joker_uid = uid
                    self.c.deal(uid, dest)
                    self.cards_out[uid] = dest
                    self.c.wait(DEAL_PACE - 0.2)
                    return card
        raise SimulatorError("no joker is enrolled in any deck: cannot inject 'joker'")

    def _other_deck_card(self, dest: str, duplicate: bool, held: dict[int, list[str]]) -> None:
        """A card of another deck: the same face as one already dealt (duplicate) or any face (other back)."""
        ours = self.sim.deck
        same_back = [d for d in self.sim.registry.decks if d is not ours and d.back == ours.back]
        others = same_back if duplicate and same_back else [d for d in self.sim.registry.decks if d is not ours]
        if not others:
            raise SimulatorError("only one deck is enrolled: cannot inject a card of another deck")
        dealt = [c for cards in held.values() for c in cards]
        face = self.rng.choice(dealt) if duplicate and dealt else self.rng.choice(self.deck)
        if duplicate and not dealt:
            # Nothing dealt yet: deal one of ours first so the duplicate has something to match.
            face = self._card(dest)
        uid = others[0].uid_of(face)
        self.c.deal(uid, dest)
        self.cards_out[uid] = dest
        self.c.wait(DEAL_PACE - 0.2)

    def _sync_ops(self, st: State) -> None:
        """Act out what pokerkit did on its own: the gather after a betting round."""
        ops = st.operations[self.done_ops:]
        self.done_ops = len(st.operations)
        for op in ops:
            if isinstance(op, BetCollection):
                self._gather(op.bets)

    def _gather(self, collected: Sequence[int]) -> None:
        chips = self.sim.chips
        self.c.wait(self.rng.uniform(0.8, 1.5))
        for i, seat in enumerate(self.order):
            zone = self.bets[seat]
            extra = chips.worth(zone) - collected[i]
            if extra > 0:  # an uncalled bet goes back to its owner
                back = self._take_from(zone, extra, f"bet{seat}")
                self.c.take(f"bet{seat}", back)
                chips.receive(seat, back)
                self.expected.returned[seat] = self.expected.returned.get(seat, 0) + extra
                self.c.wait(0.5)
        moving = [(f"bet{s}", u) for s in self.order for u in self.bets[s]]
        if moving:
            for zone, uid in moving:
                self.c.leave(zone, uid)
            self.c.wait(0.4)
            for zone, uid in moving:
                self.c.enter("pot", uid)
                self.pot.append(uid)
            self.c.wait(0.5)
        for s in self.order:
            self.bets[s] = []

    def _run(self, st: State) -> None:
        streets = ("preflop", "flop", "turn", "river")
        premature_done = False
        while st.status:
            self._sync_ops(st)
            # A player's turn first: it is the common case and pokerkit answers it without a trial deal.
            if st.actor_index is not None:
                if (self.kind == "premature-flop" and not premature_done and self.street == "preflop"
                        and self._premature_ok(st)):
                    premature_done = True
                    self.applied = True
                    self._premature_flop()
                self._act(st)
                continue
            if st.can_show_or_muck_hole_cards():
                st.show_or_muck_hole_cards(True)  # cards speak: everyone shows
                continue
            if st.card_burning_status and st.can_burn_card():  # the flag first: the check copies the deck
                self.street = streets[st.street_index] if st.street_index is not None else self.street
                if self._premature_burn:
                    st.burn_card(_CARD[self._premature_burn])  # the burn stays; the new flop comes without one
                    self._premature_burn = None
                else:
                    self.c.wait(self.rng.uniform(0.5, 1.5))
                    st.burn_card(_CARD[self._card("burn")])
                continue
            if st.can_deal_board():
                count = 3 if not list(st.get_board_cards(0)) else 1
                cards = [self._card("board") for _ in range(count)]
                st.deal_board(tuple(_CARD[card] for card in cards))
                continue
            if st.can_push_chips():
                self._award(st)
                continue
            raise SimulatorError(f"hand {self.sim.hand_no}: the referee is stuck (pokerkit state {st.street_index})")

    def _premature_ok(self, st: State) -> bool:
        # Only when at least one more action will follow this one, so the flop really came too early.
        return sum(1 for i in range(len(self.order)) if st.statuses[i]) >= 3 and self.rng.random() < 0.5

    def _premature_flop(self) -> None:
        self.c.wait(0.8)
        burn = self._card("burn")
        flop = [self._card("board") for _ in range(3)]
        self.c.wait(1.5)
        for card in flop:  # the flop goes back into the stub, reshuffled; the burn card stays
            uid = self.sim.card_uid[card]
            self.c.move(uid, "board", "shoe")
            del self.cards_out[uid]
            self.deck.append(card)
        self.rng.shuffle(self.deck)
        self._premature_burn = burn
        self._sync_deck()
        self.c.wait(2.0)

    def _trick_for(self, call: int, raising: bool) -> str | None:
        """The chip irregularity to act out on this action, if it is due and fits the action."""
        t = self.chip_trick
        if t is None:
            return None
        if self.trick_at > 0:
            self.trick_at -= 1
            return None
        if t == "string-raise":
            return t if raising and call else None
        if t == "short-call":
            return t if call >= 2 * self.game.smallest_chip and not raising else None
        return t

    def _act(self, st: State) -> None:
        rng, g = self.rng, self.game
        i = st.actor_index
        seat = self.order[i]
        self.c.wait(rng.uniform(1.0, 8.0))
        call = st.checking_or_calling_amount
        self.rules.new_street(self.street)
        # The minimum raise exists exactly when a raise is allowed; can_complete_bet_or_raise_to() would
        # recompute it and the maximum several times over (pokerkit's properties are not cached).
        lo = st.min_completion_betting_or_raising_to_amount
        can_raise = lo is not None
        roll = rng.random()
        if call and (roll < 0.25 or (self.raises_seen > 3 and roll < 0.5)):
            uids = [u for u, z in self.cards_out.items() if z == f"seat{seat}"]
            for uid in uids:
                self.c.move(uid, f"seat{seat}", "muck", travel=0.3)
                self.cards_out[uid] = "muck"
            st.fold()
            self.expected.actions.append((self.street, seat, "fold", 0))
            return
        want_raise = can_raise and roll > (0.75 if call else 0.55) and self.raises_seen < 6
        if self.chip_trick == "string-raise" and self.trick_at <= 0 and can_raise and call:
            want_raise = True
        before = st.bets[i]
        if want_raise:
            # only raises the rulebook allows too (the cap, short all-ins: see .raising)
            active = sum(1 for j, live in enumerate(st.statuses) if live and st.stacks[j] > 0)
            legal = self.rules.legal(seat, before, st.stacks[i], lo, st.max_completion_betting_or_raising_to_amount,
                                     active, sum(self.stacks_before.values()) - sum(st.stacks))
            want_raise = legal is not None
        if want_raise:
            lo, hi = legal
            unit = g.smallest_chip
            choice = rng.random()
            if lo >= hi or choice < 0.35:
                to = lo
            elif choice < 0.5:
                to = hi  # pot-size (pot limit) or all-in (no limit)
            else:
                pot = st.total_pot_amount + call
                target = before + call + int(pot * rng.choice((0.5, 0.75, 1.0)))
                to = max(lo, min(hi, target // unit * unit))
            trick = self._trick_for(call, True)
            if trick == "string-raise" and to - before - call > 0:
                self._string_raise(seat, call, to - before - call)
                st.check_or_call()
                self.rules.acted(seat, before + call)
                self.expected.actions.append((self.street, seat, "call", before + call))
                return
            self._put(seat, to - before, trick, raising=bool(call))
            st.complete_bet_or_raise_to(to)
            self.rules.acted(seat, to, sum(1 for j, live in enumerate(st.statuses) if live and st.stacks[j] > 0))
            self.raises_seen += 1
            self.expected.actions.append((self.street, seat, "raise" if call or self.street == "preflop" else "bet", to))
            return
        if call:
            self._put(seat, call, self._trick_for(call, False))
            st.check_or_call()
            self.rules.acted(seat, before + call)
            self.expected.actions.append((self.street, seat, "call", before + call))
        else:
            self.c.tap("check", seat=seat)
            st.check_or_call()
            self.rules.acted(seat, before)
            self.expected.actions.append((self.street, seat, "check", before))

    def _award(self, st: State) -> None:
        pots = list(st.pots)
        chips = self.sim.chips
        pushes = []
        while st.can_push_chips():
            pushes.append(st.push_chips())
        adjust = self._odd_chips(st, pushes)
        self.expected.odd_chips = dict(adjust)
        self.c.wait(self.rng.uniform(2.0, 4.0))  # showdown: cards speak
        for op in pushes:
            pot = pots[op.pot_index] if op.pot_index < len(pots) else None
            shares = {self.order[i]: a for i, a in enumerate(op.amounts) if a > 0}
            if len(shares) > 1:
                for seat in [s for s in shares if s in adjust]:
                    shares[seat] += adjust.pop(seat)
            eligible = tuple(sorted(self.order[i] for i in pot.player_indices)) if pot else tuple(shares)
            self.expected.pots.append(ExpectedPot(sum(shares.values()), eligible, tuple(sorted(shares)), shares))
            for seat, amount in shares.items():
                pushed = self._take_from(self.pot, amount, "pot")
                self.c.sweep("pot", f"bet{seat}", pushed)
                self.c.wait(0.6)
            self.c.tap("award", ref=str(op.pot_index), seats=tuple(sorted(shares)))
            self.c.wait(self.rng.uniform(0.8, 2.0))
            for seat, _ in shares.items():
                taken = [u for u, z in self.c.where.items() if z == f"bet{seat}"]
                self.c.take(f"bet{seat}", taken)
                chips.receive(seat, taken)
            self.c.wait(0.5)
        self._sync_ops(st)

    def _odd_chips(self, st: State, pushes: list) -> dict[int, int]:
        """Seat -> chips the rulebook's split gives minus pokerkit's, when a split pot's odd chips differ
        (pokerkit merges pots once the losers are killed; Ties 4 and 5d split each pot on its own)."""
        if not any(sum(1 for a in op.amounts if a) > 1 for op in pushes):
            return {}
        won = {s: sum(op.amounts[i] for op in pushes) for i, s in enumerate(self.order)}
        contributed = {s: self.stacks_before[s] - st.stacks[i] + won[s] for i, s in enumerate(self.order)}
        live = set(self.order) - {seat for _, seat, kind, _ in self.expected.actions if kind == "fold"}
        board = list(st.get_board_cards(0))
        hand_type = _HIGH if self.sim.holes == 2 else _OMAHA
        try:
            strength = {s: hand_type.from_game([_CARD[c] for c in self.expected.hole_cards[s]], board).rank
                        for s in live}
        except (KeyError, ValueError):
            return {}
        ruled = rulebook_shares(contributed, live, strength, self.order, self.game.smallest_chip)
        if sum(ruled.values()) != sum(won.values()):
            return {}
        return {s: ruled.get(s, 0) - won[s] for s in self.order if ruled.get(s, 0) != won[s]}

    def _cleanup(self) -> None:
        """Every card of the hand back into the shoe: board, burn, muck, then the seats."""
        self.c.wait(self.rng.uniform(1.0, 2.0))
        rank = {"board": 0, "burn": 1, "muck": 2}
        for uid, zone in sorted(self.cards_out.items(), key=lambda kv: (rank.get(kv[1], 3), kv[1])):
            if uid not in self.sim.shoe_uids:
                self.c.take(zone, [uid])  # a joker or another deck's card leaves the game, not into the shoe
                continue
            self.c.move(uid, zone, "shoe", travel=0.1)
            self.c.wait(0.05)
        self.cards_out.clear()

    def _abort(self, outcome: str) -> None:
        """Misdeal or void: the dealer says so, every card back to the shoe, every chip to its owner."""
        self.expected.outcome = outcome
        self.c.wait(1.5)
        if outcome == "misdeal":
            self.c.tap("misdeal")
            self.c.wait(1.0)
        self._cleanup()
        for seat in self.order:
            if self.bets[seat]:
                self.c.take(f"bet{seat}", self.bets[seat])
                self.sim.chips.receive(seat, self.bets[seat])
                self.bets[seat] = []
        self.expected.stacks = dict(self.stacks_before)
        self.sim._keep_button = True  # a misdeal or void is redealt with the same button


class SimulatedSource:
    """Paces a simulator's records live, like the serial source: a thread puts them into ``entries``.

    ``speed`` > 1 runs faster than a real dealer; ``clock`` and ``sleep`` are passed in (tests use fakes).
    """

    def __init__(self, simulator: Simulator, speed: float = 1.0, clock: Callable[[], float] = time.monotonic,
                 sleep: Callable[[float], Any] = time.sleep, hands: int | None = None) -> None:
        if speed <= 0:
            raise ValueError("speed must be positive")
        self.simulator, self.speed, self.clock, self.sleep, self.hands = simulator, speed, clock, sleep, hands
        self.entries: queue.Queue = queue.Queue()
        self.connected = False
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self.counters = {"records": 0}

    def start(self) -> None:
        self._stop.clear()
        self._thread = threading.Thread(target=self._run, name="simulated-source", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=5)
        self.connected = False

    def send(self, message: p.Message) -> None:
        """Host commands reach a simulated board too; it has nothing to answer with but heartbeats."""

    def join(self, timeout: float | None = None) -> None:
        if self._thread is not None:
            self._thread.join(timeout)

    def _run(self) -> None:
        self.connected = True
        wall0 = self.clock()
        t0: float | None = None
        for record in self.simulator.records(self.hands):
            if self._stop.is_set():
                break
            if t0 is None:
                t0 = record.t
            due = wall0 + (record.t - t0) / self.speed
            delay = due - self.clock()
            if delay > 0:
                # Sleep in slices so stop() is prompt even at slow speeds.
                while delay > 0 and not self._stop.is_set():
                    self.sleep(min(delay, 0.2))
                    delay = due - self.clock()
            self.entries.put(record)
            self.counters["records"] += 1
        self.connected = False
