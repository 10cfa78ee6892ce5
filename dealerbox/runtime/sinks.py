"""The one contract every sink keeps, and the notifier that feeds them (python-can's ``Listener`` and
``Notifier`` are the model): a new sink (a dashboard feed, a tournament clock) is one class.

A :class:`Sink` accepts the terminal's :class:`~dealerbox.runtime.bus.Update` s and may submit dealer or
floor inputs back through the ``submit`` it is given at start. The :class:`Notifier` calls a quick,
thread-safe sink (the floor link only enqueues) on the core thread, in order and losslessly, and gives a
sink that may be slow (GPIO) its own thread and a latest-wins queue, so it never holds the engine back.
The display is the one exception by necessity: pygame must run on the main thread, so the screen (or the
headless console) takes its own queue from :meth:`EventBus.subscribe` and drives itself.

The recorder is not a sink of updates but of records (every byte, even those that make no event): it keeps
the smaller :class:`RecordSink` contract and is called before the pipeline sees a record.
"""

from __future__ import annotations

import logging
import os
import queue
import threading
from collections.abc import Callable
from typing import TYPE_CHECKING, Protocol

from ..engine.events import BadgeShown
from ..engine.inputs import DealerInput
from ..record.logformat import Record
from .bus import EventBus, Update

if TYPE_CHECKING:  # the adapters take the objects as they are; importing them here would load paho, gpiozero
    from ..sinks.floor.link import FloorCommand, FloorLink
    from ..sinks.panel import Panel
    from ..sinks.screen.signin import SignInDesk

log = logging.getLogger("dealerbox")

Submit = Callable[[DealerInput], None]
Health = dict[str, object]


class Sink(Protocol):
    """What the terminal needs of a sink. ``queued``: give it a thread (it may block); else it is called
    on the core thread and must only hand the update on."""

    name: str
    queued: bool

    def start(self, submit: Submit) -> None:
        """Begin; ``submit`` takes dealer inputs back to the engine (thread-safe)."""

    def accept(self, update: Update) -> None:
        """Take one update: the events of one engine step and the table after them."""

    def health(self) -> Health | None:
        """What the health strip and the floor's state topic show of this sink, or None."""

    def stop(self) -> None:
        """Finish: persist, say goodbye, release what the sink owns."""


class RecordSink(Protocol):
    """The recorder's contract: every record, before the pipeline decodes it; a signed head at each hand's end."""

    @property
    def hands_before(self) -> int: ...   # hands this table played before this log: numbering continues from there

    def write(self, entry: Record) -> None: ...

    def seal(self, t: float | None = None, hand: int | None = None) -> None: ...

    def sign_if_idle(self) -> bool: ...   # sign the head when records waited unsigned too long (record.sign_idle_s)

    def health(self) -> dict[str, object]: ...

    def close(self) -> None: ...

    @property
    def current_path(self) -> os.PathLike[str]: ...   # the log being written: upkeep never prunes it


class Notifier:
    """Hands every update to every attached sink; see the module docstring for which thread calls which."""

    def __init__(self, bus: EventBus) -> None:
        self.bus = bus
        self.sinks: list[Sink] = []
        self._inline: list[Sink] = []
        self._followers: list[tuple[queue.Queue, threading.Thread]] = []

    def attach(self, sink: Sink) -> None:
        """Add a sink; call before :meth:`start`."""
        self.sinks.append(sink)

    def start(self, submit: Submit) -> None:
        for sink in self.sinks:
            sink.start(submit)
            if not sink.queued:
                self._inline.append(sink)
                continue
            updates = self.bus.subscribe(sink.name)
            th = threading.Thread(target=_follow, args=(sink, updates), name=f"dealerbox-{sink.name}", daemon=True)
            th.start()
            self._followers.append((updates, th))

    def publish(self, update: Update) -> None:
        """From the core thread: queued sinks through the bus, the others at once."""
        self.bus.publish(update)
        for sink in self._inline:
            sink.accept(update)

    def health(self) -> dict[str, Health]:
        return {sink.name: h for sink in self.sinks if (h := sink.health()) is not None}

    def stop(self) -> None:
        for updates, th in self._followers:
            self.bus.offer(updates, None)  # the follower's cue to end, after what it already holds
            th.join(timeout=5)
        self._followers = []
        for sink in self.sinks:
            sink.stop()


def _follow(sink: Sink, updates: queue.Queue) -> None:
    while (update := updates.get()) is not None:
        sink.accept(update)


class FloorSink:
    """The floor link as a sink: updates go to its outbox spooler, accepted floor commands come straight
    back to the terminal as dealer inputs (no queue in between, no poll)."""

    name = "floor"
    queued = False  # FloorLink.submit only enqueues: called on the core thread, in order, nothing dropped

    def __init__(self, link: FloorLink) -> None:
        self.link = link

    def start(self, submit: Submit) -> None:
        def hand_over(command: FloorCommand) -> None:
            # re-stamped on the source's clock by the core thread, so the 0.0 here never reaches the engine
            tap = command.as_input(0.0)
            if tap is not None:
                submit(tap)
        self.link.on_command = hand_over
        self.link.on_floor_input = submit   # a tournament table's instructions and clock: logged inputs
        self.link.start()

    def accept(self, update: Update) -> None:
        self.link.submit(update)

    def health(self) -> Health:
        return self.link.health()

    def stop(self) -> None:
        self.link.stop()


class BadgeSink:
    """A dealer's badge held over a zone (the engine's BadgeShown) signs that dealer in: ``audit.badges`` says
    whose it is. On the core thread: a dict lookup and a submit, nothing that blocks."""

    name = "badge"
    queued = False

    def __init__(self, desk: SignInDesk) -> None:
        self.desk = desk
        self._submit: Submit | None = None

    def start(self, submit: Submit) -> None:
        self._submit = submit

    def accept(self, update: Update) -> None:
        for event in update.events:
            # a replay of a sealed log without the floor's key has the uid masked: nobody to sign in
            if isinstance(event, BadgeShown) and event.uid is not None and self._submit is not None:
                tap = self.desk.badge(event.uid)
                if tap is not None:
                    self._submit(tap)

    def health(self) -> Health:
        return dict(self.desk.counters)

    def stop(self) -> None:
        """Nothing to release: the desk holds no resource."""


class PanelSink:
    """The button panel and tower light: GPIO writes may be slow, so it follows on its own thread. Its
    buttons submit through the ``submit`` the panel was built with."""

    name = "panel"
    queued = True

    def __init__(self, panel: Panel) -> None:
        self.panel = panel

    def start(self, submit: Submit) -> None:
        self.panel.submit = submit

    def accept(self, update: Update) -> None:
        self.panel.accept(update)  # events too: a floor call turns the light red at once

    def health(self) -> None:
        return None

    def stop(self) -> None:
        """The panel's pins stay as they are: the light keeps showing the last state until the process ends."""
