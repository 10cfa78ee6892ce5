"""How the publisher sends outbox rows: the alerts the spooler hands over before their commit first, then
the committed rows in ``id`` order (QoS 1, a window of in-flight messages, a rate cap on late rows), each
PUBACK mapped to its row id so the row is deleted when the broker has it."""

from __future__ import annotations

import threading
import time
from collections import deque

import paho.mqtt.client as mqtt

from .anchors import AnchorBooks
from .outbox import Outbox, OutboxError, Row
from .receipts import Receipts
from .parts import LinkCounters, LinkIdentity, LinkState
from .security import PROPERTIES

EXPRESS_MAX = 20   # alerts handed to the publisher ahead of their commit, at most (a latency shortcut only)


class Bucket:
    """Token bucket for the replay rate cap (messages per second)."""

    def __init__(self, rate: float) -> None:
        self.rate = max(float(rate), 1.0)
        self.capacity = max(1.0, self.rate / 5)
        self.tokens = self.capacity
        self.stamp = time.monotonic()

    def take(self) -> float:
        """0 when a message may go now, else seconds until it may."""
        now = time.monotonic()
        self.tokens = min(self.capacity, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens >= 1:
            self.tokens -= 1
            return 0.0
        return (1 - self.tokens) / self.rate


class Drain:
    """The publisher's way of sending outbox rows: given who the table is, the link's state (which session a row
    is late for), the counters, the signed heads' books and the floor's receipts; owns the publisher's
    connection to the outbox, the messages in flight (mid -> row id and topic), the alerts the spooler handed
    over before their commit and those already sent early. Runs on the publisher thread; the spooler only
    hands alerts over (:meth:`hand_over`), and the health reads how many are in flight."""

    def __init__(self, ident: LinkIdentity, state: LinkState, counters: LinkCounters, anchors: AnchorBooks,
                 receipts: Receipts) -> None:
        self.ident, self._state, self._counters = ident, state, counters
        self._anchors, self._receipts = anchors, receipts
        self._lock = threading.Lock()
        self.db: Outbox | None = None           # opened by the publisher thread (each thread its own connection)
        self.inflight: dict[int, int] = {}
        self.topics: dict[int, str] = {}        # mid -> topic of everything in flight, to name a refusal
        self.express: deque[Row] = deque()      # alerts the spooler handed over before their commit
        self.sent_early: set[int] = set()       # row ids published from express the in-order pump has not passed

    @property
    def outbox(self) -> Outbox:
        if self.db is None:
            raise OutboxError(f"{self.ident.outbox_path}: the publisher's outbox is not open")
        return self.db

    def open(self) -> Outbox:
        """The publisher thread's own connection to the outbox (close it when the thread ends)."""
        self.db = Outbox(self.ident.outbox_path, "NORMAL", receipt_wait=self._receipts.wait)
        return self.db

    # --- what the spooler and the publisher tell it ------------------------------------------------------

    def hand_over(self, alerts: list[Row]) -> bool:
        """The spooler's alerts, before their commit's fsync (outbox.py says why it is safe); bounded, since a
        slow floor must not grow memory: what is not taken goes out in order once committed. True if any was."""
        room = EXPRESS_MAX - len(self.express)
        if alerts and room > 0:
            self.express.extend(alerts[:room])
            return True
        return False

    def new_session(self, live: bool) -> None:
        """A connection began: nothing is in flight on it; on a live link every unfiled alert is due again,
        since whatever the broker held for the floor may be gone."""
        if live:
            self._receipts.new_session(self.db)
        self._forget_in_flight()

    def session_over(self) -> None:
        """The connection ended: what it did not send is committed and goes with the next one."""
        self._forget_in_flight()
        self.express.clear()
        self.sent_early.clear()

    def sent(self, mid: int, topic: str) -> None:
        """The publisher sent a message of its own (status, state, hole cards) on ``mid``."""
        with self._lock:
            self.topics[mid] = topic

    def in_flight(self, mid: int | None) -> bool:
        """Is message ``mid`` (an outbox row or one of the publisher's own) still waiting for its PUBACK?"""
        if mid is None:
            return False
        with self._lock:
            return mid in self.topics

    def answered(self, mid: int, failed: bool) -> tuple[int | None, str | None]:
        """The broker answered message ``mid``: the outbox row it carried (if any) and its topic."""
        with self._lock:
            row = self.inflight.pop(mid, None)
            topic = self.topics.pop(mid, None)
        self._anchors.settled(mid, failed)
        return row, topic

    def settle(self, acked: list[int]) -> tuple[int | None, int]:
        """Delete the alerts the floor filed and the rows the broker acknowledged: (rows acknowledged and deleted,
        or None when there was nothing to delete; rows that left the outbox proper on a receipt), for the depth."""
        db = self.outbox
        early = self._receipts.settle(db)   # alerts the floor filed leave the outbox for good
        if acked or db.pending_deletes:     # a delete the spooler's lock held back goes now
            return db.delete(acked), early
        return None, early

    def _forget_in_flight(self) -> None:
        with self._lock:
            self.inflight = {}
            self.topics = {}
        self._anchors.forget_in_flight()

    # --- sending ----------------------------------------------------------------------------------------

    def pump(self, client: mqtt.Client, bucket: Bucket, last_id: int, window: int) -> tuple[float, int]:
        """Publish the alerts handed over before their commit, then the next outbox rows in order; returns
        (how long the I/O wait may be, last id sent in order)."""
        room = window - len(self.inflight)
        if self.express and room > 0:
            room -= self._publish_early(client, last_id, room)
        if room <= 0:
            return 1.0, last_id
        early = self.sent_early
        published = 0
        for row in self.outbox.after(last_id, room + len(early)):
            if row.id in early:   # already sent ahead of its commit: only the order moves past it
                early.discard(row.id)
                last_id = row.id
                continue
            if published >= room:
                break
            late = row.boot != self.ident.boot or row.session != self._state.session
            if late:
                wait = bucket.take()
                if wait:
                    return wait, last_id
            if not self._publish_row(client, row, late):
                return 0.05, last_id
            published += 1
            last_id = row.id
        if early:   # a row sent early whose delete came first is never seen here: forget it once passed
            self.sent_early = {i for i in early if i > last_id}
        if published < room:   # the rows are out: alerts the floor has not filed since their PUBACK go again
            for row in self._receipts.due(self.db, room - published, set(self.inflight.values())):
                if bucket.take() or not self._publish_row(client, row, True):
                    break
        return 1.0, last_id

    def _publish_early(self, client: mqtt.Client, last_id: int, room: int) -> int:
        """Publish the alerts the spooler handed over while their group commits; how many went. Only when
        every committed row before them has been sent, so alerts keep their order on the alert topic; they
        may overtake the events of their own group, which are not committed yet (docs/floor-topics.md)."""
        sent = 0
        while self.express and sent < room:
            row = self.express.popleft()
            if row.id <= last_id or row.id in self.sent_early:
                continue   # the pump already has it (its commit was quicker than this thread)
            ahead = [r for r in self.outbox.after(last_id, len(self.sent_early) + 1) if r.id not in self.sent_early]
            if ahead and ahead[0].id < row.id:
                self.express.clear()   # committed rows wait before it: the pump sends them all in order
                break
            if not self._publish_row(client, row, row.boot != self.ident.boot or row.session != self._state.session):
                self.express.clear()   # the row is in the outbox: the pump retries it
                break
            self.sent_early.add(row.id)
            self._counters.add("published_early")
            sent += 1
        return sent

    def _publish_row(self, client: mqtt.Client, row: Row, late: bool) -> bool:
        """One outbox row at QoS 1, its PUBACK mapped to the row id; False when paho would not take it."""
        # the envelope's flag is the first "replayed" in the text (wrap() puts it before the body)
        text = row.payload.replace('"replayed":false', '"replayed":true', 1) if late else row.payload
        info = client.publish(row.topic, text, qos=1, properties=PROPERTIES[row.kind])
        if info.rc != mqtt.MQTT_ERR_SUCCESS:
            return False
        with self._lock:
            self.inflight[info.mid] = row.id
            self.topics[info.mid] = row.topic
        if row.kind == "anchor":
            self._anchors.published(info.mid, row.payload)
        self._counters.add("published")
        self._counters.add("replayed", late)
        return True
