"""What the parts of :class:`~.link.FloorLink` are handed: who the table is (:class:`LinkIdentity`, fixed at
construction) and the few facts more than one part reads, each owned by one small part that says what happened
through its methods: the counters and refusals (:class:`LinkCounters`), the link's state (:class:`LinkState`),
the outbox's depth (:class:`OutboxDepth`), the latest table state for the floor (:class:`LatestState`) and how
the link tells its threads to stop (:class:`LinkControl`)."""

from __future__ import annotations

import logging
import socket
import threading
from collections import deque
from dataclasses import dataclass
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


class LinkCounters:
    """The link's counters (the health the screen and the floor show) and its latest refusals: every part
    counts what happened to it here, through :meth:`add`, and says what it refused through :meth:`refused`."""

    def __init__(self) -> None:
        self.counters: dict[str, int] = dict.fromkeys(COUNTERS, 0)
        self.refusals: deque[str] = deque(maxlen=50)

    def declare(self, *names: str) -> None:
        """Counters a part adds to the health (0 until it counts)."""
        for name in names:
            self.counters.setdefault(name, 0)

    def add(self, name: str, n: int = 1) -> None:
        self.counters[name] += n

    def set(self, name: str, value: int) -> None:
        self.counters[name] = value

    def __getitem__(self, name: str) -> int:
        return self.counters[name]

    def refused(self, reason: str) -> None:
        self.refusals.append(reason)


class LinkState:
    """The link's state as the health shows it (connecting, connected, down, refused, stopped; since when; the
    last error and the outbox's) and the publisher's connection (up or not, and how many so far). The publisher
    and the link say what happened to the connection, the spooler what went wrong with the outbox."""

    def __init__(self, site: str, table: str, clock: Callable[[], float]) -> None:
        self.site, self.table, self.clock = site, table, clock
        self.lock = threading.Lock()
        self.link = "stopped"
        self.since = clock()
        self.last_error = ""
        self.outbox_error = ""     # the outbox's last trouble (a full disk), apart so a broker error cannot hide it
        self.connected = False
        self.session = 0           # the connection count: a row spooled in another one is late
        self._said: tuple[str, str] = ("", "")   # the link state and error last logged

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

    def error(self, text: str) -> str:
        """Something went wrong that the health should name (the text, for the caller's log line)."""
        self.last_error = text
        return text

    def outbox_trouble(self, text: str) -> str:
        """The outbox could not be written (a full disk): named apart, so a broker error cannot hide it."""
        self.last_error = self.outbox_error = text
        return text

    def up(self) -> None:
        """A connection was accepted: a new session."""
        with self.lock:
            self.session += 1
            self.connected = True

    def online(self) -> None:
        """The broker took the birth: connected, and the last error is history."""
        self.set_link("connected")
        self.last_error = ""

    def down(self) -> None:
        with self.lock:
            self.connected = False

    def spool_session(self) -> int:
        """The session a row spooled now belongs to (-1 when there is no connection)."""
        with self.lock:
            return self.session if self.connected else -1

    def _worth_saying(self, state: str, error: str) -> bool:
        """A broker that stays away is said once: its retries (connecting, the same failure) are not logged."""
        said_state, said_error = self._said
        retry = said_state == "down" and (state == "connecting" or (state == "down" and error == said_error))
        if not retry:
            self._said = (state, error)
        return not retry


class OutboxDepth:
    """How many rows wait in the outbox: the spooler adds what it writes, and every part that takes rows away
    (the cap, a full disk, an acknowledgement, a receipt) says how many."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self.rows = 0

    def found(self, n: int) -> None:
        """What the outbox held at start."""
        with self._lock:
            self.rows = n

    def added(self, n: int) -> None:
        with self._lock:
            self.rows += n

    def removed(self, n: int) -> int:
        """``n`` rows left the outbox; how many are left."""
        with self._lock:
            self.rows -= n
            return self.rows


class LatestState:
    """The latest table state for the floor and the table time it stands at: the spooler says what it spooled,
    the command desk that the floor asked again, the publisher takes it when it is due (coalesced)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._body: tuple[TableState, float, dict[str, Any]] | None = None
        self._dirty = False
        self.refresh = False       # the floor asked for the state again
        self.last_t = 0.0          # the latest table time spooled

    def saw(self, t: float) -> None:
        """An event at table time ``t`` was spooled."""
        self.last_t = max(self.last_t, t)

    def spooled(self, state: TableState, health: dict[str, Any]) -> None:
        with self._lock:
            self._body = (state, self.last_t, health)
            self._dirty = True

    def floor_asked(self) -> None:
        with self._lock:
            self.refresh = True

    def due_again(self) -> None:
        """Send the state again (a new connection, the heartbeat, a drained outbox the health should show)."""
        with self._lock:
            self._dirty = self._body is not None

    @property
    def waiting(self) -> bool:
        return self._dirty or self.refresh

    def take(self) -> tuple[TableState, float, dict[str, Any]] | None:
        """The state to publish now, or None when nothing new is due."""
        with self._lock:
            if not (self._dirty or self.refresh) or self._body is None:
                return None
            self._dirty = self.refresh = False
            return self._body


class LinkControl:
    """How the link tells its two threads to stop (and whether to drain first, or to die as if killed), and
    the poke that wakes the publisher out of its select. Set by the link only; read by both threads."""

    def __init__(self) -> None:
        self._stop = threading.Event()
        self.abandoned = False
        self.drain = True
        self.drain_timeout = 5.0
        self.wake_r, self.wake_w = socket.socketpair()   # a poke wakes the publisher out of its select
        self.wake_r.setblocking(False)
        self.wake_w.setblocking(False)

    def poke(self) -> None:
        try:
            self.wake_w.send(b"x")
        except (BlockingIOError, OSError):
            pass  # already awake or closing

    def plan_stop(self, drain: bool, timeout: float) -> None:
        """How the publisher should stop when told: drain for up to ``timeout``, or not at all."""
        self.drain, self.drain_timeout = drain, timeout

    def abandon(self) -> None:
        """Stop as if killed: no drain, no goodbye."""
        self.abandoned = True

    def stop(self) -> None:
        self._stop.set()
        self.poke()

    @property
    def stopping(self) -> bool:
        return self._stop.is_set()

    def wait(self, seconds: float) -> bool:
        """Sleep up to ``seconds``, or until told to stop (True)."""
        return self._stop.wait(seconds)
