"""A pot pushed where the cards do not send it (Showdown 3), and its remedy: the chips pulled back and pushed
again. :class:`PushWatch` follows every chip the dealer moves after a hand is decided, seat by seat and chip for
chip, so a misaward is a state the hand stays in until the pot sits where the cards say it belongs.

- what each seat may be pushed (its *due*) is what the end of the hand pays it: its shares of the main and side
  pots as the engine divides them (split pots, high and low halves, boards, the odd chip to the seat the rulebook
  gives it), and the uncalled part of its bets that reached the pot, which goes back to it (``HandFlow.shares_due``,
  ``HandBetting.uncalled_back``: what the dealer handed back straight from the bet zone is not owed from the pot);
- a push that takes a seat past its due is ruled (``showdown.3``, floor) at the chip that does it: a seat that
  wins nothing at the first chip ("which wins no pot"), a winner at the first chip beyond its due while another
  seat still holds less than its own ("more than the N it is owed", naming the seats still owed: chips beyond
  every seat's due, a stray chip left in the pot, take nothing from anyone); each time a seat crosses its due
  again (pulled back, then pushed too much again, or a second wrong seat) is a further ruling;
- the pot empty with a seat holding more than its due (as above) is the misaward: the hand does not end (the
  screen shows it) while the dealer pulls the chips back (to the pot, or straight into the right bet zone);
  chips that come back into the pot, or straight into a winner's bet zone, from a player's stack during the
  misaward (taken, then handed back) are the overpaid player's;
- a pot shared by two winners (a tie, or a high and a low half) pushed whole to one of them crosses that one's
  due, and is ruled so; a winner left holding none of its share when the pot empties with nobody over their due
  (chips gone off the table) is ruled then, once; that share pushed to its winner puts it right;
- once the pot is empty and no seat holds more than its due, the hand ends as the cards say and each
  ``showdown.3`` of the hand is acknowledged by the table (``by="table:corrected"``), which settles the dealer's
  banner and annotates the floor's alert;
- the next hand starting before that (its first card, its blinds, the new-hand tap) ends the hand as the cards
  say and raises ``showdown.3`` again, at the new hand's start, for the floor: the table's stacks are not the
  engine's (``HandFlow.start`` raises it).

Change made from a bigger chip is no misaward: a chip that takes a seat past its due while the seat held less
than its due before it (a 25 pushed to a seat owed 2 more) waits, and is ruled only if the change does not come
back (pulled from that seat's bet zone into the pot, or on to another seat) before the dealer moves on: the pot
empties with the seat still over, another chip is pushed to it, or the hand ends (the cleanup, the next hand). A
push to another seat does not end the wait: the change may yet come back and be pushed to that seat, and the pot
emptying is the moment the push is done. A seat already at its due, or a seat that wins nothing, is ruled at once.

A seat short of its due is not ruled while the pot still holds chips: the winner's own last bet may never leave
its bet zone, so what a winner is pushed can rightly be less than its share.
"""

from __future__ import annotations

from . import events as te
from .cards.hand import Hand
from .cards.misdeal import Ruling
from .findings import FindingLog
from .cards.reading import winners_text
from .hand_flow import HandFlow, due_with_uncalled, shorted, wins_a_pot
from .play import Play
from .referee import Referee

CORRECTED_BY = "table:corrected"   # the FindingAcknowledged ``by`` of a misaward the table put right


