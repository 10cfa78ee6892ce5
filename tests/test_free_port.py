"""The tests' servers listen on ports below the kernel's ephemeral range, where no outgoing connection can take
the port between the pick and the server's bind (a dashboard failed to bind in a loaded run of two suites)."""

from __future__ import annotations

import socket
from pathlib import Path

from bench.broker import free_port


def test_a_free_port_is_below_the_ephemeral_range_and_can_be_bound():
    low = int(Path("/proc/sys/net/ipv4/ip_local_port_range").read_text().split()[0])
    ports = {free_port() for _ in range(20)}
    assert all(10_000 <= p < low for p in ports), (sorted(ports), low)
    assert len(ports) > 1                      # picked at random, not one port for every worker
    with socket.socket() as s:
        s.bind(("127.0.0.1", ports.pop()))
