"""A simulated hand's chips: blinds, bets and raises as chip motions (with the staged chip irregularities),
bets gathered into the pot, and the pots pushed to the winners."""

from __future__ import annotations

from collections.abc import Sequence

from pokerkit import BetCollection, State

from ..raising import RaiseRules
from .hand_state import HandState
from .outcome import CHIP_KINDS, ExpectedPot, SimulatorError
from .referee import SPLIT, odd_chips


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


class Wagering:
    """Chip motions of one hand: given the hand's state, owns the betting's own (the raise rules, the staged
    chip irregularity and when it is due, the raises so far, the referee's operations acted out)."""

    def __init__(self, hand: HandState) -> None:
        self.h = hand
        self.rules: RaiseRules | None = None      # set by :meth:`open_betting` once the blinds are in
        self.done_ops = 0
        self.raises_seen = 0
        self.chip_trick = hand.kind if hand.kind in CHIP_KINDS else None
        self.trick_at = hand.rng.randint(0, 3)    # voluntary actions to let pass before the chip irregularity

    def open_betting(self, rules: RaiseRules, done_ops: int) -> RaiseRules:
        """The raise rules of this hand, and how many referee operations the blinds already acted out."""
        self.rules, self.done_ops = rules, done_ops
        return rules

    def _foreign_uid(self, kind: str) -> str:
        if kind == "unknown-chip":
            return "04" + self.h.rng.getrandbits(48).to_bytes(6, "big").hex()
        for cs in self.h.session.registry.chip_sets:
            if cs.house != self.h.session.config.enrolment.house and cs.chips:
                return sorted(cs.chips)[self.h.rng.randrange(len(cs.chips))]
        return "04" + self.h.rng.getrandbits(48).to_bytes(6, "big").hex()

    def put(self, seat: int, amount: int, trick: str | None = None, raising: bool = False) -> None:
        """The seat puts chips worth ``amount`` into its bet zone: one motion, unless ``trick`` says otherwise.
        ``raising``: a raise facing a bet, which a lone chip would not make (No-Limit 9, Betting 15)."""
        if amount <= 0:
            return
        zone = f"bet{seat}"
        chips = self.h.chips
        if trick in ("foreign-chip", "unknown-chip", "small-chip"):
            odd = self._odd_chip(trick)
            if odd is not None:
                # the house chips alone must still make the raise, or the odd chip gone leaves a lone-chip call
                uids = self._pay(seat, amount, raising)
                self.h.bets[seat].extend(uids)
                self.h.c.motion(zone, uids[:1] + [odd] + uids[1:])
                self.h.c.wait(self.h.rng.uniform(1.0, 2.0))
                self.h.c.leave(zone, odd)         # the dealer hands the odd chip back; it does not play
                self._applied()
                return
        if trick == "short-call":
            unit = self.h.game.smallest_chip
            first = amount // 2 // unit * unit
            if 0 < first < amount:
                for part in (first, amount - first):
                    uids = chips.pay(seat, part)
                    self.h.bets[seat].extend(uids)
                    self.h.c.motion(zone, uids)
                    self.h.c.wait(self.h.rng.uniform(1.5, 3.0))  # brought up to the call in a second motion
                self._applied()
                return
        uids = self._pay(seat, amount, raising)
        self.h.bets[seat].extend(uids)
        self.h.c.motion(zone, uids)

    def _pay(self, seat: int, amount: int, raising: bool) -> list[str]:
        """Chips worth ``amount`` from the seat's stack. ``raising``: a lone chip facing a bet would be a call
        (No-Limit 9, Betting 15), so it is broken into smaller chips, or the player says "raise" first."""
        chips = self.h.chips
        uids = chips.pay(seat, amount)
        if raising and len(uids) == 1:
            chips.receive(seat, uids)
            smaller = [d for d in chips.denoms if d < chips.value[uids[0]]]
            broken = chips._draw(chips.pools[seat], amount, smaller) if self.h.rng.random() < 0.5 else None
            uids = broken if broken and len(broken) > 1 else chips.pay(seat, amount)
            if len(uids) == 1:
                self.h.c.tap("declare-raise", seat=seat)
                self.h.c.wait(0.3)
        return uids

    def _string_raise(self, seat: int, call: int, extra: int) -> None:
        """A call, then more chips in a second motion: only the call plays, the dealer hands the rest back."""
        zone = f"bet{seat}"
        self.put(seat, call)
        self.h.c.wait(self.h.rng.uniform(1.0, 2.0))
        more = self.h.chips.pay(seat, extra)
        self.h.c.motion(zone, more)
        self.h.c.wait(self.h.rng.uniform(1.5, 3.0))
        self.h.c.take(zone, more)
        self.h.chips.receive(seat, more)
        self._applied()

    def _applied(self) -> None:
        self.chip_trick = None
        self.h.applied = True

    def _odd_chip(self, trick: str) -> str | None:
        if trick == "small-chip":
            return self.h.chips.below_smallest()
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
            return t if call >= 2 * self.h.game.smallest_chip and not raising else None
        return t

    def act(self, st: State) -> None:
        rng, g = self.h.rng, self.h.game
        rules = self.rules
        if rules is None:
            raise SimulatorError("a bet before the blinds: open_betting() first")
        i = st.actor_index
        call = st.checking_or_calling_amount
        if i is None or call is None:  # pokerkit has both exactly when someone is to act
            raise SimulatorError("act() with nobody to act: check st.actor_index first")
        seat = self.h.order[i]
        self.h.c.wait(rng.uniform(1.0, 8.0))
        rules.new_street(self.h.street)
        # The minimum raise exists exactly when a raise is allowed; can_complete_bet_or_raise_to() would
        # recompute it and the maximum several times over (pokerkit's properties are not cached).
        lo = st.min_completion_betting_or_raising_to_amount
        can_raise = lo is not None
        roll = rng.random()
        if call and (roll < 0.25 or (self.raises_seen > 3 and roll < 0.5)):
            uids = [u for u, z in self.h.cards_out.items() if z == f"seat{seat}"]
            for uid in uids:
                self.h.c.move(uid, f"seat{seat}", "muck", travel=0.3)
                self.h.cards_out[uid] = "muck"
            st.fold()
            self.h.expected.actions.append((self.h.street, seat, "fold", 0))
            return
        want_raise = can_raise and roll > (0.75 if call else 0.55) and self.raises_seen < 6
        if self.chip_trick == "string-raise" and self.trick_at <= 0 and can_raise and call:
            want_raise = True
        before = st.bets[i]
        legal: tuple[int, int] | None = None
        if want_raise and lo is not None:  # want_raise implies can_raise, i.e. lo is set
            top = st.max_completion_betting_or_raising_to_amount
            assert top is not None  # pokerkit sets the maximum exactly when it sets the minimum
            # only raises the rulebook allows too (the cap, short all-ins: see .raising)
            active = sum(1 for j, live in enumerate(st.statuses) if live and st.stacks[j] > 0)
            legal = rules.legal(seat, before, st.stacks[i], lo, top,
                                active, sum(self.h.stacks_before.values()) - sum(st.stacks))
        if legal is not None:
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
                rules.acted(seat, before + call)
                self.h.expected.actions.append((self.h.street, seat, "call", before + call))
                return
            self.put(seat, to - before, trick, raising=bool(call))
            st.complete_bet_or_raise_to(to)
            rules.acted(seat, to, sum(1 for j, live in enumerate(st.statuses) if live and st.stacks[j] > 0))
            self.raises_seen += 1
            verb = "raise" if call or self.h.street == "preflop" else "bet"
            self.h.expected.actions.append((self.h.street, seat, verb, to))
            return
        if call:
            self.put(seat, call, self._trick_for(call, False))
            st.check_or_call()
            rules.acted(seat, before + call)
            self.h.expected.actions.append((self.h.street, seat, "call", before + call))
        else:
            self.h.c.tap("check", seat=seat)
            st.check_or_call()
            rules.acted(seat, before)
            self.h.expected.actions.append((self.h.street, seat, "check", before))

    def sync_ops(self, st: State) -> None:
        """Act out what pokerkit did on its own: the gather after a betting round."""
        ops = st.operations[self.done_ops:]
        self.done_ops = len(st.operations)
        for op in ops:
            if isinstance(op, BetCollection):
                self._gather(op.bets)

    def gather_posts(self) -> None:
        """A bomb pot's posts into the pot before its flop: the hand has no round before the flop to gather them."""
        self._gather([0] * len(self.h.order))

    def _gather(self, collected: Sequence[int]) -> None:
        chips = self.h.chips
        self.h.c.wait(self.h.rng.uniform(0.8, 1.5))
        lying, self.h.antes_lying = self.h.antes_lying, [0] * len(self.h.order)
        for i, seat in enumerate(self.h.order):
            zone = self.h.bets[seat]
            extra = chips.worth(zone) - collected[i] - lying[i]
            if extra > 0:  # an uncalled bet goes back to its owner
                back = self.h.chips.take_from(self.h.c, zone, extra, f"bet{seat}")
                self.h.c.take(f"bet{seat}", back)
                chips.receive(seat, back)
                self.h.expected.returned[seat] = self.h.expected.returned.get(seat, 0) + extra
                self.h.c.wait(0.5)
        moving = [(f"bet{s}", u) for s in self.h.order for u in self.h.bets[s]]
        if moving:
            for bet_zone, uid in moving:
                self.h.c.leave(bet_zone, uid)
            self.h.c.wait(0.4)
            for _zone, uid in moving:
                self.h.c.enter("pot", uid)
                self.h.pot.append(uid)
            self.h.c.wait(0.5)
        for s in self.h.order:
            self.h.bets[s] = []

    def award(self, st: State) -> None:
        pots = list(st.pots)
        chips = self.h.chips
        pushes = []
        while st.can_push_chips():
            pushes.append(st.push_chips())
        adjust = odd_chips(st, pushes, self.h.order, self.h.stacks_before, self.h.expected, self.h.session.holes,
                           self.h.game.smallest_chip)
        self.h.expected.odd_chips = dict(adjust)
        self.h.c.wait(self.h.rng.uniform(2.0, 4.0))  # showdown: cards speak
        all_shares = spread_odd_chips([{self.h.order[i]: a for i, a in enumerate(op.amounts) if a > 0}
                                       for op in pushes], adjust)
        for op, shares in zip(pushes, all_shares, strict=True):
            pot = pots[op.pot_index] if op.pot_index < len(pots) else None
            eligible = tuple(sorted(self.h.order[i] for i in pot.player_indices)) if pot else tuple(shares)
            self.h.expected.pots.append(ExpectedPot(sum(shares.values()), eligible, tuple(sorted(shares)), shares))
            for seat, amount in shares.items():
                if amount <= 0:
                    continue
                pushed = self.h.chips.take_from(self.h.c, self.h.pot, amount, "pot")
                self.h.c.sweep("pot", f"bet{seat}", pushed)
                self.h.c.wait(0.6)
            named = tuple(sorted(shares))
            if self.h.game.variant in SPLIT:    # a half the rulebook moved away is not named (split_reference)
                named = tuple(s for s in named if shares[s] > 0) or named
            self.h.c.tap("award", ref=str(op.pot_index), seats=named)
            self.h.c.wait(self.h.rng.uniform(0.8, 2.0))
            for seat, _ in shares.items():
                taken = [u for u, z in self.h.c.where.items() if z == f"bet{seat}"]
                self.h.c.take(f"bet{seat}", taken)
                chips.receive(seat, taken)
            self.h.c.wait(0.5)
        self.sync_ops(st)
