"""The reader board's USB serial port: the one owner of the port.

A reader thread timestamps every chunk with the injected clock and puts ``Rx`` records (and ``Link``
records when the port goes away or comes back) on ``.entries``. An unplug is survived: the port is closed,
the thread waits for the device path (udev's ``/dev/dealerbox-reader`` symlink) to come back and reopens
with exponential backoff capped at ``reconnect_max_s``, then asks the board for its HELLO and an inventory
so the table state is re-reported. The bytes stay raw: decoding is the pipeline's job.

>>> try:
...     SerialSource("/dev/no-such-reader")
... except SerialSourceError as e:
...     print(e)
no such port /dev/no-such-reader: is the reader board plugged in? set reader.port in the config
"""

from __future__ import annotations

import errno
import logging
import os
import stat
import threading
import time
from collections.abc import Callable

import serial

from ..record.logformat import Link, Rx, Tx
from ..wire import protocol as p
from .base import Sleep, ThreadedSource

log = logging.getLogger("dealerbox.serial")

READ_TIMEOUT_S = 0.05          # how long a read waits, so stop() is honoured promptly
RECONNECT_MIN_S = 0.1          # first wait after an unplug; doubles up to reconnect_max_s
READ_MAX = 4096
HEARTBEAT_PERIOD_S = 1.0       # the board's heartbeat period unless the host changes it (firmware/PROTOCOL.md)
SILENT_PERIODS = 5             # an open port silent this many heartbeat periods has no board answering on it


class SerialSourceError(OSError):
    """The port cannot be used; the message says which port and what to do (``errno`` kept for callers)."""

    def __init__(self, message: str, code: int | None = None) -> None:
        super().__init__(message)
        self.errno = code

    def __str__(self) -> str:
        return str(self.args[0])


def explain(port: str, error: BaseException) -> str:
    """One line an operator can act on, for an error opening ``port``."""
    code = _errno_of(error)
    if code == errno.ENOENT:
        return f"no such port {port}: is the reader board plugged in? set reader.port in the config"
    if code in (errno.EACCES, errno.EPERM):
        return (f"permission denied on {port}: add the user to the dialout group "
                f"(sudo usermod -aG dialout $USER, then log in again)")
    if code == errno.EBUSY:
        return f"{port} is busy: another program has the reader board open"
    if code in (errno.ENOTTY, errno.EISDIR, errno.ENXIO, errno.EINVAL):   # a file, a folder, a terminal that is no port
        what = "a folder" if code == errno.EISDIR else "not a terminal device"
        return (f"{port} is not a serial port ({what}): give the reader board's port, e.g. "
                f"/dev/dealerbox-reader or /dev/ttyACM0 (--port or reader.port)")
    return f"cannot use {port}: {error}"


def silent_message(port: str, silence_s: float) -> str:
    """What is said of an open ``port`` on which no board has answered for ``silence_s`` seconds."""
    return (f"waiting for the reader board on {port}: the port is open but nothing answered in {silence_s:g} s; "
            f"check that the board is powered and running its firmware, and that {port} is the board's port "
            f"(reader.port or --port)")


def _errno_of(error: BaseException) -> int | None:
    """The OS error number behind ``error``; pyserial wraps a failed termios call ("Could not configure port")
    in a SerialException without one, the number is in the termios error it was raised from."""
    code = getattr(error, "errno", None)
    if code is None and error.__context__ is not None:
        inner = error.__context__
        code = getattr(inner, "errno", None) or (inner.args[0] if inner.args and isinstance(inner.args[0], int)
                                                 else None)
    return code


UDEV_RULE = "hardware/99-dealerbox-reader.rules"


def waiting_message(port: str, code: int | None, error: str = "") -> str:
    """What the screen, the floor and the log say while the terminal waits for the board on ``port``."""
    if code in (errno.EACCES, errno.EPERM):
        return (f"waiting for the reader board on {port}: permission denied; add the user to the dialout group "
                f"(sudo usermod -aG dialout $USER, then log in again) or install the udev rule {UDEV_RULE}")
    if code == errno.ENOENT or not error:
        return (f"waiting for the reader board on {port}: plug in its USB cable; if it is plugged in, check the "
                f"udev rule {UDEV_RULE} (it makes {port})")
    return f"waiting for the reader board on {port}: {error}"


