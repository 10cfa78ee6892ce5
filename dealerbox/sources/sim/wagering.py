"""A simulated hand's chips: blinds, bets and raises as chip motions (with the staged chip irregularities),
bets gathered into the pot, and the pots pushed to the winners."""

from __future__ import annotations

from collections.abc import Sequence

from pokerkit import BetCollection, State

from .hand_state import HandState
from .outcome import ExpectedPot
from .referee import odd_chips


def spread_odd_chips(shares: list[dict[int, int]], adjust: dict[int, int]) -> list[dict[int, int]]:
    """Each push's shares with the rulebook's odd-chip difference per seat (``adjust``) applied in the split
    pushes, in order, never below nothing: a seat that gets less than pokerkit gave it (a many-way split of several
    pots) takes it from its later shares (issue 18: a board every player plays left a share of -1)."""
    left = dict(adjust)
    out = [dict(s) for s in shares]
    for split_only in (True, False):
        for push in out:
            if split_only and len(push) < 2:
                continue
            for seat in [s for s in push if left.get(s)]:
                take = max(left[seat], -push[seat])
                push[seat] += take
                left[seat] -= take
    return out      # a winner may be left with nothing of one pot: still one of its winners, for the award tap


class Wagering(HandState):
    """Chip motions of one hand."""

    def _foreign_uid(self, kind: str) -> str:
        if kind == "unknown-chip":
            return "04" + self.rng.getrandbits(48).to_bytes(6, "big").hex()
        for cs in self.session.registry.chip_sets:
            if cs.house != self.session.config.enrolment.house and cs.chips:
                return sorted(cs.chips)[self.rng.randrange(len(cs.chips))]
        return "04" + self.rng.getrandbits(48).to_bytes(6, "big").hex()

    def _put(self, seat: int, amount: int, trick: str | None = None, raising: bool = False) -> None:
        """The seat puts chips worth ``amount`` into its bet zone: one motion, unless ``trick`` says otherwise.
        ``raising``: a raise facing a bet, which a lone chip would not make (No-Limit 9, Betting 15)."""
        if amount <= 0:
            return
        zone = f"bet{seat}"
        chips = self.chips
        if trick in ("foreign-chip", "unknown-chip", "small-chip"):
            odd = self._odd_chip(trick)
            if odd is not None:
                # the house chips alone must still make the raise, or the odd chip gone leaves a lone-chip call
                uids = self._pay(seat, amount, raising)
                self.bets[seat].extend(uids)
                self.c.motion(zone, uids[:1] + [odd] + uids[1:])
                self.c.wait(self.rng.uniform(1.0, 2.0))
                self.c.leave(zone, odd)         # the dealer hands the odd chip back; it does not play
                self._applied()
                return
        if trick == "short-call":
            unit = self.game.smallest_chip
            first = amount // 2 // unit * unit
            if 0 < first < amount:
                for part in (first, amount - first):
                    uids = chips.pay(seat, part)
                    self.bets[seat].extend(uids)
                    self.c.motion(zone, uids)
                    self.c.wait(self.rng.uniform(1.5, 3.0))  # brought up to the call in a second motion
                self._applied()
                return
        uids = self._pay(seat, amount, raising)
        self.bets[seat].extend(uids)
        self.c.motion(zone, uids)

    def _pay(self, seat: int, amount: int, raising: bool) -> list[str]:
        """Chips worth ``amount`` from the seat's stack. ``raising``: a lone chip facing a bet would be a call
        (No-Limit 9, Betting 15), so it is broken into smaller chips, or the player says "raise" first."""
        chips = self.chips
        uids = chips.pay(seat, amount)
        if raising and len(uids) == 1:
            chips.receive(seat, uids)
            smaller = [d for d in chips.denoms if d < chips.value[uids[0]]]
            broken = chips._draw(chips.pools[seat], amount, smaller) if self.rng.random() < 0.5 else None
            uids = broken if broken and len(broken) > 1 else chips.pay(seat, amount)
            if len(uids) == 1:
                self.c.tap("declare-raise", seat=seat)
                self.c.wait(0.3)
        return uids

    def _string_raise(self, seat: int, call: int, extra: int) -> None:
        """A call, then more chips in a second motion: only the call plays, the dealer hands the rest back."""
        zone = f"bet{seat}"
        self._put(seat, call)
        self.c.wait(self.rng.uniform(1.0, 2.0))
        more = self.chips.pay(seat, extra)
        self.c.motion(zone, more)
        self.c.wait(self.rng.uniform(1.5, 3.0))
        self.c.take(zone, more)
        self.chips.receive(seat, more)
        self._applied()

    def _applied(self) -> None:
        self.chip_trick = None
        self.applied = True

    def _odd_chip(self, trick: str) -> str | None:
        if trick == "small-chip":
            return self.chips.below_smallest()
        return self._foreign_uid(trick)

    def _trick_for(self, call: int, raising: bool) -> str | None:
        """The chip irregularity to act out on this action, if it is due and fits the action."""
        t = self.chip_trick
        if t is None:
            return None
        if self.trick_at > 0:
            self.trick_at -= 1
            return None
        if t == "string-raise":
            return t if raising and call else None
        if t == "short-call":
            return t if call >= 2 * self.game.smallest_chip and not raising else None
        return t

    def _act(self, st: State) -> None:
        rng, g = self.rng, self.game
        i = st.actor_index
        seat = self.order[i]
        self.c.wait(rng.uniform(1.0, 8.0))
        call = st.checking_or_calling_amount
        self.rules.new_street(self.street)
        # The minimum raise exists exactly when a raise is allowed; can_complete_bet_or_raise_to() would
        # recompute it and the maximum several times over (pokerkit's properties are not cached).
        lo = st.min_completion_betting_or_raising_to_amount
        can_raise = lo is not None
        roll = rng.random()
        if call and (roll < 0.25 or (self.raises_seen > 3 and roll < 0.5)):
            uids = [u for u, z in self.cards_out.items() if z == f"seat{seat}"]
            for uid in uids:
                self.c.move(uid, f"seat{seat}", "muck", travel=0.3)
                self.cards_out[uid] = "muck"
            st.fold()
            self.expected.actions.append((self.street, seat, "fold", 0))
            return
        want_raise = can_raise and roll > (0.75 if call else 0.55) and self.raises_seen < 6
        if self.chip_trick == "string-raise" and self.trick_at <= 0 and can_raise and call:
            want_raise = True
        before = st.bets[i]
        if want_raise:
            # only raises the rulebook allows too (the cap, short all-ins: see .raising)
            active = sum(1 for j, live in enumerate(st.statuses) if live and st.stacks[j] > 0)
            legal = self.rules.legal(seat, before, st.stacks[i], lo, st.max_completion_betting_or_raising_to_amount,
                                     active, sum(self.stacks_before.values()) - sum(st.stacks))
            want_raise = legal is not None
        if want_raise:
            lo, hi = legal
            unit = g.smallest_chip
            choice = rng.random()
            if lo >= hi or choice < 0.35:
                to = lo
            elif choice < 0.5:
                to = hi  # pot-size (pot limit) or all-in (no limit)
            else:
                pot = st.total_pot_amount + call
                target = before + call + int(pot * rng.choice((0.5, 0.75, 1.0)))
                to = max(lo, min(hi, target // unit * unit))
            trick = self._trick_for(call, True)
            if trick == "string-raise" and to - before - call > 0:
                self._string_raise(seat, call, to - before - call)
                st.check_or_call()
                self.rules.acted(seat, before + call)
                self.expected.actions.append((self.street, seat, "call", before + call))
                return
            self._put(seat, to - before, trick, raising=bool(call))
            st.complete_bet_or_raise_to(to)
            self.rules.acted(seat, to, sum(1 for j, live in enumerate(st.statuses) if live and st.stacks[j] > 0))
            self.raises_seen += 1
            self.expected.actions.append((self.street, seat, "raise" if call or self.street == "preflop" else "bet", to))
            return
        if call:
            self._put(seat, call, self._trick_for(call, False))
            st.check_or_call()
            self.rules.acted(seat, before + call)
            self.expected.actions.append((self.street, seat, "call", before + call))
        else:
            self.c.tap("check", seat=seat)
            st.check_or_call()
            self.rules.acted(seat, before)
            self.expected.actions.append((self.street, seat, "check", before))

    def _sync_ops(self, st: State) -> None:
        """Act out what pokerkit did on its own: the gather after a betting round."""
        ops = st.operations[self.done_ops:]
        self.done_ops = len(st.operations)
        for op in ops:
            if isinstance(op, BetCollection):
                self._gather(op.bets)

    def _gather(self, collected: Sequence[int]) -> None:
        chips = self.chips
        self.c.wait(self.rng.uniform(0.8, 1.5))
        lying, self.antes_lying = self.antes_lying, [0] * len(self.order)
        for i, seat in enumerate(self.order):
            zone = self.bets[seat]
            extra = chips.worth(zone) - collected[i] - lying[i]
            if extra > 0:  # an uncalled bet goes back to its owner
                back = self.chips.take_from(self.c, zone, extra, f"bet{seat}")
                self.c.take(f"bet{seat}", back)
                chips.receive(seat, back)
                self.expected.returned[seat] = self.expected.returned.get(seat, 0) + extra
                self.c.wait(0.5)
        moving = [(f"bet{s}", u) for s in self.order for u in self.bets[s]]
        if moving:
            for zone, uid in moving:
                self.c.leave(zone, uid)
            self.c.wait(0.4)
            for zone, uid in moving:
                self.c.enter("pot", uid)
                self.pot.append(uid)
            self.c.wait(0.5)
        for s in self.order:
            self.bets[s] = []

    def _award(self, st: State) -> None:
        pots = list(st.pots)
        chips = self.chips
        pushes = []
        while st.can_push_chips():
            pushes.append(st.push_chips())
        adjust = odd_chips(st, pushes, self.order, self.stacks_before, self.expected, self.session.holes,
                           self.game.smallest_chip)
        self.expected.odd_chips = dict(adjust)
        self.c.wait(self.rng.uniform(2.0, 4.0))  # showdown: cards speak
        all_shares = spread_odd_chips([{self.order[i]: a for i, a in enumerate(op.amounts) if a > 0}
                                       for op in pushes], adjust)
        for op, shares in zip(pushes, all_shares):
            pot = pots[op.pot_index] if op.pot_index < len(pots) else None
            eligible = tuple(sorted(self.order[i] for i in pot.player_indices)) if pot else tuple(shares)
            self.expected.pots.append(ExpectedPot(sum(shares.values()), eligible, tuple(sorted(shares)), shares))
            for seat, amount in shares.items():
                if amount <= 0:
                    continue
                pushed = self.chips.take_from(self.c, self.pot, amount, "pot")
                self.c.sweep("pot", f"bet{seat}", pushed)
                self.c.wait(0.6)
            self.c.tap("award", ref=str(op.pot_index), seats=tuple(sorted(shares)))
            self.c.wait(self.rng.uniform(0.8, 2.0))
            for seat, _ in shares.items():
                taken = [u for u, z in self.c.where.items() if z == f"bet{seat}"]
                self.c.take(f"bet{seat}", taken)
                chips.receive(seat, taken)
            self.c.wait(0.5)
        self._sync_ops(st)
