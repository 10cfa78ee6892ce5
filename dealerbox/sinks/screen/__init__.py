"""The dealer's touchscreen (pygame). ``Screen(config, size)``: ``render``, ``handle_mouse``, ``run``."""

from .canvas import Drawn, Frame, Target
from .model import UiState, open_findings
from .render import Renderer
from .screen import Screen, display_mode, open_display
from .theme import SEVERITY_COLOURS

__all__ = ["Screen", "Renderer", "Frame", "Drawn", "Target", "UiState", "SEVERITY_COLOURS", "display_mode",
           "open_display", "open_findings"]
