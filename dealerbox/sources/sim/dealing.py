"""A simulated hand's cards: pokerkit's deck kept in step with the shoe, hole cards dealt (with the staged
deal irregularities), a premature flop, and every card back to the shoe afterwards."""

from __future__ import annotations

from collections.abc import Callable

from pokerkit import State

from ...tags import JOKERS
from .hand_state import DEAL_PACE, DealerStops, HandState
from .outcome import DEAL_KINDS, SimulatorError
from .referee import CARD


class Dealing:
    """Card motions of one hand: given the hand's state, owns what only the cards need (a burn dealt early by
    a premature flop, the joker's tag)."""

    def __init__(self, hand: HandState) -> None:
        self.h = hand
        self._premature_burn: str | None = None
        self._joker_uid: str | None = None
        self.after_two: Callable[[], None] | None = None   # lowball: the kill after two cards each (sim/draws.py)

    def sync_deck(self, st: State) -> None:
        """pokerkit's deck: only the cards this hand can still deal, in our dealing order.

        pokerkit hashes its whole deck and scans it (Card hashing and equality run in Python) for every card
        dealt or burnt; with the next card first and no more cards than the hand can use, that stays short.
        At most: every hole card, 3 burns and 5 board cards for each run (game.run_it) or board (a double-board bomb
        pot), and a few more drawn by an irregularity."""
        boards = max(1, self.h.game.run_it, self.h.session.bomb_boards)
        can_use = self.h.session.holes * len(self.h.order) + 8 * boards + 4
        if self.after_two is not None:     # a draw game deals its draws from the whole stub
            can_use = len(self.h.deck)
        order = [CARD[self._premature_burn]] if self._premature_burn else []  # dealt early, burnt later
        order += (CARD[card] for card in self.h.deck[:-can_use - 1:-1])
        st.deck_cards.clear()
        st.deck_cards.extend(order)

    def card(self, dest: str, face_up: bool = False, card: str | None = None) -> str:
        card = card or self.h.deck.pop()
        uid = self.h.session.card_uid[card]
        self.h.c.deal(uid, dest, face_up)
        self.h.cards_out[uid] = dest
        self.h.c.wait(DEAL_PACE - 0.2)
        return card

    def deal_holes(self, st: State) -> None:
        kind = self.h.kind if self.h.kind in DEAL_KINDS else None
        n = len(self.h.order)
        slots = [(r, i) for r in range(self.h.session.holes) for i in range(n)]
        bad_at = self.h.rng.randrange(len(slots)) if kind else -1
        if kind == "first-card-wrong-seat":
            self.card(f"seat{self.h.order[-1]}")   # the first card goes to the button instead
            raise DealerStops("misdeal")
        if kind == "out-of-sequence":
            bad_at = self.h.rng.randrange(max(1, len(slots) - 1))
        held: dict[int, list[str]] = {s: [] for s in self.h.order}
        k = 0
        while k < len(slots):
            r, i = slots[k]
            seat = self.h.order[i]
            if k == 2 * n and self.after_two is not None:
                self.after_two()
            if k == bad_at:
                if kind == "out-of-sequence":
                    r2, i2 = slots[k + 1]
                    self.card(f"seat{self.h.order[i2]}")   # skips a seat
                    raise DealerStops("misdeal")
                if kind in ("duplicate-card", "other-deck"):
                    self._other_deck_card(f"seat{seat}", duplicate=kind == "duplicate-card", held=held)
                    raise DealerStops("void")
                if kind in ("boxed-card", "joker"):
                    if kind == "boxed-card":
                        bad = self.card(f"seat{seat}", face_up=True)
                    else:
                        bad = self._joker(f"seat{seat}")
                    self.h.c.wait(1.0)
                    uid = self._joker_uid if kind == "joker" else self.h.session.card_uid[bad]
                    assert uid is not None  # _joker() above has just made the joker's uid
                    self.h.c.move(uid, f"seat{seat}", "muck")  # the scrap of paper is set aside
                    self.h.cards_out[uid] = "muck"
                    self.h.c.wait(0.6)
            card = self.card(f"seat{seat}")
            held[seat].append(card)
            st.deal_hole(CARD[card])  # a Card, not text: pokerkit would parse the text every time
            k += 1
        self.h.expected.hole_cards = {s: tuple(v) for s, v in held.items()}

    def _joker(self, dest: str) -> str:
        for deck in [self.h.session.deck] + self.h.session.registry.decks:
            for uid, card in deck.cards.items():
                if card in JOKERS:
                    self._joker_uid = uid
                    self.h.c.deal(uid, dest)
                    self.h.cards_out[uid] = dest
                    self.h.c.wait(DEAL_PACE - 0.2)
                    return card
        raise SimulatorError("no joker is enrolled in any deck: cannot inject 'joker'")

    def _other_deck_card(self, dest: str, duplicate: bool, held: dict[int, list[str]]) -> None:
        """A card of another deck: the same face as one already dealt (duplicate) or any face (other back)."""
        ours = self.h.session.deck
        same_back = [d for d in self.h.session.registry.decks if d is not ours and d.back == ours.back]
        others = same_back if duplicate and same_back else [d for d in self.h.session.registry.decks if d is not ours]
        if not others:
            raise SimulatorError("only one deck is enrolled: cannot inject a card of another deck")
        dealt = [c for cards in held.values() for c in cards]
        face = self.h.rng.choice(dealt) if duplicate and dealt else self.h.rng.choice(self.h.deck)
        if duplicate and not dealt:
            # Nothing dealt yet: deal one of ours first so the duplicate has something to match.
            face = self.card(dest)
        uid = others[0].uid_of(face)
        self.h.c.deal(uid, dest)
        self.h.cards_out[uid] = dest
        self.h.c.wait(DEAL_PACE - 0.2)

    def premature_ok(self, st: State) -> bool:
        # Only when at least one more action will follow this one, so the flop really came too early.
        return sum(1 for i in range(len(self.h.order)) if st.statuses[i]) >= 3 and self.h.rng.random() < 0.5

    def premature_flop(self, st: State) -> None:
        self.h.c.wait(0.8)
        burn = self.card("burn")
        flop = [self.card("board") for _ in range(3)]
        self.h.c.wait(1.5)
        for card in flop:  # the flop goes back into the stub, reshuffled; the burn card stays
            uid = self.h.session.card_uid[card]
            self.h.c.move(uid, "board", "shoe")
            del self.h.cards_out[uid]
            self.h.deck.append(card)
        self.h.rng.shuffle(self.h.deck)
        self._premature_burn = burn
        self.sync_deck(st)
        self.h.c.wait(2.0)

    def burn(self, st: State) -> None:
        """The street's burn card: the one a premature flop already dealt, else the next off the shoe."""
        if self._premature_burn:
            st.burn_card(CARD[self._premature_burn])  # the burn stays; the new flop comes without one
            self._premature_burn = None
        else:
            self.h.c.wait(self.h.rng.uniform(0.5, 1.5))
            st.burn_card(CARD[self.card("burn")])

    def cleanup(self) -> None:
        """Every card of the hand back into the shoe: board, burn, muck, then the seats."""
        self.h.c.wait(self.h.rng.uniform(1.0, 2.0))
        rank = {"board": 0, "burn": 1, "muck": 2}
        for uid, zone in sorted(self.h.cards_out.items(), key=lambda kv: (rank.get(kv[1], 3), kv[1])):
            if uid not in self.h.session.shoe_uids:
                self.h.c.take(zone, [uid])  # a joker or another deck's card leaves the game, not into the shoe
                continue
            self.h.c.move(uid, zone, "shoe", travel=0.1)
            self.h.c.wait(0.05)
        self.h.cards_out.clear()
