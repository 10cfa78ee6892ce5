"""The draws of a draw game (deuce-to-seven triple draw): no board; between the betting rounds each player in turn
throws cards away and the dealer gives as many from the stub (docs/draw.md).

The antennas see a draw as a seat's discards leaving its zone for the muck and the same number of cards arriving
from the shoe at that seat. A draw begins when a betting round is complete (the next round's betting waits for
it); while it is being dealt a hole card to the muck is a discard, not a fold, and a card from the shoe to a seat
is its replacement, not an extra card. The first betting action of the next round ends it. A player who stands
pat is seen by nothing: the seats after it draw, and the screen shows it as no cards drawn; the dealer may tap
``stand-pat`` for it (the player's knock), which is what ends a draw when nobody is left to bet (all in).

The hand keeps the record (``Hand.draws``, cards/draws.py); :class:`DrawFlow` follows the cards for ``CardFlow``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...tags import CardTag
from .. import events as te
from .hand import Hand
from .misdeal import Ruling

if TYPE_CHECKING:
    from ..referee import Referee

STREET_AFTER = ("flop", "turn", "river")     # the betting round after draw 1, 2, 3 (the limits' small and big bet)


class DrawFlow:
    """Follows the draws of a hand for :class:`CardFlow`: a discard, a replacement, the draw's start at the end of
    a betting round (``HandFlow.progress`` asks ``due``)."""

    def __init__(self, draws: int, referee: Referee) -> None:
        self.draws = draws          # the game's draws (0: not a draw game)
        self.referee = referee

    def due(self, h: Hand, live: list[int]) -> bool:
        """The betting round is complete: is a draw to begin? (Not after the last draw, nor before the deal is
        over; after a round where nobody could act, all in, once every one of ``live`` drew or was tapped as
        standing pat, or a discard says so: ``repeat``.)"""
        d = h.draws
        if self.draws == 0 or not h.deal.finished or d.number >= self.draws:
            return False
        if not d.dealing:
            return h.actions_on_street > 0 or h.street == "preflop"
        return h.actions_on_street == 0 and d.complete(live)   # all in: every live seat had its turn

    def stand_pat(self, t: float, h: Hand, seat: int) -> list[te.TableEvent]:
        """The ``stand-pat`` tap: ``seat`` throws nothing in the draw under way (CardsDrawn with no card)."""
        if not self.drawing(h) or not h.draws.stood_pat(seat):
            return []
        return [te.CardsDrawn(t, h.number, seat, h.draws.number, 0)]

    def begin(self, h: Hand) -> str:
        """The next draw begins: the street its betting round is on."""
        h.deal.draw_begins()
        return STREET_AFTER[h.draws.number - 1]

    def discard(self, t: float, h: Hand, seat: int, tag: CardTag) -> list[te.TableEvent]:
        """A hole card of ``seat`` reached the muck during a draw: thrown away, no longer its seat's."""
        h.deal.thrown_away(seat, tag.uid)
        return []

    def replacement(self, t: float, h: Hand, seat: int, tag: CardTag, face_up: bool) -> list[te.TableEvent]:
        """A card from the stub reached ``seat`` during a draw: one of the cards it drew; ``seat``'s draw is told
        (``CardsDrawn``) once, when it has all it threw. One that came face up is exposed, and out of play."""
        out: list[te.TableEvent] = [te.CardDealt(t, h.number, seat, tag.card, face_up)]
        if face_up:
            h.draws.set_aside(tag.uid)   # dead in the muck: it may go back to a stub run short, as a discard does
            return out + self.exposed(t, seat, tag.card)
        if h.deal.drawn(seat, tag.uid):
            out.append(te.CardsDrawn(t, h.number, seat, h.draws.number, h.draws.drawn(seat)))
        return out

    def exposed(self, t: float, seat: int, card: str) -> list[te.TableEvent]:
        """``card``, dealt to ``seat`` in the draw, came face up: exposed by the dealer (Irregularities 12), which the
        player may not keep or refuse (13); the game's own rule (the Lowball section) is not in our rules text, so
        the house's procedure: out of play, to the muck, and ``seat`` gets the next card (docs/draw.md). It is no
        card of the seat's hand: its way to the muck is no discard, and the next card is the one drawn."""
        return self.referee.rule(t, [Ruling(
            "irregularity.12", "card-replaced", f"{card}, dealt to seat {seat} in the draw, came face up: an exposed "
            f"card, which seat {seat} may neither keep nor refuse. It is out of play: put it in the muck; seat {seat} "
            "gets the next card.", (seat,), (card,))])

    def astray(self, t: float, h: Hand, seat: int, landed: int, tag: CardTag) -> list[te.TableEvent]:
        """In a draw, a card ``seat`` threw landed in ``landed``'s hand: a discard, dead on its own (Dead Hands 3: it
        is no card of either hand). The thrower keeps the rest and draws as usual; ``landed`` keeps its own cards."""
        h.deal.thrown_away(seat, tag.uid)
        return self.referee.info(t, "dead-hand.3", f"A card seat {seat} threw in the draw landed in seat {landed}'s "
                                 "hand: a discard, dead on its own (the tags say which is whose); put it in the muck. "
                                 f"Seat {seat} keeps the rest of its hand and is given its cards as usual; seat "
                                 f"{landed} keeps its own.", (seat, landed))

    def drawing(self, h: Hand) -> bool:
        """A draw is being dealt in the hand: a hole card to the muck is a discard, a card to a seat a
        replacement."""
        return self.draws > 0 and h.draws.dealing and not h.decided

    def repeat(self, h: Hand, seat: int, bettors: int) -> bool:
        """Nobody could bet on the round after the draw (all in: fewer than two of the hand's seats, ``bettors``,
        can still bet): ``seat`` discarding again once its cards for this draw came means the next draw began. With
        betting left, the next draw waits for the round's action: a card back to the muck (a replacement that came
        face up, taken out) is one more discard of this draw."""
        d = h.draws
        return (self.draws > 0 and bettors < 2 and d.dealing and d.number < self.draws and h.actions_on_street == 0
                and d.drawn(seat) > 0 and d.owed(seat) == 0)

    def last_drawn(self, h: Hand, live: list[int]) -> bool:
        """All in after the last draw, nobody betting: the last hand in turn has its cards (its discards replaced);
        the showdown follows; or every one of ``live`` had its turn, the standers tapped (docs/draw.md)."""
        if not live or not h.draws.dealing:
            return False
        last = live[-1]
        return (h.draws.drawn(last) > 0 and h.draws.owed(last) == 0) or h.draws.complete(live)
