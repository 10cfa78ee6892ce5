"""Floor dashboard under a busy room: N tables (default 500) publishing into one mosquitto, ``dealerbox
dashboard`` subscribed (its own process, SQLite store), C browsers (default 50) on its SSE stream.

Figures: p50/p99 from a table's publish to the alert's arrival in an SSE client (target p99 < 250 ms), the
dashboard's CPU (% of one core) and peak RSS, and the time for headless chromium to load and render the
N-table map (target < 1 s). The tables run in one child process that publishes at a live room's pace: per
table an event and a state snapshot every second, an alert every 10 s (far more than a real table raises, to
have samples). Everything shares the machine's cores, so the latency is an upper bound for a dedicated server.

    PYTHONPATH=. python -m bench.dashboard [--tables 500] [--clients 50] [--seconds 30]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx
import psutil

from .broker import Mosquitto, free_port
from .common import percentile

SITE = "bench"
PASSWORD = "bench-password-1"

PUBLISHER = r'''
import json, sys, time, paho.mqtt.client as mqtt
port, tables, seconds = int(sys.argv[1]), int(sys.argv[2]), float(sys.argv[3])
c = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, protocol=mqtt.MQTTv5)
c.connect("127.0.0.1", port); c.loop_start()
def env(t, kind, seq, **body):
    return {"v": 1, "kind": kind, "site": "bench", "table": t, "boot": "b" + t, "seq": seq, "t": 1.0,
            "at": time.time(), "replayed": False, **body}
names = [f"T{n:03d}" for n in range(tables)]
for t in names:
    c.publish(f"dealerbox/bench/{t}/status", json.dumps(env(t, "status", 0, status="online", reason="birth")),
              qos=1, retain=True)
seq = {t: 0 for t in names}; aseq = {t: 0 for t in names}
start = time.time(); tick = 0
while time.time() - start < seconds:
    second = time.time()
    for i, t in enumerate(names):
        seq[t] += 1
        c.publish(f"dealerbox/bench/{t}/event", json.dumps(env(t, "event", seq[t], data={
            "event": "ActionTaken", "t": 1.0, "hand": 1 + tick // 60, "seat": 1 + i % 9})), qos=1)
        c.publish(f"dealerbox/bench/{t}/state", json.dumps(env(t, "state", seq[t], hand=1 + tick // 60,
            phase="flop", game="nlhe", pot=40, seats=[], findings=[], health={"link": {"link": "connected"}},
            event_seq=seq[t])), qos=1, retain=True)
        if (tick + i) % 10 == 0:
            aseq[t] += 1
            c.publish(f"dealerbox/bench/{t}/alert", json.dumps(env(t, "alert", aseq[t], event_seq=seq[t], finding={
                "id": f"h{tick}-{aseq[t]}", "rule": "misdeal.1c", "citation": "Misdeals 1(c)", "severity": "floor",
                "outcome": "continues", "ruling": f"sent@{time.time():.6f}", "seats": [1], "cards": [],
                "hand": 1})), qos=1)
        time.sleep(max(0.0, (second + (i + 1) / len(names)) - time.time()))   # spread over the second
    tick += 1
c.loop_stop()
'''


async def sse_client(url: str, cookies: httpx.Cookies, samples: list[float], stop: asyncio.Event) -> None:
    async with httpx.AsyncClient(base_url=url, cookies=cookies, timeout=None) as client:
        async with client.stream("GET", "/events") as r:
            kind = ""
            async for line in r.aiter_lines():
                if stop.is_set():
                    return
                if line.startswith("event: "):
                    kind = line[7:]
                elif line.startswith("data: ") and kind == "alert":
                    sent = re.search(r"sent@([0-9.]+)", line)
                    body = json.loads(line[6:])
                    if sent and body.get("open") and not body.get("escalated"):
                        samples.append((time.time() - float(sent.group(1))) * 1000)


async def watch(url: str, cookies: httpx.Cookies, clients: int, seconds: float) -> list[float]:
    samples: list[float] = []
    stop = asyncio.Event()
    tasks = [asyncio.create_task(sse_client(url, cookies, samples, stop)) for _ in range(clients)]
    await asyncio.sleep(seconds)
    stop.set()
    for t in tasks:
        t.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    return samples


def login(url: str) -> httpx.Cookies:
    with httpx.Client(base_url=url) as c:
        token = re.search(r'name="csrf" value="([^"]+)"', c.get("/login").text).group(1)
        c.post("/login", data={"name": "bench", "password": PASSWORD, "csrf": token})
        return c.cookies


def map_render_ms(url: str, cookies: httpx.Cookies) -> tuple[float, int]:
    from playwright.sync_api import sync_playwright
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path="/usr/bin/chromium", headless=True,
                              args=["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                                    "--disable-component-update", "--disable-sync", "--no-first-run"])
        ctx = b.new_context()
        ctx.add_cookies([{"name": k, "value": v, "url": url} for k, v in cookies.items()])
        page = ctx.new_page()
        page.goto(url + "/login")            # warm the browser once, then time the map
        start = time.monotonic()
        page.goto(url + "/", wait_until="load")
        page.wait_for_function("document.querySelectorAll('.tile').length > 0")
        ms = (time.monotonic() - start) * 1000
        tiles = page.locator(".tile").count()
        b.close()
    return ms, tiles


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tables", type=int, default=500)
    ap.add_argument("--clients", type=int, default=50)
    ap.add_argument("--seconds", type=float, default=30.0)
    args = ap.parse_args()
    root = Path(__file__).resolve().parent.parent
    env = {**os.environ, "PYTHONPATH": str(root)}
    work = Path(tempfile.mkdtemp(prefix="dealerbox-bench-dash-"))
    db = f"sqlite:///{work / 'floor.db'}"
    (work / "pw").write_text(PASSWORD + "\n")
    subprocess.run([sys.executable, "-m", "dealerbox", "dashboard", "add-user", "bench", "--db", db,
                    "--password-file", str(work / "pw")], check=True, env=env, capture_output=True)
    broker = Mosquitto().start()
    http = free_port()
    url = f"http://127.0.0.1:{http}"
    dash = subprocess.Popen([sys.executable, "-m", "dealerbox", "dashboard", "--host", "127.0.0.1", "--port",
                             str(broker.port), "--site", SITE, "--listen", f"127.0.0.1:{http}", "--db", db],
                            env=env, stdout=subprocess.DEVNULL)
    tables = None
    try:
        deadline = time.monotonic() + 20
        while True:
            try:
                httpx.get(url + "/login", timeout=1)
                break
            except httpx.HTTPError:
                assert time.monotonic() < deadline, "the dashboard did not start"
                time.sleep(0.2)
        cookies = login(url)
        proc = psutil.Process(dash.pid)
        proc.cpu_percent()
        tables = subprocess.Popen([sys.executable, "-c", PUBLISHER, str(broker.port), str(args.tables),
                                   str(args.seconds)], env=env)
        peak = [0]

        async def sample_rss() -> None:
            while True:
                peak[0] = max(peak[0], proc.memory_info().rss)
                await asyncio.sleep(0.5)

        async def run() -> list[float]:
            sampler = asyncio.create_task(sample_rss())
            try:
                return await watch(url, cookies, args.clients, args.seconds)
            finally:
                sampler.cancel()

        # the same latency straight off the broker: what the tables and the broker cost, before the dashboard
        direct: list[float] = []
        import paho.mqtt.client as mqtt
        sub = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, protocol=mqtt.MQTTv5)

        def on_message(_c, _u, m) -> None:
            sent = re.search(rb"sent@([0-9.]+)", m.payload)
            if sent:
                direct.append((time.time() - float(sent.group(1))) * 1000)
        sub.on_message = on_message
        sub.connect("127.0.0.1", broker.port)
        sub.subscribe(f"dealerbox/{SITE}/+/alert", qos=1)
        sub.loop_start()
        cpu_start = proc.cpu_times()
        wall = time.monotonic()
        samples = asyncio.run(run())
        cpu = proc.cpu_times()
        cpu_pct = 100 * ((cpu.user + cpu.system) - (cpu_start.user + cpu_start.system)) / (time.monotonic() - wall)
        tables.wait(30)
        sub.loop_stop()
        direct.sort()
        render_ms, tiles = map_render_ms(url, cookies)
        samples.sort()
        print(f"tables {args.tables}, SSE clients {args.clients}, {args.seconds:.0f} s, alert deliveries {len(samples)}")
        if samples:
            print(f"publish -> SSE alert: p50 {percentile(samples, 50):.1f} ms, p99 {percentile(samples, 99):.1f} ms "
                  f"(target p99 < 250 ms)")
        if direct:
            print(f"publish -> a plain MQTT subscriber (no dashboard): p50 {percentile(direct, 50):.1f} ms, "
                  f"p99 {percentile(direct, 99):.1f} ms over {len(direct)} alerts")
        print(f"machine load average (1 min) {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
        print(f"dashboard CPU {cpu_pct:.0f}% of one core, peak RSS {peak[0] / 2**20:.0f} MiB")
        print(f"map of {tiles} tables loaded and rendered in chromium in {render_ms:.0f} ms (target < 1000 ms)")
        return 0
    finally:
        if tables and tables.poll() is None:
            tables.terminate()
        dash.terminate()
        dash.wait(15)
        broker.stop()


if __name__ == "__main__":
    sys.exit(main())
