"""The table painter: seats round the felt, bets and the button, and the middle (board, burn and muck
counts, pots, what to push where). Shows what the snapshot says, never a hidden hole card."""

from __future__ import annotations

import pygame

from ...engine import events as te
from ...engine.state import FindingView, SeatView, TableState
from . import theme
from .cache import LRU
from .canvas import Canvas, Drawn, Frame, Target
from .layout import Geometry, seat_geometry
from .marks import MarkPlacer, Marks, MarkSizes
from .middle import MiddlePainter
from .model import seat_status


class TablePainter:
    """Draws the table part of the frame (``draw_table``) on the canvas it is given; its geometry is worked
    out once per body."""

    def __init__(self, canvas: Canvas, middle: MiddlePainter) -> None:
        self.canvas = canvas
        self.middle = middle
        self._geometry: LRU[Geometry] = LRU(16)   # seat boxes per body and seat count
        self._marks: LRU[Marks] = LRU(32)         # labels, bets and the puck per layout of them

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
        # First where each seat's "WINS" label, bet and the puck go, so the middle can keep clear of them.
        marks = self.place_marks(body, n, state)
        obstacles: list[pygame.Rect] = list(boxes.values()) + marks.rects()
        # The top and bottom rows, each with its marks: the middle band lies between them.
        rows: list[tuple[pygame.Rect, float]] = [(b, inward[i][1]) for i, b in boxes.items()]
        rows += [(r, inward[s][1]) for s, r in marks.winners.items()]
        rows += [(b.area, inward[s][1]) for s, b in marks.bets.items()]

        # The middle band: below the top row and its bets, above the bottom row and its bets.
        top_half = [o for o, dy in rows if dy > 0.9]
        low_half = [o for o, dy in rows if dy < -0.9]
        y0 = max((o.bottom for o in top_half), default=felt.top) + self.canvas.px(4)
        y1 = min((o.top for o in low_half), default=felt.bottom) - self.canvas.px(4)
        self.middle.draw_middle(frame, felt, (y0, y1), obstacles, state, flagged_cards, events, showdown)

        for seat in state.seats:
            if seat.seat in boxes:
                self.draw_seat(frame, boxes[seat.seat], seat, state, highlight.get(seat.seat), showdown)
        for seat_no, label in marks.winners.items():
            self.canvas.text(frame, winner_text(state, seat_no), "small", theme.WHITE, kind="winner", ref=seat_no,
                             center=label.center)
        rc = chip_r + self.canvas.px(2) + 1
        chip = self.canvas.sprite(("chip", chip_r), (2 * rc, 2 * rc), lambda s: (
            pygame.draw.circle(s, theme.CHIP_EDGE, (rc, rc), chip_r + self.canvas.px(2)),
            pygame.draw.circle(s, theme.CHIP, (rc, rc), chip_r)))
        for seat in state.seats:
            bet = marks.bets.get(seat.seat)
            if bet is not None:
                surf.blit(chip, (bet.centre[0] - rc, bet.centre[1] - rc))
                edge = chip_r + self.canvas.px(2)     # the chip as painted, rim included
                frame.drawn.append(Drawn("chip", "", pygame.Rect(bet.centre[0] - edge, bet.centre[1] - edge, 2 * edge,
                                                                 2 * edge), seat.seat))
                self.canvas.text(frame, f"{seat.bet:,}", "med", theme.WHITE, kind="bet", ref=seat.seat, **bet.anchor)
        if marks.puck is not None:
            rp = puck_r + 1
            disc = self.canvas.sprite(("puck", puck_r), (2 * rp, 2 * rp), lambda s: (
                pygame.draw.circle(s, theme.BUTTON_PUCK, (rp, rp), puck_r),
                pygame.draw.circle(s, theme.BLACK, (rp, rp), puck_r, width=max(1, self.canvas.px(2)))))
            surf.blit(disc, (marks.puck.centerx - rp, marks.puck.centery - rp))
            self.canvas.text(frame, "D", "small", theme.BLACK, center=marks.puck.center)
            frame.drawn.append(Drawn("button", "D", marks.puck.copy(), state.button))   # the whole disc

    def place_marks(self, body: pygame.Rect, n: int, state: TableState) -> Marks:
        """Each seat's "WINS" label, bet and the puck, each clear of every box and mark placed before it
        (cached: a frame often has the marks of the one before; the result is shared, read it only)."""
        boxes, inward, _ = self.seat_geometry(body, n)
        wins = tuple((s.seat, self.canvas.text_size(winner_text(state, s.seat), "small")) for s in state.seats
                     if s.seat in boxes and s.seat in state.winners)
        bets = tuple((s.seat, self.canvas.text_size(f"{s.bet:,}", "med")) for s in state.seats
                     if s.seat in boxes and s.bet)
        button = state.button if state.button in boxes else None
        key = (tuple(body), n, wins, bets, button)
        marks = self._marks.get(key)
        if marks is None:
            placer = MarkPlacer(body, boxes, inward, MarkSizes(self.canvas.px(13), self.canvas.px(15),
                                                               self.canvas.px(2)))
            for seat, size in bets:
                placer.bet(seat, *size)
            for seat, size in wins:
                placer.winner(seat, size)
            if button is not None:
                placer.puck(button)
            marks = self._marks.put(key, placer.marks)
        return marks

    def draw_seat(self, frame: Frame, box: pygame.Rect, seat: SeatView, state: TableState,
                  outline: theme.Colour | None, showdown: bool) -> None:
        winner = seat.seat in state.winners
        # A seat looks the same until its view changes: most seats are unchanged from one update to the next.
        area = box.inflate(self.canvas.px(8), self.canvas.px(8)) if outline else box
        self.canvas.layer(frame, ("seat", tuple(box), seat, winner, outline), area,
                   lambda f, r: self._draw_seat(f, box.move(r.left - area.left, r.top - area.top), seat, winner,
                                                outline))

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
        if not seat.occupied:
            under = "small" if self._number_font(box, "small", pad) != "tiny" else "tiny"
            self.canvas.text(frame, str(seat.seat), self._number_font(box, under, pad), text_colour,
                             kind="seat-number", ref=seat.seat, topleft=(box.left + pad, box.top + pad // 2))
            self.canvas.text(frame, "open", under, theme.TEXT_DIM, kind="seat-status", ref=seat.seat,
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
        number_font = self._number_font(box, stack_font, pad)
        number_w = self.canvas.text_size(str(seat.seat), number_font)[0]
        shown_left = box.left + box.width * 9 // 20
        if len(seat.shown) > 2:
            # four or five Omaha cards: the fan takes all the box right of the seat's number and its stack, so
            # each card's corner (rank and suit) stays in sight
            stack_font = "small" if self.canvas.text_size(stack, "small")[0] <= box.width // 4 else "tiny"
            column = max(number_w, self.canvas.text_size(stack, stack_font)[0])
            shown_left = box.left + pad + column + pad // 2
        elif seat.shown:   # two cards: a stack too wide for its column pushes the fan right (smaller), not under it
            shown_left = max(shown_left, box.left + 2 * pad + self.canvas.text_size(stack, stack_font)[0])
        self.canvas.text(frame, str(seat.seat), number_font, text_colour, kind="seat-number", ref=seat.seat,
                         topleft=(box.left + pad, box.top + pad // 2))
        self.canvas.text(frame, stack, stack_font, text_colour, kind="stack", ref=seat.seat,
                  bottomleft=(box.left + pad, box.bottom - pad // 2))
        if status and not seat.shown:
            self.canvas.text(frame, status, "tiny", text_colour, kind="seat-status", ref=seat.seat,
                      midleft=(box.left + pad + number_w + pad,
                               box.top + pad // 2 + self.canvas.fonts[number_font].get_height() // 2))
        # Cards: face-up only once shown at showdown; otherwise backs, as many as held, never which.
        if seat.shown:
            area = pygame.Rect(shown_left, box.top + pad // 2, box.right - pad // 2 - shown_left, box.height - pad)
            self.canvas.draw_fan(frame, area, list(seat.shown), face_up=True, kind="shown-card", ref=seat.seat)
        elif backs:
            self.canvas.draw_fan(frame, backs, [""] * seat.cards_held, face_up=False, kind="card-back", ref=seat.seat)

    def _number_font(self, box: pygame.Rect, under: str, pad: int) -> str:
        """The seat number's font: the largest that leaves the line under it (in font ``under``) its own
        height in the box; a short box (a table under many bars) steps it down rather than overlap them."""
        def height(font: str) -> int:    # as drawn: a rendered line can stand a pixel taller than the font
            return self.canvas.text_size("0gp", font)[1]
        return next((f for f in ("big", "med", "small") if height(f) + height(under) + pad <= box.height), "tiny")

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


def winner_text(state: TableState, seat: int) -> str:
    return f"WINS {state.winners[seat]:,}"
