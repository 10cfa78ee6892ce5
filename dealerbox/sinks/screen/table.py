"""The table painter: seats round the felt, bets and the button, and the middle (board, burn and muck
counts, pots, what to push where). Shows what the snapshot says, never a hidden hole card."""

from __future__ import annotations

from collections.abc import Callable

import pygame

from ...engine import events as te
from ...engine.state import FindingView, SeatView, TableState
from . import theme
from .cache import LRU
from .canvas import Canvas, Drawn, Frame, Target
from .layout import Geometry, seat_geometry
from .model import awarded_pots, seat_status


class TablePainter:
    """Draws the table part of the frame (``draw_table``) on the canvas it is given; its geometry is worked
    out once per body."""

    def __init__(self, canvas: Canvas) -> None:
        self.canvas = canvas
        self._geometry: LRU[Geometry] = LRU(16)   # seat boxes per body and seat count

    def seat_geometry(self, body: pygame.Rect, n: int) -> Geometry:
        """Seat boxes, their inward directions and the felt for ``n`` seats in ``body``, cached (the result
        is shared: read it, never change it)."""
        key = (tuple(body), n)
        geometry = self._geometry.get(key)
        if geometry is None:
            geometry = self._geometry.put(key, seat_geometry(body, n, self.canvas.px))
        return geometry

    def draw_table(self, frame: Frame, body: pygame.Rect, state: TableState, findings: list[FindingView],
                   events: list[te.TableEvent]) -> None:
        surf = frame.surface
        n = len(state.seats) or 9
        boxes, inward, felt = self.seat_geometry(body, n)  # the empty table is in the base layer
        showdown = state.phase in ("showdown", "misaward", "ended") and any(s.shown for s in state.seats)

        # Highlights: every seat an open finding concerns, in that finding's colour (the banner's on top).
        highlight: dict[int, theme.Colour] = {}
        for f in reversed(findings):
            for seat_no in f.seats:
                highlight[seat_no] = theme.SEVERITY_COLOURS.get(f.severity, theme.WHITE)
        if state.question is not None and state.question.seat is not None:  # the seat the question is about
            highlight.setdefault(state.question.seat, theme.QUESTION)
        flagged_cards = {c: theme.SEVERITY_COLOURS.get(f.severity, theme.WHITE) for f in reversed(findings)
                         for c in f.cards}

        chip_r = self.canvas.px(13)
        puck_r = self.canvas.px(15)
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
                label_w = self.canvas.text_size(f"{seat.bet:,}", "med")[0]
                anchor = {"midleft": (bx + chip_r + self.canvas.px(4), by)} if label_right else \
                    {"midright": (bx - chip_r - self.canvas.px(4), by)}
                area = pygame.Rect(0, 0, 2 * chip_r + self.canvas.px(4) + label_w, 2 * chip_r + self.canvas.px(4))
                area.midleft = (bx - chip_r - self.canvas.px(2), by)
                if not label_right:
                    area.midright = (bx + chip_r + self.canvas.px(2), by)
                bets.append((seat, (bx, by), anchor, area))
                obstacles.append(area)
                rows.append((area, dy))
            if seat.seat in state.winners:    # "WINS 200" above the box: the middle keeps clear of it too
                label = pygame.Rect(0, 0, box.width, self.canvas.fonts["small"].get_linesize())
                label.midbottom = (box.centerx, box.top - self.canvas.px(2))
                obstacles.append(label)
                rows.append((label, dy))
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
        y0 = max((o.bottom for o in top_half), default=felt.top) + self.canvas.px(4)
        y1 = min((o.top for o in low_half), default=felt.bottom) - self.canvas.px(4)
        self.draw_middle(frame, felt, (y0, y1), obstacles, state, flagged_cards, events, showdown)

        for seat in state.seats:
            if seat.seat in boxes:
                self.draw_seat(frame, boxes[seat.seat], seat, state, highlight.get(seat.seat), showdown)
        rc = chip_r + self.canvas.px(2) + 1
        chip = self.canvas.sprite(("chip", chip_r), (2 * rc, 2 * rc), lambda s: (
            pygame.draw.circle(s, theme.CHIP_EDGE, (rc, rc), chip_r + self.canvas.px(2)),
            pygame.draw.circle(s, theme.CHIP, (rc, rc), chip_r)))
        for seat, (bx, by), anchor, _ in bets:
            surf.blit(chip, (bx - rc, by - rc))
            self.canvas.text(frame, f"{seat.bet:,}", "med", theme.WHITE, kind="bet", ref=seat.seat, **anchor)
        if puck is not None:
            rp = puck_r + 1
            disc = self.canvas.sprite(("puck", puck_r), (2 * rp, 2 * rp), lambda s: (
                pygame.draw.circle(s, theme.BUTTON_PUCK, (rp, rp), puck_r),
                pygame.draw.circle(s, theme.BLACK, (rp, rp), puck_r, width=max(1, self.canvas.px(2)))))
            surf.blit(disc, (puck[0] - rp, puck[1] - rp))
            self.canvas.text(frame, "D", "small", theme.BLACK, kind="button", ref=state.button, center=puck)

    def draw_seat(self, frame: Frame, box: pygame.Rect, seat: SeatView, state: TableState,
                  outline: theme.Colour | None, showdown: bool) -> None:
        winner = seat.seat in state.winners
        # A seat looks the same until its view changes: most seats are unchanged from one update to the next.
        area = box.inflate(self.canvas.px(8), self.canvas.px(8)) if outline else box
        self.canvas.layer(frame, ("seat", tuple(box), seat, winner, outline), area,
                   lambda f, r: self._draw_seat(f, box.move(r.left - area.left, r.top - area.top), seat, winner,
                                                outline))
        if winner:
            self.canvas.text(frame, f"WINS {state.winners[seat.seat]:,}", "small", theme.WHITE, kind="winner",
                      ref=seat.seat, midbottom=(box.centerx, box.top - self.canvas.px(2)))

    def _draw_seat(self, frame: Frame, box: pygame.Rect, seat: SeatView, winner: bool,
                   outline: theme.Colour | None) -> None:
        surf = frame.surface
        status, fill, text_colour = seat_status(seat, winner)
        pygame.draw.rect(surf, fill, box, border_radius=self.canvas.px(10))
        if outline:
            pygame.draw.rect(surf, outline, box.inflate(self.canvas.px(8), self.canvas.px(8)), width=self.canvas.px(5),
                             border_radius=self.canvas.px(12))
        frame.drawn.append(Drawn("seat", status, box.copy(), seat.seat))
        # The whole box is the seat's key: it opens the seat sheet.
        frame.targets.append(Target(f"seat:{seat.seat}", f"Seat {seat.seat}", box.copy(), ui="seat", seat=seat.seat,
                                    ref="taken" if seat.occupied else "open"))
        pad = self.canvas.px(6)
        self.canvas.text(frame, str(seat.seat), "big", text_colour, kind="seat-number", ref=seat.seat,
                  topleft=(box.left + pad, box.top + pad // 2))
        if not seat.occupied:
            self.canvas.text(frame, "open", "small", theme.TEXT_DIM, kind="seat-status", ref=seat.seat,
                      bottomleft=(box.left + pad, box.bottom - pad // 2))
            return
        # The cards first: the stack takes the room they leave, in the largest font that fits it.
        stack = f"{seat.stack:,}"
        backs = self._backs_area(box, seat, pad, self.canvas.text_size(stack, "tiny")[0])
        right = box.left + box.width * 9 // 20 if seat.shown else backs.left if backs else box.right
        room = right - 2 * pad - box.left
        # "med" as before when it fits the old rule (six tenths of the box), then smaller until it clears the cards.
        fits = [f for f in ("med", "small") if self.canvas.text_size(stack, f)[0] <= room]
        if seat.shown or (fits[:1] == ["med"] and self.canvas.text_size(stack, "med")[0] > box.width * 0.6):
            fits = [f for f in fits if f != "med"]
        stack_font = fits[0] if fits else "tiny"
        shown_left = box.left + box.width * 9 // 20
        if len(seat.shown) > 2:
            # four or five Omaha cards: the fan takes all the box right of the seat's number and its stack, so
            # each card's corner (rank and suit) stays in sight
            stack_font = "small" if self.canvas.text_size(stack, "small")[0] <= box.width // 4 else "tiny"
            column = max(self.canvas.text_size(str(seat.seat), "big")[0], self.canvas.text_size(stack, stack_font)[0])
            shown_left = box.left + pad + column + pad // 2
        self.canvas.text(frame, stack, stack_font, text_colour, kind="stack", ref=seat.seat,
                  bottomleft=(box.left + pad, box.bottom - pad // 2))
        if status and not seat.shown:
            self.canvas.text(frame, status, "tiny", text_colour, kind="seat-status", ref=seat.seat,
                      midleft=(box.left + pad + self.canvas.text_size(str(seat.seat), "big")[0] + pad,
                               box.top + pad // 2 + self.canvas.fonts["big"].get_height() // 2))
        # Cards: face-up only once shown at showdown; otherwise backs, as many as held, never which.
        if seat.shown:
            area = pygame.Rect(shown_left, box.top + pad // 2, box.right - pad // 2 - shown_left, box.height - pad)
            self.canvas.draw_fan(frame, area, list(seat.shown), face_up=True, kind="shown-card", ref=seat.seat)
        elif backs:
            self.canvas.draw_fan(frame, backs, [""] * seat.cards_held, face_up=False, kind="card-back", ref=seat.seat)

    def _backs_area(self, box: pygame.Rect, seat: SeatView, pad: int, stack_w: int) -> pygame.Rect | None:
        """Where a seat's card backs go, bottom right of its box, leaving ``stack_w`` for the stack at its left
        (five Big O backs overlap more rather than run into it); None when it shows none."""
        if seat.shown or not seat.cards_held or seat.folded:
            return None
        ch = box.height * 9 // 20
        n = seat.cards_held
        width = round(ch * 0.72 * (n + 0.15 if n <= 2 else 1 + 0.45 * (n - 1)))
        area = pygame.Rect(0, 0, max(round(ch * 0.72), min(width, box.width - 3 * pad - stack_w)), ch)
        area.bottomright = (box.right - pad, box.bottom - pad)
        return area

    def draw_middle(self, frame: Frame, felt: pygame.Rect, band: tuple[int, int], obstacles: list[pygame.Rect],
                    state: TableState, flagged: dict[str, theme.Colour], events: list[te.TableEvent],
                    showdown: bool) -> None:
        """Board, burn and muck counts, pot and side pots, and at showdown what to push where: in the band
        between the top and bottom rows of seats, clear of the seats (and bets) at the ends of the table."""
        surf = frame.surface
        top, bottom = band
        cx = felt.centerx
        avail = bottom - top
        gap, side = self.canvas.px(5), self.canvas.px(10)

        def clear(y0: int, y1: int) -> tuple[int, int]:
            """The free x range on the felt between heights y0 and y1."""
            x0, x1 = felt.left + felt.height // 4, felt.right - felt.height // 4
            for o in obstacles:
                if o.bottom > y0 and o.top < y1:
                    if o.centerx < cx:
                        x0 = max(x0, o.right + self.canvas.px(6))
                    else:
                        x1 = min(x1, o.left - self.canvas.px(6))
            return x0, x1

        # boards 2.. (runs agreed, a double-board bomb pot) in rows under board 1; each board's winners at showdown
        # (a line a board, in place of "Main pot: 400 to S1 S3" when there is one pot)
        boards = [state.board, *state.house.boards]
        rows = len(boards)
        board_lines = list(state.house.board_winners) if showdown else []
        # A split game's showdown names each pot's high and low winners (in place of "Main pot: 7 to S1 S3" when
        # there is one pot), a line a pot, or two where the narrowest part of the band cannot hold it; on two or
        # more boards the board lines name them instead.
        halves: list[tuple[int, str]] = []
        if showdown and state.pot_halves and not board_lines:
            narrow = clear(top, bottom)
            halves = halves_lines(state, lambda text: self.canvas.text_size(text, "tiny")[0] <= narrow[1] - narrow[0])
        multi = len(state.pots) > 1 or (showdown and bool(state.pots) and not halves and not board_lines)
        pushing = showdown and bool(state.winners)
        total = sum(a for a, _ in state.pots) if multi or halves or board_lines else state.pot
        main = f"Pot {total:,}"
        line_h = self.canvas.fonts["small"].get_linesize()
        pot_font = "huge" if self.canvas.fonts["huge"].get_linesize() * 2 * rows < avail else "big"
        pot_h = self.canvas.fonts[pot_font].get_linesize()
        label_w = max(self.canvas.text_size(t, "small")[0] for t in (f"Burn {state.burn_count}",
                                                                     f"Muck {state.muck_count}"))
        below = (line_h if multi else 0) + line_h * (len(halves) + len(board_lines))   # the lines under the board
        extra = below + (line_h if pushing else 0)
        stacked = avail - pot_h - extra >= self.canvas.px(44)
        if not stacked:
            pot_font, pot_h = "big", self.canvas.fonts["big"].get_linesize()
        pot_w = self.canvas.text_size(main, pot_font)[0]
        # Stacked: push line, board with the counts either side, pot, side pots. Row: counts, board, pot.
        card_h = min(self.canvas.px(64), ((avail - pot_h - extra if stacked else avail - below) - (rows - 1) * gap)
                     // rows)
        for _ in range(2):  # the free width depends on where the block sits, which depends on its size
            boards_h = rows * card_h + (rows - 1) * gap
            block = boards_h + (pot_h + extra if stacked else below)
            y = top + (avail - block) // 2
            board_top = y + (line_h if stacked and pushing else 0)
            x0, x1 = clear(board_top, board_top + boards_h + (pot_h if stacked else 0))
            room = (x1 - x0) - 2 * (label_w + side) if stacked else (x1 - x0) - label_w - pot_w - 2 * side
            card_h = max(self.canvas.px(26 if rows == 1 else 18), min(card_h, round((room - 4 * gap) / 5 / 0.72)))
        card_w = round(card_h * 0.72)
        board = pygame.Rect(0, 0, 5 * card_w + 4 * gap, rows * card_h + (rows - 1) * gap)
        mid = (x0 + x1) // 2
        if stacked:
            board.midtop = (mid, board_top)
        else:
            row_w = label_w + side + board.width + side + pot_w
            board.topleft = (mid - row_w // 2 + label_w + side, board_top)
        for row, cards in enumerate(boards):
            for i in range(5):
                slot = pygame.Rect(board.left + i * (card_w + gap), board.top + row * (card_h + gap), card_w, card_h)
                if i < len(cards):
                    name = cards[i]
                    self.canvas.card(surf, slot, name, True, self.canvas.card_font(card_h), flagged.get(name))
                    frame.drawn.append(Drawn("board-card", name, slot, i) if row == 0
                                       else Drawn("run-card", name, slot, (row + 1, i)))
                else:
                    empty = self.canvas.sprite(("slot", slot.size), slot.size, lambda s: pygame.draw.rect(
                        s, (30, 120, 70), s.get_rect(), width=max(1, self.canvas.px(2)),
                        border_radius=self.canvas.px(5)))
                    surf.blit(empty, slot.topleft)
        burn, muck = f"Burn {state.burn_count}", f"Muck {state.muck_count}"
        if stacked:
            self.canvas.text(frame, burn, "small", theme.TEXT, kind="burn", ref=state.burn_count,
                      midright=(board.left - side, board.centery))
            self.canvas.text(frame, muck, "small", theme.TEXT, kind="muck", ref=state.muck_count,
                      midleft=(board.right + side, board.centery))
            r = self.canvas.text(frame, main, pot_font, theme.WHITE, kind="pot", ref=total, midtop=(mid, board.bottom))
        else:
            self.canvas.text(frame, burn, "small", theme.TEXT, kind="burn", ref=state.burn_count,
                      bottomright=(board.left - side, board.centery))
            self.canvas.text(frame, muck, "small", theme.TEXT, kind="muck", ref=state.muck_count,
                      topright=(board.left - side, board.centery))
            r = self.canvas.text(frame, main, pot_font, theme.WHITE, kind="pot", ref=total,
                          midleft=(board.right + side, board.centery))
        y = max(r.bottom, board.bottom)
        if multi:
            done = awarded_pots(state, events)
            parts = []
            for i, (amount, eligible) in enumerate(state.pots):
                winners = state.pot_winners[i] if i < len(state.pot_winners) else ()
                # "Main pot 10 | Side pot 1: 8", never "Side 1 8": the pot's number and its amount apart
                label = ("Main pot" if i == 0 else f"Side pot {i}") + f": {amount:,}"
                if winners:
                    label += " to " + " ".join(f"S{s}" for s in winners) + (" paid" if i in done else "")
                parts.append(label)
                frame.drawn.append(Drawn("side-pot" if i else "main-pot", f"{amount:,}", r, tuple(eligible)))
            self.canvas.line(frame, "  |  ".join(parts), "side-pots", theme.TEXT, clear(y, y + line_h), top=y)
            y += line_h
        span = clear(y, y + line_h * len(board_lines))    # one column, so the boards' lines align
        for text in board_lines:    # "Board 1: S3 Flush", a line a board, in the order the rows are drawn
            self.canvas.line(frame, text, "board-winners", theme.WHITE, span, top=y)
            y += line_h
        span = clear(y, y + line_h * len(halves))    # one column for the lines, so a pot's two lines align
        for i, text in halves:
            self.canvas.line(frame, text, "pot-halves", theme.WHITE, span, top=y, ref=i)
            y += line_h
        if pushing:
            push = "Push: " + ",  ".join(f"{amt:,} to S{seat}" for seat, amt in sorted(state.winners.items()))
            self.canvas.line(frame, push, "push", theme.SEAT_TO_ACT, clear(board.top - line_h, board.top),
                      bottom=board.top - self.canvas.px(2))



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
