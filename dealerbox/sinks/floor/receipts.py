"""The floor's receipts for alerts (``dealerbox/<site>/<table>/receipt``): an alert leaves the terminal's outbox
when the dashboard has filed it, not on the broker's PUBACK. The outbox keeps a PUBACKed alert in ``unfiled``
(outbox.py) and this part, on the publisher thread, checks each receipt, deletes what it names and says which
unfiled alerts are due to go out again. Any payload is refused with a counter and a line, never raised."""

from __future__ import annotations

import json
import logging
import sqlite3
import time
from collections import deque
from functools import cache
from importlib import resources
from typing import Any

import jsonschema

from .outbox import RECEIPT_WAIT_S, Outbox, Row

log = logging.getLogger("dealerbox.floor")

PENDING_MAX = 20_000     # receipts waiting for the outbox lock; one dropped only means its alert is sent again
CHECK_EVERY_S = 1.0      # how often the publisher looks for unfiled alerts that fell due
RAW_MAX = 256 * 1024     # a receipt of 1,000 alerts is about 60 kB


@cache
def validator() -> jsonschema.Draft202012Validator:
    text = resources.files("dealerbox.schemas").joinpath("floor", "receipt.json").read_text(encoding="utf-8")
    return jsonschema.Draft202012Validator(json.loads(text))


def receipt_payload(site: str, table: str, sender: str, at: float, filed: list[tuple[str, int]]) -> dict[str, Any]:
    """What the dashboard publishes on ``dealerbox/<site>/<table>/receipt`` (at most 1,000 alerts each)."""
    return {"v": 1, "kind": "receipt", "site": site, "table": table, "from": sender, "at": at,
            "filed": [{"boot": boot, "seq": seq} for boot, seq in filed]}


class Receipts:
    """``on_message`` is paho's callback for the receipt topic; ``settle(db)`` applies the receipts taken;
    ``due(db, limit, inflight)`` the unfiled alerts to publish again. Publisher thread only."""

    def __init__(self, site: str, table: str, wait: float = RECEIPT_WAIT_S) -> None:
        self.site, self.table, self.wait = site, table, wait
        self.pending: deque[tuple[str, int]] = deque(maxlen=PENDING_MAX)
        self.counters = {"receipts": 0, "filed": 0, "receipts_refused": 0, "resent_unfiled": 0, "unfiled": 0}
        self.last_refusal = ""
        self._next_check = 0.0

    def on_message(self, _client: object, _userdata: object, message: Any) -> None:
        self.take(message.payload)

    def take(self, raw: bytes) -> int:
        """Check one receipt; how many alerts it names (0 when refused)."""
        try:
            if len(raw) > RAW_MAX:
                return self._refuse(f"{len(raw)} bytes, more than {RAW_MAX}")
            data = json.loads(raw.decode("utf-8"))
            error = next(iter(validator().iter_errors(data)), None)
        except (UnicodeDecodeError, ValueError, RecursionError) as e:
            return self._refuse(f"malformed JSON ({type(e).__name__})")
        if error is not None:
            where = ".".join(str(p) for p in error.absolute_path) or "(top level)"
            return self._refuse(f"schema: {where}: {error.message[:200]}")
        if data["site"] != self.site or data["table"] != self.table:
            return self._refuse(f"addressed to {data['site']}/{data['table']}, this is {self.site}/{self.table}")
        self.pending.extend((item["boot"], item["seq"]) for item in data["filed"])
        self.counters["receipts"] += 1
        return len(data["filed"])

    def _refuse(self, reason: str) -> int:
        self.counters["receipts_refused"] += 1
        self.last_refusal = reason
        log.warning("floor receipt for %s/%s refused: %s", self.site, self.table, reason)
        return 0

    def settle(self, db: Outbox | None) -> int:
        """Delete what the receipts named; how many of them were still in the outbox proper (a receipt that
        came before the PUBACK), for the caller's depth. The outbox lock busy: they wait for the next call."""
        if self.pending and db is not None:
            pairs = list(self.pending)
            try:
                gone, early = db.filed(pairs)
            except sqlite3.OperationalError as e:
                if getattr(e, "sqlite_errorcode", None) != sqlite3.SQLITE_BUSY:
                    raise
                return 0
            self.pending.clear()
            self.counters["filed"] += gone + early
            return early
        return 0

    def due(self, db: Outbox | None, limit: int, inflight: set[int]) -> list[Row]:
        """Unfiled alerts due to be published again (checked once a second at most)."""
        now = time.monotonic()
        if db is None or limit <= 0 or now < self._next_check:
            return []
        self._next_check = now + CHECK_EVERY_S
        self.counters["unfiled"] = db.unfiled()
        rows = db.due_unfiled(time.time(), limit, inflight)
        self.counters["resent_unfiled"] += len(rows)
        return rows

    def new_session(self, db: Outbox | None) -> None:
        """A new connection: whatever the broker held for the floor may be gone, so every unfiled alert is due."""
        if db is not None:
            db.resend_unfiled(time.time())
        self._next_check = 0.0
