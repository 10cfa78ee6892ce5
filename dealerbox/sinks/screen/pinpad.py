"""Draws the sign-in pad (its state is ``pad.PinPad``) with the seat sheet's digit keys."""

from __future__ import annotations

import pygame

from . import theme
from .canvas import Canvas, Drawn, Frame, Target
from .pad import PinPad
from .sheet_view import SheetPainter


class PinPadPainter:
    """Draws the sign-in pad over the middle of the table (``draw_pinpad``), on the canvas it is given, with
    the seat sheet painter's digit keys and placing."""

    def __init__(self, canvas: Canvas, sheet: SheetPainter) -> None:
        self.canvas, self.sheet = canvas, sheet

    def draw_pinpad(self, frame: Frame, body: pygame.Rect, pad: PinPad) -> None:
        frame.targets[:] = [t for t in frame.targets if t.ui != "seat"]
        gap, margin = self.canvas.px(8), self.canvas.px(12)
        rect = self.sheet.sheet_rect(body, 2 * margin + self.canvas.fonts["big"].get_linesize() + margin // 2
                               + 4 * self.canvas.px(64) + 3 * gap)
        self.canvas.layer(frame, ("pinpad", tuple(rect), pad), rect, lambda f, r: self._draw_pinpad(f, r, pad),
                          keyed=False)

    def _draw_pinpad(self, frame: Frame, rect: pygame.Rect, pad: PinPad) -> None:
        margin, rim, gap = self.canvas.px(12), self.canvas.px(3), self.canvas.px(8)
        pygame.draw.rect(frame.surface, theme.WHITE, rect)
        pygame.draw.rect(frame.surface, theme.BAR, rect.inflate(-2 * rim, -2 * rim))
        frame.drawn.append(Drawn("pinpad", pad.step, rect.copy(), None))
        inner = rect.inflate(-2 * margin, -2 * margin)
        title = "Sign in: your dealer number" if pad.step == "dealer" else f"Dealer {pad.dealer}: your PIN"
        r = self.canvas.text(frame, self.canvas.fit(title, "big", inner.width), "big", theme.TEXT, kind="pinpad-title",
                      topleft=inner.topleft)
        area = pygame.Rect(inner.left, r.bottom + margin // 2, inner.width, inner.bottom - r.bottom - margin // 2)
        key_w, key_h = self.sheet.digit_grid(frame, area, "pin")
        col = pygame.Rect(area.left + 3 * key_w + 4 * gap, area.top, 0, area.height)
        col.width = area.right - col.left
        field = pygame.Rect(col.left, col.top, col.width, self.canvas.fonts["huge"].get_linesize() + self.canvas.px(12))
        pygame.draw.rect(frame.surface, theme.BACKGROUND, field, border_radius=self.canvas.px(6))
        pygame.draw.rect(frame.surface, theme.WHITE, field, width=self.canvas.px(2), border_radius=self.canvas.px(6))
        # the PIN is never drawn, only as many dots as digits
        shown = pad.dealer if pad.step == "dealer" else "\u2022" * len(pad.pin)
        self.canvas.text(frame, shown, "huge", theme.WHITE, kind="pinpad-entry", ref=pad.step, center=field.center)
        if pad.said:
            self.canvas.text(frame, self.canvas.fit(pad.said, "small", col.width), "small", theme.HEALTH_WARN,
                             kind="pinpad-said",
                      midtop=(col.centerx, field.bottom + self.canvas.px(4)))
        cancel = pygame.Rect(col.left, area.top + 3 * (key_h + gap), col.width, key_h)
        ok = cancel.move(0, -(key_h + gap))
        ready = bool(pad.dealer) if pad.step == "dealer" else bool(pad.pin)
        label = "Next" if pad.step == "dealer" else "Sign in"
        self.canvas.key(frame, ok, label, theme.KEY_CONFIRM, Target("pin:ok", label, ok,
                                                                    ui="pin:ok") if ready else None)
        self.canvas.key(frame, cancel, "Cancel", theme.KEY, Target("pin:cancel", "Cancel", cancel, ui="pin:cancel"))
