"""The smaller floor findings of issue 14: an outbox holding another table's rows, a refused hole-card
publish, and text from a table printed on a floor console."""

from __future__ import annotations

import logging
import sqlite3

import pytest

from dealerbox.engine.findings import FindingLog
from dealerbox.sinks.floor import contract as c
from dealerbox.sinks.floor.link import FloorLink
from dealerbox.sinks.floor.outbox import Outbox
from dealerbox.sinks.floor.view import FloorView
from tests.test_floor_contract import ROOT, count_events, hand_updates, link_config
from tests.test_floor_security import USERS, _password_file
from tests.waiting import wait_until
from tests.conftest import scaled

pytestmark = pytest.mark.timeout(90)


def test_rows_of_another_table_are_quarantined_with_one_line_not_retried(broker, tmp_path, caplog):
    config = link_config(tmp_path, broker.port)
    # the outbox file came from T02 (copied, or table.id changed with rows pending)
    foreign = Outbox(config.floor.outbox)
    env = c.Envelope("demo", "T02", "old-boot")
    foreign.insert([(c.topic("demo", "T02", "event"), "event", 1, "old-boot", i, -1,
                     env.wrap("event", 0, 0, {"data": {"event": "HandStarted"}})) for i in range(1, 6)])
    foreign.close()
    view = FloorView(broker.host, broker.port, "demo").start()
    caplog.set_level(logging.WARNING, logger="dealerbox.floor")
    link = FloorLink(config, reconnect_min=0.05).start()
    try:
        ups, _ = hand_updates(1, FindingLog())
        for u in ups:
            link.submit(u)
        assert view.wait_until(lambda v: len(v.events("T01")) == count_events(ups), scaled(10))
        assert wait_until(lambda: link.health()["outbox_depth"] == 0, scaled(5))
        assert link.health()["quarantined"] == 5
        assert "T02" not in view.tables
        lines = [r.getMessage() for r in caplog.records if "quarantine" in r.getMessage()]
        assert len(lines) == 1 and "dealerbox/demo/T02/event" in lines[0] and "demo/T01" in lines[0]
    finally:
        link.stop(timeout=scaled(1))
        view.stop()
    kept = sqlite3.connect(config.floor.outbox).execute("SELECT COUNT(*) FROM quarantine").fetchone()[0]
    assert kept == 5   # kept for a technician, not deleted


def test_a_refused_hole_card_publish_is_logged_once_and_counted(make_broker, tmp_path, caplog):
    # demo/T02 is not listed for the broadcast topic in the shipped ACL
    broker = make_broker(users=USERS, acl=(ROOT / "docs/mosquitto/acl").read_text())
    view = FloorView(broker.host, broker.port, "demo", username="floor", password=USERS["floor"]).start()
    caplog.set_level(logging.ERROR, logger="dealerbox.floor")
    link = FloorLink(link_config(tmp_path, broker.port, table="T02", username="demo/T02", hole_cards_topic=True,
                                 password_file=_password_file(tmp_path, "demo/T02")), reconnect_min=0.05).start()
    try:
        ups, _ = hand_updates(1, FindingLog())
        for u in ups:
            link.submit(u)
        secret = sum(1 for u in ups for e in u.events if e.SECRET_FIELDS)
        assert view.wait_until(lambda v: len(v.events("T02")) == count_events(ups), scaled(10))
        assert wait_until(lambda: link.health()["holecards_refused"] == secret, scaled(10)), link.health()
        assert wait_until(lambda: link.health()["connected"], scaled(5))
        h = link.health()
        # mosquitto 2.0.11 closes the connection on the refusal: one reconnect, then no hole card is tried again
        assert h["connects"] <= 2 and h["publish_refused"] == 0 and h["holecards_published"] == 0
        lines = [r.getMessage() for r in caplog.records if "hole cards" in r.getMessage()]
        assert len(lines) == 1 and "dealerbox/demo/T02/holecards" in lines[0]
    finally:
        link.stop(timeout=scaled(1))
        view.stop()


@pytest.mark.parametrize("sent, shown", [
    ("fold \x1b[2J\x1b]0;owned\x07", "fold \\x1b[2J\\x1b]0;owned\\x07"),       # clear screen, set the title
    ("seat 3 \u202eDEK\u202c", "seat 3 \\u202eDEK\\u202c"),                     # right-to-left override
    ("two\nlines\r", "two\\x0alines\\x0d"),                                     # no forged console lines
    ("C1 \x9b31m", "C1 \\x9b31m"),                                              # 8-bit CSI
    ("plain Ah Kd 100", "plain Ah Kd 100"),
    ("back\\x1b", "back\\\\x1b"),                                               # a literal backslash stays visible
])
def test_text_from_a_table_is_inert_on_a_console(sent, shown):
    assert c.inert(sent) == shown
    assert not any(ord(ch) < 0x20 or 0x7f <= ord(ch) < 0xa0 for ch in c.inert(sent))


def test_inert_cuts_a_flood():
    assert c.inert("x" * 10_000, limit=50) == "x" * 50 + "…"


def test_the_demo_never_touches_the_real_tables_outbox(broker, tmp_path):
    from tests.test_terminal import _run

    real = tmp_path / "var" / "outbox.sqlite"
    cfg = tmp_path / "t.toml"
    cfg.write_text(f'[floor]\nport = {broker.port}\noutbox = "{real}"\n')
    r = _run(["--config", str(cfg), "run", "--source", "simulator", "--jsonl", "--speed", "500", "--hands", "1",
              "--no-record"], tmp_path)
    assert r.returncode == 0, r.stderr
    assert not real.exists()
    demo = tmp_path / "var" / "demo" / "outbox.sqlite"
    assert demo.exists()
    assert sqlite3.connect(demo).execute("SELECT COUNT(*) FROM outbox").fetchone()[0] == 0   # all delivered
