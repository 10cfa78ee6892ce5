"""Who is dealt in at a tournament table (Tournaments 3, 5, 9, 11, 33): every paid seat, present or not, and a
seat held for a late entrant; an away player's hand killed at the last starting card; rebuys within the
event's limits. The part :class:`Entrants` owns them; the rulings are ``dealerbox.tournament.entrants``'.

The dealer's taps: ``away`` (the player stepped away: still dealt in and posted for), ``back-in`` (back),
``seat-sold`` (a held late-entry seat is sold), ``rebuy`` (announced before the deal: it binds, and the player
owes it until ``rebuy-paid``; each hand dealt meanwhile reminds the dealer, and a player leaving owing it is
the floor's).
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from .. import events as te
from .. import inputs as ev
from ..betting import TableBetting
from ..play import Play
from ..referee import Referee
from ..seating import Seating
from ...config import Config
from ..cards.misdeal import Ruling
from .ruling import engine_ruling

if TYPE_CHECKING:   # the type only: a cash table never loads the tournament package
    from ...tournament.entrants import Entitled
    from ...tournament.config import Tournament
    from ...tournament.ruling import Ruling as TournamentRuling


class Entrants:
    """The seats a tournament table deals in, for the ``event`` (None: a table marked a tournament table without
    its file); seats from ``seating``, stacks from ``betting``. The level is handed in by the caller."""

    def __init__(self, config: Config, event: Tournament | None, play: Play, referee: Referee, seating: Seating,
                 betting: TableBetting) -> None:
        self.config = config
        self.event = event
        self.play = play
        self.referee = referee
        self.seating = seating
        self.betting = betting
        self.away: set[int] = set()              # marked away by the dealer (Tournaments 9)
        self.held_open: set[int] = set()         # late-entry seats seated for their stack, not yet sold (5)
        self.sold: set[int] = set()              # late-entry seats sold
        self.rebuys_made: dict[int, int] = {}    # seat -> rebuys taken (Tournaments 33)
        self.rebuys_owed: dict[int, int] = {}    # seat -> rebuys taken and not yet paid (``rebuy-paid``)
        self.event_played = False                # a deal of the event has been played here (Tournaments 3)
        self.away_ruled: int | None = None       # the hand whose away hands were ruled at the last card
        self.entitled_at_start: Entitled | None = None   # the seats dealt in, as this hand started

    def entitled_now(self, level: int) -> Entitled:
        """The seats dealt in now: the paid ones (chips on the table), the away among them and, with the event's
        file, the late-entry seats held at this table (``dealerbox.tournament.entrants``)."""
        from ...tournament.entrants import Entitled, entitled   # only a tournament table loads the package
        stacks = self.betting.stacks
        paid = {s for s in self.seating.occupied if stacks.get(s, 0) > 0} - self.held_open
        if self.event is None:      # table.kind = "tournament" without the event's file: no held seats
            return Entitled(frozenset(paid), frozenset(self.away & paid), frozenset())
        return entitled(self.event, self.config.table.id, paid, self.away, level, frozenset(self.sold))

    # --- taps --------------------------------------------------------------------------------------------------
    def tap(self, e: ev.DealerInput, level: int) -> list[te.TableEvent] | None:
        """The entrant taps at a tournament table; None when the usual handling of the tap follows."""
        seat = e.seat
        if e.action in ("away", "sit-out") and seat is not None:   # a tournament player is blinded, never sat out
            if seat in self.seating.occupied:
                self.away.add(seat)
            return []
        if e.action == "back-in" and seat is not None:
            self.away.discard(seat)
            return None
        if e.action == "seat-sold" and seat is not None:
            self.sold.add(seat)
            self.held_open.discard(seat)
            return []
        if e.action == "rebuy" and seat is not None and self.event is not None:
            return self._rebuy(e.t, seat, level, self.event)
        if e.action == "rebuy-paid" and seat is not None:
            return self._rebuy_paid(e.t, seat)
        return None

    def _rebuy_paid(self, t: float, seat: int) -> list[te.TableEvent]:
        """The player paid a rebuy they owed; a payment nobody owed is said, and changes nothing."""
        owed = self.rebuys_owed.get(seat, 0)
        if not owed:
            return self.referee.rule(t, [Ruling("tournament.33", "continues", f"Seat {seat} owes no rebuy: nothing "
                                                "to take", (seat,), severity="info")])
        if owed == 1:
            del self.rebuys_owed[seat]
        else:
            self.rebuys_owed[seat] = owed - 1
        return []

    def _rebuys_owed_at_start(self, t: float, order: tuple[int, ...]) -> list[te.TableEvent]:
        """A hand is dealt while rebuys are owed: remind the dealer, once a hand (Tournaments 33)."""
        owing = sorted(s for s in self.rebuys_owed if s in order)
        if not owing or self.event is None:
            return []
        said = ", ".join(f"seat {s} ({self.rebuys_owed[s] * self.event.rebuy_chips:,} chips)" for s in owing)
        return self.referee.rule(t, [Ruling("tournament.33", "continues", f"Rebuy owed, playing on the chips it "
                                            f"bought: {said}. Collect it; tap Rebuy paid", tuple(owing),
                                            severity="dealer")])

    def owed_on_leaving(self, t: float, seat: int) -> list[te.TableEvent]:
        """A player leaving the table (out, moved) while owing a rebuy: the floor collects it."""
        owed = self.rebuys_owed.pop(seat, 0)
        if not owed or self.event is None:
            return []
        return self.referee.rule(t, [Ruling("tournament.33", "continues", f"Seat {seat} left owing {owed} "
                                            f"rebuy(s) ({owed * self.event.rebuy_chips:,} chips): the floor "
                                            "collects", (seat,), severity="floor")])

    def _rebuy(self, t: float, seat: int, level: int, event: Tournament) -> list[te.TableEvent]:
        """A rebuy announced: it binds within the event's limits, else it is refused (Tournaments 33)."""
        from ...tournament.entrants import rebuy_announced, rebuy_refused
        stack = self.betting.stacks.get(seat, 0)
        made = self.rebuys_made.get(seat, 0)
        refused = rebuy_refused(event, level, stack, made)
        out = self.referee.rule(t, [engine_ruling(rebuy_announced(event, seat, level, stack, made))])
        if refused:
            return out
        self.rebuys_made[seat] = made + 1
        self.rebuys_owed[seat] = self.rebuys_owed.get(seat, 0) + 1
        self.seating.sit(seat)
        return out + self.betting.rebuy(t, seat, event.rebuy_chips)

    # --- the deal ----------------------------------------------------------------------------------------------
    def before_deal(self, t: float, level: int) -> list[te.TableEvent]:
        """Before the button and the seats dealt in are fixed: a late-entry seat still held gets its stack on
        the table, so it is dealt in and posted for like an away player (Tournaments 5)."""
        if self.play.last_hand is not None and not self.seating.keep_button:
            self.event_played = True
        if self.event is None:
            return []
        out: list[te.TableEvent] = []
        seating = self.seating
        for seat in sorted(self.entitled_now(level).held):
            if seat not in seating.occupied and seat <= seating.seats:
                seating.sit(seat)
                self.held_open.add(seat)
                out += self.betting.sit(t, seat, self.event.starting_stack)
        return out

    def at_start(self, t: float, level: int) -> list[te.TableEvent]:
        """The hand has started: prompt the dealer to post for the away and held seats dealt in (5, 9)."""
        from ...tournament.entrants import check_deal
        h = self.play.hand
        assert h is not None
        e = self.entitled_now(level)
        # a seat still held once the late entry closes is posted for until the floor has its stack removed
        e = replace(e, held=e.held | frozenset(self.held_open & set(h.order)))
        self.entitled_at_start = e
        rulings = [engine_ruling(r) for r in check_deal(e, set(h.order), not self.event_played)
                   if r.outcome == "continues"]
        return self.referee.rule(t, rulings) + self._rebuys_owed_at_start(t, h.order)

    def retell(self, rulings: list[Ruling]) -> list[Ruling]:
        """A seat entitled to a hand and dealt out is cited as the tournament rule: Tournaments 3 at the event's
        first deal, 9 for an away or a held seat; a present seat later stays Misdeals 1(j)."""
        out: list[Ruling] = []
        for r in rulings:
            found = self._dealt_out() if r.rule == "misdeal.1j" and r.outcome == "misdeal" else None
            out.append(Ruling(found.rule, "misdeal", found.ruling + ". Cards back to the shoe, reshuffle, same "
                              "button; every chip goes back to whoever put it in.", found.seats)
                       if found else r)
        return out

    def _dealt_out(self) -> TournamentRuling | None:
        """The tournament's misdeal for the seats this deal left out, or None when Misdeals 1(j) stands."""
        e, h = self.entitled_at_start, self.play.hand
        if e is None or h is None:
            return None
        from ...tournament.entrants import check_deal
        dealt = {s for s in h.order if h.deal.held.get(s)}
        return next((x for x in check_deal(e, dealt, not self.event_played) if x.outcome == "misdeal"), None)

    def away_hands_dead(self, level: int) -> list[Ruling]:
        """At the last starting card: the away players not back have dead hands (Tournaments 11)."""
        h = self.play.hand
        if h is None or not h.deal.dealt_all or self.away_ruled == h.number or not self.away & set(h.order):
            return []
        self.away_ruled = h.number
        from ...tournament.entrants import away_hand_dead
        r = away_hand_dead(self.entitled_now(level), self.away & set(h.order), True)
        return [engine_ruling(r)] if r is not None else []
