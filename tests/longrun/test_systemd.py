"""The kiosk unit and the running terminal agree: `dealerbox run` under a real NOTIFY_SOCKET says READY, then
WATCHDOG from its loop at least twice per watchdog period, as the unit's WatchdogSec expects."""

import configparser
import os
import socket
import subprocess
import sys
import time
from pathlib import Path
from tests.conftest import scaled

ROOT = Path(__file__).resolve().parents[2]


def test_run_says_ready_and_feeds_the_watchdog_over_a_real_notify_socket(tmp_path):
    path = str(tmp_path / "notify.sock")
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind(path)
    sock.settimeout(scaled(0.2))
    env = {**os.environ, "PYTHONPATH": str(ROOT), "SDL_VIDEODRIVER": "dummy", "NOTIFY_SOCKET": path,
           "WATCHDOG_USEC": "1000000"}
    proc = subprocess.Popen([sys.executable, "-m", "dealerbox", "run", "--headless", "--seconds", "4", "--speed", "50",
                             "--no-floor"], cwd=tmp_path, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    messages, beats = [], []
    deadline = time.monotonic() + scaled(90)
    while proc.poll() is None and time.monotonic() < deadline:
        try:
            text = sock.recv(4096).decode()
        except TimeoutError:
            continue
        messages.append(text)
        if text.startswith("WATCHDOG=1"):
            beats.append(time.monotonic())
    err = proc.stderr.read().decode()
    proc.wait(timeout=scaled(30))
    sock.close()
    assert proc.returncode == 0, err
    assert messages and messages[0].startswith("READY=1\nSTATUS=table "), messages[:3]
    assert len(beats) >= 4, messages
    # Twice per period (0.5 s here), never much slower: the watchdog would fire at 1 s.
    assert max(b - a for a, b in zip(beats, beats[1:], strict=False)) < 0.9
    assert any("hands" in m for m in messages if m.startswith("WATCHDOG"))


def test_the_kiosk_unit_restarts_on_failure_and_watches_the_loop():
    unit = configparser.ConfigParser(strict=False, interpolation=None)
    unit.optionxform = str
    unit.read(ROOT / "hardware/kiosk/dealerbox.service")
    service = unit["Service"]
    assert service["Type"] == "notify"
    assert service["Restart"] == "on-failure"
    assert int(service["WatchdogSec"]) >= 10
    assert service["RestartPreventExitStatus"] == "2"
