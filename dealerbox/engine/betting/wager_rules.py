"""What a wager may be: the minimum bet and raise, the pot limit, the cap, a single oversized chip, a raise
that does not reopen the betting. A wager that breaks a rule is ruled to what the rules say, with the finding."""

from __future__ import annotations

from .. import events as te
from .betting_round import UndoPoint
from .structures import POT_LIMIT


class WagerRules:
    """Part of :class:`HandBetting`: a seat's wager, ruled."""

    tournament_cap = False    # a tournament table: the limit cap holds heads-up too (Tournaments 22, not Betting 4)

    # --- the rules of a wager ---------------------------------------------------------------------------
    def _pot_now(self, seat: int) -> int:
        pot = sum(self.contributed.values()) + sum(self.dead_money.values()) + sum(b.wager for b in self.seats.values())
        return pot + self._option_extra()

    def _option_extra(self) -> int:
        """Pot-Limit 6's option: before the flop, while the small blind's only wager is its blind and the big blind
        has not acted, the small blind counts as a big blind in the pot. The chips it adds (0 when it does not)."""
        if (self.structure.sb_counts_as_bb and self.street == "preflop" and self.positions.small_blind in self.seats
                and self.positions.big_blind in self.seats and self.seats[self.positions.big_blind].acted_serial is None
                and self.seats[self.positions.small_blind].wager == self.game.small_blind):
            return self.game.big_blind - self.game.small_blind
        return 0

    def _rounding(self) -> str:
        r = self.structure.pot_round_to
        return f" (rounded up to a multiple of {r})" if r > 1 else ""

    def _raise_range(self, seat: int, max_total: int) -> tuple[int, int]:
        st, b = self.structure, self.seats[seat]
        if st.is_limit:
            unit = st.unit(self.street)
            target = unit if self.round.current_bet == 0 else self.round.full_raise_level + unit
            return target, target
        base = max(self.round.current_bet, self.structure.min_bet(self.street) if self.street == "preflop" else 0)
        min_to = st.min_bet(self.street) if self.round.current_bet == 0 else base + self.round.last_raise
        if st.kind == POT_LIMIT:
            return min_to, max(min_to, st.pot_max_to(self.round.current_bet, b.wager, self._pot_now(seat)))
        return min_to, max_total

    def _may_raise(self, seat: int) -> tuple[bool, str, str]:
        """(allowed, rule, ruling) for a raise by ``seat`` now."""
        b, st = self.seats[seat], self.structure
        if b.no_raise:
            return False, "betting.10", f"Seat {seat} checked out of turn and may not bet or raise this turn"
        others = [s for s in self._active() if s != seat]
        if not others:
            return False, "", ""
        if (b.acted_serial is not None and b.acted_serial == self.round.full_raise_serial
                and self.round.current_bet > b.wager):
            rule = "betting.5" if st.is_limit else "no-limit.3"
            return False, rule, (f"Seat {seat} already acted and was not fully raised (the all-in was short), so "
                                 f"it may only call or fold")
        if st.is_limit and self.round.raises >= st.cap:
            if len(self._active()) >= 3 or self.round.capped_multiway:
                extra = " (it was capped before it became heads-up, Betting 4)" if len(self._active()) < 3 else ""
                return False, "betting.3", f"The betting is capped at a bet and {st.max_raises} raises{extra}"
            if self.tournament_cap:
                return False, "tournament.22", (f"The cap is a bet and {st.max_raises} raises, heads-up too, until "
                                                "two players remain in the event")
        return True, "", ""

    def _act(self, t: float, seat: int, intent: int, single: int | None, declared: bool) -> list[te.TableEvent]:
        b, st = self.seats[seat], self.structure
        max_total = b.wager + self._stack(seat)
        total = min(intent, max_total)
        cur = self.round.current_bet     # the bet to match before this wager
        out: list[te.TableEvent] = []

        def rule(rule_id: str, ruling: str, severity: str = "dealer") -> None:
            out.append(self._finding(t, rule_id, severity, "wager-corrected", ruling, (seat,)))

        if total <= cur:
            if total < cur and total < max_total:
                target = min(cur, max_total)
                levels = self.round.wager_levels
                earlier = [lv for lv in levels[:-1] if lv == total]
                if self.killer is not None and total == self.game.big_blind and cur >= self.table.kill.amount(
                        self.game.big_blind):
                    rule("kill.9", f"The pot is killed (kill button up): seat {seat} must put in the full {target}.")
                elif earlier or (levels and total == (levels[-2] if len(levels) > 1 else 0)):
                    self.undo_offer = UndoPoint(seat, self.round.action_serial, self.round.copy(), self._stack(seat))
                    rule("betting.12", f"Seat {seat} put in {total}, unaware of the raise to {cur}: bring it up to "
                                       f"{target}, or take the chips back and act again (nobody has acted since).")
                else:
                    rule("betting.16", f"Seat {seat} must bring the call up to {target} before the round ends.")
                total = target
            return out + self._apply(t, seat, total)
        facing = cur > b.wager
        if single is not None and facing and not declared:
            call_to = min(cur, max_total)
            rule("betting.15" if st.is_limit else "no-limit.9",
                 f"Seat {seat}'s single {single} chip, put in without a word, is a call of {call_to - b.wager}; "
                 f"give back {total - call_to} in change.")
            return out + self._apply(t, seat, call_to)
        allowed, why_rule, why = self._may_raise(seat)
        if not allowed:
            target = min(cur, max_total)
            if why_rule:
                action = f"a call of {target - b.wager}" if target > b.wager else "a check"
                rule(why_rule, f"{why}: the wager is {action}; return {total - target}.")
            return out + self._apply(t, seat, target)
        min_to, max_to = self._raise_range(seat, max_total)
        all_in = total >= max_total
        if total < min_to and not all_in:
            inc_needed = min_to - cur
            short = total - cur
            target = min(min_to, max_total)
            if st.is_limit:
                if cur == 0:
                    rule("betting.16", f"Seat {seat} must bring the bet up to {target} (the bet on this round).")
                elif short * 2 >= st.unit(self.street):
                    rule("betting.14", f"Seat {seat} put in a call and half a bet or more: that is a raise; "
                                       f"it must be completed to {target}.")
                else:
                    target = min(cur, max_total)
                    rule("betting.6", f"Seat {seat}'s {short} over the call is less than a raise: it is a call "
                                      f"of {target - b.wager}; return {short}.")
            else:
                if cur == 0:
                    rule("no-limit.2", f"Seat {seat} must bring the bet up to {target} (the minimum bet).")
                elif short * 2 >= inc_needed:
                    rule("no-limit.10", f"Seat {seat} must bring the raise up to {target} (minimum raise), no more.")
                else:
                    target = min(cur, max_total)
                    rule("no-limit.10", f"Seat {seat}'s {short} over the call is under half the minimum raise: it "
                                        f"is a call of {target - b.wager}; return {short}.")
            total = target
        elif total > max_to:
            surplus = total - max_to
            if st.is_limit:
                rule("betting.16", f"The limit is {max_to} in all: seat {seat}'s wager is {max_to}; return {surplus}.")
            elif single is not None and not facing:
                rule("pot-limit.7", f"Seat {seat}'s single {single} chip is larger than the pot: it is a pot-sized "
                                    f"bet of {max_to}; return {surplus}.")
            elif cur == 0:
                rule("pot-limit.1", f"Seat {seat}'s bet is over the pot{self._rounding()}: it is reduced to {max_to}; "
                                    f"return {surplus}.")
            elif self._option_extra():      # the option made the pot larger: it is the rule that sized it
                rule("pot-limit.6", f"With the small blind counted as a big blind the most seat {seat} may make it is "
                                    f"{max_to}; return {surplus}.")
            else:
                rule("pot-limit.4", f"The largest raise is the pot after the call{self._rounding()}: seat {seat} makes "
                                    f"it {max_to} "
                                    f"in all; return {surplus}.")
            total = max_to
        return out + self._apply(t, seat, total)
