"""A simulated hand's cards: pokerkit's deck kept in step with the shoe, hole cards dealt (with the staged
deal irregularities), a premature flop, and every card back to the shoe afterwards."""

from __future__ import annotations

from pokerkit import State

from ...tags import JOKERS
from .hand_state import DEAL_PACE, DealerStops, HandState
from .outcome import DEAL_KINDS, SimulatorError
from .referee import CARD


class Dealing(HandState):
    """Card motions of one hand."""

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

    def _card(self, dest: str, face_up: bool = False, card: str | None = None) -> str:
        card = card or self.deck.pop()
        uid = self.session.card_uid[card]
        self.c.deal(uid, dest, face_up)
        self.cards_out[uid] = dest
        self.c.wait(DEAL_PACE - 0.2)
        return card

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
