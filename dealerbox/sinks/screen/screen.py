"""The dealer's touchscreen: owns the pygame display on the main thread, draws updates, turns taps into
DealerInputs.

Wiring (``dealerbox run``)::

    screen = Screen(config, clock=source_clock)        # size from config.display
    screen.run(bus.subscribe("screen"), submit)         # blocks until QUIT or a None on the queue

``submit`` receives each DealerInput (call it from any thread-safe input queue). Cheap on a Pi: the loop
sleeps on a threading.Event that an update sets (so updates are drawn at once) and wakes ``POLL_S`` apart
to read taps; a frame is drawn only when what it would show changed; a one-second tick ages the
heartbeat while the board is silent. Not ``pygame.event.wait``: pygame implements it by pumping SDL's
events every millisecond (1,000 wake-ups a second, ~1% of a core here, more on a Pi).
"""

from __future__ import annotations

import logging
import os
import queue
import threading
import time
from collections import deque
from collections.abc import Callable, Iterable

import pygame

from ...config import Config
from ...engine import events as te
from ...engine.inputs import DealerInput
from ...engine.state import TableState
from .health import HealthMonitor, HealthView
from .history import RecentEvents
from .canvas import Frame, Target
from .model import UiState, open_findings, sheet_must_close
from .render import Renderer
from .pad import PinPad, dealer_id
from .signin import SignInDesk
from .sheet import SeatSheet, max_amount
from .tournament import mm_ss, time_left

log = logging.getLogger(__name__)

TICK_S = 1.0            # look again once a second while idle: heartbeat age, confirm timeout
POLL_S = 0.04           # taps are read this often: a finger cannot tell 40 ms, a Pi's CPU can tell 1 ms
CONFIRM_TIMEOUT_S = 8.0  # an unanswered "Confirm misdeal?" goes away by itself
SHEET_TIMEOUT_S = 30.0   # a seat sheet left alone goes away: it covers the board


def display_mode(mode: str, environ: dict | None = None) -> str:
    """``fullscreen``, ``window`` or ``headless`` for a configured ``display.mode``.

    ``auto``: a window under X11/Wayland, full screen on a bare console with a DRM device (a Pi in
    kiosk mode, SDL's kmsdrm driver), headless otherwise.
    """
    env = os.environ if environ is None else environ
    if mode != "auto":
        return mode
    if env.get("SDL_VIDEODRIVER") == "dummy":
        return "headless"
    if env.get("DISPLAY") or env.get("WAYLAND_DISPLAY"):
        return "window"
    if any(os.path.exists(f"/dev/dri/card{i}") for i in range(4)):
        return "fullscreen"
    return "headless"


