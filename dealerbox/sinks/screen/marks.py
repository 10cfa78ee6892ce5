"""Where the things that stand beside a seat go: its "WINS 200" label, its bet (a chip and the amount) and the
dealer button. Pure geometry over the seat boxes: each mark is tried in a few places, nearest the seat's
side toward the middle first, and takes the first that keeps clear of every seat box and every mark placed
before it, so no mark covers a seat's number, stack or cards, or another mark.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import pygame


@dataclass(frozen=True, slots=True)
class BetMark:
    """A seat's bet: the chip's centre, the amount's anchor beside it, and the area both take."""
    centre: tuple[int, int]
    anchor: dict[str, tuple[int, int]]
    area: pygame.Rect


@dataclass(slots=True)
class Marks:
    """Every seat's marks for one frame: ``winners`` and ``bets`` by seat, the button's disc (``puck``)."""
    winners: dict[int, pygame.Rect] = field(default_factory=dict)
    bets: dict[int, BetMark] = field(default_factory=dict)
    puck: pygame.Rect | None = None

    def rects(self) -> list[pygame.Rect]:
        return [*self.winners.values(), *(b.area for b in self.bets.values()),
                *([self.puck] if self.puck is not None else [])]


@dataclass(frozen=True, slots=True)
class MarkSizes:
    """What the marks measure, in screen pixels: the chip's and the puck's radius, the gap between things."""
    chip_r: int
    puck_r: int
    gap: int


def exit_distance(rect: pygame.Rect, origin: tuple[float, float], d: tuple[float, float]) -> float:
    """How far from ``origin`` (inside ``rect``) along the unit vector ``d`` the ray leaves ``rect``."""
    out = []
    for o, v, lo, hi in ((origin[0], d[0], rect.left, rect.right), (origin[1], d[1], rect.top, rect.bottom)):
        if abs(v) > 1e-6:
            out.append(((hi if v > 0 else lo) - o) / v)
    return max(0.0, min(out)) if out else 0.0


