"""The dealer's taps on the terminal (seat, leave, check, misdeal, exposed, award, sign-in...): each routed to
the part that owns what it changes. :class:`DealerTaps` owns who is signed in and the findings acknowledged.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..config import Config
from . import events as te
from . import inputs as ev
from .betting import TableBetting
from .cards.flow import CardFlow
from .betting.pots import split_portions
from .cards.hand import Hand
from .cards.misdeal import after_action
from .events import Pot
from .hand_flow import HandFlow
from .play import Play
from .practices import HousePractices
from .referee import Referee
from .seating import Seating
from .stacks import StackReads
from .tournament.moves import MOVE_ACTIONS, FloorMoves

if TYPE_CHECKING:
    from .tournament.table import TournamentTable


class DealerTaps:
    """A dealer's tap for the hand in ``play``: seats to ``seating`` and ``betting``, cards to ``cards``, the hand
    to ``hands``, the stack question to ``stacks``, the floor's moves to ``moves``, a tournament table's taps to
    ``tournament`` first."""

    def __init__(self, config: Config, play: Play, referee: Referee, seating: Seating, betting: TableBetting,
                 stacks: StackReads, hands: HandFlow, cards: CardFlow, moves: FloorMoves,
                 tournament: TournamentTable | None, practices: HousePractices) -> None:
        self.config = config
        self.play = play
        self.referee = referee
        self.seating = seating
        self.betting = betting
        self.stacks = stacks
        self.hands = hands
        self.cards = cards
        self.moves = moves
        self.tournament = tournament
        self.practices = practices
        self.acked: set[str] = set()             # findings acknowledged, while the table still lists them
        self.leaving: list[int] = []             # seats tapped Leave while still in the hand: they go at its end
        self.dealer: str | None = None           # who signed in on the terminal (sign-in/out)

    def forget_acks(self, listed: set[str]) -> None:
        """Keep only the acknowledgements of findings the table still lists: a month of acks (or a floor tool
        naming ids that never existed) must not grow the terminal's memory."""
        self.acked &= listed

    def tap(self, e: ev.DealerInput) -> list[te.TableEvent]:
        t, play = e.t, self.play
        a = e.action
        if a in MOVE_ACTIONS:   # the floor's moves and the dealer's confirmations (engine/tournament/moves.py)
            running = play.running_hand()
            if a == "moved-out" and e.seat is not None and running is not None and running[1].in_hand(e.seat):
                return self.moves.still_in_hand(t, e.seat)   # the seat is not empty: its hand plays on
            return self.moves.follow(e, self.tap)
        tt = self.tournament
        if tt is not None:
            tournament = tt.tap(e, self.dealer)   # None for taps a tournament reads as usual
            if tournament is not None:
                return tournament
        betting, referee = self.betting, self.referee
        if a == "sit" and e.seat is not None:
            self.seating.sit(e.seat)
            return betting.sit(t, e.seat, self._sit_amount(e))
        if a == "leave" and e.seat is not None:
            owed = tt.entrants.owed_on_leaving(t, e.seat) if tt is not None else []   # a rebuy owed (Tournaments 33)
            running = play.running_hand()
            if running is not None and running[1].in_hand(e.seat):
                if e.seat not in self.leaving:   # a live hand is played out first: the player goes when it is over
                    self.leaving.append(e.seat)
                return owed
            return owed + self._leave(t, e.seat)
        if a == "rebuy" and e.seat is not None:
            return betting.rebuy(t, e.seat, e.amount or 0)
        if a == "floor-clock":
            return []   # a cash table ignores the floor's clock (a tournament table's parts read it above)
        if a == "answer" and self.stacks.answer(e.ref, e.choice):
            return self.stacks.judged(t, play.hand_no, referee.findings)   # the stack question (engine/stacks.py)
        if a == "ack" and e.ref:
            self.acked.add(e.ref)
            return [te.FindingAcknowledged(t, play.hand_no, e.ref, e.by)]
        if a in ("sign-in", "sign-out"):
            return self._sign(e)
        if a == "call-floor":
            return [te.FloorCalled(t, play.hand_no, e.ref or "dealer")]
        if a == "award":
            return self._award_tap(e)
        if a == "wait-for-bb" and e.seat is not None:
            return referee.betting_events(betting.wait_for_bb(t, e.seat))
        if a == "back-in" and e.seat is not None:
            return referee.betting_events(betting.back_in(t, e.seat))
        if a == "sit-out" and e.seat is not None:
            return referee.betting_events(betting.sit_out(t, e.seat))
        if a == "bomb-pot":
            return self.practices.bomb_pot(t, e.amount or 0, int(e.ref or 1) if (e.ref or "1").isdigit() else 0)
        if a == "run-it":
            return self.practices.run_it(t, e.amount or 2)
        if a == "new-hand":
            out: list[te.TableEvent] = []
            h = play.hand
            if h is not None and h.phase != "ended":
                out += self.hands.end(t, "complete" if h.decided else "void")
            return out + self.hands.start(t)
        running = play.running_hand()
        if running is None:
            return []
        hb = running[1]
        if a == "check":
            seat = e.seat if e.seat is not None else hb.to_act
            return referee.betting_events(hb.check(t, seat))
        if a == "misdeal":
            if play.window():
                return self.hands.end(t, "misdeal")
            return referee.rule(t, after_action("misdeal", "the dealer called a misdeal"))
        if a == "exposed":
            return self.cards.exposed(e)
        if a == "stand-pat" and e.seat is not None:
            return self.cards.stand_pat(t, e.seat)
        if a == "muck-unshown" and e.seat is not None:
            return self.hands.unshown(t, e.seat)
        if a == "declare-raise" and e.seat is not None:
            # a declaration binds the player who made it: a tap naming no seat binds nobody, and is ignored (as
            # the other taps for one player's act)
            return referee.betting_events(hb.declare_raise(t, e.seat))
        if a == "answer":
            return referee.betting_events(hb.answer(t, e.ref, e.choice))
        return []

    def _sit_amount(self, e: ev.DealerInput) -> int:
        """A player sits: with the tournament's starting stack at a tournament table, else the buy-in, unless the
        tap names the stack (a player moved in from another table brings theirs)."""
        if e.amount:
            return e.amount
        tt = self.tournament
        if tt is not None and tt.event is not None:
            return tt.event.starting_stack
        return self.config.game.buy_in

    def _sign(self, e: ev.DealerInput) -> list[te.TableEvent]:
        """Who deals from now on: a sign-in replaces the dealer on duty (signing them out), a sign-out leaves
        nobody. The terminal checked the PIN or badge before submitting; ``by`` is the dealer's id only."""
        out: list[te.TableEvent] = []
        hand_no = self.play.hand_no
        if self.dealer is not None and (e.action == "sign-out" or e.by != self.dealer):
            out.append(te.DealerSignedOut(e.t, hand_no, self.dealer))
            self.dealer = None
        if e.action == "sign-in" and e.by and self.dealer is None:
            self.dealer = e.by
            out.append(te.DealerSignedIn(e.t, hand_no, e.by, e.ref or "pin"))
        return out

    def _leave(self, t: float, seat: int) -> list[te.TableEvent]:
        self.seating.leave(seat)
        return self.betting.leave(t, seat) if seat in self.betting.stacks else []

    def leave_pending(self, t: float) -> list[te.TableEvent]:
        """The hand is over: the players tapped Leave while they still held a live hand go now."""
        seats, self.leaving = self.leaving, []
        return [event for seat in seats for event in self._leave(t, seat)]

    def _paid(self, h: Hand, index: int) -> set[tuple[int, ...]]:
        """The seats that get chips from pot ``index`` as the cards divide it, the whole pot's and each board's
        part's: a pot run twice whose parts are tied may leave a tied winner nothing (the odd chips all went to
        another: a pot of 3 run three times, tied on board 1, pays that board's one chip to one seat), and a push to
        the seats that are paid is right."""
        if not 0 <= index < len(h.pots) or not h.winners[index:index + 1] or not h.winners[index]:
            return set()
        amount, eligible = h.pots[index]
        portions = h.portions()
        boards = portions[index] if index < len(portions) else [(h.winners[index],)]
        pot, parts = split_portions(Pot(amount, eligible), boards, h.button, self.seating.seats,
                                    max(1, self.config.game.smallest_chip))
        return {tuple(sorted(s for s, chips in p.shares.items() if chips > 0)) for p in (pot, *parts)}

    def _award_tap(self, e: ev.DealerInput) -> list[te.TableEvent]:
        play = self.play
        current = play.hand
        h = current if current is not None and current.decided else play.last_hand
        if play.running() and h is not current:
            return []   # the hand under way is not decided: the last hand's winners say nothing about this tap
        if h is None or not h.winners:
            return []
        try:
            index = int(e.ref or 0)
        except ValueError:
            return []
        if not e.seats:
            return []
        # a dealer pushes neighbouring pots with the same winners together and numbers them as one pot; a pot may
        # be pushed part by part (board by board, half by half: high, then low), so each part fits as the whole does
        portions = h.portions()
        pots: list[tuple[tuple[int, ...], ...]] = [
            (w,) + (tuple(half for halves in portions[i] for half in halves) if i < len(portions) else ())
            for i, w in enumerate(h.winners)]
        merged: list[tuple[tuple[int, ...], ...]] = []
        for p in pots:
            p = tuple(tuple(sorted(w)) for w in p)
            if not merged or merged[-1] != p:
                merged.append(p)
        named = tuple(sorted(e.seats))
        fits = [tuple(sorted(w)) for ws in (pots, merged) if 0 <= index < len(ws) for w in ws[index]]
        if not fits or named in fits or not fits[0] or named in self._paid(h, index):
            return []
        right = fits[0]
        return [self.referee.findings.raise_(
            e.t, h.number, "showdown.3", severity="floor", outcome="continues",
            ruling=f"Pot {index} is being awarded to seat(s) {', '.join(map(str, e.seats))}; the cards give it "
                   f"to seat(s) {', '.join(map(str, right))}.", seats=tuple(sorted(set(e.seats) | set(right))))]
