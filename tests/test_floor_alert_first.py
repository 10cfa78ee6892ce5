"""An alert does not wait for its outbox commit (issue 19, the alert tail): the floor link publishes it while
the commit's fsync runs, and the row is still committed and deleted on its PUBACK.

The disk is made slow for real: the terminal runs in a child process with a small preloaded library that
makes every ``fsync``/``fdatasync`` take SLOW_MS, as a worn SD card under load does. Nothing of ours is
replaced. What proves the point is the order a real mosquitto delivers: the alert (published before the
commit) reaches the floor before the ``FindingRaised`` event of the same engine step (published from the
committed outbox), and well before the commit could have ended."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
import time

import pytest

from dealerbox.sinks.floor.view import FloorView

from .test_floor_contract import ROOT
from .test_floor_link import validate_all
from tests.conftest import scaled

pytestmark = pytest.mark.timeout(90)

SLOW_MS = 400

SLOW_SYNC_C = r"""
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdlib.h>
#include <time.h>
static void stall(void) {
    const char *ms = getenv("SLOW_SYNC_MS");
    long n = ms ? atol(ms) : 0;
    struct timespec t = {n / 1000, (n % 1000) * 1000000L};
    nanosleep(&t, 0);
}
int fsync(int fd) {
    static int (*real)(int);
    if (!real) real = (int (*)(int))dlsym(RTLD_NEXT, "fsync");
    stall();
    return real(fd);
}
int fdatasync(int fd) {
    static int (*real)(int);
    if (!real) real = (int (*)(int))dlsym(RTLD_NEXT, "fdatasync");
    stall();
    return real(fd);
}
"""

CHILD = textwrap.dedent("""
    import json, sys, time
    sys.path.insert(0, {root!r})
    from pathlib import Path
    from dealerbox.engine.findings import FindingLog
    from dealerbox.sinks.floor import contract as c
    from dealerbox.sinks.floor.link import FloorLink
    from tests.test_floor_contract import hand_updates, link_config

    def drained(link, updates):
        # every row of these updates committed, sent and deleted on its PUBACK
        rows = sum(len(u.events) + sum(c.is_alert(e) for e in u.events) for u in updates)
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            h = link.health()
            if h["spooled"] >= rows and h["acked"] == h["spooled"] and h["outbox_depth"] == 0:
                return True
            time.sleep(0.01)
        return False

    link = FloorLink(link_config(Path({tmp!r}), {port}), boot_id="slowdisk").start()
    ups = hand_updates(1, FindingLog(), t0=100.0)[0]
    first = next(i for i, u in enumerate(ups) if any(e.kind == "FindingRaised" for e in u.events))
    for u in ups[:first]:
        link.submit(u)
    assert drained(link, ups[:first]), link.health()
    time.sleep(2.0)   # past the spooler's idle WAL checkpoint (its own slow fsyncs), so only the commit syncs
    print("finding", flush=True)
    link.submit(ups[first])   # alone in its group: nothing committed waits ahead of its alert
    submitted = time.time()
    assert drained(link, ups[:first + 1]), link.health()
    print(json.dumps({{"submitted": submitted, "health": link.health()}}), flush=True)
    link.stop(timeout=2)
""")


@pytest.fixture
def slow_sync(tmp_path):
    source = tmp_path / "slowsync.c"
    source.write_text(SLOW_SYNC_C)
    lib = tmp_path / "slowsync.so"
    subprocess.run(["cc", "-shared", "-fPIC", "-O2", "-o", str(lib), str(source), "-ldl"], check=True)
    return lib


def test_an_alert_reaches_the_floor_while_its_outbox_commit_is_still_syncing(broker, slow_sync, tmp_path):
    arrived: list[tuple[float, str, dict]] = []
    view = FloorView(broker.host, broker.port, "demo")
    receive = view.receive

    def stamped(topic, raw, retain=False, props=None):
        # the moment each message reaches the floor, in the order the broker delivered them
        arrived.append((time.time(), topic, json.loads(raw) if raw else {}))
        receive(topic, raw, retain, props)

    view.receive = stamped
    view.start()
    env = dict(os.environ, LD_PRELOAD=str(slow_sync), SLOW_SYNC_MS=str(SLOW_MS))
    child = subprocess.Popen([sys.executable, "-c", CHILD.format(root=str(ROOT), tmp=str(tmp_path), port=broker.port)],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=ROOT, env=env)
    try:
        out, err = child.communicate(timeout=scaled(60))
    finally:
        if child.poll() is None:
            child.kill()
        view_ok = view.wait_until(lambda v: any(m[0].endswith("/alert") for m in v.messages), scaled(5))
        view.stop()
    assert child.returncode == 0, err.decode()[-2000:]
    lines = out.decode().splitlines()
    assert lines[0] == "finding"
    done = json.loads(lines[1])
    health = done["health"]
    assert view_ok, "no alert reached the floor"

    alerts = [(t, p) for t, topic, p in arrived if topic.endswith("/alert")]
    assert len(alerts) == 1, alerts
    t_alert, alert = alerts[0]
    raised = [(t, p) for t, topic, p in arrived
              if topic.endswith("/event") and p["seq"] == alert["event_seq"]]
    assert len(raised) == 1 and raised[0][1]["data"]["event"] == "FindingRaised"
    t_event = raised[0][0]
    order = [p.get("seq") for t, topic, p in arrived if topic.endswith(("/alert", "/event")) and t >= t_alert - 1]
    # the alert went while its group's commit synced; its event only once the row was committed
    assert t_alert < t_event, order
    assert t_event - t_alert > SLOW_MS / 1000 / 4, (t_event - t_alert)   # the event did wait for the slow sync
    assert t_alert - done["submitted"] < SLOW_MS / 1000, (t_alert - done["submitted"])
    assert not alert["replayed"]
    # the row was still committed, and deleted on its PUBACK: the outbox is empty, nothing was sent twice
    assert health["published_early"] == 1 and health["outbox_depth"] == 0
    assert health["acked"] == health["spooled"] and health["published"] == health["spooled"]
    assert view.duplicates == 0
    validate_all(view)
