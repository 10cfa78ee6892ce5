"""One simulated hand: pokerkit decides what is legal and who wins, the choreography acts it out as the
antennas would sense it, and the staged irregularity (if any) is slipped in where a real dealer errs."""

from __future__ import annotations

from pokerkit import AntePosting, BetCollection, BettingStructure, BlindOrStraddlePosting, State

from ..raising import RaiseRules
from .dealing import Dealing
from ..choreography import Choreography
from .hand_state import DEAL_PACE, DealerStops, HandState
from .outcome import Expected, SimulatorError
from .draws import DrawPlay
from .referee import CARD, DRAW, bomb_state, referee_state
from .session import Session
from .wagering import Wagering

__all__ = ["DEAL_PACE", "DealerStops", "HandPlay"]


class HandPlay:
    """One hand: pokerkit decides, the choreography acts it out; the session comes in as a value and the
    outcome goes back as :class:`Expected` (the simulator applies the new stacks and keeps the button).
    The hand's state is one :class:`HandState`, handed to the cards (:class:`Dealing`) and the chips
    (:class:`Wagering`), which are wired here."""

    def __init__(self, session: Session, c: Choreography, kind: str | None) -> None:
        # made in this order: the state shuffles the deck, then the betting draws when its trick is due
        self.hand = HandState(session, c, kind)
        self.cards = Dealing(self.hand)
        self.betting = Wagering(self.hand)
        self.runs_due = 0     # runs agreed before anyone acted: tapped once the deal is over (after the burn)
        self.draws = DrawPlay(self.hand, self.cards, self.betting) if self.hand.game.variant in DRAW else None
        if self.draws is not None:
            self.cards.after_two = self.draws.post_kill

    def play(self) -> Expected:
        h, cards, betting = self.hand, self.cards, self.betting
        session = h.session
        posts = session.posts
        if self.draws is not None:    # lowball's optional kill, posted after two cards (Kill Pots 10)
            posts = self.draws.plan_kill(posts, bool(session.live_posts))
        # Pot-Limit 6's option sizes the pot larger than pokerkit does: pokerkit plays the hand unsized (its
        # no-limit), and the simulator's RaiseRules keeps the raises within the option's pot
        option = h.game.sb_counts_as_bb and session.structure is BettingStructure.POT_LIMIT and not session.bomb
        stacks = tuple(h.stacks_before[s] for s in h.order)
        if session.bomb:    # house practice (game.bomb_pots): the dealer's tap starts it, before the posts
            st = bomb_state(h.game, session.structure, session.holes, stacks, session.bomb, session.bomb_boards)
            h.expected.bomb = session.bomb
            h.c.tap("bomb-pot", amount=session.bomb, ref=str(session.bomb_boards))
            h.c.wait(h.rng.uniform(1.0, 2.0))
        else:
            st = referee_state(h.game, BettingStructure.NO_LIMIT if option else session.structure,
                               session.holes, stacks, h.rng,
                               tuple(h.index[s] for s in session.live_posts if s in h.index), posts)
        lowball_killer = self.draws.killer[0] if self.draws is not None and self.draws.killer else None
        cards.sync_deck(st)
        dead: dict[int, int] = {}       # missed small blinds made up: put in with the live big blind
        for op in st.operations:
            if isinstance(op, AntePosting) and op.amount and op.player_index in posts.dead:
                dead[op.player_index] = op.amount
            elif isinstance(op, AntePosting) and op.amount:
                betting.put(h.order[op.player_index], op.amount)    # antes first, as pokerkit posts them
                h.c.wait(h.rng.uniform(0.3, 0.8))
            if isinstance(op, BetCollection):
                h.antes_lying = list(op.bets)    # they stay in the bet zones, gathered with the first round
            if isinstance(op, BlindOrStraddlePosting) and h.order[op.player_index] == lowball_killer:
                continue    # put in after two cards each (sim/draws.py)
            if isinstance(op, BlindOrStraddlePosting):
                seat = h.order[op.player_index]
                h.expected.blinds[seat] = op.amount
                # a make-up is one motion, live and dead together (Blinds 9): in two, the first looks short
                betting.put(seat, op.amount + dead.pop(op.player_index, 0))
                h.c.wait(h.rng.uniform(0.8, 2.0))
        g = h.game
        kind = {BettingStructure.FIXED_LIMIT: "limit", BettingStructure.POT_LIMIT: "pot-limit"}.get(
            session.structure, "no-limit")
        scale = posts.scale     # a killed pot raises the limits (Kill Pots 2)
        rules = RaiseRules(kind, int(g.big_blind * scale), int(g.small_bet * scale), int(g.big_bet * scale),
                           g.max_raises)
        rules.start({h.order[i]: b for i, b in enumerate(st.bets) if b}, len(h.expected.blinds) > 2)
        if option:
            heads_up = len(h.order) == 2     # the button (last) posts the small blind heads-up (Blinds 3)
            rules.pot_option(g.small_blind, h.order[-1 if heads_up else 0], h.order[0 if heads_up else 1])
        betting.open_betting(rules, len(st.operations))
        try:
            cards.deal_holes(st)
            self._run(st)
        except DealerStops as a:
            self._abort(a.outcome)
            return h.expected
        cards.cleanup()
        e = h.expected
        if not h.applied:
            e.irregularity = e.rule = None  # the chance for it never came up in this hand
        e.stacks = {s: st.stacks[i] + e.odd_chips.get(s, 0) for i, s in enumerate(h.order)}
        e.board = tuple(repr(c) for c in st.get_board_cards(0))
        e.boards = tuple(tuple(repr(c) for c in st.get_board_cards(b)) for b in range(1, st.board_count))
        e.winners = tuple(sorted({w for pot in e.pots for w in pot.winners}))
        return e

    def _run(self, st: State) -> None:
        h, cards, betting = self.hand, self.cards, self.betting
        bomb = h.session.bomb
        # a bomb pot's first street deals the hole cards and the flop: its betting is the flop's
        streets = ("flop", "turn", "river") if bomb else ("preflop", "flop", "turn", "river")
        premature_done = False
        while st.status:
            betting.sync_ops(st)
            # A player's turn first: it is the common case and pokerkit answers it without a trial deal.
            if st.actor_index is not None:
                if (h.kind == "premature-flop" and not premature_done and h.street == "preflop"
                        and cards.premature_ok(st)):
                    premature_done = True
                    h.applied = True
                    cards.premature_flop(st)
                betting.act(st)
                continue
            if st.can_select_runout_count():
                self._run_it(st)
                continue
            if self.draws is not None and st.stand_patter_or_discarder_index is not None:
                self.draws.choose(st)
                continue
            if st.can_show_or_muck_hole_cards():
                st.show_or_muck_hole_cards(True)  # cards speak: everyone shows
                continue
            if st.card_burning_status and st.can_burn_card():  # the flag first: the check copies the deck
                if bomb and any(h.antes_lying):
                    betting.gather_posts()      # the posts go in before the flop: no round before it gathers them
                h.street = streets[st.street_index] if st.street_index is not None else h.street
                cards.burn(st)
                if self.draws is not None:
                    self.draws.deal(st)
                if self.runs_due:
                    self._tap_runs(self.runs_due)
                    self.runs_due = 0
                continue
            if st.can_deal_board():
                runs = st.runout_count or 1     # a further run deals its street whole: a flop is three cards
                count = (st.board_dealing_count or 1) if runs > 1 or h.session.bomb_boards > 1 \
                    else (3 if not list(st.get_board_cards(0)) else 1)   # a double board: each board's street whole
                dealt = [cards.card("board") for _ in range(count)]
                st.deal_board(tuple(CARD[card] for card in dealt))
                continue
            if st.can_push_chips():
                betting.award(st)
                continue
            raise SimulatorError(f"hand {h.session.hand_no}: the referee is stuck (pokerkit state {st.street_index})")

    def _run_it(self, st: State) -> None:
        """An all-in with no more betting at a table that runs it twice (game.run_it, a house practice): every
        player still in agrees to the table's number of runs, and the dealer taps it (one tap, run-it.2)."""
        h = self.hand
        runs = min(h.game.run_it, self._runs_the_stub_allows())
        while st.can_select_runout_count():
            st.select_runout_count(runs)
        if st.runout_count == runs > 1:
            h.expected.runs = runs
            if h.expected.actions:
                self._tap_runs(runs)
            else:   # all in from the blinds: the deal is over for the engine only once the first burn is down
                self.runs_due = runs

    def _runs_the_stub_allows(self) -> int:
        """The most runs the cards left can deal, each run its burns and the rest of its board: nine players of
        Omaha all in before the flop leave 16 cards, two runs; players agree to no more than the stub deals."""
        h = self.hand
        dealt = sum(1 for dest in h.cards_out.values() if dest == "board")
        per_run = (5 - dealt) + {0: 3, 3: 2, 4: 1}.get(dealt, 0)   # the board cards still to come and their burns
        return len(h.deck) // per_run if per_run else h.game.run_it

    def _tap_runs(self, runs: int) -> None:
        h = self.hand
        h.c.wait(h.rng.uniform(1.0, 3.0))
        h.c.tap("run-it", amount=runs)
        h.c.wait(h.rng.uniform(0.5, 1.5))

    def _abort(self, outcome: str) -> None:
        """Misdeal or void: the dealer says so, every card back to the shoe, every chip to its owner."""
        h = self.hand
        h.expected.outcome = outcome
        h.c.wait(1.5)
        if outcome == "misdeal":
            h.c.tap("misdeal")
            h.c.wait(1.0)
        self.cards.cleanup()
        for seat in h.order:
            if h.bets[seat]:
                h.c.take(f"bet{seat}", h.bets[seat])
                h.chips.receive(seat, h.bets[seat])
                h.bets[seat] = []
        h.expected.stacks = dict(h.stacks_before)
