"""A tournament table's seats in the engine: the starting stack, the draw for the button (Tournaments 29), the
blinds' seats under the dead button and heads-up (Tournaments 30, 31) and eliminations with their finishing
place (Tournaments 35). The part :class:`TournamentSeats` owns the draw and the places; the rulings themselves
are the pure functions of ``dealerbox/tournament/table.py``, imported only when a tournament is played (a cash
table never loads it).
"""

from __future__ import annotations

from .. import events as te
from typing import TYPE_CHECKING

from ..betting import TableBetting
from ..play import Play
from ..referee import Referee
from ..seating import Seating
from ...config import Config
from .entrants import Entrants
from .levels import Levels
from .moves import TableMoves

if TYPE_CHECKING:
    from ...tournament.config import Tournament
from ..cards.misdeal import Ruling as EngineRuling
from ..zones import zone_seat


class TournamentSeats:
    """A tournament table's seats for the ``event``: the draw for the button, the blinds' seats, the players out
    and their places; seats and the button from ``seating``, the level and the players left from ``levels``,
    the floor's counts from ``moves``, a rebuy owed on leaving from ``entrants``."""

    def __init__(self, config: Config, event: Tournament | None, play: Play, referee: Referee, seating: Seating,
                 betting: TableBetting, levels: Levels, entrants: Entrants, moves: TableMoves) -> None:
        self.config = config
        self.event = event
        self.play = play
        self.referee = referee
        self.seating = seating
        self.betting = betting
        self.levels = levels
        self.entrants = entrants
        self.moves = moves
        self.draw: dict[int, str] = {}           # the draw for the button: seat -> card seen face up in its zone
        self.drawn_button: int | None = None     # the seat the draw gave the button, until the first deal starts
        self.players_at_deal: int | None = None  # players left in the event when the running hand was dealt
        self.places: dict[int, int | None] = {}  # seat -> finishing place of the players out at this table

    # --- the engine's two hooks: a hand starts, its deal starts ---------------------------------------------
    def hand_start(self, t: float) -> list[te.TableEvent]:
        """A hand starts at a tournament table: the stacks it starts with (Tournaments 35), its level (7)."""
        self.levels.hand_starts(dict(self.betting.stacks))
        out = self.levels.level_for_hand(t) if self.event is not None else []
        self.players_at_deal = self._players_in_event()
        return out

    def deal_started(self, t: float) -> list[te.TableEvent]:
        """The first card left the shoe: the button the draw gave (29), the blinds' seats (30, 31), the posts
        against the level (7). Nothing at a cash table."""
        if not self.config.is_tournament:
            return []
        out = self._first_deal_button(t)
        play = self.play
        if play.running():
            out += self._blind_seats_check(t)
        hb = play.hb
        # misplaced blinds are not the level's fault
        if play.running() and hb is not None and not hb.heads_up_blinds_ruled:
            out += self.levels.posts_at_level(t)
        return out

    # --- Tournaments 29 ----------------------------------------------------------------------------------
    def draw_card(self, t: float, zone: str, card: str, face_up: bool) -> bool:
        """A card turned face up into a seat zone before the event's first deal is a draw for the button, not
        a deal (True). Anything else is left to the deal (False)."""
        if not (self.config.is_tournament and face_up and self.play.hand_no is None and self.play.hands_before == 0):
            return False
        seat = zone_seat(zone)
        if seat is None or seat not in self.seating.occupied:
            return False
        from ...tournament.table import button_by_high_card
        self.draw[seat] = card
        self.drawn_button = button_by_high_card(self.draw).seats[0]
        return True

    def _first_deal_button(self, t: float) -> list[te.TableEvent]:
        """The first card of the event left the shoe: the button is where the draw put it, or it is a misdeal
        (Tournaments 29, in place of Misdeals 1(g) for this deal)."""
        if not self.draw:
            return []
        from ...tournament.table import button_by_high_card
        drawn, self.draw, self.drawn_button = self.draw, {}, None
        seating = self.seating
        r = button_by_high_card(drawn, seating.puck)
        if r.outcome == "misdeal":
            seating.redeal_from_draw(r.seats[0])   # the puck check of the deal says nothing more
        return self.levels.rulings(t, [r])

    # --- Tournaments 30, 31 ------------------------------------------------------------------------------
    def _blind_seats_check(self, t: float) -> list[te.TableEvent]:
        """The deal starts: blinds put in at other seats than the dead button (three or more players) or the
        heads-up rule places them are a misdeal before any action (Tournaments 30, 31)."""
        hb = self.play.hb
        if hb is None or hb.lost or hb.heads_up_blinds_ruled:
            return []
        pos, game = hb.positions, self.betting.game
        big_blind = pos.big_blind
        if big_blind is None:
            return []
        from ...tournament.table import Positions, check_blinds
        players = set(hb.order)
        if pos.heads_up:
            expected = Positions(pos.button, pos.button, big_blind, False, False)
        elif self.config.table.button == "dead" and len(players) > 2:
            sb = pos.small_blind
            expected = Positions(hb.button, sb if sb is not None else hb.button, big_blind,
                                 hb.button not in players, sb is None)
        else:
            return []
        chips = {s: b.present for s, b in hb.seats.items()}
        seats = hb.seats

        def posted(seat: int | None, amount: int) -> bool:   # the amount, or all in for less
            return seat in chips and (chips[seat] == amount or (0 < chips[seat] < amount and seats[seat].all_in))

        want_sb = None if expected.dead_small_blind else expected.small_blind
        small = want_sb if posted(want_sb, game.small_blind) else next(
            (s for s in hb.order if chips[s] == game.small_blind), want_sb)
        big = expected.big_blind if posted(expected.big_blind, game.big_blind) else next(
            (s for s in hb.order if chips[s] == game.big_blind and s != small), None)
        if big is None:
            return []       # a blind not posted at all is Blinds 10, judged elsewhere
        r = check_blinds(expected, small, big, action_started=False)
        if r is None:
            return []
        hb.blinds_ruled()
        return self.levels.rulings(t, [r])

    # --- Tournaments 35 ----------------------------------------------------------------------------------
    def eliminations(self, t: float, stacks: dict[int, int]) -> list[te.TableEvent]:
        """A complete hand ended: every player it left without chips is out, placed by the chips they started
        the hand with (Tournaments 35), and leaves the table. The last player left wins the event."""
        levels, hand_no = self.levels, self.play.hand_no
        hand_stacks = levels.hand_stacks
        busted = {s: hand_stacks[s] for s, stack in stacks.items() if stack == 0 and hand_stacks.get(s, 0) > 0}
        if not busted:
            return []
        from ...tournament.table import finishing_places
        remaining = self.players_at_deal
        rule = self.referee.rule
        out: list[te.TableEvent] = []
        if remaining is not None and len(busted) <= remaining:
            eliminations, rulings = finishing_places(busted, remaining)
            for e in eliminations:
                self.places[e.seat] = e.place
                out.append(te.PlayerEliminated(t, hand_no, e.seat, e.place, e.chips_at_start))
            out += levels.rulings(t, list(rulings))
            if self._counted_only():
                out += rule(t, [EngineRuling(
                    "tournament.35", "continues", f"Place(s) from the floor's player counts of plan "
                    f"{self.moves.counted_plan}: busts at other tables since then are not known here; the floor "
                    "confirms", tuple(sorted(busted)), severity="floor")])
        else:
            # players left in the event unknown (a multi-table event, no clock or counts from the floor)
            for seat, chips in sorted(busted.items()):
                self.places[seat] = None
                out.append(te.PlayerEliminated(t, hand_no, seat, None, chips))
                out += rule(t, [EngineRuling(
                    "tournament.35", "continues", f"Seat {seat} is out (started the hand with {chips}); the floor "
                    "gives the place: this table has no count of the players left in the event (no clock or "
                    "counts from the floor)", (seat,), severity="floor")])
        for seat in sorted(busted):
            self.seating.bust(seat)
            out += self.entrants.owed_on_leaving(t, seat) + self.betting.leave(t, seat)
        if remaining is not None:
            left = remaining - len(busted)
            if levels.players_left is not None:
                levels.players_out(left)
            elif self.moves.counted is not None:
                self.moves.busted_to(left)
            winners = [s for s, stack in stacks.items() if stack > 0]
            if left == 1 and len(winners) == 1:
                self.places[winners[0]] = 1
                out.append(te.TournamentWon(t, hand_no, winners[0], stacks[winners[0]]))
        return out

    def _players_in_event(self) -> int | None:
        """Players left in the whole event as a hand is dealt: the floor's count, or this table's players in a
        single-table event; None when neither is known."""
        levels = self.levels
        if levels.players_left is not None:
            return levels.players_left
        if self.event is not None and len(self.event.tables) <= 1:
            return sum(1 for s in self.seating.occupied if levels.hand_stacks.get(s, 0) > 0)
        return self.moves.counted     # the floor's last counts of every table, if it sent any

    def _counted_only(self) -> bool:
        """The players left come from the floor's counts with its last plan, not from a clock or this table."""
        single = self.event is not None and len(self.event.tables) <= 1
        return self.levels.players_left is None and not single and self.moves.counted is not None
