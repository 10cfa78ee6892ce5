"""Polling for things that happen on other threads or processes (a broker, a subscriber), with a deadline."""

import time


def wait_until(cond, timeout: float) -> bool:
    """True as soon as ``cond()`` is true; False if ``timeout`` seconds pass first."""
    deadline = time.monotonic() + timeout
    while not cond():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.02)
    return True
