"""A simulated hand of a draw game (deuce-to-seven triple draw, docs/draw.md): lowball's optional kill posted by a
player who has looked at two cards (Kill Pots 10, the house option ``game.lowball_kill``), and the draws, played
as a dealer deals them: the burn, then each player in turn throws its discards into the muck and is given as many
from the stub; a player standing pat knocks, and the dealer taps ``stand-pat``.

pokerkit (the referee) takes every player's discards first and then deals the replacements; the choreography acts
them out in the dealer's order. Players draw no more than the stub holds (pokerkit would reshuffle the discards, the
engine allows the card-room rule, docs/draw.md; the simulator leaves that to scenarios)."""

from __future__ import annotations

from dataclasses import replace

from pokerkit import State

from ...engine.betting.kill import KillTracker
from .dealing import Dealing
from .hand_state import HandState
from .referee import CARD, Posts
from .wagering import Wagering

KILL_CHANCE = 0.3        # a hand a player kills voluntarily, at a table with the house option
ORDER = "23456789TJQKA"  # deuce-to-seven: the ace is high


class DrawPlay:
    """The draws and the lowball kill of one hand: given the hand's state, its cards and its chips."""

    def __init__(self, hand: HandState, cards: Dealing, betting: Wagering) -> None:
        self.h, self.cards, self.betting = hand, cards, betting
        self.plan: dict[int, tuple[str, ...]] = {}     # seat -> discards chosen in the draw under way
        self.killer: tuple[int, int] | None = None     # (seat, amount) of a lowball kill to post after two cards

    # --- Kill Pots 10 -------------------------------------------------------------------------------------
    def plan_kill(self, posts: Posts, others_posting: bool) -> Posts:
        """Sometimes a player out of the blinds with four kills behind it kills the pot once it has two cards: its
        post, live, the largest blind for pokerkit (it acts last preflop), the limits scaled."""
        h, g = self.h, self.h.game
        kill = KillTracker.for_game(g)
        n = len(h.order)
        if not g.lowball_kill or not kill.enabled or posts.live or posts.dead or others_posting or n < 3:
            return posts
        if h.rng.random() >= KILL_CHANCE:
            return posts
        amount = kill.amount(g.big_blind)
        able = [i for i in range(2, n) if h.stacks_before[h.order[i]] >= 4 * amount]
        if not able:
            return posts
        i = h.rng.choice(able)
        self.killer = (h.order[i], amount)
        h.expected.lowball_killer = h.order[i]
        return replace(posts, live={i: amount}, scale=kill.scale, last=i)

    def post_kill(self) -> None:
        """Every player has two cards: the killer puts the kill in its bet zone (before any third card)."""
        if self.killer is None:
            return
        seat, amount = self.killer
        self.h.c.wait(self.h.rng.uniform(0.8, 1.5))
        self.betting.put(seat, amount)
        self.h.c.wait(self.h.rng.uniform(0.8, 1.5))

    # --- the draws ----------------------------------------------------------------------------------------
    def choose(self, st: State) -> None:
        """pokerkit asks the player in turn to stand pat or discard: it throws its pairs and its high cards (above a
        rank it picks now), no more than the stub holds after the burns still to come and the draws chosen before
        it."""
        h = self.h
        i = st.stand_patter_or_discarder_index
        assert i is not None
        seat = h.order[i]
        cards = sorted((repr(c) for c in st.hole_cards[i]), key=lambda c: ORDER.index(c[0]))
        top = ORDER.index(h.rng.choice("789T"))
        seen: set[str] = set()
        thrown: list[str] = []
        for c in cards:
            if c[0] in seen or ORDER.index(c[0]) > top:
                thrown.append(c)
            seen.add(c[0])
        burns = 4 - (st.street_index or 1)      # this draw's burn and the later draws' (street 1, 2, 3)
        stub = len(h.deck) - burns - sum(len(d) for d in self.plan.values())
        thrown = thrown[:max(0, stub)]
        st.stand_pat_or_discard(tuple(CARD[c] for c in thrown))
        self.plan[seat] = tuple(thrown)

    def deal(self, st: State) -> None:
        """The burn is down: each player in turn throws its discards and is given as many; a stander knocks."""
        h = self.h
        for i, seat in enumerate(h.order):
            if seat not in self.plan:
                continue
            thrown = self.plan.pop(seat)
            h.c.wait(h.rng.uniform(0.8, 2.5))
            if not thrown:
                h.c.tap("stand-pat", seat=seat)
                continue
            for card in thrown:
                uid = h.session.card_uid[card]
                h.c.move(uid, f"seat{seat}", "muck", travel=0.3)
                h.cards_out[uid] = "muck"
            h.c.wait(h.rng.uniform(0.5, 1.0))
            given = [self.cards.card(f"seat{seat}") for _ in thrown]
            for card in given:
                st.deal_hole(CARD[card], player_index=i)
            held = h.expected.hole_cards[seat]
            h.expected.hole_cards[seat] = tuple(c for c in held if c not in thrown) + tuple(given)
