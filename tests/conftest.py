"""Shared test set-up. Fixtures live in tests/fixtures/, one module per real part they start."""

import os

# pygame must never open a real window or audio device in tests.
os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

pytest_plugins = [
    "tests.fixtures.serial_pty",
    "tests.fixtures.broker",
]
