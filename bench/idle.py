"""Terminal: idle CPU of the running terminal (``dealerbox run`` as a child process).

"Idle" is a table between hands: the reader board is attached (a pseudo-terminal standing in for it) and
sends only its HELLO and a heartbeat every second, the floor link is connected to a real mosquitto, the
recorder is on. CPU is read from /proc/<pid>/stat (utime+stime of every thread) over a window after
start-up, so imports and the first frame do not count.
"""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time

from dealerbox.wire import protocol as p

from .broker import BrokerMissing, Mosquitto
from .common import ROOT, Context, Figure, cpu_ticks, rss_kib

TARGET_PCT = 2.0


def run(ctx: Context) -> list[Figure]:
    try:
        broker = Mosquitto(max_inflight=0).start()
    except BrokerMissing as e:
        broker = None
        ctx.say(f"{e}: measuring with the floor link off")
    out = []
    try:
        modes = [("screen", "window"), ("headless", "headless")][-1 if ctx.quick else 0:]
        for label, mode in modes:
            out.append(measure(ctx, label, mode, broker))
    finally:
        if broker:
            broker.stop()
    return out


def measure(ctx: Context, label: str, mode: str, broker: Mosquitto | None) -> Figure:
    master, slave = os.openpty()
    port = os.ttyname(slave)
    work = ctx.tmp / f"idle-{label}"
    work.mkdir()
    floor = (f'[floor]\nenabled = true\nhost = "127.0.0.1"\nport = {broker.port}\noutbox = "{work}/outbox.sqlite"\n'
             if broker else "[floor]\nenabled = false\n")
    (work / "dealerbox.toml").write_text(
        f'[table]\nid = "IDLE"\nsite = "bench"\n[reader]\nsource = "serial"\nport = "{port}"\n'
        f'[display]\nmode = "{mode}"\n[record]\nenabled = true\ndir = "{work}/logs"\n'
        f"[panel]\nenabled = false\n{floor}"
    )
    stop = threading.Event()

    def reader_board() -> None:  # the reader board at rest: HELLO once, then a heartbeat every second
        enc = p.Encoder()
        os.write(master, enc.encode(p.Hello(1, 0, (1, 0, 0), (0, 1, 2, 3, 11, 12, 13, 21, 22, 23, 31))))
        up = 0
        while not stop.wait(1.0):
            up += 1000
            try:
                os.write(master, enc.encode(p.Heartbeat(up, 0, 0)))
            except OSError:
                return

    th = threading.Thread(target=reader_board, daemon=True)
    th.start()
    env = {**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy", "PYTHONPATH": str(ROOT)}
    cmd = [sys.executable, "-m", "dealerbox", "--config", str(work / "dealerbox.toml"), "run"]
    proc = subprocess.Popen(cmd, cwd=work, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        time.sleep(ctx.scale(4, 2))  # start-up: imports, first frame, broker connect
        if proc.poll() is not None:
            err = proc.stderr.read().decode(errors="replace").strip().splitlines()
            return Figure("idle", f"idle CPU ({label})", None, "% core", TARGET_PCT, "<",
                          note=f"dealerbox run exited {proc.returncode}: {err[-1] if err else ''}")
        window = ctx.scale(10, 2)
        hz = os.sysconf("SC_CLK_TCK")
        c0, t0 = cpu_ticks(proc.pid), time.monotonic()
        time.sleep(window)
        c1, t1 = cpu_ticks(proc.pid), time.monotonic()
        rss = rss_kib(proc.pid)
        pct = 100.0 * (c1 - c0) / hz / (t1 - t0)
        return Figure("idle", f"idle CPU ({label})", pct, "% core", TARGET_PCT, "<",
                      note=f"dealerbox run, {window} s window after start-up, "
                           "board on a pty sending heartbeats 1/s, "
                           f"floor {'on' if broker else 'off'}, RSS {rss / 1024:.0f} MB; /proc ticks are 1/{hz} s",
                      extra={"rss_kib": rss})
    finally:
        stop.set()
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        os.close(master)
        os.close(slave)
