"""The engine: ``apply(event) -> [table events]``. Pure and synchronous, driven only by event timestamps.

It follows the table across hands (seats, button puck, deck in use) and each hand as it physically happens
(every card's whereabouts, the deal, the board, folds, showdown, the award), hands the chips to
``engine.betting`` and turns every card irregularity into a finding with its outcome applied. How it reads a
hand, the precedence between rules and the misdeal window are described in docs/engine.md.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..config import Config
from ..tags import CardTag, ChipTag, MarkerTag, TagRegistry
from . import events as te
from . import inputs as ev
from .cards import CardLedger
from .catalogue import raised_at
from .findings import FindingLog
from .hand import Hand
from .misdeal import Ruling, window_open
from .showdown import clockwise_from
from .stacks import StackReads
from .state import FindingView, SeatView, TableState
from .variants import variant
from .zones import BET_OF, SEAT_OF
from .betting import HandBetting, TableBetting
from .board_flow import BoardFlow
from .card_flow import CardFlow
from .chip_flow import ChipFlow
from .dealer_taps import DealerTaps
from .hand_flow import HandFlow
from .tournament_moves import TableMoves, dealt as moved_in_dealt
from .tournament_chips import TournamentChips
from .tournament_entrants import TournamentEntrants
from .tournament_play_rules import TournamentPlayRules
from .tournament_levels import TournamentLevels
from .tournament_seats import TournamentSeats

if TYPE_CHECKING:   # the type only: the tournament package validates with jsonschema, which a cash table never loads
    from ..tournament.config import Tournament


class Engine(CardFlow, BoardFlow, ChipFlow, DealerTaps, HandFlow, TournamentEntrants, TournamentChips,
             TournamentPlayRules, TournamentLevels, TournamentSeats):
    """The table, hand after hand. Its parts by subject: cards (``card_flow``), the board (``board_flow``), chips
    and pucks (``chip_flow``), the dealer's taps (``dealer_taps``), the hand moving on (``hand_flow``); their
    state is kept here."""

    def __init__(self, config: Config, registry: TagRegistry, tournament: Tournament | None = None) -> None:
        self.config = config
        self.tournament = tournament              # the event a tournament table plays (levels, chips), or None
        self.registry = registry
        self.variant = variant(config.game.variant)
        self.seats = config.table.seats
        self.findings = FindingLog()
        self.stacks = StackReads()               # chip zones read incompletely (engine/stacks.py)
        self.betting = TableBetting(config, self.findings)
        self.ledger = CardLedger()
        self.hand_no: int | None = None
        self.hands_before = 0                    # hands of earlier runs (record/sequence.py): numbering continues
        self.hand: Hand | None = None
        self.hb: HandBetting | None = None       # the betting of the running hand
        self.occupied: set[int] = set()
        self.puck: int | None = None
        self.last_button: int | None = None      # button of the last hand started
        self.fresh_table = True                  # nobody has played since the table was (re)filled
        self.disputed_puck: int | None = None    # puck seat already ruled misdeal.1g: the dealer kept it there
        self.keep_button = False                 # misdeal or void: the same button deals again
        self.deck_id: str | None = None
        self.back: str | None = None
        self.hands_with_deck = 0
        self.deck_round = 0                      # players dealt in when the deck came in (a full round)
        self.shoe_loaded: set[str] = set()       # decks seen (nearly) whole in the shoe
        self.reported: set[str] = set()          # uids already reported found in the stub / missing
        self.pot_zone: dict[str, int] = {}       # chip uid -> value, chips in the pot zone
        self.chip_from: dict[str, tuple[str, float]] = {}   # chip uid -> (zone it left, when), until it lands
        self.pot_leaving: dict[str, float] = {}             # chips that left the pot and have not landed
        self.acked: set[str] = set()
        self.dealer: str | None = None           # who signed in on the terminal (dealer_taps: sign-in/out)
        self.last_hand: Hand | None = None
        self.moves = TableMoves(config.table.id)   # the floor's moves and breaks (engine/tournament_moves.py)
        self.all_in_prompts = raised_at("tournament.34", config.is_tournament)   # known once: the config is frozen
        self._entrants_init()                    # tournament tables: away, held and sold seats, rebuys
        self._chips_init()                       # tournament tables: chips that do not play, the chip race
        self._levels_setup()                     # a tournament table's clock (engine/tournament_levels.py)
        self._seats_setup()                      # its button draw and eliminations (engine/tournament_seats.py)

    # --- the one entry point -----------------------------------------------------------------------------
    def apply(self, event: ev.EngineInput) -> list[te.TableEvent]:
        t = event.t
        out: list[te.TableEvent] = [] if self.clock is None else self._clock_tick(t)   # a level may have ended
        h = self.hand
        running = h is not None and h.phase != "ended"
        if running:
            hb = self.hb
            if t >= hb.quiet_until:   # otherwise tick has nothing to close (most inputs)
                out += self._betting_events(hb.tick(t))
        # a card in transit long enough to have fallen (fall_due is "never" while none moves), or a boxed card
        if t >= self.ledger.fall_due or (running and h.provisional_boxed is not None):
            out += self._resolve_pending(event)
        kind = type(event)
        if kind is ev.ZoneEntered or kind is ev.ZoneLeft:
            tag = event.tag
            tag_kind = type(tag)
            if tag_kind is ChipTag:
                # a chip arriving or leaving with nothing to report changes no card rule: no progress check
                more = self._chip_entered(t, event.zone, tag) if kind is ev.ZoneEntered else \
                    self._chip_left(t, event.zone, tag)
                if not more:
                    if out:
                        out += self._progress(t)
                    return out
                out += more
            elif tag_kind is CardTag:
                out += self._card_entered(t, event.zone, tag) if kind is ev.ZoneEntered else \
                    self._card_left(t, event.zone, tag)
            elif tag_kind is MarkerTag:
                if tag.kind == "button" and kind is ev.ZoneEntered:
                    out += self._puck_entered(t, event.zone)
                elif tag.kind == "button" and SEAT_OF[event.zone] == self.puck:
                    self.puck = None
                elif tag.kind == "kill" and kind is ev.ZoneEntered:
                    out += self._kill_puck(t, event.zone)
                elif tag.kind == "badge" and kind is ev.ZoneEntered:
                    # who the badge belongs to is the terminal's business (audit.badges), not the rules'
                    out.append(te.BadgeShown(t, self.hand_no, event.zone, tag.uid))
                if not out:
                    return out
            elif kind is ev.ZoneEntered:   # UnknownTag
                out.append(te.UnknownTagSeen(t, self.hand_no, event.zone, tag.uid))
                seat = BET_OF[event.zone]
                if running and seat is not None:
                    out += self._betting_events(self.hb.chip_entered(t, seat, tag))
            elif not out:
                return out
        elif kind is ev.CardFaceSensed:
            if type(event.tag) is CardTag:
                self.ledger.face_sensed(event.tag, event.face_up)
            if not out:
                return out
        elif kind is ev.DealerInput:
            out += self._dealer(event)
        elif kind is ev.BoardHello:
            self.stacks.board_restarted()
            out.append(te.BoardConnected(t, self.hand_no, event.protocol, event.firmware, event.zones))
        elif kind is ev.ReaderFaulted:
            out.append(te.ReaderHealthChanged(t, self.hand_no, event.reader, event.zone, event.code == 0,
                                              event.code))
        elif kind is ev.FramesLost:
            out.append(te.SensorDataLost(t, self.hand_no, event.count, event.reason))
            if running and not h.decided:
                out += self.hb.lose_track(t, event.reason)   # chips may have moved unseen: the betting is lost
        elif kind is ev.ZoneReadState:
            seat = BET_OF[event.zone]
            amount = int(self.hb.bets.get(seat, 0)) if running and seat is not None else 0
            out += self.stacks.read(t, self.hand_no, event.zone, event.state, event.tags, seat, amount, self.findings)
            if not out:
                return out
        elif not out:
            return out
        h = self.hand
        if h is not None and h.phase not in ("ended", "showdown"):   # else _progress has nothing to move on
            out += self._progress(t)
        # a bet zone read incompletely: its short-wager rulings wait for the dealer's count (engine/stacks.py)
        if not self.stacks.seats:
            return out
        bets = self.hb.bets if self._running() and self.hb is not None else {}
        self.stacks.follow(bets)
        return self.stacks.hold(out, self.findings, bets)

    # --- helpers -------------------------------------------------------------------------------------------
    def _running(self) -> bool:
        return self.hand is not None and self.hand.phase != "ended"

    def _window(self) -> bool:
        return window_open(self.hb.round.voluntary_actions if self.hb is not None else 0)   # read at every card

    def _betting_events(self, events: list[te.TableEvent]) -> list[te.TableEvent]:
        """Pass the betting's events through, noting the actions the card rules care about (joker held, deal over)."""
        if not events:
            return []
        out = list(events)
        h = self.hand
        if h is None:
            return out
        for e in events:
            if isinstance(e, te.ActionTaken) and e.action not in ("post", "straddle", "ante"):
                h.voluntary_actions += 1
                h.actions_on_street += 1
                if not h.deal.finished and h.phase == "deal":
                    out += self._rulings(e.t, h.deal.finish(self._window()))
                    if h.phase == "deal":
                        h.phase = "preflop"
                if e.seat in h.jokers and e.action != "fold" and e.seat not in h.dead:
                    out += self._rulings(e.t, [Ruling(
                        "dead-hand.1e", "dead-hand", f"Seat {e.seat} acted on a hand holding a joker: the hand is "
                        "dead, cards to the muck.", (e.seat,))])
            elif isinstance(e, te.ActionTaken) and e.action == "fold" and e.seat is not None:
                h.folded.add(e.seat)
        return out

    def _rulings(self, t: float, rulings: list[Ruling]) -> list[te.TableEvent]:
        """Raise each ruling as a finding and apply its outcome."""
        if not rulings:
            return []
        out: list[te.TableEvent] = []
        was_running = self._running()
        if self._tournament_table():
            rulings = self._entrant_rulings(rulings)   # a paid seat dealt out: the tournament's citation
        for r in rulings:
            if not was_running and r.outcome in ("misdeal", "void", "dead-hand"):
                continue   # the hand had already ended: nothing left to apply it to
            out.append(self.findings.raise_(t, self.hand_no, r.rule, severity=r.level, outcome=r.outcome,
                                            ruling=r.text, seats=r.seats, cards=r.cards))
            if not self._running():
                continue   # a second reason for the same void or misdeal: reported, applied once
            if r.outcome in ("misdeal", "void"):
                out += self._end_hand(t, r.outcome)
            elif r.outcome == "dead-hand":
                for seat in r.seats:
                    if self.hand and seat not in self.hand.dead:
                        self.hand.dead.add(seat)
                        out += self._betting_events(self.hb.kill_hand(t, seat))
        return out

    def _info(self, t: float, rule: str, text: str, seats=(), cards=(), outcome: str = "continues"):
        return self._rulings(t, [Ruling(rule, outcome, text, tuple(seats), tuple(cards), severity="info")])

    def _entitled(self) -> list[int]:
        stacks = self.betting.stacks
        return [s for s in sorted(self.occupied) if stacks.get(s, 0) > 0]

    # --- hands: start and end ------------------------------------------------------------------------------
    def _expected_button(self, entitled: list[int]) -> int | None:
        """Where the button belongs: the same seat after a misdeal, else where engine.betting's rotation puts
        it (moving or dead button, Blinds 1); at a fresh table, wherever the dealer put the puck."""
        if not entitled:
            return None
        if self.disputed_puck is not None and self.puck == self.disputed_puck:
            return self.puck    # ruled once already and the dealer left it there: follow the puck
        self.disputed_puck = None
        if self.keep_button and self.last_button is not None:
            return self.last_button
        if not self.fresh_table and self.last_button is not None:
            if self.config.table.button == "dead":
                button = self.betting.button_for(self.occupied)   # Blinds 1: engine.betting keeps the blind history
                if button is not None:
                    return button
            return clockwise_from(self.last_button, entitled, self.seats)[0]
        if self.drawn_button in entitled:
            return self.drawn_button            # Tournaments 29: the draw for the button (engine/tournament_seats.py)
        return self.puck if self.puck is not None else entitled[0]

    def _start_hand(self, t: float) -> list[te.TableEvent]:
        out: list[te.TableEvent] = self._entrants_before_deal(t) if self._tournament_table() else []
        out += self._tournament_hand_start(t) if self.config.is_tournament else []
        button = self._expected_button(self._entitled()) or (self.puck or 1)
        self.hand_no = (self.hand_no or self.hands_before) + 1
        # A table filled afresh has no "new player between the blinds" (Blinds 7): everyone with chips plays.
        order = tuple(self.betting.entitled(button, self.occupied))
        if self.fresh_table:
            away = self.betting.waiting_for_bb | self.betting.sitting_out   # their choice, made before the deal
            order = tuple(clockwise_from(button, set(order) | (set(self._entitled()) - away), self.seats))
        out += self._deck_at_start(t, order)
        self.hand = Hand(self.hand_no, button, order, self.variant, self.deck_id, self.back)
        self.hb = self.betting.start_hand(t, self.hand_no, button, order)
        self.hand.blinds = dict(self.betting.blinds_for(button, order)) if len(order) >= 2 else {}
        self.keep_button = False
        self.fresh_table = False
        self.last_button = button
        out.append(te.HandStarted(t, self.hand_no, button, order, self.variant.key, self.hand.blinds))
        out += self.hb.opening_events
        out += moved_in_dealt(self, t, order)   # players the floor moved in are dealt in at once (Tournaments 15)
        if self._tournament_table():
            self._play_rules_at_start()
            out += self._entrants_at_start(t)
        return out

    def _end_hand(self, t: float, outcome: str) -> list[te.TableEvent]:
        h = self.hand
        out: list[te.TableEvent] = []
        pots: tuple[te.Pot, ...] = ()
        if outcome in ("misdeal", "void"):
            out += self._betting_events(self.hb.refund(t, outcome))
            stacks = dict(self.betting.stacks)
            self.keep_button = True
        else:
            winners = [w if w else tuple(e for e in p[1] if self.hb.in_hand(e)) for w, p in
                       zip(h.winners, h.pots)]
            settled, stacks = self.hb.settle(t, winners)
            pots = tuple(settled)
            for i, pot in enumerate(pots):
                out.append(te.PotAwarded(t, h.number, i, pot))
            h.winners = [p.winners for p in pots] or h.winners
        h.phase = "ended"
        self.pot_leaving.clear()
        board = tuple(self.ledger.card(u) for u in h.board)
        out.append(te.HandEnded(t, h.number, outcome, pots, dict(stacks), board))
        if outcome == "complete" and self.config.is_tournament:
            out += self._eliminations(t, stacks)   # Tournaments 35 (engine/tournament_seats.py)
        self.last_hand = h
        return out

    # --- the snapshot for the screen and the floor ---------------------------------------------------------------
    def snapshot(self) -> TableState:
        h, hb = self.hand, self.hb
        stacks = self.betting.stacks
        running = self._running()
        seats = []
        for s in range(1, self.seats + 1):
            in_order = h is not None and s in h.order
            shown = ()
            if h is not None and h.decided and s in h.ranks and s not in h.unshown:
                shown = tuple(self.ledger.card(u) for u in h.hole(s))
            seats.append(SeatView(
                seat=s, occupied=s in self.occupied,
                in_hand=bool(running and in_order and hb.in_hand(s) and s not in h.dead),
                folded=bool(in_order and s in h.folded), all_in=bool(running and in_order and hb.all_in(s)),
                to_act=bool(running and not h.decided and hb.to_act == s), dead=bool(in_order and s in h.dead),
                cards_held=len(self.ledger.in_zone(f"seat{s}")) if h is not None else 0, shown=shown,
                bet=int((hb.bets or {}).get(s, 0)) if running else 0, stack=stacks.get(s, 0)))
        current = self.hand_no
        findings = tuple(FindingView(f.id, f.rule, f.citation, f.severity, f.outcome, f.ruling, f.seats, f.cards,
                                     f.id in self.acked)
                         for f in self.findings.open(current, self.acked))
        pots = tuple((p.amount, tuple(p.eligible)) for p in hb.pots()) if running else ()
        winners: dict[int, int] = {}
        if h is not None and h.decided:
            for (amount, _), w in zip(h.pots, h.winners):
                for seat in w:
                    winners[seat] = winners.get(seat, 0) + amount // len(w)
        return TableState(
            hand=self.hand_no, phase=(h.phase if h is not None else "idle"), game=self.variant.key,
            button=(h.button if running else self.puck), board=tuple(self.ledger.card(u) for u in h.board) if h else (),
            burn_count=len(h.burns) if h else 0, muck_count=len(self.ledger.in_zone("muck")),
            pot=sum(self.pot_zone.values()), pots=pots, seats=tuple(seats), findings=findings,
            to_act=(hb.to_act if running and not h.decided else None), deck_id=self.deck_id, winners=winners,
            pot_winners=tuple(h.winners) if h is not None and h.decided else (),
            question=(hb.question.view() if running and hb.question is not None else self.stacks.question),
            dealer=self.dealer, instruction=self.moves.view(), tournament=self._tournament_view(),
            race=self._race_view())
