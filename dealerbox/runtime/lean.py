"""pygame for a kiosk: the screen's modules only. ``import pygame`` loads every submodule it ships (the
mixer and its codecs, the extended image loaders) and, through ``pygame.pkgdata``, setuptools'
``pkg_resources``, which scans every installed distribution: measured on the bench box, 23.0 MiB of RSS
for pygame with a display and a font, 7.4 MiB without those three (docs/performance.md, "A month left on").

The screen draws with ``display``, ``draw``, ``event``, ``font``, ``transform`` and ``mouse``; it plays no
sound and loads no picture (PNG screenshots use ``pygame.image``, which stays). pygame imports each optional
submodule in a ``try``, so a name held to ``None`` in ``sys.modules`` while ``pygame`` is first imported
makes it a ``MissingModule`` placeholder; ``pkgdata`` then finds the default font by path, not through
``pkg_resources``. The placeholders are lifted right after, so a later ``import pkg_resources`` (or of a left
out submodule, by a tool in the same process) works as usual. (pygame's own exit handler imports the mixer
to shut it down once the process ends; the running terminal never carries it.)
"""

from __future__ import annotations

import os
import sys
from types import ModuleType

# What the dealer's screen never uses, and what each costs to import here (RSS, the bench box).
LEFT_OUT = (
    "pygame.mixer",        # sound: SDL_mixer with FLAC, MP3, Ogg, Opus, fluidsynth: ~5 MiB
    "pygame.mixer_music",
    "pygame.imageext",     # JPEG/TIFF/WebP loaders (PNG save still works through pygame.image): ~0.5 MiB
    "pkg_resources",       # pulled in by pygame.pkgdata to find its own font file: ~12 MiB
)


def import_pygame() -> ModuleType:
    """``pygame`` with only what a screen needs (the whole of it when it was already imported)."""
    if "pygame" in sys.modules:
        return sys.modules["pygame"]
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    held = [name for name in LEFT_OUT if name not in sys.modules]
    for name in held:
        sys.modules[name] = None  # type: ignore[assignment]  # import machinery: "not available"
    try:
        import pygame
    finally:
        for name in held:
            if sys.modules.get(name, 0) is None:
                del sys.modules[name]
    return pygame
