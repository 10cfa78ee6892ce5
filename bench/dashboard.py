"""Floor dashboard under a busy room: N tables (default 500) publishing into one mosquitto, ``dealerbox
dashboard`` subscribed (its own process, SQLite store), C browsers (default 50) on its SSE stream.

Figures: p50/p99 from a table's publish to the alert's arrival in an SSE client (target p99 < 250 ms), the
dashboard's CPU (% of one core) and peak RSS, and the time for headless chromium to load and render the
N-table map (target < 1 s). The tables run in one child process that publishes at a live room's pace: per
table an event and a state snapshot every second, an alert every 10 s (far more than a real table raises, to
have samples). The tables start once every SSE client's stream is open. Everything shares the machine's cores,
so the latency is an upper bound for a dedicated server. Alerts sent in the first 5 s (the dashboard meeting N
tables at once) are reported apart from the steady room after them.

It also checks that every alert is counted exactly once: alerts sent by the tables, alerts the dashboard filed
(its store holds each (table, boot, finding) once, QoS 1 redeliveries dropped and counted), and alerts an SSE
client received twice. ``dashboard CPU per 1,000 messages`` is the work the dashboard does, which (unlike the
latency) hardly depends on what else the shared machine runs.

    PYTHONPATH=. python -m bench.dashboard [--tables 500] [--clients 50] [--seconds 30] [--no-render]

``python -m bench --only dashboard`` runs it at 500 and at 1,000 tables (issue 19's floor size).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import math
import os
import re
import sqlite3
import subprocess
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path

import httpx
import psutil

from .broker import BrokerMissing, Mosquitto, free_port
from .common import Context, Figure, missing, percentile

SITE = "bench"
PASSWORD = "bench-password-1"
TARGET_P99_MS = 250.0
TARGET_RENDER_MS = 1000.0
WARMUP_S = 5.0               # alerts sent this soon after the tables start are left out of the steady figure
GRACE_S = 60.0               # after the tables stop, the SSE clients wait this long at most for the alerts still due

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
print("alerts", sum(aseq.values()), "messages", 2 * sum(seq.values()) + sum(aseq.values()) + len(names), flush=True)
c.loop_stop()
'''


ALERT_BODY = re.compile(r'event: alert\ndata: (.*?"id": (\d+), "open": true, "severity"[^\n]*?"escalated": false'
                        r'[^\n]*)', re.S)
SENT = re.compile(r"sent@([0-9.]+)")


async def sse_client(url: str, cookies: httpx.Cookies, samples: list[tuple[float, float]], twice: list[int],
                     stop: asyncio.Event, counts: list[int], me: int, opened: list[int]) -> None:
    """One browser on /events, as cheap as a reader can be (a raw socket and two regexes, no JSON decoding): on
    a shared machine a heavier client falls behind by itself and the figure would measure the bench.
    ``opened`` counts the clients whose stream has begun (it sends what is journalled from then on)."""
    seen: set[str] = set()
    host, port = url.rsplit("/", 1)[-1].split(":")
    reader, writer = await asyncio.open_connection(host, int(port))
    cookie = "; ".join(f"{k}={v}" for k, v in cookies.items())
    writer.write(f"GET /events HTTP/1.1\r\nHost: {host}\r\nCookie: {cookie}\r\nAccept: text/event-stream\r\n\r\n"
                 .encode())
    buffer = ""
    is_open = False
    try:
        while not stop.is_set():
            chunk = await reader.read(65536)
            if not chunk:
                return
            now = time.time()
            if not is_open:
                is_open = True           # the response and the stream's first line: it is open
                opened[0] += 1
            buffer += chunk.decode("utf-8", "replace")
            cut = buffer.rfind("\n\n")
            if cut < 0:
                continue
            done, buffer = buffer[:cut], buffer[cut + 2:]
            for found in ALERT_BODY.finditer(done):
                sent = SENT.search(found.group(1))
                if not sent:
                    continue
                if found.group(2) in seen:        # nobody acks in the bench: a second "open" is a duplicate
                    twice[0] += 1
                    continue
                seen.add(found.group(2))
                counts[me] += 1
                samples.append((float(sent.group(1)), (now - float(sent.group(1))) * 1000))
    finally:
        writer.close()


async def watch(url: str, cookies: httpx.Cookies, clients: int,
                until: Callable[[list[int], list[int]], Awaitable[None]]) -> tuple[list[tuple[float, float]], int]:
    """Every client's deliveries until ``until(counts, opened)`` returns (counts: alerts each client has had so
    far; opened: how many clients' streams have begun)."""
    samples: list[tuple[float, float]] = []
    twice = [0]
    counts = [0] * clients
    opened = [0]
    stop = asyncio.Event()
    tasks = [asyncio.create_task(sse_client(url, cookies, samples, twice, stop, counts, me, opened))
             for me in range(clients)]
    await until(counts, opened)
    stop.set()
    for t in tasks:
        t.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    return samples, twice[0]


