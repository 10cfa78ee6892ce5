"""The engine: ``apply(event) -> [table events]``. Pure and synchronous, driven only by event timestamps.

It follows the table across hands (seats, button puck, deck in use) and each hand as it physically happens
(every card's whereabouts, the deal, the board, folds, showdown, the award), hands the chips to
``engine.betting`` and turns every card irregularity into a finding with its outcome applied. How it reads a
hand, the precedence between rules and the misdeal window are described in docs/engine.md.
"""

from __future__ import annotations

from ..config import Config
from ..tags import CardTag, ChipTag, MarkerTag, TagRegistry
from . import events as te
from . import inputs as ev
from .cards import OFF_TABLE_AFTER_S, CardLedger
from .findings import FindingLog
from .hand import Hand
from .misdeal import Ruling, after_action, misdeal, window_open
from .showdown import clockwise_from, odd_chip_seat, pot_winners, show_order
from .stacks import StackReads
from .state import FindingView, SeatView, TableState
from .variants import evaluate, variant

from .betting import TableBetting

STREET_AFTER = {"preflop": "flop", "flop": "turn", "turn": "river"}


def _parse_seat(zone: str, prefix: str) -> int | None:
    if zone.startswith(prefix) and zone[len(prefix):].isdigit():
        return int(zone[len(prefix):])
    return None


class _ZoneSeats(dict):
    """Zone name -> seat number for one prefix (``seat3`` -> 3, anything else -> None), parsed once per name:
    every chip and card input asks, and a table has a few dozen zone names."""

    def __init__(self, prefix: str) -> None:
        super().__init__()
        self.prefix = prefix

    def __missing__(self, zone: str) -> int | None:
        seat = _parse_seat(zone, self.prefix)
        if len(self) < 4096:      # zone names come from the decoder's finite set; never grow without bound
            self[zone] = seat
        return seat


SEAT_OF = _ZoneSeats("seat")
BET_OF = _ZoneSeats("bet")


def _seat(zone: str, prefix: str = "seat") -> int | None:
    return SEAT_OF[zone] if prefix == "seat" else BET_OF[zone] if prefix == "bet" else _parse_seat(zone, prefix)