class PushWatch:
    """The push of a decided hand in ``play``, chip by chip (``Hand.award.pushed``), against what the cards give each
    seat (asked of ``hands``); rulings to ``referee``, the hand ended by ``hands``, the table's own
    acknowledgements to ``findings``."""

    def __init__(self, play: Play, referee: Referee, hands: HandFlow, findings: FindingLog) -> None:
        self.play = play
        self.referee = referee
        self.hands = hands
        self.findings = findings
        # the pot shares of the hand being pushed, kept while its winners stand (every pushed chip asks)
        self._shares: tuple[object, dict[int, int]] = (None, {})
        # the ids of the push's own rulings, so a push put right before the pot empties settles them too
        self._ruled: set[str] = set()
        # seats pushed a chip bigger than what they were still owed, waiting for the change: seat -> hand number
        self._change_due: dict[int, int] = {}

    def pushed(self, t: float, h: Hand, seat: int, uid: str, value: int) -> list[te.TableEvent]:
        """A chip of the pot (or of another seat's push) landed in ``seat``'s bet zone."""
        before = h.award.push(seat, uid, value)
        out: list[te.TableEvent] = [te.ChipsMoved(t, h.number, f"bet{seat}", seat, value, (value,))]
        due = self.due(h)
        owed = due.get(seat, 0)
        if self._change_due.pop(seat, None) == h.number and before > owed:
            out += self.over_pushed(t, h, due, seat)   # more chips on a seat awaiting its change: no change-making
        elif before <= owed < before + value and not (owed <= 0 and rightful(seat, h) and not h.pots):
            # this chip takes the seat past what the cards give it
            if before < owed:   # a bigger chip than the seat is still owed: ruled only if the change does not come
                self._change_due[seat] = h.number
            elif not wins_a_pot(seat, h.winners) and owed <= 0:
                ruled = self.referee.rule(t, [Ruling("showdown.3", "continues", f"Chips are being pushed to seat "
                                                     f"{seat}, which wins no pot: stop, pull them back; the cards "
                                                     f"give {winners_text(h)}.", (seat,), severity="floor")])
                self._ruled.update(e.id for e in ruled if isinstance(e, te.FindingRaised))
                out += ruled
            else:
                out += self.over_pushed(t, h, due, seat)    # notes its own ruling's id
        return out

    def over_pushed(self, t: float, h: Hand, due: dict[int, int], seat: int) -> list[te.TableEvent]:
        """``seat``, a winner, holds more than its due: ruled when another seat is still owed chips."""
        owed = due.get(seat, 0)
        short = self.owed_more(h, due, seat)
        if not short:   # chips beyond every seat's due take nothing from anyone
            return []
        more = f"more than the {owed} it is owed" if owed > 0 else "chips of pots the cards give it none of"
        out = self.referee.rule(t, [Ruling(
            "showdown.3", "continues", f"Seat {seat} is being pushed {more}: stop, pull what is over "
            f"{owed} back into the pot and push it to seat {' and '.join(map(str, short))}; the cards "
            f"give {winners_text(h)}.", (seat, *short), severity="floor")])
        self._ruled.update(e.id for e in out if isinstance(e, te.FindingRaised))
        return out

    def change_not_back(self, t: float, h: Hand) -> list[te.TableEvent]:
        """The dealer moved on (the pot emptied, the hand is ending) with a seat still over its due from a chip
        bigger than it was owed: the change never came back, so that push is ruled now, once."""
        waiting, self._change_due = self._change_due, {}
        out: list[te.TableEvent] = []
        if not waiting or h.award.misaward:
            return out
        due = self.due(h)
        for seat, hand in sorted(waiting.items()):
            if hand == h.number and h.award.pushed.get(seat, 0) > due.get(seat, 0):
                out += self.over_pushed(t, h, due, seat)
        return out

    def due(self, h: Hand) -> dict[int, int]:
        """What each seat of ``h`` may be pushed: its shares of the pots and the uncalled part of its bets."""
        key = (h.number, tuple(h.winners), tuple(h.award.halves), tuple(map(tuple, h.boards.halves)))
        if self._shares[0] != key:
            self._shares = (key, self.hands.shares_due(h))
        hb = self.play.hb
        return due_with_uncalled(self._shares[1], hb.uncalled_back() if hb is not None else {})

    @staticmethod
    def owed_more(h: Hand, due: dict[int, int], but: int) -> list[int]:
        """Seats (other than ``but``) holding less of the push than the pots give them: those winning a pot first;
        a seat owed only its uncalled chips (they may never have left its bet zone) when no winner is short."""
        short = [s for s, d in sorted(due.items()) if s != but and h.award.pushed.get(s, 0) < d]
        return [s for s in short if wins_a_pot(s, h.winners)] or short

    def pulled(self, h: Hand, seat: int, uid: str, value: int) -> None:
        """A pushed chip left ``seat``'s bet zone and landed in the pot or another bet zone: no longer that
        seat's."""
        h.award.pull(seat, uid, value)
        if seat in self._change_due and h.award.pushed.get(seat, 0) <= self.due(h).get(seat, 0):
            del self._change_due[seat]   # the change came back: a bigger chip made change, no misaward

    def handed_back(self, h: Hand, value: int) -> None:
        """During a misaward a chip came into the pot from a player's stack: the overpaid player's."""
        wrong = self.wrongly_paid(h)
        if wrong:
            seat = max(wrong, key=lambda s: (wrong[s], -s))
            h.award.handed_back(seat, value)

    def handed_over(self, t: float, h: Hand, seat: int, uid: str, value: int) -> list[te.TableEvent]:
        """During a misaward a chip came from a player's stack straight into the bet zone of ``seat``, which wins
        a pot: the overpaid player paying the winner without passing through the pot."""
        self.handed_back(h, value)
        return self.pushed(t, h, seat, uid, value)

    def wrongly_paid(self, h: Hand) -> dict[int, int]:
        """Seats holding more pushed chips than the cards give them, with how much more: a seat that wins nothing
        holding any; a winner holding more than its due while another seat holds less than its own (chips over
        every seat's due, say a stray chip left in the pot from before, take nothing from anyone)."""
        due, pushed = self.due(h), h.award.pushed
        short = {s for s, d in due.items() if pushed.get(s, 0) < d}
        out: dict[int, int] = {}
        for s, v in pushed.items():
            owed = due.get(s, 0)
            if v <= owed or (not h.pots and rightful(s, h)):
                continue
            if (owed <= 0 and not wins_a_pot(s, h.winners)) or short - {s}:
                out[s] = v - owed
        return out

    def pot_emptied(self, t: float, h: Hand) -> list[te.TableEvent]:
        """The pot zone is empty and nothing is on its way: the hand ends, unless the pot sits wrongly (the
        misaward: the hand waits for the remedy). A winner left holding none of its share with nobody over their
        due (chips gone off the table, not to a seat) is ruled here, once."""
        out = self.change_not_back(t, h)
        wrong, short = self.wrongly_paid(h), shorted(h)
        if wrong or short:
            if short and not wrong and not h.award.misaward:
                paid = sorted(s for s, v in h.award.pushed.items() if v > 0)
                out = self.referee.rule(t, [Ruling(
                    "showdown.3", "continues",
                    f"The pot was pushed to seat {' and '.join(map(str, paid))} alone, but seat "
                    f"{' and '.join(map(str, short))} wins a share of it: stop, pull that share back into the pot "
                    f"and push it to seat {' and '.join(map(str, short))}; the cards give {winners_text(h)}.",
                    (*paid, *short), severity="floor")])
                self._ruled.update(e.id for e in out if isinstance(e, te.FindingRaised))
            h.award.misawarded()
            return out
        # put right: the table acknowledges its own rulings on the push, a misaward's or a wrong chip pulled back
        # before the pot emptied (issue 31: an over-push corrected mid-push left the floor's alert open)
        over, ruled = h.award.misaward_over(), self._ruled
        out += [self.findings.settle(t, f.hand, f.id, CORRECTED_BY) for f in list(self.findings.raised)
                if f.hand == h.number and f.rule == "showdown.3" and f.id not in self.findings.settled
                and (over or f.id in ruled)]
        ruled.clear()
        return out + self.hands.end(t, "complete")


def rightful(seat: int, h: Hand) -> bool:
    """``seat`` may hold pushed chips: it wins a pot, or there is no pot at all and it is the one seat left (every
    chip in was its own uncalled bet, say a big blind alone when nobody posted the small blind: an uncalled bet
    goes back to its owner, so gathering it and pushing it there is no misaward)."""
    if wins_a_pot(seat, h.winners):
        return True
    return not h.pots and [s for s in h.order if s not in h.dead and s not in h.folded] == [seat]

