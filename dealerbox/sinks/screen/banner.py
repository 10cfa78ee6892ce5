"""The bars over the table that want the dealer: the findings banner (a ruling to acknowledge) and the
dealer's question (the hand waits for one tap). Both leave the table's keys and the key column alone."""

from __future__ import annotations

import pygame

from ...engine.state import FindingView, QuestionView
from . import theme
from .canvas import Canvas, Drawn, Frame, Target
from .model import question_keys


def banner_keys(finding: FindingView, in_hand: bool) -> int:
    """How many keys the findings banner stacks: Acknowledge, and Confirm misdeal while the hand is on."""
    return 2 if finding.outcome == "misdeal" and in_hand else 1


class BannerPainter:
    """Draws the findings banner (``draw_banner``) and the question bar (``draw_question``)."""

    def __init__(self, canvas: Canvas) -> None:
        self.canvas = canvas


    def draw_banner(self, frame: Frame, rect: pygame.Rect, finding: FindingView, more: int,
                    in_hand: bool = True) -> None:
        first = len(frame.targets)
        self.canvas.layer(frame, ("banner", tuple(rect), finding, more, in_hand), rect,
                   lambda f, r: self._draw_banner(f, r, finding, more, in_hand), keyed=False)
        # A key's white rim may stand out of a short banner by a few pixels: that part goes on the frame.
        for target in frame.targets[first:]:
            outer = target.rect.inflate(self.canvas.px(4), self.canvas.px(4))
            for part in (pygame.Rect(outer.left, outer.top, outer.width, rect.top - outer.top),
                         pygame.Rect(outer.left, rect.bottom, outer.width, outer.bottom - rect.bottom)):
                if part.height > 0:
                    frame.surface.set_clip(part)
                    pygame.draw.rect(frame.surface, theme.WHITE, outer, border_radius=self.canvas.px(10))
                    frame.surface.set_clip(None)

    def _draw_banner(self, frame: Frame, rect: pygame.Rect, finding: FindingView, more: int, in_hand: bool) -> None:
        surf = frame.surface
        colour = theme.SEVERITY_COLOURS.get(finding.severity, theme.SEVERITY_COLOURS["floor"])
        ink = theme.SEVERITY_TEXT.get(finding.severity, theme.WHITE)
        pygame.draw.rect(surf, colour, rect)
        frame.drawn.append(Drawn("banner", finding.severity, rect.copy(), finding.id))
        pad = self.canvas.px(10)
        key_w = max(theme.MIN_TOUCH * 2, self.canvas.px(150))
        key_h = max(theme.MIN_TOUCH, (rect.height - 3 * pad) // 2)
        # Call floor is always in the key column (it carries this finding's id while the banner is up).
        buttons = [Target(f"ack:{finding.id}", "Acknowledge", pygame.Rect(0, 0, key_w, key_h), action="ack",
                          ref=finding.id)]
        if banner_keys(finding, in_hand) == 2:
            buttons.append(Target(f"misdeal:{finding.id}", "Confirm misdeal", pygame.Rect(0, 0, key_w, key_h),
                                  action="misdeal", ref=finding.id))
        cols = 1
        for row, b in enumerate(buttons):
            b.rect.topright = (rect.right - pad, rect.top + pad + row * (key_h + pad))
            key_colour = theme.KEY_DANGER if b.action == "misdeal" else theme.BAR
            # A white rim keeps a red key visible on the red banner.
            pygame.draw.rect(surf, theme.WHITE, b.rect.inflate(self.canvas.px(4), self.canvas.px(4)),
                             border_radius=self.canvas.px(10))
            self.canvas.key(frame, b.rect, b.label, key_colour, b)
        text_w = rect.width - cols * (key_w + pad) - 3 * pad
        x = rect.left + pad
        head = f"{finding.severity.upper()}  {finding.citation}" + \
            ("  " + " ".join(f"S{s}" for s in finding.seats) if finding.seats else "")
        # "+2 more" follows the head on its line, so the head is cut to leave it room: both stay left of the keys.
        more_text = f"+{more} more" if more > 0 else ""
        more_w = self.canvas.text_size(more_text, "tiny")[0] + pad if more_text else 0
        r = self.canvas.text(frame, self.canvas.fit(head, "big", text_w - more_w), "big", ink, kind="citation",
                             ref=finding.id, topleft=(x, rect.top + pad // 2))
        if more_text:
            self.canvas.text(frame, more_text, "tiny", ink, kind="more", midleft=(r.right + pad, r.centery))
        # Cards named by the finding are exposed or dead cards by contract, so they may be shown here.
        card_x = x
        if finding.cards:
            ch = rect.bottom - r.bottom - pad
            area = pygame.Rect(x, r.bottom + pad // 2, min(len(finding.cards), 3) * round(ch * 0.8), ch)
            self.canvas.draw_fan(frame, area, list(finding.cards[:3]), True, "finding-card", finding.id)
            card_x = area.right + pad
        y = r.bottom + self.canvas.px(2)
        # three lines of ruling, or as many as a banner made short (under other bars) holds, the last cut
        room = max(1, min(3, (rect.bottom - y) // self.canvas.fonts["small"].get_linesize()))
        lines = self.canvas.wrap(finding.ruling, "small", text_w - (card_x - x), room)
        for line in lines:
            rr = self.canvas.text(frame, line, "small", ink, kind="ruling", ref=finding.id, topleft=(card_x, y))
            y = rr.bottom


    def draw_question(self, frame: Frame, rect: pygame.Rect, question: QuestionView) -> None:
        """The question in a line or two, one key per answer along the bottom right, the likely one first and
        green. Its own colour: a question is not a finding, nothing is wrong yet."""
        self.canvas.layer(frame, ("question", tuple(rect), question), rect,
                   lambda f, r: self._draw_question(f, r, question), keyed=False)

    def _draw_question(self, frame: Frame, rect: pygame.Rect, question: QuestionView) -> None:
        pad = self.canvas.px(8)
        pygame.draw.rect(frame.surface, theme.QUESTION, rect)
        frame.drawn.append(Drawn("question", question.text, rect.copy(), question.id))
        # One line: the question on the left, the rule it is asked under small on the right.
        line_h = self.canvas.fonts["med"].get_linesize()
        mid = rect.top + pad + line_h // 2
        right = rect.right - pad
        if question.rule:
            right = self.canvas.text(frame, question.rule, "small", theme.QUESTION_TEXT, kind="question-rule",
                              ref=question.id, midright=(right, mid)).left - pad
        self.canvas.text(frame, self.canvas.fit(question.text, "med", right - rect.left - pad), "med",
                         theme.QUESTION_TEXT,
                  kind="question-text", ref=question.id, midleft=(rect.left + pad, mid))
        # The answers in a row under it, left to right as the engine ordered them: the likely one first.
        keys = question_keys(question)
        top = rect.top + pad + line_h + self.canvas.px(6)
        key_h = max(theme.MIN_TOUCH, rect.bottom - pad - top)
        key_w = max(2 * theme.MIN_TOUCH, min(self.canvas.px(200), (rect.width - pad) // max(1, len(keys)) - pad))
        for i, spec in enumerate(keys):
            self.canvas.spec_key(frame, pygame.Rect(rect.left + pad + i * (key_w + pad), top, key_w, key_h), spec)
