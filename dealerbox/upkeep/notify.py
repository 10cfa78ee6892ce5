"""systemd's notify protocol (sd_notify), without libsystemd: one datagram per message to ``$NOTIFY_SOCKET``.

The unit (hardware/kiosk/dealerbox.service) is ``Type=notify`` with ``WatchdogSec``: the terminal says
``READY=1`` once its loop runs, then ``WATCHDOG=1`` from the core loop at least twice per watchdog period,
so a loop that hangs (not only a process that dies) gets restarted. ``STATUS=`` is what
``systemctl status dealerbox`` shows. Outside systemd (no ``NOTIFY_SOCKET``) every call does nothing.
"""

from __future__ import annotations

import logging
import os
import socket
import time
from collections.abc import Callable, Mapping

log = logging.getLogger("dealerbox.upkeep")


class Notifier:
    """Sends READY/WATCHDOG/STATUS to systemd; never raises (a lost datagram must not stop the table)."""

    def __init__(self, environ: Mapping[str, str] | None = None, clock: Callable[[], float] = time.monotonic) -> None:
        env = os.environ if environ is None else environ
        address = env.get("NOTIFY_SOCKET", "")
        # "@name" is an abstract socket: the leading @ stands for a NUL byte.
        self.address = "\0" + address[1:] if address.startswith("@") else address
        usec = env.get("WATCHDOG_USEC", "")
        self.watchdog_s = int(usec) / 1e6 if usec.isdigit() and int(usec) > 0 else 0.0
        self.clock = clock
        self._last_beat = float("-inf")
        self.sent = 0
        self.errors = 0
        self._sock: socket.socket | None = None

    @property
    def enabled(self) -> bool:
        return bool(self.address)

    def send(self, **fields: str | int) -> bool:
        """One message, e.g. ``send(READY=1, STATUS="ruling")``; False when it could not be sent."""
        if not self.address:
            return False
        text = "\n".join(f"{k}={v}" for k, v in fields.items())
        try:
            if self._sock is None:
                self._sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM | socket.SOCK_CLOEXEC)
            self._sock.sendto(text.encode(), self.address)
        except OSError as e:
            self.errors += 1
            if self.errors == 1:
                log.warning("systemd notify socket %s refused a message (%s); the watchdog may restart us",
                            self.address.lstrip("\0"), e.strerror or e)
            return False
        self.sent += 1
        return True

    def ready(self, status: str) -> bool:
        return self.send(READY=1, STATUS=status)

    def beat(self, status: str | None = None) -> bool:
        """WATCHDOG=1 at most twice per watchdog period (systemd's advice), with STATUS when given."""
        now = self.clock()
        period = self.watchdog_s / 2 if self.watchdog_s else 1.0
        if not self.address or now - self._last_beat < period:
            return False
        self._last_beat = now
        return self.send(WATCHDOG=1, **({"STATUS": status} if status else {}))

    def stopping(self) -> bool:
        return self.send(STOPPING=1, STATUS="stopping")

    def close(self) -> None:
        if self._sock is not None:
            self._sock.close()
            self._sock = None
