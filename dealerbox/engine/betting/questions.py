"""Questions to the dealer: where the chips cannot tell the engine what happened, it asks one question with the
answers pre-filled and the hand waits for that tap (``DealerInput(action="answer", ref=id, choice=key)``). The
answer is an input like any other, so it is in the recorded log and a replay rules the same way.

Two situations ask (docs/betting.md, "Questions to the dealer"):

- ``stands-by``: a seat put chips in out of turn; someone in between bet, called or raised, so the chips are no
  longer binding (Betting 10), and they still answer the bet when the turn comes. Did the player leave them in
  as their action, or are they to go back?
- ``late-blind``: a seat that owes a dead blind and was dealt in without posting puts chips in on its turn: is
  the dead blind among them (posted now, with the action), or is it all the action (the blind is owed next deal)?
"""

from __future__ import annotations

from dataclasses import dataclass

from .. import events as te
from ..state import QuestionView

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
    """Part of :class:`HandBetting`: asking, answering and closing the one open question of the hand."""

    def _ask(self, t: float, kind: str, seat: int, rule: str, text: str, answers: tuple[tuple[str, str], ...],
             intent: int, single: int | None, dead: int = 0) -> list[te.TableEvent]:
        self.table.questions_asked += 1
        q = OpenQuestion(f"q{self.table.questions_asked}", kind, seat, rule, text, answers, intent, single, dead)
        self.question = q
        return [te.QuestionAsked(t, self.hand, q.id, seat, rule, text, answers)]

    def _close_question(self, t: float, choice: str = "", by: str = "play") -> list[te.TableEvent]:
        q, self.question = self.question, None
        if q is None:
            return []
        if by == "play":
            self._release_queue()       # the answer tap releases the queue after applying the answer
        return [te.QuestionAnswered(t, self.hand, q.id, choice, by)]

    def _ask_stands_by(self, t: float, seat: int, intent: int, single: int | None) -> list[te.TableEvent]:
        """Betting 10: chips put in out of turn stopped binding when someone in between acted, and they still
        answer the bet now that the turn has come. Only the player knows whether they stand by them."""
        b, to_call = self.seats[seat], self.round.current_bet
        what = ("a call of " + str(intent - b.wager)) if intent == to_call else f"a wager of {intent} in all"
        text = (f"Seat {seat} put {intent - b.wager} in out of turn, before the action changed, so it is not "
                f"binding. Does seat {seat} stand by it as {what}?")
        return self._ask(t, "stands-by", seat, "betting.10", text,
                         ((STANDS, "Stands by it"), (TAKES_BACK, "Takes it back")), intent, single)

    def _ask_late_blind(self, t: float, seat: int, intent: int, single: int | None,
                        dead: int) -> list[te.TableEvent]:
        """Blinds 9/10: a seat owing a dead blind, dealt in without posting, puts chips in on its turn. The
        dead blind may be among them (posted late, with the action) or not (owed next deal)."""
        b = self.seats[seat]
        put = intent - b.wager
        text = (f"Seat {seat} owes a dead blind of {dead} and put in {put}: is the dead blind posted with it "
                f"({dead} to the middle, {put - dead} played), or is all of it played?")
        return self._ask(t, "late-blind", seat, "blinds.9", text,
                         ((POSTS, f"Posts {dead} dead, plays {put - dead}"), (ALL_WAGER, f"Plays all {put}")),
                         intent, single, dead)

    def _waiting_for_answer(self, seat: int) -> bool:
        """The hand waits for the dealer's answer about another seat: what ``seat`` does meanwhile is queued
        behind it, as if done right after the answer (the player acted while the dealer was asking)."""
        return self.question is not None and self.question.seat != seat

    def _release_queue(self) -> None:
        for b in self.seats.values():
            if b.out_of_turn is not None and b.out_of_turn[3] is None:
                b.out_of_turn = b.out_of_turn[:3] + (self.round.wager_serial,)

    def answer(self, t: float, ref: str | None, choice: str | None) -> list[te.TableEvent]:
        """The ``answer`` tap. An answer to a question no longer open, or not one of its keys, changes nothing."""
        if self.lost:
            return []         # lost track of the betting: quiet until the next deal
        out = self._sync(t)
        q = self.question
        if q is None or ref != q.id or choice not in q.keys() or self.settled:
            return out
        out += self._close_question(t, choice, "dealer")
        b, seat = self.seats[q.seat], q.seat
        if q.kind == "stands-by" and choice == TAKES_BACK:
            b.credited = b.present          # the chips in the zone go back: they are not the seat's action
            self._release_queue()
            return out + self._advance(t)
        if q.kind == "late-blind" and choice == POSTS:
            self.table._stacks[seat] -= min(q.dead, self._stack(seat))
            self.dead_money[seat] = self.dead_money.get(seat, 0) + q.dead
            self.table.owes.pop(seat, None)
            b.posted = "missed"
            out.append(te.ActionTaken(t, self.hand, seat, "post", q.dead, b.wager, self.street))
            out += self._act(t, seat, q.intent - q.dead, None, False)
            b.credited = b.present
        else:
            out += self._act(t, seat, q.intent, q.single, False)
        self._release_queue()
        return out + self._advance(t)
