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

import random
import sys
from dataclasses import dataclass
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, cast

from ...config import Config
from ...engine import inputs as ev
from ...record.logformat import Header, Input, Record, Rx, table_header
from ...tags import JOKERS, Deck, Tag, TagRegistry
from ...wire import protocol as p
from ..choreography import Choreography, SensedChoreography, board_hello
from .chips import TableChips
from .stack_reads import StackReads
from .hand import HandPlay
from .outcome import IRREGULARITIES, SimulatedHand, SimulatorError
from .referee import NO_POSTS, VARIANTS
from .away import Away
from .bombs import BombSchedule
from .posts import TablePosts
from .session import Session

if TYPE_CHECKING:   # the tournament package is imported only when a tournament is played (sim/tournament.py)
    from ...tournament.config import Tournament
    from .tournament import TournamentClock

HEARTBEAT_PERIOD = 5.0   # seconds between the board's heartbeats in records()
READ_CHUNK_MAX = 4096    # bytes one read of the serial source takes at most (sources/serial_port.py READ_MAX)


@dataclass(frozen=True)
class ShoeDeck:
    """The deck in the shoe: its card -> tag map, its 52 cards in enrolment order and their tags."""

    deck: Deck
    card_uid: dict[str, str]
    cards: tuple[str, ...]
    shoe_uids: frozenset[str]

    @classmethod
    def of(cls, deck: Deck) -> ShoeDeck:
        card_uid = {c: u for u, c in deck.cards.items()}
        cards = tuple(c for c in card_uid if c not in JOKERS)
        if len(cards) != 52:
            raise SimulatorError(f"deck {deck.deck_id} has {len(cards)} cards, not 52")
        return cls(deck, card_uid, cards, frozenset(card_uid[c] for c in cards))


@dataclass
class IrregularityPlan:
    """Which irregularities the simulator stages: the ``planned`` ones in order, then each hand at ``rate``."""

    planned: list[str]
    rate: float
    bad_cues: int = 0   # unknown kinds written to simulator.cue_file


