"""A slow floor for the benchmarks: a TCP relay in front of a real broker that carries the terminal's bytes at
most ``rate`` bytes a second (and the broker's answers after ``delay`` seconds), as a congested site link or a
floor broker that cannot keep up. Standard library only, like bench/broker.py.

>>> with SlowLink("127.0.0.1", broker.port, rate=30_000) as link:    # doctest: +SKIP
...     FloorConfig(port=link.port)
"""

from __future__ import annotations

import socket
import threading
import time

from .broker import free_port

SLOW_BYTES_S = 30_000.0     # the benchmarks' slow floor: well below what the hands produce at full replay speed


class SlowLink:
    """``SlowLink(host, port, rate=, delay=).start()``; point the floor link at ``.port``; ``stop()``."""

    def __init__(self, host: str, port: int, *, rate: float = 30_000.0, delay: float = 0.02) -> None:
        self.target = (host, port)
        self.rate, self.delay = rate, delay
        self.port = free_port()
        self._server = socket.create_server(("127.0.0.1", self.port))
        self._stop = threading.Event()
        self._socks: list[socket.socket] = []
        self.carried = 0

    def start(self) -> SlowLink:
        threading.Thread(target=self._accept, name="slowlink-accept", daemon=True).start()
        return self

    def stop(self) -> None:
        self._stop.set()
        self._server.close()
        for s in self._socks:
            try:
                s.close()
            except OSError:
                pass

    def __enter__(self) -> SlowLink:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def _accept(self) -> None:
        while not self._stop.is_set():
            try:
                client, _ = self._server.accept()
                upstream = socket.create_connection(self.target)
            except OSError:
                if self._stop.is_set():
                    return
                continue
            self._socks += [client, upstream]
            threading.Thread(target=self._pump, args=(client, upstream, True), daemon=True).start()
            threading.Thread(target=self._pump, args=(upstream, client, False), daemon=True).start()

    def _pump(self, src: socket.socket, dst: socket.socket, throttled: bool) -> None:
        try:
            while not self._stop.is_set():
                data = src.recv(4096 if throttled else 65536)
                if not data:
                    break
                # the terminal's side is the narrow one: its bytes go at ``rate``; the answers come late
                time.sleep(len(data) / self.rate if throttled else self.delay)
                dst.sendall(data)
                self.carried += len(data)
        except OSError:
            pass
        finally:
            for s in (src, dst):
                try:
                    s.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass
