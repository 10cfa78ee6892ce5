"""FloorLink: the floor link's one public object. Takes :class:`runtime.bus.Update` objects from the engine
side (``submit`` never blocks), spools every event and alert to the durable outbox, and publishes them to
``dealerbox/<site>/<table>/...`` over MQTT 5 with paho-mqtt 2.x (VERSION2 callbacks).

The link is wired here from parts that each own their state and are handed their collaborators:

- :class:`.parts.LinkIdentity` (who the table is) and the facts more than one part reads, each owned by one
  part that is told what happened: :class:`.parts.LinkCounters` (counters and refusals), :class:`.parts.LinkState`
  (the link's state and errors, the publisher's session), :class:`.parts.OutboxDepth`, :class:`.parts.LatestState`
  (the latest table state for the floor) and :class:`.parts.LinkControl` (stopping, the publisher's wake-up);
- :class:`.spooler.Spooler` (its own thread) turns updates into payloads and writes them to SQLite (alerts
  go to the publisher once written, while their commit syncs; everything else once committed);
- :class:`.session.Session` (the publisher thread) owns the paho client: connect, birth, drain, state,
  acknowledgements, goodbye; :class:`.drain.Drain` is how it sends outbox rows (signed heads among them,
  whose window :class:`.anchors.AnchorBooks` keeps), :class:`.holecards.HoleCards` the restricted hole-card topic;
- :class:`.inbox.FloorInbox` routes what arrives to :class:`.commands.CommandDesk` (``.../cmd``) and
  :class:`.tournament_desk.TournamentDesk` (a tournament table's instructions and clock);
- :mod:`.security` sets credentials, TLS and the publish properties on each new client.
"""

from __future__ import annotations

import logging
import queue
import threading
import time
import uuid
from collections import deque
from pathlib import Path
from typing import Any
from collections.abc import Callable

from ...config import Config
from . import contract as c
from ...engine.inputs import DealerInput
from .anchors import AnchorBooks
from .commands import CommandDesk, FloorCommand
from .drain import Drain
from .holecards import HoleCards
from .inbox import FloorInbox
from .outbox import RECEIPT_WAIT_S, Outbox, OutboxError
from .receipts import Receipts
from .parts import LatestState, LinkControl, LinkCounters, LinkIdentity, LinkState, OutboxDepth, TableUpdate
from .security import configure_security, publish_properties, read_password
from .session import Session
from .spooler import STOP, Spooler
from .tournament_desk import TournamentDesk
from .updates import UpdateQueue

from ...upkeep.bounded import KnownFindings

KNOWN_FINDINGS = 5000
log = logging.getLogger("dealerbox.floor")

__all__ = ["FloorCommand", "FloorLink", "OutboxError", "configure_security", "publish_properties",
           "read_password"]


