"""Cards drawn with pygame primitives: no bundled art, and the default font lacks the suit glyphs."""

from __future__ import annotations

import pygame

from . import theme

RANK_TEXT = {"T": "10"}


def rank_text(card: str) -> str:
    """What the corner of a card says: ``As`` -> ``A``, ``Td`` -> ``10``, jokers -> ``JKR``."""
    if card.startswith("X"):
        return "JKR"
    return RANK_TEXT.get(card[0], card[0])


def draw_suit(surface: pygame.Surface, suit: str, center: tuple[int, int], size: int,
              colour: theme.Colour | None = None) -> None:
    """A suit symbol ``size`` px tall centred on ``center``."""
    colour = colour or theme.SUIT_COLOURS.get(suit, theme.BLACK)
    cx, cy = center
    r = max(2, size // 4)
    if suit == "d":
        pygame.draw.polygon(surface, colour, [(cx, cy - size // 2), (cx + size * 2 // 5, cy),
                                              (cx, cy + size // 2), (cx - size * 2 // 5, cy)])
    elif suit == "h":
        top = cy - size // 5
        pygame.draw.circle(surface, colour, (cx - r, top), r)
        pygame.draw.circle(surface, colour, (cx + r, top), r)
        pygame.draw.polygon(surface, colour, [(cx - 2 * r, top + r // 3), (cx + 2 * r, top + r // 3),
                                              (cx, cy + size // 2)])
    elif suit == "s":
        bottom = cy + size // 8
        pygame.draw.circle(surface, colour, (cx - r, bottom), r)
        pygame.draw.circle(surface, colour, (cx + r, bottom), r)
        pygame.draw.polygon(surface, colour, [(cx - 2 * r, bottom - r // 3), (cx + 2 * r, bottom - r // 3),
                                              (cx, cy - size // 2)])
        pygame.draw.polygon(surface, colour, [(cx, bottom), (cx - r, cy + size // 2), (cx + r, cy + size // 2)])
    elif suit == "c":
        pygame.draw.circle(surface, colour, (cx, cy - r), r)
        pygame.draw.circle(surface, colour, (cx - r - r // 3, cy + r // 3), r)
        pygame.draw.circle(surface, colour, (cx + r + r // 3, cy + r // 3), r)
        pygame.draw.polygon(surface, colour, [(cx, cy), (cx - r, cy + size // 2), (cx + r, cy + size // 2)])


def draw_face(surface: pygame.Surface, rect: pygame.Rect, card: str, font: pygame.font.Font,
              outline: theme.Colour | None = None, corner: bool = False) -> None:
    """A face-up card: big rank on top, big suit below, in the four-colour deck.

    ``corner``: rank and suit in the left third, for cards fanned over each other (Omaha at showdown).
    """
    radius = max(3, rect.width // 8)
    pygame.draw.rect(surface, theme.CARD_FACE, rect, border_radius=radius)
    pygame.draw.rect(surface, outline or theme.CARD_EDGE, rect, width=4 if outline else 1, border_radius=radius)
    suit = card[1] if len(card) == 2 and not card.startswith("X") else ""
    colour = theme.SUIT_COLOURS.get(suit, (120, 0, 160))
    label = font.render(rank_text(card), True, colour)
    if corner:
        strip = rect.width * 2 // 5
        if label.get_width() > strip:
            label = pygame.transform.smoothscale(label, (strip, label.get_height() * strip // label.get_width()))
        surface.blit(label, label.get_rect(midtop=(rect.left + rect.width // 5 + 2, rect.top + 2)))
        if suit:
            size = min(strip, rect.height // 3)
            draw_suit(surface, suit, (rect.left + rect.width // 5 + 2, rect.bottom - size // 2 - rect.height // 10),
                      size, colour)
        return
    if label.get_width() > rect.width - 4:  # "10" and "JKR" on a narrow card
        label = pygame.transform.smoothscale(label, (rect.width - 4,
                                                     label.get_height() * (rect.width - 4) // label.get_width()))
    surface.blit(label, label.get_rect(midtop=(rect.centerx, rect.top + rect.height // 12)))
    if suit:
        size = min(rect.width * 3 // 5, rect.height * 2 // 5)
        draw_suit(surface, suit, (rect.centerx, rect.bottom - rect.height // 12 - size // 2), size, colour)


def draw_back(surface: pygame.Surface, rect: pygame.Rect) -> None:
    """A face-down card: the screen says a card is there, never which."""
    radius = max(3, rect.width // 8)
    pygame.draw.rect(surface, theme.CARD_BACK, rect, border_radius=radius)
    inner = rect.inflate(-max(4, rect.width // 5), -max(4, rect.width // 5))
    pygame.draw.rect(surface, theme.CARD_BACK_PATTERN, inner, width=2, border_radius=max(2, radius // 2))
    pygame.draw.rect(surface, theme.CARD_EDGE, rect, width=1, border_radius=radius)
