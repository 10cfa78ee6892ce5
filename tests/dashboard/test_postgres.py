"""The same store and app code on a real PostgreSQL server (started by the test on a free port)."""

from __future__ import annotations

import json
import re

import pytest
from starlette.testclient import TestClient

from dealerbox.dashboard import auth
from dealerbox.dashboard.app import create_app
from dealerbox.dashboard.service import Dashboard
from dealerbox.dashboard.store import Store

from .postgres import Postgres
from .tables import alert_bytes, event_bytes

pytestmark = pytest.mark.timeout(180)


@pytest.fixture(scope="module")
def postgres():
    pg = Postgres().start()
    yield pg
    pg.stop()


def test_dashboard_runs_on_postgresql(postgres):
    store = Store(postgres.url)
    assert store.engine.dialect.name == "postgresql"
    assert Store(postgres.url).versions() == [1, 2, 3, 4]                # a second start does not migrate again
    store.put_user("pat", "supervisor", auth.hash_password("pg-password-1"))
    dash = Dashboard(store)
    dash.receive("dealerbox/north/P01/alert", alert_bytes("north", "P01", "h2-1", "<b>loud</b>"))
    dash.receive("dealerbox/north/P01/alert", alert_bytes("north", "P01", "h2-1", "<b>loud</b>"))   # redelivered
    dash.receive("dealerbox/north/P01/event", json.dumps({
        "v": 1, "kind": "event", "site": "north", "table": "P01", "boot": "b", "seq": 1, "t": 1.0, "at": 1.0,
        "data": {"event": "HandStarted", "t": 1.0, "hand": 2}}).encode())
    dash.receive("dealerbox/north/P01/state", b"{broken")
    assert len(store.alerts()) == 1 and store.counters() == {"received": 2, "invalid": 1}
    # the dealer acknowledged it at the table: noted, not closed (a floor alert), and resolving need not tell it
    dash.receive("dealerbox/north/P01/event", event_bytes("north", "P01", {
        "event": "FindingAcknowledged", "t": 2.0, "hand": 2, "id": "h2-1"}, seq=1))
    assert store.alerts()[0].open and store.alerts()[0].table_acked_by == "table"
    with TestClient(create_app(dash, background=False)) as client:
        token = re.search(r'name="csrf" value="([^"]+)"', client.get("/login").text).group(1)
        client.post("/login", data={"name": "pat", "password": "pg-password-1", "csrf": token})
        token = re.search(r'name="csrf" content="([^"]+)"', client.get("/alerts").text).group(1)
        alert_id = store.alerts()[0].id
        r = client.post(f"/alerts/{alert_id}/resolve", data={"note": "checked on camera", "csrf": token},
                        follow_redirects=False)
        assert r.status_code == 303
        page = client.get("/alerts?site=north").text
        assert "&lt;b&gt;loud&lt;/b&gt;" in page and "checked on camera" in page
        assert "hand 2" in client.get("/tables/north/P01").text
        assert "checked on camera" in client.get("/alerts.csv?supervisor=pat").text
        assert client.get("/health").status_code == 200
    assert store.last_journal_id() >= 3
    store.close()


def test_the_anchor_store_upgrades_an_old_floor_database_and_checks_hands_on_postgresql(postgres, tmp_path):
    import sqlalchemy as sa

    from dealerbox.dashboard.anchors import AnchorStore
    from dealerbox.record.anchor import anchor_message
    from dealerbox.record.signing import anchor_digest, anchor_fields_text, anchor_text, generate, load_signer

    generate(tmp_path / "k" / "P02.key")
    signer = load_signer(tmp_path / "k" / "P02.key", "P02")
    store = Store(postgres.url)
    with store.engine.begin() as conn:       # the anchor store's first version: no hands, no presence columns
        conn.exec_driver_sql("DROP TABLE IF EXISTS anchor_tables")
        conn.exec_driver_sql("CREATE TABLE anchor_tables (site VARCHAR(32) NOT NULL, table_id VARCHAR(32) NOT NULL, "
                             "pubkey VARCHAR(64) NOT NULL, enrolled_at FLOAT NOT NULL, a INTEGER NOT NULL, digest "
                             "VARCHAR(64) NOT NULL, seq INTEGER NOT NULL, part INTEGER NOT NULL, n INTEGER NOT NULL, "
                             "kept INTEGER NOT NULL, PRIMARY KEY (site, table_id))")
        conn.exec_driver_sql(f"INSERT INTO anchor_tables VALUES ('north', 'P02', '{signer.public_hex}', 0, 0, '', "
                             f"0, 0, -1, 0)")
    anchors = AnchorStore(store)
    prev, verdicts = "0" * 64, []
    with store.engine.begin() as conn:
        assert {"hand", "hand_log", "down_at"} <= {c["name"] for c in sa.inspect(conn).get_columns("anchor_tables")}
        anchors.presence(conn, "north", "P02", "offline", 100.0)
        for a, (log, seq, hands) in enumerate((("aaaaaaaaaaaaaaaa", 1, (1, 3)), ("bbbbbbbbbbbbbbbb", 2, (2, 2))), 1):
            text = anchor_text("north", "P02", log, seq, "0" * 64, 0, a, "1" * 64, a, prev, hands)
            head = anchor_message("north", {"table": "P02", "log": log, "seq": seq, "origin": "0" * 64, "part": 0,
                                            "n": a, "head": "1" * 64, "sig": signer.sign(0, a, "1" * 64),
                                            "key": "0" * 16, "t": 1.0, "at": "2026-01-01T00:00:00Z", "a": a,
                                            "prev": prev, "asig": signer.sign_bytes(text), "hands": list(hands)})
            verdicts.append(anchors.receive(conn, "north", "P02", head, 100.0 + 3600 * a))
            prev = anchor_digest(anchor_fields_text(head))
    assert [v.kept for v in verdicts] == [True, True]
    assert [[r["rule"] for r in v.alerts] for v in verdicts] == [["evidence.anchor.late"],
                                                                 ["evidence.anchor.hands", "evidence.anchor.late"]]
    store.close()
