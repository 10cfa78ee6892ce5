"""Who sits at the table and where the button is: the seats taken, the button puck, the button of the last
hand, and the rulings on a puck put on the wrong seat or a kill puck put out. :class:`Seating` owns these
facts; the hand flow asks it where the next button belongs, the taps and the tournament parts seat and unseat."""

from __future__ import annotations

from ..config import Config
from . import events as te
from .betting import TableBetting
from .cards.misdeal import Ruling, after_action, misdeal
from .cards.showdown import clockwise_from
from .play import Play
from .referee import Referee
from .zones import BET_OF, SEAT_OF, zone_seat


class Seating:
    """The seats and the button across hands, for the hand in ``play``; stacks are ``betting``'s."""

    def __init__(self, config: Config, betting: TableBetting, play: Play, referee: Referee) -> None:
        self.config = config
        self.betting = betting
        self.play = play
        self.referee = referee
        self.seats = config.table.seats
        self.occupied: set[int] = set()
        self.puck: int | None = None
        self.last_button: int | None = None      # button of the last hand started
        self.fresh_table = True                  # nobody has played since the table was (re)filled
        self.disputed_puck: int | None = None    # puck seat already ruled misdeal.1g: the dealer kept it there
        self.keep_button = False                 # misdeal or void: the same button deals again

    def entitled(self) -> list[int]:
        """The seats taken with chips, in seat order."""
        stacks = self.betting.stacks
        return [s for s in sorted(self.occupied) if stacks.get(s, 0) > 0]

    def posting(self) -> list[int]:
        """The seats a bomb pot would deal in next: taken with chips, not sitting out (in seat order)."""
        return [s for s in self.entitled() if s not in self.betting.sitting_out]

    def sit(self, seat: int) -> None:
        self.occupied.add(seat)

    def leave(self, seat: int) -> None:
        """A player left (a tap): the table emptied is a fresh table."""
        self.occupied.discard(seat)
        if not self.occupied:
            self.fresh_table, self.keep_button = True, False

    def expected_button(self, entitled: list[int], drawn_button: int | None) -> int | None:
        """Where the button belongs: the same seat after a misdeal, else where engine.betting's rotation puts
        it (moving or dead button, Blinds 1); at a fresh table, the seat the draw gave (Tournaments 29) or
        wherever the dealer put the puck."""
        if not entitled:
            return None
        if self.disputed_puck is not None and self.puck == self.disputed_puck:
            return self.puck    # ruled once already and the dealer left it there: follow the puck
        self.disputed_puck = None
        if self.keep_button and self.last_button is not None:
            return self.last_button
        if not self.fresh_table and self.last_button is not None:
            # Blinds 1: engine.betting keeps the blind history and knows who the next button would deal in
            button = self.betting.button_for(self.occupied, self.last_button)
            if button is not None:
                return button
            return clockwise_from(self.last_button, entitled, self.seats)[0]
        if drawn_button in entitled:
            return drawn_button
        return self.puck if self.puck is not None else entitled[0]

    def hand_started(self, button: int) -> None:
        self.keep_button = False
        self.fresh_table = False
        self.last_button = button

    def hand_voided(self) -> None:
        """A misdeal or void ended the hand: the same button deals again."""
        self.keep_button = True

    def hand_played_out(self) -> None:
        """The dealer played a voided hand out to its end: the button moves on after all."""
        self.keep_button = False

    def puck_ruled(self, seat: int) -> None:
        """The puck on ``seat`` was ruled misdeal.1g as the deal started: if the dealer leaves it there, the
        next hand follows it."""
        self.disputed_puck = seat

    def redeal_from_draw(self, button: int) -> None:
        """The first deal of a tournament was a misdeal against the draw (Tournaments 29): the redeal's button is
        the drawn seat, and the puck where it lies was ruled already."""
        self.disputed_puck = self.puck
        self.last_button = button

    def bust(self, seat: int) -> None:
        """A tournament player is out: the seat is empty (the table is not made fresh by it)."""
        self.occupied.discard(seat)

    # --- the pucks -----------------------------------------------------------------------------------------
    def puck_entered(self, t: float, zone: str) -> list[te.TableEvent]:
        seat = zone_seat(zone)
        if seat is None:
            return []
        self.puck = seat
        play = self.play
        out: list[te.TableEvent] = [te.ButtonMoved(t, play.hand_no, seat)]
        h = play.hand
        if h is not None and play.running() and not h.decided and h.cards_out and seat != h.button:
            text = f"the button puck was put on seat {seat}; this hand's button is seat {h.button}"
            if play.window():
                out += self.referee.rule(t, misdeal("misdeal.1g", text, True, seats=(seat, h.button)))
            else:
                out += self.referee.rule(t, after_action("misdeal.1g", text, seats=(seat, h.button)) + [Ruling(
                    "irregularity.1", "continues", f"The button was misplaced this hand: for the next hand put it "
                    f"where the rotation from seat {h.button} says, so every player gets each position once.",
                    (seat, h.button))])
        return out

    def puck_left(self, zone: str) -> None:
        if SEAT_OF[zone] == self.puck:
            self.puck = None

    def kill_puck(self, t: float, zone: str) -> list[te.TableEvent]:
        """The kill button put in front of a seat (its seat or bet zone): engine.betting knows who holds it. While
        a decided pot is being pushed the dealer may already be moving it to the winner: not judged then."""
        seat = SEAT_OF[zone] or BET_OF[zone]
        h = self.play.hand
        if seat is None or (h is not None and h.phase != "ended" and h.decided):
            return []
        return self.betting.kill_puck(t, seat)
