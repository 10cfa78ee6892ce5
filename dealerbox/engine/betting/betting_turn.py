"""The turn: who acts next, out-of-turn actions held until the turn comes (Betting 10), the check and fold taps,
a dead hand, and the ``answer`` tap to a question to the dealer."""

from __future__ import annotations

from .. import events as te
from .blinds import clockwise
from .ledger import HandLedger
from .questions import POSTS, TAKES_BACK, DealerQuestions
from .wager_rules import WagerRules


class BettingTurn:
    """Part of :class:`HandBetting`: the order of action. It owns no state of its own: the turn is the ledger's
    round (``pending``); a wager is ruled and recorded by ``wagers``, a question asked by ``questions``. The
    taps arrive here after the chip motions have been brought up to date (``HandBetting`` does that).
    ``owes`` is the table's record of missed blinds: a dead blind posted with the answer pays it."""

    def __init__(self, ledger: HandLedger, wagers: WagerRules, questions: DealerQuestions,
                 owes: dict[int, set[str]]) -> None:
        self.ledger = ledger
        self.wagers = wagers
        self.questions = questions
        self.owes = owes

    # --- turn order -----------------------------------------------------------------------------------
    def preflop_order(self) -> list[int]:
        led = self.ledger
        last = led.positions.big_blind
        straddler = next((s for s, b in led.seats.items() if b.posted == "straddle"), None)
        if straddler is not None:
            last = straddler
        if led.acts_last is not None:
            last = led.acts_last     # Kill Pots 10: the lowball killer acts last on the first round
        if last is None:
            return led.active()
        return clockwise(last, led.active(), led.table_seats)

    def postflop_order(self) -> list[int]:
        active = self.ledger.active()
        return active if len(active) >= 2 else []

    def nothing_to_decide(self, seat: int) -> bool:
        """At the start of a round, a seat whose post already covers everything any other player still in could
        put in (a kill or a straddle against a short stack) faces no bet and has no raise anyone could call: its
        turn is skipped, as the next player then acts at once (issue 18: that player's call was out of turn)."""
        led = self.ledger
        b = led.seats[seat]
        if led.round.voluntary_actions or b.wager < led.round.current_bet:
            return False
        others = [s for s in led.live if s != seat]
        return bool(others) and all(led.seats[s].wager + led.stack(s) <= b.wager for s in others)

    def advance(self, t: float) -> list[te.TableEvent]:
        """Skip seats that can no longer act and carry out binding out-of-turn actions (Betting 10)."""
        led = self.ledger
        out: list[te.TableEvent] = []
        while led.round.pending:
            if len(led.live) <= 1:
                led.round.turn_order([])
                break
            seat = led.round.pending[0]
            b = led.seats[seat]
            if not b.live or b.all_in:
                led.round.passed_over()
                continue
            active = led.active()
            if len(active) == 1 and b.wager >= led.round.current_bet:
                led.round.turn_order([])
                break
            if self.nothing_to_decide(seat):
                led.round.passed_over()
                continue
            if b.out_of_turn is None:
                break
            kind, intent, single, serial = b.out_of_turn
            b.queue(None)
            if serial != led.round.wager_serial:
                if kind == "check":
                    b.may_not_raise()
                elif b.present > max(b.credited, b.wager):
                    standing = b.wager + b.present - max(b.credited, b.wager)
                    # less would not answer the bet: the seat adds or folds; unless it is all the seat has (an
                    # all-in call for less), which answers the bet as far as it can (issue 31)
                    if standing >= led.round.current_bet or standing >= b.wager + led.stack(seat):
                        out += self.questions.ask_stands_by(t, seat, standing, single)
                break
            if kind == "check":
                if b.wager >= led.round.current_bet:
                    out.append(self.wagers.record(t, seat, b.wager)[-1])
                    # the check binds and its turn passes, but the seat's next turn to act this round is still
                    # the one after a check out of turn: no bet or raise then either (Betting 10, issue 31)
                    b.may_not_raise()
                continue
            out += self.wagers.act(t, seat, intent, single, False)
        return out

    # --- taps and the engine's calls ---------------------------------------------------------------------
    def check(self, t: float, seat: int | None = None) -> list[te.TableEvent]:
        led = self.ledger
        out: list[te.TableEvent] = []
        if led.settled:
            return out
        seat = seat if seat is not None else led.to_act
        if seat is None:
            return out
        b = led.seats.get(seat)
        if b is None or not b.live or b.all_in:
            return out + [led.finding(t, "betting.10", "dealer", "continues",
                                        f"Seat {seat} has no hand in play or is all-in: the check means nothing.",
                                        (seat,))]
        if seat != led.to_act:
            if seat in led.round.pending:
                if self.questions.waiting_for_answer(seat):
                    b.queue(("check", b.wager, None, None))    # queued behind the answer, not ruled
                    return out
                b.queue(("check", b.wager, None, led.round.wager_serial))
                return out + [led.finding(t, "betting.10", "dealer", "continues",
                                            f"Seat {seat} checked out of turn (seat {led.to_act} is to act): the check "
                                            f"is binding if nobody in between bets, calls or raises (if someone does, "
                                            f"seat {seat} acts again on its turn). Either way seat {seat} may not bet "
                                            f"or raise at its next turn to act this round: it may check, call or "
                                            f"fold.",
                                            (seat, led.to_act))]
            if b.wager >= led.round.current_bet:
                return out      # a check with nothing to answer (e.g. everyone else all-in) changes nothing
            return out + [led.finding(t, "betting.10", "dealer", "continues",
                                        f"Seat {seat} has no action pending: the check changes nothing.", (seat,))]
        if b.wager < led.round.current_bet:
            return out + [led.finding(t, "betting.16", "dealer", "wager-corrected",
                                        f"Seat {seat} cannot check facing {led.round.current_bet}: call "
                                        f"{led.round.current_bet - b.wager}, "
                                        f"raise or fold.", (seat,))]
        return out + self.wagers.record(t, seat, b.wager) + self.advance(t)

    def fold(self, t: float, seat: int, in_draw: bool = False) -> list[te.TableEvent]:
        """``seat`` folds; ``in_draw``: it threw its hand away during a draw game's draw, when nobody's turn is."""
        led = self.ledger
        out: list[te.TableEvent] = []
        b = led.seats.get(seat)
        if led.settled or b is None or not b.live:
            return out
        if (seat != led.to_act and seat in led.round.pending and led.to_act is not None and not led.lost
                and not in_draw):
            out.append(led.finding(t, "betting.10", "dealer", "continues",
                                     f"Seat {seat} folded out of turn (seat {led.to_act} is to act): the fold stands.",
                                     (seat,)))
        if self.questions.question is not None and self.questions.question.seat == seat:
            out += self.questions.close(t)
        b.fold()
        led.folded(seat)
        out.append(te.ActionTaken(t, led.hand, seat, "fold", 0, b.wager, led.street))
        return out + self.advance(t)

    def kill_hand(self, t: float, seat: int) -> list[te.TableEvent]:
        """A dead hand (the engine's ruling): out of the pot, its chips stay in."""
        led = self.ledger
        out: list[te.TableEvent] = []
        b = led.seats.get(seat)
        if b is None or not b.live:
            return out
        b.kill()
        led.killed(seat)
        return out + self.advance(t)

    def answer(self, t: float, ref: str | None, choice: str | None) -> list[te.TableEvent]:
        """The ``answer`` tap. An answer to a question no longer open, or not one of its keys, changes nothing."""
        led = self.ledger
        out: list[te.TableEvent] = []
        q = self.questions.question
        if q is None or ref != q.id or choice not in q.keys() or led.settled:
            return out
        out += self.questions.close(t, choice, "dealer")
        b, seat = led.seats[q.seat], q.seat
        if q.kind == "stands-by" and choice == TAKES_BACK:
            b.credit(b.present)             # the chips in the zone go back: they are not the seat's action
            self.questions.release_queue()
            return out + self.advance(t)
        if q.kind == "late-blind" and choice == POSTS:
            led.take(seat, min(q.dead, led.stack(seat)))
            led.dead_in(seat, q.dead)
            self.owes.pop(seat, None)
            b.posts("missed")
            out.append(te.ActionTaken(t, led.hand, seat, "post", q.dead, b.wager, led.street))
            out += self.wagers.act(t, seat, q.intent - q.dead, None, False)
            b.credit(b.present)
        else:
            out += self.wagers.act(t, seat, q.intent, q.single, False)
        self.questions.release_queue()
        return out + self.advance(t)