def open_display(mode: str, size: tuple[int, int]) -> pygame.Surface:
    """Open the window or the full screen. Full screen on a console uses kmsdrm (no desktop needed)."""
    if mode == "fullscreen" and not (os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")):
        os.environ.setdefault("SDL_VIDEODRIVER", "kmsdrm")
    pygame.display.init()
    pygame.display.set_caption("dealerbox")
    if mode == "fullscreen":
        surface = pygame.display.set_mode((0, 0), pygame.FULLSCREEN)  # the panel's native size
        pygame.mouse.set_visible(False)  # a touchscreen: no arrow left where the last finger was
    else:
        surface = pygame.display.set_mode(size)
    return surface


class Screen:
    """The screen sink. ``render`` and ``handle_mouse`` work without a display (offscreen Surface)."""

    def __init__(self, config: Config, size: tuple[int, int] | None = None,
                 clock: Callable[[], float] = time.monotonic, fullscreen: bool | None = None) -> None:
        self.config = config
        # Who decides the mode: the caller (``dealerbox run`` chose it), else the config's display.mode.
        self.mode = {True: "fullscreen", False: "window", None: None}[fullscreen]
        self.clock = clock
        self.renderer = Renderer(size or (config.display.width, config.display.height))
        self.desk = SignInDesk(config, clock)
        self.ui = UiState(sign_in=self.desk.enabled)
        self.monitor = HealthMonitor()
        self.frame: Frame | None = None
        self.state = TableState()
        self.health: dict = {}
        self.health_at = clock()
        self.events = RecentEvents()
        self._pressed: str | None = None
        self._confirm_at = 0.0
        self._shown: tuple | None = None   # what the last drawn frame showed, to skip identical redraws
        self._clock_seen = clock()

    @property
    def size(self) -> tuple[int, int]:
        return self.renderer.size

    # --- the contract --------------------------------------------------------------------------------

    def render(self, state: TableState, health: dict, recent_events: Iterable[te.TableEvent] = ()) -> pygame.Surface:
        """Draw one frame offscreen and return it; ``self.frame`` keeps what was drawn and the targets."""
        view = self.monitor.judge(health, self.clock())
        return self._draw(state, view, list(recent_events))

    def handle_mouse(self, event: pygame.event.Event) -> DealerInput | None:
        """A tap (press and release on the same target) on the last frame drawn.

        Mouse events only: SDL turns touches into mouse events too, so handling FINGER* as well would fire
        every tap twice. UI-only taps (history, confirm, cancel) change the screen and return None.
        """
        if self.frame is None or getattr(event, "button", 1) != 1:
            return None
        if event.type == pygame.MOUSEBUTTONDOWN:
            target = self._target_at(event.pos)
            self._pressed = target.key if target else None
            return None
        if event.type != pygame.MOUSEBUTTONUP:
            return None
        target = self._target_at(event.pos)
        pressed, self._pressed = self._pressed, None
        if target is None or target.key != pressed:
            return None  # a slide off the key cancels, as on a phone
        return self._activate(target)

    def accept(self, update) -> None:
        """Take one ``runtime.bus.Update`` (events, state, health)."""
        self.events.extend(update.events)
        if update.state.tournament != self.state.tournament:
            self._clock_seen = self.clock()   # a tournament clock counts down from when its view arrived
        self.state = update.state
        self.health = dict(update.health or {})
        self.health_at = self.clock()

    def redraw_if_changed(self) -> bool:
        """Draw a frame from the latest update if it would look different from the last one."""
        now = self.clock()
        if self.ui.confirm and now - self._confirm_at > CONFIRM_TIMEOUT_S:
            self.ui.confirm = None
        if self.ui.sheet and now - self.ui.sheet.opened_at > SHEET_TIMEOUT_S:
            self.ui.sheet = None
        view = self.monitor.judge(self.health, now, extra_age=now - self.health_at)
        last = self.events[-1] if self.events else None
        shown = (self.state, view, len(self.events), id(last), self.ui.history, self.ui.history_page, self.ui.confirm,
                 self.ui.sheet, self._clock_shown(now))
        if self.frame is not None and self._shown is not None and _same(shown, self._shown):
            return False
        self._shown = shown
        self._draw(self.state, view, list(self.events))
        return True

    def run(self, updates: queue.Queue, submit: Callable[[DealerInput], None],
            stop: threading.Event | Callable[[], bool] | None = None, mode: str | None = None) -> None:
        """The main-thread loop. Ends on window close, Esc (window only), a None on ``updates``, or ``stop``
        (an Event or a callable, checked every ``POLL_S``)."""
        mode = mode or self.mode or display_mode(self.config.display.mode)
        if mode == "headless":
            mode = "window"  # the caller asked for a screen: SDL's own driver choice decides (dummy in tests)
        stopped: Callable[[], bool] = (stop.is_set if isinstance(stop, threading.Event) else stop) or (lambda: False)
        display = open_display(mode, self.size)
        # Drawn straight into the display (no full-frame copy), its pieces made in the display's format.
        self.renderer = Renderer(display.get_size(), target=display)
        self.frame = None
        # Motion and finger events would wake the loop for nothing; taps arrive as button events.
        pygame.event.set_blocked([pygame.MOUSEMOTION, pygame.FINGERMOTION, pygame.FINGERDOWN, pygame.FINGERUP,
                                  pygame.MOUSEWHEEL])
        pending: deque = deque()
        woke = threading.Event()
        done = threading.Event()

        def feed() -> None:
            while not done.is_set():
                item = updates.get()
                pending.append(item)
                woke.set()  # one wake-up per burst: the loop drains everything pending
                if item is None:
                    return

        threading.Thread(target=feed, name="screen-feed", daemon=True).start()
        try:
            running = True
            tick_at = 0.0
            while running and not stopped():
                woke.wait(POLL_S)
                woke.clear()
                busy = False
                for event in pygame.event.get():
                    if event.type == pygame.QUIT or (event.type == pygame.KEYDOWN and event.key == pygame.K_ESCAPE
                                                     and mode == "window"):
                        running = False
                    elif event.type in (pygame.MOUSEBUTTONDOWN, pygame.MOUSEBUTTONUP):
                        busy = True
                        dealer_input = self.handle_mouse(event)
                        if dealer_input is not None:
                            submit(dealer_input)
                while pending:
                    busy = True
                    item = pending.popleft()
                    if item is None:
                        running = False
                        break
                    self.accept(item)
                now = time.monotonic()
                # Between updates and taps only the clock can change the picture: look once a second.
                if not busy and now < tick_at:
                    continue
                tick_at = now + TICK_S
                if running and self.redraw_if_changed():
                    if self.frame is not None and self.frame.surface is not display:  # drawn just now
                        display.blit(self.frame.surface, (0, 0))
                    pygame.display.flip()
        finally:
            done.set()
            pygame.display.quit()

    # --- inside --------------------------------------------------------------------------------------

    def _draw(self, state: TableState, view: HealthView, events: list[te.TableEvent]) -> pygame.Surface:
        findings = open_findings(state, events)
        if self.ui.sheet is not None and sheet_must_close(self.ui.sheet, state, findings[0] if findings else None,
                                                          self.ui.history):
            self.ui.sheet = None
        self.frame = self.renderer.render(state, view, events, self.ui, self._source_now(state))
        if self.ui.history:  # the history may have fewer pages than when the dealer turned the last one
            self.ui.history_pages = self.frame.history_pages
            self.ui.history_page = min(self.ui.history_page, self.frame.history_pages - 1)
        return self.frame.surface

    def _source_now(self, state: TableState) -> float:
        # the clock view's 'at' is source time: count on from it by the wall time since the view arrived
        tv = state.tournament
        return tv.at + max(0.0, self.clock() - self._clock_seen) if tv is not None else 0.0

    def _clock_shown(self, now: float) -> str:
        # a tournament clock counts down on its own: a new second is a new picture
        tv = self.state.tournament
        return mm_ss(time_left(tv, self._source_now(self.state))) if tv is not None else ""

    def _target_at(self, pos: tuple[int, int]) -> Target | None:
        if self.frame is None:  # nothing drawn yet: nothing to hit (the callers check this too)
            return None
        # Last drawn wins: banner keys are drawn over the table.
        for target in reversed(self.frame.targets):
            if target.rect.collidepoint(pos):
                return target
        return None

    def _activate(self, target: Target) -> DealerInput | None:
        self._shown = None  # the screen itself changed: draw next time round
        if target.key.startswith("sheet:") and target.ui:
            self._sheet_key(target.ui)
            return None
        if target.ui and target.ui.startswith("pin:"):
            return self._pin_key(target.ui)
        # Any other key closes the seat sheet and the sign-in pad: the dealer has moved on.
        self.ui.sheet, self.ui.pad = None, None
        if target.ui:
            if target.ui.startswith("confirm:"):
                self.ui.confirm = target.ui.split(":", 1)[1]
                self._confirm_at = self.clock()
            elif target.ui == "cancel":
                self.ui.confirm = None
            elif target.ui == "history":
                self.ui.history = not self.ui.history
                self.ui.history_page = 0
            elif target.ui == "older":
                self.ui.history_page += 1
            elif target.ui == "newer":
                self.ui.history_page = max(0, self.ui.history_page - 1)
            elif target.ui == "seat" and target.seat is not None:
                self.open_sheet(target.seat, target.ref == "taken")
            elif target.ui == "moved-in" and target.seat is not None:   # the floor's arrival: count the chips
                self.open_sheet(target.seat, False, "moved-in")
            return None
        self.ui.confirm = None
        if target.action is None:  # every key drawn has a ui or an action: a bare one does nothing
            return None
        return DealerInput(self.clock(), target.action, seat=target.seat, ref=target.ref, seats=target.seats,
                           amount=target.amount, choice=target.choice)

    def open_sheet(self, seat: int, occupied: bool, mode: str | None = None) -> None:
        """Open the seat sheet as a tap on the seat box does; ``mode`` ("rebuy", "leave") goes one step on.
        The finding bannered now is remembered: only a newer one needing the dealer closes the sheet."""
        game, now = self.config.game, self.clock()
        banner = self.frame.banner.id if self.frame and self.frame.banner else None
        self.ui.confirm = None
        self.ui.sheet = SeatSheet.open(seat, occupied, game.buy_in, max_amount(game.buy_in, game.big_blind),
                                       banner, now)
        if mode and mode != self.ui.sheet.mode:
            self.ui.sheet = self.ui.sheet.to(mode, now)
        self._shown = None

    def _pin_key(self, ui: str) -> DealerInput | None:
        """A key of the sign-in pad; its OK on the PIN step hands the PIN to the desk and returns the sign-in
        (by the dealer's id only) or shows why not. The typed PIN goes when the pad does."""
        pad = self.ui.pad or PinPad()
        if ui == "pin:open":
            self.ui.sheet, self.ui.confirm, self.ui.pad = None, None, PinPad()
        elif ui == "pin:cancel":
            self.ui.pad = None
        elif ui.startswith("pin:digit:"):
            self.ui.pad = pad.digit(ui.rsplit(":", 1)[1])
        elif ui in ("pin:back", "pin:clear"):
            self.ui.pad = pad.backspace() if ui == "pin:back" else pad.clear()
        elif ui == "pin:ok" and pad.step == "dealer":
            self.ui.pad = pad.next()
        elif ui == "pin:ok":
            tap = self.desk.pin(dealer_id(pad.dealer, self.desk.dealers), pad.pin)
            self.ui.pad = None if tap is not None else pad.refused(self.desk.said)
            return tap
        return None

    def _sheet_key(self, ui: str) -> None:
        """A key on the seat sheet that only changes the sheet (digits, modes, cancel)."""
        sheet, now = self.ui.sheet, self.clock()
        if sheet is None:
            return
        if ui.startswith("sheet:digit:"):
            self.ui.sheet = sheet.digit(ui.rsplit(":", 1)[1], now)
        elif ui == "sheet:back":
            self.ui.sheet = sheet.backspace(now)
        elif ui == "sheet:clear":
            self.ui.sheet = sheet.clear(now)
        elif ui in ("sheet:rebuy", "sheet:leave"):
            self.ui.sheet = sheet.to(ui.split(":", 1)[1], now)
        elif ui == "sheet:cancel":
            self.ui.sheet = None


def _same(a: tuple, b: tuple) -> bool:
    try:
        return a == b
    except Exception:
        return False
