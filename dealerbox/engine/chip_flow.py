"""Chips and pucks as the engine sees them: the button and kill pucks, chips entering and leaving the bet
zones and the pot, and the push of an awarded pot. A part of :class:`engine.table.Engine`; the betting itself
is ``engine.betting``'s.
"""

from __future__ import annotations

from ..tags import ChipTag
from . import events as te
from .cards import OFF_TABLE_AFTER_S
from .misdeal import Ruling, after_action, misdeal
from .zones import BET_OF, SEAT_OF, zone_seat

# a chip that left a zone longer ago than this and lands now was not carried across the table: it went off the
# table (the dealer's rack, a player's stack) and comes back as another gesture, e.g. change from the rack
CARRIED_WITHIN_S = 10.0


class ChipFlow:
    """Mixed into :class:`engine.table.Engine`."""

    # --- the button puck ---------------------------------------------------------------------------------------
    def _puck_entered(self, t: float, zone: str) -> list[te.TableEvent]:
        seat = zone_seat(zone)
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
        if self.tournament is not None:
            outside = self._tournament_chip_entered(t, zone, tag)
            if outside is not None:
                return outside   # not a chip of the event's set in play, or a race chip: never the betting's
        came = self.chip_from.pop(uid, None)
        if came is not None and t - came[1] > CARRIED_WITHIN_S:
            came = None     # issue 18: a chip once changed out of a pot, back later as change, is not a push
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
        if h is None or h.phase == "ended":   # not _running(): every chip of a push asks
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
        if h.phase in ("showdown", "ended") and came and came[0] == "pot":   # h.decided, inline: every chip pushed
            h.pushed_chips.add(tag.uid)
            out.append(te.ChipsMoved(t, h.number, zone, seat, tag.value, (tag.value,)))
            if seat not in h.wrong_pushes and not _wins_a_pot(seat, h.winners):
                h.wrong_pushes.add(seat)
                out += self._rulings(t, [Ruling("showdown.3", "continues", f"Chips are being pushed to seat {seat}, "
                                     f"which wins no pot: stop; the cards give {self._winners_text(h)}.",
                                     (seat,), severity="floor")])
            if not self.pot_zone and not _still_landing(t, self.pot_leaving):
                out += self._end_hand(t, "complete")
            return out
        return out + self._betting_events(self.hb.chip_entered(t, seat, tag))

    def _chip_left(self, t: float, zone: str, tag: ChipTag) -> list[te.TableEvent]:
        uid = tag.uid
        if len(self.chip_from) > 2000:   # chips taken by hand never land: forget the old ones
            self.chip_from = {u: v for u, v in self.chip_from.items() if t - v[1] < 60.0}
        self.chip_from[uid] = (zone, t)
        if self.tournament is not None and self._tournament_chip_left(zone, tag):
            return []
        if zone == "pot":
            self.pot_leaving[uid] = t
            self.pot_zone.pop(uid, None)
        h = self.hand
        if h is None or h.phase == "ended":
            return []
        if zone == "pot":
            if h.phase == "showdown":   # decided (ended is out above): every chip of a push leaves the pot
                return []
            events = self.hb.chip_from_pot(t, tag)
        else:
            seat = BET_OF[zone]
            if seat is None or uid in h.pushed_chips:
                return []
            events = self.hb.chip_left(t, seat, tag)
        return self._betting_events(events) if events else events


# The two tests every pushed chip makes, as plain loops: a generator in any()/all() costs more than the test.
def _wins_a_pot(seat: int, winners: list[tuple[int, ...]]) -> bool:
    for pot_winners in winners:
        if seat in pot_winners:
            return True
    return False


def _still_landing(t: float, leaving: dict[str, float]) -> bool:
    """A chip that left the pot less than OFF_TABLE_AFTER_S ago may still land somewhere."""
    for t0 in leaving.values():
        if t - t0 < OFF_TABLE_AFTER_S:
            return True
    return False
