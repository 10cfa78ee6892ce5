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

log = logging.getLogger("dealerbox.floor")


class HoleCards:
    """Mixed into :class:`FloorLink`, whose __init__ sets the attributes below; runs on the publisher thread."""

    site: str
    table: str
    counters: dict[str, int]
    _lock: threading.Lock
    _holecards: deque[dict]
    _holecards_trial: int | None       # mid of the trial publish in flight
    _holecards_allowed: bool | None    # None until the broker has answered the trial
    topic: Callable[[str], str]
    _publish_json: Callable[..., Any]

    def _publish_holecards(self, client: mqtt.Client) -> None:
        while True:
            if self._holecards_trial is not None and self._holecards_allowed is None:
                return   # wait for the trial's answer
            with self._lock:
                if not self._holecards:
                    return
                payload = self._holecards.popleft()
            if self._holecards_allowed is False:
                self.counters["holecards_refused"] += 1
                continue
            info = self._publish_json(client, "holecards", payload)
            self.counters["holecards_published"] += 1
            if self._holecards_allowed is None:
                self._holecards_trial = info.mid

    def _holecards_refused(self, reason: str) -> None:
        self.counters["holecards_refused"] += 1
        self.counters["holecards_published"] -= 1
        if self._holecards_allowed is not False:
            self._holecards_allowed = False
            log.error("floor %s/%s: the broker refused hole cards on %s (%s); the ACL must list this table for "
                      "the broadcast topic, or set floor.hole_cards_topic = false; further hole cards are only "
                      "counted (holecards_refused)", self.site, self.table, self.topic("holecards"), reason)

    def _holecards_session_ended(self) -> None:
        """The connection ended with the trial unanswered: mosquitto 2.0 drops a client it refuses."""
        if self._holecards_trial is not None and self._holecards_allowed is None:
            self._holecards_refused("connection closed on the first hole-card publish")
