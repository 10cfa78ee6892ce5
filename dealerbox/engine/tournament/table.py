"""A tournament table's parts wired together: who is dealt in (:class:`Entrants`), the event's chips and the
race (:class:`TournamentChips`), the level clock (:class:`Levels`), the draw, blinds' seats and places
(:class:`TournamentSeats`) and the taps (:class:`PlayRules`). :class:`TournamentTable` is what the engine's
parts call at a tournament table; a cash table has none.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...config import Config
from ...tags import ChipTag
from .. import events as te
from .. import inputs as ev
from ..betting import TableBetting
from ..cards.misdeal import Ruling
from ..chip_trail import ChipTrail
from ..play import Play
from ..referee import Referee
from ..seating import Seating
from ..state import RaceView, TournamentView
from .chips import TournamentChips
from .entrants import Entrants
from .levels import Levels
from .moves import TableMoves
from .play_rules import PlayRules
from .seats import TournamentSeats

if TYPE_CHECKING:
    from ...tournament.config import Tournament


class TournamentTable:
    """The tournament parts of a table playing ``event`` (None: a table marked a tournament table without its
    event file), each handed what it reads; the engine's parts call the hooks below."""

    def __init__(self, config: Config, event: Tournament | None, play: Play, referee: Referee, seating: Seating,
                 betting: TableBetting, trail: ChipTrail, moves: TableMoves) -> None:
        self.config = config
        self.event = event
        self.play = play
        self.entrants = Entrants(config, event, play, referee, seating, betting)
        self.chips = TournamentChips(config, event, play, referee, betting, trail)
        # a level ended: its colour-up and race (8a)
        self.levels = Levels(config, event, play, referee, seating, betting, self.entrants, self.chips.level_changed)
        self.seats = TournamentSeats(config, event, play, referee, seating, betting, self.levels, self.entrants, moves)
        self.rules = PlayRules(play, referee, self.levels, self.chips, self.entrants)

    # --- hooks of the engine's parts ------------------------------------------------------------------------
    def tap(self, e: ev.DealerInput, dealer: str | None) -> list[te.TableEvent] | None:
        return self.rules.tap(e, dealer)

    def before_deal(self, t: float) -> list[te.TableEvent]:
        return self.entrants.before_deal(t, self.levels.level())

    def hand_start(self, t: float) -> list[te.TableEvent]:
        return self.seats.hand_start(t)

    def deck_changed(self, t: float, old_deck: str | None, new_deck: str) -> list[te.TableEvent]:
        return self.rules.deck_changed(t, old_deck, new_deck)

    def drawn_button(self) -> int | None:
        return self.seats.drawn_button

    def at_start(self, t: float) -> list[te.TableEvent]:
        self.rules.at_start()
        return self.entrants.at_start(t, self.levels.level())

    def deal_started(self, t: float) -> list[te.TableEvent]:
        return self.seats.deal_started(t)

    def away_hands_dead(self) -> list[Ruling]:
        return self.entrants.away_hands_dead(self.levels.level())

    def eliminations(self, t: float, stacks: dict[int, int]) -> list[te.TableEvent]:
        return self.seats.eliminations(t, stacks)

    def chip_entered(self, t: float, zone: str, tag: ChipTag) -> list[te.TableEvent] | None:
        return self.chips.entered(t, zone, tag, self.levels.level())

    def chip_left(self, zone: str, tag: ChipTag) -> bool:
        return self.chips.left(zone, tag)

    def view(self) -> TournamentView | None:
        return self.levels.view()

    def race_view(self) -> RaceView | None:
        return self.chips.race_view()
