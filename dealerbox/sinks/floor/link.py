"""FloorLink: the one owner of the MQTT client. Takes :class:`runtime.bus.Update` objects from the engine
side (``submit`` never blocks), spools every event and alert to the durable outbox, and publishes them to
``dealerbox/<site>/<table>/...`` over MQTT 5 with paho-mqtt 2.x (VERSION2 callbacks).

The link is four pieces, one file each, sharing the state set up here:

- :mod:`.spooler` (its own thread) turns updates into payloads and writes them to SQLite (alerts go to the
  publisher once written, while their commit syncs; everything else once committed);
- :mod:`.session` (the publisher thread) owns the socket: connect, birth, drain, acknowledgements, goodbye;
  :mod:`.drain` is how it sends outbox rows (an alert while its commit still syncs, the rest in order);
- :mod:`.commands` checks floor commands arriving on ``.../cmd``;
- :mod:`.security` sets credentials, TLS and the publish properties on each new client.
"""

from __future__ import annotations

import logging
import queue
import socket
import threading
import time
import uuid
from collections import deque
from pathlib import Path
from typing import Any
from collections.abc import Callable

from ...config import Config
from . import contract as c
from .commands import CommandDesk, FloorCommand
from .holecards import HoleCards
from .parts import TableUpdate
from .outbox import RECEIPT_WAIT_S, Outbox, OutboxError, Row
from .receipts import Receipts
from .security import configure_security, publish_properties, read_password
from .session import Session
from .spooler import STOP, Spooler
from .tournament_desk import TournamentDesk

from ...upkeep.bounded import RecentIds

KNOWN_FINDINGS = 5000
log = logging.getLogger("dealerbox.floor")

__all__ = ["FloorCommand", "FloorLink", "OutboxError", "configure_security", "publish_properties",
           "read_password"]


