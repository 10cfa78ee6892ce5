"""Tournament play at the table (Tournaments 21, 22, 23, 28): what changes in the play of a hand when the
table is a tournament table, and the floor's clock as far as those rows need it (the level, the players
left in the event). A part of :class:`engine.table.Engine`; at a cash table nothing here raises anything.

The rulings themselves are the tournament package's (``dealerbox.tournament.table``): it is imported when a
tournament table needs it, so a cash table never loads the tournament package (nor its jsonschema).
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

from . import events as te
from . import inputs as ev
from .misdeal import Ruling
from .betting.structures import LIMIT

if TYPE_CHECKING:   # the type only: a cash table never loads the tournament package
    from ..tournament.ruling import Ruling as TournamentRuling


def engine_ruling(r: TournamentRuling) -> Ruling:
    """A tournament ruling (``dealerbox.tournament.ruling.Ruling``) as the engine raises it."""
    return Ruling(r.rule, r.outcome, r.ruling, tuple(r.seats), severity=r.severity)


class TournamentPlayRules:
    """Mixed into :class:`engine.table.Engine`."""

    floor_level: int | None = None          # the level the floor's clock last said (a "floor-clock" input)
    deck_change_allowed = False             # a dealer change or a damaged card since the deck came in

    def _tournament_table(self) -> bool:
        """A tournament table: the tournament rows apply here and nowhere else."""
        return self.tournament is not None or self.config.is_tournament

    def _tournament_level(self) -> int:
        """The level playing now: the engine's level clock (engine/tournament_levels.py) once it runs, else the
        floor clock's (a table marked a tournament table without an event file has no clock), else the first."""
        if self.clock_seen is not None:
            return self.clock_seen.level
        return self.floor_level or 1

    def _players_left(self) -> int:
        """Players left in the event; unknown (no clock from the floor yet) counts as more than two."""
        return self.players_left if self.players_left is not None else 1_000_000   # tournament_levels keeps it

    # --- the dealer's taps and the floor's inputs ----------------------------------------------------------
    def _tournament_tap(self, e: ev.DealerInput) -> list[te.TableEvent] | None:
        """A tap or floor input as a tournament table reads it; None when the usual handling follows."""
        if not self._tournament_table():
            return None
        a = e.action
        if a == "floor-clock":
            self._floor_clock_seen(e)
            # the level clock follows the floor; a level it leaves prompts its colour-ups (_clock_tick)
            return self._floor_clock(e)
        if a in ("sign-in", "deck-damaged"):
            self._dealer_changed(e)
            return [] if a == "deck-damaged" else None
        if a == "exposed" and self._running():
            return self._player_showed(e)
        if a == "chip-race":
            return self._race_tap(e.t)
        if a == "end-level":
            return self._end_level_tap(e.t)
        if a == "declare-raise" and e.amount and e.seat is not None and self._running():
            self.hb.amount_said = self.hb.amount_said | {e.seat}   # several moves may make it (Tournaments 23)
            return None
        return self._entrant_tap(e)

    # --- the floor's clock --------------------------------------------------------------------------------
    def _floor_clock_seen(self, e: ev.DealerInput) -> None:
        """The floor's level, for a table marked a tournament table without its event file (it has no level
        clock of its own). The level clock counts a payload that does not read, and keeps the players left."""
        try:
            clock = json.loads(e.detail or "")
        except ValueError:
            return
        level = clock.get("level") if isinstance(clock, dict) else None
        if isinstance(level, int) and level >= 1:
            self.floor_level = level

    # --- the hand --------------------------------------------------------------------------------------------
    def _play_rules_at_start(self) -> None:
        """Set this hand's betting to the tournament's cap (Tournaments 22) and string-bet rule (23)."""
        self.race = None     # a hand dealt ends a race left open (unconfirmed awards too): its chips are bets again
        hb = self.hb
        if hb.structure.kind == LIMIT:
            hb.tournament_cap = self._players_left() > 2
        else:
            hb.string_bet_rule = "tournament.23"

    def _player_showed(self, e: ev.DealerInput) -> list[te.TableEvent] | None:
        """The ``exposed`` tap naming a seat during the deal: that player showed cards (Tournaments 21). The
        hand is live; the floor weighs a penalty, unless only two players remain in the event. None when
        the tap is the dealer's exposure (no seat, or the deal is over): the card rules take it."""
        h = self.hand
        if e.seat is None or h is None or h.deal.finished:
            return None
        from ..tournament.table import cards_shown_during_deal   # only a tournament table loads it
        r = cards_shown_during_deal(e.seat, self._players_left())
        return self._rulings(e.t, [engine_ruling(r)]) if r is not None else []

    def _tournament_deck_changed(self, t: float, new_deck: str) -> list[te.TableEvent]:
        """A new deck id at a tournament table: allowed with a dealer change or for a damaged card, never on
        request (Tournaments 28, in place of Procedures 21)."""
        from ..tournament.table import deck_changed
        allowed, self.deck_change_allowed = self.deck_change_allowed, False
        r = deck_changed(self.deck_id, new_deck, dealer_changed=allowed, damaged_card=False)
        return self._rulings(t, [engine_ruling(r)]) if r is not None else []

    def _dealer_changed(self, e: ev.DealerInput) -> None:
        """A new dealer signing in may bring a new deck (Tournaments 28)."""
        if e.action == "sign-in" and e.by and e.by != self.dealer:
            self.deck_change_allowed = True
        elif e.action == "deck-damaged":
            self.deck_change_allowed = True
