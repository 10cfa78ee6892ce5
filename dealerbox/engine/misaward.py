"""A pot pushed where the cards do not send it (Showdown 3), and its remedy: the chips pulled back and pushed
again. :class:`PushWatch` follows every chip the dealer moves after a hand is decided, seat by seat, so a
misaward is a state the hand stays in until the pot sits where the cards say it belongs.

- a push to a seat that wins no pot is ruled (``showdown.3``, floor) each time that seat starts holding pushed
  chips again: a second wrong push (to another loser, to a folded seat) is a second ruling;
- the pot empty with such a seat still holding chips is the misaward: the hand does not end (the screen shows
  it) while the dealer pulls the chips back (to the pot, or straight into the right bet zone); chips that come
  back into the pot, or straight into a winner's bet zone, from a player's stack during the misaward (taken, then
  handed back) are the wrongly paid player's;
- a pot shared by two winners (a tie, or a high and a low half) pushed whole to one of them is ruled too, once,
  when the pot empties with a winner of it holding none of it; so is a side pot (or the main pot) pushed with
  the rest to the winner of another pot; that share pulled back into the pot and pushed to its winner puts it
  right;
- once the pot is empty and no seat that wins nothing holds pushed chips, the hand ends as the cards say and
  each ``showdown.3`` of the hand is acknowledged by the table (``by="table:corrected"``), which settles the
  dealer's banner and annotates the floor's alert;
- the next hand starting before that (its first card, its blinds, the new-hand tap) ends the hand as the cards
  say and raises ``showdown.3`` again, at the new hand's start, for the floor: the table's stacks are not the
  engine's (``HandFlow.start`` raises it).
"""

from __future__ import annotations

from . import events as te
from .cards.hand import Hand
from .cards.misdeal import Ruling
from .findings import FindingLog
from .cards.reading import winners_text
from .hand_flow import HandFlow, shorted, wins_a_pot
from .play import Play
from .referee import Referee

CORRECTED_BY = "table:corrected"   # the FindingAcknowledged ``by`` of a misaward the table put right


class PushWatch:
    """The push of a decided hand in ``play``, chip by chip (``Hand.award.pushed``); rulings to ``referee``,
    the hand ended by ``hands``, the table's own acknowledgements to ``findings``."""

    def __init__(self, play: Play, referee: Referee, hands: HandFlow, findings: FindingLog) -> None:
        self.play = play
        self.referee = referee
        self.hands = hands
        self.findings = findings

    def pushed(self, t: float, h: Hand, seat: int, uid: str, value: int) -> list[te.TableEvent]:
        """A chip of the pot (or of another seat's push) landed in ``seat``'s bet zone."""
        before = h.award.push(seat, uid, value)
        out: list[te.TableEvent] = [te.ChipsMoved(t, h.number, f"bet{seat}", seat, value, (value,))]
        if before <= 0 and not self.rightful(seat, h):
            out += self.referee.rule(t, [Ruling("showdown.3", "continues", f"Chips are being pushed to seat {seat}, "
                                                f"which wins no pot: stop, pull them back; the cards give "
                                                f"{winners_text(h)}.", (seat,), severity="floor")])
        return out

    def pulled(self, h: Hand, seat: int, uid: str, value: int) -> None:
        """A pushed chip left ``seat``'s bet zone and landed in the pot or another bet zone: no longer that
        seat's."""
        h.award.pull(seat, uid, value)

    def handed_back(self, h: Hand, value: int) -> None:
        """During a misaward a chip came into the pot from a player's stack: the wrongly paid player's."""
        wrong = self.wrongly_paid(h)
        if wrong:
            seat = max(wrong, key=lambda s: (wrong[s], -s))
            h.award.handed_back(seat, value)

    def handed_over(self, t: float, h: Hand, seat: int, uid: str, value: int) -> list[te.TableEvent]:
        """During a misaward a chip came from a player's stack straight into the bet zone of ``seat``, which wins
        a pot: the wrongly paid player paying the winner without passing through the pot."""
        self.handed_back(h, value)
        return self.pushed(t, h, seat, uid, value)

    def rightful(self, seat: int, h: Hand) -> bool:
        """``seat`` may hold pushed chips: it wins a pot (or is the one seat left with no pot at all), or part of
        its bet went uncalled and was gathered with the pot, so the dealer pushes it back from there (a winner left
        holding none of its pot is still ruled when the pot empties: ``shorted``)."""
        hb = self.play.hb
        return rightful(seat, h) or (hb is not None and seat in hb.uncalled_back())

    def wrongly_paid(self, h: Hand) -> dict[int, int]:
        """Seats that win no pot and hold pushed chips, with how much."""
        return {s: v for s, v in h.award.pushed.items() if v > 0 and not self.rightful(s, h)}

    def pot_emptied(self, t: float, h: Hand) -> list[te.TableEvent]:
        """The pot zone is empty and nothing is on its way: the hand ends, unless the pot sits wrongly (the
        misaward: the hand waits for the remedy). A shared pot pushed whole to one of its winners is ruled here,
        once, when the pot empties: every chip of it went to seats that win it, so no single push was wrong."""
        out: list[te.TableEvent] = []
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
            h.award.misawarded()
            return out
        if h.award.misaward_over():   # put right: the table acknowledges its own rulings on the push
            out += [self.findings.settle(t, f.hand, f.id, CORRECTED_BY) for f in list(self.findings.raised)
                    if f.hand == h.number and f.rule == "showdown.3" and f.id not in self.findings.settled]
        return out + self.hands.end(t, "complete")


def rightful(seat: int, h: Hand) -> bool:
    """``seat`` may hold pushed chips: it wins a pot, or there is no pot at all and it is the one seat left (every
    chip in was its own uncalled bet, say a big blind alone when nobody posted the small blind: an uncalled bet
    goes back to its owner, so gathering it and pushing it there is no misaward)."""
    if wins_a_pot(seat, h.winners):
        return True
    return not h.pots and [s for s in h.order if s not in h.dead and s not in h.folded] == [seat]

