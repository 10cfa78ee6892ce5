"""Hole cards on the restricted broadcast topic, for tables the ACL lists (config floor.hole_cards_topic).

A broker may not list this table, and mosquitto 2.0.11 answers a refused QoS 1 publish by closing the
connection. So the first hole card of a link goes out alone, as a trial: once its PUBACK succeeds the rest
follow; if it is refused, or the connection drops with it in flight, the topic counts as refused for this
link: one log line, then each hole card is only counted (``holecards_refused``) and never sent, so a
misconfigured broadcast neither floods the log nor knocks the table off the floor.
"""

from __future__ import annotations

import logging
import threading
from collections import deque
from typing import Any
from collections.abc import Callable

import paho.mqtt.client as mqtt

from .parts import LinkCounters, LinkIdentity

log = logging.getLogger("dealerbox.floor")

Send = Callable[[mqtt.Client, str, dict[str, Any]], mqtt.MQTTMessageInfo]   # the publisher's JSON publish


class HoleCards:
    """Given who the table is and the counters; owns the hole cards waiting to go (the spooler adds them through
    :meth:`add`) and what the broker said about the topic (the publisher tells it each answer). Sends on the
    publisher thread."""

    def __init__(self, ident: LinkIdentity, counters: LinkCounters) -> None:
        self.ident, self._counters = ident, counters
        self._lock = threading.Lock()
        self.queue: deque[dict[str, Any]] = deque(maxlen=1000)
        self.trial: int | None = None       # mid of the trial publish in flight
        self.allowed: bool | None = None    # None until the broker has answered the trial

    def add(self, payloads: list[dict[str, Any]]) -> None:
        """Hole-card payloads the spooler made, to go on the restricted topic (spooler thread)."""
        with self._lock:
            self.queue.extend(payloads)

    def publish(self, client: mqtt.Client, send: Send) -> None:
        """Send what is waiting through ``send`` (the publisher's ``_publish_json``), the first alone as a trial."""
        while True:
            if self.trial is not None and self.allowed is None:
                return   # wait for the trial's answer
            with self._lock:
                if not self.queue:
                    return
                payload = self.queue.popleft()
            if self.allowed is False:
                self._counters.add("holecards_refused")
                continue
            info = send(client, "holecards", payload)
            self._counters.add("holecards_published")
            if self.allowed is None:
                self.trial = info.mid

    def acknowledged(self, mid: int) -> None:
        """The broker took message ``mid``: if it was the trial, the topic is open to this table."""
        if mid == self.trial:
            self.allowed = True

    def refused(self, reason: str) -> None:
        self._counters.add("holecards_refused")
        self._counters.add("holecards_published", -1)
        if self.allowed is not False:
            self.allowed = False
            log.error("floor %s/%s: the broker refused hole cards on %s (%s); the ACL must list this table for "
                      "the broadcast topic, or set floor.hole_cards_topic = false; further hole cards are only "
                      "counted (holecards_refused)", self.ident.site, self.ident.table, self.ident.topic("holecards"),
                      reason)

    def session_ended(self) -> None:
        """The connection ended with the trial unanswered: mosquitto 2.0 drops a client it refuses."""
        if self.trial is not None and self.allowed is None:
            self.refused("connection closed on the first hole-card publish")
