"""Draws one frame of the dealer's screen from a TableState, a health view and recent table events.

The renderer decides nothing about poker: it shows what the snapshot says. Each frame also returns what it
drew (``Drawn``: kind, text, rectangle) and where the touch targets are (``Target``), so tests and the
mouse handler work from the same facts the pixels came from.

Layout, top to bottom: a bar (hand, phase, game; health corner), a health alert strip when something is
wrong, the findings banner when one is open, the table (oval, seats clockwise from the dealer's left,
board, pot), and a row of action keys.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass, field, replace
from typing import Iterable

import pygame

from ...engine import events as te
from ...engine.state import FindingView, SeatView, TableState
from . import cards, theme
from .cache import LRU
from .health import HealthView
from .history import hand_records, pot_name
from .sheet import KEYPAD_MODES, SeatSheet

BASE = (800, 480)
PHASE_NAMES = {"idle": "Waiting", "deal": "Dealing", "preflop": "Pre-flop", "flop": "Flop", "turn": "Turn",
               "river": "River", "showdown": "Showdown", "ended": "Hand over"}
IN_HAND_PHASES = ("deal", "preflop", "flop", "turn", "river", "showdown")
BETTING_PHASES = ("preflop", "flop", "turn", "river")
# Transparent pixels of pre-drawn pieces (rounded corners, hollow slots); no theme colour is this.
COLORKEY = (255, 0, 254)


@dataclass(frozen=True, slots=True)
class Drawn:
    """One thing the renderer put on screen: ``kind`` says what it is, ``ref`` what it belongs to."""
    kind: str
    text: str
    rect: pygame.Rect
    ref: object = None


@dataclass(frozen=True, slots=True)
class Target:
    """A touch target. ``action`` makes a DealerInput; ``ui`` only changes the screen (history, confirm)."""
    key: str                         # stable across frames: a press and its release must hit the same key
    label: str
    rect: pygame.Rect
    action: str | None = None
    seat: int | None = None
    ref: str | None = None
    seats: tuple[int, ...] = ()
    ui: str | None = None
    amount: int | None = None        # a buy-in or rebuy typed on the seat sheet


@dataclass(slots=True)
class UiState:
    """What the screen itself remembers between frames (not table state)."""
    history: bool = False
    history_page: int = 0
    confirm: str | None = None       # "misdeal" or "new-hand" while waiting for the second tap
    history_pages: int = 1
    sheet: SeatSheet | None = None   # the seat sheet, while one is open


@dataclass(slots=True)
class Frame:
    surface: pygame.Surface
    drawn: list[Drawn] = field(default_factory=list)
    targets: list[Target] = field(default_factory=list)
    banner: FindingView | None = None

    def texts(self, kind: str) -> list[str]:
        return [d.text for d in self.drawn if d.kind == kind]

    def find(self, kind: str, ref: object = None) -> list[Drawn]:
        return [d for d in self.drawn if d.kind == kind and (ref is None or d.ref == ref)]

    def target(self, key: str) -> Target | None:
        return next((t for t in self.targets if t.key == key), None)


def open_findings(state: TableState, events: Iterable[te.TableEvent] = ()) -> list[FindingView]:
    """Unacknowledged findings, most serious then newest first.

    Floor findings seen in events stay here until a FindingAcknowledged names them, even if a snapshot
    no longer lists them: the floor must see them.
    """
    found: dict[str, FindingView] = {}
    acked: set[str] = set()
    order: dict[str, int] = {}
    for e in events:
        if isinstance(e, te.FindingRaised) and e.severity == "floor":
            found[e.id] = FindingView(e.id, e.rule, e.citation, e.severity, e.outcome, e.ruling, e.seats, e.cards)
            order.setdefault(e.id, len(order))
        elif isinstance(e, te.FindingAcknowledged):
            acked.add(e.id)
    for f in state.findings:
        if f.acknowledged:
            acked.add(f.id)
        else:
            found[f.id] = f
            order.setdefault(f.id, len(order))
    live = [f for f in found.values() if f.id not in acked]
    return sorted(live, key=lambda f: (-theme.SEVERITY_RANK.get(f.severity, 0), -order[f.id]))


def sheet_must_close(sheet: SeatSheet, state: TableState, banner: FindingView | None, history: bool) -> bool:
    """Findings come first: a dealer or floor finding bannered after the sheet opened closes it (the typed
    amount is dropped), as does the seat no longer being what the sheet was for (seated or left meanwhile)."""
    if history:
        return True
    if banner is not None and banner.severity in ("dealer", "floor") and banner.id != sheet.banner:
        return True
    view = next((v for v in state.seats if v.seat == sheet.seat), None)
    return view is None or view.occupied != sheet.occupied


def seat_in_play(state: TableState, seat: SeatView) -> bool:
    """The seat holds a live hand in the running hand: no chips added, no leaving until it is over."""
    return state.phase in IN_HAND_PHASES and (seat.in_hand or seat.all_in) and not seat.folded


def awarded_pots(state: TableState, events: Iterable[te.TableEvent]) -> set[int]:
    return {e.index for e in events if isinstance(e, te.PotAwarded) and e.hand == state.hand}


class Renderer:
    """Draws frames at one size; fonts and geometry scale from the 800x480 design.

    A frame is always drawn whole, but from pre-drawn pieces: the empty table and bars (one blit), and the
    top bar, each seat, the banner, keys, cards, chips and text glyphs, each drawn once per look and kept
    in a small LRU with the facts it recorded. ``target``: draw straight into this surface (the display),
    else into an offscreen one; pieces are made in the target's pixel format so blits need no conversion.
    """

    def __init__(self, size: tuple[int, int], target: pygame.Surface | None = None) -> None:
        pygame.font.init()
        self.size = size
        w, h = size
        self.s = s = min(w / BASE[0], h / BASE[1])
        self.fonts = {name: pygame.font.Font(None, max(12, round(px * s))) for name, px in
                      (("huge", 52), ("big", 40), ("med", 32), ("small", 26), ("tiny", 22))}
        self.card_font_cache: dict[int, pygame.font.Font] = {}
        self.surface = target if target is not None else pygame.Surface(size)
        self._text_cache: LRU[pygame.Surface] = LRU(768)      # glyphs: (text, font, colour)
        self._layout_cache: LRU[object] = LRU(2048)            # fits, wraps and text sizes
        self._sprites: LRU[pygame.Surface] = LRU(256)          # cards, slots, chips, keys
        self._layers: LRU[tuple] = LRU(48)                     # top bar, seats, banner: pixels + facts
        self._bases: LRU[pygame.Surface] = LRU(3)              # whole-frame backgrounds (big: keep few)
        self._geometry: LRU[tuple] = LRU(16)

    # --- helpers -----------------------------------------------------------------------------------

    def px(self, v: float) -> int:
        return max(1, round(v * self.s))

    def _render_text(self, text: str, font: str, colour: theme.Colour) -> pygame.Surface:
        key = (text, font, colour)
        img = self._text_cache.get(key)
        if img is None:
            img = self._text_cache.put(key, self.fonts[font].render(text, True, colour))
        return img

    def text_size(self, text: str, font: str) -> tuple[int, int]:
        """``Font.size`` remembered: bets and labels are measured on every frame to lay them out."""
        key = ("size", text, font)
        size = self._layout_cache.get(key)
        if size is None:
            size = self._layout_cache.put(key, self.fonts[font].size(text))
        return size

    def image(self, size: tuple[int, int], keyed: bool = True) -> pygame.Surface:
        """A blank piece in the frame's pixel format; ``keyed``: starts transparent (colour key)."""
        img = pygame.Surface(size, 0, self.surface)
        if keyed:
            img.fill(COLORKEY)
        return img

    def sprite(self, key: tuple, size: tuple[int, int], draw) -> pygame.Surface:
        """A small piece drawn once by ``draw(surface)`` on a transparent background, then reused."""
        img = self._sprites.get(key)
        if img is None:
            img = self.image(size)
            draw(img)
            img.set_colorkey(COLORKEY, pygame.RLEACCEL)
            self._sprites.put(key, img)
        return img

    def layer(self, frame: Frame, key: tuple, area: pygame.Rect, draw, keyed: bool = True) -> None:
        """Blit the piece ``draw(local_frame, local_area)`` makes for ``area`` and record its facts (drawn
        things and touch targets) where they are on the frame, drawing it only the first time ``key`` is seen.
        ``keyed``: the piece has transparent parts (rounded corners); else it covers ``area`` whole."""
        hit = self._layers.get(key)
        if hit is None:
            # Moved by even amounts only: layouts round halves to even, so this draws exactly what drawing
            # in place would (an odd edge gets one spare column or row in front, never shown).
            dx, dy = area.left & ~1, area.top & ~1
            img = self.image((area.right - dx, area.bottom - dy), keyed)
            local = Frame(img)
            draw(local, area.move(-dx, -dy))
            if keyed:
                img.set_colorkey(COLORKEY, pygame.RLEACCEL)
            hit = self._layers.put(key, (img, tuple(Drawn(d.kind, d.text, d.rect.move(dx, dy), d.ref)
                                                    for d in local.drawn),
                                         tuple(replace(t, rect=t.rect.move(dx, dy)) for t in local.targets)))
        img, drawn, targets = hit
        dx, dy = area.left & ~1, area.top & ~1
        frame.surface.blit(img, area.topleft, pygame.Rect(area.left - dx, area.top - dy, area.width, area.height))
        frame.drawn.extend(drawn)
        # Targets are handed out as copies: the mouse handler keeps them after the cache has moved on.
        frame.targets.extend(replace(t, rect=t.rect.copy()) for t in targets)

    def card(self, surface: pygame.Surface, rect: pygame.Rect, name: str, face_up: bool,
             font: pygame.font.Font | None = None, outline: theme.Colour | None = None, corner: bool = False) -> None:
        """One card (face or back) from the sprite cache: a card face is ~20 pygame calls to draw."""
        m = 2 * (rect.height // 6 + 1)  # a suit may stand out of a narrow card: the sprite has room round it
        local = pygame.Rect((m, m), rect.size)
        size = (rect.width + 2 * m, rect.height + 2 * m)
        if face_up:
            key = ("face", rect.size, name, id(font), outline, corner)
            img = self.sprite(key, size, lambda s: cards.draw_face(s, local, name, font, outline, corner))
        else:
            img = self.sprite(("back", rect.size), size, lambda s: cards.draw_back(s, local))
        surface.blit(img, (rect.left - m, rect.top - m))

    def text(self, frame: Frame, text: str, font: str, colour: theme.Colour, kind: str | None = None,
             ref: object = None, **anchor: tuple[int, int]) -> pygame.Rect:
        img = self._render_text(text, font, colour)
        rect = img.get_rect(**anchor)
        frame.surface.blit(img, rect)
        if kind:
            frame.drawn.append(Drawn(kind, text, rect, ref))
        return rect

    def fit(self, text: str, font: str, width: int) -> str:
        """``text`` cut with an ellipsis to fit ``width`` px."""
        key = ("fit", text, font, width)
        out = self._layout_cache.get(key)
        if out is None:
            f = self.fonts[font]
            out = text
            if f.size(text)[0] > width:
                while out and f.size(out + "…")[0] > width:
                    out = out[:-1]
                out = out.rstrip() + "…"
            self._layout_cache.put(key, out)
        return out

    def wrap(self, text: str, font: str, width: int, max_lines: int) -> list[str]:
        """Words into at most ``max_lines`` lines of ``width`` px; the last one cut with an ellipsis."""
        key = ("wrap", text, font, width, max_lines)
        lines = self._layout_cache.get(key)
        if lines is None:
            f = self.fonts[font]
            lines: list[str] = []
            current = ""
            for word in text.split():
                trial = f"{current} {word}".strip()
                if f.size(trial)[0] <= width or not current:
                    current = trial
                else:
                    lines.append(current)
                    current = word
            if current:
                lines.append(current)
            if len(lines) > max_lines:
                lines = lines[:max_lines]
                lines[-1] = self.fit(lines[-1] + " …", font, width)
            lines = self._layout_cache.put(key, [self.fit(line, font, width) for line in lines])
        return lines

    def fits(self, text: str, font: str, width: int, max_lines: int) -> bool:
        """True when ``text`` wraps into ``max_lines`` lines of ``width`` px without cutting a word."""
        lines = self.wrap(text, font, width, max_lines)
        return " ".join(lines) == " ".join(text.split())

    def card_font(self, height: int) -> pygame.font.Font:
        size = max(12, int(height * 0.62))
        f = self.card_font_cache.get(size)
        if f is None:
            f = self.card_font_cache[size] = pygame.font.Font(None, size)
        return f

    def key(self, frame: Frame, rect: pygame.Rect, label: str, colour: theme.Colour = theme.KEY,
            target: Target | None = None, text_colour: theme.Colour = theme.KEY_TEXT) -> None:
        """An action key; disabled (dim, no target) when ``target`` is None. Long labels take two lines."""
        if target is None:
            colour, text_colour = theme.KEY_DISABLED, theme.KEY_DISABLED_TEXT
        img = self.sprite(("key", rect.size, label, colour, text_colour), rect.size,
                          lambda surface: self._draw_key(surface, label, colour, text_colour))
        frame.surface.blit(img, rect.topleft)
        kind = "key" if target else "key-disabled"
        ref = target.key if target else label
        # One record per key with its whole label, where the key is (tests look keys up by label).
        frame.drawn.append(Drawn(kind, label, rect.copy(), ref))
        if target:
            frame.targets.append(target)

    def _draw_key(self, surface: pygame.Surface, label: str, colour: theme.Colour, text_colour: theme.Colour) -> None:
        rect = surface.get_rect()
        pygame.draw.rect(surface, colour, rect, border_radius=self.px(8))
        room = rect.width - self.px(10)
        for font in ("med", "small", "tiny"):
            max_lines = max(1, min(2, (rect.height - self.px(4)) // self.fonts[font].get_linesize()))
            if self.fits(label, font, room, max_lines):
                lines = self.wrap(label, font, room, max_lines)
                break
        else:
            lines = self.wrap(label, "tiny", room, 2)
        line_h = self.fonts[font].get_linesize()
        y = rect.centery - len(lines) * line_h // 2
        for line in lines:
            img = self._render_text(line, font, text_colour)
            surface.blit(img, img.get_rect(midtop=(rect.centerx, y)))
            y += line_h

    # --- the frame ---------------------------------------------------------------------------------

    def render(self, state: TableState, health: HealthView, events: list[te.TableEvent], ui: UiState) -> Frame:
        frame = Frame(self.surface)
        w, h = self.size
        findings = open_findings(state, events)
        frame.banner = findings[0] if findings else None
        if ui.sheet is not None and sheet_must_close(ui.sheet, state, frame.banner, ui.history):
            ui.sheet = None

        # A column of keys down the right: on a wide screen height is what the table is short of.
        top = pygame.Rect(0, 0, w, self.px(44))
        keys_w = max(2 * theme.MIN_TOUCH, self.px(136))
        keys = pygame.Rect(w - keys_w, top.bottom, keys_w, h - top.bottom)
        left_w = keys.left
        y = top.bottom
        alert = None
        if health.level != "ok":
            alert = pygame.Rect(0, y, left_w, self.px(34))
            y = alert.bottom
        banner = None
        if frame.banner is not None:
            banner = pygame.Rect(0, y, left_w, max(2 * theme.MIN_TOUCH + 3 * self.px(6), self.px(116)))
            y = banner.bottom
        body = pygame.Rect(0, y, left_w, h - y)
        felt = None if ui.history else self.seat_geometry(body, len(state.seats) or 9)[2]
        base = self.base(top, keys, body, felt)
        # The top bar, alert strip and banner paint their whole rectangles, so the base goes only under the
        # table and the keys: a blit costs by the pixel, and these are the frame's biggest ones.
        frame.surface.blit(base, keys, keys)
        frame.surface.blit(base, body, body)

        self.draw_top(frame, top, state, health)
        if alert:
            self.draw_alert(frame, alert, health)
        if ui.history:
            self.draw_history(frame, body, events, ui)
        else:
            self.draw_table(frame, body, state, findings, events)
            if ui.sheet is not None:
                self.draw_sheet(frame, body, state, ui.sheet)
        if banner:
            self.draw_banner(frame, banner, frame.banner, len(findings) - 1, state.phase in IN_HAND_PHASES)
        self.draw_keys(frame, keys, state, events, ui)
        return frame

    def base(self, top: pygame.Rect, keys: pygame.Rect, body: pygame.Rect, felt: pygame.Rect | None) -> pygame.Surface:
        """Background, bars and the empty table for one layout: one blit instead of a fill and the two big
        rounded rectangles of the felt, the slowest things on the frame to draw."""
        key = (tuple(top), tuple(keys), tuple(body), tuple(felt) if felt else None)
        img = self._bases.get(key)
        if img is None:
            img = self.image(self.size, keyed=False)
            img.fill(theme.BACKGROUND)
            pygame.draw.rect(img, theme.BAR, top)
            pygame.draw.rect(img, theme.BAR, keys)
            if felt is not None:
                table = img.subsurface(body)  # drawn clipped to the body, as the table always was
                rim = felt.inflate(self.px(16), self.px(16)).move(-body.left, -body.top)
                pygame.draw.rect(table, theme.FELT_EDGE, rim, border_radius=rim.height // 2)
                pygame.draw.rect(table, theme.FELT, felt.move(-body.left, -body.top), border_radius=felt.height // 2)
            self._bases.put(key, img)
        return img

    def draw_top(self, frame: Frame, rect: pygame.Rect, state: TableState, health: HealthView) -> None:
        key = ("top", tuple(rect), state.hand, state.phase, state.game, state.deck_id,
               health.board, health.board_level, health.floor, health.floor_level)
        self.layer(frame, key, rect, lambda f, r: self._draw_top(f, r, state, health), keyed=False)

    def _draw_top(self, frame: Frame, rect: pygame.Rect, state: TableState, health: HealthView) -> None:
        pygame.draw.rect(frame.surface, theme.BAR, rect)
        pad = self.px(12)
        hand = f"Hand {state.hand}" if state.hand is not None else "No hand yet"
        r = self.text(frame, hand, "big", theme.TEXT, kind="hand", ref=state.hand, midleft=(pad, rect.centery))
        r = self.text(frame, PHASE_NAMES.get(state.phase, state.phase), "big", theme.SEAT_TO_ACT, kind="phase",
                      ref=state.phase, midleft=(r.right + pad * 2, rect.centery))
        game = state.game.upper() + (f"  deck {state.deck_id}" if state.deck_id else "")
        if game.strip():
            self.text(frame, game, "small", theme.TEXT_DIM, kind="game", midleft=(r.right + pad * 2, rect.centery))
        # Health corner: two dots and a few characters, right-aligned; the alert strip says more.
        x = rect.right - pad
        for name, value, level in (("FLOOR", health.floor, health.floor_level),
                                   ("BOARD", health.board, health.board_level)):
            colour = {"ok": theme.HEALTH_OK, "warn": theme.HEALTH_WARN, "bad": theme.HEALTH_BAD}[level]
            r = self.text(frame, value, "tiny", theme.TEXT_DIM, kind="health", ref=name.lower(),
                          midright=(x, rect.centery))
            radius = self.px(7)
            centre = (r.left - radius - self.px(4), rect.centery)
            pygame.draw.circle(frame.surface, colour, centre, radius)
            r = self.text(frame, name, "tiny", theme.TEXT_DIM, midright=(centre[0] - radius - self.px(4), rect.centery))
            x = r.left - pad

    def draw_alert(self, frame: Frame, rect: pygame.Rect, health: HealthView) -> None:
        colour = theme.HEALTH_BAD if health.level == "bad" else theme.HEALTH_WARN
        text_colour = theme.WHITE if health.level == "bad" else theme.BLACK
        pygame.draw.rect(frame.surface, colour, rect)
        width = rect.width - self.px(24)
        font = "small" if self.text_size(health.message, "small")[0] <= width else "tiny"
        self.text(frame, self.fit(health.message, font, width), font, text_colour,
                  kind="health-alert", ref=health.level, midleft=(self.px(12), rect.centery))

    # --- the table ---------------------------------------------------------------------------------

    def seat_geometry(self, body: pygame.Rect, n: int) -> tuple[dict[int, pygame.Rect], dict[int, tuple[float, float]],
                                                                  pygame.Rect]:
        """Seat boxes evenly spaced round a stadium-shaped table, seat 1 at the dealer's left (bottom left),
        clockwise to seat n at the dealer's right; the dealer's spot (bottom centre) stays free.
        Worked out once per body and seat count (the result is shared: read it, never change it)."""
        key = (tuple(body), n)
        geometry = self._geometry.get(key)
        if geometry is None:
            geometry = self._geometry.put(key, self._seat_geometry(body, n))
        return geometry

    def _seat_geometry(self, body: pygame.Rect, n: int) -> tuple[dict[int, pygame.Rect],
                                                                   dict[int, tuple[float, float]], pygame.Rect]:
        sh = min(self.px(66), body.height // 4)
        pad = self.px(4)
        sw = min(self.px(132), body.width // 5)
        cx, cy = body.center
        for _ in range(12):  # shrink the boxes until n of them sit round the table without touching
            rx = body.width / 2 - sw / 2 - pad      # path through the box centres
            r = body.height / 2 - sh / 2 - pad      # end radius = half the height
            straight = max(0.0, rx - r)             # half the length of the top and bottom sides
            perimeter = 4 * straight + 2 * math.pi * r
            gap = sw * 0.6                          # arc left free either side of the dealer
            boxes: dict[int, pygame.Rect] = {}
            inward: dict[int, tuple[float, float]] = {}
            for i in range(1, n + 1):
                s = gap + (i - 1) * (perimeter - 2 * gap) / max(1, n - 1)
                x, y, ix, iy = _stadium_point(s, cx, cy, straight, r)
                box = pygame.Rect(0, 0, round(sw), round(sh))
                box.center = (round(x), round(y))
                boxes[i] = box
                inward[i] = (ix, iy)
            spaced = [b.inflate(pad, pad) for b in boxes.values()]
            if not any(a.colliderect(b) for a, b in itertools.combinations(spaced, 2)):
                break
            sw, sh = max(self.px(84), sw * 0.93), max(self.px(50), sh * 0.96)
        felt = pygame.Rect(0, 0, round(2 * rx), round(2 * r))
        felt.center = body.center
        return boxes, inward, felt

    def draw_table(self, frame: Frame, body: pygame.Rect, state: TableState, findings: list[FindingView],
                   events: list[te.TableEvent]) -> None:
        surf = frame.surface
        n = len(state.seats) or 9
        boxes, inward, felt = self.seat_geometry(body, n)  # the empty table is in the base layer
        showdown = state.phase in ("showdown", "ended") and any(s.shown for s in state.seats)

        # Highlights: every seat an open finding concerns, in that finding's colour (the banner's on top).
        highlight: dict[int, theme.Colour] = {}
        for f in reversed(findings):
            for seat in f.seats:
                highlight[seat] = theme.SEVERITY_COLOURS.get(f.severity, theme.WHITE)
        flagged_cards = {c: theme.SEVERITY_COLOURS.get(f.severity, theme.WHITE) for f in reversed(findings)
                         for c in f.cards}

        chip_r = self.px(13)
        puck_r = self.px(15)
        # First where each seat's bet and the puck go, so the middle can keep clear of them.
        bets: list[tuple[SeatView, tuple[int, int], dict, pygame.Rect]] = []
        obstacles: list[pygame.Rect] = list(boxes.values())
        rows: list[tuple[pygame.Rect, float]] = [(b, inward[i][1]) for i, b in boxes.items()]  # top/bottom rows
        puck: tuple[int, int] | None = None
        for seat in state.seats:
            box = boxes.get(seat.seat)
            if box is None:
                continue
            dx, dy = inward[seat.seat]
            # Bet badge just inside the seat box, toward the middle of the table.
            edge = min(box.width / 2 / max(abs(dx), 1e-6), box.height / 2 / max(abs(dy), 1e-6))
            bx, by = round(box.centerx + dx * (edge + chip_r * 1.2)), round(box.centery + dy * (edge + chip_r * 1.2))
            label_right = dx >= -0.2
            if seat.bet:
                label_w = self.text_size(f"{seat.bet:,}", "med")[0]
                anchor = {"midleft": (bx + chip_r + self.px(4), by)} if label_right else \
                    {"midright": (bx - chip_r - self.px(4), by)}
                area = pygame.Rect(0, 0, 2 * chip_r + self.px(4) + label_w, 2 * chip_r + self.px(4))
                area.midleft = (bx - chip_r - self.px(2), by)
                if not label_right:
                    area.midright = (bx + chip_r + self.px(2), by)
                bets.append((seat, (bx, by), anchor, area))
                obstacles.append(area)
                rows.append((area, dy))
            if state.button == seat.seat:
                # The puck sits beside the bet, on the side away from the bet's label.
                ox, oy = -dy * chip_r * 2.8, dx * chip_r * 2.8
                if (ox > 0) == label_right and abs(ox) > 1:
                    ox, oy = -ox, -oy
                elif abs(ox) <= 1 and oy > 0:
                    ox, oy = -ox, -oy
                puck = (round(bx + ox), round(by + oy))
                obstacles.append(pygame.Rect(puck[0] - puck_r, puck[1] - puck_r, 2 * puck_r, 2 * puck_r))

        # The middle band: below the top row and its bets, above the bottom row and its bets.
        top_half = [o for o, dy in rows if dy > 0.9]
        low_half = [o for o, dy in rows if dy < -0.9]
        y0 = max((o.bottom for o in top_half), default=felt.top) + self.px(4)
        y1 = min((o.top for o in low_half), default=felt.bottom) - self.px(4)
        self.draw_middle(frame, felt, (y0, y1), obstacles, state, flagged_cards, events, showdown)

        for seat in state.seats:
            if seat.seat in boxes:
                self.draw_seat(frame, boxes[seat.seat], seat, state, highlight.get(seat.seat), showdown)
        rc = chip_r + self.px(2) + 1
        chip = self.sprite(("chip", chip_r), (2 * rc, 2 * rc), lambda s: (
            pygame.draw.circle(s, theme.CHIP_EDGE, (rc, rc), chip_r + self.px(2)),
            pygame.draw.circle(s, theme.CHIP, (rc, rc), chip_r)))
        for seat, (bx, by), anchor, _ in bets:
            surf.blit(chip, (bx - rc, by - rc))
            self.text(frame, f"{seat.bet:,}", "med", theme.WHITE, kind="bet", ref=seat.seat, **anchor)
        if puck is not None:
            rp = puck_r + 1
            disc = self.sprite(("puck", puck_r), (2 * rp, 2 * rp), lambda s: (
                pygame.draw.circle(s, theme.BUTTON_PUCK, (rp, rp), puck_r),
                pygame.draw.circle(s, theme.BLACK, (rp, rp), puck_r, width=max(1, self.px(2)))))
            surf.blit(disc, (puck[0] - rp, puck[1] - rp))
            self.text(frame, "D", "small", theme.BLACK, kind="button", ref=state.button, center=puck)

    def draw_seat(self, frame: Frame, box: pygame.Rect, seat: SeatView, state: TableState,
                  outline: theme.Colour | None, showdown: bool) -> None:
        winner = seat.seat in state.winners
        # A seat looks the same until its view changes: most seats are unchanged from one update to the next.
        area = box.inflate(self.px(8), self.px(8)) if outline else box
        self.layer(frame, ("seat", tuple(box), seat, winner, outline), area,
                   lambda f, r: self._draw_seat(f, box.move(r.left - area.left, r.top - area.top), seat, winner,
                                                outline))
        if winner:
            self.text(frame, f"WINS {state.winners[seat.seat]:,}", "small", theme.WHITE, kind="winner",
                      ref=seat.seat, midbottom=(box.centerx, box.top - self.px(2)))

    def _draw_seat(self, frame: Frame, box: pygame.Rect, seat: SeatView, winner: bool,
                   outline: theme.Colour | None) -> None:
        surf = frame.surface
        status, fill, text_colour = self.seat_status(seat, winner)
        pygame.draw.rect(surf, fill, box, border_radius=self.px(10))
        if outline:
            pygame.draw.rect(surf, outline, box.inflate(self.px(8), self.px(8)), width=self.px(5),
                             border_radius=self.px(12))
        frame.drawn.append(Drawn("seat", status, box.copy(), seat.seat))
        # The whole box is the seat's key: it opens the seat sheet.
        frame.targets.append(Target(f"seat:{seat.seat}", f"Seat {seat.seat}", box.copy(), ui="seat", seat=seat.seat,
                                    ref="taken" if seat.occupied else "open"))
        pad = self.px(6)
        self.text(frame, str(seat.seat), "big", text_colour, kind="seat-number", ref=seat.seat,
                  topleft=(box.left + pad, box.top + pad // 2))
        if not seat.occupied:
            self.text(frame, "open", "small", theme.TEXT_DIM, kind="seat-status", ref=seat.seat,
                      bottomleft=(box.left + pad, box.bottom - pad // 2))
            return
        stack = f"{seat.stack:,}"
        stack_font = "small" if seat.shown or self.text_size(stack, "med")[0] > box.width * 0.6 else "med"
        self.text(frame, stack, stack_font, text_colour, kind="stack", ref=seat.seat,
                  bottomleft=(box.left + pad, box.bottom - pad // 2))
        if status and not seat.shown:
            self.text(frame, status, "tiny", text_colour, kind="seat-status", ref=seat.seat,
                      midleft=(box.left + pad + self.text_size(str(seat.seat), "big")[0] + pad,
                               box.top + pad // 2 + self.fonts["big"].get_height() // 2))
        # Cards: face-up only once shown at showdown; otherwise backs, as many as held, never which.
        if seat.shown:
            area = pygame.Rect(box.left + box.width * 9 // 20, box.top + pad // 2,
                               box.width * 11 // 20 - pad // 2, box.height - pad)
            self.draw_fan(frame, area, list(seat.shown), face_up=True, kind="shown-card", ref=seat.seat)
        elif seat.cards_held and not seat.folded:
            ch = box.height * 9 // 20
            n = seat.cards_held
            area = pygame.Rect(0, 0, round(ch * 0.72 * (n + 0.15 if n <= 2 else 1 + 0.45 * (n - 1))), ch)
            area.bottomright = (box.right - pad, box.bottom - pad)
            self.draw_fan(frame, area, [""] * seat.cards_held, face_up=False, kind="card-back", ref=seat.seat)

    @staticmethod
    def seat_status(seat: SeatView, winner: bool) -> tuple[str, theme.Colour, theme.Colour]:
        """The word under the seat number and the box colours; the first that applies wins."""
        if not seat.occupied:
            return "", theme.SEAT_EMPTY, theme.TEXT_DIM
        if winner:
            return "WINNER", theme.SEAT_WINNER, theme.WHITE
        if seat.dead:
            return "DEAD", theme.SEAT_DEAD, theme.WHITE
        if seat.to_act:
            return "TO ACT", theme.SEAT_TO_ACT, theme.BLACK
        if seat.all_in:
            return "ALL-IN", theme.SEAT_ALL_IN, theme.WHITE
        if seat.folded:
            return "FOLD", theme.SEAT_FOLDED, theme.TEXT_DIM
        if seat.in_hand:
            return "", theme.SEAT_IN_HAND, theme.WHITE
        return "out", theme.SEAT_IDLE, theme.TEXT

    def draw_fan(self, frame: Frame, area: pygame.Rect, names: list[str], face_up: bool, kind: str,
                 ref: object, outlines: dict[str, theme.Colour] | None = None) -> None:
        """Cards side by side in ``area``, overlapping when they do not fit (four Omaha cards)."""
        if not names:
            return
        ch = area.height
        cw = min(round(ch * 0.72), area.width)
        n = len(names)
        step = min(cw + self.px(3), (area.width - cw) / max(1, n - 1)) if n > 1 else 0
        total = cw + step * (n - 1)
        x0 = area.centerx - total / 2
        font = self.card_font(ch if step >= cw else ch * 0.8)
        for i, name in enumerate(names):
            rect = pygame.Rect(round(x0 + i * step), area.top, cw, ch)
            if face_up:
                self.card(frame.surface, rect, name, True, font, (outlines or {}).get(name), corner=step < cw * 0.9)
                frame.drawn.append(Drawn(kind, name, rect, ref))
            else:
                self.card(frame.surface, rect, "", False)
                frame.drawn.append(Drawn(kind, "", rect, ref))

    def draw_middle(self, frame: Frame, felt: pygame.Rect, band: tuple[int, int], obstacles: list[pygame.Rect],
                    state: TableState, flagged: dict[str, theme.Colour], events: list[te.TableEvent],
                    showdown: bool) -> None:
        """Board, burn and muck counts, pot and side pots, and at showdown what to push where: in the band
        between the top and bottom rows of seats, clear of the seats (and bets) at the ends of the table."""
        surf = frame.surface
        top, bottom = band
        cx = felt.centerx
        avail = bottom - top
        gap, side = self.px(5), self.px(10)

        def clear(y0: int, y1: int) -> tuple[int, int]:
            """The free x range on the felt between heights y0 and y1."""
            x0, x1 = felt.left + felt.height // 4, felt.right - felt.height // 4
            for o in obstacles:
                if o.bottom > y0 and o.top < y1:
                    if o.centerx < cx:
                        x0 = max(x0, o.right + self.px(6))
                    else:
                        x1 = min(x1, o.left - self.px(6))
            return x0, x1

        multi = len(state.pots) > 1 or (showdown and bool(state.pots))
        pushing = showdown and bool(state.winners)
        total = sum(a for a, _ in state.pots) if multi else state.pot
        main = f"Pot {total:,}"
        line_h = self.fonts["small"].get_linesize()
        pot_font = "huge" if self.fonts["huge"].get_linesize() * 2 < avail else "big"
        pot_h = self.fonts[pot_font].get_linesize()
        label_w = max(self.text_size(t, "small")[0] for t in (f"Burn {state.burn_count}", f"Muck {state.muck_count}"))
        extra = (line_h if multi else 0) + (line_h if pushing else 0)
        stacked = avail - pot_h - extra >= self.px(44)
        if not stacked:
            pot_font, pot_h = "big", self.fonts["big"].get_linesize()
        pot_w = self.text_size(main, pot_font)[0]
        # Stacked: push line, board with the counts either side, pot, side pots. Row: counts, board, pot.
        card_h = min(self.px(64), avail - pot_h - extra if stacked else avail - (line_h if multi else 0))
        for _ in range(2):  # the free width depends on where the block sits, which depends on its size
            block = card_h + (pot_h + extra if stacked else (line_h if multi else 0))
            y = top + (avail - block) // 2
            board_top = y + (line_h if stacked and pushing else 0)
            x0, x1 = clear(board_top, board_top + card_h + (pot_h if stacked else 0))
            room = (x1 - x0) - 2 * (label_w + side) if stacked else (x1 - x0) - label_w - pot_w - 2 * side
            card_h = max(self.px(26), min(card_h, round((room - 4 * gap) / 5 / 0.72)))
        card_w = round(card_h * 0.72)
        board = pygame.Rect(0, 0, 5 * card_w + 4 * gap, card_h)
        mid = (x0 + x1) // 2
        if stacked:
            board.midtop = (mid, board_top)
        else:
            row_w = label_w + side + board.width + side + pot_w
            board.topleft = (mid - row_w // 2 + label_w + side, board_top)
        for i in range(5):
            slot = pygame.Rect(board.left + i * (card_w + gap), board.top, card_w, card_h)
            if i < len(state.board):
                name = state.board[i]
                self.card(surf, slot, name, True, self.card_font(card_h), flagged.get(name))
                frame.drawn.append(Drawn("board-card", name, slot, i))
            else:
                empty = self.sprite(("slot", slot.size), slot.size, lambda s: pygame.draw.rect(
                    s, (30, 120, 70), s.get_rect(), width=max(1, self.px(2)), border_radius=self.px(5)))
                surf.blit(empty, slot.topleft)
        burn, muck = f"Burn {state.burn_count}", f"Muck {state.muck_count}"
        if stacked:
            self.text(frame, burn, "small", theme.TEXT, kind="burn", ref=state.burn_count,
                      midright=(board.left - side, board.centery))
            self.text(frame, muck, "small", theme.TEXT, kind="muck", ref=state.muck_count,
                      midleft=(board.right + side, board.centery))
            r = self.text(frame, main, pot_font, theme.WHITE, kind="pot", ref=total, midtop=(mid, board.bottom))
        else:
            self.text(frame, burn, "small", theme.TEXT, kind="burn", ref=state.burn_count,
                      bottomright=(board.left - side, board.centery))
            self.text(frame, muck, "small", theme.TEXT, kind="muck", ref=state.muck_count,
                      topright=(board.left - side, board.centery))
            r = self.text(frame, main, pot_font, theme.WHITE, kind="pot", ref=total,
                          midleft=(board.right + side, board.centery))
        y = max(r.bottom, board.bottom)
        if multi:
            done = awarded_pots(state, events)
            parts = []
            for i, (amount, eligible) in enumerate(state.pots):
                winners = state.pot_winners[i] if i < len(state.pot_winners) else ()
                label = ("Main" if i == 0 else f"Side {i}") + f" {amount:,}"
                if winners:
                    label += ": " + " ".join(f"S{s}" for s in winners) + (" paid" if i in done else "")
                parts.append(label)
                frame.drawn.append(Drawn("side-pot" if i else "main-pot", f"{amount:,}", r, tuple(eligible)))
            self.line(frame, "   ".join(parts), "side-pots", theme.TEXT, clear(y, y + line_h), top=y)
        if pushing:
            push = "Push: " + ",  ".join(f"{amt:,} to S{seat}" for seat, amt in sorted(state.winners.items()))
            self.line(frame, push, "push", theme.SEAT_TO_ACT, clear(board.top - line_h, board.top),
                      bottom=board.top - self.px(2))

    def line(self, frame: Frame, text: str, kind: str, colour: theme.Colour, span: tuple[int, int],
             top: int | None = None, bottom: int | None = None) -> None:
        """One centred line in the x ``span``: small font, tiny if that is what fits, cut as a last resort."""
        width = span[1] - span[0]
        font = "small" if self.text_size(text, "small")[0] <= width else "tiny"
        anchor = {"midtop": ((span[0] + span[1]) // 2, top)} if top is not None else \
            {"midbottom": ((span[0] + span[1]) // 2, bottom)}
        self.text(frame, self.fit(text, font, width), font, colour, kind=kind, **anchor)

    # --- seat sheet --------------------------------------------------------------------------------

    def sheet_rect(self, body: pygame.Rect, content_h: int) -> pygame.Rect:
        """The sheet over the middle of the table, as tall as its content; banner and key column stay clear."""
        pad = self.px(8)
        rect = body.inflate(-2 * pad, -2 * pad)
        rect.width, rect.height = min(rect.width, self.px(600)), min(rect.height, content_h)
        rect.center = body.center
        return rect

    def draw_sheet(self, frame: Frame, body: pygame.Rect, state: TableState, sheet: SeatSheet) -> None:
        # Under the sheet the seats are not keys: a tap beside a sheet key must not open another seat.
        frame.targets[:] = [t for t in frame.targets if t.ui != "seat"]
        view = next(v for v in state.seats if v.seat == sheet.seat)
        pad, gap = self.px(12), self.px(8)
        width = min(body.width - 2 * self.px(8), self.px(600)) - 2 * pad
        if sheet.mode in KEYPAD_MODES:
            content = 4 * self.px(64) + 3 * gap
        elif sheet.mode == "menu":
            content = 3 * self.px(72) + 2 * gap + \
                (self.fonts["small"].get_linesize() + gap if seat_in_play(state, view) else 0)
        else:
            lines = len(self.wrap(self.leave_prompt(view), "med", width, 3))
            content = lines * self.fonts["med"].get_linesize() + gap + self.px(72)
        rect = self.sheet_rect(body, 2 * pad + self.fonts["big"].get_linesize() + pad // 2 + content)
        # One piece per look of the sheet (each keystroke is a new look): open, it costs one blit a frame.
        key = ("sheet", tuple(rect), sheet.seat, sheet.mode, sheet.entry, sheet.fresh, sheet.prefill, sheet.maximum,
               view.stack, seat_in_play(state, view))
        self.layer(frame, key, rect, lambda f, r: self._draw_sheet(f, r, state, view, sheet), keyed=False)

    def _draw_sheet(self, frame: Frame, rect: pygame.Rect, state: TableState, view: SeatView,
                    sheet: SeatSheet) -> None:
        pad = self.px(12)
        rim = self.px(3)
        # Square corners: the piece then covers its rectangle whole and blits without a colour key.
        pygame.draw.rect(frame.surface, theme.WHITE, rect)
        pygame.draw.rect(frame.surface, theme.BAR, rect.inflate(-2 * rim, -2 * rim))
        frame.drawn.append(Drawn("sheet", sheet.mode, rect.copy(), sheet.seat))
        inner = rect.inflate(-2 * pad, -2 * pad)
        title = {"sit": f"Seat {sheet.seat}: seat a player", "menu": f"Seat {sheet.seat}",
                 "rebuy": f"Seat {sheet.seat}: rebuy", "leave": f"Seat {sheet.seat}: leave the table?"}[sheet.mode]
        if sheet.occupied:
            title += f"   stack {view.stack:,}"
        r = self.text(frame, self.fit(title, "big", inner.width), "big", theme.TEXT, kind="sheet-title",
                      ref=sheet.seat, topleft=inner.topleft)
        area = pygame.Rect(inner.left, r.bottom + pad // 2, inner.width, inner.bottom - r.bottom - pad // 2)
        if sheet.mode in KEYPAD_MODES:
            self._draw_keypad(frame, area, sheet)
        elif sheet.mode == "menu":
            self._draw_seat_menu(frame, area, state, view, sheet)
        else:
            self._draw_leave(frame, area, view, sheet)

    def _draw_keypad(self, frame: Frame, area: pygame.Rect, sheet: SeatSheet) -> None:
        """Digits on the left (phone layout), the amount and OK / Cancel on the right."""
        gap = self.px(8)
        key_h = max(theme.MIN_TOUCH, min(self.px(64), (area.height - 3 * gap) // 4))
        key_w = max(theme.MIN_TOUCH, min(self.px(84), (area.width // 2 - 2 * gap) // 3))
        for i, label in enumerate(("1", "2", "3", "4", "5", "6", "7", "8", "9", "Clear", "0", "Del")):
            r = pygame.Rect(area.left + (i % 3) * (key_w + gap), area.top + (i // 3) * (key_h + gap), key_w, key_h)
            ui = {"Clear": "sheet:clear", "Del": "sheet:back"}.get(label, f"sheet:digit:{label}")
            self.key(frame, r, label, theme.KEY, Target(ui, label, r, ui=ui))
        col = pygame.Rect(area.left + 3 * key_w + 4 * gap, area.top, 0, area.height)
        col.width = area.right - col.left
        amount, message = sheet.amount()
        field = pygame.Rect(col.left, col.top, col.width, self.fonts["huge"].get_linesize() + self.px(12))
        pygame.draw.rect(frame.surface, theme.BACKGROUND, field, border_radius=self.px(6))
        pygame.draw.rect(frame.surface, theme.WHITE if amount else theme.HEALTH_WARN, field, width=self.px(2),
                         border_radius=self.px(6))
        shown = f"{int(sheet.entry):,}" if sheet.entry else ""
        self.text(frame, shown, "huge", theme.WHITE, kind="sheet-amount", ref=amount, center=field.center)
        hint = message if amount is None else \
            (f"buy-in {sheet.prefill:,}: type to change" if sheet.fresh else message)
        self.text(frame, self.fit(hint, "small", col.width), "small",
                  theme.HEALTH_WARN if amount is None else theme.TEXT_DIM, kind="sheet-hint", ref=sheet.seat,
                  midtop=(col.centerx, field.bottom + self.px(4)))
        cancel = pygame.Rect(col.left, area.top + 3 * (key_h + gap), col.width, key_h)
        ok = cancel.move(0, -(key_h + gap))
        verb = "Seat" if sheet.mode == "sit" else "Add"
        ok_target = None
        if amount is not None:
            ok_target = Target("sheet:ok", f"{verb} {amount:,}", ok, action=sheet.mode, seat=sheet.seat, amount=amount)
        self.key(frame, ok, ok_target.label if ok_target else "OK", theme.KEY_CONFIRM, ok_target)
        self.key(frame, cancel, "Cancel", theme.KEY, Target("sheet:cancel", "Cancel", cancel, ui="sheet:cancel"))

    def _draw_seat_menu(self, frame: Frame, area: pygame.Rect, state: TableState, view: SeatView,
                        sheet: SeatSheet) -> None:
        gap = self.px(8)
        busy = seat_in_play(state, view)
        hint_h = self.fonts["small"].get_linesize() + gap if busy else 0
        key_h = max(theme.MIN_TOUCH, min(self.px(72), (area.height - hint_h - 2 * gap) // 3))
        key_w = (area.width - gap) // 2
        n = sheet.seat
        items = [("Rebuy", None if busy else Target("sheet:rebuy", "Rebuy", pygame.Rect(0, 0, 0, 0), ui="sheet:rebuy"),
                  theme.KEY_CONFIRM),
                 ("Leave", None if busy else Target("sheet:leave", "Leave", pygame.Rect(0, 0, 0, 0), ui="sheet:leave"),
                  theme.KEY_DANGER),
                 # Blinds 9: away now (misses the blinds that pass) is not the same as back at the big blind
                 ("Sit out", Target("sheet:sit-out", "Sit out", pygame.Rect(0, 0, 0, 0), action="sit-out", seat=n),
                  theme.KEY),
                 ("Wait for big blind", Target("sheet:wait-for-bb", "Wait for big blind", pygame.Rect(0, 0, 0, 0),
                                               action="wait-for-bb", seat=n), theme.KEY),
                 ("Back in", Target("sheet:back-in", "Back in", pygame.Rect(0, 0, 0, 0), action="back-in", seat=n),
                  theme.KEY),
                 ("Cancel", Target("sheet:cancel", "Cancel", pygame.Rect(0, 0, 0, 0), ui="sheet:cancel"), theme.KEY)]
        for i, (label, target, colour) in enumerate(items):
            r = pygame.Rect(area.left + (i % 2) * (key_w + gap), area.top + (i // 2) * (key_h + gap), key_w, key_h)
            if target is not None:
                target.rect.update(r)
            self.key(frame, r, label, colour, target)
        cancel = r   # the last key: the hint goes under it
        if busy:  # The Buy-in 2: chips are added between hands
            self.text(frame, self.fit("In this hand: rebuy or leave once it is over", "small", area.width), "small",
                      theme.TEXT_DIM, kind="sheet-hint", ref=n, topleft=(area.left, cancel.bottom + gap))

    @staticmethod
    def leave_prompt(view: SeatView) -> str:
        return f"The player takes {view.stack:,} in chips and seat {view.seat} opens. This cannot be undone."

    def _draw_leave(self, frame: Frame, area: pygame.Rect, view: SeatView, sheet: SeatSheet) -> None:
        gap = self.px(8)
        y = area.top
        for line in self.wrap(self.leave_prompt(view), "med", area.width, 3):
            y = self.text(frame, line, "med", theme.TEXT, kind="sheet-prompt", ref=sheet.seat,
                          topleft=(area.left, y)).bottom
        key_h = max(theme.MIN_TOUCH, min(self.px(72), area.bottom - y - gap))
        key_w = (area.width - gap) // 2
        leave = pygame.Rect(area.left, area.bottom - key_h, key_w, key_h)
        cancel = leave.move(key_w + gap, 0)
        self.key(frame, leave, "Leave the table", theme.KEY_DANGER,
                 Target("sheet:leave-confirm", "Leave the table", leave, action="leave", seat=sheet.seat))
        self.key(frame, cancel, "Cancel", theme.KEY, Target("sheet:cancel", "Cancel", cancel, ui="sheet:cancel"))

    # --- findings banner ---------------------------------------------------------------------------

    def draw_banner(self, frame: Frame, rect: pygame.Rect, finding: FindingView, more: int,
                    in_hand: bool = True) -> None:
        first = len(frame.targets)
        self.layer(frame, ("banner", tuple(rect), finding, more, in_hand), rect,
                   lambda f, r: self._draw_banner(f, r, finding, more, in_hand), keyed=False)
        # A key's white rim may stand out of a short banner by a few pixels: that part goes on the frame.
        for target in frame.targets[first:]:
            outer = target.rect.inflate(self.px(4), self.px(4))
            for part in (pygame.Rect(outer.left, outer.top, outer.width, rect.top - outer.top),
                         pygame.Rect(outer.left, rect.bottom, outer.width, outer.bottom - rect.bottom)):
                if part.height > 0:
                    frame.surface.set_clip(part)
                    pygame.draw.rect(frame.surface, theme.WHITE, outer, border_radius=self.px(10))
                    frame.surface.set_clip(None)

    def _draw_banner(self, frame: Frame, rect: pygame.Rect, finding: FindingView, more: int, in_hand: bool) -> None:
        surf = frame.surface
        colour = theme.SEVERITY_COLOURS.get(finding.severity, theme.SEVERITY_COLOURS["floor"])
        ink = theme.SEVERITY_TEXT.get(finding.severity, theme.WHITE)
        pygame.draw.rect(surf, colour, rect)
        frame.drawn.append(Drawn("banner", finding.severity, rect.copy(), finding.id))
        pad = self.px(10)
        key_w = max(theme.MIN_TOUCH * 2, self.px(150))
        key_h = max(theme.MIN_TOUCH, (rect.height - 3 * pad) // 2)
        # Call floor is always in the key column (it carries this finding's id while the banner is up).
        buttons = [Target(f"ack:{finding.id}", "Acknowledge", pygame.Rect(0, 0, key_w, key_h), action="ack",
                          ref=finding.id)]
        if finding.outcome == "misdeal" and in_hand:  # once the hand has ended there is nothing to confirm
            buttons.append(Target(f"misdeal:{finding.id}", "Confirm misdeal", pygame.Rect(0, 0, key_w, key_h),
                                  action="misdeal", ref=finding.id))
        cols = 1
        for row, b in enumerate(buttons):
            b.rect.topright = (rect.right - pad, rect.top + pad + row * (key_h + pad))
            key_colour = theme.KEY_DANGER if b.action == "misdeal" else theme.BAR
            # A white rim keeps a red key visible on the red banner.
            pygame.draw.rect(surf, theme.WHITE, b.rect.inflate(self.px(4), self.px(4)), border_radius=self.px(10))
            self.key(frame, b.rect, b.label, key_colour, b)
        text_w = rect.width - cols * (key_w + pad) - 3 * pad
        x = rect.left + pad
        head = f"{finding.severity.upper()}  {finding.citation}" + \
            ("  " + " ".join(f"S{s}" for s in finding.seats) if finding.seats else "")
        r = self.text(frame, self.fit(head, "big", text_w), "big", ink, kind="citation", ref=finding.id,
                      topleft=(x, rect.top + pad // 2))
        if more > 0:
            self.text(frame, f"+{more} more", "tiny", ink, kind="more", midleft=(r.right + pad, r.centery))
        # Cards named by the finding are exposed or dead cards by contract, so they may be shown here.
        card_x = x
        if finding.cards:
            ch = rect.bottom - r.bottom - pad
            area = pygame.Rect(x, r.bottom + pad // 2, min(len(finding.cards), 3) * round(ch * 0.8), ch)
            self.draw_fan(frame, area, list(finding.cards[:3]), True, "finding-card", finding.id)
            card_x = area.right + pad
        lines = self.wrap(finding.ruling, "small", text_w - (card_x - x), 3)
        y = r.bottom + self.px(2)
        for line in lines:
            rr = self.text(frame, line, "small", ink, kind="ruling", ref=finding.id, topleft=(card_x, y))
            y = rr.bottom

    # --- action keys -------------------------------------------------------------------------------

    def draw_keys(self, frame: Frame, rect: pygame.Rect, state: TableState, events: list[te.TableEvent],
                  ui: UiState) -> None:
        # The column's bar is in the base layer.
        pad = self.px(8)
        in_hand = state.phase in IN_HAND_PHASES
        keys: list[tuple[str, Target | None, theme.Colour]] = []
        if ui.confirm:
            prompt = {"misdeal": "Misdeal? Cards back to the shoe, blinds returned.",
                      "new-hand": "Start a new hand? This hand is abandoned."}[ui.confirm]
            label = "Confirm misdeal" if ui.confirm == "misdeal" else "Start new hand"
            keys = [(label, Target(f"confirm:{ui.confirm}", label, pygame.Rect(0, 0, 0, 0), action=ui.confirm),
                     theme.KEY_DANGER),
                    ("Cancel", Target("cancel", "Cancel", pygame.Rect(0, 0, 0, 0), ui="cancel"), theme.KEY)]
            y = rect.top + pad
            for line in self.wrap(prompt, "small", rect.width - 2 * pad, 5):
                y = self.text(frame, line, "small", theme.TEXT, kind="prompt", topleft=(rect.left + pad, y)).bottom
            self._layout_keys(frame, pygame.Rect(rect.left, y + pad, rect.width, rect.bottom - y - pad), keys)
            return
        if ui.history:
            keys = [("Older", Target("older", "Older", pygame.Rect(0, 0, 0, 0), ui="older")
                     if ui.history_page < ui.history_pages - 1 else None, theme.KEY),
                    ("Newer", Target("newer", "Newer", pygame.Rect(0, 0, 0, 0), ui="newer")
                     if ui.history_page > 0 else None, theme.KEY),
                    ("Back to table", Target("table", "Back to table", pygame.Rect(0, 0, 0, 0), ui="history"),
                     theme.KEY_CONFIRM)]
            self._layout_keys(frame, rect, keys)
            return
        award = state.phase in ("showdown", "ended") and (state.winners or state.pot_winners)
        if award:
            done = awarded_pots(state, events)
            if state.pot_winners:
                for i, winners in enumerate(state.pot_winners):
                    if winners and i not in done:
                        label = f"Award {'main' if i == 0 else f'side {i}'} to " + " ".join(f"S{s}" for s in winners)
                        keys.append((label, Target(f"award:{i}", label, pygame.Rect(0, 0, 0, 0), action="award",
                                                   ref=str(i), seats=tuple(winners)), theme.KEY_CONFIRM))
            elif 0 not in done:
                seats = tuple(sorted(state.winners))
                label = "Award to " + " ".join(f"S{s}" for s in seats)
                keys.append((label, Target("award:0", label, pygame.Rect(0, 0, 0, 0), action="award", ref="0",
                                           seats=seats), theme.KEY_CONFIRM))
        else:
            check = None
            if state.to_act is not None and state.phase in BETTING_PHASES:
                check = Target("check", f"Check S{state.to_act}", pygame.Rect(0, 0, 0, 0), action="check",
                               seat=state.to_act)
            keys.append((check.label if check else "Check", check, theme.KEY_CONFIRM))
            keys.append(("Exposed", Target("exposed", "Exposed card", pygame.Rect(0, 0, 0, 0), action="exposed")
                         if in_hand else None, theme.KEY))
            keys.append(("Misdeal", Target("misdeal", "Misdeal", pygame.Rect(0, 0, 0, 0), ui="confirm:misdeal")
                         if in_hand else None, theme.KEY_DANGER))
        keys.append(("Call floor", Target("call-floor", "Call floor", pygame.Rect(0, 0, 0, 0), action="call-floor",
                                          ref=frame.banner.id if frame.banner else None), theme.KEY))
        new_hand = Target("new-hand", "New hand", pygame.Rect(0, 0, 0, 0),
                          **({"ui": "confirm:new-hand"} if in_hand and state.phase != "showdown"
                             else {"action": "new-hand"}))
        keys.append(("New hand", new_hand, theme.KEY))
        keys.append(("History", Target("history", "History", pygame.Rect(0, 0, 0, 0), ui="history"), theme.KEY))
        self._layout_keys(frame, rect, keys)

    def _layout_keys(self, frame: Frame, rect: pygame.Rect,
                     keys: list[tuple[str, Target | None, theme.Colour]]) -> None:
        """Keys stacked down ``rect``, equal heights, never shorter than a finger."""
        pad = self.px(6)
        n = max(len(keys), 1)
        h = max(theme.MIN_TOUCH, (rect.height - pad * (n + 1)) // n)
        h = min(h, self.px(96))
        for i, (label, target, colour) in enumerate(keys):
            r = pygame.Rect(rect.left + pad, rect.top + pad + i * (h + pad), rect.width - 2 * pad, h)
            if target is not None:
                target.rect.update(r)
            self.key(frame, r, label, colour, target)

    # --- hand history ------------------------------------------------------------------------------

    def draw_history(self, frame: Frame, body: pygame.Rect, events: list[te.TableEvent], ui: UiState) -> None:
        records = hand_records(events, keep=8)
        pad = self.px(12)
        line_h = self.fonts["small"].get_linesize()
        rows: list[tuple[str, str, theme.Colour, object]] = []
        for rec in records:
            rows.append(("history-title", rec.title, theme.SEAT_TO_ACT, rec.hand))
            for line in reversed(rec.lines):  # newest first: the dispute is usually about the last action
                colour = theme.SEVERITY_COLOURS.get(line.severity, theme.TEXT) if line.severity else theme.TEXT
                rows.append(("history-line", line.text, colour, rec.hand))
        per_page = max(1, (body.height - 2 * pad) // line_h)
        pages = max(1, math.ceil(len(rows) / per_page))
        ui.history_page = min(ui.history_page, pages - 1)
        ui.history_pages = pages
        start = ui.history_page * per_page
        y = body.top + pad
        if not rows:
            self.text(frame, "Nothing has happened at this table yet.", "med", theme.TEXT_DIM, kind="history-empty",
                      center=body.center)
        for kind, text, colour, ref in rows[start:start + per_page]:
            font = "small"
            indent = 0 if kind == "history-title" else pad * 2
            self.text(frame, self.fit(text, font, body.width - 2 * pad - indent), font, colour, kind=kind, ref=ref,
                      topleft=(body.left + pad + indent, y))
            y += line_h
        self.text(frame, f"page {ui.history_page + 1}/{pages}", "tiny", theme.TEXT_DIM, kind="history-page",
                  bottomright=(body.right - pad, body.bottom - pad // 2))


def _stadium_point(s: float, cx: float, cy: float, straight: float, r: float) -> tuple[float, float, float, float]:
    """Point at arc length ``s`` clockwise from the bottom centre of a stadium, and the unit vector inward."""
    half_turn = math.pi * r
    if s <= straight:                                    # bottom, centre to the left end
        return cx - s, cy + r, 0.0, -1.0
    s -= straight
    if s <= half_turn:                                   # left end, bottom to top
        a = s / r
        return cx - straight - r * math.sin(a), cy + r * math.cos(a), math.sin(a), -math.cos(a)
    s -= half_turn
    if s <= 2 * straight:                                # top, left to right
        return cx - straight + s, cy - r, 0.0, 1.0
    s -= 2 * straight
    if s <= half_turn:                                   # right end, top to bottom
        a = s / r
        return cx + straight + r * math.sin(a), cy - r * math.cos(a), -math.sin(a), math.cos(a)
    s -= half_turn
    return cx + straight - s, cy + r, 0.0, -1.0          # bottom, right end to the centre


def _bet(state: TableState, seat: int) -> int:
    return next((v.bet for v in state.seats if v.seat == seat), 0)
