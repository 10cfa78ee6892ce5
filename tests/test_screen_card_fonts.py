"""The card fonts the screen keeps (issue 30): one per card height, ~100 KiB each in SDL's memory; the table's
layouts go through dozens of heights over a day, and only the few used lately are kept."""

import pygame

from dealerbox.sinks.screen.canvas import CARD_FONTS, Canvas, Frame


def fan(canvas: Canvas, height: int) -> pygame.Surface:
    """Two face-up cards ``height`` px tall, drawn on a surface of their own."""
    surface = pygame.Surface((400, 200))
    surface.fill((0, 90, 0))
    canvas.draw_fan(Frame(surface), pygame.Rect(10, 10, 380, height), ["As", "Td"], True, "card", None)
    return surface


def test_card_fonts_stay_few_however_many_card_heights_the_table_shows():
    canvas = Canvas((800, 480))
    first = pygame.image.tobytes(fan(canvas, 40), "RGB")
    for height in range(41, 180, 2):     # some 70 heights: the fonts of 22 to 111 px
        fan(canvas, height)
    assert len(canvas.card_font_cache) <= CARD_FONTS      # one per height before: 70 fonts, some 7 MB
    # the first height's font was let go and made again: its cards look as they did, and as a new canvas draws them
    assert pygame.image.tobytes(fan(canvas, 40), "RGB") == first
    assert pygame.image.tobytes(fan(Canvas((800, 480)), 40), "RGB") == first
