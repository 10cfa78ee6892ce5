"""The dealer's touchscreen (pygame). ``Screen(config, size)``: ``render``, ``handle_mouse``, ``run``.

The names below are loaded on first use, so that the pygame-free parts (``model``, ``health``,
``history``, ``sheet``, ``theme``) can be imported, and tested, without loading pygame.
"""

from __future__ import annotations

import importlib

_HOMES = {"Screen": "screen", "display_mode": "screen", "open_display": "screen", "Renderer": "render",
          "Frame": "canvas", "Drawn": "canvas", "Target": "canvas", "UiState": "model", "open_findings": "model",
          "SEVERITY_COLOURS": "theme"}

__all__ = ["Screen", "Renderer", "Frame", "Drawn", "Target", "UiState", "SEVERITY_COLOURS", "display_mode",
           "open_display", "open_findings"]


def __getattr__(name: str) -> object:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(f"{__name__}.{home}"), name)
