"""A child that takes Ctrl-C as a shell's child does, whatever the test process holds: a signal mask or an
ignored SIGINT is inherited through exec, and a test process may carry either (a multiprocessing pool forked
with SIGINT held, a test runner's worker), which left a child deaf to the SIGINT a test sends it."""

from __future__ import annotations

import signal


def as_from_a_shell() -> None:
    """``preexec_fn`` for a child a test will interrupt: SIGINT unblocked and at its default."""
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})
    signal.signal(signal.SIGINT, signal.SIG_DFL)
