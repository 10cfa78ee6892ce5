"""What a wager may be: the minimum bet and raise, the pot limit, the cap, a single oversized chip, a raise
that does not reopen the betting. A wager that breaks a rule is ruled to what the rules say, with the finding."""

from __future__ import annotations

from .. import events as te
from .betting_round import UndoPoint
from .blinds import clockwise
from .ledger import HandLedger
from .structures import POT_LIMIT


class WagerRules:
    """Part of :class:`HandBetting`: a seat's wager, ruled, then recorded on the ledger. It owns the offer to
    take back a short call (Betting 12) and the tournament's heads-up cap. ``kill_amount`` is what a kill
    posts this hand (the game's big blind scaled by the kill mode)."""

    def __init__(self, ledger: HandLedger, kill_amount: int) -> None:
        self.ledger = ledger
        self.kill_amount = kill_amount
        self.undo_offer: UndoPoint | None = None     # a short call that may be taken back (Betting 12)
        self.tournament_cap = False   # a tournament table: the limit cap holds heads-up too (Tournaments 22)

    def cap_heads_up(self, cap: bool) -> None:
        """A tournament table: whether the limit cap holds heads-up too (Tournaments 22)."""
        self.tournament_cap = cap

    # --- the rules of a wager ---------------------------------------------------------------------------
    def pot_now(self, seat: int) -> int:
        led = self.ledger
        pot = sum(led.contributed.values()) + sum(led.dead_money.values()) + sum(b.wager for b in led.seats.values())
        return pot + self.option_extra()

    def option_extra(self) -> int:
        """Pot-Limit 6's option: before the flop, while the small blind's only wager is its blind and the big blind
        has not acted, the small blind counts as a big blind in the pot. The chips it adds (0 when it does not)."""
        led = self.ledger
        if (led.structure.sb_counts_as_bb and led.street == "preflop" and led.positions.small_blind in led.seats
                and led.positions.big_blind in led.seats and led.seats[led.positions.big_blind].acted_serial is None
                and led.seats[led.positions.small_blind].wager == led.game.small_blind):
            return led.game.big_blind - led.game.small_blind
        return 0

    def rounding(self) -> str:
        r = self.ledger.structure.pot_round_to
        return f" (rounded up to a multiple of {r})" if r > 1 else ""

    def raise_range(self, seat: int, max_total: int) -> tuple[int, int]:
        led = self.ledger
        st, b = led.structure, led.seats[seat]
        if st.is_limit:
            unit = st.unit(led.street)
            target = unit if led.round.current_bet == 0 else led.round.full_raise_level + unit
            return target, target
        base = max(led.round.current_bet, led.structure.min_bet(led.street) if led.street == "preflop" else 0)
        min_to = st.min_bet(led.street) if led.round.current_bet == 0 else base + led.round.last_raise
        if st.kind == POT_LIMIT:
            return min_to, max(min_to, st.pot_max_to(led.round.current_bet, b.wager, self.pot_now(seat)))
        return min_to, max_total

    def may_raise(self, seat: int) -> tuple[bool, str, str]:
        """(allowed, rule, ruling) for a raise by ``seat`` now."""
        led = self.ledger
        b, st = led.seats[seat], led.structure
        if b.no_raise:
            return False, "betting.10", f"Seat {seat} checked out of turn and may not bet or raise this turn"
        others = [s for s in led.active() if s != seat]
        if not others:
            return False, "", ""
        if (b.acted_serial is not None and b.acted_serial == led.round.full_raise_serial
                and led.round.current_bet > b.wager):
            rule = "betting.5" if st.is_limit else "no-limit.3"
            return False, rule, (f"Seat {seat} already acted and was not fully raised (the all-in was short), so "
                                 f"it may only call or fold")
        if st.is_limit and led.round.raises >= st.cap:
            if len(led.active()) >= 3 or led.round.capped_multiway:
                extra = " (it was capped before it became heads-up, Betting 4)" if len(led.active()) < 3 else ""
                return False, "betting.3", f"The betting is capped at a bet and {st.max_raises} raises{extra}"
            if self.tournament_cap:
                return False, "tournament.22", (f"The cap is a bet and {st.max_raises} raises, heads-up too, until "
                                                "two players remain in the event")
        return True, "", ""

    def act(self, t: float, seat: int, intent: int, single: int | None, declared: bool) -> list[te.TableEvent]:
        led = self.ledger
        b, st = led.seats[seat], led.structure
        max_total = b.wager + led.stack(seat)
        total = min(intent, max_total)
        cur = led.round.current_bet     # the bet to match before this wager
        out: list[te.TableEvent] = []

        def rule(rule_id: str, ruling: str, severity: str = "dealer") -> None:
            out.append(led.finding(t, rule_id, severity, "wager-corrected", ruling, (seat,)))

        if total <= cur:
            if total < cur and total < max_total:
                target = min(cur, max_total)
                levels = led.round.wager_levels
                earlier = [lv for lv in levels[:-1] if lv == total]
                if led.killer is not None and total == led.game.big_blind and cur >= self.kill_amount:
                    rule("kill.9", f"The pot is killed (kill button up): seat {seat} must put in the full {target}.")
                elif earlier or (levels and total == (levels[-2] if len(levels) > 1 else 0)):
                    self.undo_offer = UndoPoint(seat, led.round.action_serial, led.round.copy(), led.stack(seat))
                    rule("betting.12", f"Seat {seat} put in {total}, unaware of the raise to {cur}: bring it up to "
                                       f"{target}, or take the chips back and act again (nobody has acted since).")
                else:
                    rule("betting.16", f"Seat {seat} must bring the call up to {target} before the round ends.")
                total = target
            return out + self.record(t, seat, total)
        facing = cur > b.wager
        if single is not None and facing and not declared:
            call_to = min(cur, max_total)
            rule("betting.15" if st.is_limit else "no-limit.9",
                 f"Seat {seat}'s single {single} chip, put in without a word, is a call of {call_to - b.wager}; "
                 f"give back {total - call_to} in change.")
            return out + self.record(t, seat, call_to)
        allowed, why_rule, why = self.may_raise(seat)
        if not allowed:
            target = min(cur, max_total)
            if why_rule:
                action = f"a call of {target - b.wager}" if target > b.wager else "a check"
                rule(why_rule, f"{why}: the wager is {action}; return {total - target}.")
            return out + self.record(t, seat, target)
        min_to, max_to = self.raise_range(seat, max_total)
        all_in = total >= max_total
        if total < min_to and not all_in:
            inc_needed = min_to - cur
            short = total - cur
            target = min(min_to, max_total)
            if st.is_limit:
                if cur == 0:
                    rule("betting.16", f"Seat {seat} must bring the bet up to {target} (the bet on this round).")
                elif short * 2 >= st.unit(led.street):
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
                rule("pot-limit.1", f"Seat {seat}'s bet is over the pot{self.rounding()}: it is reduced to {max_to}; "
                                    f"return {surplus}.")
            elif self.option_extra():      # the option made the pot larger: it is the rule that sized it
                rule("pot-limit.6", f"With the small blind counted as a big blind the most seat {seat} may make it is "
                                    f"{max_to}; return {surplus}.")
            else:
                rule("pot-limit.4", f"The largest raise is the pot after the call{self.rounding()}: seat {seat} makes "
                                    f"it {max_to} "
                                    f"in all; return {surplus}.")
            total = max_to
        return out + self.record(t, seat, total)

    def drop_undo(self) -> None:
        """The short call can no longer be taken back (taken back already, or the round or hand moved on)."""
        self.undo_offer = None

    def record(self, t: float, seat: int, total: int) -> list[te.TableEvent]:
        """Record ``seat``'s wager as ``total`` this round: stacks, raise bookkeeping, the turn."""
        led = self.ledger
        b, st, r = led.seats[seat], led.structure, led.round   # the round read once: every action comes here
        cur_before = r.current_bet
        delta = total - b.wager
        led.take(seat, delta)
        b.bet_to(total, led.stack(seat) == 0)
        out: list[te.TableEvent] = []
        if total > cur_before:
            action = "bet" if cur_before == 0 else "raise"
            last_raise = None
            if st.is_limit:
                unit = st.unit(led.street)
                full = (total - r.full_raise_level) * 2 >= unit
            else:
                inc = total - cur_before
                full = inc >= r.last_raise if cur_before else total >= st.min_bet(led.street)
                if full:
                    last_raise = max(r.last_raise if cur_before else 0, inc)
            if st.is_limit and r.raises >= st.cap and full:
                out.append(led.finding(t, "betting.4", "info", "continues",
                                         f"Heads-up: raising is unlimited, so seat {seat}'s raise beyond the cap "
                                         f"stands.", (seat,)))
            active = led.active()
            capped = full and st.is_limit and r.raises + 1 >= st.cap and len(active) >= 3
            r.raised(seat, total, full, last_raise, capped, [s for s in clockwise(seat, active, led.table_seats)
                                                            if s != seat])
        else:
            action = "check" if delta == 0 else "call"
            if delta:
                r.called()
        if b.all_in and delta:
            action = "all-in"
        b.acted(r.full_raise_serial)
        r.acted(seat, led.street == "preflop")
        out.append(te.ActionTaken(t, led.hand, seat, action, delta, total, led.street))
        return out
