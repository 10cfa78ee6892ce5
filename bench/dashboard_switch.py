"""Why the dashboard sets the interpreter's thread switch interval (``subscriber.SWITCH_INTERVAL_S``): paho's
network thread reading a rush of QoS 1 messages while other threads of the same process keep the interpreter
lock busy, as the filer and the event loop do when 500 tables start.

A publisher in its own process sends N messages at once (300 bytes, QoS 1, 500 topics) to a real mosquitto;
this process receives them with paho's network thread while ``--busy`` threads spin, once at Python's default
switch interval (5 ms) and once at the dashboard's, alternating. paho reads a packet in several socket reads
and sends a PUBACK, and after each of those system calls it waits for the lock; the figure is the time until the
last message was handed to ``on_message``.

    PYTHONPATH=. python -m bench.dashboard_switch [--messages 3000] [--busy 2] [--repeat 2]
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import threading
import time

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion

from dealerbox.dashboard.subscriber import SWITCH_INTERVAL_S

from .broker import Mosquitto

PUBLISHER = r'''
import sys, time, paho.mqtt.client as mqtt
port, n = int(sys.argv[1]), int(sys.argv[2])
c = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id="switch-pub", protocol=mqtt.MQTTv5)
c.connect("127.0.0.1", port); c.loop_start()
infos = [c.publish(f"switch/{i % 500}", b"x" * 300, qos=1) for i in range(n)]
for info in infos: info.wait_for_publish(60)
c.loop_stop()
'''


def once(port: int, messages: int, busy: int, interval: float) -> float:
    """Seconds from the publisher's start until this process's paho thread had every message."""
    sys.setswitchinterval(interval)
    got = [0]
    done = threading.Event()

    def on_message(_c: object, _u: object, _m: object) -> None:
        got[0] += 1
        if got[0] == messages:
            done.set()
    sub = mqtt.Client(CallbackAPIVersion.VERSION2, client_id="switch-sub", protocol=mqtt.MQTTv5)
    sub.on_message = on_message
    subscribed = threading.Event()
    sub.on_subscribe = lambda *_a: subscribed.set()
    sub.connect("127.0.0.1", port)
    sub.subscribe("switch/#", qos=1)
    sub.loop_start()
    subscribed.wait(30)
    stop = threading.Event()

    def spin() -> None:               # a thread that keeps the interpreter lock busy, as the filer does
        x = 0
        while not stop.is_set():
            x += 1
    spinners = [threading.Thread(target=spin, daemon=True) for _ in range(busy)]
    for t in spinners:
        t.start()
    start = time.monotonic()
    pub = subprocess.Popen([sys.executable, "-c", PUBLISHER, str(port), str(messages)])
    done.wait(300)
    took = time.monotonic() - start
    stop.set()
    pub.wait(60)
    sub.loop_stop()
    sub.disconnect()
    sys.setswitchinterval(0.005)
    return took if got[0] == messages else float("inf")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--messages", type=int, default=3000)
    ap.add_argument("--busy", type=int, default=2, help="threads spinning beside paho's")
    ap.add_argument("--repeat", type=int, default=2)
    args = ap.parse_args()
    broker = Mosquitto().start()
    try:
        for _ in range(args.repeat):
            default = once(broker.port, args.messages, args.busy, 0.005)
            ours = once(broker.port, args.messages, args.busy, SWITCH_INTERVAL_S)
            print(f"{args.messages} QoS 1 messages, {args.busy} busy threads: switch interval 5 ms {default:.2f} s, "
                  f"{SWITCH_INTERVAL_S * 1000:g} ms {ours:.2f} s ({default / ours:.1f}x); load average "
                  f"{os.getloadavg()[0]:.1f}", flush=True)
    finally:
        broker.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
