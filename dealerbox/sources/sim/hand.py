"""One simulated hand: pokerkit decides what is legal and who wins, the choreography acts it out as the
antennas would sense it, and the staged irregularity (if any) is slipped in where a real dealer errs."""

from __future__ import annotations

from collections.abc import Sequence

from pokerkit import BetCollection, BettingStructure, BlindOrStraddlePosting, State

from ...tags import JOKERS
from ..choreography import Choreography
from ..raising import RaiseRules
from .outcome import CHIP_KINDS, DEAL_KINDS, IRREGULARITIES, Expected, ExpectedPot, SimulatorError
from .referee import CARD, odd_chips, referee_state
from .session import Session

DEAL_PACE = 0.4          # seconds per card dealt


class DealerStops(Exception):
    """The simulated dealer stops the hand (misdeal or void); ``outcome`` says which."""

    def __init__(self, outcome: str) -> None:
        self.outcome = outcome


class HandPlay:
    """One hand: pokerkit decides, the choreography acts it out; the session comes in as a value and the
    outcome goes back as :class:`Expected` (the simulator applies the new stacks and keeps the button)."""

    def __init__(self, session: Session, c: Choreography, kind: str | None) -> None:
        self.session, self.c, self.kind, self.rng = session, c, kind, session.rng
        self.chips = session.chips
        self.game = session.config.game
        btn = session.button
        occupied = sorted(session.stacks)
        after = [s for s in occupied if s > btn] + [s for s in occupied if s <= btn]
        self.order = after                         # player index i -> seat, index 0 left of the button
        self.index = {s: i for i, s in enumerate(after)}
        self.stacks_before = {s: session.stacks[s] for s in after}
        self.deck = list(session.cards)
        self.rng.shuffle(self.deck)
        self.cards_out: dict[str, str] = {}       # uid -> zone, this hand's cards off the shoe
        self.bets: dict[int, list[str]] = {s: [] for s in after}
        self.pot: list[str] = []
        self.expected = Expected(session.hand_no, self.game.variant, btn, tuple(after), {}, dict(self.stacks_before),
                                 dict(self.stacks_before), irregularity=kind,
                                 rule=IRREGULARITIES[kind][0] if kind else None)
        self.street = "preflop"
        self.raises_seen = 0
        self.chip_trick = kind if kind in CHIP_KINDS else None
        self.trick_at = self.rng.randint(0, 3)    # voluntary actions to let pass before the chip irregularity
        self.applied = kind is not None and kind not in CHIP_KINDS and kind != "premature-flop"
        self._premature_burn: str | None = None
        self._joker_uid: str | None = None

    def _sync_deck(self) -> None:
        """pokerkit's deck: only the cards this hand can still deal, in our dealing order.

        pokerkit hashes its whole deck and scans it (Card hashing and equality run in Python) for every card
        dealt or burnt; with the next card first and no more cards than the hand can use, that stays short.
        At most: every hole card, 3 burns, 5 board cards, and a few more drawn by an irregularity."""
        can_use = self.session.holes * len(self.order) + 8 + 4
        order = [CARD[self._premature_burn]] if self._premature_burn else []  # dealt early, burnt later
        order += (CARD[card] for card in self.deck[:-can_use - 1:-1])
        self.st.deck_cards.clear()
        self.st.deck_cards.extend(order)

    # --- physical helpers ----------------------------------------------------------------------------
    def _card(self, dest: str, face_up: bool = False, card: str | None = None) -> str:
        card = card or self.deck.pop()
        uid = self.session.card_uid[card]
        self.c.deal(uid, dest, face_up)
        self.cards_out[uid] = dest
        self.c.wait(DEAL_PACE - 0.2)
        return card

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
                uids = chips.pay(seat, amount)
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
        uids = chips.pay(seat, amount)
        if raising and len(uids) == 1:
            # a lone chip facing a bet is a call: break it into smaller chips, or say "raise" first
            chips.receive(seat, uids)
            smaller = [d for d in chips.denoms if d < chips.value[uids[0]]]
            broken = chips._draw(chips.pools[seat], amount, smaller) if self.rng.random() < 0.5 else None
            uids = broken if broken and len(broken) > 1 else chips.pay(seat, amount)
            if len(uids) == 1:
                self.c.tap("declare-raise", seat=seat)
                self.c.wait(0.3)
        self.bets[seat].extend(uids)
        self.c.motion(zone, uids)

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

    # --- the hand ------------------------------------------------------------------------------------
    def play(self) -> Expected:
        st = referee_state(self.game, self.session.structure, self.session.holes,
                             tuple(self.stacks_before[s] for s in self.order), self.rng)
        self.st = st
        self._sync_deck()
        for op in st.operations:
            if isinstance(op, BlindOrStraddlePosting):
                seat = self.order[op.player_index]
                self.expected.blinds[seat] = op.amount
                self._put(seat, op.amount)
                self.c.wait(self.rng.uniform(0.8, 2.0))
        g = self.game
        kind = {BettingStructure.FIXED_LIMIT: "limit", BettingStructure.POT_LIMIT: "pot-limit"}.get(
            self.session.structure, "no-limit")
        self.rules = RaiseRules(kind, g.big_blind, g.small_bet, g.big_bet, g.max_raises)
        self.rules.start({self.order[i]: b for i, b in enumerate(st.bets) if b}, len(self.expected.blinds) > 2)
        self.done_ops = len(st.operations)
        try:
            self._deal_holes(st)
            self._run(st)
        except DealerStops as a:
            self._abort(a.outcome)
            return self.expected
        self._cleanup()
        e = self.expected
        if not self.applied:
            e.irregularity = e.rule = None  # the chance for it never came up in this hand
        e.stacks = {s: st.stacks[i] + e.odd_chips.get(s, 0) for i, s in enumerate(self.order)}
        e.board = tuple(repr(c) for c in st.get_board_cards(0))
        e.winners = tuple(sorted({w for pot in e.pots for w in pot.winners}))
        return e

    def _deal_holes(self, st: State) -> None:
        kind = self.kind if self.kind in DEAL_KINDS else None
        n = len(self.order)
        slots = [(r, i) for r in range(self.session.holes) for i in range(n)]
        bad_at = self.rng.randrange(len(slots)) if kind else -1
        if kind == "first-card-wrong-seat":
            self._card(f"seat{self.order[-1]}")   # the first card goes to the button instead
            raise DealerStops("misdeal")
        if kind == "out-of-sequence":
            bad_at = self.rng.randrange(max(1, len(slots) - 1))
        held: dict[int, list[str]] = {s: [] for s in self.order}
        k = 0
        while k < len(slots):
            r, i = slots[k]
            seat = self.order[i]
            if k == bad_at:
                if kind == "out-of-sequence":
                    r2, i2 = slots[k + 1]
                    self._card(f"seat{self.order[i2]}")   # skips a seat
                    raise DealerStops("misdeal")
                if kind in ("duplicate-card", "other-deck"):
                    self._other_deck_card(f"seat{seat}", duplicate=kind == "duplicate-card", held=held)
                    raise DealerStops("void")
                if kind in ("boxed-card", "joker"):
                    if kind == "boxed-card":
                        bad = self._card(f"seat{seat}", face_up=True)
                    else:
                        bad = self._joker(f"seat{seat}")
                    self.c.wait(1.0)
                    uid = self._joker_uid if kind == "joker" else self.session.card_uid[bad]
                    self.c.move(uid, f"seat{seat}", "muck")  # the scrap of paper is set aside
                    self.cards_out[uid] = "muck"
                    self.c.wait(0.6)
            card = self._card(f"seat{seat}")
            held[seat].append(card)
            st.deal_hole(CARD[card])  # a Card, not text: pokerkit would parse the text every time
            k += 1
        self.expected.hole_cards = {s: tuple(v) for s, v in held.items()}

    def _joker(self, dest: str) -> str:
        for deck in [self.session.deck] + self.session.registry.decks:
            for uid, card in deck.cards.items():
                if card in JOKERS:
                    self._joker_uid = uid
                    self.c.deal(uid, dest)
                    self.cards_out[uid] = dest
                    self.c.wait(DEAL_PACE - 0.2)
                    return card
        raise SimulatorError("no joker is enrolled in any deck: cannot inject 'joker'")

    def _other_deck_card(self, dest: str, duplicate: bool, held: dict[int, list[str]]) -> None:
        """A card of another deck: the same face as one already dealt (duplicate) or any face (other back)."""
        ours = self.session.deck
        same_back = [d for d in self.session.registry.decks if d is not ours and d.back == ours.back]
        others = same_back if duplicate and same_back else [d for d in self.session.registry.decks if d is not ours]
        if not others:
            raise SimulatorError("only one deck is enrolled: cannot inject a card of another deck")
        dealt = [c for cards in held.values() for c in cards]
        face = self.rng.choice(dealt) if duplicate and dealt else self.rng.choice(self.deck)
        if duplicate and not dealt:
            # Nothing dealt yet: deal one of ours first so the duplicate has something to match.
            face = self._card(dest)
        uid = others[0].uid_of(face)
        self.c.deal(uid, dest)
        self.cards_out[uid] = dest
        self.c.wait(DEAL_PACE - 0.2)

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
        for i, seat in enumerate(self.order):
            zone = self.bets[seat]
            extra = chips.worth(zone) - collected[i]
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

    def _run(self, st: State) -> None:
        streets = ("preflop", "flop", "turn", "river")
        premature_done = False
        while st.status:
            self._sync_ops(st)
            # A player's turn first: it is the common case and pokerkit answers it without a trial deal.
            if st.actor_index is not None:
                if (self.kind == "premature-flop" and not premature_done and self.street == "preflop"
                        and self._premature_ok(st)):
                    premature_done = True
                    self.applied = True
                    self._premature_flop()
                self._act(st)
                continue
            if st.can_show_or_muck_hole_cards():
                st.show_or_muck_hole_cards(True)  # cards speak: everyone shows
                continue
            if st.card_burning_status and st.can_burn_card():  # the flag first: the check copies the deck
                self.street = streets[st.street_index] if st.street_index is not None else self.street
                if self._premature_burn:
                    st.burn_card(CARD[self._premature_burn])  # the burn stays; the new flop comes without one
                    self._premature_burn = None
                else:
                    self.c.wait(self.rng.uniform(0.5, 1.5))
                    st.burn_card(CARD[self._card("burn")])
                continue
            if st.can_deal_board():
                count = 3 if not list(st.get_board_cards(0)) else 1
                cards = [self._card("board") for _ in range(count)]
                st.deal_board(tuple(CARD[card] for card in cards))
                continue
            if st.can_push_chips():
                self._award(st)
                continue
            raise SimulatorError(f"hand {self.session.hand_no}: the referee is stuck (pokerkit state {st.street_index})")

    def _premature_ok(self, st: State) -> bool:
        # Only when at least one more action will follow this one, so the flop really came too early.
        return sum(1 for i in range(len(self.order)) if st.statuses[i]) >= 3 and self.rng.random() < 0.5

    def _premature_flop(self) -> None:
        self.c.wait(0.8)
        burn = self._card("burn")
        flop = [self._card("board") for _ in range(3)]
        self.c.wait(1.5)
        for card in flop:  # the flop goes back into the stub, reshuffled; the burn card stays
            uid = self.session.card_uid[card]
            self.c.move(uid, "board", "shoe")
            del self.cards_out[uid]
            self.deck.append(card)
        self.rng.shuffle(self.deck)
        self._premature_burn = burn
        self._sync_deck()
        self.c.wait(2.0)

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
        for op in pushes:
            pot = pots[op.pot_index] if op.pot_index < len(pots) else None
            shares = {self.order[i]: a for i, a in enumerate(op.amounts) if a > 0}
            if len(shares) > 1:
                for seat in [s for s in shares if s in adjust]:
                    shares[seat] += adjust.pop(seat)
            eligible = tuple(sorted(self.order[i] for i in pot.player_indices)) if pot else tuple(shares)
            self.expected.pots.append(ExpectedPot(sum(shares.values()), eligible, tuple(sorted(shares)), shares))
            for seat, amount in shares.items():
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

    def _cleanup(self) -> None:
        """Every card of the hand back into the shoe: board, burn, muck, then the seats."""
        self.c.wait(self.rng.uniform(1.0, 2.0))
        rank = {"board": 0, "burn": 1, "muck": 2}
        for uid, zone in sorted(self.cards_out.items(), key=lambda kv: (rank.get(kv[1], 3), kv[1])):
            if uid not in self.session.shoe_uids:
                self.c.take(zone, [uid])  # a joker or another deck's card leaves the game, not into the shoe
                continue
            self.c.move(uid, zone, "shoe", travel=0.1)
            self.c.wait(0.05)
        self.cards_out.clear()

    def _abort(self, outcome: str) -> None:
        """Misdeal or void: the dealer says so, every card back to the shoe, every chip to its owner."""
        self.expected.outcome = outcome
        self.c.wait(1.5)
        if outcome == "misdeal":
            self.c.tap("misdeal")
            self.c.wait(1.0)
        self._cleanup()
        for seat in self.order:
            if self.bets[seat]:
                self.c.take(f"bet{seat}", self.bets[seat])
                self.chips.receive(seat, self.bets[seat])
                self.bets[seat] = []
        self.expected.stacks = dict(self.stacks_before)