class MarkPlacer:
    """Places the marks of one frame in ``body`` round the seat ``boxes`` (with their ``inward`` unit vectors),
    keeping each clear of the boxes and the marks placed before it."""

    def __init__(self, body: pygame.Rect, boxes: dict[int, pygame.Rect], inward: dict[int, tuple[float, float]],
                 sizes: MarkSizes) -> None:
        self.body = body
        self.boxes = boxes
        self.inward = inward
        self.sizes = sizes
        self.marks = Marks()
        self._taken: list[pygame.Rect] = [b.inflate(2 * sizes.gap, 2 * sizes.gap) for b in boxes.values()]

    def free(self, rect: pygame.Rect) -> bool:
        return self.body.contains(rect) and rect.collidelist(self._taken) < 0

    def _take(self, rect: pygame.Rect) -> None:
        self._taken.append(rect)

    def winner(self, seat: int, size: tuple[int, int]) -> pygame.Rect:
        """The seat's "WINS" label of ``size``: on its bet's row beside the chip when it has a bet (place the bets
        first), else beside its box on the side toward the middle (below a seat of the top row, above one of the
        bottom row, inside of one at the ends), else another side that is free."""
        box, (dx, dy) = self.boxes[seat], self.inward[seat]
        g = self.sizes.gap
        w, h = size

        def under_over(y: int) -> list[pygame.Rect]:     # centred on the box, or flush with either end of it
            return [pygame.Rect(x, y, w, h) for x in (box.centerx - w // 2, box.left, box.right - w)]
        below, above = under_over(box.bottom + g), under_over(box.top - g - h)
        right = [pygame.Rect(box.right + g, y, w, h) for y in (box.centery - h // 2, box.top, box.bottom - h)]
        left = [pygame.Rect(box.left - g - w, r.top, w, h) for r in right]
        vertical = [below, above] if dy > 0 else [above, below]
        horizontal = [right, left] if dx > 0 else [left, right]
        sides = [vertical[0], horizontal[0]] if abs(dy) >= abs(dx) else [horizontal[0], vertical[0]]
        candidates = [r for side in sides + [vertical[1], horizontal[1]] for r in side]
        bet = self.marks.bets.get(seat)
        if bet is not None:     # on the bet's row, before the chip (or after the amount): no row of its own
            ahead, after = pygame.Rect(0, 0, w, h), pygame.Rect(0, 0, w, h)
            if bet.area.right > bet.centre[0] + self.sizes.chip_r + g:    # the amount is on the chip's right
                ahead.midright, after.midleft = (bet.area.left - g, bet.centre[1]), (bet.area.right + g, bet.centre[1])
            else:
                ahead.midleft, after.midright = (bet.area.right + g, bet.centre[1]), (bet.area.left - g, bet.centre[1])
            candidates = [ahead, after] + candidates
        rect = next((c for c in candidates if self.free(c)), None)
        if rect is None:     # no side is free: toward the middle, held on the screen
            rect = candidates[0].clamp(self.body)
        self._take(rect)
        self.marks.winners[seat] = rect
        return rect

    def bet(self, seat: int, label_w: int, label_h: int) -> BetMark:
        """The seat's bet: its chip just beyond the box (and its "WINS" label) toward the middle, the amount
        on the chip's right (left at the right end of the table), else on its other side, else under (over)
        it; and so on a little further in where all three are taken."""
        dx, dy = self.inward[seat]
        chip_r, g = self.sizes.chip_r, self.sizes.gap
        x0, y0 = self.bet_spot(seat)
        sides = (("right", "left") if dx >= -0.2 else ("left", "right")) + ("under" if dy >= 0 else "over",)
        candidates = (bet_mark(side, (round(x0 + dx * k * chip_r), round(y0 + dy * k * chip_r)), chip_r, g, label_w,
                               label_h) for k in range(6) for side in sides)
        first = next(candidates)
        mark = first if self.free(first.area) else next((m for m in candidates if self.free(m.area)), first)
        self._take(mark.area)
        self.marks.bets[seat] = mark
        return mark

    def bet_spot(self, seat: int) -> tuple[int, int]:
        """Where the seat's chip goes: just past its box toward the middle."""
        box, d = self.boxes[seat], self.inward[seat]
        t = exit_distance(box, box.center, d) + self.sizes.chip_r * 1.2
        return round(box.centerx + d[0] * t), round(box.centery + d[1] * t)

    def puck(self, seat: int) -> pygame.Rect:
        """The dealer button beside the seat's bet (or where its bet would go), on the side away from the amount;
        else the first spot round it, nearest that side first, clear of every box and mark."""
        dx, dy = self.inward[seat]
        r, chip_r = self.sizes.puck_r, self.sizes.chip_r
        bet = self.marks.bets.get(seat)
        bx, by = bet.centre if bet is not None else self.bet_spot(seat)
        label_right = dx >= -0.2 if bet is None else bet.area.right > bet.centre[0] + 2 * chip_r
        ox, oy = -dy, dx                       # across the way in
        if (ox > 0) == label_right and abs(ox * chip_r) > 0.4 or abs(ox * chip_r) <= 0.4 and oy > 0:
            ox, oy = -ox, -oy
        start = math.atan2(oy, ox)
        turns = [0, 1, -1, 2, -2, 3, -3, 4, -4, 5, -5, 6]       # twelfths of a turn either way from across
        spots = ((bx + radius * math.cos(start + k * math.pi / 6), by + radius * math.sin(start + k * math.pi / 6))
                 for radius in (chip_r * 2.8, chip_r * 4.2, chip_r * 5.6, chip_r * 7) for k in turns)
        discs = (pygame.Rect(round(x) - r, round(y) - r, 2 * r, 2 * r) for x, y in spots)
        first = next(discs)
        disc = first if self.free(first) else next((c for c in discs if self.free(c)), first.clamp(self.body))
        self._take(disc)
        self.marks.puck = disc
        return disc


def bet_mark(side: str, centre: tuple[int, int], chip_r: int, g: int, label_w: int, label_h: int) -> BetMark:
    """A bet's chip at ``centre`` with its amount on ``side`` ("right", "left", "under" or "over")."""
    bx, by = centre
    if side in ("right", "left"):
        area = pygame.Rect(0, 0, 2 * chip_r + 3 * g + label_w, 2 * chip_r + 2 * g)
        if side == "right":
            area.midleft = (bx - chip_r - g, by)
            return BetMark(centre, {"midleft": (bx + chip_r + 2 * g, by)}, area)
        area.midright = (bx + chip_r + g, by)
        return BetMark(centre, {"midright": (bx - chip_r - 2 * g, by)}, area)
    area = pygame.Rect(0, 0, max(2 * chip_r, label_w) + 2 * g, 2 * chip_r + 3 * g + label_h)
    if side == "under":
        area.midtop = (bx, by - chip_r - g)
        return BetMark(centre, {"midtop": (bx, by + chip_r + 2 * g)}, area)
    area.midbottom = (bx, by + chip_r + g)
    return BetMark(centre, {"midbottom": (bx, by - chip_r - 2 * g)}, area)
