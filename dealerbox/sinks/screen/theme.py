"""Every colour and size the dealer's screen uses, in one place (the tests read these same tables).

High contrast on purpose: the dealer reads this at arm's length under casino lighting.
"""

from __future__ import annotations

from ...engine.catalogue import SEVERITIES

Colour = tuple[int, int, int]

WHITE: Colour = (255, 255, 255)
BLACK: Colour = (0, 0, 0)

BACKGROUND: Colour = (12, 14, 18)
BAR: Colour = (28, 32, 40)
FELT: Colour = (16, 96, 52)
FELT_EDGE: Colour = (92, 58, 30)
TEXT: Colour = (245, 245, 245)
TEXT_DIM: Colour = (160, 168, 178)

# Findings: one colour per severity, with the text colour that stays legible on it.
SEVERITY_COLOURS: dict[str, Colour] = {
    "info": (30, 100, 200),     # blue: for the dealer's information, play goes on
    "dealer": (255, 176, 0),    # amber: the dealer must act (replace a card, correct a wager)
    "floor": (200, 20, 30),     # red: call the floor; stays until acknowledged
}
SEVERITY_TEXT: dict[str, Colour] = {"info": WHITE, "dealer": BLACK, "floor": WHITE}
# The dealer's question: teal, unlike any severity, since nothing is wrong yet; the hand only waits.
QUESTION: Colour = (0, 110, 130)
QUESTION_TEXT: Colour = WHITE
SEVERITY_RANK: dict[str, int] = {s: i for i, s in enumerate(SEVERITIES)}  # higher = more serious

# Seats: fill colour per situation; the first that applies wins (to act > all-in > in hand > folded).
SEAT_EMPTY: Colour = (40, 44, 52)
SEAT_IDLE: Colour = (58, 66, 80)        # seated, not in this hand
SEAT_IN_HAND: Colour = (34, 70, 130)
SEAT_TO_ACT: Colour = (250, 220, 40)    # bright yellow, black text: whose turn it is
SEAT_ALL_IN: Colour = (150, 40, 160)
SEAT_FOLDED: Colour = (50, 52, 56)
SEAT_DEAD: Colour = (90, 20, 20)
SEAT_WINNER: Colour = (20, 150, 70)

BUTTON_PUCK: Colour = (250, 250, 250)
CHIP: Colour = (220, 60, 60)
CHIP_EDGE: Colour = (250, 250, 250)

CARD_FACE: Colour = (252, 252, 248)
CARD_BACK: Colour = (170, 30, 40)
CARD_BACK_PATTERN: Colour = (230, 180, 180)
CARD_EDGE: Colour = (20, 20, 20)
# A four-colour deck: at arm's length a diamond must never be read as a heart.
SUIT_COLOURS: dict[str, Colour] = {"s": (0, 0, 0), "h": (200, 0, 0), "d": (0, 80, 210), "c": (0, 130, 40)}

KEY: Colour = (60, 70, 88)            # an enabled action key
KEY_TEXT: Colour = WHITE
KEY_DISABLED: Colour = (36, 40, 48)
KEY_DISABLED_TEXT: Colour = (100, 106, 116)
KEY_DANGER: Colour = (170, 30, 30)
KEY_CONFIRM: Colour = (20, 130, 60)

HEALTH_OK: Colour = (40, 170, 80)
HEALTH_OFF: Colour = (110, 110, 110)   # a part that is not configured (no floor link): neither fine nor failing
HEALTH_WARN: Colour = SEVERITY_COLOURS["dealer"]
HEALTH_BAD: Colour = SEVERITY_COLOURS["floor"]

MIN_TOUCH = 48  # px: the smallest target a finger hits reliably


def contrast_ratio(a: Colour, b: Colour) -> float:
    """WCAG contrast ratio between two colours (1 to 21); 4.5 is the floor for normal text."""
    def lum(c: Colour) -> float:
        ch = [v / 255 for v in c]
        ch = [v / 12.92 if v <= 0.03928 else ((v + 0.055) / 1.055) ** 2.4 for v in ch]
        return 0.2126 * ch[0] + 0.7152 * ch[1] + 0.0722 * ch[2]
    hi, lo = sorted((lum(a), lum(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)
