"""Where every card is, at every moment: a zone (``shoe``, ``seat3``, ``board``, ``burn``, ``muck``), in
transit between two antennas, or off the table (it left a zone and reached none).

>>> from dealerbox.tags import CardTag
>>> ledger = CardLedger()
>>> ace = CardTag("04aa", "As", "D1", "red")
>>> ledger.face_sensed(ace, True); ledger.left(1.0, "shoe", ace); ledger.entered("seat3", ace)
'shoe'
>>> ledger.where["04aa"], ledger.face_up_from_shoe("04aa")
('seat3', True)
"""

from __future__ import annotations

from dataclasses import dataclass

from ...tags import CardTag

OFF_TABLE = "off"
# A card that left a zone and reached no antenna within this many seconds fell off the table.
OFF_TABLE_AFTER_S = 1.5
# fall_due is kept this much early: fallen() subtracts float times, and a bound early by far more than their
# rounding never skips a card that has fallen
FALL_MARGIN = 1e-3


@dataclass(slots=True)
class Transit:
    source: str
    t: float
    face_up: bool | None      # orientation sensed as it left the shoe (None: not from the shoe)


class CardLedger:
    """Card whereabouts keyed by tag UID; a card never seen is assumed to be in the shoe."""

    def __init__(self) -> None:
        self.tags: dict[str, CardTag] = {}
        self.where: dict[str, str] = {}
        self.transit: dict[str, Transit] = {}
        self._face: dict[str, bool] = {}          # orientation sensed, card not yet out of the shoe
        self._left_face: dict[str, bool] = {}     # orientation of the last exit from the shoe
        self.fall_due = float("inf")   # no card in transit can have fallen before this: fallen() has nothing

    def face_sensed(self, tag: CardTag, face_up: bool) -> None:
        self.tags[tag.uid] = tag
        self._face[tag.uid] = face_up

    def left(self, t: float, zone: str, tag: CardTag) -> None:
        self.tags[tag.uid] = tag
        face = self._face.pop(tag.uid, None) if zone == "shoe" else None
        if zone == "shoe":
            self._left_face[tag.uid] = bool(face)
        self.transit[tag.uid] = Transit(zone, t, face)
        if t + OFF_TABLE_AFTER_S - FALL_MARGIN < self.fall_due:
            self.fall_due = t + OFF_TABLE_AFTER_S - FALL_MARGIN
        self.where[tag.uid] = OFF_TABLE

    def entered(self, zone: str, tag: CardTag) -> str | None:
        """Record the arrival; returns the zone it came from (None: unknown, e.g. first sighting)."""
        self.tags[tag.uid] = tag
        move = self.transit.pop(tag.uid, None)
        if move is not None and not self.transit:
            self.fall_due = float("inf")   # nothing moving: apply stops asking fallen() until a card leaves again
        self.where[tag.uid] = zone
        return move.source if move else None

    def sensed_face(self, uid: str) -> bool | None:
        move = self.transit.get(uid)
        return move.face_up if move else None

    def face_up_from_shoe(self, uid: str) -> bool:
        return self._left_face.get(uid, False)

    def fallen(self, t: float) -> list[tuple[str, Transit]]:
        """Cards in transit longer than the travel time: they are off the table. Removes them from transit."""
        if t < self.fall_due:
            return []     # the common case: the cards moving left less than OFF_TABLE_AFTER_S ago
        out = []
        for uid, m in self.transit.items():   # a loop, not a comprehension: asked while any card is moving
            if t - m.t > OFF_TABLE_AFTER_S:
                out.append((uid, m))
        for uid, _ in out:
            del self.transit[uid]
        earliest = min((m.t for m in self.transit.values()), default=float("inf"))
        self.fall_due = earliest + OFF_TABLE_AFTER_S - FALL_MARGIN
        return out

    def settle_transit(self, uid: str) -> Transit | None:
        """Declare one card in transit off the table now (another card left the shoe after it)."""
        return self.transit.pop(uid, None)

    def in_zone(self, zone: str) -> list[str]:
        return [uid for uid, z in self.where.items() if z == zone]

    def card(self, uid: str) -> str:
        return self.tags[uid].card
