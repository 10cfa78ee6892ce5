"""The drawing primitives of the dealer's screen: fonts, text, cards, keys and cached pieces, each recording
what it drew (``Drawn``) and where a finger may land (``Target``) on the ``Frame``.

Everything here is about pixels and nothing about poker; the painters (table, sheet, banners) and the
``Renderer`` build on it.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import cast

import pygame

from ...engine.state import FindingView
from . import cards, theme
from .cache import LRU
from .layout import BASE, FrameLayout
from .model import KeySpec

def pixel_bytes(img: pygame.Surface) -> int:
    return img.get_pitch() * img.get_height()


# Transparent pixels of pre-drawn pieces (rounded corners, hollow slots); no theme colour is this.
COLORKEY = (255, 0, 254)
CARD_FONTS = 8   # card fonts kept (by size, least recently used out): a frame uses a few
# Text sizes, fits and wraps kept: the busiest of 935 frames over 1,500 simulated hands asked for 78, so 512 holds
# six such screens. Its misses over those hands were 9.3 % of lookups against 7.5 % at the old 2,048 and 6.1 %
# with no bound at all (7,288 different texts, mostly bets and stacks, each measured once), and it is full
# within the first hundred hands rather than still filling at hand 550 (docs/performance.md, "A flat terminal").
LAYOUT_KEPT = 512


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
    choice: str | None = None        # with "answer": the key of the answer tapped


@dataclass(slots=True)
class Frame:
    surface: pygame.Surface
    drawn: list[Drawn] = field(default_factory=list)
    targets: list[Target] = field(default_factory=list)
    banner: FindingView | None = None
    history_pages: int = 1           # pages of the hand history, when it was drawn
    layout: FrameLayout | None = None   # the regions the frame was laid out in (top bar, bars, table, keys)

    def texts(self, kind: str) -> list[str]:
        return [d.text for d in self.drawn if d.kind == kind]

    def find(self, kind: str, ref: object = None) -> list[Drawn]:
        return [d for d in self.drawn if d.kind == kind and (ref is None or d.ref == ref)]

    def target(self, key: str) -> Target | None:
        return next((t for t in self.targets if t.key == key), None)


class Canvas:
    """Draws at one size; fonts and geometry scale from the 800x480 design.

    Pieces are drawn once per look and kept in small LRUs with the facts they recorded: glyphs, text
    sizes, sprites (cards, chips, keys) and layers (top bar, seats, banner, sheet). ``target``: draw
    straight into this surface (the display), else into an offscreen one; pieces are made in the target's
    pixel format so blits need no conversion.
    """

    def __init__(self, size: tuple[int, int], target: pygame.Surface | None = None) -> None:
        pygame.font.init()
        self.size = size
        w, h = size
        self.s = s = min(w / BASE[0], h / BASE[1])
        self.fonts = {name: pygame.font.Font(None, max(12, round(px * s))) for name, px in
                      (("huge", 52), ("big", 40), ("med", 32), ("small", 26), ("tiny", 22))}
        # One font per card height, the few used lately: ~100 KiB each (the face and its glyphs, in SDL's memory),
        # and 720 simulated hands used 18 sizes, one more every few dozen hands. A card sprite's key holds its
        # font itself, not its id, so an evicted font's id is never taken for another one's.
        self.card_font_cache: LRU[pygame.font.Font] = LRU(CARD_FONTS)
        self.surface = target if target is not None else pygame.Surface(size)
        # Pixel caches are held to a budget in bytes as well as a count, one screenful each: a count alone
        # let them reach ~22 MB at 800x480 (55 MB at 1280x800) on a terminal budgeted 80 MB in all.
        frame_bytes = 4 * w * h
        self._text_cache: LRU[pygame.Surface] = LRU(768, frame_bytes, pixel_bytes)   # glyphs: (text, font, colour)
        self._layout_cache: LRU[object] = LRU(LAYOUT_KEPT)     # fits, wraps and text sizes
        self._sprites: LRU[pygame.Surface] = LRU(256, frame_bytes, pixel_bytes)      # cards, slots, chips, keys
        self._layers: LRU[tuple] = LRU(48, frame_bytes, lambda hit: pixel_bytes(hit[0]))  # pixels + facts

    def cache_bytes(self) -> int:
        """The pixels the caches hold now (the soak test and the memory bench read it)."""
        return self._text_cache.weight + self._sprites.weight + self._layers.weight

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
        return cast(tuple[int, int], size)  # the cache holds a size under every ("size", ...) key

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
            assert font is not None  # every face-up caller sizes the card's font (canvas.cards, table)
            key = ("face", rect.size, name, font, outline, corner)
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
        cached = self._layout_cache.get(key)
        if cached is not None:
            return cast(str, cached)  # the cache holds a string under every ("fit", ...) key
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
        cached = self._layout_cache.get(key)
        if cached is not None:
            return cast(list[str], cached)  # the cache holds a list of lines under every ("wrap", ...) key
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
        lines = [self.fit(line, font, width) for line in lines]
        self._layout_cache.put(key, lines)
        return lines

    def fits(self, text: str, font: str, width: int, max_lines: int) -> bool:
        """True when ``text`` wraps into ``max_lines`` lines of ``width`` px without cutting a word."""
        lines = self.wrap(text, font, width, max_lines)
        return " ".join(lines) == " ".join(text.split())

    def card_font(self, height: float) -> pygame.font.Font:
        size = max(12, int(height * 0.62))
        f = self.card_font_cache.get(size)
        if f is None:
            f = self.card_font_cache.put(size, pygame.font.Font(None, size))
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

    def draw_fan(self, frame: Frame, area: pygame.Rect, names: list[str], face_up: bool, kind: str,
                 ref: object, outlines: dict[str, theme.Colour] | None = None) -> None:
        """Cards side by side in ``area``, overlapping when they do not fit (four or five Omaha cards); face up,
        never so much that a card hides the corner (rank and suit) of the one under it: smaller cards instead."""
        if not names:
            return
        ch = area.height
        cw = min(round(ch * 0.72), area.width)
        n = len(names)
        if face_up and n > 1 and area.width < cw * (1 + 0.42 * (n - 1)):
            cw = max(1, int(area.width / (1 + 0.42 * (n - 1))))
            ch = min(ch, round(cw / 0.72))
        step = min(cw + self.px(3), (area.width - cw) / max(1, n - 1)) if n > 1 else 0
        total = cw + step * (n - 1)
        x0 = area.centerx - total / 2
        font = self.card_font(ch if step >= cw else ch * 0.8)
        top = area.top + (area.height - ch) // 2
        for i, name in enumerate(names):
            rect = pygame.Rect(round(x0 + i * step), top, cw, ch)
            if face_up:
                self.card(frame.surface, rect, name, True, font, (outlines or {}).get(name), corner=step < cw * 0.9)
                frame.drawn.append(Drawn(kind, name, rect, ref))
            else:
                self.card(frame.surface, rect, "", False)
                frame.drawn.append(Drawn(kind, "", rect, ref))

    def line(self, frame: Frame, text: str, kind: str, colour: theme.Colour, span: tuple[int, int],
             top: int | None = None, bottom: int | None = None, ref: object = None) -> None:
        """One centred line in the x ``span``: small font, tiny if that is what fits, cut as a last resort."""
        width = span[1] - span[0]
        font = "small" if self.text_size(text, "small")[0] <= width else "tiny"
        anchor = {"midtop": ((span[0] + span[1]) // 2, top)} if top is not None else \
            {"midbottom": ((span[0] + span[1]) // 2, bottom)}
        self.text(frame, self.fit(text, font, width), font, colour, kind=kind, ref=ref, **anchor)

    def key_target(self, spec: KeySpec, rect: pygame.Rect) -> Target | None:
        """The touch target a key description makes at ``rect``; None for a disabled key."""
        if spec.key is None:
            return None
        return Target(spec.key, spec.name or spec.label, rect, action=spec.action, seat=spec.seat, ref=spec.ref,
                      seats=spec.seats, ui=spec.ui, amount=spec.amount, choice=spec.choice)

    def spec_key(self, frame: Frame, rect: pygame.Rect, spec: KeySpec) -> None:
        self.key(frame, rect, spec.label, spec.colour, self.key_target(spec, rect))

    def keys_down(self, frame: Frame, rect: pygame.Rect, keys: list[KeySpec]) -> None:
        """Keys stacked down ``rect``, equal heights, never shorter than a finger."""
        pad = self.px(6)
        n = max(len(keys), 1)
        h = max(theme.MIN_TOUCH, (rect.height - pad * (n + 1)) // n)
        h = min(h, self.px(96))
        for i, spec in enumerate(keys):
            self.spec_key(frame, pygame.Rect(rect.left + pad, rect.top + pad + i * (h + pad), rect.width - 2 * pad, h),
                          spec)
