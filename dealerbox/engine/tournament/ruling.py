"""A tournament ruling as the engine raises it: one small module, so the tournament parts that raise rulings
(the race, the entrants) need not import the part that routes their taps (play_rules.py)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..cards.misdeal import Ruling

if TYPE_CHECKING:   # the type only: a cash table never loads the tournament package
    from ...tournament.ruling import Ruling as TournamentRuling


def engine_ruling(r: TournamentRuling) -> Ruling:
    """A tournament ruling (``dealerbox.tournament.ruling.Ruling``) as the engine raises it."""
    return Ruling(r.rule, r.outcome, r.ruling, tuple(r.seats), severity=r.severity)
