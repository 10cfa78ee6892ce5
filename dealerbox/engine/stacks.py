"""Stacks of chips the board could not read completely: ask the dealer, never rule on a partial count.

A PN5180 reading a tall stack proves only so many chips per field (protocol 2.0 ZONE_INVENTORY says
"uncertain" with the count proven, or "unreadable"). Past that, the zone's value is unknown, not smaller:
the engine must not rule a short bet on it. While a bet zone's read is uncertain:

- the short-wager rulings for that seat are held (dropped before they reach the dealer or the log of
  findings): a bet read short may only be a stack read incompletely;
- one finding says the chip values shown for the zone are advisory, and why;
- the dealer is asked (the question contract, ``TableState.question``) to confirm the amount read, or to
  recount (spread the stack so the next read is complete). The amount in the question follows the seat's
  bet as the chips settle (a new question id each time, so a tap on a stale amount confirms nothing).
- "confirm" releases the hold, and the held rulings are judged on the confirmed amount: a ruling held
  while the seat's bet was that amount is raised then (the dealer vouched for the count it stood on); one
  held on another amount is dropped (the bet it judged is no longer the bet). A later complete read
  releases the hold the same way, on the amount then read; "recount" keeps it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from . import events as te
from .findings import FindingLog
from .state import QuestionView

READ_STATES = ("complete", "uncertain", "unreadable")
# Rulings that say a wager is short; on an incomplete read "short" may only be "not all read".
HELD_RULES = frozenset({"betting.6", "betting.16", "no-limit.2", "no-limit.10"})
ADVISORY_RULE = "betting.16"  # the ruling being held: short wagers are brought up


@dataclass
class StackReads:
    """Which chip zones were last read incompletely, and the one question open about them."""

    uncertain: dict[str, int] = field(default_factory=dict)   # zone -> chips proven
    seats: dict[str, int] = field(default_factory=dict)       # bet zone -> seat, for the zones in `uncertain`
    question: QuestionView | None = None
    question_zone: str | None = None
    question_amount: int = 0
    question_how: str = ""
    asked: int = 0
    advisories: set[str] = field(default_factory=set)           # ids of this module's own findings
    held: dict[str, list[tuple[te.FindingRaised, int]]] = field(default_factory=dict)  # zone -> (ruling, bet)
    rejudge: list[te.FindingRaised] = field(default_factory=list)   # held rulings the last release let stand

    def held_seats(self) -> frozenset[int]:
        return frozenset(self.seats.values())

    def read(self, t: float, hand: int | None, zone: str, state: str, tags: int, seat: int | None, amount: int,
             findings: FindingLog) -> list[te.TableEvent]:
        """A zone's read state; returns the advisory finding the first time a zone's read falls short."""
        if state not in READ_STATES:
            raise ValueError(f"zone read state {state!r} is not one of {READ_STATES}")
        if state == "complete":
            self._release(zone, amount)   # the chips were all read: rulings on this amount stand
            return self.judged(t, hand, findings, "the amount read completely")
        if seat is None and zone != "pot":
            return []   # a card zone: its last reported cards stand (never a fold, never a missing card)
        first = zone not in self.uncertain
        self.uncertain[zone] = tags
        if seat is not None:
            self.seats[zone] = seat
        if not first and self.question_zone == zone:
            return []
        how = f"at least {tags} chips read" if state == "uncertain" else "the chips there cannot be read"
        ruling = (f"{zone}: {how}, so the chip values shown ({amount}) are advisory; no short-bet ruling is made on "
                  f"this read. Confirm the amount or recount the stack.")
        if self.question is None:
            self._ask(zone, seat, how, amount)
        note = findings.raise_(t, hand, ADVISORY_RULE, severity="dealer", outcome="continues", ruling=ruling,
                               seats=(seat,) if seat is not None else ())
        self.advisories.add(note.id)
        return [note]

    def _ask(self, zone: str, seat: int | None, how: str, amount: int) -> None:
        self.asked += 1
        text = f"{zone}: {how}. Is the amount {amount}?"
        self.question = QuestionView(f"q-stack-{self.asked}", text,
                                     (("confirm", f"Confirm {amount}"), ("recount", "Recount")), seat, ADVISORY_RULE)
        self.question_zone, self.question_amount, self.question_how = zone, amount, how

    def follow(self, bets: Mapping[int, int]) -> None:
        """Keep the question's amount on the seat's bet: the chips of a stack settle after its read state."""
        q = self.question
        if q is None or q.seat is None or self.question_zone is None:
            return
        amount = int(bets.get(q.seat, 0))
        if amount != self.question_amount:
            self._ask(self.question_zone, q.seat, self.question_how, amount)

    def answer(self, ref: str | None, choice: str | None) -> bool:
        """The dealer's answer to the stack question; False if the question is not this module's."""
        q = self.question
        if q is None or ref != q.id:
            return False
        zone, amount = self.question_zone, self.question_amount
        self.question, self.question_zone = None, None
        if choice == "confirm" and zone is not None:
            self._release(zone, amount)   # the dealer vouches for the amount: rulings on it stand again
        return True

    def judged(self, t: float, hand: int | None, findings: FindingLog,
               basis: str = "the amount the dealer confirmed") -> list[te.TableEvent]:
        """The held rulings the last release let stand, raised again now on the amount now known."""
        out: list[te.TableEvent] = []
        for f in self.rejudge:
            out.append(findings.raise_(t, hand, f.rule, severity=f.severity, outcome=f.outcome,
                                       ruling=f"{f.ruling} Judged on {basis}.",
                                       seats=f.seats, cards=f.cards))
        self.rejudge = []
        return out

    def hold(self, events: list[te.TableEvent], findings: FindingLog,
             bets: Mapping[int, int]) -> list[te.TableEvent]:
        """Drop the short-wager findings about seats whose stack was read incompletely; keep them, with the
        bet they were judged on, for when the amount is confirmed."""
        held = self.held_seats()
        dropped = [e for e in events if isinstance(e, te.FindingRaised) and e.rule in HELD_RULES
                   and held.intersection(e.seats) and e.id not in self.advisories]
        if not dropped:
            return events
        for e in dropped:
            for zone, seat in self.seats.items():
                if seat in e.seats:
                    self.held.setdefault(zone, []).append((e, int(bets.get(seat, 0))))
        findings.withdraw(dropped)
        return [e for e in events if e not in dropped]

    def board_restarted(self) -> None:
        """A HELLO: the board's picture starts again (it re-reports every zone that is not complete)."""
        for zone in list(self.uncertain):
            self._release(zone)
        self.rejudge = []   # nothing was vouched for: the board reads again

    def _release(self, zone: str, amount: int | None = None) -> None:
        if len(self.advisories) > 256:   # ids only matter while their hand's findings are on screen
            self.advisories.clear()
        self.rejudge += [f for f, bet in self.held.pop(zone, []) if bet == amount]
        self.uncertain.pop(zone, None)
        self.seats.pop(zone, None)
        if self.question_zone == zone:
            self.question, self.question_zone = None, None
