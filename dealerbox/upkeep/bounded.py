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

    def discard(self, item: str) -> None:
        self._ids.pop(item, None)

    def __contains__(self, item: object) -> bool:
        return item in self._ids

    def __len__(self) -> int:
        return len(self._ids)


class KnownFindings:
    """The findings a floor ``ack`` may name: the ``limit`` most recent floor calls still open, however old (the
    table keeps each one until it is acknowledged, and its state lists only the newest: 5,000 open is some
    250,000 hands at a soak's rate), and the ``limit`` most recent other ids.

    >>> known = KnownFindings(2)
    >>> known.raised("h1-1", floor_call=True); known.seen("h2-1"); known.seen("h3-1"); known.seen("h4-1")
    >>> ("h1-1" in known, "h2-1" in known, "h4-1" in known)
    (True, False, True)
    >>> known.acknowledged("h1-1"); ("h1-1" in known.calls, "h1-1" in known)   # a recent id now, as any other
    (False, True)
    """

    def __init__(self, limit: int) -> None:
        self.recent = RecentIds(limit)
        self.calls = RecentIds(limit)

    def raised(self, finding: str, floor_call: bool) -> None:
        """A finding the floor was alerted to; a floor call stays known until it is acknowledged."""
        if floor_call:
            self.calls.add(finding)
        else:
            self.recent.add(finding)

    def seen(self, finding: str) -> None:
        """A finding the table's state lists (known while it keeps being listed, then while recent)."""
        if finding not in self.calls:
            self.recent.add(finding)

    def acknowledged(self, finding: str) -> None:
        """A FindingAcknowledged went by: the call is no longer open (it stays known a while, as a recent id)."""
        if finding in self.calls:
            self.calls.discard(finding)
            self.recent.add(finding)

    def __contains__(self, item: object) -> bool:
        return item in self.calls or item in self.recent

    def __len__(self) -> int:
        return len(self.calls) + len(self.recent)
