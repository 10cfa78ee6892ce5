"""Questions to the dealer: where the chips cannot tell the engine what happened, it asks one question with the
answers pre-filled and the hand waits for that tap (``DealerInput(action="answer", ref=id, choice=key)``). The
answer is an input like any other, so it is in the recorded log and a replay rules the same way.

Two situations ask (docs/betting.md, "Questions to the dealer"):

- ``stands-by``: a seat put chips in out of turn; someone in between bet, called or raised, so the chips are no
  longer binding (Betting 10), and they still answer the bet when the turn comes (or they are all the player
  has: an all-in call for less). Did the player leave them in as their action, or are they to go back?
- ``late-blind``: a seat that owes a dead blind and was dealt in without posting puts chips in on its turn: is
  the dead blind among them (posted now, with the action), or is it all the action (the blind is owed next deal)?
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from .. import events as te
from ..state import QuestionView
from .ledger import HandLedger

STANDS, TAKES_BACK = "stands", "takes-back"
POSTS, ALL_WAGER = "posts", "all-wager"


@dataclass(frozen=True, slots=True)
class OpenQuestion:
    id: str
    kind: str                 # "stands-by" | "late-blind"
    seat: int
    rule: str
    text: str
    answers: tuple[tuple[str, str], ...]
    intent: int               # the seat's total wager if the chips are all its action
    single: int | None        # the value of a lone chip, when one chip made the wager
    dead: int = 0             # late-blind: the dead part owed

    def view(self) -> QuestionView:
        return QuestionView(self.id, self.text, self.answers, self.seat, self.rule)

    def keys(self) -> tuple[str, ...]:
        return tuple(k for k, _ in self.answers)


class DealerQuestions:
    """Part of :class:`HandBetting`: the one open question of the hand, asked, closed and its queue released.
    ``next_id`` numbers the questions across the table's hands ("q1", "q2", ...)."""

    def __init__(self, ledger: HandLedger, next_id: Callable[[], str]) -> None:
        self.ledger = ledger
        self.next_id = next_id
        self.question: OpenQuestion | None = None    # the one question to the dealer the hand waits for

    def ask(self, t: float, kind: str, seat: int, rule: str, text: str, answers: tuple[tuple[str, str], ...],
            intent: int, single: int | None, dead: int = 0) -> list[te.TableEvent]:
        q = OpenQuestion(self.next_id(), kind, seat, rule, text, answers, intent, single, dead)
        self.question = q
        return [te.QuestionAsked(t, self.ledger.hand, q.id, seat, rule, text, answers)]

    def forget(self) -> None:
        """The hand is over: nothing is left to ask (no event: the question's end is the hand's)."""
        self.question = None

    def close(self, t: float, choice: str = "", by: str = "play") -> list[te.TableEvent]:
        q, self.question = self.question, None
        if q is None:
            return []
        if by == "play":
            self.release_queue()       # the answer tap releases the queue after applying the answer
        return [te.QuestionAnswered(t, self.ledger.hand, q.id, choice, by)]

    def ask_stands_by(self, t: float, seat: int, intent: int, single: int | None) -> list[te.TableEvent]:
        """Betting 10: chips put in out of turn stopped binding when someone in between acted, and they still
        answer the bet now that the turn has come. Only the player knows whether they stand by them."""
        led = self.ledger
        b, to_call = led.seats[seat], led.round.current_bet
        what = (f"a call of {intent - b.wager}" if intent == to_call else
                f"an all-in call of {intent - b.wager}" if intent < to_call else f"a wager of {intent} in all")
        text = (f"Seat {seat} put {intent - b.wager} in out of turn, before the action changed, so it is not "
                f"binding. Does seat {seat} stand by it as {what}?")
        return self.ask(t, "stands-by", seat, "betting.10", text,
                        ((STANDS, "Stands by it"), (TAKES_BACK, "Takes it back")), intent, single)

    def ask_late_blind(self, t: float, seat: int, intent: int, single: int | None, dead: int) -> list[te.TableEvent]:
        """Blinds 9/10: a seat owing a dead blind, dealt in without posting, puts chips in on its turn. The
        dead blind may be among them (posted late, with the action) or not (owed next deal)."""
        b = self.ledger.seats[seat]
        put = intent - b.wager
        text = (f"Seat {seat} owes a dead blind of {dead} and put in {put}: is the dead blind posted with it "
                f"({dead} to the middle, {put - dead} played), or is all of it played?")
        return self.ask(t, "late-blind", seat, "blinds.9", text,
                        ((POSTS, f"Posts {dead} dead, plays {put - dead}"), (ALL_WAGER, f"Plays all {put}")),
                        intent, single, dead)

    def waiting_for_answer(self, seat: int) -> bool:
        """The hand waits for the dealer's answer about another seat: what ``seat`` does meanwhile is queued
        behind it, as if done right after the answer (the player acted while the dealer was asking)."""
        return self.question is not None and self.question.seat != seat

    def asks_about(self, seat: int) -> bool:
        """The open question is about ``seat``."""
        return self.question is not None and self.question.seat == seat

    def release_queue(self) -> None:
        led = self.ledger
        serial = led.round.wager_serial
        for b in led.seats.values():
            b.release(serial)
