"""Two dashboard instances on one PostgreSQL (issue 30): they start at once on a new database, race the same
writes, and share a floor (``--share``) whose every page shows the same floor calls, tiles and live alerts on
either instance, whichever filed or acknowledged them. A real PostgreSQL and a real mosquitto with the shipped
ACL; the instances are ``dealerbox dashboard serve`` processes."""

from __future__ import annotations

import json
import re
import subprocess
import sys
import threading

import httpx
import psycopg
import pytest

from dealerbox.dashboard.floor import FloorIngest
from dealerbox.dashboard.store import Store
from dealerbox.engine.findings import FindingLog
from dealerbox.sinks.floor.link import FloorLink
from tests.dashboard.instances import Served
from tests.dashboard.postgres import Postgres
from tests.dashboard.tables import alert_bytes
from tests.dashboard.test_delivery import ACL, CLIENT_ID_IS_USERNAME, USERS, WATCHER_ACL, Watcher, password_file, \
    submit_hands, unfiled
from tests.test_floor_contract import ROOT, link_config
from tests.waiting import wait_until

from .conftest import csrf_of, login, scaled

pytestmark = pytest.mark.timeout(300)

# One process per instance, each waiting for the "go" file so both open the new database at the same moment.
START = r'''
import os, sys, time
from pathlib import Path
from dealerbox.dashboard.service import Dashboard
from dealerbox.dashboard.store import Store
go = Path(sys.argv[2])
print("ready", flush=True)
while not go.exists():
    time.sleep(0.0005)
store = Store(sys.argv[1])
print(Dashboard(store).session_key, flush=True)
'''


@pytest.fixture(scope="module")
def postgres():
    pg = Postgres().start()
    yield pg
    pg.stop()


def new_database(pg: Postgres, name: str) -> str:
    with psycopg.connect(f"postgresql://dealerbox@127.0.0.1:{pg.port}/postgres", autocommit=True) as conn:
        conn.execute(f"CREATE DATABASE {name}")
    return pg.url.rsplit("/", 1)[0] + f"/{name}"


def test_two_instances_starting_at_once_on_a_new_database_both_start_and_share_one_session_key(postgres, tmp_path):
    # Before: both created the schema (one failed on PostgreSQL's catalogue) and both inserted the settings row.
    for round_ in range(4):
        url = new_database(postgres, f"race{round_}")
        go = tmp_path / f"go{round_}"
        procs = [subprocess.Popen([sys.executable, "-c", START, url, str(go)], cwd=ROOT, stdout=subprocess.PIPE,
                                  stderr=subprocess.PIPE, text=True) for _ in range(2)]
        for p in procs:        # both have imported everything: what is left is the database
            assert p.stdout is not None and p.stdout.readline().strip() == "ready", p.communicate(timeout=scaled(60))
        go.write_text("go")
        outs = [p.communicate(timeout=scaled(120)) for p in procs]
        assert [p.returncode for p in procs] == [0, 0], [err[-1500:] for _, err in outs]
        keys = {out.strip() for out, _ in outs}
        store = Store(url)
        try:
            assert len(keys) == 1 and store.setting("session_key", lambda: "never made") in keys
            assert store.versions() == [1, 2, 3, 4]
        finally:
            store.close()


