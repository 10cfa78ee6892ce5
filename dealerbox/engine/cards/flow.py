"""Cards as the engine follows them: the shoe, the deal, falls, exposures and the muck (the board: ``board``).
:class:`CardFlow` turns every card irregularity into a ruling for the referee; a card out of the shoe after a
hand starts the next one (``hand_flow``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...config import Config
from ...tags import CardTag, TagRegistry
from .. import events as te
from .. import inputs as ev
from ..betting import TableBetting
from ..hand_flow import HandFlow
from ..play import Play
from ..referee import Referee
from ..seating import Seating
from ..variants import Variant
from ..zones import SEAT_OF, zone_seat
from .board import BoardFlow
from .deck import DeckInUse
from .draw import DrawFlow
from .hand import Hand
from .ledger import CardLedger
from .misdeal import Ruling, misdeal

if TYPE_CHECKING:
    from ..tournament.table import TournamentTable


class CardFlow:
    """Card movements for the hand in ``play``, kept in the ``ledger``; board cards to ``board``; a hand
    started, decided or ended by ``hands``; a tournament table's race and draw cards to ``tournament``."""

    def __init__(self, config: Config, variant: Variant, registry: TagRegistry, play: Play, ledger: CardLedger,
                 referee: Referee, seating: Seating, deck: DeckInUse, betting: TableBetting, hands: HandFlow,
                 board: BoardFlow, draws: DrawFlow, tournament: TournamentTable | None) -> None:
        self.config = config
        self.variant = variant
        self.registry = registry
        self.play = play
        self.ledger = ledger
        self.referee = referee
        self.seating = seating
        self.deck = deck
        self.betting = betting
        self.hands = hands
        self.board = board
        self.draws = draws
        self.tournament = tournament

    # --- cards -----------------------------------------------------------------------------------------------
    def left(self, t: float, zone: str, tag: CardTag) -> list[te.TableEvent]:
        out: list[te.TableEvent] = []
        ledger = self.ledger
        if zone == "shoe" and ledger.transit:
            # A card still travelling when the next one leaves the shoe never reached the felt.
            for uid, move in list(ledger.transit.items()):
                if move.source == "shoe" and uid != tag.uid:
                    ledger.settle_transit(uid)
                    out += self.fallen(t, uid, move.source, move.face_up is not None)
        ledger.left(t, zone, tag)
        tt = self.tournament
        if tt is not None and tt.chips.race is not None and zone.startswith("seat"):
            tt.chips.race_card_gone(tag.uid)
        h = self.play.hand
        if zone == "muck" and h is not None and h.deal.early is not None and not h.deal.finished:
            out += self.referee.deal_over(t)   # the muck gathered after an action with the deal short: it was over
        # not a look: a draw's muck back to a short stub (docs/draw.md); a set-aside card out of play (Hold'em 3/4)
        if (zone == "muck" and h is not None and h.phase != "ended" and not h.decided
                and not h.back_to_stub(tag.uid) and tag.uid not in h.off_board.out_of_play and h.touch_muck()):
            out += self._muck_looked(t)
        return out

    def _muck_looked(self, t: float, zone: str = "") -> list[te.TableEvent]:
        back = "it stays there, dead" if zone == "muck" else "put it back"   # lifted and put back: nothing to do
        return self.referee.rule(t, [Ruling("procedures.22", "continues", f"A card left the muck during the hand: "
                                            f"nobody may look through the discards; {back}.", severity="floor")])

    def fallen(self, t: float, uid: str, source: str, dealt: bool = True) -> list[te.TableEvent]:
        """A card reached no antenna: dealt off the table (exposed) or dropped by a player (it plays)."""
        play, referee = self.play, self.referee
        h = play.hand
        if h is None or h.phase == "ended":
            return []
        card = self.ledger.card(uid)
        if source == "shoe" and dealt and not h.decided:
            h.card_out()
            seat = h.deal.expected_seat() if not h.deal.finished else None
            if seat is None:
                return referee.info(t, "irregularity.12", f"{card} was dealt off the table: it counts as exposed.",
                                    cards=(card,))
            h.deal.off_table(seat, uid)
            out = referee.info(t, "irregularity.12", f"{card}, dealt to seat {seat}, went off the table: it counts "
                               "as exposed.", (seat,), (card,))
            out += referee.rule(t, h.deal.expose(uid, card, seat, play.window()))
            if h.deal.early is not None and not h.deal.finished and play.running():
                out += referee.rule(t, h.dealt_on(play.window()))
            return out
        if source.startswith("seat") and not h.deal.taken_out(zone_seat(source), uid):
            return referee.info(t, "irregularity.14", f"A card left {source} and reached no antenna (dropped off "
                                "the table): it must still be played.", (s for s in (zone_seat(source),) if s))
        if source == "muck":
            h.draws.fell(uid)   # in a draw it may be on its way to a stub run short: judged where it lands
        return []

    def entered(self, t: float, zone: str, tag: CardTag) -> list[te.TableEvent]:
        source = self.ledger.entered(zone, tag)
        if source is None and (h := self.play.hand) is not None and h.off_the_muck(tag.uid, zone):
            return self._muck_looked(t, zone)   # it left the muck in a draw, fell, and landed elsewhere than the shoe
        face_up = self.ledger.face_up_from_shoe(tag.uid) if source == "shoe" else False
        if zone == "shoe":
            return self._to_shoe(t, tag, source, face_up)
        # a race card (8b) while a chip race is open, else maybe a draw for the button (29: only before the
        # first hand, so not asked after it), else a deal
        tt = self.tournament
        if source == "shoe" and ((tt is not None and tt.chips.race is not None) or self.play.hand_no is not None
                                 or tt is None or not tt.seats.draw_card(t, zone, tag.card, face_up)):
            return self._dealt(t, zone, tag, face_up)
        h = self.play.hand
        if h is None or h.phase == "ended" or source is None:
            return []
        if source == "muck" and self.draws.drawing(h) and h.touch_muck():
            return self._muck_looked(t, zone)   # a card of the muck may go back to the stub in a draw, nowhere else
        src_seat, seat = zone_seat(source), zone_seat(zone)
        if src_seat is not None and zone == "board":
            return self._to_board(t, tag)
        if source == "board" and not h.decided:
            src_seat = h.deal.holder(tag.uid)   # a hole card put on the board is still its seat's: mucked, a fold
        if src_seat is not None and zone == "muck":
            return self._to_muck(t, src_seat, tag)
        if src_seat is not None and seat is not None and seat != src_seat and tag.uid in h.deal.held.get(src_seat, ()):
            if src_seat in h.dead:
                return []
            draws = self.draws
            if draws.draws and src_seat not in h.folded:
                if draws.repeat(h, src_seat, self.play.bettors()):   # all in, nobody betting: the next draw's discard
                    return self.hands.draw_begins(t) + draws.astray(t, h, src_seat, seat, tag)
                if draws.drawing(h):
                    return draws.astray(t, h, src_seat, seat, tag)   # a discard on another seat (cards/draw.py)
            return self.referee.rule(t, [Ruling("dead-hand.3", "dead-hand", f"Seat {src_seat}'s cards went into "
                                                f"seat {seat}'s hand: they are dead (the tags say which are "
                                                f"whose); seat {src_seat}'s cards to the muck, seat {seat} keeps "
                                                "its own.", (src_seat,))])
        if zone == "burn":
            return [te.CardBurned(t, h.number, None)]
        return []

    def _to_shoe(self, t: float, tag: CardTag, source: str | None, face_up: bool) -> list[te.TableEvent]:
        play, referee = self.play, self.referee
        h = play.hand
        if h is not None and h.deal.early is not None and not h.deal.finished and source != "shoe" and h.cards_out:
            # cards gathered after an action taken with the deal short: the deal was over (Misdeals 1e, 1j)
            over = referee.deal_over(t)
            return over + self._to_shoe(t, tag, source, face_up)
        if source == "shoe":
            # Taken off the stub and put back: looked at during the hand, or shown after it.
            if h is not None and h.phase != "ended" and not h.decided and h.cards_out:
                return referee.rule(t, [Ruling("procedures.22", "continues", "A card was taken off the stub and "
                                               "put back during the hand: nobody may look through the stub.",
                                               severity="floor")])
            if face_up:
                return referee.info(t, "procedures.23", f"{tag.card} was shown off the stub after the hand: the "
                                    "card that would have been dealt must not be shown.", cards=(tag.card,))
            return []
        if h is None or h.phase == "ended":
            return []     # not running: no check below applies (every card gathered after a hand comes here)
        hands = self.hands
        if h.decided:   # cleanup began: the award is over, unless the pot sits wrongly (engine/misaward.py)
            return [] if h.award.misaward else hands.end(t, "complete")
        if h.cards_out and hands.all_back(h):
            if any(f.hand == h.number and f.outcome == "misdeal" for f in referee.findings.raised):
                return hands.end(t, "misdeal")    # ruled by the betting (Blinds 3, 7): the gather is its remedy
            # Every card of the hand is back in the shoe and the hand never reached its end here.
            hb = play.hb
            assert hb is not None
            live = h.contenders(hb.live_seats())
            out: list[te.TableEvent] = []
            if len(live) >= 2 and (len(h.board) == 5 or (self.draws.draws and h.street == "river")):
                out += hands.showdown(t, live)
            elif len(live) == 1:
                out += hands.decide(t, live)
            out += hands.end(t, "complete" if h.decided else "void")
            self.seating.hand_played_out()   # the dealer played the hand out: the button moves on
            return out
        deck = self.deck
        if deck.back and tag.back != deck.back and deck.first_report(tag.uid):
            return referee.rule(t, [Ruling("irregularity.3", "continues", f"A card with a {tag.back} back is in "
                                           "the stub: the action stands; take it out.")])
        return []

    def _dealt(self, t: float, zone: str, tag: CardTag, face_up: bool) -> list[te.TableEvent]:
        """A card from the shoe reached ``zone``."""
        out: list[te.TableEvent] = []
        tt = self.tournament
        if tt is not None and tt.chips.race is not None:
            race = tt.chips.race_card(zone, tag)
            if race is not None:
                return race
        play, referee = self.play, self.referee
        h = play.hand
        if h is not None and h.award.misaward and h.phase == "showdown" and zone.startswith("seat"):
            out += self.hands.end(t, "complete")   # the next deal began: the misaward was not put right
        if h is None or h.phase == "ended":   # not running(), inline: every card dealt asks
            if zone == "board":
                return referee.info(t, "procedures.23", f"{tag.card} was turned off the stub after the hand: the "
                                    "card that would have been dealt must not be shown.", cards=(tag.card,))
            if self.hands.misdealt_cards_out():
                return out   # the misdealt hand's cards are still out: the redeal starts once they are gathered
            out += self.hands.start(t)
            if not play.running():
                return out
        h, hb = play.hand, play.hb
        assert h is not None and hb is not None
        if h.phase == "showdown":   # h.decided (ended is out above), inline: every card dealt asks
            return out
        h.from_shoe(tag.uid)
        seating = self.seating
        if h.cards_out == 0:
            out += referee.betting_events(hb.deal_started(t))
            if tt is not None:
                out += tt.deal_started(t)   # Tournaments 29, 30, 31, 7
            if not play.running():
                return out   # a tournament misdeal at the deal's start (engine/tournament/seats.py)
            puck = seating.puck
            if puck is not None and puck != h.button and len(h.order) >= 2 and puck != seating.disputed_puck:
                # Checked as the deal starts, once per hand: the puck may move until then.
                seating.puck_ruled(puck)
                out += referee.rule(t, misdeal("misdeal.1g", f"the button puck is on seat {puck}; it belongs "
                                               f"on seat {h.button}", True, seats=(puck, h.button)))
                return out
        h.card_out()
        deck = self.deck
        if deck.back is None:
            deck.first_card(tag.deck_id, tag.back)
            h.deck_seen(tag.deck_id, tag.back)
            out.append(te.DeckChanged(t, h.number, tag.deck_id, tag.back))
        rulings: list[Ruling] = []
        # a face-down card is named by where it went, never by its face (findings reach the public log and the
        # floor); its face stays in the sealed reads, for whoever holds the floor's key (docs/security.md). Nor
        # is a twin named: a face-up one would tell that its double is someone's hole card
        if tag.back != h.back:
            shown = face_up or zone == "board"
            rulings.append(Ruling("irregularity.3", "void", f"{tag.card if shown else _where(zone)} has a "
                                  f"{tag.back} back (deck {tag.deck_id}), not the {h.back} of the deck in use: all "
                                  "action is void, every chip goes back to whoever bet it; cards back, new deck "
                                  "check, redeal.", cards=(tag.card,) if shown else ()))
        twin = h.deal.face_seen(tag.card, tag.uid)     # the first card of this face dealt this hand
        if twin != tag.uid and not tag.is_joker:
            rulings.insert(0 if tag.back == h.back else 1, Ruling(
                "irregularity.4", "void", f"Two cards of one face are in play ({_where(zone).lower()} and one dealt "
                "before it): all action is void, every chip goes back to whoever bet it; replace the deck."))
        seat = SEAT_OF[zone]   # zone_seat(zone), inline: every card dealt
        if seat is not None and rulings and any(r.outcome == "void" for r in rulings):   # most cards: no ruling
            # a card that voids the hand is no card of the deal: its place in the sequence is no second ruling
            out.append(te.CardDealt(t, h.number, seat, tag.card, face_up))
            return out + referee.rule(t, rulings)
        if seat is not None and not rulings and self.draws.drawing(h):
            out += self.hands.hands_thrown_away(t, past=seat)     # the draw passed a hand thrown away: folded
            return out + self.draws.replacement(t, h, seat, tag, face_up)   # a card drawn (cards/draw.py)
        if seat is not None:
            h.deal.to_seat_zone(tag.uid)
            # dealt in at the start (the deal checks its own order) and still seated: a blind all in gets its cards;
            waiting = hb.waiting()    # a seat owing a post, nothing in, may be passed (most hands: none)
            rulings += h.deal.card_to_seat(seat, tag.uid, seating.occupied, play.window(),
                                           acted=h.voluntary_actions > 0, waiting=waiting)
            out += self.hands.dealt_around(t) if waiting else []   # passed: they wait (Blinds 4a, 9)
            rulings = self._blinds7(h, seat, rulings)
            if h.deal.early is not None and not h.deal.finished and not rulings:
                # an action came before the deal was complete: it goes on (chips of it taken back: put them back)
                rulings += h.dealt_on(play.window(), hb.taken_back(h.deal.early[0]))
            if self.draws.draws and h.deal.k > 2 * len(h.order):
                # lowball: a player has a third card, the pot may no longer be killed (Kill Pots 10)
                hb.deal_reached(2 if h.deal.dealt_all else 1)
            if tt is not None and tt.entrants.away:
                rulings += tt.away_hands_dead()   # Tournaments 11: at the last starting card
            out.append(te.CardDealt(t, h.number, seat, tag.card, face_up))
            if rulings and any(r.outcome in ("misdeal", "void") for r in rulings):
                return out + referee.rule(t, rulings)
            if len(h.deal.held[seat]) == 1:   # its first card: Blinds 10 if it owes a post and has posted none
                out += referee.betting_events(hb.dealt_in_unposted(t, seat))
            if tag.is_joker and not self.variant.jokers:
                rulings += h.deal.scrap(seat, tag.uid, tag.card, "irregularity.8", play.window())
                h.deal.joker_held(seat, tag.uid)
            elif face_up:
                h.box(tag.uid, seat)
            return out + referee.rule(t, rulings) if rulings else out
        if rulings:
            out += referee.rule(t, rulings)
            if not play.running():
                return out
        if zone in ("burn", "muck"):
            out += referee.deal_over(t)
            h.off_board.burned(tag.uid)
            out.append(te.CardBurned(t, h.number, None))
            if face_up:
                out += referee.rule(t, [r for r in h.deal.scrap(-1, tag.uid, tag.card, "irregularity.7",
                                                                  play.window()) if r.outcome == "misdeal"]
                                    or [Ruling("irregularity.7", "card-replaced", f"{tag.card} came out face up "
                                               "(boxed): a scrap of paper; the next card is the burn card.",
                                               cards=(tag.card,))])
            return out
        if zone == "board":
            return out + self.board.card(t, tag)
        return out

    def _blinds7(self, h: Hand, seat: int, rulings: list[Ruling]) -> list[Ruling]:
        """A card to a seated player that Blinds 7 kept out of the deal (new, or making up blinds, between the
        big blind and the button) is the misdeal of Misdeals 1i, cited as Blinds 7: the dealer learns why the
        seat is not entitled, and that it waits for the button to pass."""
        if not rulings:
            return rulings   # nothing to re-cite (most cards): held_back is not asked
        why = "" if self.config.is_tournament else self.betting.held_back(seat, h.button, h.order)
        if not why:
            return rulings
        who = "is new" if why == "new" else "is coming back owing blinds"
        return [Ruling("blinds.7", "misdeal", f"Misdeal: seat {seat} {who} and sits between the big blind and the "
                                              f"button: it cannot be dealt in until the button passes. Cards back to "
                                              f"the shoe, reshuffle, same button; every chip goes back to whoever "
                                              f"put it in; redeal without seat {seat} (Misdeals 1i).", r.seats)
                if r.rule == "misdeal.1i" and r.outcome == "misdeal" else r for r in rulings]

    def _to_muck(self, t: float, seat: int, tag: CardTag) -> list[te.TableEvent]:
        """A card from a seat reached the muck: a fold, a scrap set aside, a remedy, or a hand thrown away."""
        h, hb = self.play.hand, self.play.hb
        assert h is not None and hb is not None
        out: list[te.TableEvent] = [te.CardMucked(t, h.number, seat, tag.card)]
        if h.deal.jokers.get(seat) == tag.uid:
            h.deal.joker_mucked(seat)
            return out
        if tag.uid not in h.deal.held.get(seat, ()):
            return out     # a scrap, an extra or an exposed card set aside
        if h.decided:
            if seat not in h.award.unshown:
                out += self.hands.unshown(t, seat)
            return out
        if seat in h.folded or seat in h.dead or not hb.in_hand(seat):
            return out
        draws = self.draws
        if draws.draws:
            if draws.repeat(h, seat, self.play.bettors()):
                out += self.hands.draw_begins(t)   # all in, nobody betting: a second discard starts the next draw
            if draws.drawing(h):
                out += self.hands.hands_thrown_away(t, past=seat)   # the draw passed a hand thrown away: folded
                return out + draws.discard(t, h, seat, tag)
        h.fold(seat)
        out += self.referee.betting_events(hb.fold(t, seat))
        return out

    def _to_board(self, t: float, tag: CardTag) -> list[te.TableEvent]:
        """A card from a seat reached the board. A hole card is never a board card (only the stub's cards build the
        board): it is its seat's card, exposed (Irregularities 12), ruled by the game's exposed-card rule during the
        deal; after it the card still plays and goes back, and a folded or dead hand's card goes to the muck. Its
        face is not told: it may lie face down. At the showdown hands are tabled: nothing to rule."""
        h, hb = self.play.hand, self.play.hb
        assert h is not None and hb is not None
        seat = h.deal.holder(tag.uid)
        if seat is None or h.decided:
            return []     # a scrap, an extra card or an exposed one set aside: no seat's hand holds it
        referee = self.referee
        if seat in h.folded or seat in h.dead or not hb.in_hand(seat):
            gone = "dead" if seat in h.dead else "folded"
            return referee.info(t, "irregularity.12", f"A card of seat {seat}'s {gone} hand reached the board: a "
                                "discard, no board card; put it in the muck.", (seat,))
        if not h.deal.finished:
            out = referee.info(t, "irregularity.12", f"Seat {seat}'s hole card was put on the board: it is no board "
                               "card, and it counts as exposed.", (seat,))
            return out + referee.rule(t, h.deal.expose(tag.uid, tag.card, seat, self.play.window(),
                                                       hidden="the card on the board"))
        return referee.rule(t, [Ruling("irregularity.12", "continues", f"Seat {seat}'s hole card was put on the "
                                       "board: it is no board card, and it counts as exposed. Put it back in front "
                                       f"of seat {seat}: it still plays (if seat {seat} folds, it goes to the muck).",
                                       (seat,))])

    def stand_pat(self, t: float, seat: int) -> list[te.TableEvent]:
        """The ``stand-pat`` tap (a draw game): ``seat`` draws no card in the draw under way (cards/draw.py)."""
        h = self.play.hand
        if h is None:
            return []
        return self.hands.hands_thrown_away(t, past=seat) + self.draws.stand_pat(t, h, seat)

    def exposed(self, e: ev.DealerInput) -> list[te.TableEvent]:
        """The ``exposed`` tap: a card the dealer flashed (named, or the last one dealt)."""
        play = self.play
        h, t = play.hand, e.t
        assert h is not None
        uid = None
        ledger = self.ledger
        if e.card:
            uid = next((u for u, tag in ledger.tags.items() if tag.card == e.card and
                        (tag.back == h.back or h.back is None) and ledger.where.get(u) != "shoe"), None) \
                or next((u for u, tag in ledger.tags.items() if tag.card == e.card), None)
            if uid is None:
                deck = next((d for d in self.registry.decks if d.deck_id == h.deck_id), None)
                try:
                    uid = deck.uid_of(e.card) if deck else None
                except KeyError:
                    uid = None
        else:
            uid = h.deal.last_dealt
        if uid is None:
            return []
        card = e.card or ledger.card(uid)
        boxed = h.unbox()
        was_face_up = boxed is not None and boxed[0] == uid
        seat = h.deal.seat_of(uid)
        out: list[te.TableEvent] = []
        if not was_face_up:
            out += self.referee.info(t, "irregularity.12", f"{card} was flashed by the dealer: it counts as exposed.",
                                     (seat,) if seat else (), (card,))
        if h.deal.finished and seat is not None:
            return out
        return out + self.referee.rule(t, h.deal.expose(uid, card, seat, play.window()))

    def resolve_pending(self, event: ev.EngineInput) -> list[te.TableEvent]:
        """A boxed card not tapped ``exposed`` by the next input, and the cards in transit that fell."""
        out: list[te.TableEvent] = []
        h = self.play.hand
        t = event.t
        if h is not None and h.phase != "ended" and h.provisional_boxed is not None:   # running(), inline: per card
            is_tap = isinstance(event, ev.DealerInput) and event.action == "exposed"
            if not is_tap:
                boxed = h.unbox()
                assert boxed is not None
                uid, seat = boxed
                out += self.referee.rule(t, h.deal.scrap(seat, uid, self.ledger.card(uid), "irregularity.7",
                                                         self.play.window()))
        for uid, move in self.ledger.fallen(t):
            out += self.fallen(t, uid, move.source, move.face_up is not None)
        return out


def _where(zone: str) -> str:
    """A face-down card told by where it went: "The card dealt to seat 3", "A card dealt to the burn"."""
    seat = zone_seat(zone)
    return f"The card dealt to seat {seat}" if seat is not None else f"A card dealt to the {zone}"
