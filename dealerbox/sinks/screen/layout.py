"""Where things go on the dealer's screen, per resolution: the frame's regions and the seats round the
table. Sizes are given in the 800x480 design's pixels and scaled by ``px``; every key stays at least
``theme.MIN_TOUCH`` px.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass
from collections.abc import Callable

import pygame

from . import theme

BASE = (800, 480)
# Seat boxes, the unit vector from each box toward the middle, and the felt.
Geometry = tuple[dict[int, pygame.Rect], dict[int, tuple[float, float]], pygame.Rect]


@dataclass(frozen=True, slots=True)
class FrameLayout:
    """The frame's regions, top to bottom down the left, a key column down the right."""
    top: pygame.Rect
    keys: pygame.Rect
    alert: pygame.Rect | None
    banner: pygame.Rect | None
    question: pygame.Rect | None
    body: pygame.Rect
    clock: pygame.Rect | None = None          # a tournament table's clock strip
    instruction: pygame.Rect | None = None    # the floor's instruction bar (move, break, redraw)


def frame_layout(size: tuple[int, int], px: Callable[[float], int], alert: bool, banner: bool,
                 question: bool = False, clock: bool = False, instruction_rows: int = 0,
                 banner_keys: int = 1) -> FrameLayout:
    """A column of keys down the right: on a wide screen height is what the table is short of. The bars
    that are up (health alert, findings banner, the dealer's question) take their height off the table; when
    the others leave the table shorter than a cash table's under a findings banner, the banner gives up its
    last lines of ruling (down to its keys' height, ``banner_keys`` of them stacked) to keep the seats and the
    middle apart."""
    w, h = size
    top = pygame.Rect(0, 0, w, px(44))
    keys_w = max(2 * theme.MIN_TOUCH, px(136))
    keys = pygame.Rect(w - keys_w, top.bottom, keys_w, h - top.bottom)
    left_w = keys.left
    y = top.bottom
    alert_rect = banner_rect = question_rect = clock_rect = instruction_rect = None
    if alert:
        alert_rect = pygame.Rect(0, y, left_w, px(34))
        y = alert_rect.bottom
    if clock:
        clock_rect = pygame.Rect(0, y, left_w, px(30))
        y = clock_rect.bottom
    if instruction_rows:
        rows = instruction_rows
        instruction_rect = pygame.Rect(0, y, left_w, max(rows * theme.MIN_TOUCH + (rows + 1) * px(8),
                                                         px(36 + 36 * rows)))
        y = instruction_rect.bottom
    if question:
        question_rect = pygame.Rect(0, y, left_w, max(theme.MIN_TOUCH + px(48), px(104)))
        y = question_rect.bottom
    if banner:
        full = max(2 * theme.MIN_TOUCH + 3 * px(6), px(116))
        least = min(full, max(banner_keys * theme.MIN_TOUCH + (banner_keys + 1) * px(10), px(68)))
        table_least = h - top.bottom - full       # the table a cash table keeps under a findings banner
        banner_rect = pygame.Rect(0, y, left_w, max(least, min(full, h - y - table_least)))
        y = banner_rect.bottom
    return FrameLayout(top, keys, alert_rect, banner_rect, question_rect, pygame.Rect(0, y, left_w, h - y),
                       clock_rect, instruction_rect)


def seat_geometry(body: pygame.Rect, n: int, px: Callable[[float], int]) -> Geometry:
    """Seat boxes evenly spaced round a stadium-shaped table, seat 1 at the dealer's left (bottom left),
    clockwise to seat n at the dealer's right; the dealer's spot (bottom centre) stays free; and the felt."""
    sh: float = min(px(66), body.height // 4)  # shrunk by factors below
    pad = px(4)
    sw: float = min(px(132), body.width // 5)
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
            x, y, ix, iy = stadium_point(s, cx, cy, straight, r)
            box = pygame.Rect(0, 0, round(sw), round(sh))
            box.center = (round(x), round(y))
            boxes[i] = box
            inward[i] = (ix, iy)
        spaced = [b.inflate(pad, pad) for b in boxes.values()]
        if not any(a.colliderect(b) for a, b in itertools.combinations(spaced, 2)):
            break
        sw, sh = max(px(84), sw * 0.93), max(px(50), sh * 0.96)
    felt = pygame.Rect(0, 0, round(2 * rx), round(2 * r))
    felt.center = body.center
    return boxes, inward, felt


def stadium_point(s: float, cx: float, cy: float, straight: float, r: float) -> tuple[float, float, float, float]:
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
