"""sd_notify over a real unix datagram socket, as systemd listens for it."""

import socket

from dealerbox.upkeep.notify import Notifier
from tests.conftest import scaled


class Clock:
    def __init__(self):
        self.t = 0.0

    def __call__(self):
        return self.t


def _listener(tmp_path):
    path = str(tmp_path / "notify.sock")
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind(path)
    sock.settimeout(scaled(2))
    return sock, path


def test_ready_status_and_watchdog_arrive_as_systemd_reads_them(tmp_path):
    sock, path = _listener(tmp_path)
    clock = Clock()
    n = Notifier({"NOTIFY_SOCKET": path, "WATCHDOG_USEC": "10000000"}, clock=clock)
    assert n.enabled and n.watchdog_s == 10.0
    assert n.ready("table T01: ruling")
    assert sock.recv(4096).decode().split("\n") == ["READY=1", "STATUS=table T01: ruling"]
    assert n.beat("3 hands")
    assert sock.recv(4096).decode().split("\n") == ["WATCHDOG=1", "STATUS=3 hands"]
    # At most twice per watchdog period: a busy loop does not flood systemd.
    clock.t = 4.9
    assert not n.beat()
    clock.t = 5.0
    assert n.beat()
    assert sock.recv(4096) == b"WATCHDOG=1"
    assert n.sent == 3 and n.errors == 0
    n.close()
    sock.close()


def test_abstract_socket_names_are_understood(tmp_path):
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind(f"\0dealerbox-test-{tmp_path.name}")
    sock.settimeout(scaled(2))
    n = Notifier({"NOTIFY_SOCKET": f"@dealerbox-test-{tmp_path.name}"})
    assert n.stopping()
    assert sock.recv(4096) == b"STOPPING=1\nSTATUS=stopping"
    sock.close()


def test_outside_systemd_nothing_is_sent_and_a_vanished_socket_is_counted_not_raised(tmp_path):
    assert not Notifier({}).ready("x")
    n = Notifier({"NOTIFY_SOCKET": str(tmp_path / "gone.sock")})
    assert not n.ready("x")
    assert n.errors == 1 and n.sent == 0