class FloorLink(Spooler, Session, HoleCards, TournamentDesk, CommandDesk):
    """``FloorLink(config).start()``; ``submit(update)`` from the engine side; ``health()`` for the screen;
    each accepted :class:`FloorCommand` goes to ``on_command`` (set it before ``start()``; by default the
    ``commands`` queue); a tournament table's instructions and clock go to ``on_floor_input``
    (:mod:`.tournament_desk`); ``stop()`` drains and says goodbye."""

    def __init__(self, config: Config, boot_id: str | None = None, clock: Callable[[], float] = time.time, *,
                 reconnect_min: float = 0.5, reconnect_max: float = 30.0, window: int = 20,
                 max_pages: int | None = None, review: bool = False, outbox: str | None = None,
                 receipt_wait: float = RECEIPT_WAIT_S) -> None:
        self.config = config
        self.fc = config.floor
        self.site = c.check_name("table.site", config.table.site)
        self.table = c.check_name("table.id", config.table.id)
        self.boot = c.check_name("boot id", boot_id or uuid.uuid4().hex)
        self.clock = clock
        # A review replay (``run --replay LOG --review-floor``) is never mistaken for the live table: its own
        # topics (review/dealerbox/...), replayed: true on every payload, nothing retained, no commands, no hole
        # cards, and its own outbox beside the live one so no live row is ever sent under review or vice versa.
        self.review = review
        self._anchor_sent = None
        self._anchor_mid: tuple[int, dict] | None = None   # the anchor publish awaiting its PUBACK
        self.anchor_acked: dict | None = None   # the latest anchor the broker acknowledged (log retention)
        self.retain = not review
        self.hole_cards = self.fc.hole_cards_topic and not review
        live = Path(outbox or self.fc.outbox)   # ``outbox``: a simulated table's own file (run --source simulator)
        self.outbox_path = str(live.with_name(f"{live.stem}-review{live.suffix}") if review else live)
        self.env = c.Envelope(self.site, self.table, self.boot, replayed=review)
        self.commands: queue.Queue[FloorCommand] = queue.Queue()
        self.on_command: Callable[[FloorCommand], None] = self.commands.put
        self.reconnect_min, self.reconnect_max, self.window = reconnect_min, reconnect_max, window
        self.max_pages = max_pages
        # the floor's word that it filed an alert (a review's alerts go nowhere that files them: PUBACK is enough)
        self.receipts = Receipts(self.site, self.table, 0.0 if review else receipt_wait)
        self._updates: queue.Queue = queue.Queue()
        self._lock = threading.Lock()
        self._wake_r, self._wake_w = socket.socketpair()
        self._wake_r.setblocking(False)
        self._wake_w.setblocking(False)
        self._stop_evt = threading.Event()
        self._abandon = False
        self._drain = True
        self._drain_timeout = 5.0
        self._threads: list[threading.Thread] = []
        self._net_db: Outbox | None = None
        # publisher state (publisher thread only)
        self._session = 0
        self._connected = False
        self._connack: tuple[bool, str, Any] | None = None
        self._inflight: dict[int, int] = {}
        self._acked: list[int] = []
        self._refused: list[tuple[str | None, str]] = []
        self._topics: dict[int, str] = {}      # mid -> topic of everything in flight, to name a refusal
        self._sent_early: set[int] = set()
        self._session_refused = False
        self._seen_cmds: deque[tuple[str, int]] = deque(maxlen=1024)
        # shared between the threads (under _lock)
        self._state_body: tuple[Any, float, dict] | None = None
        self._state_dirty = False
        self._refresh = False
        self._holecards: deque[dict] = deque(maxlen=1000)
        self._express: deque[Row] = deque()   # alerts on their way to the publisher ahead of their commit
        self._holecards_trial: int | None = None
        self._holecards_allowed: bool | None = None
        # findings the floor may acknowledge: open ones are re-added with every state, so old ones can go (issue 19)
        self._known_findings = RecentIds(KNOWN_FINDINGS)
        self._pending_drops: list[tuple[str, int]] = []
        self._pending_reason = "outbox-full"
        self._last_notice = 0.0
        self._unspooled: list[tuple] = []
        self._last_t = 0.0
        self._link = "stopped"
        self._since = self.clock()
        self.last_error = ""
        self.outbox_error = ""    # the outbox's last trouble (a full disk), apart so a broker error cannot hide it
        self.counters = {
            "submitted": 0, "spooled": 0, "published": 0, "published_early": 0, "acked": 0, "replayed": 0, "dropped": 0,
            "disk_full": 0, "publish_refused": 0, "connects": 0, "connect_failures": 0,
            "commands_accepted": 0, "commands_refused": 0, "holecards_published": 0, "holecards_lost": 0,
            "holecards_refused": 0, "quarantined": 0,
            "states_published": 0, "bad_updates": 0,
        }
        self.refusals: deque[str] = deque(maxlen=50)
        self._depth = 0
        self._init_tournament(config.is_tournament)

    def topic(self, kind: str) -> str:
        """This table's topic of ``kind``: the live one, or its review copy."""
        return c.topic(self.site, self.table, kind, review=self.review)

    # --- the engine side ----------------------------------------------------------------------------

    def start(self) -> FloorLink:
        """Open the outbox (raises OutboxError with the file name if it cannot) and start both threads."""
        path = Path(self.outbox_path)
        # each thread opens its own connection; opening here first surfaces a bad path before any thread runs
        probe = Outbox(path, "FULL", self.max_pages)
        try:
            moved, foreign = probe.quarantine_foreign(tuple(self.topic(kind) for kind in ("event", "alert")))
            self._depth = probe.depth()
        finally:
            probe.close()
        if moved:
            # one line, once: retrying rows the ACL refuses (another table's topics) would loop forever
            self.counters["quarantined"] = moved
            log.warning("floor outbox %s: %d row(s) for other topics (%s) moved to its quarantine table, not "
                        "sent; this outbox belongs to %s/%s (check table.id or where the file came from)",
                        path, moved, ", ".join(foreign[:4]) + (" ..." if len(foreign) > 4 else ""),
                        self.site, self.table)
        self._set_link("connecting")
        for name, target in (("floor-spool", self._spool_loop), ("floor-publish", self._net_loop)):
            th = threading.Thread(target=target, name=f"{name}-{self.table}", daemon=True)
            th.start()
            self._threads.append(th)
        return self

    def submit(self, update: TableUpdate) -> None:
        """Queue one bus Update; never blocks (the queue is unbounded and the spooler persists it)."""
        self._updates.put(update)
        self.counters["submitted"] += 1

    def health(self) -> dict[str, Any]:
        with self._lock:
            return {"link": self._link, "connected": self._connected, "since": self._since,
                    "outbox_depth": self._depth, "inflight": len(self._inflight), "queued": self._updates.qsize(),
                    "boot": self.boot, "last_error": self.last_error, "outbox_error": self.outbox_error,
                    **self.counters, **self.receipts.counters}

    def stop(self, timeout: float = 5.0, drain: bool = True) -> None:
        """Spool what was submitted, publish what the broker will take within ``timeout`` (``drain``), send
        ``offline`` and disconnect. What is left stays in the outbox for the next start."""
        self._drain, self._drain_timeout = drain, timeout
        self._updates.put(STOP)
        if self._threads:
            self._threads[0].join(timeout + 5)
        self._stop_evt.set()
        self._poke()
        for th in self._threads[1:]:
            th.join(timeout + 5)
        self._threads = []
        self._set_link("stopped")

    def abandon(self) -> None:
        """Stop as if the terminal were killed: no drain, no goodbye; the socket just closes (the broker
        publishes the last will). Rows already in SQLite stay there."""
        self._abandon = True
        self._updates.put(STOP)
        self._stop_evt.set()
        self._poke()
        for th in self._threads:
            th.join(10)
        self._threads = []
        self._set_link("stopped")

    def _poke(self) -> None:
        try:
            self._wake_w.send(b"x")
        except (BlockingIOError, OSError):
            pass  # already awake or closing

    def _set_link(self, state: str, error: str = "") -> None:
        with self._lock:
            changed = state != self._link
            self._link = state
            if changed:
                self._since = self.clock()
            if error:
                self.last_error = error
        if changed:
            log.info("floor link %s/%s: %s%s", self.site, self.table, state, f" ({error})" if error else "")

