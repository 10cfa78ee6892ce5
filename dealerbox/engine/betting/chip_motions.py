"""How chips become actions. Chips entering ``betN`` are seat N's; chips arriving less than ``MOTION_GAP``
apart in one zone are one motion. A motion closes once the gap has passed (``tick``), and then what the zone
holds is read as the seat's wager: the total it adds over what was already accounted for is the action.
Chips leaving a bet zone without reaching the pot are taken back (``TAKE_BACK_GAP``)."""

from __future__ import annotations

from ...tags import ChipTag, Tag
from .. import events as te
from .antes import Antes
from .betting_round import Motion
from .betting_turn import BettingTurn
from .chips import FOREIGN, NOT_A_CHIP, PLAYS, TOO_SMALL, chip_value, classify
from .ledger import HandLedger
from .posting import Posting
from .pots import uncalled
from .questions import DealerQuestions
from .wager_rules import WagerRules

MOTION_GAP = 0.5      # chips arriving closer than this in one zone are one motion (Betting 14)
TAKE_BACK_GAP = 0.5   # a chip that left a bet zone and did not reach the pot within this was taken back
DECLARE_HOLD = 3.0    # a declared raise is complete once the hands rest this long (No-Limit 8)
# tick skips until the earliest close it could make, less this: the due checks subtract float times, so the
# bound stays early by far more than their rounding and a skipped tick is always one that would close nothing
DUE_MARGIN = 1e-3


