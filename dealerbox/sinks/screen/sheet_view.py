"""The seat sheet's painter: the keypad for a buy-in or rebuy, an occupied seat's menu, the leave prompt.
What the sheet is doing (``SeatSheet``) and when it closes are the screen controller's business."""

from __future__ import annotations

import pygame

from ...engine.state import SeatView, TableState
from . import theme
from .canvas import Canvas, Drawn, Frame, Target
from .model import leave_prompt, seat_in_play, seat_menu_keys
from .sheet import KEYPAD_MODES, SeatSheet


class SheetPainter:
    """Draws the open seat sheet over the middle of the table (``draw_sheet``)."""

    def __init__(self, canvas: Canvas) -> None:
        self.canvas = canvas


    def sheet_rect(self, body: pygame.Rect, content_h: int) -> pygame.Rect:
        """The sheet over the middle of the table, as tall as its content; banner and key column stay clear."""
        pad = self.canvas.px(8)
        rect = body.inflate(-2 * pad, -2 * pad)
        rect.width, rect.height = min(rect.width, self.canvas.px(600)), min(rect.height, content_h)
        rect.center = body.center
        return rect

    def draw_sheet(self, frame: Frame, body: pygame.Rect, state: TableState, sheet: SeatSheet) -> None:
        # Under the sheet the seats are not keys: a tap beside a sheet key must not open another seat.
        frame.targets[:] = [t for t in frame.targets if t.ui != "seat"]
        view = next(v for v in state.seats if v.seat == sheet.seat)
        pad, gap = self.canvas.px(12), self.canvas.px(8)
        width = min(body.width - 2 * self.canvas.px(8), self.canvas.px(600)) - 2 * pad
        if sheet.mode in KEYPAD_MODES:
            content = 4 * self.canvas.px(64) + 3 * gap
        elif sheet.mode == "menu":
            content = 3 * self.canvas.px(72) + 2 * gap + \
                (self.canvas.fonts["small"].get_linesize() + gap if seat_in_play(state, view) else 0)
        else:
            lines = len(self.canvas.wrap(leave_prompt(view), "med", width, 3))
            content = lines * self.canvas.fonts["med"].get_linesize() + gap + self.canvas.px(72)
        rect = self.sheet_rect(body, 2 * pad + self.canvas.fonts["big"].get_linesize() + pad // 2 + content)
        # One piece per look of the sheet (each keystroke is a new look): open, it costs one blit a frame.
        key = ("sheet", tuple(rect), sheet.seat, sheet.mode, sheet.entry, sheet.fresh, sheet.prefill, sheet.maximum,
               view.stack, seat_in_play(state, view))
        self.canvas.layer(frame, key, rect, lambda f, r: self._draw_sheet(f, r, state, view, sheet), keyed=False)

    def _draw_sheet(self, frame: Frame, rect: pygame.Rect, state: TableState, view: SeatView,
                    sheet: SeatSheet) -> None:
        pad = self.canvas.px(12)
        rim = self.canvas.px(3)
        # Square corners: the piece then covers its rectangle whole and blits without a colour key.
        pygame.draw.rect(frame.surface, theme.WHITE, rect)
        pygame.draw.rect(frame.surface, theme.BAR, rect.inflate(-2 * rim, -2 * rim))
        frame.drawn.append(Drawn("sheet", sheet.mode, rect.copy(), sheet.seat))
        inner = rect.inflate(-2 * pad, -2 * pad)
        title = {"sit": f"Seat {sheet.seat}: seat a player", "menu": f"Seat {sheet.seat}",
                 "rebuy": f"Seat {sheet.seat}: rebuy", "leave": f"Seat {sheet.seat}: leave the table?",
                 "moved-in": f"Seat {sheet.seat}: the moved player's chips"}[sheet.mode]
        if sheet.occupied:
            title += f"   stack {view.stack:,}"
        r = self.canvas.text(frame, self.canvas.fit(title, "big", inner.width), "big", theme.TEXT, kind="sheet-title",
                      ref=sheet.seat, topleft=inner.topleft)
        area = pygame.Rect(inner.left, r.bottom + pad // 2, inner.width, inner.bottom - r.bottom - pad // 2)
        if sheet.mode in KEYPAD_MODES:
            self._draw_keypad(frame, area, sheet)
        elif sheet.mode == "menu":
            self._draw_seat_menu(frame, area, state, view, sheet)
        else:
            self._draw_leave(frame, area, view, sheet)

    def digit_grid(self, frame: Frame, area: pygame.Rect, prefix: str) -> tuple[int, int]:
        """A phone's digit keys in the left half of ``area`` (``<prefix>:digit:N``, ``:clear``, ``:back``): the
        seat sheet's keypad and the sign-in PIN pad share it. Returns the keys' (width, height)."""
        gap = self.canvas.px(8)
        key_h = max(theme.MIN_TOUCH, min(self.canvas.px(64), (area.height - 3 * gap) // 4))
        key_w = max(theme.MIN_TOUCH, min(self.canvas.px(84), (area.width // 2 - 2 * gap) // 3))
        for i, label in enumerate(("1", "2", "3", "4", "5", "6", "7", "8", "9", "Clear", "0", "Del")):
            r = pygame.Rect(area.left + (i % 3) * (key_w + gap), area.top + (i // 3) * (key_h + gap), key_w, key_h)
            ui = {"Clear": f"{prefix}:clear", "Del": f"{prefix}:back"}.get(label, f"{prefix}:digit:{label}")
            self.canvas.key(frame, r, label, theme.KEY, Target(ui, label, r, ui=ui))
        return key_w, key_h

    def _draw_keypad(self, frame: Frame, area: pygame.Rect, sheet: SeatSheet) -> None:
        """Digits on the left (phone layout), the amount and OK / Cancel on the right."""
        gap = self.canvas.px(8)
        key_w, key_h = self.digit_grid(frame, area, "sheet")
        col = pygame.Rect(area.left + 3 * key_w + 4 * gap, area.top, 0, area.height)
        col.width = area.right - col.left
        amount, message = sheet.amount()
        field = pygame.Rect(col.left, col.top, col.width, self.canvas.fonts["huge"].get_linesize() + self.canvas.px(12))
        pygame.draw.rect(frame.surface, theme.BACKGROUND, field, border_radius=self.canvas.px(6))
        pygame.draw.rect(frame.surface, theme.WHITE if amount else theme.HEALTH_WARN, field, width=self.canvas.px(2),
                         border_radius=self.canvas.px(6))
        shown = f"{int(sheet.entry):,}" if sheet.entry else ""
        self.canvas.text(frame, shown, "huge", theme.WHITE, kind="sheet-amount", ref=amount, center=field.center)
        hint = message if amount is None else \
            (f"buy-in {sheet.prefill:,}: type to change" if sheet.fresh else message)
        self.canvas.text(frame, self.canvas.fit(hint, "small", col.width), "small",
                  theme.HEALTH_WARN if amount is None else theme.TEXT_DIM, kind="sheet-hint", ref=sheet.seat,
                  midtop=(col.centerx, field.bottom + self.canvas.px(4)))
        cancel = pygame.Rect(col.left, area.top + 3 * (key_h + gap), col.width, key_h)
        ok = cancel.move(0, -(key_h + gap))
        verb = "Add" if sheet.mode == "rebuy" else "Seat"
        ok_target = None
        if amount is not None:
            ok_target = Target("sheet:ok", f"{verb} {amount:,}", ok, action=sheet.mode, seat=sheet.seat, amount=amount)
        self.canvas.key(frame, ok, ok_target.label if ok_target else "OK", theme.KEY_CONFIRM, ok_target)
        self.canvas.key(frame, cancel, "Cancel", theme.KEY, Target("sheet:cancel", "Cancel", cancel, ui="sheet:cancel"))

    def _draw_seat_menu(self, frame: Frame, area: pygame.Rect, state: TableState, view: SeatView,
                        sheet: SeatSheet) -> None:
        gap = self.canvas.px(8)
        busy = seat_in_play(state, view)
        hint_h = self.canvas.fonts["small"].get_linesize() + gap if busy else 0
        key_h = max(theme.MIN_TOUCH, min(self.canvas.px(72), (area.height - hint_h - 2 * gap) // 3))
        key_w = (area.width - gap) // 2
        for i, spec in enumerate(seat_menu_keys(busy, sheet.seat, state.tournament)):
            r = pygame.Rect(area.left + (i % 2) * (key_w + gap), area.top + (i // 2) * (key_h + gap), key_w, key_h)
            self.canvas.spec_key(frame, r, spec)
        cancel = r   # the last key: the hint goes under it
        if busy:  # The Buy-in 2: chips are added between hands
            self.canvas.text(frame, self.canvas.fit("In this hand: rebuy or leave once it is over", "small",
                                                    area.width), "small",
                      theme.TEXT_DIM, kind="sheet-hint", ref=sheet.seat, topleft=(area.left, cancel.bottom + gap))

    def _draw_leave(self, frame: Frame, area: pygame.Rect, view: SeatView, sheet: SeatSheet) -> None:
        gap = self.canvas.px(8)
        y = area.top
        for line in self.canvas.wrap(leave_prompt(view), "med", area.width, 3):
            y = self.canvas.text(frame, line, "med", theme.TEXT, kind="sheet-prompt", ref=sheet.seat,
                          topleft=(area.left, y)).bottom
        key_h = max(theme.MIN_TOUCH, min(self.canvas.px(72), area.bottom - y - gap))
        key_w = (area.width - gap) // 2
        leave = pygame.Rect(area.left, area.bottom - key_h, key_w, key_h)
        cancel = leave.move(key_w + gap, 0)
        self.canvas.key(frame, leave, "Leave the table", theme.KEY_DANGER,
                 Target("sheet:leave-confirm", "Leave the table", leave, action="leave", seat=sheet.seat))
        self.canvas.key(frame, cancel, "Cancel", theme.KEY, Target("sheet:cancel", "Cancel", cancel, ui="sheet:cancel"))
