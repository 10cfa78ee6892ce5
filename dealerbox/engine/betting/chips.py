"""Which chips play: our own house's registered chips of at least the game's smallest denomination.

Chips of another house, unknown tags (Procedures 3) and chips below ``game.smallest_chip`` (Betting 7) are
evidence, not wagers: the betting round leaves them out of every amount and raises a finding.
"""

from __future__ import annotations

from ...tags import ChipTag, Tag, UnknownTag

PLAYS, FOREIGN, TOO_SMALL, NOT_A_CHIP = "plays", "foreign", "too-small", "not-a-chip"


def classify(tag: Tag, house: str, smallest_chip: int) -> str:
    """``plays``, ``foreign`` (another house or unregistered), ``too-small``, or ``not-a-chip``."""
    if isinstance(tag, UnknownTag):
        return FOREIGN
    if not isinstance(tag, ChipTag):
        return NOT_A_CHIP
    if tag.house != house:
        return FOREIGN
    if tag.value < smallest_chip:
        return TOO_SMALL
    return PLAYS


def chip_value(tag: Tag) -> int:
    return tag.value if isinstance(tag, ChipTag) else 0