class ChipMotions:
    """Part of :class:`HandBetting`: the bet zones, read motion by motion. It owns the open motions, the chips
    leaving a zone, the declared and held raises and when the next of them is due (``quiet_until``); a closed
    motion becomes an ante (``antes``), a post (``posting``) or a wager (``wagers``, then the turn moves on)."""

    def __init__(self, ledger: HandLedger, posting: Posting, antes: Antes, wagers: WagerRules, turn: BettingTurn,
                 questions: DealerQuestions, house: str) -> None:
        self.ledger = ledger
        self.posting = posting
        self.antes = antes
        self.wagers = wagers
        self.turn = turn
        self.questions = questions
        self.house = house
        self.smallest_chip = ledger.game.smallest_chip
        self.string_bet_rule = "betting.14"   # pot- and no-limit at a tournament table: "tournament.23"
        self.amount_said: frozenset[int] = frozenset()   # seats that said their raise's amount (Tournaments 23)
        self.quiet_until = float("inf")   # nothing open can be due before this time (see due_by); inf: nothing open
        self.motions: dict[int, Motion] = {}
        self.leaving: dict[str, tuple[float, int, int]] = {}   # uid -> (when, seat, value), in the order they left
        self.taken: dict[str, int] = {}   # uid -> seat: chips read as taken back from a zone, not seen since
        self.held: dict[int, float] = {}      # declared raises whose chips are in: seat -> when the hands rested
        self.declared: set[int] = set()
        self.zones: dict[int, dict[str, int]] = {}          # bet zones of seats not dealt in
        self.binding_reminded: set[tuple[int, str, int]] = set()
        self.pot_chips = 0

    def string_bets_under(self, rule: str) -> None:
        """The rule a string bet is judged by at this table (a tournament's: Tournaments 23)."""
        self.string_bet_rule = rule

    def said_amount(self, seat: int) -> None:
        """``seat`` said its raise's amount: several moves may make it (Tournaments 23)."""
        self.amount_said = self.amount_said | {seat}

    def clear(self) -> None:
        """Nothing open is judged any more (a refund, or the betting was lost)."""
        self.motions.clear()
        self.held.clear()
        self.leaving.clear()
        self.taken.clear()

    def track_lost(self) -> None:
        """The betting lost track: nothing open is judged, and no declared raise is waited for."""
        self.clear()
        self.declared.clear()

    def close_all(self, t: float) -> list[te.TableEvent]:
        """Close every open motion now (the deal began: the posts are in)."""
        out: list[te.TableEvent] = []
        for seat in list(self.motions):
            out += self.close_motion(t, seat)
        return out

    # --- sensor input ---------------------------------------------------------------------------------
    def tick(self, t: float) -> list[te.TableEvent]:
        """Close chip motions whose gap has passed, settle take-backs and declared raises at rest."""
        if t < self.quiet_until:
            return []       # the common case: called before every input, with nothing due yet
        if not (self.motions or self.leaving or self.held):
            self.quiet_until = float("inf")
            return []
        out: list[te.TableEvent] = []
        if self.motions:
            due = [s for s, m in self.motions.items() if t - m.last >= MOTION_GAP]
            if len(due) > 1:
                due.sort(key=lambda s: self.motions[s].start)
            for seat in due:
                out += self.close_motion(t, seat)
        if self.leaving:
            gone: list[str] = []
            for uid, (lt, _, _) in self.leaving.items():   # in the order they left (chip_left keeps it so)
                if t - lt < TAKE_BACK_GAP:
                    break
                gone.append(uid)
            for uid in gone:
                _, seat, value = self.leaving.pop(uid)
                self.taken[uid] = seat
                out += self.taken_back(t, seat, value)
        if self.held:
            for seat in [s for s, ht in self.held.items() if t - ht >= DECLARE_HOLD and s not in self.motions]:
                out += self.release(t, seat)
        self.next_due()
        return out

    def next_due(self) -> None:
        """Set ``quiet_until`` from what is still open, after a tick has closed what was due."""
        due = float("inf")
        for m in self.motions.values():
            due = min(due, m.last + MOTION_GAP)
        for lt, _, _ in self.leaving.values():
            due = min(due, lt + TAKE_BACK_GAP)
        for ht in self.held.values():
            due = min(due, ht + DECLARE_HOLD)
        self.quiet_until = due - DUE_MARGIN

    def due_by(self, when: float) -> None:
        """Something just opened (a motion, a take-back, a held raise) that may close at ``when``."""
        if when - DUE_MARGIN < self.quiet_until:
            self.quiet_until = when - DUE_MARGIN

    def sync(self, t: float, seat: int | None = None) -> list[te.TableEvent]:
        """Before any act of ``seat``: close motions, and complete other seats' declared raises."""
        # nothing due (most acts): the call to tick is saved
        out = self.tick(t) if t >= self.quiet_until else []
        if not self.held:
            return out
        for other in [s for s in self.held if s != seat]:
            if other in self.motions:
                out += self.close_motion(t, other)
            out += self.release(t, other)
        return out

    def flush(self, t: float) -> list[te.TableEvent]:
        out = []
        for seat in list(self.motions):
            out += self.close_motion(t, seat)
        for seat in list(self.held):
            out += self.release(t, seat)
        for uid in list(self.leaving):
            _, seat, value = self.leaving.pop(uid)
            self.taken[uid] = seat
            out += self.taken_back(t, seat, value)
        return out

    def chip_entered(self, t: float, seat: int, tag: Tag) -> list[te.TableEvent]:
        led = self.ledger
        if led.lost:
            return []         # lost track of the betting: quiet until the next deal
        out = self.sync(t, seat) if t >= self.quiet_until or self.held else []   # as sync: nothing due, no call
        if led.settled:
            return out
        if type(tag) is ChipTag and tag.house == self.house and tag.value >= self.smallest_chip:
            kind, value = PLAYS, tag.value    # the common case, one of our own chips, without the classification
        else:
            kind = classify(tag, self.house, self.smallest_chip)
            if kind == NOT_A_CHIP:
                return out
            value = chip_value(tag)
        if self.taken:
            self.taken.pop(tag.uid, None)     # back in a zone: no longer a chip taken back
        m = self.motions.get(seat) or Motion(t, t)
        m.moved(t)
        if t + MOTION_GAP - DUE_MARGIN < self.quiet_until:   # due_by inline: once per chip
            self.quiet_until = t + MOTION_GAP - DUE_MARGIN
        if kind == PLAYS:
            b = led.seats.get(seat)   # the seat's zone, or a zone of a seat not dealt in: once per chip
            if b:
                b.chip_placed(tag.uid, value)
            else:
                self.zones.setdefault(seat, {})[tag.uid] = value
            m.chip_in(value)
        elif kind == FOREIGN:
            m.foreign_chip(getattr(tag, "house", "unregistered"))
        elif kind == TOO_SMALL:
            m.small_chip(value)
        self.motions[seat] = m
        return out

    def chip_left(self, t: float, seat: int, tag: Tag) -> list[te.TableEvent]:
        led = self.ledger
        if led.lost:
            return []         # lost track of the betting: quiet until the next deal
        out = self.tick(t) if t >= self.quiet_until else []   # as sync: nothing due, no call
        b = led.seats.get(seat)   # the seat's zone, or a zone of a seat not dealt in: once per chip
        value = b.chip_lifted(tag.uid) if b else self.zones.setdefault(seat, {}).pop(tag.uid, None)
        if value is not None:
            m = self.motions.get(seat)
            # a chip put in and taken out within one motion never happened
            if not (m and m.taken_back(value)):
                self.leaving.pop(tag.uid, None)     # re-inserted at the end: the dict stays in time order
                self.leaving[tag.uid] = (t, seat, value)
                if t + TAKE_BACK_GAP - DUE_MARGIN < self.quiet_until:   # due_by inline: once per chip
                    self.quiet_until = t + TAKE_BACK_GAP - DUE_MARGIN
        return out

    def chip_to_pot(self, t: float, tag: Tag) -> list[te.TableEvent]:
        out = self.tick(t) if t >= self.quiet_until else []   # as sync: nothing due, no call
        moved = self.leaving.pop(tag.uid, None)
        if moved is None and self.taken:
            late = self.taken.pop(tag.uid, None)    # taken back, it seemed, but the gather was only slow
            if late is not None:
                self.ledger.reached_pot_late(late, chip_value(tag))
        b = self.ledger.seats.get(moved[1]) if moved is not None else None
        if b is not None and b.credited > b.present:
            # gathered after its round was closed (a draw game's draw begins at the round's end, before the
            # gather): what is left in the zone is all that is accounted for, so the next bet counts in full
            b.credit(b.present)
        self.pot_chips += chip_value(tag)
        return out

    def chip_from_pot(self, t: float, tag: Tag) -> list[te.TableEvent]:
        out = self.tick(t) if t >= self.quiet_until else []   # as sync: nothing due, no call
        self.pot_chips -= chip_value(tag)
        return out

    def declare_raise(self, t: float, seat: int) -> list[te.TableEvent]:
        if self.ledger.lost:
            return []         # lost track of the betting: quiet until the next deal
        out = self.sync(t, seat)
        self.declared.add(seat)
        return out

    # --- motions ---------------------------------------------------------------------------------------
    def close_motion(self, t: float, seat: int) -> list[te.TableEvent]:
        led = self.ledger
        m = self.motions.pop(seat)
        out: list[te.TableEvent] = []
        if m.foreign:
            out.append(led.finding(t, "procedures.3", "dealer", "wager-corrected",
                                     f"Seat {seat}: {len(m.foreign)} chip(s) not of this house do not play; hand "
                                     f"them back and change them up after the hand.", (seat,)))
        if m.small:
            out.append(led.finding(t, "betting.7", "dealer", "wager-corrected",
                                     f"Seat {seat}: chips of {sorted(set(m.small))} are below the smallest chip in "
                                     f"play ({led.game.smallest_chip}) and do not play, even in quantity.", (seat,)))
        if not m.values:
            return out
        out.append(te.ChipsMoved(t, led.hand, f"bet{seat}", seat, sum(m.values), tuple(m.values)))
        if (seat in self.held and self.string_bet_rule == "tournament.23" and seat in led.seats
                and seat not in self.amount_said):
            # raise said without its amount, chips in a second move: a string bet; the first move is the raise
            led.seats[seat].credit_more(sum(m.values))
            out.append(led.finding(t, "tournament.23", "dealer", "wager-corrected",
                                     f"String bet: seat {seat} said raise without an amount and added {sum(m.values)} "
                                     f"in a second move; the first move is the raise: return the {sum(m.values)}.",
                                     (seat,)))
            return out + self.release(t, seat)
        if seat in self.declared or seat in self.held:
            self.declared.discard(seat)
            self.held[seat] = m.last
            self.due_by(m.last + DECLARE_HOLD)
            return out
        out += self.antes.antes_in(t, seat) if self.antes.due else []
        return out + self.chips_in(t, seat, m.values[0] if len(m.values) == 1 else None)

    def release(self, t: float, seat: int) -> list[te.TableEvent]:
        if self.held.pop(seat, None) is None:
            return []
        return self.chips_in(t, seat, None, declared=True)

    def chips_in(self, t: float, seat: int, single: int | None, declared: bool = False) -> list[te.TableEvent]:
        led = self.ledger
        b = led.seats.get(seat)
        if b is None:
            return [led.finding(t, "betting.10", "dealer", "wager-corrected",
                                  f"Seat {seat} is not in this hand: those chips do not play; return them.", (seat,))]
        present = b.present
        baseline = max(b.credited, b.wager)
        if present <= baseline:
            b.credit(present)      # making up a corrected wager: nothing new
            if seat in led.round_back:   # change put back into the zone: less went back straight
                led.uncalled_handed_back(seat, uncalled({s: x.wager for s, x in led.seats.items()})[1],
                                         b.wager - present)
            return []
        extra = present - baseline
        if b.dead and not b.folded and led.street == "preflop" and not b.voluntary:
            # an absent player's blind is put up even once its hand is dead (Tournaments 3, 9, 11)
            posted = self.posting.try_post(t, seat, present)
            if posted is not None:
                return posted
        if not b.live or b.all_in:
            b.credit(present)
            why = "has folded" if b.folded else ("has a dead hand" if b.dead else "is all-in")
            return [led.finding(t, "betting.10", "dealer", "wager-corrected",
                                  f"Seat {seat} {why} and has no action: those {extra} do not play; return them.",
                                  (seat,))]
        if led.street == "preflop" and not b.voluntary:
            posted = self.posting.try_post(t, seat, present)
            if posted is not None:
                return posted
        intent = b.wager + extra
        if seat != led.to_act:
            if seat in led.round.pending:
                if self.questions.waiting_for_answer(seat):
                    b.queue(("chips", intent, single, None))   # queued behind the answer, not ruled
                    return []
                b.queue(("chips", intent, single, led.round.wager_serial))
                return [led.finding(t, "betting.10", "dealer", "continues",
                                      f"Seat {seat} put chips in out of turn (seat {led.to_act} is to act). It is "
                                      f"binding if nobody in between bets, calls or raises; otherwise seat {seat} "
                                      f"may take the chips back and act again.", (seat, led.to_act))]
            r = led.round
            if seat == r.last_actor and r.action_serial == r.last_actor_serial and not declared:
                b.credit(present)
                return [led.finding(t, self.string_bet_rule, "dealer", "wager-corrected",
                                      f"String raise: seat {seat} added {extra} in a second motion without "
                                      f"declaring a raise. The first action ({b.wager}) stands; return the {extra}.",
                                      (seat,))]
            b.credit(present)
            if self.antes.bomb and led.street == "preflop":   # a bomb pot's first round is the flop's
                return [led.finding(t, "betting.10", "dealer", "wager-corrected",
                                      f"Bomb pot: there is no betting before the flop and seat {seat} has posted "
                                      f"its {self.antes.bomb}; those {extra} more do not play; return them.", (seat,))]
            return [led.finding(t, "betting.10", "dealer", "wager-corrected",
                                  f"Seat {seat} has no action pending: those {extra} do not play; return them.",
                                  (seat,))]
        if self.questions.question is not None and self.questions.question.seat == seat:
            return self.questions.close(t) + self.chips_in(t, seat, single, declared)   # read afresh
        dead = self.posting.dead_blind_owed(seat)
        if dead and intent - dead >= led.round.current_bet and not declared:
            return self.questions.ask_late_blind(t, seat, intent, single, dead)
        out = self.wagers.act(t, seat, intent, single, declared)
        return out + self.turn.advance(t)

    def taken_back(self, t: float, seat: int, value: int) -> list[te.TableEvent]:
        led = self.ledger
        b = led.seats.get(seat)
        out: list[te.TableEvent] = [te.ChipsMoved(t, led.hand, f"bet{seat}", seat, -value, (value,))]
        if b is None or led.settled:
            return out
        if self.questions.question is not None and self.questions.question.seat == seat:
            out += self.questions.close(t)      # the player's own hands answered: the chips are going back
        present = b.present
        top, extra = uncalled({s: x.wager for s, x in led.seats.items()})
        # chips of this seat that left after this one and are not placed yet (the gather may be moving them to
        # the pot) are no take-back so far: the called part is still in play
        moving = sum(v for _, s, v in self.leaving.values() if s == seat) if self.leaving else 0
        # the uncalled part of a bet handed back at the end of the round; once everyone else has folded the
        # whole pot is this seat's, so whatever it takes back early changes nothing
        if (top == seat and led.to_act is None and present + moving >= b.wager - extra) or (
                b.live and len(led.live) <= 1):
            if top == seat and led.to_act is None:   # handed back from the zone: those chips never reach the pot
                led.uncalled_handed_back(seat, extra, b.wager - present - moving)
            b.credit(min(b.credited, present))
            return out
        if present < b.wager:
            undo = self.wagers.undo_offer
            if undo and undo.seat == seat and undo.action_serial + 1 == led.round.action_serial:
                led.restore(undo, present)
                self.wagers.drop_undo()
                return out
            if not b.folded and (seat, led.street, b.wager) not in self.binding_reminded:
                self.binding_reminded.add((seat, led.street, b.wager))
                out.append(led.finding(t, "betting.12", "dealer", "wager-corrected",
                                         f"Seat {seat} took chips back: a bet released into the pot is binding; "
                                         f"put {b.wager - present} back.", (seat,)))
        b.credit(min(b.credited, present))
        return out
