"""The chip race on the dealer's screen (Tournaments 8a-8d), between hands at a tournament table: a bar that
walks the dealer through it. First it asks for each player's odd chips in their bet zone and one card per
odd chip, face up, clockwise from seat 1; as the sensors read them it lists, per seat, the odd chips and the
race cards; the key under it (the ``chip-race`` tap) has the engine check the deal. Once the deal is right the
bar shows what each seat wins and the same key confirms the awards (the stacks change, the race is over).
A wrong deal is a finding in the banner, as every ruling is. Race cards are dealt face up: no hole card here.

The pure half (``race_title``, ``race_lines``, ``race_key``) decides the words and the key; ``RacePainter``
draws them in the bar's place under the clock strip (the floor's instruction bar, when one is open, comes
first: the race waits for the moves).
"""

from __future__ import annotations

import pygame

from ...engine.state import RaceView
from . import theme
from .canvas import Canvas, Drawn, Frame
from .model import KeySpec

RACE_BAR: theme.Colour = (90, 60, 20)       # brown: the table's own chores between hands, nothing wrong
RACE_ROWS = 2                               # the bar's height in key rows: a title, the seats, one key


def chip(value: int, colour: str) -> str:
    """``5 (red)``: the chip as the dealer picks it up."""
    return f"{value:,} ({colour})" if colour else f"{value:,}"


def race_title(view: RaceView) -> str:
    return f"CHIP RACE  {chip(view.old_value, view.old_colour)} off, for {chip(view.new_value, view.new_colour)}"


def race_step(view: RaceView) -> str:
    """What the dealer does now."""
    if view.won is not None:
        return "Pay what each seat won, take the odd chips off, confirm."
    if not view.odd:
        return "Odd chips into each player's bet zone, then a card per chip."
    dealt = sum(len(c) for _, c in view.cards)
    chips = sum(n for _, n in view.odd)
    if dealt < chips:
        return f"A card per odd chip, face up, from seat 1: {dealt} of {chips}."
    return "Every card is dealt: check the deal."


def race_lines(view: RaceView) -> list[str]:
    """One entry per seat racing: its odd chips, its race cards as read, and once the deal checked out what it
    wins (``S3  2 x 5: 2c 7h -> 1 x 25``)."""
    cards = dict(view.cards)
    won = dict(view.won) if view.won is not None else None
    out = []
    for seat, n in view.odd:
        line = f"S{seat}  {n} x {view.old_value:,}: " + (" ".join(cards.get(seat, ())) or "no card yet")
        if won is not None:
            line += f" -> {won[seat]} x {view.new_value:,}" if won.get(seat) else " -> nothing"
        out.append(line)
    return out


def race_key(view: RaceView) -> KeySpec:
    """The one key: check the deal, then confirm the awards (both the ``chip-race`` tap)."""
    if view.won is not None:
        return KeySpec("Confirm race awards", theme.KEY_CONFIRM, "chip-race", name="Confirm the chip race awards",
                       action="chip-race")
    ready = bool(view.odd) and sum(len(c) for _, c in view.cards) >= sum(n for _, n in view.odd)
    return KeySpec("Check race deal", theme.KEY_CONFIRM if ready else theme.KEY, "chip-race",
                   name="Check the chip race deal", action="chip-race")


class RacePainter:
    """Draws the race bar (``draw_race``)."""

    def __init__(self, canvas: Canvas) -> None:
        self.canvas = canvas


    def draw_race(self, frame: Frame, rect: pygame.Rect, view: RaceView) -> None:
        self.canvas.layer(frame, ("race", tuple(rect), view), rect, lambda f, r: self._draw_race(f, r, view),
                          keyed=False)

    def _draw_race(self, frame: Frame, rect: pygame.Rect, view: RaceView) -> None:
        pad = self.canvas.px(8)
        pygame.draw.rect(frame.surface, RACE_BAR, rect)
        frame.drawn.append(Drawn("race", race_title(view), rect.copy(), view.won is not None))
        key_w = max(2 * theme.MIN_TOUCH, self.canvas.px(132))
        text_w = rect.width - 3 * pad - key_w
        title = race_title(view)
        font = "med" if self.canvas.text_size(title, "med")[0] <= text_w else "small"
        y = self.canvas.text(frame, self.canvas.fit(title, font, text_w), font, theme.WHITE, kind="race-title",
                      topleft=(rect.left + pad, rect.top + pad // 2)).bottom
        y = self.canvas.text(frame, self.canvas.fit(race_step(view), "small", text_w), "small", theme.SEAT_TO_ACT,
                             kind="race-step",
                      topleft=(rect.left + pad, y)).bottom
        line_h = self.canvas.fonts["small"].get_linesize()
        room = max(1, (rect.bottom - y) // line_h)
        for line in self._pack(race_lines(view), "small", text_w, room):
            y = self.canvas.text(frame, line, "small", theme.TEXT, kind="race-line", topleft=(rect.left + pad,
                                                                                              y)).bottom
        key_h = max(theme.MIN_TOUCH, rect.height - 2 * pad)
        self.canvas.spec_key(frame, pygame.Rect(rect.right - pad - key_w, rect.top + pad, key_w, key_h), race_key(view))

    def _pack(self, entries: list[str], font: str, width: int, max_lines: int) -> list[str]:
        """The seats side by side, as many to a line as fit, never one cut in two: a nine-seat race still fits;
        past the last line, how many more."""
        lines: list[list[str]] = []
        for entry in entries:
            if lines and self.canvas.text_size("   ".join([*lines[-1], entry]), font)[0] <= width:
                lines[-1].append(entry)
            else:
                lines.append([entry])
        if len(lines) > max_lines:
            more = len(entries) - sum(len(line) for line in lines[:max_lines - 1])
            lines = lines[:max_lines - 1] + [[f"... {more} more seats"]]
        return [self.canvas.fit("   ".join(line), font, width) for line in lines]
