"""The betting of one hand, as a coordinator wiring its parts in one place (docs/betting.md, "The parts"):

- ``ledger`` (:class:`HandLedger`): the round, who is live, the street, what went in, the structure, the stacks;
- ``questions`` (:class:`DealerQuestions`): the one open question to the dealer;
- ``wagers`` (:class:`WagerRules`): what a wager may be, ruled and recorded;
- ``turn`` (:class:`BettingTurn`): the order of action, the check, fold and answer taps, a dead hand;
- ``posting`` (:class:`Posting`): blinds, missed blinds, straddle and kill, the findings of the hand's start;
- ``antes`` (:class:`Antes`): the antes owed and paid;
- ``chips`` (:class:`ChipMotions`): chips in the bet zones, motion by motion, become posts, antes and wagers.

Each part is handed the parts it asks and nothing else. Here: the end of a round, the refund, the award, and
the names the engine reads (kept as they were when this was one object)."""

from __future__ import annotations

from typing import Protocol

from ...config import Config, GameConfig
from .. import events as te
from ..findings import FindingLog
from .antes import Antes
from .betting_round import BettingRound, SeatBet
from .betting_turn import BettingTurn
from .blinds import clockwise, positions
from .chip_motions import ChipMotions
from ..variants import variant
from .kill import KillTracker
from .ledger import HandLedger
from .posting import Posting
from .questions import DealerQuestions, OpenQuestion
from .structures import LIMIT, Structure
from .wager_rules import WagerRules

LOST_TRACK = "Lost track of the betting: finish this hand by hand; the terminal picks up at the next deal."


class TableSide(Protocol):
    """What a hand reads and keeps of the table that dealt it (``table_betting.TableBetting`` is the one)."""

    config: Config
    game: GameConfig
    findings: FindingLog
    table_seats: int
    owes: dict[int, set[str]]               # blinds a seat missed (Blinds 9)
    new_players: set[int]
    waiting_for_bb: set[int]
    last_big_blind: int | None
    kill: KillTracker
    kill_reason: str

    @property
    def stacks(self) -> dict[int, int]: ...

    def next_question_id(self) -> str: ...

    def seat_dealt_around(self, seat: int) -> None: ...

    def hand_finished(self, h: HandBetting, main_winners: tuple[int, ...], won: int, scooped: int = 0) -> None: ...


