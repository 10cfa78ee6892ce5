"""One simulated hand: pokerkit decides what is legal and who wins, the choreography acts it out as the
antennas would sense it, and the staged irregularity (if any) is slipped in where a real dealer errs."""

from __future__ import annotations

from pokerkit import AntePosting, BetCollection, BettingStructure, BlindOrStraddlePosting, State

from ..raising import RaiseRules
from .dealing import Dealing
from .hand_state import DEAL_PACE, DealerStops
from .outcome import Expected, SimulatorError
from .referee import CARD, referee_state
from .wagering import Wagering

__all__ = ["DEAL_PACE", "DealerStops", "HandPlay"]


class HandPlay(Dealing, Wagering):
    """One hand: pokerkit decides, the choreography acts it out; the session comes in as a value and the
    outcome goes back as :class:`Expected` (the simulator applies the new stacks and keeps the button)."""

    def play(self) -> Expected:
        posts = self.session.posts
        # Pot-Limit 6's option sizes the pot larger than pokerkit does: pokerkit plays the hand unsized (its
        # no-limit), and the simulator's RaiseRules keeps the raises within the option's pot
        option = self.game.sb_counts_as_bb and self.session.structure is BettingStructure.POT_LIMIT
        st = referee_state(self.game, BettingStructure.NO_LIMIT if option else self.session.structure,
                           self.session.holes,
                           tuple(self.stacks_before[s] for s in self.order), self.rng,
                           tuple(self.index[s] for s in self.session.live_posts if s in self.index), posts)
        self.st = st
        self._sync_deck()
        dead: dict[int, int] = {}       # missed small blinds made up: put in with the live big blind
        for op in st.operations:
            if isinstance(op, AntePosting) and op.amount and op.player_index in posts.dead:
                dead[op.player_index] = op.amount
            elif isinstance(op, AntePosting) and op.amount:
                self._put(self.order[op.player_index], op.amount)    # antes first, as pokerkit posts them
                self.c.wait(self.rng.uniform(0.3, 0.8))
            if isinstance(op, BetCollection):
                self.antes_lying = list(op.bets)    # they stay in the bet zones, gathered with the first round
            if isinstance(op, BlindOrStraddlePosting):
                seat = self.order[op.player_index]
                self.expected.blinds[seat] = op.amount
                # a make-up is one motion, live and dead together (Blinds 9): in two, the first looks short
                self._put(seat, op.amount + dead.pop(op.player_index, 0))
                self.c.wait(self.rng.uniform(0.8, 2.0))
        g = self.game
        kind = {BettingStructure.FIXED_LIMIT: "limit", BettingStructure.POT_LIMIT: "pot-limit"}.get(
            self.session.structure, "no-limit")
        scale = posts.scale     # a killed pot raises the limits (Kill Pots 2)
        self.rules = RaiseRules(kind, int(g.big_blind * scale), int(g.small_bet * scale), int(g.big_bet * scale),
                                g.max_raises)
        self.rules.start({self.order[i]: b for i, b in enumerate(st.bets) if b}, len(self.expected.blinds) > 2)
        if option:
            heads_up = len(self.order) == 2     # the button (last) posts the small blind heads-up (Blinds 3)
            self.rules.pot_option(g.small_blind, self.order[-1 if heads_up else 0], self.order[0 if heads_up else 1])
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
