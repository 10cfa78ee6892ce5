"""What the parts of :class:`~.link.FloorLink` are handed: who the table is (:class:`LinkIdentity`, fixed at
construction) and the few facts more than one thread reads (:class:`LinkStatus`, under its one lock)."""

from __future__ import annotations

import logging
import socket
import threading
from collections import deque
from dataclasses import dataclass, field
from typing import Any, Protocol
from collections.abc import Callable

from ...config import Config, FloorConfig
from ...engine.events import TableEvent
from ...engine.state import TableState
from . import contract as c

log = logging.getLogger("dealerbox.floor")


class TableUpdate(Protocol):
    """What the link is handed for each engine step (the runtime's ``bus.Update`` is one)."""

    @property
    def events(self) -> tuple[TableEvent, ...]: ...

    @property
    def state(self) -> TableState: ...

    @property
    def health(self) -> dict[str, Any]: ...


@dataclass(frozen=True)
class LinkIdentity:
    """Who this link speaks for and where: set once by the link, read by every part."""

    config: Config
    site: str
    table: str
    boot: str
    review: bool          # a review replay: its own topics, nothing retained, no commands, no hole cards
    outbox_path: str
    env: c.Envelope
    clock: Callable[[], float]

    @property
    def fc(self) -> FloorConfig:
        return self.config.floor

    @property
    def retain(self) -> bool:
        return not self.review

    @property
    def hole_cards(self) -> bool:
        return self.fc.hole_cards_topic and not self.review

    def topic(self, kind: str) -> str:
        """This table's topic of ``kind``: the live one, or its review copy."""
        return c.topic(self.site, self.table, kind, review=self.review)


COUNTERS = ("submitted", "spooled", "published", "published_early", "acked", "replayed", "dropped", "disk_full",
            "publish_refused", "connects", "connect_failures", "commands_accepted", "commands_refused",
            "holecards_published", "holecards_lost", "holecards_refused", "quarantined", "states_published",
            "bad_updates")


@dataclass(eq=False)
class LinkStatus:
    """The facts the spooler, the publisher and the desks share, each written by one of them and read by the
    others under ``lock``; ``counters`` is the health the screen and the floor show."""

    site: str
    table: str
    clock: Callable[[], float]
    lock: threading.Lock = field(default_factory=threading.Lock)
    counters: dict[str, int] = field(default_factory=lambda: dict.fromkeys(COUNTERS, 0))
    refusals: deque[str] = field(default_factory=lambda: deque(maxlen=50))
    last_error: str = ""
    outbox_error: str = ""     # the outbox's last trouble (a full disk), apart so a broker error cannot hide it
    link: str = "stopped"
    since: float = 0.0
    depth: int = 0             # rows in the outbox: the spooler adds, the publisher's deletes take away
    connected: bool = False    # the publisher's
    session: int = 0           # the publisher's connection count: a row spooled in another one is late
    last_t: float = 0.0        # the latest table time spooled (the spooler's)
    state_body: tuple[TableState, float, dict[str, Any]] | None = None   # the latest state, from the spooler
    state_dirty: bool = False
    refresh: bool = False      # the floor asked for the state again (the command desk's)
    # how the link stops: set by the link, read by both threads
    stop_evt: threading.Event = field(default_factory=threading.Event)
    abandon: bool = False
    drain: bool = True
    drain_timeout: float = 5.0
    said: tuple[str, str] = ("", "")   # the link state and error last logged

    def __post_init__(self) -> None:
        self.since = self.clock()
        self.wake_r, self.wake_w = socket.socketpair()   # a poke wakes the publisher out of its select
        self.wake_r.setblocking(False)
        self.wake_w.setblocking(False)

    def poke(self) -> None:
        try:
            self.wake_w.send(b"x")
        except (BlockingIOError, OSError):
            pass  # already awake or closing

    def set_link(self, state: str, error: str = "") -> None:
        with self.lock:
            changed = state != self.link
            self.link = state
            if changed:
                self.since = self.clock()
            if error:
                self.last_error = error
        if changed and self._worth_saying(state, error):
            log.info("floor link %s/%s: %s%s", self.site, self.table, state, f" ({error})" if error else "")

    def _worth_saying(self, state: str, error: str) -> bool:
        """A broker that stays away is said once: its retries (connecting, the same failure) are not logged."""
        said_state, said_error = self.said
        retry = said_state == "down" and (state == "connecting" or (state == "down" and error == said_error))
        if not retry:
            self.said = (state, error)
        return not retry
