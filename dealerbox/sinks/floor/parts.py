"""What the pieces of :class:`FloorLink` (spooler, session) share: the attributes its __init__ sets."""

from __future__ import annotations

from typing import Protocol
from collections.abc import Callable

from ...config import FloorConfig
from ...engine.events import TableEvent
from ...engine.state import TableState
from . import contract as c


class TableUpdate(Protocol):
    """What the link is handed for each engine step (the runtime's ``bus.Update`` is one)."""

    @property
    def events(self) -> tuple[TableEvent, ...]: ...

    @property
    def state(self) -> TableState: ...

    @property
    def health(self) -> dict: ...


class LinkParts:
    """Declared once for the mixins that read them; :class:`FloorLink` sets them all in its __init__."""

    fc: FloorConfig
    review: bool
    retain: bool
    hole_cards: bool
    outbox_path: str
    topic: Callable[[str], str]        # FloorLink's: this table's topic of a kind (live or review)
    site: str
    table: str
    boot: str
    env: c.Envelope
    clock: Callable[[], float]
    counters: dict[str, int]
    last_error: str
    outbox_error: str