class SerialSource(ThreadedSource):
    """Reads the reader board's port on its own thread; ``.entries`` is a queue of Rx / Tx / Link records."""

    thread_name = "serial"

    def __init__(self, port: str, baud: int = 115200, clock: Callable[[], float] = time.monotonic, *,
                 sleep: Sleep | None = None, reconnect_max_s: float = 5.0,
                 reconnect_min_s: float = RECONNECT_MIN_S, wait_for_board: bool = False,
                 silence_s: float = SILENT_PERIODS * HEARTBEAT_PERIOD_S) -> None:
        super().__init__()
        self.port = port
        self.baud = baud
        self.clock = clock
        self.reconnect_max_s = reconnect_max_s
        self.reconnect_min_s = min(reconnect_min_s, reconnect_max_s)
        self._sleep = sleep or self.stopping.wait  # the default wait ends at once when stop() is called
        self._serial: serial.Serial | None = None
        self._write_lock = threading.Lock()
        self._encoder = p.Encoder()
        self._counters = {"bytes": 0, "chunks": 0, "reconnects": 0, "errors": 0, "tx_frames": 0}
        self.last_error = ""
        # silence_s: an open port that has given no byte this long has no board answering on it (``waiting``)
        self.silence_s = silence_s
        self._opened_at: float | None = None    # clock time the port was (re)opened, until the board's first byte
        # wait_for_board: a missing or forbidden port is a state to show and retry, not an error to raise
        # (the Pi boots before the board, or without it).
        self.wait_for_board = wait_for_board
        self._wait_code: int | None = None if os.path.exists(port) else errno.ENOENT
        self._ever_connected = False
        if not os.path.exists(port) and not wait_for_board:
            # Fail where the source is chosen, so the operator hears about it before anything starts.
            raise SerialSourceError(explain(port, FileNotFoundError(errno.ENOENT, "no such file", port)), errno.ENOENT)

    # --- life cycle ---------------------------------------------------------------------------------
    def start(self) -> None:
        """Open the port and start reading. Raises SerialSourceError (an OSError) with a clear message
        if it cannot be opened (gone since construction, permission, busy)."""
        try:
            self._open()
        except (serial.SerialException, OSError) as e:
            if not self.wait_for_board:
                raise SerialSourceError(explain(self.port, e), _errno_of(e)) from None
            self._note_open_failure(e)  # the reader thread keeps retrying
        else:
            self.entries.put(Link(self.clock(), True, self.port, "opened"))
        super().start()

    def stop(self) -> None:
        self.stopping.set()
        self.join(2.0)
        self._close()

    @property
    def connected(self) -> bool:
        return self._serial is not None

    @property
    def silent_s(self) -> float | None:
        """Seconds the port has been open without a byte from the board; None once it has spoken, or while the
        port is closed (``waiting`` says why then)."""
        opened = self._opened_at
        return None if opened is None or self._serial is None else max(0.0, self.clock() - opened)

    @property
    def waiting(self) -> str:
        """Empty while the board is connected and talking; else one sentence naming the port and what to do
        (the port cannot be opened, or it is open and nothing answered in ``silence_s``)."""
        if self._serial is not None:
            silent = self.silent_s
            return silent_message(self.port, self.silence_s) if silent is not None and silent >= self.silence_s \
                else ""
        return waiting_message(self.port, self._wait_code, self.last_error)

    @property
    def counters(self) -> dict[str, int]:
        return dict(self._counters)

    # --- sending ------------------------------------------------------------------------------------
    def send(self, message: p.Message) -> bool:
        """Send one host command; records a Tx. False (and counted) when the board is not connected."""
        with self._write_lock:
            ser = self._serial
            if ser is None:
                self._counters["errors"] += 1
                return False
            data = self._encoder.encode(message)
            try:
                ser.write(data)
                ser.flush()
            except (serial.SerialException, OSError) as e:
                self._counters["errors"] += 1
                self.last_error = explain(self.port, e)
                return False
            self._counters["tx_frames"] += 1
            self.entries.put(Tx(self.clock(), data))
            return True

    # --- the reader thread ----------------------------------------------------------------------------
    def produce(self) -> None:
        while not self.stopping.is_set():
            ser = self._serial
            if ser is None:
                self._reconnect()
                continue
            try:
                data = ser.read(1)  # waits up to READ_TIMEOUT_S for the next byte
                if data and (more := ser.in_waiting):
                    data += ser.read(min(more, READ_MAX))  # and takes what came with it as one chunk
            except (serial.SerialException, OSError, TypeError) as e:
                # TypeError: pyserial's in_waiting on a port closed under it by stop()
                if self.stopping.is_set():
                    return
                self._lost(e)
                continue
            if data:
                self._opened_at = None   # the board has spoken: not a silent port
                self._counters["bytes"] += len(data)
                self._counters["chunks"] += 1
                self.entries.put(Rx(self.clock(), data))

    def _lost(self, error: BaseException) -> None:
        self._counters["errors"] += 1
        self.last_error = f"reader board link lost on {self.port}: {error}"
        log.warning("%s; waiting for it to come back", self.last_error)
        self._close()
        self.entries.put(Link(self.clock(), False, self.port, str(error)))

    def _reconnect(self) -> None:
        """Wait for the device to come back and reopen it, backing off exponentially."""
        wait = self.reconnect_min_s
        while not self.stopping.is_set():
            self._sleep(wait)
            if self.stopping.is_set():
                return
            if not os.path.exists(self.port):
                self._wait_code = errno.ENOENT
            else:
                first = not self._ever_connected
                try:
                    self._open()
                except (serial.SerialException, OSError) as e:
                    self._note_open_failure(e)
                else:
                    self._counters["reconnects"] += 1
                    self.entries.put(Link(self.clock(), True, self.port, "opened" if first else "reconnected"))
                    log.info("reader board %s on %s", "found" if first else "back", self.port)
                    # The board re-reports what it sees, so the table state catches up with the gap.
                    self.send(p.CmdHello())
                    self.send(p.CmdInventory())
                    return
            wait = min(wait * 2, self.reconnect_max_s)

    def _open(self) -> None:
        if not os.path.exists(self.port):
            raise FileNotFoundError(errno.ENOENT, "no such file", self.port)
        mode = os.stat(self.port).st_mode
        if not stat.S_ISCHR(mode):   # a file or a folder named by mistake: say so rather than what termios says
            code = errno.EISDIR if stat.S_ISDIR(mode) else errno.ENOTTY
            raise OSError(code, os.strerror(code), self.port)
        ser = serial.Serial(self.port, self.baud, timeout=READ_TIMEOUT_S, write_timeout=1.0, exclusive=True)
        with self._write_lock:
            self._serial = ser
            self._opened_at = self.clock()
        self._ever_connected = True
        self._wait_code = None

    def _note_open_failure(self, error: BaseException) -> None:
        self.last_error = explain(self.port, error)
        self._wait_code = _errno_of(error)
        self._counters["errors"] += 1

    def _close(self) -> None:
        with self._write_lock:
            ser, self._serial = self._serial, None
        if ser is not None:
            try:
                ser.close()
            except (serial.SerialException, OSError):
                pass