def race_round(stores: list[Store], ingests: list[FloorIngest], n: int) -> tuple[list[object], list[BaseException]]:
    """Both instances write the same things at the same moment (a barrier), then claim the same alert at once:
    what each claim returned, and what either raised."""
    gate = threading.Barrier(2)
    results: list[object] = [None, None]
    errors: list[BaseException] = []
    raw = alert_bytes("race", f"R{n:02d}", f"h{n}-1", "two boxed cards", seq=1, boot=f"boot{n}")

    def write(i: int) -> None:
        try:
            gate.wait(scaled(10))
            with stores[i].engine.begin() as conn:
                stores[i].bump(conn, f"counter{n}", 2)
                stores[i].touch_table(conn, "race", f"X{n:02d}", 1.0, invalid=True)
                stores[i].add_tables(conn, [("race", f"Y{n:02d}"), ("race", f"Z{n:02d}")], 1.0)
            ingests[i].receive_many([(f"dealerbox/race/R{n:02d}/alert", raw)], 1.0)
            alert_id = stores[i].alerts(site="race", table=f"R{n:02d}")[0].id
            gate.wait(scaled(10))
            results[i] = stores[i].claim_alert(alert_id, ("acked_at",), acked_by=f"sup{i}", acked_at=2.0)
        except BaseException as e:      # reported by the test, with the round
            errors.append(e)

    threads = [threading.Thread(target=write, args=(i,)) for i in (0, 1)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(scaled(60))
    return results, errors


def test_two_instances_racing_the_same_writes_file_each_once_and_claim_each_alert_once(postgres):
    # Before: add_alert, add_tables, the first bump of a counter and the first touch of a table looked, then
    # inserted: the slower of two instances failed on the unique key and its whole burst rolled back.
    url = new_database(postgres, "writes")
    stores = [Store(url), Store(url)]
    ingests = [FloorIngest(s) for s in stores]
    try:
        for n in range(12):
            results, errors = race_round(stores, ingests, n)
            assert not errors, (n, errors)
            assert sorted(results, key=str) == [False, True], (n, results)     # one supervisor's ack stands
            filed = stores[0].alerts(site="race", table=f"R{n:02d}")
            assert len(filed) == 1 and filed[0].acked_by in ("sup0", "sup1")
            assert stores[0].counters()[f"counter{n}"] == 4
            assert stores[0].table("race", f"X{n:02d}")["invalid"] == 2
            assert {("race", f"Y{n:02d}"), ("race", f"Z{n:02d}")} <= stores[1].table_keys()
    finally:
        for s in stores:
            s.close()


def sse_reader(url: str, cookies: httpx.Cookies, bodies: list[dict], stop: threading.Event) -> threading.Event:
    """A browser's one live stream: every alert body it is pushed, in order. The event returned is set once the
    stream is open (the server has fixed where it starts: what is journalled after that, it gets)."""
    opened = threading.Event()

    def read() -> None:
        with httpx.Client(base_url=url, cookies=cookies, timeout=httpx.Timeout(5.0, read=None)) as client, \
                client.stream("GET", "/events") as r:
            opened.set()
            kind = ""
            for line in r.iter_lines():
                if stop.is_set():
                    return
                if line.startswith("event: "):
                    kind = line[7:]
                elif line.startswith("data: ") and kind == "alert":
                    bodies.append(json.loads(line[6:]))
    threading.Thread(target=read, daemon=True).start()
    return opened


def floor_calls_on_map(client: httpx.Client) -> tuple[dict, int]:
    """What the map says: the open floor calls per site (the alarm) and T01's tile's open count."""
    page = client.get("/?site=demo").text
    calls = json.loads(re.search(r"data-floor='([^']*)'", page).group(1))
    tile = re.search(r'id="tile-demo-T01".*?</a>', page, re.S)
    shown = re.search(r"(\d+) open", tile.group(0)) if tile else None
    return calls, int(shown.group(1)) if shown else 0


def test_two_shared_instances_show_the_same_floor_calls_tiles_and_live_alerts(make_broker, tmp_path, postgres):
    # Before: the alarm and the tiles were each process's own share: the instance that filed 9 of 20 alerts
    # showed 9 floor calls, and its browsers never got the other 11 live.
    url = new_database(postgres, "shared")
    broker = make_broker(users=USERS, acl=ACL + WATCHER_ACL, extra=CLIENT_ID_IS_USERNAME)
    watcher = Watcher(broker)
    served = [Served(tmp_path, url, broker.port, "--username", f"floor-dashboard-{i}", "--password-file",
                     password_file(tmp_path, f"floor-dashboard-{i}"), "--share", "floor", "--name", f"dash{i}")
              for i in (1, 2)]
    config = link_config(tmp_path, broker.port, username="demo/T01", password_file=password_file(tmp_path, "demo/T01"))
    link = FloorLink(config, reconnect_min=0.05, reconnect_max=0.3, receipt_wait=1.0)
    clients: list[httpx.Client] = []
    stop = threading.Event()
    streams: list[list[dict]] = [[], []]
    try:
        for s in served:
            s.wait_started()
            client = httpx.Client(base_url=f"http://127.0.0.1:{s.port}", timeout=scaled(30))
            assert login(client, "ada").status_code in (200, 303)
            clients.append(client)
        assert wait_until(lambda: sum(f"u'floor-dashboard-{i}'" in broker.log() for i in (1, 2)) == 2
                          or broker.log().count("as floor-dashboard-") >= 2, scaled(20)), broker.log()[-800:]
        opened = [sse_reader(str(client.base_url), client.cookies, bodies, stop)
                  for client, bodies in zip(clients, streams, strict=True)]
        # on a loaded machine a stream could open after the first alerts were filed, and start after them
        assert all(o.wait(scaled(30)) for o in opened)
        link.start()
        sent = submit_hands(link, range(1, 21), FindingLog())
        store = Store(url)
        try:
            assert wait_until(lambda: len(store.alerts(limit=100)) == sent == 20 and unfiled(config) == 0,
                              scaled(90)), \
                (len(store.alerts(limit=100)), unfiled(config))
            ids = {a.id for a in store.alerts(limit=100)}
        finally:
            store.close()
        assert wait_until(lambda: len(watcher.senders()) == 2, scaled(10)), watcher.senders()     # both filed a share
        for n, client in enumerate(clients):
            assert wait_until(lambda c=client: floor_calls_on_map(c) == ({"demo": 20}, 20), scaled(20)), \
                (n, floor_calls_on_map(client))
        for n, bodies in enumerate(streams):      # every alert live on both, whichever instance filed it
            assert wait_until(lambda b=bodies: {x["id"] for x in list(b)} >= ids, scaled(20)), \
                (n, sorted(ids - {x["id"] for x in list(bodies)}))
            assert wait_until(lambda b=bodies: b[-1]["floor"] == {"demo": 20}, scaled(10)), (n, bodies[-1]["floor"])
        # five acknowledged on the second instance: the first one's alarm, tile and stream follow
        token = csrf_of(clients[1])
        for alert_id in sorted(ids)[:5]:
            r = clients[1].post(f"/alerts/{alert_id}/ack", headers={"x-csrf-token": token})
            assert r.status_code == 200, r.text
        assert wait_until(lambda: floor_calls_on_map(clients[0]) == ({"demo": 15}, 15), scaled(20)), \
            floor_calls_on_map(clients[0])
        assert wait_until(lambda: streams[0][-1]["floor"] == {"demo": 15} and not streams[0][-1]["open"], scaled(20)), \
            streams[0][-1]
        assert "15 open" in streams[0][-1]["tile"]
        # the same alert acknowledged again on the first instance: refused, named, not sent to the table twice
        token0 = csrf_of(clients[0])
        again = clients[0].post(f"/alerts/{sorted(ids)[0]}/ack", headers={"x-csrf-token": token0})
        assert again.status_code == 409 and "already acknowledged by ada" in again.text
    finally:
        stop.set()
        link.stop()
        for client in clients:
            client.close()
        for s in served:
            s.stop()
        watcher.stop()

