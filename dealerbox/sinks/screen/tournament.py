"""A tournament table on the dealer's screen: the clock strip (level, blinds and ante or big-blind ante, time
left counting down while the clock runs, the next level or break, players left) and the floor's instruction
bar (who moves where, one confirm key per seat; "this table is broken"). Never a card of any kind.

The pure half (``clock_line``, ``instruction_keys``...) decides the words and the keys; ``TournamentPainter``
draws them. Each confirm key sends a tap through ``Terminal.submit`` like every other key:
``moved-out`` (the seat is empty) or ``moved-in`` (the seat is taken, with the player's chips as the dealer
counted them on the seat sheet's keypad).
"""

from __future__ import annotations

import pygame

from ...engine.state import InstructionView, TournamentView
from . import theme
from .canvas import Canvas, Drawn, Frame
from .model import KeySpec

CLOCK_BAR: theme.Colour = (22, 40, 70)        # navy: the event's clock, apart from every severity
INSTRUCTION_BAR: theme.Colour = (70, 40, 110)  # purple: the floor's instruction, nothing wrong at this table
BROKEN_BAR: theme.Colour = (60, 60, 66)


def clock_view(payload: dict, at: float = 0.0) -> TournamentView:
    """The view of a clock payload as the floor sends it (schemas/floor/clock.json), ``left`` at source time
    ``at``: what ``dealerbox screenshot --clock`` paints (the engine fills the live table's own)."""
    nxt = payload.get("next") or {}
    return TournamentView(payload["tournament"], payload["level"], payload["small_blind"], payload["big_blind"],
                          payload["ante"], payload["big_blind_ante"], float(payload["left"]), at, payload["running"],
                          payload["is_break"], nxt.get("level"), nxt.get("small_blind", 0), nxt.get("big_blind", 0),
                          nxt.get("ante", 0), nxt.get("big_blind_ante", 0), payload["next_is_break"],
                          payload.get("players_left"), payload.get("tables_left"))


def time_left(view: TournamentView, now: float) -> float:
    """Seconds left at ``now`` (the source clock): counting down from ``left_s`` at ``at`` while running."""
    if not view.running:
        return max(0.0, view.left_s)
    return max(0.0, view.left_s - max(0.0, now - view.at))


def mm_ss(seconds: float) -> str:
    whole = int(seconds + 0.999)               # 0.2 s left still shows 0:01: the level has not ended
    return f"{whole // 60}:{whole % 60:02d}"


def amounts(small_blind: int, big_blind: int, ante: int, big_blind_ante: int) -> str:
    """``100/200 ante 25`` or ``100/200 BBA 200`` (the big-blind ante, as tournament clocks write it)."""
    text = f"{small_blind:,}/{big_blind:,}"
    if big_blind_ante:
        return text + f" BBA {big_blind_ante:,}"
    return text + (f" ante {ante:,}" if ante else "")


def clock_line(view: TournamentView, now: float) -> tuple[str, str, str, str]:
    """(level, time, next, players) as the strip shows them."""
    level = (f"Break before level {view.level}" if view.on_break else
             f"Level {view.level}  {amounts(view.small_blind, view.big_blind, view.ante, view.big_blind_ante)}")
    clock = mm_ss(time_left(view, now)) + ("" if view.running else "  paused")
    if view.next_is_break:
        nxt = "Next: break"
    elif view.next_level is None:
        nxt = "Last level"
    else:
        nxt = "Next: " + amounts(view.next_small_blind, view.next_big_blind, view.next_ante, view.next_big_blind_ante)
    players = "" if view.players_left is None else f"{view.players_left} left" + \
        ("" if view.tables_left is None else f", {view.tables_left} table{'s' * (view.tables_left != 1)}")
    return level, clock, nxt, players


def instruction_keys(view: InstructionView, in_play: frozenset[int] = frozenset()) -> list[KeySpec]:
    """One key per seat still to confirm: empty (``moved-out``) or taken (``moved-in``). A player still in
    the hand under way finishes it first: that key stays dim until the hand is over."""
    keys = [KeySpec(f"S{s} moved out", theme.KEY_CONFIRM, None if s in in_play else f"moved-out:{s}",
                    action="moved-out", seat=s)
            for s in view.send]
    # a moved player's stack is counted on the seat sheet's keypad, then sent with the moved-in tap
    keys += [KeySpec(f"S{s} moved in", theme.KEY_CONFIRM, f"moved-in:{s}", ui="moved-in", seat=s)
             for s in view.receive]
    return keys


def key_rows(view: InstructionView) -> int:
    """Rows of confirm keys the bar needs: three keys a row, two rows at most."""
    return 1 if len(view.send) + len(view.receive) <= 3 else 2


