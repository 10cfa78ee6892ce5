"""The middle of the table: the boards, the burn and muck counts, the pot and its lines (side pots, each board's
winners, a split game's high and low) and at showdown what to push where.

It has the band between the top and bottom rows of seats (and their marks), less what stands in it at the
ends of the table (``obstacles``). The arrangement is the first that fits with the largest cards: the counts
either side of the board and the pot under it (``stacked``), the counts, board and pot in a row (``row``), or
the counts after the pot (``bare``). A table too short for all of it gives up the least needed first: the
counts, then the pots line, then the boards' and halves' lines; what is drawn never runs into a seat.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TypeVar

import pygame

from ...engine import events as te
from ...engine.state import TableState
from . import theme
from .cache import LRU
from .canvas import Canvas, Drawn, Frame
from .model import awarded_pots

MODES = ("stacked", "row", "bare", "under")


@dataclass(frozen=True, slots=True)
class Line:
    """A line of text under the pot (or the push line above the board)."""
    kind: str
    text: str
    ref: object = None
    may_cut: bool = False     # the pots line may be cut with an ellipsis; the others must be read whole


@dataclass(frozen=True, slots=True)
class Way:
    """One choice of what the middle shows: the counts (or None), the push lines and the lines under the pot."""
    counts: tuple[str, str] | None
    push: tuple[Line, ...]
    below: tuple[Line, ...]


@dataclass(frozen=True, slots=True)
class Plan:
    """Where the middle goes: the arrangement, the card height, the pot's font, the top of the block, and which
    of the counts and lines are kept."""
    mode: str
    rows: int                    # boards drawn: all of them, or none while nothing is dealt on a short table
    card_h: int
    pot_font: str
    top: int
    counts: bool
    push: tuple[Line, ...]
    below: tuple[Line, ...]
    span: tuple[int, int]        # the x range the board and pot are centred in


class FreeSpace:
    """The felt's free x range at each height of the band, clear of every obstacle standing in it (the seats at
    the ends of the table and their marks): ``clear(y0, y1)`` is the range free all the way from y0 to y1."""

    def __init__(self, felt: pygame.Rect, band: tuple[int, int], obstacles: list[pygame.Rect], margin: int) -> None:
        self.band = band
        top, bottom = band
        self.x0, self.x1 = felt.left + felt.height // 4, felt.right - felt.height // 4
        # each as (top, bottom, the x it holds the range to, whether that is the left end): one beside the middle
        # (the seats at the ends and their marks) narrows the range from its own side
        self._walls = [(o.top, o.bottom, o.right + margin, True) if o.centerx < felt.centerx else
                       (o.top, o.bottom, o.left - margin, False)
                       for o in obstacles if o.bottom > top and o.top < bottom]
        self.edges = sorted({y for w in self._walls for y in w[:2]})   # where one starts or ends
        self._tops: dict[int, list[int]] = {}

    def clear(self, y0: int, y1: int) -> tuple[int, int]:
        x0, x1 = self.x0, self.x1
        y1 = max(y1, y0 + 1)        # a zero-height range reads its one row
        for top, bottom, x, left in self._walls:
            if bottom > y0 and top < y1:
                if left:
                    x0 = max(x0, x)
                else:
                    x1 = min(x1, x)
        return x0, x1

    def tops(self, height: int) -> list[int]:
        """Where a block ``height`` tall may start, centred in the band first, then nearest the centre: flush
        with the band's ends or with an obstacle's."""
        tops = self._tops.get(height)
        if tops is None:
            top, bottom = self.band
            centred = top + (bottom - top - height) // 2
            spots = {centred, top, bottom - height} | set(self.edges) | {e - height for e in self.edges}
            tops = self._tops[height] = sorted((t for t in spots if top <= t <= bottom - height),
                                               key=lambda t: (abs(t - centred), t))
        return tops


class MiddlePainter:
    """Draws the middle of the table (``draw_middle``) on the canvas it is given."""

    def __init__(self, canvas: Canvas) -> None:
        self.canvas = canvas
        self._plans: LRU[Plan] = LRU(16)

    def draw_middle(self, frame: Frame, felt: pygame.Rect, band: tuple[int, int], obstacles: list[pygame.Rect],
                    state: TableState, flagged: dict[str, theme.Colour], events: list[te.TableEvent],
                    showdown: bool) -> None:
        """Board, burn and muck counts, pot and side pots, and at showdown what to push where: in the band
        between the top and bottom rows of seats, clear of the seats (and bets) at the ends of the table."""
        c = self.canvas
        top, bottom = band
        space = FreeSpace(felt, band, obstacles, c.px(6))
        clear = space.clear
        boards = [state.board, *state.house.boards]
        # boards 2.. (runs agreed, a double-board bomb pot) in rows under board 1; each board's winners at showdown
        # (a line a board, in place of "Main pot: 400 to S1 S3" when there is one pot)
        board_lines = list(state.house.board_winners) if showdown else []
        # A split game's showdown names each pot's high and low winners (in place of "Main pot: 7 to S1 S3" when
        # there is one pot), a line a pot, or two where the narrowest part of the band cannot hold it; on two or
        # more boards the board lines name them instead.
        narrow = clear(top, bottom)

        def fits_narrow(text: str) -> bool:
            return c.text_size(text, "tiny")[0] <= narrow[1] - narrow[0]
        halves_ways: list[list[tuple[int, str]]] = [[]]
        if showdown and state.pot_halves and not board_lines:
            halves_ways = unique([halves_lines(state, lambda text: True), halves_lines(state, fits_narrow)])
        multi = len(state.pots) > 1 or (showdown and bool(state.pots) and not state.pot_halves and not board_lines)
        total = sum(a for a, _ in state.pots) if multi or halves_ways[0] or board_lines else state.pot
        main = f"Pot {total:,}"
        pots_ways: list[list[Line]] = [[]]
        joined: list[Line] = []
        if multi:
            done = awarded_pots(state, events)
            parts = []
            for i, (amount, _) in enumerate(state.pots):
                winners = state.pot_winners[i] if i < len(state.pot_winners) else ()
                # "Main pot 10 | Side pot 1: 8", never "Side 1 8": the pot's number and its amount apart
                label = ("Main pot" if i == 0 else f"Side pot {i}") + f": {amount:,}"
                if winners:
                    label += " to " + " ".join(f"S{s}" for s in winners) + (" paid" if i in done else "")
                parts.append(label)
            # one line, else a line a pot, else (the table is short) the one line cut to what fits
            pots_ways = unique([[Line("side-pots", "  |  ".join(parts))], [Line("side-pots", p) for p in parts]])
            joined = [Line("side-pots", "  |  ".join(parts), may_cut=True)]
        boards_lines = [Line("board-winners", text) for text in board_lines]   # "Board 1: S3 Flush", a line a board
        push_ways: list[tuple[Line, ...]] = [()]
        if showdown and state.winners:
            parts = [f"{amt:,} to S{seat}" for seat, amt in sorted(state.winners.items())]
            push_ways = [tuple(Line("push", text) for text in way) for way in
                         unique([push_lines(parts, lambda text: True), push_lines(parts, fits_narrow)])]
        counts = (f"Burn {state.burn_count}", f"Muck {state.muck_count}")
        # What may be shown, most first: everything (a line each where it fits, else split), then without the
        # counts, then without the push line (each winner's "WINS" label says the same), then with the pots line
        # cut, then without it, then without the boards' and halves' lines.
        ways: list[Way] = []
        last = tuple(Line("pot-halves", t, ref=i) for i, t in halves_ways[-1])
        for shown_counts in (counts, None):
            for push in push_ways:
                for halves in halves_ways:
                    for pots in pots_ways:
                        ways.append(Way(shown_counts, push, tuple(pots + boards_lines + [
                            Line("pot-halves", text, ref=i) for i, text in halves])))
        ways += [Way(None, (), tuple(pots_ways[-1] + boards_lines) + last),
                 Way(None, (), tuple(joined + boards_lines) + last), Way(None, (), tuple(boards_lines) + last),
                 Way(None, (), ())]
        ways = unique(ways)
        key = (tuple(felt), band, tuple(tuple(o) for o in obstacles), len(boards), main, tuple(ways))
        plan = self._plans.get(key)
        if plan is None:
            plan = self._plans.put(key, self.plan(space, len(boards), main, ways, any(boards)))
        self.draw_plan(frame, plan, clear, boards, main, total, counts, state, flagged)

    # --- the arrangement -----------------------------------------------------------------------------

    def _sizes(self, rows: int, card_h: int) -> tuple[int, int]:
        """The boards' width and height at ``card_h``."""
        gap = self.canvas.px(5)
        if rows == 0:      # the empty slots given up (nothing dealt yet, a table too short for them)
            return 0, 0
        return 5 * round(card_h * 0.72) + 4 * gap, rows * card_h + (rows - 1) * gap

    def _core(self, mode: str, rows: int, card_h: int, pot_font: str, main: str, counts: tuple[str, str] | None
              ) -> tuple[int, int]:
        """The width and height of the board with the pot and counts, arranged as ``mode``."""
        c = self.canvas
        side = c.px(10)
        board_w, board_h = self._sizes(rows, card_h)
        pot_w, pot_h = c.text_size(main, pot_font)[0], c.fonts[pot_font].get_linesize()
        label_w = max(c.text_size(t, "small")[0] for t in counts) if counts else 0
        small_h = c.fonts["small"].get_linesize()
        if mode == "stacked":
            return max(board_w + 2 * (label_w + side) if counts else board_w, pot_w), board_h + pot_h
        if mode == "row":
            return (label_w + side if counts else 0) + board_w + side + pot_w, max(board_h, pot_h,
                                                                                   2 * small_h if counts else 0)
        counts_w = sum(c.text_size(t, "small")[0] + side for t in counts) if counts else 0
        if mode == "under":
            return max(board_w, pot_w, counts_w), board_h + pot_h + (small_h if counts else 0)
        return max(board_w, pot_w + counts_w), board_h + pot_h

    def _line_w(self, line: Line) -> int:
        w = self.canvas.text_size(line.text, "tiny")[0]
        return min(w, self.canvas.px(160)) if line.may_cut else w

    def _fits(self, space: FreeSpace, mode: str, rows: int, card_h: int, pot_font: str, main: str, way: Way,
              centred: bool = True) -> int | None:
        """The top of the block when ``way`` fits the band at ``card_h`` arranged as ``mode`` (``centred``: only
        centred in the band), else None."""
        line_h = self.canvas.fonts["small"].get_linesize()
        core_w, core_h = self._core(mode, rows, card_h, pot_font, main, way.counts)
        height = line_h * len(way.push) + core_h + line_h * len(way.below)
        below_w = max((self._line_w(line) for line in way.below), default=0)
        push_w = [self._line_w(line) for line in way.push]
        clear = space.clear
        band = space.band
        if height > band[1] - band[0]:
            return None
        for top in space.tops(height)[:1 if centred else None]:
            y = top
            for w in push_w:
                x0, x1 = clear(y, y + line_h)
                if x1 - x0 < w:
                    break
                y += line_h
            else:
                x0, x1 = clear(y, y + core_h)
                if x1 - x0 < core_w:
                    continue
                y += core_h
                x0, x1 = clear(y, y + line_h * len(way.below))
                if not way.below or x1 - x0 >= below_w:
                    return top
        return None

    def plan(self, space: FreeSpace, rows: int, main: str, ways: list[Way], dealt: bool = True) -> Plan:
        """The first of ``ways`` that fits, arranged with the largest cards it can have; with nothing ``dealt``
        on any board, the pot alone rather than nothing at all; the smallest arrangement of the last when none
        does."""
        c = self.canvas
        low = c.px(26 if rows == 1 else 18)
        for way in ways:    # centred in the band as a rule; off centre where only that leaves it room
            plan = self._best(space, rows, main, way, True) or self._best(space, rows, main, way, False)
            if plan is not None:
                return plan
        if not dealt:
            plan = self._best(space, 0, main, ways[-1], True) or self._best(space, 0, main, ways[-1], False)
            if plan is not None:
                return plan
        # Nothing fits (a short table under many bars): the smallest arrangement, centred, over what it must.
        way = Way(None, ways[-1].push, ())
        _, core_h = self._core("row", rows, low, "big", main, None)
        band = space.band
        y = band[0] + (band[1] - band[0] - core_h - c.fonts["small"].get_linesize() * len(way.push)) // 2
        return self._plan(space.clear, "row", rows, low, "big", y, way)

    def _best(self, space: FreeSpace, rows: int, main: str, way: Way, centred: bool) -> Plan | None:
        """``way`` arranged with the largest cards that fit (None: it fits in no arrangement)."""
        c = self.canvas
        avail = space.band[1] - space.band[0]
        pot_font = "huge" if c.fonts["huge"].get_linesize() * 2 * max(1, rows) < avail else "big"
        low, high = c.px(26 if rows <= 1 else 18), c.px(64)
        best: tuple[int, str, str] | None = None
        for font in dict.fromkeys((pot_font, "big")):
            found: list[tuple[int, str, str]] = []
            for mode in MODES:
                if self._fits(space, mode, rows, low, font, main, way, centred) is None:
                    continue
                lo, hi = low, high if rows else low    # the largest card height that fits (it shrinks with them)
                if self._fits(space, mode, rows, hi, font, main, way, centred) is not None:
                    lo = hi
                while lo < hi:
                    mid = (lo + hi + 1) // 2
                    if self._fits(space, mode, rows, mid, font, main, way, centred) is None:
                        hi = mid - 1
                    else:
                        lo = mid
                found.append((lo, mode, font))
                if found[0][0] * 100 >= high * 85:    # no later arrangement can take its place
                    break
            if found:   # the first arrangement (stacked is the usual look) whose cards are near the largest
                largest = max(h for h, _, _ in found)
                best = next(f for f in found if f[0] * 100 >= largest * 85)
                break
        if best is None:
            return None
        card_h, mode, font = best
        y = self._fits(space, mode, rows, card_h, font, main, way, centred)
        assert y is not None  # it fitted in the search above
        return self._plan(space.clear, mode, rows, card_h, font, y, way)

    def _plan(self, clear: Callable[[int, int], tuple[int, int]], mode: str, rows: int, card_h: int, font: str,
              y: int, way: Way) -> Plan:
        line_h = self.canvas.fonts["small"].get_linesize()
        core_top = y + line_h * len(way.push)
        _, core_h = self._core(mode, rows, card_h, font, "", way.counts)
        return Plan(mode, rows, card_h, font, y, way.counts is not None, way.push, way.below,
                    clear(core_top, core_top + core_h))

    # --- drawing -------------------------------------------------------------------------------------

    def draw_plan(self, frame: Frame, plan: Plan, clear: Callable[[int, int], tuple[int, int]],
                  boards: list[tuple[str, ...]], main: str, total: int, counts: tuple[str, str], state: TableState,
                  flagged: dict[str, theme.Colour]) -> None:
        c = self.canvas
        gap, side = c.px(5), c.px(10)
        line_h = c.fonts["small"].get_linesize()
        card_h = plan.card_h
        card_w = round(card_h * 0.72)
        board_w, board_h = self._sizes(plan.rows, card_h)
        pot_w = c.text_size(main, plan.pot_font)[0]
        label_w = max(c.text_size(t, "small")[0] for t in counts) if plan.counts else 0
        mid = (plan.span[0] + plan.span[1]) // 2
        y = plan.top
        for line in plan.push:
            c.line(frame, line.text, "push", theme.SEAT_TO_ACT, clear(y, y + line_h), top=y)
            y += line_h
        board = pygame.Rect(0, 0, board_w, board_h)
        burn, muck = counts
        if plan.mode == "row":
            core_h = max(board_h, c.fonts[plan.pot_font].get_linesize(), 2 * line_h if plan.counts else 0)
            row_w = (label_w + side if plan.counts else 0) + board_w + side + pot_w
            board.topleft = (mid - row_w // 2 + (label_w + side if plan.counts else 0), y + (core_h - board_h) // 2)
            if plan.counts:
                c.text(frame, burn, "small", theme.TEXT, kind="burn", ref=state.burn_count,
                       bottomright=(board.left - side, board.centery))
                c.text(frame, muck, "small", theme.TEXT, kind="muck", ref=state.muck_count,
                       topright=(board.left - side, board.centery))
            r = c.text(frame, main, plan.pot_font, theme.WHITE, kind="pot", ref=total,
                       midleft=(board.right + side, board.centery))
            y += core_h
        else:
            board.midtop = (mid, y)
            if plan.mode == "stacked":
                if plan.counts:
                    c.text(frame, burn, "small", theme.TEXT, kind="burn", ref=state.burn_count,
                           midright=(board.left - side, board.centery))
                    c.text(frame, muck, "small", theme.TEXT, kind="muck", ref=state.muck_count,
                           midleft=(board.right + side, board.centery))
                r = c.text(frame, main, plan.pot_font, theme.WHITE, kind="pot", ref=total, midtop=(mid, board.bottom))
            elif plan.mode == "under":   # the counts on a line of their own under the pot
                r = c.text(frame, main, plan.pot_font, theme.WHITE, kind="pot", ref=total, midtop=(mid, board.bottom))
                if plan.counts:
                    counts_w = sum(c.text_size(t, "small")[0] for t in counts) + side
                    b = c.text(frame, burn, "small", theme.TEXT, kind="burn", ref=state.burn_count,
                               topleft=(mid - counts_w // 2, r.bottom))
                    m = c.text(frame, muck, "small", theme.TEXT, kind="muck", ref=state.muck_count,
                               topleft=(b.right + side, r.bottom))
                    r = r.union(b).union(m)
            else:   # bare: the counts after the pot, on its line
                counts_w = sum(c.text_size(t, "small")[0] + side for t in counts) if plan.counts else 0
                pot_h = c.fonts[plan.pot_font].get_linesize()
                r = c.text(frame, main, plan.pot_font, theme.WHITE, kind="pot", ref=total,
                           midleft=(mid - (pot_w + counts_w) // 2, board.bottom + pot_h // 2))
                if plan.counts:
                    b = c.text(frame, burn, "small", theme.TEXT, kind="burn", ref=state.burn_count,
                               midleft=(r.right + side, r.centery))
                    c.text(frame, muck, "small", theme.TEXT, kind="muck", ref=state.muck_count,
                           midleft=(b.right + side, r.centery))
            y = max(r.bottom, board.bottom)
        self._draw_boards(frame, board, boards[:plan.rows], card_h, card_w, gap, flagged)
        if any(line.kind == "side-pots" for line in plan.below):
            for i, (amount, eligible) in enumerate(state.pots):
                frame.drawn.append(Drawn("side-pot" if i else "main-pot", f"{amount:,}", r, tuple(eligible)))
        span = clear(y, y + line_h * len(plan.below))    # one column, so the lines (a pot's two) align
        for line in plan.below:
            colour = theme.TEXT if line.kind == "side-pots" else theme.WHITE
            c.line(frame, line.text, line.kind, colour, span, top=y, ref=line.ref)
            y += line_h

    def _draw_boards(self, frame: Frame, board: pygame.Rect, boards: list[tuple[str, ...]], card_h: int, card_w: int,
                     gap: int, flagged: dict[str, theme.Colour]) -> None:
        c = self.canvas
        for row, cards in enumerate(boards):
            for i in range(5):
                slot = pygame.Rect(board.left + i * (card_w + gap), board.top + row * (card_h + gap), card_w, card_h)
                if i < len(cards):
                    name = cards[i]
                    c.card(frame.surface, slot, name, True, c.card_font(card_h), flagged.get(name))
                    frame.drawn.append(Drawn("board-card", name, slot, i) if row == 0
                                       else Drawn("run-card", name, slot, (row + 1, i)))
                else:
                    empty = c.sprite(("slot", slot.size), slot.size, lambda s: pygame.draw.rect(
                        s, (30, 120, 70), s.get_rect(), width=max(1, c.px(2)), border_radius=c.px(5)))
                    frame.surface.blit(empty, slot.topleft)


T = TypeVar("T")


def unique(ways: list[T]) -> list[T]:
    """``ways`` without repeats, in order."""
    out: list[T] = []
    for way in ways:
        if way not in out:
            out.append(way)
    return out


def push_lines(parts: list[str], fits: Callable[[str], bool]) -> list[str]:
    """``Push: 200 to S1,  200 to S3`` on as many lines as ``fits`` asks, never splitting a seat's part."""
    lines: list[str] = []
    for part in parts:
        if lines and fits(f"{lines[-1]},  {part}"):
            lines[-1] = f"{lines[-1]},  {part}"
        else:
            lines.append(("Push: " if not lines else "") + part)
    return lines


def halves_lines(state: TableState, fits: Callable[[str], bool]) -> list[tuple[int, str]]:
    """A split game's showdown, (pot index, line): ``High: seat 3 Flush · Low: seat 5 7-5-4-2-A`` a pot, named by
    its pot when there are side pots (``Side pot 1: High: ...``); a pot whose line ``fits`` refuses takes two
    lines, its high and its low."""
    texts = state.pot_halves
    out: list[tuple[int, str]] = []
    for i, text in enumerate(texts):
        line = (("Main pot" if i == 0 else f"Side pot {i}") + f": {text}") if len(texts) > 1 else text
        if fits(line) or " · " not in line:
            out.append((i, line))
        else:
            high, low = line.split(" · ", 1)
            out += [(i, high), (i, low)]
    return out
