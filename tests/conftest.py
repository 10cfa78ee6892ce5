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


# Timeouts in the tests are hang guards, never speed checks: on a loaded machine (CI on 2 cores, or a developer
# running several suites) every one of them is stretched by DEALERBOX_TIMEOUT_SCALE (default 4) so a slow
# machine never fails a test that would pass on a quiet one. Speed is measured in bench/, not here.
TIMEOUT_SCALE = float(os.environ.get("DEALERBOX_TIMEOUT_SCALE", "4"))


def scaled(seconds: float) -> float:
    """A hang guard of ``seconds`` on a quiet machine, stretched by DEALERBOX_TIMEOUT_SCALE for this one (any unit:
    playwright's milliseconds scale alike). tests/test_timeouts_scaled.py fails on a numeric timeout without it."""
    return seconds * TIMEOUT_SCALE


def pytest_collection_modifyitems(config, items):
    import pytest

    base = float(config.getini("timeout") or 0)
    for item in items:
        marker = item.get_closest_marker("timeout")
        seconds = float(marker.args[0]) if marker is not None and marker.args else base
        if seconds:
            item.add_marker(pytest.mark.timeout(seconds * TIMEOUT_SCALE), append=False)