class Simulator:
    """Plays hands at one table. See the module docstring; ``irregularities`` is a chance per hand (float)
    or a list of kinds (one per hand, in order); None takes ``config.simulator.irregularities``.

    At a kill table (``game.kill``) the killer posts each kill that falls due, live, from its seat, and acts in
    turn (sim/posts.py); ``post_kills=False`` leaves every due kill unposted (Kill Pots 6, for fault injection).
    ``away.back_in_posting`` brings a player back who makes up the blinds it missed (Blinds 9).

    With ``tournament`` the table plays that event (sim/tournament.py): entrants with the starting stack, the
    draw for the button, hands at the clock's levels, busted players out, until one player has every chip."""

    def __init__(self, config: Config, registry: TagRegistry, seed: int | None = None,
                 irregularities: float | Sequence[str] | None = None, start: float = 0.0,
                 stack_limit: int | None = None, unreadable_stacks: float | None = None,
                 tournament: Tournament | None = None, post_kills: bool = True) -> None:
        game = config.game
        if game.variant not in VARIANTS:
            raise SimulatorError(f"game.variant: the simulator plays {', '.join(VARIANTS)}, not {game.variant!r}")
        self.config = config
        self.registry = registry
        self.seed = config.simulator.seed if seed is None else seed
        self.rng = random.Random(self.seed)
        self.holes = VARIANTS[game.variant][1]
        if not registry.decks:
            raise SimulatorError("enrolment.decks: the simulator needs at least one enrolled deck")
        self._use_deck(registry.decks[0])
        self._keep_button = False
        self._deck_change = False
        self._board: tuple[str, ...] = ()
        self.away = Away()
        self._arrivals: list[tuple[int, int]] = []    # (seat, chips) sitting down before the next hand
        kill_button = [u for u, kind in registry.chips_of(config.enrolment.house).markers.items() if kind == "kill"]
        self.posts = TablePosts(game, config.table.seats, post_kills, kill_button[0] if kill_button else None)
        self.chips = TableChips(registry, config.enrolment.house, game.smallest_chip)
        if isinstance(irregularities, (list, tuple)):
            unknown = [k for k in irregularities if k not in IRREGULARITIES]
            if unknown:
                raise SimulatorError(f"unknown irregularities {unknown}; known: {', '.join(IRREGULARITIES)}")
            self.plan = IrregularityPlan(list(irregularities), 0.0)
        else:
            self.plan = IrregularityPlan([], config.simulator.irregularities if irregularities is None
                                         else float(cast(float, irregularities)))  # lists handled above
        self.tournament = tournament
        self.bombs = BombSchedule.of(config, tournament is not None)
        self.levels: TournamentClock | None = None
        if tournament is not None:
            from .tournament import TournamentClock
            self.levels = TournamentClock(tournament)
        self.t = start
        self.hand_no = 0
        self.stacks: dict[int, int] = {}
        self.button: int | None = None
        self.new_session = True
        self._hello_sent = False
        self._tags: dict[str, Tag] = {}   # uid -> Tag, shared by every hand's choreography
        # chip zones as a PN5180 reads them: "uncertain" past stack_limit chips, now and then unreadable
        sc = config.simulator
        self.stack_reads = StackReads(sc.stack_limit if stack_limit is None else stack_limit,
                                      sc.unreadable_stacks if unreadable_stacks is None else unreadable_stacks,
                                      random.Random(f"{self.seed}/stacks"))

    def _use_deck(self, deck: Deck) -> None:
        self.shoe = ShoeDeck.of(deck)

    # --- public API ----------------------------------------------------------------------------------
    def change_deck(self) -> None:
        """Before the next hand the dealer swaps the deck in the shoe for the next enrolled one, with no tap
        to say why (Procedures 21 allows it once the deck has played a full round, or for a damaged card)."""
        if len(self.registry.decks) < 2:
            raise SimulatorError("enrolment.decks: changing the deck needs a second enrolled deck")
        self._deck_change = True

    def seat_player(self, seat: int, amount: int | None = None, wait_for_bb: bool = False) -> None:
        """Before the next hand a new player sits down in empty ``seat`` of the running game with ``amount`` chips
        (None: a random buy-in), and either waits for the big blind or posts one where they sit and plays as soon
        as the button has passed them (Blinds 4, 7). At a fresh table (no hand yet) everyone sits at once."""
        if seat in self.stacks or any(s == seat for s, _ in self._arrivals) or \
                not 1 <= seat <= self.config.table.seats:
            raise SimulatorError(f"seat {seat}: a new player needs an empty seat of the table's "
                                 f"{self.config.table.seats}")
        if self.tournament is not None:
            raise SimulatorError("a new player sits down at a cash table; a tournament seats its entrants")
        self._arrivals.append((seat, self._stack_size() if amount is None else amount))
        self.away.arrive(seat, wait_for_bb)
        self.posts.arrived(seat)

    def stage_board(self, cards: Sequence[str]) -> None:
        """The next hand's board is ``cards`` (five, e.g. ``("As", "Ks", "Qs", "Js", "Ts")``), the rest of the
        deck shuffled as ever: a board every hold'em player plays splits every showdown (Kill Pots 4, Ties)."""
        if len(cards) != 5 or len(set(cards)) != 5 or not set(cards) <= set(self.shoe.cards):
            raise SimulatorError(f"stage_board: five different cards of the deck, not {list(cards)}")
        self._board = tuple(cards)

    def header(self) -> Header:
        hello = board_hello(self.config.table.seats)
        return table_header(self.config, self.registry, tournament=self.tournament,
                            hello={"protocol": f"{hello.protocol_major}.{hello.protocol_minor}",
                                   "firmware": ".".join(map(str, hello.firmware)),
                                   "zones": [p.zone_name(z) for z in hello.zones]})

    def play(self, n: int | None = None) -> Iterator[SimulatedHand]:
        """Play ``n`` hands (None: without end), one SimulatedHand each."""
        played = 0
        while (n is None or played < n) and not self.finished:
            played += 1
            yield self._hand()

    @property
    def finished(self) -> bool:
        """A tournament is over once one player holds every chip (a cash table never finishes)."""
        return self.tournament is not None and not self.new_session and len(self.stacks) < 2

    def records(self, n: int | None = None) -> Iterator[Record]:
        """Log records of ``n`` hands: the board's HELLO first, heartbeats every few seconds, and the frames as
        the serial source reads them: those the board sends in the same instant (the chips of one motion, a
        sweep's changes) arrive together and are read as one chunk, one Rx."""
        encoder = p.Encoder()
        present = 0
        if not self._hello_sent:
            self._hello_sent = True
            yield Rx(self.t, encoder.encode(board_hello(self.config.table.seats)))
        start = self.t
        next_beat = self.t + HEARTBEAT_PERIOD
        burst, burst_t = bytearray(), 0.0
        for hand in self.play(n):
            for t, m in hand.messages:
                if burst and (t != burst_t or isinstance(m, ev.DealerInput) or len(burst) >= READ_CHUNK_MAX):
                    yield Rx(burst_t, bytes(burst))
                    burst.clear()
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
                burst += encoder.encode(m)
                burst_t = t
            if burst:   # a hand's last frames are not held back for the next hand's first
                yield Rx(burst_t, bytes(burst))
                burst.clear()

    # --- one hand ------------------------------------------------------------------------------------
    def _wait(self, c: Choreography, lo: float, hi: float) -> None:
        c.wait(self.rng.uniform(lo, hi))

    def _pick_irregularity(self) -> str | None:
        self._take_cue()
        if self.plan.planned:
            return self.plan.planned.pop(0)
        if self.plan.rate and self.rng.random() < self.plan.rate:
            return self.rng.choice(sorted(IRREGULARITIES))
        return None

    def _take_cue(self) -> None:
        """A drill on cue (``simulator.cue_file``): kinds written to the file are played from the next hand on, one
        a hand, and the file is removed. A kind the simulator does not play is named on stderr and counted."""
        path = self.config.simulator.cue_file
        if not path:
            return
        try:
            text = Path(path).read_text(encoding="utf-8")
            Path(path).unlink()
        except (OSError, UnicodeDecodeError):     # no cue waiting (or one being written: read on the next hand)
            return
        for kind in text.replace(",", " ").split():
            if kind in IRREGULARITIES:
                self.plan.planned.append(kind)
            else:
                self.plan.bad_cues += 1
                print(f"simulator.cue_file {path}: {kind!r} is not an irregularity the simulator plays "
                      f"({', '.join(IRREGULARITIES)})", file=sys.stderr)

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
        self.away.clear()
        self.posts.new_table()
        if self.tournament is not None:
            from .tournament import entrants
            count = entrants(self.tournament, seats)
        else:
            # one deck deals every hand out: five-card Omaha seats at most eight (8 x 5 + 3 burns + 5 board = 48),
            # seven where double-board bomb pots are dealt (3 burns and 10 board cards)
            rest = 13 if self.bombs.double else 8
            count = self.rng.randint(2, min(seats, (52 - rest) // self.holes))
        for seat in sorted(self.rng.sample(range(1, seats + 1), count)):
            amount = self._stack_size() if self.tournament is None else self.tournament.starting_stack
            self.stacks[seat] = amount
            self.chips.fill(seat, amount)
            c.tap("sit", seat=seat, amount=amount)
            c.wait(self.rng.uniform(0.5, 2.0))
        if self.hand_no == 1:
            for card in self.shoe.cards:
                c.enter("shoe", self.shoe.card_uid[card])
        if self.tournament is not None and self.hand_no == 1:
            from .tournament import draw_for_button
            c.wait(1.0)
            drawn = self.rng.sample(self.shoe.cards, len(self.stacks))
            new_button = draw_for_button(c, self.shoe.card_uid, drawn,
                                         sorted(self.stacks))
        else:
            new_button = self.rng.choice(sorted(self.stacks))
        self._place_button(c, new_button)
        self.new_session = False

    def _swap_deck(self, c: Choreography) -> None:
        """Every card of the deck in use out of the shoe, then the next enrolled deck in."""
        self._deck_change = False
        c.take("shoe", [self.shoe.card_uid[card] for card in self.shoe.cards])
        c.wait(1.0)
        decks = self.registry.decks
        self._use_deck(decks[(decks.index(self.shoe.deck) + 1) % len(decks)])
        for card in self.shoe.cards:
            c.enter("shoe", self.shoe.card_uid[card])
        c.wait(1.0)

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

    def _dead_button(self) -> bool:
        """The next deal places the button and blinds by Blinds 1b: a dead-button cash table (``table.button``),
        a hand played since the players sat down, three or more players (heads-up the button posts the small
        blind, Blinds 3)."""
        players = [s for s in self.stacks if s not in self.away.sitting_out]
        return self.config.table.button == "dead" and self.tournament is None and self.posts.places is not None \
            and len(players) > 2

    def _next_button(self) -> int:
        """Blinds 1a: the next player the hand deals in (not a seat away, waiting for the big blind or new on the
        button, Blinds 7). Blinds 1b: the seat last hand's small blind had, even empty."""
        assert self.button is not None
        if self._dead_button():
            assert self.posts.places is not None
            return self.posts.places[0]
        seated = sorted(self.stacks)
        after = [s for s in seated if s > self.button] + [s for s in seated if s <= self.button]
        return next((s for s in after if self.away.deals_in(s, seated, s)), self._next_seat(self.button))

    @property
    def blind_places(self) -> tuple[int, int] | None:
        """Last hand's small blind and big blind seats (the small blind's place even when it was dead): where a
        dead button's next button and small blind go (Blinds 1b); None before a hand has been played."""
        return self.posts.places

    def unseat(self, seat: int) -> None:
        """Before the next hand the player in ``seat`` leaves the table with their chips (the ``leave`` tap)."""
        if seat not in self.stacks:
            raise SimulatorError(f"seat {seat}: nobody sits there to leave")
        self.away.taps.append(("leave", seat))

    def _hand(self) -> SimulatedHand:
        self.hand_no += 1
        c = SensedChoreography(self.registry, self.t, self._tags)
        kind = self._pick_irregularity()
        if self._deck_change and self.hand_no > 1:
            self._swap_deck(c)
        for seat, amount in self._arrivals:     # a new player sits down: seated before the button moves
            self.stacks[seat] = amount
            self.chips.fill(seat, amount)
            c.tap("sit", seat=seat, amount=amount)
            c.wait(0.5)
        self._arrivals.clear()
        for action, seat in self.away.taps:    # before the button moves: the hand's players are decided then
            c.tap(action, seat=seat)
            if action == "leave":              # the player gets up with their chips (Simulator.unseat)
                self.chips.empty(seat)
                del self.stacks[seat]
            c.wait(0.5)
        self.away.taps.clear()
        if self.new_session or (self.tournament is None and self._table_too_rich()):
            self._start_session(c)
        elif not self._keep_button:
            assert self.button is not None  # the first hand starts a session, which places the button
            self._place_button(c, self._next_button())
        self._keep_button = False
        self.posts.place_kill_button(c)
        for seat in sorted(self.stacks) if self.tournament is None else ():   # no rebuys in a freezeout
            if self.stacks[seat] == 0:
                amount = self._stack_size()
                self.stacks[seat] = amount
                self.chips.fill(seat, amount)
                c.tap("rebuy", seat=seat, amount=amount)
                c.wait(1.0)
        c.wait(self.rng.uniform(1.0, 3.0))
        config = self.config
        if self.levels is not None:
            from .tournament import at_level
            config = at_level(config, self.levels.level_for_next_deal(c))
        hand = HandPlay(self._session(config, self.bombs.post_for(self.hand_no)), c, kind)
        expected = hand.play()
        self.bombs.dealt(expected)
        if self.levels is not None:
            self.levels.hand_dealt(c.inputs)
        if expected.outcome == "played":
            self.posts.hand_played(expected)
            for seat, stack in expected.stacks.items():
                self.stacks[seat] = stack
                self.chips.colour_up(seat)
                if stack == 0 and self.tournament is not None:
                    del self.stacks[seat]      # busted: out of the event (the engine places the player)
                    self.chips.empty(seat)
        else:
            self._keep_button = True  # a misdeal or void is redealt with the same button
        self.t = c.t + self.rng.uniform(2.0, 5.0)
        return SimulatedHand(self.hand_no, self.stack_reads.annotate(c.inputs), expected)

    def _session(self, config: Config, bomb: int = 0) -> Session:
        assert self.button is not None  # placed when the session started
        dealt = self.away.dealt_in(self.button, sorted(self.stacks))
        order = tuple(s for s in dealt if s > self.button) + tuple(s for s in dealt if s <= self.button)
        if bomb:    # a bomb pot has no blinds, so none passes a seat and none is made up in it (docs/betting.md)
            posts = NO_POSTS
        else:
            dead_small = False
            if self._dead_button() and len(order) > 2:
                assert self.posts.places is not None
                last_big = self.posts.places[1]   # Blinds 1b: the big blind to the player after last hand's big blind
                dead_small = last_big not in order
                if not dead_small and order[0] != last_big:
                    raise SimulatorError(f"hand {self.hand_no}: a dead button's small blind is seat {last_big}, but "
                                         f"seat {order[0]} sits between it and the button {self.button}")
                self.posts.dealing = (last_big, order[0] if dead_small else order[1])
            else:
                self.posts.dealing = (self.button, order[0]) if len(order) == 2 else (order[0], order[1])
            posts = self.posts.for_hand(order, self.button, self.stacks, self.away.making_up, dead_small)
        board, self._board = self._board, ()
        shoe = self.shoe
        structure = VARIANTS[config.game.variant][0]     # the betting structure (a level never changes the game)
        return Session(config, self.registry, self.rng, structure, self.holes, shoe.deck, shoe.card_uid,
                       shoe.cards, shoe.shoe_uids, self.chips,
                       {s: self.stacks[s] for s in dealt}, self.button, self.hand_no,
                       live_posts=frozenset() if bomb else frozenset(self.away.posting), posts=posts, board=board,
                       bomb=bomb, bomb_boards=self.bombs.boards if bomb else 1)

    def _table_too_rich(self) -> bool:
        # Rebuys add chips for ever; a fresh session keeps the table within the registered chips.
        return sum(self.stacks.values()) > 0.35 * (self.chips.total() + sum(self.stacks.values()))