def dropped_redeliveries(url: str, cookies: httpx.Cookies) -> int:
    """The dashboard's count of QoS 1 redeliveries it recognised and dropped, read off its health page."""
    with httpx.Client(base_url=url, cookies=cookies) as c:
        found = re.search(r'id="dups">(\d+)<', c.get("/health").text)
    return int(found.group(1)) if found else -1


def alerts_filed(db_file: Path) -> int:
    with sqlite3.connect(db_file) as conn:
        return conn.execute("SELECT count(*) FROM alerts").fetchone()[0]


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


def measure(tables_n: int, clients: int, seconds: float, render: bool = True, say=print,
            samples_file: str | None = None) -> dict:
    """One run: a broker, the dashboard (its own process) and the tables; the figures as a dict."""
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
        deadline = time.monotonic() + 90    # a loaded machine imports slowly
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
        peak = [0]

        async def sample_rss() -> None:
            while True:
                peak[0] = max(peak[0], proc.memory_info().rss)
                await asyncio.sleep(0.5)

        published: list[str] = []

        began = [0.0]           # when the tables started

        async def until(counts: list[int], opened: list[int]) -> None:
            nonlocal tables
            # The tables start once every client's stream is open: a stream sends what is journalled after it
            # began, so a client that a loaded machine connected late missed the first alerts for good (four of
            # fifty once, counted as never delivered)
            deadline = time.monotonic() + 60
            while opened[0] < clients and time.monotonic() < deadline:
                await asyncio.sleep(0.1)
            began[0] = time.time()
            tables = subprocess.Popen([sys.executable, "-c", PUBLISHER, str(broker.port), str(tables_n),
                                       str(seconds)], env=env, stdout=subprocess.PIPE, text=True)
            # Until every client has every alert the tables sent (or GRACE_S after they stopped): an alert a
            # client had not got when the tables stopped is late, not absent, and used to be left out of the p99
            out, _ = await asyncio.to_thread(tables.communicate, None, seconds + 120)
            published.append(out)
            found = re.search(r"alerts (\d+)", out)
            due = int(found.group(1)) if found else 0
            deadline = time.monotonic() + GRACE_S
            while min(counts) < due and time.monotonic() < deadline:
                await asyncio.sleep(0.2)

        async def run() -> tuple[list[float], int]:
            sampler = asyncio.create_task(sample_rss())
            try:
                return await watch(url, cookies, clients, until)
            finally:
                sampler.cancel()

        # the same latency straight off the broker: what the tables and the broker cost, before the dashboard
        direct_at: list[tuple[float, float]] = []       # (sent, ms) per alert
        import paho.mqtt.client as mqtt
        sub = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, protocol=mqtt.MQTTv5)

        def on_message(_c, _u, m) -> None:
            sent = re.search(rb"sent@([0-9.]+)", m.payload)
            if sent:
                direct_at.append((float(sent.group(1)), (time.time() - float(sent.group(1))) * 1000))
        sub.on_message = on_message
        sub.connect("127.0.0.1", broker.port)
        sub.subscribe(f"dealerbox/{SITE}/+/alert", qos=1)
        sub.loop_start()
        cpu_start = proc.cpu_times()
        wall = time.monotonic()
        sent_and_took, twice = asyncio.run(run())
        started = began[0]
        # the first seconds are the dashboard meeting N tables at once (N tiles made, N retained states): a
        # restart's burst, reported apart from the steady room
        steady = sorted(took for at, took in sent_and_took if at >= started + WARMUP_S)
        samples = sorted(took for _at, took in sent_and_took)
        first = sorted(took for at, took in sent_and_took if at < started + WARMUP_S)
        if samples_file:         # (seconds after the tables started, ms) per delivery, to see when it was slow
            Path(samples_file).write_text(json.dumps([(round(at - started, 3), round(took, 1))
                                                      for at, took in sent_and_took]))
        out = published[0] if published else ""
        sent = re.search(r"alerts (\d+) messages (\d+)", out)
        alerts_sent, messages = (int(sent.group(1)), int(sent.group(2))) if sent else (0, 0)
        # deliveries that never came within the grace count as slower than any that did
        never = max(0, alerts_sent * clients - len(samples))
        whole = samples + [math.inf] * never
        # CPU and the filed count once the dashboard has caught up: a starved dashboard runs behind the tables
        ended = time.monotonic()
        filed = alerts_filed(work / "floor.db")
        while filed < alerts_sent and time.monotonic() - ended < 60:
            time.sleep(0.5)
            filed = alerts_filed(work / "floor.db")
        behind_s = time.monotonic() - ended
        time.sleep(1.0)               # a redelivery, if any, would come now
        cpu = proc.cpu_times()
        cpu_s = (cpu.user + cpu.system) - (cpu_start.user + cpu_start.system)
        cpu_pct = 100 * cpu_s / (time.monotonic() - wall)
        sub.loop_stop()
        direct = sorted(took for _at, took in direct_at)
        # the same split as the dashboard's: the tables and the broker at the start, without the dashboard
        direct_first = sorted(took for at, took in direct_at if at < started + WARMUP_S)
        render_ms, tiles = map_render_ms(url, cookies) if render else (None, 0)
        r = {"tables": tables_n, "clients": clients, "seconds": seconds, "deliveries": len(samples),
             "never": never, "p50_ms": percentile(whole, 50) if whole else None,
             "p99_ms": percentile(whole, 99) if whole else None,
             "steady_p50_ms": percentile(steady, 50) if steady else None,
             "steady_p99_ms": percentile(steady, 99) if steady else None, "steady_n": len(steady),
             "start_p99_ms": percentile(first, 99) if first else None, "start_max_ms": first[-1] if first else None,
             "direct_p50_ms": percentile(direct, 50) if direct else None,
             "direct_p99_ms": percentile(direct, 99) if direct else None, "direct_n": len(direct),
             "direct_start_p99_ms": percentile(direct_first, 99) if direct_first else None,
             "load": os.getloadavg()[0], "cpu_pct": cpu_pct, "rss_mib": peak[0] / 2**20,
             "cpu_ms_per_1000": 1e6 * cpu_s / messages if messages else None, "messages": messages,
             "alerts_sent": alerts_sent, "alerts_filed": alerts_filed(work / "floor.db"), "behind_s": behind_s,
             "sse_twice": twice, "redeliveries_dropped": dropped_redeliveries(url, cookies),
             "render_ms": render_ms, "tiles": tiles}
        say(report(r))
        return r
    finally:
        if tables and tables.poll() is None:
            tables.terminate()
        dash.terminate()
        dash.wait(15)
        broker.stop()


