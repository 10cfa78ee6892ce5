"""The simulator at a tournament table: the entrants sit with the starting stack, draw for the button by high
card, play hands at the level the clock gives and leave when they bust, until one player has every chip.

The simulated table has no floor: like a terminal on its own, the clock starts at the first deal (the first
chip posted), and each hand plays at the level running as it is dealt (Tournaments 7). A hand is never dealt
in the last seconds of a level, so the simulator and the engine, which takes the level as the hand's first
chip lands, always agree on it: a real dealer waits for the new level too.
"""

from __future__ import annotations

from dataclasses import replace

from ...config import Config
from ...engine import inputs as ev
from ...tags import ChipTag
from ...tournament.clock import Clock
from ...tournament.config import Level, Tournament
from ...tournament.ruling import card_order
from ..choreography import Choreography

DEAL_MARGIN_S = 8.0       # no hand dealt this close to the end of a level: it waits for the next one


class TournamentClock:
    """The level clock as the simulated table runs it; None until the first deal."""

    def __init__(self, tournament: Tournament) -> None:
        self.tournament = tournament
        self.clock: Clock | None = None

    def level_for_next_deal(self, c: Choreography) -> Level:
        """The level the next hand plays at, waiting (in simulated time) past a level about to end."""
        if self.clock is None:
            return self.tournament.level(1)
        view = self.clock.view(c.t)
        if view.running and view.left < DEAL_MARGIN_S and not view.is_break and view.next is not None:
            c.wait(view.left + 0.5)
        elif view.running and view.is_break:     # no hand is dealt on a break: the table waits for the next level
            c.wait(view.left + 0.5)
        return self.clock.level_for_deal(c.t)

    def hand_dealt(self, inputs: list[ev.EngineInput]) -> None:
        """After the first hand: start the clock where the engine started it, at the first chip posted."""
        if self.clock is not None:
            return
        posts = [i.t for i in inputs if isinstance(i, ev.ZoneEntered) and i.zone.startswith("bet")
                 and isinstance(i.tag, ChipTag)]
        if posts:
            self.clock = Clock.start(self.tournament, min(posts))


def at_level(config: Config, level: Level) -> Config:
    """The table's config with the game's forced bets of ``level`` (what the referee and the dealer play)."""
    game = replace(config.game, small_blind=level.small_blind, big_blind=level.big_blind, ante=level.ante,
                   big_blind_ante=level.big_blind_ante, small_bet=level.big_blind, big_bet=2 * level.big_blind)
    return replace(config, game=game)


def entrants(tournament: Tournament, seats: int) -> int:
    """How many players the simulated table seats: the event's entrants, at most the table's seats."""
    return max(2, min(tournament.entrants or seats, seats))


def draw_for_button(c: Choreography, card_uid: dict[str, str], cards: list[str], seats: list[int]) -> int:
    """Tournaments 29: one card face up to each seat, clockwise from seat 1; the highest (suits breaking ties)
    gets the button. The cards go back to the shoe. ``cards`` is shuffled; the drawn ones are its first."""
    drawn = {seat: cards[i] for i, seat in enumerate(sorted(seats))}
    for seat in sorted(seats):
        c.deal(card_uid[drawn[seat]], f"seat{seat}", face_up=True)
        c.wait(0.4)
    c.wait(1.5)
    for seat in sorted(seats):
        c.move(card_uid[drawn[seat]], f"seat{seat}", "shoe", travel=0.3)
    c.wait(1.0)
    return max(drawn, key=lambda s: card_order(drawn[s]))
