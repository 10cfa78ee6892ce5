"""A small least-recently-used cache for the renderer's pre-drawn pieces (glyphs, cards, seats, layers)."""

from __future__ import annotations

from collections import OrderedDict
from typing import Generic, TypeVar
from collections.abc import Callable, Hashable

V = TypeVar("V")


class LRU(Generic[V]):
    """At most ``limit`` entries, and (with ``weigh``) at most ``budget`` of their summed weight, e.g. the
    bytes of their pixels; the least recently used one goes first. Stacks change with every bet, so a plain
    dict would grow for as long as the table plays, and a count alone lets big pieces add up to megabytes."""

    __slots__ = ("limit", "budget", "weight", "_weigh", "_d")

    def __init__(self, limit: int, budget: int | None = None, weigh: Callable[[V], int] | None = None) -> None:
        self.limit = limit
        self.budget = budget
        self.weight = 0          # summed weight of the entries held (0 without ``weigh``)
        self._weigh = weigh
        self._d: OrderedDict[Hashable, V] = OrderedDict()

    def get(self, key: Hashable) -> V | None:
        value = self._d.get(key)
        if value is not None:
            self._d.move_to_end(key)
        return value

    def put(self, key: Hashable, value: V) -> V:
        old = self._d.pop(key, None)
        if old is not None and self._weigh is not None:
            self.weight -= self._weigh(old)
        self._d[key] = value
        if self._weigh is not None:
            self.weight += self._weigh(value)
        # The newest entry always stays: the frame being drawn needs it even if it alone is over budget.
        while len(self._d) > 1 and (len(self._d) > self.limit or
                                     (self.budget is not None and self.weight > self.budget)):
            _, gone = self._d.popitem(last=False)
            if self._weigh is not None:
                self.weight -= self._weigh(gone)
        return value

    def values(self) -> list[V]:
        return list(self._d.values())

    def __len__(self) -> int:
        return len(self._d)

    def __contains__(self, key: Hashable) -> bool:
        return key in self._d
