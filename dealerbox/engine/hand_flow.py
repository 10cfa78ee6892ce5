"""The hand moving on by itself: the deck in use at the start, the end of a betting round, everyone folded,
the showdown and its order. A part of :class:`engine.table.Engine`.
"""

from __future__ import annotations

from collections import Counter
from operator import attrgetter

from . import events as te
from .hand import Hand
from .misdeal import Ruling
from .showdown import odd_chip_seat, pot_winners, show_order
from .variants import evaluate


DECK_OF = attrgetter("deck_id", "back")   # a card tag's deck and back


class HandFlow:
    """Mixed into :class:`engine.table.Engine`."""

    def _deck_at_start(self, t: float, order: tuple[int, ...]) -> list[te.TableEvent]:
        """The deck in use is the one the shoe holds; a change and a short deck are reported here."""
        out: list[te.TableEvent] = []
        tags = self.ledger.tags   # the tags in the shoe (in_zone("shoe")), read once: rulings below move no card
        shoe = [tags[uid] for uid, zone in self.ledger.where.items() if zone == "shoe"]
        keys = list(map(DECK_OF, shoe))
        # (deck, back) -> cards, in the order first seen; one deck in the shoe (most hands) needs no Counter
        counts = {keys[0]: len(keys)} if keys and keys.count(keys[0]) == len(keys) else Counter(keys)
        self.shoe_loaded.update(deck_id for (deck_id, _), n in counts.items() if n >= 40)
        if counts:
            deck_id, back = max(counts, key=lambda k: counts[k])
            if deck_id != self.deck_id:
                if self.deck_id is not None and self._tournament_table():
                    out += self._tournament_deck_changed(t, deck_id)   # Tournaments 28 replaces Procedures 21
                elif self.deck_id is not None and self.hands_with_deck < self.deck_round:
                    out += self._rulings(t, [Ruling("procedures.21", "continues", f"Deck {self.deck_id} was changed "
                                         f"after {self.hands_with_deck} hands, before a full round of "
                                         f"{self.deck_round}; allowed only if it was damaged.")])
                self.deck_id, self.back = deck_id, back
                self.hands_with_deck, self.deck_round = 0, len(order)
                out.append(te.DeckChanged(t, self.hand_no, deck_id, back))
            for tag in shoe if len(counts) > 1 else ():   # one (deck, back) in the shoe: no other back there
                if tag.back != back and tag.uid not in self.reported:
                    self.reported.add(tag.uid)
                    out += self._rulings(t, [Ruling("irregularity.3", "continues", f"A card with a {tag.back} back "
                                         f"(deck {tag.deck_id}) is in the stub: the action stands; take it out.")])
        if self.deck_id in self.shoe_loaded:
            deck = next((d for d in self.registry.decks if d.deck_id == self.deck_id), None)
            if deck is not None:
                where, reported = self.ledger.where, self.reported
                missing = [u for u, c in deck.cards.items() if where.get(u) != "shoe" and c[0] != "X"
                           and u not in reported]   # most cards are in the shoe: that test first
                if missing:
                    self.reported.update(missing)
                    out += self._info(t, "irregularity.10", f"Deck {self.deck_id} is short {len(missing)} card(s): "
                                      "the hand stands; replace the deck when convenient.",
                                      cards=tuple(deck.cards[u] for u in missing))
        self.hands_with_deck += 1
        return out

    # --- the hand moving on by itself --------------------------------------------------------------------------
    def _progress(self, t: float) -> list[te.TableEvent]:
        h = self.hand
        if h is None or h.phase in ("ended", "showdown"):
            return []
        if h.deal.first_uid is None and h.voluntary_actions == 0:
            return []
        hb = self.hb
        live_seats = hb.live
        # Asked after most inputs, so the contenders list is built only when needed: hb.live lies within h.order,
        # and with no folded or dead seat among two or more of them, nobody has won by the others folding.
        live = None
        if (len(live_seats) <= 1 or (h.folded and not live_seats.isdisjoint(h.folded))
                or (h.dead and not live_seats.isdisjoint(h.dead))):
            live = h.contenders(live_seats)
            if len(live) <= 1:
                return self._decide(t, live)
        # the round still open (hb.round_complete, spelt out: hb.to_act is someone exactly when seats are pending,
        # the hand is not settled and two or more are live)
        if hb.held or hb.motions or (hb.round.pending and not hb.settled and len(live_seats) > 1):
            return []
        if len(h.board) == 5 and h.street == "river":
            return self._showdown(t, live if live is not None else h.contenders(live_seats))
        out: list[te.TableEvent] = []
        if h.all_in_prompted or not h.deal.finished or not self.all_in_prompts:
            return out   # no all-in prompt to give (never at a cash table): every input until the next card asks
        if live is None:
            live = h.contenders(live_seats)
        able = [s for s in live if not self.hb.all_in(s)]
        if len(able) <= 1 and len(able) < len(live):
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
