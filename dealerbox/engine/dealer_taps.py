"""The dealer's taps on the terminal (seat, leave, check, misdeal, exposed, award...). A part of
:class:`engine.table.Engine`.
"""

from __future__ import annotations

from . import events as te
from . import inputs as ev
from .misdeal import Ruling, after_action
from .showdown import pot_winners
from .tournament_moves import MOVE_ACTIONS, follow as follow_floor_move


class DealerTaps:
    """Mixed into :class:`engine.table.Engine`."""

    # --- dealer taps ------------------------------------------------------------------------------------------
    def _dealer(self, e: ev.DealerInput) -> list[te.TableEvent]:
        t, h = e.t, self.hand
        a = e.action
        if a in MOVE_ACTIONS:   # the floor's moves and the dealer's confirmations (engine/tournament_moves.py)
            return follow_floor_move(self, e)
        tournament = self._tournament_tap(e)   # None at a cash table and for taps a tournament reads as usual
        if tournament is not None:
            return tournament
        if a == "sit" and e.seat is not None:
            self.occupied.add(e.seat)
            return self.betting.sit(t, e.seat, self._sit_amount(e))
        if a == "leave" and e.seat is not None:
            self.occupied.discard(e.seat)
            if not self.occupied:
                self.fresh_table, self.keep_button = True, False
            owed = self._owed_on_leaving(t, e.seat)    # a tournament player still owing a rebuy (Tournaments 33)
            return owed + (self.betting.leave(t, e.seat) if e.seat in self.betting.stacks else [])
        if a == "rebuy" and e.seat is not None:
            return self.betting.rebuy(t, e.seat, e.amount or 0)
        if a == "floor-clock":
            return self._floor_clock(e)   # the floor's tournament clock (engine/tournament_levels.py)
        if a == "answer" and self.stacks.answer(e.ref, e.choice):
            return self.stacks.judged(t, self.hand_no, self.findings)   # the stack question (engine/stacks.py)
        if a == "ack" and e.ref:
            self.acked.add(e.ref)
            return [te.FindingAcknowledged(t, self.hand_no, e.ref, e.by)]
        if a in ("sign-in", "sign-out"):
            return self._sign(e)
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
        if a == "declare-raise":
            return self._betting_events(self.hb.declare_raise(t, e.seat))
        if a == "answer":
            return self._betting_events(self.hb.answer(t, e.ref, e.choice))
        return []

    def _sign(self, e: ev.DealerInput) -> list[te.TableEvent]:
        """Who deals from now on: a sign-in replaces the dealer on duty (signing them out), a sign-out leaves
        nobody. The terminal checked the PIN or badge before submitting; ``by`` is the dealer's id only."""
        out: list[te.TableEvent] = []
        if self.dealer is not None and (e.action == "sign-out" or e.by != self.dealer):
            out.append(te.DealerSignedOut(e.t, self.hand_no, self.dealer))
            self.dealer = None
        if e.action == "sign-in" and e.by and self.dealer is None:
            self.dealer = e.by
            out.append(te.DealerSignedIn(e.t, self.hand_no, e.by, e.ref or "pin"))
        return out

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
        if self._running() and h is not self.hand:
            return []   # the hand under way is not decided: the last hand's winners say nothing about this tap
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