class Engine:
    def __init__(self, config: Config, registry: TagRegistry) -> None:
        self.config = config
        self.registry = registry
        self.variant = variant(config.game.variant)
        self.seats = config.table.seats
        self.findings = FindingLog()
        self.stacks = StackReads()               # chip zones read incompletely (engine/stacks.py)
        self.betting = TableBetting(config, self.findings)
        self.ledger = CardLedger()
        self.hand_no: int | None = None
        self.hand: Hand | None = None
        self.hb = None                           # engine.betting.HandBetting of the running hand
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
        self.last_hand: Hand | None = None

    # --- the one entry point -----------------------------------------------------------------------------
    def apply(self, event: ev.EngineInput) -> list[te.TableEvent]:
        t = event.t
        out: list[te.TableEvent] = []
        h = self.hand
        running = h is not None and h.phase != "ended"
        if running:
            hb = self.hb
            if hb.motions or hb.leaving or hb.held:   # otherwise tick has nothing to close (most inputs)
                out += self._betting_events(hb.tick(t))
        if self.ledger.transit or (running and h.provisional_boxed is not None):
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
        elif kind is ev.ZoneReadState:
            seat = BET_OF[event.zone]
            amount = int((self.hb.bets or {}).get(seat, 0)) if running and seat is not None else 0
            out += self.stacks.read(t, self.hand_no, event.zone, event.state, event.tags, seat, amount, self.findings)
            if not out:
                return out
        elif not out:
            return out
        out += self._progress(t)
        return self.stacks.hold(out, self.findings) if self.stacks.seats else out

    # --- helpers -------------------------------------------------------------------------------------------
    def _running(self) -> bool:
        return self.hand is not None and self.hand.phase != "ended"

    def _window(self) -> bool:
        return window_open(self.hb.actions_after_blinds if self.hb is not None else 0)

    def _betting_events(self, events: list[te.TableEvent]) -> list[te.TableEvent]:
        """Pass B's events through, noting the actions the card rules care about (joker held, deal over)."""
        if not events:
            return []
        out = list(events)
        h = self.hand
        if h is None:
            return out
        for e in events:
            if isinstance(e, te.ActionTaken) and e.action not in ("post", "straddle"):
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
        return self.puck if self.puck is not None else entitled[0]

    def _start_hand(self, t: float) -> list[te.TableEvent]:
        out: list[te.TableEvent] = []
        button = self._expected_button(self._entitled()) or (self.puck or 1)
        self.hand_no = (self.hand_no or 0) + 1
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
        return out

    def _deck_at_start(self, t: float, order: tuple[int, ...]) -> list[te.TableEvent]:
        """The deck in use is the one the shoe holds; a change and a short deck are reported here."""
        out: list[te.TableEvent] = []
        counts: dict[tuple[str, str], int] = {}
        for uid in self.ledger.in_zone("shoe"):
            tag = self.ledger.tags[uid]
            counts[(tag.deck_id, tag.back)] = counts.get((tag.deck_id, tag.back), 0) + 1
            if counts[(tag.deck_id, tag.back)] >= 40:
                self.shoe_loaded.add(tag.deck_id)
        if counts:
            deck_id, back = max(counts, key=lambda k: counts[k])
            if deck_id != self.deck_id:
                if self.deck_id is not None and self.hands_with_deck < self.deck_round:
                    out += self._rulings(t, [Ruling("procedures.21", "continues", f"Deck {self.deck_id} was changed "
                                         f"after {self.hands_with_deck} hands, before a full round of "
                                         f"{self.deck_round}; allowed only if it was damaged.")])
                self.deck_id, self.back = deck_id, back
                self.hands_with_deck, self.deck_round = 0, len(order)
                out.append(te.DeckChanged(t, self.hand_no, deck_id, back))
            for uid in self.ledger.in_zone("shoe"):
                tag = self.ledger.tags[uid]
                if tag.back != back and uid not in self.reported:
                    self.reported.add(uid)
                    out += self._rulings(t, [Ruling("irregularity.3", "continues", f"A card with a {tag.back} back "
                                         f"(deck {tag.deck_id}) is in the stub: the action stands; take it out.")])
        if self.deck_id in self.shoe_loaded:
            deck = next((d for d in self.registry.decks if d.deck_id == self.deck_id), None)
            if deck is not None:
                missing = [u for u, c in deck.cards.items() if c[0] != "X" and self.ledger.where.get(u) != "shoe"
                           and u not in self.reported]
                if missing:
                    self.reported.update(missing)
                    out += self._info(t, "irregularity.10", f"Deck {self.deck_id} is short {len(missing)} card(s): "
                                      "the hand stands; replace the deck when convenient.",
                                      cards=tuple(deck.cards[u] for u in missing))
        self.hands_with_deck += 1
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
        self.last_hand = h
        return out

    # --- cards -----------------------------------------------------------------------------------------------
    def _card_left(self, t: float, zone: str, tag: CardTag) -> list[te.TableEvent]:
        out: list[te.TableEvent] = []
        if zone == "shoe":
            # A card still travelling when the next one leaves the shoe never reached the felt.
            for uid, move in list(self.ledger.transit.items()):
                if move.source == "shoe" and uid != tag.uid:
                    self.ledger.settle_transit(uid)
                    out += self._fallen(t, uid, move.source, move.face_up is not None)
        self.ledger.left(t, zone, tag)
        h = self.hand
        if zone == "muck" and self._running() and not h.decided and not h.muck_touched:
            h.muck_touched = True
            out += self._rulings(t, [Ruling("procedures.22", "continues", f"{tag.card} left the muck during the "
                                 "hand: nobody may look through the discards; put it back.", severity="floor")])
        return out

    def _fallen(self, t: float, uid: str, source: str, dealt: bool = True) -> list[te.TableEvent]:
        """A card reached no antenna: dealt off the table (exposed) or dropped by a player (it plays)."""
        h = self.hand
        if not self._running():
            return []
        card = self.ledger.card(uid)
        if source == "shoe" and dealt and not h.decided:
            h.cards_out += 1
            seat = h.deal.expected_seat() if not h.deal.finished else None
            if seat is None:
                return self._info(t, "irregularity.12", f"{card} was dealt off the table: it counts as exposed.",
                                  cards=(card,))
            if h.deal.first_uid is None:
                h.deal.first_uid = uid
            h.deal.held[seat].append(uid)
            h.deal.k += 1
            h.last_dealt = uid
            out = self._info(t, "irregularity.12", f"{card}, dealt to seat {seat}, went off the table: it counts as "
                             "exposed.", (seat,), (card,))
            return out + self._rulings(t, h.deal.expose(uid, card, seat, self._window()))
        if source.startswith("seat"):
            return self._info(t, "irregularity.14", f"A card left {source} and reached no antenna (dropped off the "
                              "table): it must still be played.", (_seat(source),))
        return []

    def _card_entered(self, t: float, zone: str, tag: CardTag) -> list[te.TableEvent]:
        source = self.ledger.entered(zone, tag)
        face_up = self.ledger.face_up_from_shoe(tag.uid) if source == "shoe" else False
        if zone == "shoe":
            return self._card_to_shoe(t, tag, source, face_up)
        if source == "shoe":
            return self._dealt(t, zone, tag, face_up)
        h = self.hand
        if not self._running() or source is None:
            return []
        src_seat, seat = _seat(source), _seat(zone)
        if src_seat is not None and zone == "muck":
            return self._to_muck(t, src_seat, tag)
        if src_seat is not None and seat is not None and seat != src_seat and tag.uid in h.deal.held.get(src_seat, ()):
            if src_seat in h.dead:
                return []
            return self._rulings(t, [Ruling("dead-hand.3", "dead-hand", f"Seat {src_seat}'s cards went into seat "
                                 f"{seat}'s hand: they are dead (the tags say which are whose); seat {src_seat}'s cards "
                                 f"to the muck, seat {seat} keeps its own.", (src_seat,))])
        if zone == "burn":
            return [te.CardBurned(t, h.number, None)]
        return []

    def _card_to_shoe(self, t: float, tag: CardTag, source: str | None, face_up: bool) -> list[te.TableEvent]:
        h = self.hand
        if source == "shoe":
            # Taken off the stub and put back: looked at during the hand, or shown after it.
            if self._running() and not h.decided and h.cards_out:
                return self._rulings(t, [Ruling("procedures.22", "continues", "A card was taken off the stub and "
                                     "put back during the hand: nobody may look through the stub.", severity="floor")])
            if face_up:
                return self._info(t, "procedures.23", f"{tag.card} was shown off the stub after the hand: the card "
                                  "that would have been dealt must not be shown.", cards=(tag.card,))
            return []
        if self._running() and h.decided:
            return self._end_hand(t, "complete")   # cleanup began: the award is over
        if self._running() and h.cards_out and self._all_back(h):
            # Every card of the hand is back in the shoe and the hand never reached its end here.
            live = h.contenders(self.hb.live_seats())
            out: list[te.TableEvent] = []
            if len(h.board) == 5 and len(live) >= 2:
                out += self._showdown(t, live)
            elif len(live) == 1:
                out += self._decide(t, live)
            out += self._end_hand(t, "complete" if h.decided else "void")
            self.keep_button = False   # the dealer played the hand out: the button moves on
            return out
        if self._running() and self.back and tag.back != self.back and tag.uid not in self.reported:
            self.reported.add(tag.uid)
            return self._rulings(t, [Ruling("irregularity.3", "continues", f"A card with a {tag.back} back is in the "
                                 "stub: the action stands; take it out.")])
        return []

    def _misdealt_cards_out(self) -> bool:
        """A misdealt or void hand's cards are still on the felt: no new hand until they are gathered."""
        last = self.last_hand
        return last is not None and self.keep_button and any(
            self.ledger.where.get(u, "").startswith("seat") for u in last.dealt)

    def _all_back(self, h: Hand) -> bool:
        uids = [u for seat in h.order for u in h.deal.held[seat]] + h.board
        return all(self.ledger.where.get(u) in ("shoe", "off") for u in uids)

    def _dealt(self, t: float, zone: str, tag: CardTag, face_up: bool) -> list[te.TableEvent]:
        """A card from the shoe reached ``zone``."""
        out: list[te.TableEvent] = []
        if not self._running():
            if zone == "board":
                return self._info(t, "procedures.23", f"{tag.card} was turned off the stub after the hand: the card "
                                  "that would have been dealt must not be shown.", cards=(tag.card,))
            if self._misdealt_cards_out():
                return out   # the misdealt hand's cards are still out: the redeal starts once they are gathered
            out += self._start_hand(t)
            if not self._running():
                return out
        h = self.hand
        if h.decided:
            return out
        h.dealt.append(tag.uid)
        if h.cards_out == 0:
            if hasattr(self.hb, "deal_started"):
                out += self._betting_events(self.hb.deal_started(t))
            if self.puck is not None and self.puck != h.button and len(h.order) >= 2 \
                    and self.puck != self.disputed_puck:
                # Checked as the deal starts, once per hand: the puck may move until then.
                self.disputed_puck = self.puck
                out += self._rulings(t, misdeal("misdeal.1g", f"the button puck is on seat {self.puck}; it belongs "
                                                f"on seat {h.button}", True, seats=(self.puck, h.button)))
                return out
        h.cards_out += 1
        if self.back is None:
            self.deck_id, self.back, h.deck_id, h.back = tag.deck_id, tag.back, tag.deck_id, tag.back
            out.append(te.DeckChanged(t, h.number, tag.deck_id, tag.back))
        rulings: list[Ruling] = []
        if tag.back != h.back:
            rulings.append(Ruling("irregularity.3", "void", f"{tag.card} has a {tag.back} back (deck {tag.deck_id}), not "
                                  f"the {h.back} of the deck in use: all action is void, every chip goes back to "
                                  "whoever bet it; cards back, new deck check, redeal.", cards=(tag.card,)))
        twin = h.faces.get(tag.card)
        if twin is not None and twin != tag.uid and not tag.is_joker:
            rulings.insert(0 if tag.back == h.back else 1, Ruling(
                "irregularity.4", "void", f"Two {tag.card} are in play: all action is void, every chip goes back to "
                "whoever bet it; replace the deck.", cards=(tag.card,)))
        h.faces.setdefault(tag.card, tag.uid)
        seat = _seat(zone)
        if seat is not None:
            h.last_dealt = tag.uid
            # dealt in at the start and still seated: a blind that put a short stack all in still gets its cards
            rulings += h.deal.card_to_seat(seat, tag.uid, self.occupied.intersection(h.order), self._window(),
                                           acted=h.voluntary_actions > 0)
            out.append(te.CardDealt(t, h.number, seat, tag.card, face_up))
            if any(r.outcome in ("misdeal", "void") for r in rulings):
                return out + self._rulings(t, rulings)
            if tag.is_joker and not self.variant.jokers:
                rulings += h.deal.scrap(seat, tag.uid, tag.card, "irregularity.8", self._window())
                h.jokers[seat] = tag.uid
            elif face_up:
                h.provisional_boxed = (tag.uid, seat)
            return out + self._rulings(t, rulings)
        if rulings:
            out += self._rulings(t, rulings)
            if not self._running():
                return out
        if zone in ("burn", "muck"):
            out += self._deal_over(t)
            h.burns.append(tag.uid)
            h.burn_since_board = True
            out.append(te.CardBurned(t, h.number, None))
            if face_up:
                out += self._rulings(t, [r for r in h.deal.scrap(-1, tag.uid, tag.card, "irregularity.7",
                                                                   self._window()) if r.outcome == "misdeal"]
                                     or [Ruling("irregularity.7", "card-replaced", f"{tag.card} came out face up "
                                                "(boxed): a scrap of paper; the next card is the burn card.",
                                                cards=(tag.card,))])
            return out
        if zone == "board":
            return out + self._board_card(t, tag)
        return out

    def _deal_over(self, t: float) -> list[te.TableEvent]:
        h = self.hand
        if h.deal.finished:
            return []
        out = self._rulings(t, h.deal.finish(self._window()))
        if self._running() and h.phase == "deal":
            h.phase = "preflop"
        return out

    def _board_card(self, t: float, tag: CardTag) -> list[te.TableEvent]:
        h = self.hand
        out = self._deal_over(t)
        if not self._running():
            return out
        if tag.is_joker and not self.variant.jokers:
            return out + self._rulings(t, [Ruling("irregularity.8", "card-replaced", f"A joker ({tag.card}) was turned "
                                       "on the board: a scrap of paper; replace it with the next card.",
                                       cards=(tag.card,))])
        n = len(h.board)
        if h.premature_flop_left:
            h.premature_flop_left -= 1
            h.out_of_play.add(tag.uid)
            return out
        starts_street = n in (0, 3, 4) and h.street == {0: "preflop", 3: "flop", 4: "turn"}[n]
        if n == 3 and h.street == "flop" and h.actions_on_street == 0 and not h.burn_since_board:
            # A fourth card straight after the flop: the flop had too many cards (Hold'em 2).
            h.out_of_play.update(h.board + [tag.uid])
            flop = tuple(self.ledger.card(u) for u in h.board + [tag.uid])
            h.board.clear()
            return out + self._rulings(t, [Ruling("holdem.2", "redeal-board", "The flop came with four cards: all of "
                                       "them go back into the stub, reshuffle, cut, and deal a new flop without a "
                                       "burn (the burn card stays).", cards=flop)])
        if starts_street and not self.hb.round_complete:
            return out + self._premature(t, tag, n)
        if n >= 5:
            h.out_of_play.add(tag.uid)
            return out + self._info(t, "irregularity.15", f"{tag.card} was turned after the river: it does not play.",
                                    cards=(tag.card,))
        h.board.append(tag.uid)
        h.burn_since_board = False
        street = {3: "flop", 4: "turn", 5: "river"}.get(len(h.board))
        out.append(te.BoardCardDealt(t, h.number, street or "flop", tag.card))
        if street and street != h.street:
            h.street = street
            h.phase = street
            h.actions_on_street = 0
            out += self._betting_events(self.hb.next_street(t, street))
        return out

    def _premature(self, t: float, tag: CardTag, n: int) -> list[te.TableEvent]:
        """A board card turned before the betting was complete does not play (Hold'em 3/4, Irregularities 15)."""
        h = self.hand
        h.out_of_play.add(tag.uid)
        card = tag.card
        seats = tuple(s for s in (self.hb.to_act,) if s is not None)
        if n == 0:
            h.premature_flop_left = 2
            rule, text = "holdem.3", ("The flop was turned before the betting was complete: finish the betting, then "
                                      "the flop cards go back into the stub, reshuffle, cut and deal a new flop "
                                      "without a burn (the burn card stays).")
        elif n == 3:
            rule, text = "holdem.4", (f"The turn card {card} was turned before the betting was complete: it is out of "
                                      "play for the round. Finish the betting, burn and turn the next card as the "
                                      "turn; after that round reshuffle with it and turn the river without a burn.")
        else:
            rule, text = "holdem.4", (f"The river card {card} was turned before the betting was complete: it is out of "
                                      "play. Finish the betting, reshuffle with it, cut and turn the river without a "
                                      "burn.")
        if not self.variant.flop_rules:
            rule = "irregularity.15"
        rulings = [Ruling(rule, "redeal-board", text, seats, (card,))]
        if rule != "irregularity.15":
            rulings.append(Ruling("irregularity.15", "redeal-board", "Cards dealt before the betting was complete do "
                                  "not play, even if a player who has not acted folds.", seats, (card,),
                                  severity="info"))
        return self._rulings(t, rulings)

    def _to_muck(self, t: float, seat: int, tag: CardTag) -> list[te.TableEvent]:
        """A card from a seat reached the muck: a fold, a scrap set aside, a remedy, or a hand thrown away."""
        h = self.hand
        out: list[te.TableEvent] = [te.CardMucked(t, h.number, seat, tag.card)]
        if h.jokers.get(seat) == tag.uid:
            del h.jokers[seat]
            return out
        if tag.uid not in h.deal.held.get(seat, ()):
            return out     # a scrap, an extra or an exposed card set aside
        if h.decided:
            if seat not in h.unshown:
                out += self._unshown(t, seat)
            return out
        if seat in h.folded or seat in h.dead or not self.hb.in_hand(seat):
            return out
        h.folded.add(seat)
        out += self._betting_events(self.hb.fold(t, seat))
        return out

    def _resolve_pending(self, event: ev.EngineInput) -> list[te.TableEvent]:
        out: list[te.TableEvent] = []
        h = self.hand
        t = event.t
        if self._running() and h.provisional_boxed is not None:
            is_tap = isinstance(event, ev.DealerInput) and event.action == "exposed"
            if not is_tap:
                uid, seat = h.provisional_boxed
                h.provisional_boxed = None
                out += self._rulings(t, h.deal.scrap(seat, uid, self.ledger.card(uid), "irregularity.7",
                                                     self._window()))
        for uid, move in self.ledger.fallen(t):
            out += self._fallen(t, uid, move.source, move.face_up is not None)
        return out

    # --- the button puck ---------------------------------------------------------------------------------------
    def _puck_entered(self, t: float, zone: str) -> list[te.TableEvent]:
        seat = _seat(zone)
        if seat is None:
            return []
        self.puck = seat
        out: list[te.TableEvent] = [te.ButtonMoved(t, self.hand_no, seat)]
        h = self.hand
        if self._running() and not h.decided and h.cards_out and seat != h.button:
            text = f"the button puck was put on seat {seat}; this hand's button is seat {h.button}"
            if self._window():
                out += self._rulings(t, misdeal("misdeal.1g", text, True, seats=(seat, h.button)))
            else:
                out += self._rulings(t, after_action("misdeal.1g", text, seats=(seat, h.button)) + [Ruling(
                    "irregularity.1", "continues", f"The button was misplaced this hand: for the next hand put it "
                    f"where the rotation from seat {h.button} says, so every player gets each position once.",
                    (seat, h.button))])
        return out

    def _kill_puck(self, t: float, zone: str) -> list[te.TableEvent]:
        """The kill button put in front of a seat (its seat or bet zone): engine.betting knows who holds it. While
        a decided pot is being pushed the dealer may already be moving it to the winner: not judged then."""
        seat = SEAT_OF[zone] or BET_OF[zone]
        if seat is None or (self._running() and self.hand.decided):
            return []
        return self.betting.kill_puck(t, seat)

    # --- chips -------------------------------------------------------------------------------------------------
    def _chip_entered(self, t: float, zone: str, tag: ChipTag) -> list[te.TableEvent]:
        uid = tag.uid
        came = self.chip_from.pop(uid, None)
        if self.pot_leaving:
            self.pot_leaving.pop(uid, None)
        to_pot = zone == "pot"
        if to_pot:
            self.pot_zone[uid] = tag.value
            seat = None
        else:
            seat = BET_OF[zone]
            if seat is None:
                return []
        h = self.hand
        if h is not None and h.phase not in ("showdown", "ended"):
            # the common case, a wager or a gather during the betting (the hand is running, not decided)
            events = self.hb.chip_to_pot(t, tag) if to_pot else self.hb.chip_entered(t, seat, tag)
            return self._betting_events(events) if events else events
        out: list[te.TableEvent] = []
        if not self._running():
            if seat is None or (came and came[0] == "pot") or self._misdealt_cards_out():
                return []
            out += self._start_hand(t)   # blinds going in: a new hand
            if not self._running():
                return out
        h = self.hand
        if zone == "pot":
            if h.decided and not (came and came[0].startswith("bet")):
                return out    # change made in the pot during the award
            return out + self._betting_events(self.hb.chip_to_pot(t, tag))
        if h.decided and came and came[0] == "pot":
            h.pushed_chips.add(tag.uid)
            out.append(te.ChipsMoved(t, h.number, zone, seat, tag.value, (tag.value,)))
            if seat not in h.wrong_pushes and all(seat not in ws for ws in h.winners):
                h.wrong_pushes.add(seat)
                out += self._rulings(t, [Ruling("showdown.3", "continues", f"Chips are being pushed to seat {seat}, "
                                     f"which wins no pot: stop; the cards give {self._winners_text(h)}.",
                                     (seat,), severity="floor")])
            if not self.pot_zone and not any(t - t0 < OFF_TABLE_AFTER_S for t0 in self.pot_leaving.values()):
                out += self._end_hand(t, "complete")
            return out
        return out + self._betting_events(self.hb.chip_entered(t, seat, tag))

    def _chip_left(self, t: float, zone: str, tag: ChipTag) -> list[te.TableEvent]:
        uid = tag.uid
        if len(self.chip_from) > 2000:   # chips taken by hand never land: forget the old ones
            self.chip_from = {u: v for u, v in self.chip_from.items() if t - v[1] < 60.0}
        self.chip_from[uid] = (zone, t)
        if zone == "pot":
            self.pot_leaving[uid] = t
            self.pot_zone.pop(uid, None)
        h = self.hand
        if h is None or h.phase == "ended":
            return []
        if zone == "pot":
            if h.decided:
                return []
            events = self.hb.chip_from_pot(t, tag)
        else:
            seat = BET_OF[zone]
            if seat is None or uid in h.pushed_chips:
                return []
            events = self.hb.chip_left(t, seat, tag)
        return self._betting_events(events) if events else events

    # --- dealer taps ------------------------------------------------------------------------------------------
    def _dealer(self, e: ev.DealerInput) -> list[te.TableEvent]:
        t, h = e.t, self.hand
        a = e.action
        if a == "sit" and e.seat is not None:
            self.occupied.add(e.seat)
            return self.betting.sit(t, e.seat, e.amount or self.config.game.buy_in)
        if a == "leave" and e.seat is not None:
            self.occupied.discard(e.seat)
            if not self.occupied:
                self.fresh_table, self.keep_button = True, False
            return self.betting.leave(t, e.seat) if e.seat in self.betting.stacks else []
        if a == "rebuy" and e.seat is not None:
            return self.betting.rebuy(t, e.seat, e.amount or 0)
        if a == "answer" and self.stacks.answer(e.ref, e.choice):
            return []
        if a == "ack" and e.ref:
            self.acked.add(e.ref)
            return [te.FindingAcknowledged(t, self.hand_no, e.ref)]
        if a == "call-floor":
            return [te.FloorCalled(t, self.hand_no, e.ref or "dealer")]
        if a == "award":
            return self._award_tap(e)
        if a == "wait-for-bb" and e.seat is not None:
            return self._betting_events(self.betting.wait_for_bb(t, e.seat))
        if a == "back-in" and e.seat is not None:
            return self._betting_events(self.betting.back_in(t, e.seat))
        if a == "sit-out" and e.seat is not None:
            return self._betting_events(self.betting.sit_out(t, e.seat))
        if a == "new-hand":
            out: list[te.TableEvent] = []
            if self._running():
                out += self._end_hand(t, "complete" if h.decided else "void")
            return out + self._start_hand(t)
        if not self._running():
            return []
        if a == "check":
            seat = e.seat if e.seat is not None else self.hb.to_act
            return self._betting_events(self.hb.check(t, seat))
        if a == "misdeal":
            if self._window():
                return self._end_hand(t, "misdeal")
            return self._rulings(t, after_action("misdeal", "the dealer called a misdeal"))
        if a == "exposed":
            return self._exposed(e)
        if a == "muck-unshown" and e.seat is not None:
            return self._unshown(t, e.seat)
        # Taps only the betting engine understands, when it offers them.
        if a == "declare-raise" and hasattr(self.hb, "declare_raise"):
            return self._betting_events(self.hb.declare_raise(t, e.seat))
        return []

    def _exposed(self, e: ev.DealerInput) -> list[te.TableEvent]:
        h, t = self.hand, e.t
        uid = None
        if e.card:
            uid = next((u for u, tag in self.ledger.tags.items() if tag.card == e.card and
                        (tag.back == h.back or h.back is None) and self.ledger.where.get(u) != "shoe"), None) \
                or next((u for u, tag in self.ledger.tags.items() if tag.card == e.card), None)
            if uid is None:
                deck = next((d for d in self.registry.decks if d.deck_id == h.deck_id), None)
                try:
                    uid = deck.uid_of(e.card) if deck else None
                except KeyError:
                    uid = None
        else:
            uid = h.last_dealt
        if uid is None:
            return []
        card = e.card or self.ledger.card(uid)
        was_face_up = h.provisional_boxed is not None and h.provisional_boxed[0] == uid
        h.provisional_boxed = None
        seat = h.deal.seat_of(uid)
        out: list[te.TableEvent] = []
        if not was_face_up:
            out += self._info(t, "irregularity.12", f"{card} was flashed by the dealer: it counts as exposed.",
                              (seat,) if seat else (), (card,))
        if h.deal.finished and seat is not None:
            return out
        return out + self._rulings(t, h.deal.expose(uid, card, seat, self._window()))

    def _unshown(self, t: float, seat: int) -> list[te.TableEvent]:
        h = self.hand
        if h is None or not h.decided or seat in h.unshown:
            return []
        h.unshown.add(seat)
        was = [i for i, w in enumerate(h.winners) if seat in w]
        if not was:
            return []
        h.ranks.pop(seat, None)
        h.winners = pot_winners(h.pots, h.ranks)
        return self._rulings(t, [Ruling("showdown.1", "continues", f"Seat {seat} threw its hand away unshown: it "
                             f"cannot win any part of the pot; {self._winners_text(h)}.", (seat,))])

    def _award_tap(self, e: ev.DealerInput) -> list[te.TableEvent]:
        h = self.hand if self.hand is not None and self.hand.decided else self.last_hand
        if h is None or not h.winners:
            return []
        try:
            index = int(e.ref or 0)
        except ValueError:
            return []
        if not e.seats:
            return []
        # a dealer pushes neighbouring pots with the same winners together and numbers them as one pot
        merged: list[tuple[int, ...]] = []
        for w in h.winners:
            w = tuple(sorted(w))
            if not merged or merged[-1] != w:
                merged.append(w)
        named = tuple(sorted(e.seats))
        fits = [tuple(sorted(ws[index])) for ws in (h.winners, merged) if 0 <= index < len(ws)]
        if not fits or named in fits or not fits[0]:
            return []
        right = fits[0]
        t = e.t
        return [self.findings.raise_(t, h.number, "showdown.3", severity="floor", outcome="continues",
                                     ruling=f"Pot {index} is being awarded to seat(s) {', '.join(map(str, e.seats))}; "
                                            f"the cards give it to seat(s) {', '.join(map(str, right))}.",
                                     seats=tuple(sorted(set(e.seats) | set(right))))]

    # --- the hand moving on by itself --------------------------------------------------------------------------
    def _progress(self, t: float) -> list[te.TableEvent]:
        h = self.hand
        if h is None or h.phase in ("ended", "showdown"):
            return []
        if h.deal.first_uid is None and h.voluntary_actions == 0:
            return []
        hb = self.hb
        live = h.contenders(hb.live_seats())
        if len(live) <= 1:
            return self._decide(t, live)
        if not hb.round_complete:
            return []
        if len(h.board) == 5 and h.street == "river":
            return self._showdown(t, live)
        out: list[te.TableEvent] = []
        able = [s for s in live if not self.hb.all_in(s)]
        if len(able) <= 1 and len(able) < len(live) and not h.all_in_prompted and h.deal.finished:
            h.all_in_prompted = True
            out += self._info(t, "tournament.34", "A player is all in and the betting is complete: all hands face up "
                              "now, then run the board.", tuple(live))
        return out

    def _winners_text(self, h: Hand) -> str:
        parts = []
        for i, w in enumerate(h.winners):
            name = "main pot" if i == 0 else f"side pot {i}"
            parts.append(f"{name} to seat {' and '.join(map(str, w))}" if w else f"{name}: no hand shown")
        return "; ".join(parts)

    def _decide(self, t: float, live: list[int]) -> list[te.TableEvent]:
        """Everyone else folded: the last hand wins every pot it is eligible for, unshown."""
        h = self.hand
        h.phase = "showdown"
        h.pots = [(p.amount, tuple(p.eligible)) for p in self.hb.pots()]
        h.winners = [tuple(s for s in live if s in elig) for _, elig in h.pots]
        return []

    def _showdown(self, t: float, live: list[int]) -> list[te.TableEvent]:
        h = self.hand
        h.phase = "showdown"
        board = tuple(self.ledger.card(u) for u in h.board)
        for seat in live:
            h.ranks[seat] = evaluate(self.variant, tuple(self.ledger.card(u) for u in h.hole(seat)), board)
        h.pots = [(p.amount, tuple(p.eligible)) for p in self.hb.pots()]
        h.winners = pot_winners(h.pots, h.ranks)
        order = show_order(live, self.hb.last_aggressor, h.button, self.seats)
        out: list[te.TableEvent] = []
        for seat in order:
            out.append(te.HandShown(t, h.number, seat, tuple(self.ledger.card(u) for u in h.hole(seat)),
                                    h.ranks[seat][1]))
        first = "the last player to bet or raise" if self.hb.last_aggressor in order else "the first player to act"
        out += self._info(t, "showdown.7", f"Show in this order: seat {', '.join(map(str, order))} ({first} first).",
                          tuple(order))
        out += self._info(t, "showdown.2", f"Cards speak: {self._winners_text(h)}.",
                          tuple(sorted({w for ws in h.winners for w in ws})))
        for i, (w, (amount, _)) in enumerate(zip(h.winners, h.pots)):
            if len(w) > 1:
                odd = odd_chip_seat(w, h.button, self.seats)
                out += self._info(t, "ties.5a", f"{'Main pot' if i == 0 else f'Side pot {i}'} of {amount} is split "
                                  f"between seats {' and '.join(map(str, w))}; any odd chip goes to seat {odd}, the "
                                  "first clockwise from the button (side pots split separately).", w)
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
            pot_winners=tuple(h.winners) if h is not None and h.decided else (), question=self.stacks.question)
