"""The engine: ``apply(event) -> [table events]``. Pure and synchronous, driven only by event timestamps.

It follows the table across hands (seats, button puck, deck in use) and each hand as it physically happens
(every card's whereabouts, the deal, the board, folds, showdown, the award), hands the chips to
``engine.betting`` and turns every card irregularity into a finding with its outcome applied. How it reads a
hand, the precedence between rules and the misdeal window are described in docs/engine.md.

:class:`Engine` is the coordinator: it builds the parts in one place, each handed what it reads and changes,
routes each sensor event or dealer input to the part that owns it, and gathers the table events.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..config import Config
from ..tags import CardTag, ChipTag, MarkerTag, Tag, TagRegistry
from . import events as te
from . import inputs as ev
from .betting import TableBetting
from .cards.board import BoardFlow
from .cards.deck import DeckInUse
from .cards.draw import DrawFlow
from .cards.flow import CardFlow
from .cards.hand import Hand
from .cards.ledger import CardLedger
from .catalogue import raised_at
from .chip_flow import ChipFlow
from .chip_trail import ChipTrail
from .dealer_taps import DealerTaps
from .findings import FindingLog
from .betting.pots import split_portions
from .cards.reading import board_lines, halves_text
from .hand_flow import HandFlow
from .misaward import PushWatch
from .play import BETTING_DUE, BOXED_CARD, UNDER_WAY, Play
from .practices import HousePractices
from .referee import Referee
from .seating import Seating
from .stacks import StackReads
from .state import OPEN_LISTED, DrawView, FindingView, HouseView, SeatView, TableState
from .events import Pot
from .tournament.moves import FloorMoves, TableMoves
from .tournament.table import TournamentTable
from .variants import variant
from .zones import BET_OF

if TYPE_CHECKING:   # the type only: the tournament package validates with jsonschema, which a cash table never loads
    from ..tournament.config import Tournament


class Engine:
    """The table, hand after hand: the parts wired, each input routed to the part that owns it."""

    def __init__(self, config: Config, registry: TagRegistry, tournament: Tournament | None = None) -> None:
        self.config = config
        self.tournament = tournament              # the event a tournament table plays (levels, chips), or None
        self.registry = registry
        self.variant = game = variant(config.game.variant)
        self.findings = findings = FindingLog()
        self.stacks = StackReads()               # chip zones read incompletely (engine/stacks.py)
        self.play = play = Play()                # the hand under way, the hand count
        self.betting = betting = TableBetting(config, findings, play)
        self.ledger = ledger = CardLedger()
        self.referee = referee = Referee(findings, play)
        self.seating = seating = Seating(config, betting, play, referee)
        self.trail = trail = ChipTrail()
        self.moves = TableMoves(config.table.id)   # the floor's moves and breaks (engine/tournament/moves.py)
        floor_moves = FloorMoves(config, self.moves, seating, betting, referee)
        tt = None
        if tournament is not None or config.is_tournament:   # the tournament rows apply here and nowhere else
            tt = TournamentTable(config, tournament, play, referee, seating, betting, trail, self.moves)
        self.tournament_table = tt
        self.deck = deck = DeckInUse(registry, ledger, referee, tt.deck_changed if tt is not None else None)
        draws = DrawFlow(game.draws, referee)
        hands = HandFlow(config, game, play, seating, betting, ledger, deck, referee, trail,
                         floor_moves, tt, raised_at("tournament.34", config.is_tournament), draws)
        referee.wire(hands.end, tt.entrants.retell if tt is not None else None)   # retell: a paid seat dealt out
        cards = CardFlow(config, game, registry, play, ledger, referee, seating, deck, betting, hands,
                         BoardFlow(game, play, ledger, referee), draws, tt)
        pushes = PushWatch(play, referee, hands, findings)
        hands.push_ending = pushes.change_not_back   # a push awaiting its change is ruled if the hand ends first
        chips = ChipFlow(play, referee, hands, trail, pushes, tt if tournament is not None else None)
        self.taps = DealerTaps(config, play, referee, seating, betting, self.stacks, hands, cards, floor_moves, tt,
                               HousePractices(config, play, referee, ledger, deck, seating))
        # the hot path: each part's entry point bound once, so an input costs no lookup through a part
        self._levels = tt.levels if tt is not None else None   # the level clock, asked at every input
        self._chip_entered, self._chip_left = chips.entered, chips.left
        self._card_entered, self._card_left = cards.entered, cards.left
        self._resolve_pending = cards.resolve_pending
        self._progress = hands.progress
        self._betting_events = referee.betting_events

    @property
    def hands_before(self) -> int:
        """Hands of earlier runs (record/sequence.py): numbering continues."""
        return self.play.hands_before

    @hands_before.setter
    def hands_before(self, n: int) -> None:
        self.play.count_from(n)

    @property
    def between_hands(self) -> bool:
        """No hand under way: before the first, or after one ended and before the next starts."""
        return self.play.running_hand() is None

    # --- the one entry point -----------------------------------------------------------------------------
    def apply(self, event: ev.EngineInput) -> list[te.TableEvent]:
        t = event.t
        levels = self._levels
        out: list[te.TableEvent] = [] if levels is None or levels.clock is None else levels.tick(t)
        play = self.play
        due = play.due(t)     # the one question of the hand under way, per input (most: under way, nothing due)
        running = due & UNDER_WAY
        h, hb = play.hand, play.hb
        if due & BETTING_DUE and hb is not None:
            out += self._betting_events(hb.tick(t))
        # a card in transit long enough to have fallen (fall_due is "never" while none moves), or a boxed card
        if t >= self.ledger.fall_due or due & BOXED_CARD:
            out += self._resolve_pending(event)
        # dispatch on type(...) is: the cheapest test per input, and the checker narrows on it as on isinstance
        if type(event) is ev.BoardAlive:   # the board's pulse (a few a minute): it only lets time pass, as above
            return self._settle(t, out) if out else out
        if type(event) is ev.ZoneEntered or type(event) is ev.ZoneLeft:
            entered = type(event) is ev.ZoneEntered
            tag = event.tag
            if type(tag) is ChipTag:
                # a chip arriving or leaving with nothing to report changes no card rule: no progress check
                more = self._chip_entered(t, event.zone, tag) if entered else self._chip_left(t, event.zone, tag)
                if not more:
                    if out:
                        out += self._progress(t)
                    return out
                out += more
            elif type(tag) is CardTag:
                out += self._card_entered(t, event.zone, tag) if entered else self._card_left(t, event.zone, tag)
            elif type(tag) is MarkerTag:
                if tag.kind == "button" and entered:
                    out += self.seating.puck_entered(t, event.zone)
                elif tag.kind == "button":
                    self.seating.puck_left(event.zone)
                elif tag.kind == "kill" and entered:
                    out += self.seating.kill_puck(t, event.zone)
                elif tag.kind == "badge" and entered:
                    # who the badge belongs to is the terminal's business (audit.badges), not the rules'
                    out.append(te.BadgeShown(t, play.hand_no, event.zone, tag.uid))
                if not out:
                    return out
            elif entered:   # UnknownTag
                out.append(te.UnknownTagSeen(t, play.hand_no, event.zone, tag.uid))
                seat = BET_OF[event.zone]
                if running and hb is not None and seat is not None:
                    out += self._betting_events(hb.chip_entered(t, seat, tag))
            elif not out:
                return out
        elif type(event) is ev.CardFaceSensed:
            if type(event.tag) is CardTag:
                self.ledger.face_sensed(event.tag, event.face_up)
            if not out:
                return out
        elif type(event) is ev.DealerInput:
            out += self.taps.tap(event)
        elif type(event) is ev.BoardHello:
            self.stacks.board_restarted()
            out.append(te.BoardConnected(t, play.hand_no, event.protocol, event.firmware, event.zones))
        elif type(event) is ev.ReaderFaulted:
            out.append(te.ReaderHealthChanged(t, play.hand_no, event.reader, event.zone, event.code == 0,
                                              event.code))
        elif type(event) is ev.FramesLost:
            out.append(te.SensorDataLost(t, play.hand_no, event.count, event.reason))
            if running and h is not None and hb is not None and not h.decided:
                out += hb.lose_track(t, event.reason)   # chips may have moved unseen: the betting is lost
        elif type(event) is ev.ZoneReadState:
            seat = BET_OF[event.zone]
            amount = int(play.bets().get(seat, 0)) if seat is not None else 0
            out += self.stacks.read(t, play.hand_no, event.zone, event.state, event.tags, seat, amount,
                                    self.findings)
            if not out:
                return out
        elif not out:
            return out
        return self._settle(t, out)

    def tag_seen(self, t: float, zone: str, tag: Tag, entered: bool) -> list[te.TableEvent]:
        """``apply(ZoneEntered(t, zone, tag))``, or ``ZoneLeft`` when not ``entered``, without making the input: the
        pipeline's way in for a known tag's frame, nearly every input of an evening. A chip or a card with nothing
        due (no level clock, no chip motion to close, no boxed or fallen card) goes straight to the part that owns
        it, as ``apply`` would send it; anything else is made into its input and applied."""
        play = self.play
        h, hb = play.hand, play.hb
        # not play.due(t) & (BETTING_DUE | BOXED_CARD), written out (nearly every input asks; keep it Play.due's
        # answer): no hand under way, or no boxed card and no chip motion, take-back or held raise due yet
        if (h is None or hb is None or h.phase == "ended"
                or (h.provisional_boxed is None and t < hb.chips.quiet_until)) \
                and t < self.ledger.fall_due and (self._levels is None or self._levels.clock is None):
            if type(tag) is ChipTag:
                more = self._chip_entered(t, zone, tag) if entered else self._chip_left(t, zone, tag)
                if not more:
                    return []
                return self._settle(t, [*more])
            if type(tag) is CardTag:
                return self._settle(t, [*(self._card_entered(t, zone, tag) if entered
                                           else self._card_left(t, zone, tag))])
        return self.apply(ev.ZoneEntered(t, zone, tag) if entered else ev.ZoneLeft(t, zone, tag))

    def _settle(self, t: float, out: list[te.TableEvent]) -> list[te.TableEvent]:
        """After an input has been routed: the hand moves on, a pending Leave, held short-wager rulings."""
        play = self.play
        h = play.hand
        if h is not None and h.phase not in ("ended", "showdown"):   # else progress has nothing to move on
            out += self._progress(t)
        if self.taps.leaving and not play.running():
            out += self.taps.leave_pending(t)   # a Leave tapped during the player's live hand takes effect now
        # a bet zone read incompletely: its short-wager rulings wait for the dealer's count (engine/stacks.py)
        if not self.stacks.seats:
            return out
        bets = play.bets()
        self.stacks.follow(bets)
        return self.stacks.hold(out, self.findings, bets)

    def _house_view(self, h: Hand | None, running: bool) -> HouseView:
        """The house practices for the screen: the top bar's words, the keys open now, boards 2.. and, at the
        showdown of a hand dealt on two or more boards, each board's winners."""
        g, card = self.config.game, self.ledger.card
        boards = tuple(tuple(card(u) for u in h.boards.cards(b, h.board))
                       for b in range(2, h.boards.count + 1)) if h is not None else ()
        practices = self.taps.practices
        bomb_boards = practices.bomb_boards() if g.bomb_pots and not running else 0
        return HouseView(self._practices_line(), practices.runs_offer(),
                         g.bomb_amount() if bomb_boards else 0, boards,
                         board_lines(h) if h is not None and h.decided and h.boards.count > 1 else (),
                         bomb_boards or 2)   # no offer: the field's default, read only with an offer

    def _practices_line(self) -> str:
        """The house practices on at this table, said on the screen (they are off by default)."""
        g = self.config.game
        on = ([f"RUN IT x{g.run_it}"] if g.run_it > 1 else []) + (["BOMB POTS"] if g.bomb_pots else [])
        return " · ".join(on)

    # --- the snapshot for the screen and the floor ---------------------------------------------------------------
    def snapshot(self) -> TableState:
        play, seating, ledger = self.play, self.seating, self.ledger
        h = play.hand
        under_way = play.running_hand()      # (hand, betting) while a hand runs
        hb = under_way[1] if under_way is not None else None
        stacks = self.betting.stacks
        draws = h.draws if h is not None and under_way is not None and self.variant.draws else None
        live = {s for s in h.order if s not in h.folded and s not in h.dead} if h is not None else set()
        turn = draws.turn(h.order, live) if draws is not None and h is not None else None
        seats = []
        for s in range(1, seating.seats + 1):
            shown: tuple[str, ...] = ()
            in_hand = folded = all_in = to_act = dead = False
            bet = 0
            if h is not None and s in h.order:
                folded, dead = s in h.folded, s in h.dead
                if hb is not None:
                    in_hand = hb.in_hand(s) and not dead
                    all_in = hb.all_in(s)
            if hb is not None and h is not None:
                to_act = not h.decided and hb.to_act == s
                bet = int((hb.bets or {}).get(s, 0))
            if h is not None and h.decided and s in h.award.ranks and s not in h.award.unshown:
                shown = tuple(ledger.card(u) for u in h.hole(s))
            seats.append(SeatView(
                seat=s, occupied=s in seating.occupied, in_hand=bool(in_hand), folded=folded, all_in=bool(all_in),
                to_act=bool(to_act), dead=dead, cards_held=len(ledger.in_zone(f"seat{s}")) if h is not None else 0,
                shown=shown, bet=bet, stack=stacks.get(s, 0),
                drawn=draws.done(s) if draws is not None and s in live else None, to_draw=s == turn))
        current = play.hand_no
        acked = self.taps.acked | self.findings.settled if self.findings.settled else self.taps.acked
        listed, waiting, oldest = self.findings.listed(current, acked, OPEN_LISTED)
        if len(self.taps.acked) > 64:
            self.taps.forget_acks({f.id for f in self.findings.raised})
        findings = tuple(finding_view(f, f.id in acked) for f in listed)
        pots = tuple((p.amount, tuple(p.eligible)) for p in hb.pots()) if hb is not None else ()
        winners: dict[int, int] = {}
        if h is not None and h.decided:
            unit = max(1, self.config.game.smallest_chip)
            portions = h.portions()
            for i, ((amount, eligible), w) in enumerate(zip(h.pots, h.winners, strict=False)):
                boards = portions[i] if i < len(portions) else [(w,)]
                pot = split_portions(Pot(amount, eligible), boards, h.button, seating.seats, unit)[0] if w else None
                for seat, chips in (pot.shares.items() if pot is not None else ()):
                    winners[seat] = winners.get(seat, 0) + chips
        tt = self.tournament_table
        return TableState(
            hand=current, phase=("misaward" if h is not None and h.award.misaward and h.phase == "showdown"
                                 else h.phase if h is not None else "idle"), game=self.variant.key,
            button=(h.button if under_way is not None and h is not None else seating.puck),
            board=tuple(ledger.card(u) for u in h.board) if h else (),
            house=self._house_view(h, under_way is not None),
            burn_count=len(h.off_board.burns) if h else 0, muck_count=len(ledger.in_zone("muck")),
            pot=self.trail.pot(), pots=pots, seats=tuple(seats), findings=findings, findings_open=waiting,
            oldest_open=finding_view(oldest, False) if oldest is not None else None,
            to_act=(hb.to_act if hb is not None and h is not None and not h.decided else None),
            deck_id=self.deck.deck_id,
            winners=winners, pot_winners=tuple(h.winners) if h is not None and h.decided else (),
            pot_halves=(tuple(halves_text(h, i) for i in range(len(h.award.halves)))
                        if h is not None and h.decided else ()),
            question=(hb.question.view() if hb is not None and hb.question is not None
                      else self.stacks.question),
            dealer=self.taps.dealer, instruction=self.moves.view(),
            tournament=tt.view() if tt is not None else None, race=tt.race_view() if tt is not None else None,
            draw=DrawView(draws.number, draws.dealing, turn) if draws is not None else None)


def finding_view(f: te.FindingRaised, acknowledged: bool) -> FindingView:
    return FindingView(f.id, f.rule, f.citation, f.severity, f.outcome, f.ruling, f.seats, f.cards, acknowledged,
                       f.hand, f.t)
