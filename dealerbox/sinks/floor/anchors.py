"""The signed heads on their way to the floor: which ones the broker has not acknowledged yet, and how old the
oldest is (the window root on the box could still rewrite, docs/security.md). Anchors travel through the
outbox like events; this part only keeps the books the spooler, the publisher and the health share."""

from __future__ import annotations

import calendar
import json
import threading
import time
from typing import Any

from ...record.anchor import anchor_message
from . import contract as c
from .outbox import Outbox


def signed_at(payload_text: str) -> float:
    """The wall time an anchor payload says it was signed (now, if it cannot be read)."""
    try:
        return float(calendar.timegm(time.strptime(json.loads(payload_text)["at"], "%Y-%m-%dT%H:%M:%SZ")))
    except (ValueError, KeyError, TypeError):
        return time.time()


def unsent_anchors(outbox: Outbox) -> dict[int, float]:
    """a -> signing time of the anchors a previous run left in the outbox (the window the health shows)."""
    out: dict[int, float] = {}
    for seq, text in outbox.db.execute("SELECT seq, payload FROM outbox WHERE kind = 'anchor'"):
        out[int(seq)] = signed_at(text)
    return out


class AnchorBooks:
    """Given the alert limit; owns the heads not yet acknowledged (a -> signed at), the anchors in flight (mid ->
    payload), each log's file name (for retention, never published) and the latest head the broker
    acknowledged. The spooler adds, the publisher settles, the health reads, each under the books' own lock."""

    def __init__(self, alert_min: float) -> None:
        self.lock = threading.Lock()
        self.alert_min = alert_min
        self.unanchored: dict[int, float] = {}
        self.in_flight: dict[int, str] = {}
        self.files: dict[str, str] = {}
        self.acked: dict[str, Any] | None = None   # the latest anchor the broker acknowledged (log retention)

    def load(self, outbox: Outbox) -> None:
        """Heads a previous run spooled and never saw acknowledged."""
        found = unsent_anchors(outbox)
        with self.lock:
            self.unanchored.update(found)

    def row(self, site: str, topic: str, boot: str, session: int, anchor: dict[str, Any]) -> tuple[Any, ...]:
        """The outbox row for one signed head from the recorder (spooler thread); never dropped by the cap."""
        payload = anchor_message(site, anchor, self.alert_min)
        with self.lock:
            self.unanchored[payload["a"]] = signed_at(json.dumps(payload))
            self.files[payload["log"]] = str(anchor.get("file", ""))
        return (topic, "anchor", c.PRIORITY_KEEP, boot, payload["a"], session, payload)

    def published(self, mid: int, payload: str) -> None:
        """An anchor row left on message ``mid``."""
        with self.lock:
            self.in_flight[mid] = payload

    def settled(self, mid: int, failed: bool) -> None:
        """The broker answered message ``mid``: an acknowledged head leaves the window."""
        with self.lock:
            text = self.in_flight.pop(mid, None)
            if text is None or failed:
                return
            acked = json.loads(text)     # the broker holds it (QoS 1): logs it covers may go
            self.unanchored.pop(int(acked.get("a", 0)), None)
            self.acked = {**acked, "file": self.files.get(str(acked.get("log")), "")}

    def forget_in_flight(self) -> None:
        """A connection ended: what was in flight will be sent again from the outbox."""
        with self.lock:
            self.in_flight = {}

    def health(self, now: float) -> dict[str, Any]:
        """The window for the screen and the floor."""
        with self.lock:
            oldest = min(self.unanchored.values(), default=None)
            count = len(self.unanchored)
        return {"unanchored": count, "anchor_alert_min": self.alert_min,
                "oldest_unanchored_s": None if oldest is None else round(max(0.0, now - oldest), 1)}