def report(r: dict) -> str:
    lines = [f"tables {r['tables']}, SSE clients {r['clients']}, {r['seconds']:.0f} s, "
             f"alert deliveries {r['deliveries']}, never delivered (within {GRACE_S:.0f} s of the end) "
             f"{r.get('never', 0)}"]
    if r["p50_ms"] is not None:
        lines.append(f"publish -> SSE alert (every alert to every client): p50 {r['p50_ms']:.1f} ms, "
                     f"p99 {r['p99_ms']:.1f} ms (target p99 < {TARGET_P99_MS:.0f} ms)")
    if r["steady_p50_ms"] is not None:
        lines.append(f"  steady room (sent after the first {WARMUP_S:.0f} s): p50 {r['steady_p50_ms']:.1f} ms, "
                     f"p99 {r['steady_p99_ms']:.1f} ms over {r['steady_n']} deliveries")
    if r.get("start_p99_ms") is not None:
        lines.append(f"  start-up burst (sent in the first {WARMUP_S:.0f} s, N tables' retained states): "
                     f"p99 {r['start_p99_ms']:.1f} ms, worst {r['start_max_ms']:.1f} ms")
    if r["direct_p50_ms"] is not None:
        lines.append(f"publish -> a plain MQTT subscriber (no dashboard): p50 {r['direct_p50_ms']:.1f} ms, "
                     f"p99 {r['direct_p99_ms']:.1f} ms over {r['direct_n']} alerts"
                     + (f" (start-up burst p99 {r['direct_start_p99_ms']:.1f} ms)"
                        if r.get("direct_start_p99_ms") is not None else ""))
    lines.append(f"machine load average (1 min) {r['load']:.1f} on {os.cpu_count()} cores")
    lines.append(f"dashboard CPU {r['cpu_pct']:.0f}% of one core, peak RSS {r['rss_mib']:.0f} MiB, "
                 f"{r['cpu_ms_per_1000'] or 0:.0f} ms CPU per 1,000 messages ({r['messages']} messages)")
    lines.append(f"dashboard filed the last alert {r['behind_s']:.1f} s after the clients stopped watching")
    lines.append(f"alerts sent {r['alerts_sent']}, filed once each {r['alerts_filed']}, redeliveries dropped "
                 f"{r['redeliveries_dropped']}, alerts an SSE client got twice {r['sse_twice']}")
    if r["p99_ms"] is not None:
        met = "met" if r["p99_ms"] < TARGET_P99_MS else "NOT met"
        lines.append(f"p99 {r['p99_ms']:.0f} ms against the target of p99 < {TARGET_P99_MS:.0f} ms at "
                     f"{r['tables']} tables: {met} (the plain MQTT subscriber's p99, "
                     f"{r['direct_p99_ms'] or 0:.0f} ms, is what the machine's load alone costs)")
    if r["render_ms"] is not None:
        lines.append(f"map of {r['tiles']} tables loaded and rendered in chromium in {r['render_ms']:.0f} ms "
                     f"(target < {TARGET_RENDER_MS:.0f} ms)")
    return "\n".join(lines)


