"""What every table's tile shows, kept in memory as the ingest files it: status, the latest state (as parsed)
and the open alerts' severities per table. A tile or an alert row pushed to the browsers is built from here, so
the filing thread never reads back from the database what it has just written. At start-up 500 tables send
their retained status and state in the same second: reading each tile back (the table's row, its open alerts)
cost two queries per tile and delayed every alert filed behind them.

Loaded from the store once at start; the filing thread (ingest) and the event loop (ack, resolve) both change
it, under one lock. Several instances on one database each hold a board: every alert row of the shared journal
(whichever instance wrote it) has its alert's state read back from the store into it (``sync``), so the open
alerts and the floor calls are the store's, not this process's share of them.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass

from .store import Store

TableKey = tuple[str, str]        # (site, table)


@dataclass(frozen=True, slots=True)
class OpenAlert:
    """The little of an open alert a tile needs (render.tile reads ``open`` and ``severity``)."""
    severity: str | None
    open: bool = True


class TileBoard:
    def __init__(self, store: Store) -> None:
        self._lock = threading.Lock()
        self._rows: dict[TableKey, dict] = {}
        self._open: dict[TableKey, dict[int, OpenAlert]] = {}
        self._floor_calls: dict[str, int] = {}     # open floor alerts per site: every page's alarm is derived from it
        for row in store.tables():
            self._rows[(row["site"], row["table_id"])] = row
        for a in store.alerts(open_only=True, limit=1_000_000):
            self.alert_opened((a.site, a.table_id), a.id, a.severity)

    def heard(self, key: TableKey, at: float, **values: object) -> None:
        """A table's row as the store now holds it: ``status``/``reason`` or ``state``/``state_at``."""
        with self._lock:
            row = self._rows.get(key)
            if row is None:
                row = self._rows[key] = {"site": key[0], "table_id": key[1], "status": None, "reason": None,
                                         "state": None, "state_at": None}
            row["last_seen"] = at
            row.update(values)

    def alert_opened(self, key: TableKey, alert_id: int, severity: str | None) -> None:
        with self._lock:
            self._open_one(key, alert_id, severity)

    def alert_closed(self, key: TableKey, alert_id: int) -> None:
        with self._lock:
            self._close_one(key, alert_id)

    def _open_one(self, key: TableKey, alert_id: int, severity: str | None) -> None:
        table = self._open.setdefault(key, {})
        if alert_id not in table and severity == "floor":
            self._floor_calls[key[0]] = self._floor_calls.get(key[0], 0) + 1
        table[alert_id] = OpenAlert(severity)

    def _close_one(self, key: TableKey, alert_id: int) -> None:
        gone = self._open.get(key, {}).pop(alert_id, None)
        if gone is not None and gone.severity == "floor":
            self._floor_calls[key[0]] -= 1

    def sync(self, read: Callable[[], list[tuple[int, str, str, str | None, bool]]]) -> None:
        """Take the open or closed state of some alerts as the shared store has it now: ``read`` gives (id,
        site, table, severity, open) of each. Another instance on the same database filed, acknowledged or
        resolved them; the journal names them, and every instance reads the journal. The read runs under the
        lock, so a close this instance makes meanwhile is applied after it, never undone by it."""
        with self._lock:
            for alert_id, site, table, severity, is_open in read():
                key = (site, table)
                if is_open:
                    if alert_id not in self._open.get(key, {}):
                        self._open_one(key, alert_id, severity)
                else:
                    self._close_one(key, alert_id)

    def floor_calls(self) -> dict[str, int]:
        """Open floor alerts per site (sites with none left out): what sounds the alarm on every page."""
        with self._lock:
            return {site: n for site, n in self._floor_calls.items() if n > 0}

    def state_times(self) -> list[tuple[str, str, float | None]]:
        """(site, table, when its state last came) of every table, for the staleness sweep each second: every
        instance takes every table's state itself (retained, never shared), so its own board knows."""
        with self._lock:
            return [(site, table, row.get("state_at")) for (site, table), row in self._rows.items()]

    def row(self, key: TableKey) -> tuple[dict, list[OpenAlert]] | None:
        """A copy of the table's row and its open alerts, or None for a table never heard of."""
        with self._lock:
            row = self._rows.get(key)
            if row is None:
                return None
            return dict(row), list(self._open.get(key, {}).values())