class HandBetting:
    """The betting of one hand. Every method returns table events, except the queries and ``settle``."""

    def __init__(self, table: TableSide, stacks: dict[int, int], t: float, hand: int, button: int,
                 dealt_in: list[int], bomb: int = 0) -> None:
        """``stacks``: the table's chips behind each seat, lent to this hand's ledger, which alone changes them
        until the hand is settled or refunded; ``bomb``: a bomb pot's post per player (a house practice)."""
        self.table = table
        game = table.game
        self.hand = hand
        self.button = button
        self.order = clockwise(button, dealt_in, table.table_seats)
        self.positions = positions(button, self.order, table.table_seats, table.last_big_blind,
                                   table.config.table.button == "dead")
        is_tournament = table.config.is_tournament
        self.ledger = led = HandLedger(game, table.findings, stacks, hand, button, self.order, self.positions,
                                       table.table_seats)
        self.questions = DealerQuestions(led, table.next_question_id)
        self.wagers = WagerRules(led, table.kill.amount(game.big_blind))
        self.turn = BettingTurn(led, self.wagers, self.questions, table.owes)
        self.posting = Posting(led, self.turn, t, table.owes, table.new_players, table.waiting_for_bb, table.kill,
                               table.kill_reason, table.config.table.button == "dead", is_tournament, bomb,
                               lowball_kill=game.lowball_kill and variant(game.variant).draws > 0)
        self.antes = Antes(led, self.posting, self.turn, is_tournament, bomb)
        self.chips = ChipMotions(led, self.posting, self.antes, self.wagers, self.turn, self.questions,
                                 table.config.enrolment.house)
        # a bomb pot (house practice) has no preflop betting: the hand's first round is the flop's
        led.round.turn_order([] if bomb else self.turn.preflop_order())
        # the engine calls these for every chip and input: the part's own methods, without a call in between
        self.tick = self.chips.tick
        self.chip_entered = self.chips.chip_entered
        self.chip_left = self.chips.chip_left
        self.chip_to_pot = self.chips.chip_to_pot
        self.chip_from_pot = self.chips.chip_from_pot
        self.declare_raise = self.chips.declare_raise
        self.motions = self.chips.motions      # the part's dicts themselves, read after most inputs
        self.held = self.chips.held
        self.leaving = self.chips.leaving     # chips lifted from a bet zone, not yet placed (a gather under way)
        self.opening_events = self.posting.opening_events
        self.board_parts: list[list[te.Pot]] = []   # each pot's part per board, once settled on two or more boards
        self.half_parts: list[list[list[te.Pot]]] = []   # each pot's halves per board, once settled high and low

    # --- the names the engine and the screen read ------------------------------------------------------
    @property
    def round(self) -> BettingRound:
        return self.ledger.round

    @property
    def seats(self) -> dict[int, SeatBet]:
        return self.ledger.seats

    @property
    def live(self) -> set[int]:
        return self.ledger.live

    @property
    def settled(self) -> bool:
        return self.ledger.settled

    @property
    def lost(self) -> bool:
        return self.ledger.lost

    @property
    def street(self) -> str:
        return self.ledger.street

    @property
    def structure(self) -> Structure:
        return self.ledger.structure

    @property
    def killer(self) -> int | None:
        return self.ledger.killer

    @property
    def dead_money(self) -> dict[int, int]:
        return self.ledger.dead_money

    @property
    def current_bet(self) -> int:
        """The total every live seat must match this round."""
        return self.ledger.round.current_bet

    @property
    def to_act(self) -> int | None:
        return self.ledger.to_act

    @property
    def round_complete(self) -> bool:
        return not self.chips.held and not self.chips.motions and self.ledger.to_act is None

    @property
    def actions_after_blinds(self) -> int:
        return self.ledger.round.voluntary_actions

    @property
    def last_aggressor(self) -> int | None:
        return self.ledger.round.aggressor

    @property
    def bets(self) -> dict[int, int]:
        return self.ledger.bets

    @property
    def question(self) -> OpenQuestion | None:
        return self.questions.question

    def due(self, t: float) -> bool:
        """Whether something of the chips is due at ``t`` (a motion, a take-back or a held raise to close): if
        not, ``tick(t)`` has nothing to do (most inputs)."""
        return t >= self.chips.quiet_until

    @property
    def required(self) -> dict[int, tuple[str, int]]:
        return self.posting.required

    @property
    def ante_paid(self) -> dict[int, int]:
        return self.antes.paid

    @property
    def big_blind_ante(self) -> bool:
        return self.antes.big_blind_ante

    # --- what a tournament table says (Tournaments 22, 23, 31) -------------------------------------------
    @property
    def heads_up_blinds_ruled(self) -> bool:
        return self.posting.heads_up_blinds_ruled

    def blinds_ruled(self) -> None:
        """The tournament's blind check (Tournaments 30, 31) ruled on this hand's blinds: Blinds 3 says no more."""
        self.posting.blinds_ruled()

    def tournament_rules(self, cap_heads_up: bool) -> None:
        """This hand plays under the tournament's cap (Tournaments 22: ``cap_heads_up``, a limit game) or its
        string-bet rule (23: pot- and no-limit)."""
        if self.ledger.structure.kind == LIMIT:
            self.wagers.cap_heads_up(cap_heads_up)
        else:
            self.chips.string_bets_under("tournament.23")

    def amount_said(self, seat: int) -> None:
        """The ``declare-raise`` tap at a tournament table: ``seat`` said its raise's amount (Tournaments 23)."""
        self.chips.said_amount(seat)

    def in_hand(self, seat: int) -> bool:
        return seat in self.ledger.live

    def all_in(self, seat: int) -> bool:
        return self.ledger.all_in(seat)

    def acted(self, seat: int) -> bool:
        return self.ledger.acted(seat)

    def pots(self) -> list[te.Pot]:
        return self.ledger.pots()

    def uncalled_back(self) -> dict[int, int]:
        """Seats given back the uncalled part of a bet this hand, with how much of it went into the pot (a push of
        those chips to them is no misaward; chips handed back straight from the bet zone are not counted)."""
        return self.ledger.uncalled_back()

    def shares_due(self, winners_by_pot: list[tuple[int, ...]],
                   portions_by_pot: list[list[tuple[tuple[int, ...], ...]]] | None = None) -> dict[int, int]:
        """What :meth:`settle` would pay each seat from the pots with these winners, paying nothing."""
        return self.ledger.shares_due(winners_by_pot, max(1, self.ledger.game.smallest_chip), portions_by_pot)

    def taken_back(self, seat: int) -> int:
        """Chips of ``seat``'s wager this round no longer in its bet zone (taken back; 0 when all are there)."""
        b = self.ledger.seats.get(seat)
        return max(0, b.wager - b.present) if b is not None and b.live else 0

    def live_seats(self) -> set[int]:
        """Seats still contesting the pot (not folded, not dead). Read only."""
        return self.ledger.live

    def pot_total(self) -> int:
        """What ``pots()`` adds up to (every pot together), without building the side pots."""
        return self.ledger.pot_total()

    # --- the taps: the chip motions are brought up to date first ------------------------------------------
    def check(self, t: float, seat: int | None = None) -> list[te.TableEvent]:
        if self.ledger.lost:
            return []         # lost track of the betting: quiet until the next deal
        return self.chips.sync(t, seat) + self.turn.check(t, seat)

    def fold(self, t: float, seat: int) -> list[te.TableEvent]:
        return self.chips.sync(t, seat) + self.turn.fold(t, seat)

    def thrown_away(self, t: float, seat: int) -> list[te.TableEvent]:
        """A draw game's player threw its whole hand away during a draw: a fold, with no betting turn to be out of."""
        return self.chips.sync(t, seat) + self.turn.fold(t, seat, in_draw=True)

    def kill_hand(self, t: float, seat: int) -> list[te.TableEvent]:
        """A dead hand (the engine's ruling): out of the pot, its chips stay in."""
        return self.chips.sync(t, seat) + self.turn.kill_hand(t, seat)

    def answer(self, t: float, ref: str | None, choice: str | None) -> list[te.TableEvent]:
        """The ``answer`` tap. An answer to a question no longer open, or not one of its keys, changes nothing."""
        if self.ledger.lost:
            return []         # lost track of the betting: quiet until the next deal
        return self.chips.sync(t) + self.turn.answer(t, ref, choice)

    def deal_reached(self, stage: int) -> None:
        """Lowball's deal: a player got a third card (``stage`` 1: the pot may no longer be killed, Kill Pots 10),
        or every starting card is out (2: chips are bets again)."""
        self.posting.deal_reached(stage)

    def deal_started(self, t: float) -> list[te.TableEvent]:
        """The first card left the shoe: posts are in. Flags a required kill, owed blinds or antes not posted."""
        led = self.ledger
        if led.lost:
            return []         # lost track of the betting: quiet until the next deal
        out = self.chips.sync(t) + self.chips.close_all(t)
        if led.dealing:
            return out
        led.deal_begins()
        later = self.posting.defer_unposted()
        out += self.antes.at_deal(t, later) if self.antes.due else []
        return out + self.posting.at_deal(t)

    def waiting(self) -> set[int]:
        """Seats the deal may pass without a misdeal: they owe a post (a new player's big blind, missed blinds),
        hold no blind this hand and have put nothing in (usually none)."""
        return self.posting.waiting() if self.posting.unposted else set()

    def dealt_in_unposted(self, t: float, seat: int) -> list[te.TableEvent]:
        """The deal reached ``seat``, which owed a post and had posted nothing as it began: Blinds 10 unless it
        posted since (with its ante's check, Blinds 10 too)."""
        if not self.posting.unposted or seat not in self.posting.unposted:
            return []     # most first cards: nobody owes
        out = self.antes.unpaid(t, seat) if self.antes.due else []
        return out + self.posting.dealt_in_unposted(t, seat)

    def dealt_around(self, t: float, seat: int) -> list[te.TableEvent]:
        """The deal passed ``seat``, which owed a post and had put nothing in: it waits for the big blind
        (Blinds 4a, 5, 9), out of this hand, still seated and owing. Not a fold (it took no action and held no
        cards) nor a dead hand (it had none): the seat leaves the hand's order, the round and the live seats."""
        owed = self.posting.dealt_around(seat)
        self.antes.dealt_around(seat)
        self.ledger.dealt_around(seat)
        self.table.seat_dealt_around(seat)
        return [te.DealtAround(t, self.hand, seat, owed)]

    # --- the hand's course ---------------------------------------------------------------------------------
    def lose_track(self, t: float, reason: str) -> list[te.TableEvent]:
        """The chips can no longer be followed (sensor frames were lost while the betting ran, so chips may have
        moved unseen). Say so once; from here chip motions, taps and answers are not judged, nobody is to act,
        and the cards are still followed. The next hand starts clean."""
        led = self.ledger
        if led.lost or led.settled:
            return []
        led.track_lost()
        out = self.questions.close(t)
        self.chips.track_lost()
        self.wagers.drop_undo()
        led.round.turn_order([])
        return out + [te.BettingLost(t, self.hand, reason, LOST_TRACK)]

    def _end_round(self, t: float) -> list[te.TableEvent]:
        out = self.chips.flush(t) + self.questions.close(t)
        out += self.ledger.gather(t)
        self.wagers.drop_undo()
        return out

    def next_street(self, t: float, street: str) -> list[te.TableEvent]:
        led = self.ledger
        if street == led.street or led.settled or street in led.ended_streets:
            return []
        out = self._end_round(t)
        led.street_ended()
        out.append(te.BettingRoundEnded(t, self.hand, led.street, led.pot_total()))
        led.street_begins(street)
        if street != "showdown":
            led.round.street_begins(self.turn.postflop_order())
        else:
            led.round.turn_order([])
        return out

    def refund(self, t: float, reason: str) -> list[te.TableEvent]:
        """Misdeal or void: every chip goes back to whoever put it in."""
        led = self.ledger
        if led.settled:
            return []
        self.chips.clear()
        out = self.questions.close(t)
        out += led.give_back(t)
        self.posting.restore_owed()
        led.close()
        return out

    def settle(self, t: float, winners_by_pot: list[tuple[int, ...]],
               portions_by_pot: list[list[tuple[tuple[int, ...], ...]]] | None = None,
               ) -> tuple[list[te.Pot], dict[int, int]]:
        """Award every pot: ``winners_by_pot[i]`` won pot ``i`` of ``pots()`` (main first); ``portions_by_pot[i]``
        divides it first (per board, board 1 first; per half, high first: :meth:`HandLedger.award`; a pot's parts
        on two or more boards are left in ``board_parts``, its halves in ``half_parts``). A pot with no winners
        named goes to its only eligible seat. Returns the pots with shares, and every seat's stack."""
        led = self.ledger
        if led.settled:
            return [], self.table.stacks
        self.questions.forget()     # the hand is over: nothing left to ask
        if led.street != "showdown":
            self._end_round(t)
            led.street_ended()
        self.antes.return_unmatched()
        done, self.board_parts, self.half_parts = led.award(winners_by_pot, max(1, led.game.smallest_chip),
                                                            portions_by_pot)
        led.close()
        main = done[0] if done else None
        main_winners = main.winners if main else ()
        won = scooped = 0
        if len(main_winners) == 1:
            w = main_winners[0]
            won = sum(p.shares.get(w, 0) for p in done) - led.contributed.get(w, 0)
            scooped = sum(p.amount for p in done if p.winners == (w,))   # the pots it took whole (Kill Pots 8)
        self.table.hand_finished(self, main_winners, won, scooped)
        return done, self.table.stacks
