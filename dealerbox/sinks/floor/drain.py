"""How the publisher sends outbox rows: the alerts the spooler hands over before their commit first, then
the committed rows in ``id`` order (QoS 1, a window of in-flight messages, a rate cap on late rows), each
PUBACK mapped to its row id so the row is deleted when the broker has it."""

from __future__ import annotations

import time
from collections import deque

import paho.mqtt.client as mqtt

from .anchors import AnchorBooks
from .outbox import Outbox, OutboxError, Row
from .receipts import Receipts
from .parts import LinkIdentity, LinkStatus
from .security import PROPERTIES


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
    """The publisher's way of sending outbox rows: given who the table is and the shared status; owns the
    publisher's connection to the outbox, the messages in flight (mid -> row id and topic), the alerts the
    spooler handed over before their commit and those already sent early. Runs on the publisher thread;
    the spooler only appends to ``express``, paho's callbacks pop ``inflight`` under the status lock."""

    def __init__(self, ident: LinkIdentity, status: LinkStatus, anchors: AnchorBooks, receipts: Receipts) -> None:
        self.ident, self.status, self.anchors, self.receipts = ident, status, anchors, receipts
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

    def new_session(self) -> None:
        """A connection began or ended: nothing is in flight on it any more (call under the status lock)."""
        self.inflight = {}
        self.topics = {}
        self.anchors.forget_in_flight()

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
            late = row.boot != self.ident.boot or row.session != self.status.session
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
            for row in self.receipts.due(self.db, room - published, set(self.inflight.values())):
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
            if not self._publish_row(client, row, row.boot != self.ident.boot or row.session != self.status.session):
                self.express.clear()   # the row is in the outbox: the pump retries it
                break
            self.sent_early.add(row.id)
            self.status.counters["published_early"] += 1
            sent += 1
        return sent

    def _publish_row(self, client: mqtt.Client, row: Row, late: bool) -> bool:
        """One outbox row at QoS 1, its PUBACK mapped to the row id; False when paho would not take it."""
        # the envelope's flag is the first "replayed" in the text (wrap() puts it before the body)
        text = row.payload.replace('"replayed":false', '"replayed":true', 1) if late else row.payload
        info = client.publish(row.topic, text, qos=1, properties=PROPERTIES[row.kind])
        if info.rc != mqtt.MQTT_ERR_SUCCESS:
            return False
        with self.status.lock:
            self.inflight[info.mid] = row.id
            self.topics[info.mid] = row.topic
            if row.kind == "anchor":
                self.anchors.published(info.mid, row.payload)
        self.status.counters["published"] += 1
        self.status.counters["replayed"] += late
        return True
