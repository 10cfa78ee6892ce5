"""Draws one frame of the dealer's screen from a TableState, a health view, recent table events and the
screen's UI state.

The renderer decides nothing about poker and nothing about the screen's own state: it shows what the
snapshot and the view model (``model``) say, laid out by ``layout``, with the primitives of ``canvas``.
Each frame also returns what it drew (``Drawn``: kind, text, rectangle) and where the touch targets are
(``Target``), so tests and the mouse handler work from the same facts the pixels came from.

Layout, top to bottom: a bar (hand, phase, game; health corner), a health alert strip when something is
wrong, the dealer's question when the engine asks one, the findings banner when one is open, the table
(oval, seats clockwise from the dealer's left, board, pot); a column of action keys down the right.
"""

from __future__ import annotations

import math

import pygame

from ...engine import events as te
from ...engine.state import TableState
from . import theme
from .banner import BannerPainter, banner_keys
from .cache import LRU
from .canvas import Canvas, Drawn, Frame, Target, pixel_bytes
from .health import HealthView
from .history import hand_records
from .layout import frame_layout
from .middle import MiddlePainter
from .model import (IN_HAND_PHASES, UiState, phase_name, confirm_keys, history_keys, open_findings,
                    seat_in_play, sign_keys, table_keys, who_line)
from .pinpad import PinPadPainter
from .sheet_view import SheetPainter
from .table import TablePainter
from .race import RACE_ROWS, RacePainter
from .tournament import TournamentPainter, key_rows

__all__ = ["Renderer", "Frame", "Drawn", "Target", "UiState", "open_findings"]


