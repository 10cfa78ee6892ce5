"""The dealer's panel on GPIO: three buttons and a tower light with a buzzer (gpiozero).

Buttons: *call floor* acts on a press; *misdeal* and *new hand* act on a one-second hold, because a bumped
button must not end a hand. The light tells the table's situation at a glance:

- green: play goes on;
- amber: the dealer must act (a dealer-severity finding is open, a showdown waits for the award, or the
  engine asks the dealer a question and the hand waits for the answer);
- red: the floor is needed (a floor finding is open, or the floor was called); the buzzer sounds once
  for each new floor finding.

Wiring (``dealerbox run``)::

    panel = Panel.create(config.panel, submit)          # None off a Pi: one log line, nothing else
    if panel:
        threading.Thread(target=panel.run, args=(bus.subscribe("panel"),), daemon=True).start()
"""

from __future__ import annotations

import logging
import queue
import time
import warnings
from collections.abc import Callable, Iterable

from gpiozero import LED, Button, Buzzer

from ..config import PanelConfig
from ..engine import events as te
from ..engine.inputs import DealerInput
from ..engine.state import TableState

log = logging.getLogger(__name__)

LIGHTS = ("green", "amber", "red")
HOLD_S = 1.0


def light_for(state: TableState, floor_called: bool = False) -> str:
    """Which lamp of the tower is lit for this table state."""
    open_findings = [f for f in state.findings if not f.acknowledged]
    if floor_called or any(f.severity == "floor" for f in open_findings):
        return "red"
    pushing = state.phase in ("showdown", "misaward") and state.winners
    if any(f.severity == "dealer" for f in open_findings) or pushing \
            or state.question is not None:  # the hand waits for the dealer's answer
        return "amber"
    return "green"


def load_pin_factory(name: str):
    """A gpiozero pin factory by its entry-point name (``lgpio``, ``mock``, ...); empty: gpiozero's default."""
    from gpiozero import Device
    if not name:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # one log line from create(), not gpiozero's fallback chatter
            return Device._default_pin_factory()
    from importlib.metadata import entry_points
    for ep in entry_points(group="gpiozero_pin_factories"):
        if ep.name.lower() == name.lower():
            return ep.load()()
    raise ValueError(f"panel.pin_factory: no gpiozero pin factory named {name!r}")


class Panel:
    def __init__(self, config: PanelConfig, pin_factory, submit: Callable[[DealerInput], None],
                 clock: Callable[[], float] = time.monotonic, hold_s: float = HOLD_S) -> None:
        self.config = config
        self.submit = submit
        self.clock = clock
        self.floor_called = False
        self._buzzed: set[str] = set()
        f = pin_factory
        self.buttons = {
            "call-floor": Button(config.button_call_floor, pin_factory=f),
            "misdeal": Button(config.button_misdeal, pin_factory=f, hold_time=hold_s),
            "new-hand": Button(config.button_new_hand, pin_factory=f, hold_time=hold_s),
        }
        self.lights = {
            "green": LED(config.light_green, pin_factory=f),
            "amber": LED(config.light_amber, pin_factory=f),
            "red": LED(config.light_red, pin_factory=f),
        }
        self.buzzer = Buzzer(config.buzzer, pin_factory=f)
        self.buttons["call-floor"].when_pressed = lambda: self._press("call-floor")
        self.buttons["misdeal"].when_held = lambda: self._press("misdeal")
        self.buttons["new-hand"].when_held = lambda: self._press("new-hand")
        self.lit = ""
        self.set_light("green")

    @classmethod
    def create(cls, config: PanelConfig, submit: Callable[[DealerInput], None], pin_factory=None,
               **kwargs) -> Panel | None:
        """The panel, or None (with one log line) when it is off or there is no GPIO here."""
        if not config.enabled:
            log.info("panel: disabled in the config (panel.enabled = false)")
            return None
        try:
            factory = pin_factory if pin_factory is not None else load_pin_factory(config.pin_factory)
            return cls(config, factory, submit, **kwargs)
        except Exception as e:
            log.warning("panel: no GPIO here (%s: %s); running without buttons and tower light",
                        type(e).__name__, e)
            return None

    def _press(self, action: str) -> None:
        self.submit(DealerInput(self.clock(), action))

    def set_light(self, colour: str) -> None:
        for name, led in self.lights.items():
            led.value = name == colour
        self.lit = colour

    def show(self, state: TableState, events: Iterable[te.TableEvent] = ()) -> str:
        """Set the tower light for ``state``; ``events`` tell floor calls and new floor findings."""
        for e in events:
            if isinstance(e, te.FloorCalled):
                self.floor_called = True
            elif isinstance(e, te.FindingAcknowledged | te.HandStarted):
                self.floor_called = False  # the floor came, or play moved on
            elif isinstance(e, te.FindingRaised) and e.severity == "floor" and e.id not in self._buzzed:
                self._buzzed.add(e.id)
                self.buzzer.beep(on_time=0.2, off_time=0.15, n=3, background=True)
        colour = light_for(state, self.floor_called)
        if colour != self.lit:
            self.set_light(colour)
        return colour

    def accept(self, update) -> str:
        """Take one ``runtime.bus.Update``."""
        return self.show(update.state, update.events)

    def run(self, updates: queue.Queue) -> None:
        """Follow a bus queue until a None arrives (run it in a thread)."""
        while (update := updates.get()) is not None:
            self.accept(update)

    def close(self) -> None:
        for device in (*self.buttons.values(), *self.lights.values(), self.buzzer):
            device.close()
