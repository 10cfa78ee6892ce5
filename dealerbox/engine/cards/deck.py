"""The deck in use: the one the shoe holds when a hand starts (a change, a change too early, a short deck,
a card of another back in the stub). :class:`DeckInUse` owns the deck's id and back and the cards already
reported; the card flow asks it for the back of the deck in use."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from operator import attrgetter

from ...tags import TagRegistry
from .. import events as te
from ..referee import Referee
from .ledger import CardLedger
from .misdeal import Ruling

DECK_OF = attrgetter("deck_id", "back")   # a card tag's deck and back

DeckChange = Callable[[float, str | None, str], list[te.TableEvent]]   # (t, deck in use, new deck)


class DeckInUse:
    """The deck the table plays, read from the ``ledger`` against the ``registry``'s decks; ``changed`` (a
    tournament table's Tournaments 28) replaces Procedures 21 when given."""

    def __init__(self, registry: TagRegistry, ledger: CardLedger, referee: Referee,
                 changed: DeckChange | None = None) -> None:
        self.registry = registry
        self.ledger = ledger
        self.referee = referee
        self.changed = changed
        self.deck_id: str | None = None
        self.back: str | None = None
        self.hands_with_deck = 0
        self.deck_round = 0                      # players dealt in when the deck came in (a full round)
        self.shoe_loaded: set[str] = set()       # decks seen (nearly) whole in the shoe
        self.reported: set[str] = set()          # uids already reported found in the stub / missing

    def first_report(self, uid: str) -> bool:
        """A card of another back found in the stub: True the first time ``uid`` is reported (said once)."""
        if uid in self.reported:
            return False
        self.reported.add(uid)
        return True

    def first_card(self, deck_id: str, back: str) -> None:
        """No deck was known as the hand started: its first card out names the deck in use."""
        self.deck_id, self.back = deck_id, back

    def stub(self) -> int | None:
        """Cards of the deck in use still in the shoe (a card never seen is there; a joker deals no card); None
        while no deck is known."""
        deck = next((d for d in self.registry.decks if d.deck_id == self.deck_id), None)
        if deck is None:
            return None
        where = self.ledger.where
        return sum(1 for u, c in deck.cards.items() if c[0] != "X" and where.get(u, "shoe") == "shoe")

    def size(self) -> int | None:
        """Cards of the deck in use, wherever they are (a joker deals no card): the stub a hand is dealt from once
        the deck is gathered and shuffled; None while no deck is known."""
        deck = next((d for d in self.registry.decks if d.deck_id == self.deck_id), None)
        return None if deck is None else sum(1 for c in deck.cards.values() if c[0] != "X")

    def at_start(self, t: float, hand_no: int | None, order: tuple[int, ...]) -> list[te.TableEvent]:
        """The deck in use is the one the shoe holds; a change and a short deck are reported here."""
        out: list[te.TableEvent] = []
        tags = self.ledger.tags   # the tags in the shoe (in_zone("shoe")), read once: rulings below move no card
        shoe = [tags[uid] for uid, zone in self.ledger.where.items() if zone == "shoe"]
        keys: list[tuple[str, str]] = list(map(DECK_OF, shoe))
        # (deck, back) -> cards, in the order first seen; one deck in the shoe (most hands) needs no Counter
        counts: dict[tuple[str, str], int] = ({keys[0]: len(keys)} if keys and keys.count(keys[0]) == len(keys)
                                              else Counter(keys))
        self.shoe_loaded.update(deck_id for (deck_id, _), n in counts.items() if n >= 40)
        rule = self.referee.rule
        if counts:
            deck_id, back = max(counts, key=lambda k: counts[k])
            if deck_id != self.deck_id:
                if self.deck_id is not None and self.changed is not None:
                    out += self.changed(t, self.deck_id, deck_id)   # Tournaments 28 replaces Procedures 21
                elif self.deck_id is not None and self.hands_with_deck < self.deck_round:
                    out += rule(t, [Ruling("procedures.21", "continues", f"Deck {self.deck_id} was changed "
                                    f"after {self.hands_with_deck} hands, before a full round of "
                                    f"{self.deck_round}; allowed only if it was damaged. Either way play on with the "
                                    "new deck for a full round; changing back is another change.")])
                self.deck_id, self.back = deck_id, back
                self.hands_with_deck, self.deck_round = 0, len(order)
                out.append(te.DeckChanged(t, hand_no, deck_id, back))
            for tag in shoe if len(counts) > 1 else ():   # one (deck, back) in the shoe: no other back there
                if tag.back != back and self.first_report(tag.uid):
                    out += rule(t, [Ruling("irregularity.3", "continues", f"A card with a {tag.back} back "
                                    f"(deck {tag.deck_id}) is in the stub: the action stands; take it out.")])
        if self.deck_id in self.shoe_loaded:
            deck = next((d for d in self.registry.decks if d.deck_id == self.deck_id), None)
            if deck is not None:
                where, reported = self.ledger.where, self.reported
                missing = [u for u, c in deck.cards.items() if where.get(u) != "shoe" and c[0] != "X"
                           and u not in reported]   # most cards are in the shoe: that test first
                if missing:
                    self.reported.update(missing)
                    # counted, not named: a card kept back from a hand may be a hole card nobody showed
                    out += self.referee.info(t, "irregularity.10", f"Deck {self.deck_id} is short {len(missing)} "
                                             "card(s): the hand stands; replace the deck when convenient.")
        self.hands_with_deck += 1
        return out