class Renderer:
    """Draws whole frames at one size, from pre-drawn pieces: the empty table and bars (one blit), and the
    top bar, each seat, the banners, keys, cards, chips and text glyphs, each drawn once per look. Owns the
    canvas (``target``: draw straight into the display) and hands it to each painter, wired here."""

    def __init__(self, size: tuple[int, int], target: pygame.Surface | None = None) -> None:
        self.canvas = canvas = Canvas(size, target)
        self.table = TablePainter(canvas, MiddlePainter(canvas))
        self.sheet = SheetPainter(canvas)
        self.pinpad = PinPadPainter(canvas, self.sheet)
        self.banner = BannerPainter(canvas)
        self.tournament = TournamentPainter(canvas)
        self.race = RacePainter(canvas)
        self._bases: LRU[pygame.Surface] = LRU(2)   # whole-frame backgrounds: with and without a banner

    @property
    def size(self) -> tuple[int, int]:
        return self.canvas.size

    @property
    def fonts(self) -> dict[str, pygame.font.Font]:
        return self.canvas.fonts

    def cache_bytes(self) -> int:
        """The pixels the caches hold now (the soak test and the memory bench read it)."""
        return self.canvas.cache_bytes() + sum(pixel_bytes(img) for img in self._bases.values())

    def render(self, state: TableState, health: HealthView, events: list[te.TableEvent], ui: UiState,
               now: float = 0.0) -> Frame:
        """One frame. ``ui`` is read, never changed: what a tap or a new finding does to it is the screen's
        business; ``frame.history_pages`` says how many history pages there were. ``now``: the source
        clock, for a tournament clock counting down."""
        frame = Frame(self.canvas.surface)
        findings = open_findings(state, events)
        frame.banner = findings[0] if findings else None
        inst = state.instruction
        race = state.race if inst is None else None     # the floor's moves first: the race waits for them
        at = frame_layout(self.canvas.size, self.canvas.px, health.level != "ok", frame.banner is not None,
                          state.question is not None, state.tournament is not None,
                          (1 if inst.broken else key_rows(inst)) if inst is not None else
                          RACE_ROWS if race is not None else 0,
                          banner_keys(frame.banner, state.phase in IN_HAND_PHASES) if frame.banner else 1)
        frame.layout = at
        felt = None if ui.history else self.table.seat_geometry(at.body, len(state.seats) or 9)[2]
        base = self.base(at.top, at.keys, at.body, felt)
        # The top bar, alert strip and banners paint their whole rectangles, so the base goes only under the
        # table and the keys: a blit costs by the pixel, and these are the frame's biggest ones.
        frame.surface.blit(base, at.keys, at.keys)
        frame.surface.blit(base, at.body, at.body)

        self.draw_top(frame, at.top, state, health, who_line(state, events))
        if at.alert:
            self.draw_alert(frame, at.alert, health)
        if ui.history:
            frame.history_pages = self.draw_history(frame, at.body, events, ui.history_page, health.upkeep)
        else:
            self.table.draw_table(frame, at.body, state, findings, events)
            if ui.sheet is not None:
                self.sheet.draw_sheet(frame, at.body, state, ui.sheet)
            elif ui.pad is not None:
                self.pinpad.draw_pinpad(frame, at.body, ui.pad)
        if at.clock and state.tournament is not None:
            self.tournament.draw_clock(frame, at.clock, state.tournament, now)
        if at.instruction and inst is not None:
            in_play = frozenset(s.seat for s in state.seats if seat_in_play(state, s))
            self.tournament.draw_instruction(frame, at.instruction, inst, in_play)
        elif at.instruction and race is not None:
            self.race.draw_race(frame, at.instruction, race)
        if at.question and state.question is not None:
            self.banner.draw_question(frame, at.question, state.question)
        if at.banner and frame.banner is not None:  # at.banner is laid out only when frame.banner is set
            # "+N more" counts every open call, not only those the snapshot lists (engine/state.py, OPEN_LISTED)
            more = max(len(findings), state.findings_open) - 1
            self.banner.draw_banner(frame, at.banner, frame.banner, more, state.phase in IN_HAND_PHASES)
        self.draw_keys(frame, at.keys, state, events, ui)
        return frame

    def base(self, top: pygame.Rect, keys: pygame.Rect, body: pygame.Rect, felt: pygame.Rect | None) -> pygame.Surface:
        """Background, bars and the empty table for one layout: one blit instead of a fill and the two big
        rounded rectangles of the felt, the slowest things on the frame to draw."""
        key = (tuple(top), tuple(keys), tuple(body), tuple(felt) if felt else None)
        img = self._bases.get(key)
        if img is None:
            img = self.canvas.image(self.canvas.size, keyed=False)
            img.fill(theme.BACKGROUND)
            pygame.draw.rect(img, theme.BAR, top)
            pygame.draw.rect(img, theme.BAR, keys)
            if felt is not None:
                table = img.subsurface(body)  # drawn clipped to the body, as the table always was
                rim = felt.inflate(self.canvas.px(16), self.canvas.px(16)).move(-body.left, -body.top)
                pygame.draw.rect(table, theme.FELT_EDGE, rim, border_radius=rim.height // 2)
                pygame.draw.rect(table, theme.FELT, felt.move(-body.left, -body.top), border_radius=felt.height // 2)
            self._bases.put(key, img)
        return img

    def draw_top(self, frame: Frame, rect: pygame.Rect, state: TableState, health: HealthView, who: str = "") -> None:
        key = ("top", tuple(rect), state.hand, phase_name(state), state.game, state.deck_id, state.house.practices,
               health.board, health.board_level, health.floor, health.floor_level, who)
        self.canvas.layer(frame, key, rect, lambda f, r: self._draw_top(f, r, state, health, who), keyed=False)

    def _draw_top(self, frame: Frame, rect: pygame.Rect, state: TableState, health: HealthView, who: str) -> None:
        pygame.draw.rect(frame.surface, theme.BAR, rect)
        pad = self.canvas.px(12)
        hand = f"Hand {state.hand}" if state.hand is not None else "No hand yet"
        r = self.canvas.text(frame, hand, "big", theme.TEXT, kind="hand", ref=state.hand, midleft=(pad, rect.centery))
        r = self.canvas.text(frame, phase_name(state), "big", theme.SEAT_TO_ACT, kind="phase",
                      ref=state.phase, midleft=(r.right + pad * 2, rect.centery))
        game = state.game.upper() + (f"  deck {state.deck_id}" if state.deck_id else "") \
            + (f"  {state.house.practices}" if state.house.practices else "")
        left = r.right + pad * 2
        # Health corner: two dots and a few characters, right-aligned; the alert strip says more.
        x = rect.right - pad
        for name, value, level in (("FLOOR", health.floor, health.floor_level),
                                   ("BOARD", health.board, health.board_level)):
            colour = {"ok": theme.HEALTH_OK, "warn": theme.HEALTH_WARN, "bad": theme.HEALTH_BAD,
                      "off": theme.HEALTH_OFF}[level]
            r = self.canvas.text(frame, value, "tiny", theme.TEXT_DIM, kind="health", ref=name.lower(),
                          midright=(x, rect.centery))
            radius = self.canvas.px(7)
            centre = (r.left - radius - self.canvas.px(4), rect.centery)
            pygame.draw.circle(frame.surface, colour, centre, radius)
            r = self.canvas.text(frame, name, "tiny", theme.TEXT_DIM,
                                 midright=(centre[0] - radius - self.canvas.px(4), rect.centery))
            x = r.left - pad
        if not who:
            if game.strip():
                self.canvas.text(frame, game, "small", theme.TEXT_DIM, kind="game", midleft=(left, rect.centery))
            return
        # Who is dealing and who answered the last floor call: under the game, in the room the bar has left.
        room = max(self.canvas.px(40), x - left)
        quarter = rect.height // 4
        if game.strip():
            self.canvas.text(frame, self.canvas.fit(game, "tiny", room), "tiny", theme.TEXT_DIM, kind="game",
                      midleft=(left, rect.top + quarter + self.canvas.px(1)))
        self.canvas.text(frame, self.canvas.fit(who, "tiny", room), "tiny", theme.TEXT, kind="who",
                  midleft=(left, rect.bottom - quarter - self.canvas.px(1)))

    def draw_alert(self, frame: Frame, rect: pygame.Rect, health: HealthView) -> None:
        colour = theme.HEALTH_BAD if health.level == "bad" else theme.HEALTH_WARN
        text_colour = theme.WHITE if health.level == "bad" else theme.BLACK
        pygame.draw.rect(frame.surface, colour, rect)
        width = rect.width - self.canvas.px(24)
        font = "small" if self.canvas.text_size(health.message, "small")[0] <= width else "tiny"
        self.canvas.text(frame, self.canvas.fit(health.message, font, width), font, text_colour,
                  kind="health-alert", ref=health.level, midleft=(self.canvas.px(12), rect.centery))

    def draw_keys(self, frame: Frame, rect: pygame.Rect, state: TableState, events: list[te.TableEvent],
                  ui: UiState) -> None:
        # The column's bar is in the base layer.
        if ui.confirm:
            pad = self.canvas.px(8)
            prompt, keys = confirm_keys(ui.confirm)
            y = rect.top + pad
            for line in self.canvas.wrap(prompt, "small", rect.width - 2 * pad, 5):
                y = self.canvas.text(frame, line, "small", theme.TEXT, kind="prompt", topleft=(rect.left + pad,
                                                                                               y)).bottom
            self.canvas.keys_down(frame, pygame.Rect(rect.left, y + pad, rect.width, rect.bottom - y - pad), keys)
        elif ui.history:
            self.canvas.keys_down(frame, rect, history_keys(min(ui.history_page, frame.history_pages - 1),
                                                     frame.history_pages))
        else:
            self.canvas.keys_down(frame, rect, table_keys(state, events, frame.banner) + sign_keys(state, ui))

    def draw_history(self, frame: Frame, body: pygame.Rect, events: list[te.TableEvent], page: int,
                     upkeep: str = "") -> int:
        """The hand history's ``page`` (clamped to the last); returns how many pages there are."""
        records = hand_records(events, keep=8)
        pad = self.canvas.px(12)
        line_h = self.canvas.fonts["small"].get_linesize()
        rows: list[tuple[str, str, theme.Colour, object]] = []
        for rec in records:
            rows.append(("history-title", rec.title, theme.SEAT_TO_ACT, rec.hand))
            for line in reversed(rec.lines):  # newest first: the dispute is usually about the last action
                colour = theme.SEVERITY_COLOURS.get(line.severity, theme.TEXT) if line.severity else theme.TEXT
                rows.append(("history-line", line.text, colour, rec.hand))
        # With the upkeep line under the history, one row fewer: the line must not sit on the last row.
        per_page = max(1, (body.height - 2 * pad) // line_h - (1 if upkeep else 0))
        pages = max(1, math.ceil(len(rows) / per_page))
        page = min(page, pages - 1)
        start = page * per_page
        y = body.top + pad
        if not rows:
            self.canvas.text(frame, "Nothing has happened at this table yet.", "med", theme.TEXT_DIM,
                             kind="history-empty",
                      center=body.center)
        for kind, text, colour, ref in rows[start:start + per_page]:
            font = "small"
            indent = 0 if kind == "history-title" else pad * 2
            self.canvas.text(frame, self.canvas.fit(text, font, body.width - 2 * pad - indent), font, colour,
                             kind=kind, ref=ref,
                      topleft=(body.left + pad + indent, y))
            y += line_h
        r = self.canvas.text(frame, f"page {page + 1}/{pages}", "tiny", theme.TEXT_DIM, kind="history-page",
                      bottomright=(body.right - pad, body.bottom - pad // 2))
        if upkeep:  # the terminal's own figures, where the dealer (or a technician) looks back
            self.canvas.text(frame, self.canvas.fit(upkeep, "tiny", r.left - body.left - 3 * pad), "tiny",
                             theme.TEXT_DIM,
                      kind="upkeep", bottomleft=(body.left + pad, body.bottom - pad // 2))
        return pages
