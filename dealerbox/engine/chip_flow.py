"""Chips as the engine sees them: chips entering and leaving the bet zones and the pot, and the push of an
awarded pot. :class:`ChipFlow` hands wagers to the betting of the hand under way and starts a hand when the
blinds go in; the betting itself is ``engine.betting``'s, the pucks are ``engine.seating``'s.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..tags import ChipTag
from . import events as te
from .cards.ledger import OFF_TABLE_AFTER_S
from .chip_trail import ChipTrail
from .hand_flow import HandFlow, wins_a_pot
from .misaward import PushWatch
from .play import Play
from .referee import Referee
from .zones import BET_OF

if TYPE_CHECKING:
    from .tournament.table import TournamentTable

# a chip that left a zone longer ago than this and lands now was not carried across the table: it went off the
# table (the dealer's rack, a player's stack) and comes back as another gesture, e.g. change from the rack
CARRIED_WITHIN_S = 10.0


class ChipFlow:
    """Chip movements for the hand in ``play``: kept in ``trail``, wagers to its betting, rulings to the
    ``referee``, a hand started or ended by ``hands``, the push of a decided pot followed by ``pushes``; an
    event's chips (``tournament``) judged first."""

    def __init__(self, play: Play, referee: Referee, hands: HandFlow, trail: ChipTrail, pushes: PushWatch,
                 tournament: TournamentTable | None) -> None:
        self.play = play
        self.referee = referee
        self.hands = hands
        self.trail = trail
        self.pushes = pushes
        self.tournament = tournament   # a tournament with its event file: only the event's chips play

    def entered(self, t: float, zone: str, tag: ChipTag) -> list[te.TableEvent]:
        uid = tag.uid
        if self.tournament is not None:
            outside = self.tournament.chip_entered(t, zone, tag)
            if outside is not None:
                return outside   # not a chip of the event's set in play, or a race chip: never the betting's
        trail = self.trail
        came = origin = trail.landed(uid, zone, tag.value)
        if came is not None and t - came[1] > CARRIED_WITHIN_S:
            came = None     # issue 18: a chip once changed out of a pot, back later as change, is not a push
        seat = BET_OF[zone]   # None for the pot, and for a zone that is neither the pot nor a bet zone
        if seat is None and zone != "pot":
            return []
        to_pot = seat is None
        play = self.play
        h, hb = play.hand, play.hb
        out: list[te.TableEvent] = []
        if h is not None and hb is not None and h.phase not in ("showdown", "ended"):
            if seat is not None and came is not None and came[0] == "pot" and h.draws.dealing:
                out += self.hands.hands_thrown_away(t)   # the pot pushed in a draw: the hands thrown away folded
            if h.phase not in ("showdown", "ended"):
                # the common case, a wager or a gather during the betting (the hand is running, not decided)
                events = hb.chip_to_pot(t, tag) if seat is None else hb.chip_entered(t, seat, tag)
                return out + self.referee.betting_events(events) if events else out
        if (h is not None and h.award.misaward and h.phase == "showdown" and came is None
                and uid not in h.award.pushed_chips):
            if to_pot:   # a wrongly paid player hands chips back from their stack
                self.pushes.handed_back(h, tag.value)
                return out
            if self.hands.all_back(h):
                out += self.hands.end(t, "complete")   # the next hand's blinds: the misaward was not put right
            elif seat is not None and wins_a_pot(seat, h.winners):
                # the wrongly paid player's chips, from their stack straight into a winner's bet zone
                out += self.pushes.handed_over(t, h, seat, uid, tag.value)
                if not trail.pot_zone and not _still_landing(t, trail.pot_leaving):
                    out += self.pushes.pot_emptied(t, h)
                return out
        if h is None or h.phase == "ended":   # not running(): every chip of a push asks
            if seat is None or (came and came[0] == "pot") or self.hands.misdealt_cards_out():
                return out
            if (h is not None and came and came[0].startswith("bet") and came[0] != zone
                    and t - came[1] < OFF_TABLE_AFTER_S and uid in h.award.pushed_chips):
                return out   # the rest of a pushed share sliding on to the seat it belongs to: no blind
            out += self.hands.start(t)   # blinds going in: a new hand
            if not play.running():
                return out
        h, hb = play.hand, play.hb
        assert h is not None and hb is not None
        repush = False
        decided = h.phase in ("showdown", "ended")   # h.decided, inline: every chip of a push asks
        if decided and origin and uid in h.award.pushed_chips:   # a pushed chip moved on: pulled back or re-pushed
            from_seat = BET_OF[origin[0]]
            if from_seat is not None:
                self.pushes.pulled(h, from_seat, uid, tag.value)
                repush = True
            if seat is None:
                return out
        if seat is None:   # the pot zone
            if decided and not (came and came[0].startswith("bet")):
                return out    # change made in the pot during the award
            return out + self.referee.betting_events(hb.chip_to_pot(t, tag))
        if decided and (repush or (came and came[0] == "pot")):
            out += self.pushes.pushed(t, h, seat, uid, tag.value)
            if not trail.pot_zone and not _still_landing(t, trail.pot_leaving):
                out += self.pushes.pot_emptied(t, h)
            return out
        return out + self.referee.betting_events(hb.chip_entered(t, seat, tag))

    def left(self, t: float, zone: str, tag: ChipTag) -> list[te.TableEvent]:
        uid = tag.uid
        self.trail.left(uid, zone, t)
        if self.tournament is not None and self.tournament.chip_left(zone, tag):
            return []
        if zone == "pot":
            self.trail.left_pot(uid, t)
        h, hb = self.play.hand, self.play.hb
        if h is None or hb is None or h.phase == "ended":
            return []
        if zone == "pot":
            if h.phase == "showdown":   # decided (ended is out above): every chip of a push leaves the pot
                return []
            events = hb.chip_from_pot(t, tag)
        else:
            seat = BET_OF[zone]
            if seat is None or uid in h.award.pushed_chips:
                return []
            events = hb.chip_left(t, seat, tag)
        return self.referee.betting_events(events) if events else events


def _still_landing(t: float, leaving: dict[str, float]) -> bool:
    """A chip that left the pot less than OFF_TABLE_AFTER_S ago may still land somewhere."""
    for t0 in leaving.values():
        if t - t0 < OFF_TABLE_AFTER_S:
            return True
    return False