def run(ctx: Context) -> list[Figure]:
    """For ``python -m bench``: 500 tables (issue 15) and 1,000 (issue 19), 50 SSE clients each."""
    # --quick only proves the pieces still run (the whole quick suite has four minutes): no chromium then
    sizes = [(10, 5, 3.0)] if ctx.quick else [(500, 50, 30.0), (1000, 50, 30.0)]
    out: list[Figure] = []
    for n, clients, seconds in sizes:
        try:
            r = measure(n, clients, seconds, render=not ctx.quick, say=ctx.say)
        except BrokerMissing as e:
            return [missing("dashboard", "publish -> SSE alert p99", "ms", str(e), TARGET_P99_MS, "<")]
        note = (f"p50 {r['p50_ms'] or 0:.1f} ms over {r['deliveries']} deliveries to {clients} SSE clients; plain "
                f"MQTT subscriber p99 {r['direct_p99_ms'] or 0:.1f} ms; load average {r['load']:.1f}")
        out.append(Figure("dashboard", f"{n} tables: publish -> SSE alert p99", r["p99_ms"], "ms", TARGET_P99_MS,
                          "<", note=note, extra=r))
        out.append(Figure("dashboard", f"{n} tables: steady room SSE alert p99", r["steady_p99_ms"], "ms",
                          TARGET_P99_MS, "<", note=f"alerts sent after the first {WARMUP_S:.0f} s"))
        out.append(Figure("dashboard", f"{n} tables: start-up burst SSE alert p99", r["start_p99_ms"], "ms",
                          TARGET_P99_MS, "<", note=f"alerts sent in the first {WARMUP_S:.0f} s, as the tables connect"))
        out.append(Figure("dashboard", f"{n} tables: dashboard CPU", r["cpu_pct"], "% core",
                          note=f"{r['cpu_ms_per_1000'] or 0:.0f} ms CPU per 1,000 messages, peak RSS "
                               f"{r['rss_mib']:.0f} MiB"))
        out.append(Figure("dashboard", f"{n} tables: alerts filed once", r["alerts_filed"], "alerts",
                          r["alerts_sent"], ">=", note=f"of {r['alerts_sent']} sent; redeliveries dropped "
                                                       f"{r['redeliveries_dropped']}; SSE duplicates {r['sse_twice']}"))
        out.append(Figure("dashboard", f"{n}-table map in chromium", r["render_ms"], "ms", TARGET_RENDER_MS, "<",
                          note=f"{r['tiles']} tiles" if r["render_ms"] is not None else "not timed with --quick"))
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tables", type=int, default=500)
    ap.add_argument("--clients", type=int, default=50)
    ap.add_argument("--seconds", type=float, default=30.0)
    ap.add_argument("--no-render", action="store_true", help="skip timing the map in chromium")
    ap.add_argument("--samples", metavar="FILE", help="write every delivery's (send time, latency) as JSON")
    args = ap.parse_args()
    measure(args.tables, args.clients, args.seconds, render=not args.no_render, samples_file=args.samples)
    return 0


if __name__ == "__main__":
    sys.exit(main())
