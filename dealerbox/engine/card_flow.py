"""Cards as the engine follows them: the shoe, the deal, falls, exposures and the muck (the board: board_flow).
A part of :class:`engine.table.Engine` (its state lives there); every card irregularity becomes a ruling here.
"""

from __future__ import annotations

from ..tags import CardTag
from . import events as te
from . import inputs as ev
from .hand import Hand
from .misdeal import Ruling, misdeal
from .zones import SEAT_OF, zone_seat


class CardFlow:
    """Mixed into :class:`engine.table.Engine`."""

    # --- cards -----------------------------------------------------------------------------------------------
    def _card_left(self, t: float, zone: str, tag: CardTag) -> list[te.TableEvent]:
        out: list[te.TableEvent] = []
        if zone == "shoe" and self.ledger.transit:
            # A card still travelling when the next one leaves the shoe never reached the felt.
            for uid, move in list(self.ledger.transit.items()):
                if move.source == "shoe" and uid != tag.uid:
                    self.ledger.settle_transit(uid)
                    out += self._fallen(t, uid, move.source, move.face_up is not None)
        self.ledger.left(t, zone, tag)
        if self.race is not None and zone.startswith("seat"):
            self._race_card_gone(tag.uid)
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
                              "table): it must still be played.", (zone_seat(source),))
        return []

    def _card_entered(self, t: float, zone: str, tag: CardTag) -> list[te.TableEvent]:
        source = self.ledger.entered(zone, tag)
        face_up = self.ledger.face_up_from_shoe(tag.uid) if source == "shoe" else False
        if zone == "shoe":
            return self._card_to_shoe(t, tag, source, face_up)
        # a race card (8b) while a chip race is open, else maybe a draw for the button (29: only before the
        # first hand, so not asked after it), else a deal
        if source == "shoe" and (self.race is not None or self.hand_no is not None
                                 or not self._draw_card(t, zone, tag.card, face_up)):
            return self._dealt(t, zone, tag, face_up)
        h = self.hand
        if not self._running() or source is None:
            return []
        src_seat, seat = zone_seat(source), zone_seat(zone)
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
        if h is None or h.phase == "ended":
            return []     # not running: no check below applies (every card gathered after a hand comes here)
        if h.decided:
            return self._end_hand(t, "complete")   # cleanup began: the award is over
        if h.cards_out and self._all_back(h):
            if not h.decided and any(f.hand == h.number and f.outcome == "misdeal" for f in self.findings.raised):
                return self._end_hand(t, "misdeal")    # ruled by the betting (Blinds 3, 7): the gather is its remedy
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
        if self.back and tag.back != self.back and tag.uid not in self.reported:
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
        race = self._race_card(t, zone, tag) if self.race is not None else None
        if race is not None:
            return race
        h = self.hand
        if h is None or h.phase == "ended":   # not _running(), inline: every card dealt asks
            if zone == "board":
                return self._info(t, "procedures.23", f"{tag.card} was turned off the stub after the hand: the card "
                                  "that would have been dealt must not be shown.", cards=(tag.card,))
            if self._misdealt_cards_out():
                return out   # the misdealt hand's cards are still out: the redeal starts once they are gathered
            out += self._start_hand(t)
            if not self._running():
                return out
        h = self.hand
        if h.phase == "showdown":   # h.decided (ended is out above), inline: every card dealt asks
            return out
        h.dealt.append(tag.uid)
        if h.cards_out == 0:
            out += self._betting_events(self.hb.deal_started(t)) + self._tournament_deal_started(t)   # 29, 30, 31, 7
            if not self._running():
                return out   # a tournament misdeal at the deal's start (engine/tournament_seats.py)
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
        seat = SEAT_OF[zone]   # zone_seat(zone), inline: every card dealt
        if seat is not None and rulings and any(r.outcome == "void" for r in rulings):   # most cards: no ruling
            # a card that voids the hand is no card of the deal: its place in the sequence is no second ruling
            out.append(te.CardDealt(t, h.number, seat, tag.card, face_up))
            return out + self._rulings(t, rulings)
        if seat is not None:
            h.last_dealt = tag.uid
            # dealt in at the start (the deal checks its own order) and still seated: a blind all in gets its cards
            rulings += h.deal.card_to_seat(seat, tag.uid, self.occupied, self._window(), acted=h.voluntary_actions > 0)
            rulings = self._blinds7(seat, rulings)
            if self.away and self._tournament_table():
                rulings += self._away_hands_dead()   # Tournaments 11: at the last starting card
            out.append(te.CardDealt(t, h.number, seat, tag.card, face_up))
            if rulings and any(r.outcome in ("misdeal", "void") for r in rulings):
                return out + self._rulings(t, rulings)
            if tag.is_joker and not self.variant.jokers:
                rulings += h.deal.scrap(seat, tag.uid, tag.card, "irregularity.8", self._window())
                h.jokers[seat] = tag.uid
            elif face_up:
                h.provisional_boxed = (tag.uid, seat)
            return out + self._rulings(t, rulings) if rulings else out
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

    def _blinds7(self, seat: int, rulings: list[Ruling]) -> list[Ruling]:
        """A card to a seated player that Blinds 7 kept out of the deal (new, or making up blinds, between the
        big blind and the button) is the misdeal of Misdeals 1i, cited as Blinds 7: the dealer learns why the
        seat is not entitled, and that it waits for the button to pass."""
        if not rulings:
            return rulings   # nothing to re-cite (most cards): held_back is not asked
        h = self.hand
        why = "" if self.config.is_tournament else self.betting.held_back(seat, h.button, h.order)
        if not why:
            return rulings
        who = "is new" if why == "new" else "is coming back owing blinds"
        return [Ruling("blinds.7", "misdeal", f"Misdeal: seat {seat} {who} and sits between the big blind and the "
                                              f"button: it cannot be dealt in until the button passes. Cards back to "
                                              f"the shoe, reshuffle, same button; redeal without seat {seat} "
                                              f"(Misdeals 1i).", r.seats)
                if r.rule == "misdeal.1i" and r.outcome == "misdeal" else r for r in rulings]

    def _deal_over(self, t: float) -> list[te.TableEvent]:
        h = self.hand
        if h.deal.finished:
            return []
        out = self._rulings(t, h.deal.finish(self._window()))
        if self._running() and h.phase == "deal":
            h.phase = "preflop"
        return out

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
        if h is not None and h.phase != "ended" and h.provisional_boxed is not None:   # _running(), inline: per card
            is_tap = isinstance(event, ev.DealerInput) and event.action == "exposed"
            if not is_tap:
                uid, seat = h.provisional_boxed
                h.provisional_boxed = None
                out += self._rulings(t, h.deal.scrap(seat, uid, self.ledger.card(uid), "irregularity.7",
                                                     self._window()))
        for uid, move in self.ledger.fallen(t):
            out += self._fallen(t, uid, move.source, move.face_up is not None)
        return out

