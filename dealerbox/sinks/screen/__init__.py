"""The dealer's touchscreen (pygame). ``Screen(config, size)``: ``render``, ``handle_mouse``, ``run``."""

from .render import Drawn, Frame, Renderer, Target, UiState, open_findings
from .screen import Screen, display_mode, open_display
from .theme import SEVERITY_COLOURS

__all__ = ["Screen", "Renderer", "Frame", "Drawn", "Target", "UiState", "SEVERITY_COLOURS", "display_mode",
           "open_display", "open_findings"]
