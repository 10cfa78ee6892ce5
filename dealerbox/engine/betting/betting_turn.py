"""The turn: who acts next, recording a ruled wager, out-of-turn actions held until the turn comes (Betting 10),
and the check and fold taps and a dead hand."""

from __future__ import annotations

from .. import events as te
from .blinds import clockwise


class BettingTurn:
    """Part of :class:`HandBetting`: the order of action."""

    # --- turn order -----------------------------------------------------------------------------------
    def _preflop_order(self) -> list[int]:
        last = self.positions.big_blind
        straddler = next((s for s, b in self.seats.items() if b.posted == "straddle"), None)
        if straddler is not None:
            last = straddler
        if last is None:
            return self._active()
        return clockwise(last, self._active(), self.table_seats)

    def _postflop_order(self) -> list[int]:
        active = self._active()
        return active if len(active) >= 2 else []

    def _apply(self, t: float, seat: int, total: int) -> list[te.TableEvent]:
        """Record ``seat``'s wager as ``total`` this round: stacks, raise bookkeeping, the turn."""
        b, st, r = self.seats[seat], self.structure, self.round   # the round read once: every action comes here
        cur_before = r.current_bet
        delta = total - b.wager
        self.table._stacks[seat] -= delta
        b.wager = total
        b.credited = max(0, sum(b.zone.values()) - b.ante)   # b.present, without the property
        b.all_in = self._stack(seat) == 0
        out: list[te.TableEvent] = []
        if total > cur_before:
            action = "bet" if cur_before == 0 else "raise"
            if st.is_limit:
                unit = st.unit(self.street)
                full = (total - r.full_raise_level) * 2 >= unit
            else:
                inc = total - cur_before
                full = inc >= r.last_raise if cur_before else total >= st.min_bet(self.street)
                if full:
                    r.last_raise = max(r.last_raise if cur_before else 0, inc)
            if st.is_limit and r.raises >= st.cap and full:
                out.append(self._finding(t, "betting.4", "info", "continues",
                                         f"Heads-up: raising is unlimited, so seat {seat}'s raise beyond the cap "
                                         f"stands.", (seat,)))
            if full:
                r.full_raise_serial += 1
                r.full_raise_level = total
                r.raises += 1
                if st.is_limit and r.raises >= st.cap and len(self._active()) >= 3:
                    r.capped_multiway = True
            r.current_bet = total
            r.aggressor = seat
            r.wager_levels.append(total)
            r.wager_serial += 1
            r.pending = [s for s in clockwise(seat, self._active(), self.table_seats) if s != seat]
        else:
            action = "check" if delta == 0 else "call"
            if delta:
                r.wager_serial += 1
        if b.all_in and delta:
            action = "all-in"
        b.acted_serial = r.full_raise_serial
        b.voluntary = True
        b.no_raise = False
        b.out_of_turn = None
        if self.street == "preflop":
            r.voluntary_actions += 1
        r.action_serial += 1
        r.last_actor, r.last_actor_serial = seat, r.action_serial
        if seat in r.pending:
            r.pending.remove(seat)
        out.append(te.ActionTaken(t, self.hand, seat, action, delta, total, self.street))
        return out

    def _nothing_to_decide(self, seat: int) -> bool:
        """At the start of a round, a seat whose post already covers everything any other player still in could
        put in (a kill or a straddle against a short stack) faces no bet and has no raise anyone could call: its
        turn is skipped, as the next player then acts at once (issue 18: that player's call was out of turn)."""
        b = self.seats[seat]
        if self.round.voluntary_actions or b.wager < self.round.current_bet:
            return False
        others = [s for s in self.live if s != seat]
        return bool(others) and all(self.seats[s].wager + self._stack(s) <= b.wager for s in others)

    def _advance(self, t: float) -> list[te.TableEvent]:
        """Skip seats that can no longer act and carry out binding out-of-turn actions (Betting 10)."""
        out: list[te.TableEvent] = []
        while self.round.pending:
            if self._live_count() <= 1:
                self.round.pending = []
                break
            seat = self.round.pending[0]
            b = self.seats[seat]
            if not b.live or b.all_in:
                self.round.pending.pop(0)
                continue
            active = self._active()
            if len(active) == 1 and b.wager >= self.round.current_bet:
                self.round.pending = []
                break
            if self._nothing_to_decide(seat):
                self.round.pending.pop(0)
                continue
            if b.out_of_turn is None:
                break
            kind, intent, single, serial = b.out_of_turn
            b.out_of_turn = None
            if serial != self.round.wager_serial:
                if kind == "check":
                    b.no_raise = True
                elif b.present > max(b.credited, b.wager):
                    standing = b.wager + b.present - max(b.credited, b.wager)
                    if standing >= self.round.current_bet:   # less would not answer the bet: the seat adds or folds
                        out += self._ask_stands_by(t, seat, standing, single)
                break
            if kind == "check":
                if b.wager >= self.round.current_bet:
                    out.append(self._apply(t, seat, b.wager)[-1])
                continue
            out += self._act(t, seat, intent, single, False)
        return out

    # --- taps and the engine's calls ---------------------------------------------------------------------
    def check(self, t: float, seat: int | None = None) -> list[te.TableEvent]:
        if self.lost:
            return []         # lost track of the betting: quiet until the next deal
        out = self._sync(t, seat)
        if self.settled:
            return out
        seat = seat if seat is not None else self.to_act
        if seat is None:
            return out
        b = self.seats.get(seat)
        if b is None or not b.live or b.all_in:
            return out + [self._finding(t, "betting.10", "dealer", "continues",
                                        f"Seat {seat} has no hand in play or is all-in: the check means nothing.",
                                        (seat,))]
        if seat != self.to_act:
            if seat in self.round.pending:
                if self._waiting_for_answer(seat):
                    b.out_of_turn = ("check", b.wager, None, None)    # queued behind the answer, not ruled
                    return out
                b.out_of_turn = ("check", b.wager, None, self.round.wager_serial)
                return out + [self._finding(t, "betting.10", "dealer", "continues",
                                            f"Seat {seat} checked out of turn (seat {self.to_act} is to act): the check "
                                            f"is binding if nobody in between bets; if someone does, seat {seat} may "
                                            f"not raise on that turn.", (seat, self.to_act))]
            if b.wager >= self.round.current_bet:
                return out      # a check with nothing to answer (e.g. everyone else all-in) changes nothing
            return out + [self._finding(t, "betting.10", "dealer", "continues",
                                        f"Seat {seat} has no action pending: the check changes nothing.", (seat,))]
        if b.wager < self.round.current_bet:
            return out + [self._finding(t, "betting.16", "dealer", "wager-corrected",
                                        f"Seat {seat} cannot check facing {self.round.current_bet}: call "
                                        f"{self.round.current_bet - b.wager}, "
                                        f"raise or fold.", (seat,))]
        return out + self._apply(t, seat, b.wager) + self._advance(t)

    def fold(self, t: float, seat: int) -> list[te.TableEvent]:
        out = self._sync(t, seat)
        b = self.seats.get(seat)
        if self.settled or b is None or not b.live:
            return out
        if seat != self.to_act and seat in self.round.pending and self.to_act is not None and not self.lost:
            out.append(self._finding(t, "betting.10", "dealer", "continues",
                                     f"Seat {seat} folded out of turn (seat {self.to_act} is to act): the fold stands.",
                                     (seat,)))
        if self.question is not None and self.question.seat == seat:
            out += self._close_question(t)
        b.folded = True
        self.live.discard(seat)
        b.voluntary = True
        if self.street == "preflop":
            self.round.voluntary_actions += 1
        if seat in self.round.pending:
            self.round.pending.remove(seat)
        self.round.action_serial += 1
        out.append(te.ActionTaken(t, self.hand, seat, "fold", 0, b.wager, self.street))
        return out + self._advance(t)

    def kill_hand(self, t: float, seat: int) -> list[te.TableEvent]:
        """A dead hand (the engine's ruling): out of the pot, its chips stay in."""
        out = self._sync(t, seat)
        b = self.seats.get(seat)
        if b is None or not b.live:
            return out
        b.dead = True
        self.live.discard(seat)
        if seat in self.round.pending:
            self.round.pending.remove(seat)
        return out + self._advance(t)
