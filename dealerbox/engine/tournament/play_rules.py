"""Tournament play at the table (Tournaments 21, 22, 23, 28): what changes in the play of a hand when the
table is a tournament table, and the floor's clock as far as those rows need it (the level, the players
left in the event). The part :class:`PlayRules` routes a tournament table's taps; at a cash table there is none.

The rulings themselves are the tournament package's (``dealerbox.tournament.table``): it is imported when a
tournament table needs it, so a cash table never loads the tournament package (nor its jsonschema).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .. import events as te
from .. import inputs as ev
from .ruling import engine_ruling
from ..play import Play
from ..referee import Referee

if TYPE_CHECKING:   # the type only: a cash table never loads the tournament package
    from .chips import TournamentChips
    from .entrants import Entrants
    from .levels import Levels


class PlayRules:
    """A tournament table's play rules for the hand in ``play``: its taps routed to the ``levels``, the ``chips``
    (the race) and the ``entrants``; a change of the deck in use judged (Tournaments 28)."""

    def __init__(self, play: Play, referee: Referee, levels: Levels, chips: TournamentChips,
                 entrants: Entrants) -> None:
        self.play = play
        self.referee = referee
        self.levels = levels
        self.chips = chips
        self.entrants = entrants
        self.deck_change_allowed = False         # a dealer change or a damaged card since the deck came in

    # --- the dealer's taps and the floor's inputs ----------------------------------------------------------
    def tap(self, e: ev.DealerInput, dealer: str | None) -> list[te.TableEvent] | None:
        """A tap or floor input as a tournament table reads it (``dealer``: who is signed in); None when the
        usual handling follows."""
        a = e.action
        if a == "floor-clock":
            self.levels.floor_clock_seen(e)
            # the level clock follows the floor; a level it leaves prompts its colour-ups (Levels.tick)
            return self.levels.floor_clock(e)
        if a in ("sign-in", "deck-damaged"):
            self._dealer_changed(e, dealer)
            return [] if a == "deck-damaged" else None
        if a == "exposed" and self.play.running():
            return self._player_showed(e)
        if a == "chip-race":
            return self.chips.race_tap(e.t)
        if a == "end-level":
            return self.levels.end_level_tap(e.t)
        hb = self.play.hb
        if a == "declare-raise" and e.amount and e.seat is not None and hb is not None and self.play.running():
            hb.amount_said(e.seat)   # several moves may make it (Tournaments 23)
            return None
        return self.entrants.tap(e, self.levels.level())

    # --- the hand --------------------------------------------------------------------------------------------
    def at_start(self) -> None:
        """Set this hand's betting to the tournament's cap (Tournaments 22) and string-bet rule (23)."""
        self.chips.hand_dealt()
        hb = self.play.hb
        assert hb is not None
        hb.tournament_rules(cap_heads_up=self.levels.players_left_or_many() > 2)

    def _player_showed(self, e: ev.DealerInput) -> list[te.TableEvent] | None:
        """The ``exposed`` tap naming a seat during the deal: that player showed cards (Tournaments 21). The
        hand is live; the floor weighs a penalty, unless only two players remain in the event. None when
        the tap is the dealer's exposure (no seat, or the deal is over): the card rules take it."""
        h = self.play.hand
        if e.seat is None or h is None or h.deal.finished:
            return None
        from ...tournament.table import cards_shown_during_deal   # only a tournament table loads it
        r = cards_shown_during_deal(e.seat, self.levels.players_left_or_many())
        return self.referee.rule(e.t, [engine_ruling(r)]) if r is not None else []

    def deck_changed(self, t: float, old_deck: str | None, new_deck: str) -> list[te.TableEvent]:
        """A new deck id at a tournament table: allowed with a dealer change or for a damaged card, never on
        request (Tournaments 28, in place of Procedures 21)."""
        from ...tournament.table import deck_changed
        allowed, self.deck_change_allowed = self.deck_change_allowed, False
        r = deck_changed(old_deck, new_deck, dealer_changed=allowed, damaged_card=False)
        return self.referee.rule(t, [engine_ruling(r)]) if r is not None else []

    def _dealer_changed(self, e: ev.DealerInput, dealer: str | None) -> None:
        """A new dealer signing in may bring a new deck (Tournaments 28)."""
        if e.action == "sign-in" and e.by and e.by != dealer:
            self.deck_change_allowed = True
        elif e.action == "deck-damaged":
            self.deck_change_allowed = True
