"""Small bounded containers for state a terminal would otherwise keep for every hand of a month."""

from __future__ import annotations

from collections import OrderedDict


class RecentIds:
    """A set of the ``limit`` most recently added ids (re-adding one makes it recent again).

    >>> ids = RecentIds(2)
    >>> ids.add("a"); ids.add("b"); ids.add("c")
    >>> ("a" in ids, "c" in ids, len(ids))
    (False, True, 2)
    """

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self._ids: OrderedDict[str, None] = OrderedDict()

    def add(self, item: str) -> None:
        self._ids[item] = None
        self._ids.move_to_end(item)
        while len(self._ids) > self.limit:
            self._ids.popitem(last=False)

    def __contains__(self, item: object) -> bool:
        return item in self._ids

    def __len__(self) -> int:
        return len(self._ids)
