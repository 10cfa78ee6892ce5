"""Tags: what a UID stands for. Cards are enrolled per deck; chips and marker pucks are registered per house.

Enrolment files are plain JSON (documented in docs/enrolment.md):

- a deck: ``{"format": "dealerbox-deck", "version": 1, "deck_id": "D1", "back": "red",
  "cards": {"04a1b2c3": "As", ...}}`` (52 cards, or 54 with jokers ``X1``/``X2``);
- chips: ``{"format": "dealerbox-chips", "version": 1, "house": "CASINO",
  "chips": {"uid": 25, ...}, "markers": {"uid": "button", ...}}``.

Card UIDs are ISO 14443A (4, 7 or 10 bytes); chip and marker UIDs may also be ISO 15693 ICODE (8 bytes),
the chips a PN5180 reads by the stack.

A UID that is in no file is an :class:`UnknownTag`: evidence for the engine, never an error.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from .wire.protocol import TECH_ISO14443A, UID_LENGTHS, UID_LENGTHS_BY_TECH

RANKS = "23456789TJQKA"
SUITS = "cdhs"
JOKERS = ("X1", "X2")
STANDARD_DECK = tuple(r + s for s in SUITS for r in RANKS)
MARKER_KINDS = ("button", "kill", "missed-blind", "badge")   # badge: a dealer's sign-in tag (audit.badges)


def is_card(text: str) -> bool:
    """``True`` for a card name such as ``As``, ``Td`` or a joker ``X1``."""
    return text in JOKERS or (len(text) == 2 and text[0] in RANKS and text[1] in SUITS)


@dataclass(frozen=True, slots=True)
class CardTag:
    uid: str  # lower-case hex
    card: str  # "As", "Td", "X1" (joker)
    deck_id: str
    back: str

    @property
    def is_joker(self) -> bool:
        return self.card in JOKERS


@dataclass(frozen=True, slots=True)
class ChipTag:
    uid: str
    house: str
    value: int  # in the table's chip units


@dataclass(frozen=True, slots=True)
class MarkerTag:
    uid: str
    kind: str  # "button", "kill", "missed-blind"


@dataclass(frozen=True, slots=True)
class UnknownTag:
    uid: str


Tag = CardTag | ChipTag | MarkerTag | UnknownTag


class EnrolmentError(ValueError):
    """An enrolment file that cannot be used; the message names the file and the field."""


@dataclass
class Deck:
    deck_id: str
    back: str
    cards: dict[str, str]  # uid -> card

    def to_json(self) -> dict:
        return {"format": "dealerbox-deck", "version": 1, "deck_id": self.deck_id, "back": self.back,
                "cards": self.cards}

    def uid_of(self, card: str) -> str:
        for uid, c in self.cards.items():
            if c == card:
                return uid
        raise KeyError(f"card {card} is not in deck {self.deck_id}")


@dataclass
class ChipSet:
    house: str
    chips: dict[str, int]  # uid -> value
    markers: dict[str, str]  # uid -> kind

    def to_json(self) -> dict:
        return {"format": "dealerbox-chips", "version": 1, "house": self.house, "chips": self.chips,
                "markers": self.markers}


class TagRegistry:
    """Looks UIDs up across every enrolled deck and registered chip set."""

    def __init__(self, decks: Iterable[Deck] = (), chip_sets: Iterable[ChipSet] = ()) -> None:
        self.decks = list(decks)
        self.chip_sets = list(chip_sets)
        self._by_uid: dict[str, Tag] = {}
        for deck in self.decks:
            for uid, card in deck.cards.items():
                self._by_uid[uid] = CardTag(uid, card, deck.deck_id, deck.back)
        for cs in self.chip_sets:
            for uid, value in cs.chips.items():
                self._by_uid[uid] = ChipTag(uid, cs.house, value)
            for uid, kind in cs.markers.items():
                self._by_uid[uid] = MarkerTag(uid, kind)

    def lookup(self, uid: bytes | str) -> Tag:
        key = uid.hex() if isinstance(uid, (bytes, bytearray)) else uid.lower()
        return self._by_uid.get(key) or UnknownTag(key)

    def deck(self, deck_id: str) -> Deck:
        for d in self.decks:
            if d.deck_id == deck_id:
                return d
        raise KeyError(f"deck {deck_id!r} is not enrolled")

    def chips_of(self, house: str) -> ChipSet:
        for cs in self.chip_sets:
            if cs.house == house:
                return cs
        raise KeyError(f"no chips registered for house {house!r}")


# --- files ----------------------------------------------------------------------------------------

# Cards are ISO 14443A tags (NTAG: 4, 7 or 10 bytes); chips and pucks may also be ISO 15693 (ICODE: 8 bytes).
CARD_UID_LENGTHS = UID_LENGTHS_BY_TECH[TECH_ISO14443A]
CHIP_UID_LENGTHS = UID_LENGTHS


def _hex_uid(path: Path, field: str, uid: object, lengths: tuple[int, ...] = CHIP_UID_LENGTHS) -> str:
    if not isinstance(uid, str):
        raise EnrolmentError(f"{path}: {field}: UID must be a hex string")
    try:
        raw = bytes.fromhex(uid)
    except ValueError:
        raise EnrolmentError(f"{path}: {field}: {uid!r} is not hex") from None
    if len(raw) not in lengths:
        allowed = ", ".join(map(str, lengths))
        raise EnrolmentError(f"{path}: {field}: UID {uid} is {len(raw)} bytes, must be one of {allowed}"
                             + (" (a card is an ISO 14443A tag; 8-byte ICODE UIDs are chips)" if len(raw) == 8 else ""))
    return raw.hex()


def load_enrolment(path: str | Path) -> Deck | ChipSet:
    """Read one deck or chip-set file; raises EnrolmentError naming the file and the field."""
    path = Path(path)
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except OSError as e:
        raise EnrolmentError(f"{path}: cannot read ({e.strerror}); run `dealerbox enrol` to make it") from None
    except (json.JSONDecodeError, UnicodeDecodeError, RecursionError) as e:   # RecursionError: nested too deep
        raise EnrolmentError(f"{path}: not valid JSON ({e})") from None
    if not isinstance(data, dict):
        raise EnrolmentError(f"{path}: expected a JSON object")
    kind = data.get("format")
    if kind == "dealerbox-deck":
        for key in ("deck_id", "back"):
            if not isinstance(data.get(key), str) or not data[key]:
                raise EnrolmentError(f"{path}: {key}: must be a non-empty string")
        cards = data.get("cards")
        if not isinstance(cards, dict):
            raise EnrolmentError(f"{path}: cards: must be an object of UID -> card")
        out: dict[str, str] = {}
        for uid, card in cards.items():
            if not isinstance(card, str) or not is_card(card):
                raise EnrolmentError(f"{path}: cards.{uid}: {card!r} is not a card (e.g. As, Td, X1)")
            out[_hex_uid(path, f"cards.{uid}", uid, CARD_UID_LENGTHS)] = card
        dupes = {c for c in out.values() if list(out.values()).count(c) > 1}
        if dupes:
            raise EnrolmentError(f"{path}: cards: {sorted(dupes)} enrolled twice; re-scan the deck")
        return Deck(data["deck_id"], data["back"], out)
    if kind == "dealerbox-chips":
        if not isinstance(data.get("house"), str) or not data["house"]:
            raise EnrolmentError(f"{path}: house: must be a non-empty string")
        chips: dict[str, int] = {}
        for uid, value in (data.get("chips") or {}).items():
            if not isinstance(value, int) or isinstance(value, bool) or value <= 0:
                raise EnrolmentError(f"{path}: chips.{uid}: value must be a positive whole number")
            chips[_hex_uid(path, f"chips.{uid}", uid)] = value
        markers: dict[str, str] = {}
        for uid, m in (data.get("markers") or {}).items():
            if m not in MARKER_KINDS:
                raise EnrolmentError(f"{path}: markers.{uid}: {m!r} is not one of {', '.join(MARKER_KINDS)}")
            markers[_hex_uid(path, f"markers.{uid}", uid)] = m
        return ChipSet(data["house"], chips, markers)
    raise EnrolmentError(f"{path}: format: expected 'dealerbox-deck' or 'dealerbox-chips', got {kind!r}")


def save_enrolment(item: Deck | ChipSet, path: str | Path) -> None:
    Path(path).write_text(json.dumps(item.to_json(), indent=1) + "\n", encoding="utf-8")


# --- the demo table's tags (deterministic, so logs and tests are reproducible) --------------------

def _uid(*parts: object) -> str:
    # 7-byte UIDs like NTAG stickers; 0x04 is NXP's manufacturer byte.
    return "04" + hashlib.sha256("/".join(map(str, parts)).encode()).hexdigest()[:12]


def _icode_uid(*parts: object) -> str:
    # 8-byte UIDs like ICODE SLIX inlays: E0 = ISO 15693, 04 = NXP, 01 = SLIX (the chips a PN5180 reads in stacks).
    return "e00401" + hashlib.sha256("/".join(map(str, parts)).encode()).hexdigest()[:10]


def demo_deck(deck_id: str = "DEMO-1", back: str = "red", jokers: bool = True) -> Deck:
    cards = list(STANDARD_DECK) + (list(JOKERS) if jokers else [])
    return Deck(deck_id, back, {_uid("card", deck_id, c): c for c in cards})


def demo_chips(house: str = "DEMO", denominations: dict[int, int] | None = None, icode: bool = False) -> ChipSet:
    """Chips of each value (default 1, 5, 25, 100, 500 with plenty of each) plus a button and a kill puck;
    ``icode``: ISO 15693 inlays (8-byte UIDs) instead of NTAG stickers, chips and pucks alike."""
    denominations = denominations or {1: 400, 5: 400, 25: 300, 100: 200, 500: 60}
    uid = _icode_uid if icode else _uid
    chips = {uid("chip", house, v, i): v for v, n in denominations.items() for i in range(n)}
    markers = {uid("marker", house, "button"): "button", uid("marker", house, "kill"): "kill"}
    return ChipSet(house, chips, markers)


def demo_registry(icode: bool = False) -> TagRegistry:
    """Two enrolled decks (red and blue backs) and the house chips, plus a foreign house's chips; ``icode``:
    the chips and pucks are ICODE inlays (8-byte UIDs)."""
    return TagRegistry(
        [demo_deck("DEMO-1", "red"), demo_deck("DEMO-2", "blue")],
        [demo_chips("DEMO", icode=icode), demo_chips("OTHER", {5: 20, 25: 20, 100: 20}, icode=icode)],
    )
