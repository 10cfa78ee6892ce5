"""A tournament table's seats in the engine: the starting stack, the draw for the button (Tournaments 29), the
blinds' seats under the dead button and heads-up (Tournaments 30, 31) and eliminations with their finishing
place (Tournaments 35). A part of :class:`engine.table.Engine`; the rulings themselves are the pure functions of
``dealerbox/tournament/table.py``, imported only when a tournament is played (a cash table never loads it).
"""

from __future__ import annotations

from . import events as te
from . import inputs as ev
from .misdeal import Ruling as EngineRuling
from .zones import zone_seat


class TournamentSeats:
    """Mixed into :class:`engine.table.Engine`."""

    def _seats_setup(self) -> None:
        self.draw: dict[int, str] = {}           # the draw for the button: seat -> card seen face up in its zone
        self.drawn_button: int | None = None     # the seat the draw gave the button, until the first deal starts
        self.players_at_deal: int | None = None  # players left in the event when the running hand was dealt
        self.places: dict[int, int | None] = {}  # seat -> finishing place of the players out at this table

    def _sit_amount(self, e: ev.DealerInput) -> int:
        """A player sits: at a tournament table with the tournament's starting stack unless the tap names the
        stack (a player moved in from another table brings theirs)."""
        if e.amount:
            return e.amount
        return self.tournament.starting_stack if self.tournament is not None else self.config.game.buy_in

    # --- the engine's two hooks: a hand starts, its deal starts ---------------------------------------------
    def _tournament_hand_start(self, t: float) -> list[te.TableEvent]:
        """A hand starts at a tournament table: the stacks it starts with (Tournaments 35), its level (7)."""
        self.hand_stacks = dict(self.betting.stacks)
        out = self._level_for_hand(t) if self.tournament is not None else []
        self.players_at_deal = self._players_in_event()
        return out

    def _tournament_deal_started(self, t: float) -> list[te.TableEvent]:
        """The first card left the shoe: the button the draw gave (29), the blinds' seats (30, 31), the posts
        against the level (7). Nothing at a cash table."""
        if not self.config.is_tournament:
            return []
        out = self._first_deal_button(t)
        if self._running():
            out += self._blind_seats_check(t)
        if self._running() and not self.hb.heads_up_blinds_ruled:   # misplaced blinds are not the level's fault
            out += self._posts_at_level(t)
        return out

    # --- Tournaments 29 ----------------------------------------------------------------------------------
    def _draw_card(self, t: float, zone: str, card: str, face_up: bool) -> bool:
        """A card turned face up into a seat zone before the event's first deal is a draw for the button, not
        a deal (True). Anything else is left to the deal (False)."""
        if not (self.config.is_tournament and face_up and self.hand_no is None and self.hands_before == 0):
            return False
        seat = zone_seat(zone)
        if seat is None or seat not in self.occupied:
            return False
        from ..tournament.table import button_by_high_card
        self.draw[seat] = card
        self.drawn_button = button_by_high_card(self.draw).seats[0]
        return True

    def _first_deal_button(self, t: float) -> list[te.TableEvent]:
        """The first card of the event left the shoe: the button is where the draw put it, or it is a misdeal
        (Tournaments 29, in place of Misdeals 1(g) for this deal)."""
        if not self.draw:
            return []
        from ..tournament.table import button_by_high_card
        drawn, self.draw, self.drawn_button = self.draw, {}, None
        r = button_by_high_card(drawn, self.puck)
        if r.outcome == "misdeal":
            self.disputed_puck = self.puck      # ruled here: the puck check of the deal says nothing more
            self.last_button = r.seats[0]       # the redeal's button is the drawn seat
        return self._tournament_rulings(t, [r])

    # --- Tournaments 30, 31 ------------------------------------------------------------------------------
    def _blind_seats_check(self, t: float) -> list[te.TableEvent]:
        """The deal starts: blinds put in at other seats than the dead button (three or more players) or the
        heads-up rule places them are a misdeal before any action (Tournaments 30, 31)."""
        hb = self.hb
        if hb is None or hb.lost or hb.heads_up_blinds_ruled or hb.positions.big_blind is None:
            return []
        from ..tournament.table import Positions, check_blinds
        pos, game = hb.positions, self.betting.game
        players = set(hb.order)
        if pos.heads_up:
            expected = Positions(pos.button, pos.button, pos.big_blind, False, False)
        elif self.config.table.button == "dead" and len(players) > 2:
            sb = pos.small_blind
            expected = Positions(hb.button, sb if sb is not None else hb.button, pos.big_blind,
                                 hb.button not in players, sb is None)
        else:
            return []
        chips = {s: b.present for s, b in hb.seats.items()}

        def posted(seat: int | None, amount: int) -> bool:   # the amount, or all in for less
            return seat in chips and (chips[seat] == amount or (0 < chips[seat] < amount and hb.seats[seat].all_in))

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
        hb.heads_up_blinds_ruled = True
        return self._tournament_rulings(t, [r])

    # --- Tournaments 35 ----------------------------------------------------------------------------------
    def _eliminations(self, t: float, stacks: dict[int, int]) -> list[te.TableEvent]:
        """A complete hand ended: every player it left without chips is out, placed by the chips they started
        the hand with (Tournaments 35), and leaves the table. The last player left wins the event."""
        busted = {s: self.hand_stacks[s] for s, stack in stacks.items()
                  if stack == 0 and self.hand_stacks.get(s, 0) > 0}
        if not busted:
            return []
        from ..tournament.table import finishing_places
        remaining = self.players_at_deal
        out: list[te.TableEvent] = []
        if remaining is not None and len(busted) <= remaining:
            eliminations, rulings = finishing_places(busted, remaining)
            for e in eliminations:
                self.places[e.seat] = e.place
                out.append(te.PlayerEliminated(t, self.hand_no, e.seat, e.place, e.chips_at_start))
            out += self._tournament_rulings(t, list(rulings))
            if self._counted_only():
                out += self._rulings(t, [EngineRuling(
                    "tournament.35", "continues", f"Place(s) from the floor's player counts of plan "
                    f"{self.moves.counted_plan}: busts at other tables since then are not known here; the floor "
                    "confirms", tuple(sorted(busted)), severity="floor")])
        else:
            # players left in the event unknown (a multi-table event, no clock or counts from the floor)
            for seat, chips in sorted(busted.items()):
                self.places[seat] = None
                out.append(te.PlayerEliminated(t, self.hand_no, seat, None, chips))
                out += self._rulings(t, [EngineRuling(
                    "tournament.35", "continues", f"Seat {seat} is out (started the hand with {chips}); the floor "
                    "gives the place: this table has no count of the players left in the event (no clock or "
                    "counts from the floor)", (seat,), severity="floor")])
        for seat in sorted(busted):
            self.occupied.discard(seat)
            out += self._owed_on_leaving(t, seat) + self.betting.leave(t, seat)
        if remaining is not None:
            left = remaining - len(busted)
            if self.players_left is not None:
                self.players_left = left
            elif self.moves.counted is not None:
                self.moves.counted = left
            winners = [s for s, stack in stacks.items() if stack > 0]
            if left == 1 and len(winners) == 1:
                self.places[winners[0]] = 1
                out.append(te.TournamentWon(t, self.hand_no, winners[0], stacks[winners[0]]))
        return out

    def _players_in_event(self) -> int | None:
        """Players left in the whole event as a hand is dealt: the floor's count, or this table's players in a
        single-table event; None when neither is known."""
        if self.players_left is not None:
            return self.players_left
        if self.tournament is not None and len(self.tournament.tables) <= 1:
            return sum(1 for s in self.occupied if self.hand_stacks.get(s, 0) > 0)
        return self.moves.counted     # the floor's last counts of every table, if it sent any

    def _counted_only(self) -> bool:
        """The players left come from the floor's counts with its last plan, not from a clock or this table."""
        single = self.tournament is not None and len(self.tournament.tables) <= 1
        return self.players_left is None and not single and self.moves.counted is not None