class TournamentPainter:
    """Draws the clock strip (``draw_clock``) and the instruction bar (``draw_instruction``)."""

    def __init__(self, canvas: Canvas) -> None:
        self.canvas = canvas


    def draw_clock(self, frame: Frame, rect: pygame.Rect, view: TournamentView, now: float) -> None:
        level, clock, nxt, players = clock_line(view, now)
        self.canvas.layer(frame, ("clock", tuple(rect), level, clock, nxt, players), rect,
                   lambda f, r: self._draw_clock(f, r, (level, clock, nxt, players), view.tournament), keyed=False)

    def _draw_clock(self, frame: Frame, rect: pygame.Rect, parts: tuple[str, str, str, str], event: str) -> None:
        level, clock, nxt, players = parts
        pygame.draw.rect(frame.surface, CLOCK_BAR, rect)
        frame.drawn.append(Drawn("tournament", event, rect.copy(), event))
        pad = self.canvas.px(10)
        mid = rect.centery
        r = self.canvas.text(frame, clock, "med", theme.SEAT_TO_ACT, kind="clock-left", midleft=(pad, mid))
        right = rect.right - pad
        if players:
            right = self.canvas.text(frame, players, "small", theme.TEXT, kind="clock-players",
                                     midright=(right, mid)).left - pad
        # the level comes first: its amounts are what this deal plays; the next level takes the room left
        room = right - r.right - 2 * pad
        level = self.canvas.fit(level, "small", max(self.canvas.px(40), min(self.canvas.text_size(level, "small")[0],
                                                                            room * 3 // 5)))
        left = self.canvas.text(frame, level, "small", theme.WHITE, kind="clock-level", midleft=(r.right + 2 * pad,
                                                                                                 mid)).right
        self.canvas.text(frame, self.canvas.fit(nxt, "small", max(self.canvas.px(30), right - left - 2 * pad)),
                         "small", theme.TEXT_DIM,
                  kind="clock-next", midright=(right, mid))

    def draw_instruction(self, frame: Frame, rect: pygame.Rect, view: InstructionView,
                         in_play: frozenset[int] = frozenset()) -> None:
        self.canvas.layer(frame, ("instruction", tuple(rect), view, in_play), rect,
                   lambda f, r: self._draw_instruction(f, r, view, in_play), keyed=False)

    def _draw_instruction(self, frame: Frame, rect: pygame.Rect, view: InstructionView,
                          in_play: frozenset[int]) -> None:
        pad = self.canvas.px(8)
        pygame.draw.rect(frame.surface, BROKEN_BAR if view.broken else INSTRUCTION_BAR, rect)
        frame.drawn.append(Drawn("instruction", view.text, rect.copy(), view.instruction))
        keys = instruction_keys(view, in_play)
        key_w = max(2 * theme.MIN_TOUCH, self.canvas.px(132))
        cols = min(len(keys), 3)
        text_w = rect.width - 2 * pad - cols * (key_w + pad)
        title = f"FLOOR  {view.text}"
        font = "med" if self.canvas.text_size(title, "med")[0] <= text_w else "small"
        r = self.canvas.text(frame, self.canvas.fit(title, font, text_w), font, theme.WHITE,
                      kind="instruction-title", ref=view.rule, topleft=(rect.left + pad, rect.top + pad // 2))
        if view.broken:
            self.canvas.text(frame, "Every player has moved. No more hands here until the floor reopens it.", "small",
                      theme.TEXT, kind="instruction-line", topleft=(rect.left + pad, r.bottom + self.canvas.px(2)))
            return
        y = r.bottom + self.canvas.px(2)
        line_h = self.canvas.fonts["small"].get_linesize()
        room = max(1, (rect.bottom - y) // line_h)
        lines = list(view.lines)
        if len(lines) > room:   # a whole broken table: as many as fit, then how many more
            lines = lines[:room - 1] + [f"+{len(view.lines) - room + 1} more"]
        for line in lines:
            y = self.canvas.text(frame, self.canvas.fit(line, "small", text_w), "small", theme.TEXT,
                                 kind="instruction-line",
                          ref=view.plan, topleft=(rect.left + pad, y)).bottom
        rows = key_rows(view)
        key_h = max(theme.MIN_TOUCH, (rect.height - pad * (rows + 1)) // rows)
        for i, spec in enumerate(keys[:3 * rows]):   # six at most: more appear as seats are confirmed
            row, col = divmod(i, 3)
            x = rect.right - pad - (cols - col) * (key_w + pad) + pad
            self.canvas.spec_key(frame, pygame.Rect(x, rect.top + pad + row * (key_h + pad), key_w, key_h), spec)