class FloorLink:
    """``FloorLink(config).start()``; ``submit(update)`` from the engine side; ``health()`` for the screen;
    each accepted :class:`FloorCommand` goes to ``on_command`` (set it before ``start()``; by default the
    ``commands`` queue); a tournament table's instructions and clock go to ``on_floor_input``
    (:mod:`.tournament_desk`); ``stop()`` drains and says goodbye."""

    def __init__(self, config: Config, boot_id: str | None = None, clock: Callable[[], float] = time.time, *,
                 reconnect_min: float = 0.5, reconnect_max: float = 30.0, window: int = 20,
                 max_pages: int | None = None, review: bool = False, outbox: str | None = None,
                 receipt_wait: float = RECEIPT_WAIT_S) -> None:
        site = c.check_name("table.site", config.table.site)
        table = c.check_name("table.id", config.table.id)
        boot = c.check_name("boot id", boot_id or uuid.uuid4().hex)
        # A review replay (``run --replay LOG --review-floor``) is never mistaken for the live table: its own
        # topics (review/dealerbox/...), replayed: true on every payload, nothing retained, no commands, no hole
        # cards, and its own outbox beside the live one so no live row is ever sent under review or vice versa.
        live = Path(outbox or config.floor.outbox)   # ``outbox``: a simulated table's own file (run --source simulator)
        path = str(live.with_name(f"{live.stem}-review{live.suffix}") if review else live)
        self.ident = ident = LinkIdentity(config, site, table, boot, review, path,
                                          c.Envelope(site, table, boot, replayed=review), clock)
        self.state = state = LinkState(site, table, clock)
        self.counts = counts = LinkCounters()
        self.depth = depth = OutboxDepth()
        self.latest = latest = LatestState()
        self.control = control = LinkControl()
        self.max_pages = max_pages
        self.updates = UpdateQueue()      # bounded in updates, losing no event (updates.py)
        self._threads: list[threading.Thread] = []
        # findings the floor may acknowledge: open floor calls until acknowledged (the state lists only the newest),
        # others while the state lists them or they are recent (issue 19)
        known = KnownFindings(KNOWN_FINDINGS)
        self.desk = CommandDesk(ident, counts, latest, known)
        self.tournament = TournamentDesk(ident, counts, config.is_tournament)
        # the floor's word that it filed an alert (a review's alerts go nowhere that files them: PUBACK is enough)
        self.receipts = Receipts(site, table, 0.0 if review else receipt_wait)
        self.inbox = FloorInbox(ident, counts, self.desk, self.tournament, self.receipts)
        self.anchors = AnchorBooks(float(config.record.anchor_alert_min))
        self.drain = Drain(ident, state, counts, self.anchors, self.receipts)
        self.holecards = HoleCards(ident, counts)
        self.spooler = Spooler(ident, state, counts, depth, latest, control, self.updates, self.drain, self.anchors,
                               self.holecards, known, max_pages)
        self.session = Session(ident, state, counts, depth, latest, control, self.drain, self.holecards, self.inbox,
                               self.health, window=window, reconnect_min=reconnect_min, reconnect_max=reconnect_max)

    # --- what the runtime, the tools and the tests read ----------------------------------------------

    @property
    def site(self) -> str:
        return self.ident.site

    @property
    def table(self) -> str:
        return self.ident.table

    @property
    def boot(self) -> str:
        return self.ident.boot

    @property
    def review(self) -> bool:
        return self.ident.review

    @property
    def counters(self) -> dict[str, int]:
        return self.counts.counters

    @property
    def refusals(self) -> deque[str]:
        return self.counts.refusals

    @property
    def commands(self) -> queue.Queue[FloorCommand]:
        return self.desk.commands

    @property
    def floor_inputs(self) -> queue.Queue[DealerInput]:
        return self.tournament.floor_inputs

    @property
    def anchor_acked(self) -> dict[str, Any] | None:
        """The latest signed head the broker acknowledged (the recorder's retention reads it)."""
        return self.anchors.acked

    @property
    def on_command(self) -> Callable[[FloorCommand], None]:
        return self.desk.on_command

    @on_command.setter
    def on_command(self, handler: Callable[[FloorCommand], None]) -> None:
        self.desk.send_to(handler)

    @property
    def on_floor_input(self) -> Callable[[DealerInput], None]:
        return self.tournament.on_floor_input

    @on_floor_input.setter
    def on_floor_input(self, handler: Callable[[DealerInput], None]) -> None:
        self.tournament.send_to(handler)

    def topic(self, kind: str) -> str:
        """This table's topic of ``kind``: the live one, or its review copy."""
        return self.ident.topic(kind)

    def follow_tournament(self, tournament_id: str) -> None:
        """Follow ``tournament_id``'s clock and this table's instructions (call before ``start()``)."""
        self.tournament.follow_tournament(tournament_id)

    def tournament_topics(self) -> tuple[str, ...]:
        return self.tournament.tournament_topics()

    def handle_command(self, topic: str, raw: bytes) -> FloorCommand | None:
        """Check one message from the command topic, as if it had arrived (the tests' way in)."""
        return self.desk.handle_command(topic, raw)

    def handle_tournament(self, topic: str, raw: bytes) -> DealerInput | None:
        return self.tournament.handle_tournament(topic, raw)

    # --- the engine side ----------------------------------------------------------------------------

    def start(self) -> FloorLink:
        """Open the outbox (raises OutboxError with the file name if it cannot) and start both threads."""
        path = Path(self.ident.outbox_path)
        # each thread opens its own connection; opening here first surfaces a bad path before any thread runs
        probe = Outbox(path, "FULL", self.max_pages)
        try:
            kinds = ("event", "alert", "anchor")
            moved, foreign = probe.quarantine_foreign(tuple(self.topic(kind) for kind in kinds))
            self.depth.found(probe.depth())
            self.anchors.load(probe)
        finally:
            probe.close()
        if moved:
            # one line, once: retrying rows the ACL refuses (another table's topics) would loop forever
            self.counts.set("quarantined", moved)
            log.warning("floor outbox %s: %d row(s) for other topics (%s) moved to its quarantine table, not "
                        "sent; this outbox belongs to %s/%s (check table.id or where the file came from)",
                        path, moved, ", ".join(foreign[:4]) + (" ..." if len(foreign) > 4 else ""),
                        self.site, self.table)
        self.state.set_link("connecting")
        for name, target in (("floor-spool", self.spooler.run), ("floor-publish", self.session.run)):
            th = threading.Thread(target=target, name=f"{name}-{self.table}", daemon=True)
            th.start()
            self._threads.append(th)
        return self

    def submit_anchor(self, anchor: dict[str, Any]) -> None:
        """One signed head from the recorder (``Recorder.on_anchor``): spooled to the outbox like an event."""
        if not self.ident.review:
            self.updates.put(dict(anchor))

    def submit(self, update: TableUpdate) -> None:
        """Queue one bus Update; never blocks (past UPDATES_MAX queued, it is merged into the newest, its events
        kept: updates.py), and the spooler persists it."""
        self.updates.put(update)
        self.counts.add("submitted")

    def health(self) -> dict[str, Any]:
        anchors = self.anchors.health(self.ident.clock())
        s = self.state
        with s.lock:
            return {**anchors, "link": s.link, "connected": s.connected, "since": s.since,
                    "outbox_depth": self.depth.rows, "inflight": len(self.drain.inflight),
                    "queued": self.updates.qsize(), "updates_merged": self.updates.merged,
                    "boot": self.boot, "last_error": s.last_error,
                    "outbox_error": s.outbox_error, **self.counts.counters, **self.receipts.counters}

    def stop(self, timeout: float = 5.0, drain: bool = True) -> None:
        """Spool what was submitted, publish what the broker will take within ``timeout`` (``drain``), send
        ``offline`` and disconnect. What is left stays in the outbox for the next start."""
        self.control.plan_stop(drain, timeout)
        self.updates.put(STOP)
        if self._threads:
            self._threads[0].join(timeout + 5)
        self.control.stop()
        for th in self._threads[1:]:
            th.join(timeout + 5)
        self._threads = []
        self.state.set_link("stopped")

    def abandon(self) -> None:
        """Stop as if the terminal were killed: no drain, no goodbye; the socket just closes (the broker
        publishes the last will). Rows already in SQLite stay there."""
        self.control.abandon()
        self.updates.put(STOP)
        self.control.stop()
        for th in self._threads:
            th.join(10)
        self._threads = []
        self.state.set_link("stopped")
