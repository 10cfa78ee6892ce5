"""A small least-recently-used cache for the renderer's pre-drawn pieces (glyphs, cards, seats, layers)."""

from __future__ import annotations

from collections import OrderedDict
from typing import Generic, Hashable, TypeVar

V = TypeVar("V")


class LRU(Generic[V]):
    """At most ``limit`` entries; the least recently used one goes first (stacks change with every bet, so
    a plain dict would grow for as long as the table plays)."""

    __slots__ = ("limit", "_d")

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self._d: OrderedDict[Hashable, V] = OrderedDict()

    def get(self, key: Hashable) -> V | None:
        value = self._d.get(key)
        if value is not None:
            self._d.move_to_end(key)
        return value

    def put(self, key: Hashable, value: V) -> V:
        self._d[key] = value
        self._d.move_to_end(key)
        if len(self._d) > self.limit:
            self._d.popitem(last=False)
        return value

    def __len__(self) -> int:
        return len(self._d)

    def __contains__(self, key: Hashable) -> bool:
        return key in self._d
