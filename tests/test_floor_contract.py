"""The floor contract without a network: schemas, payload builders, command checks, outbox policy.

Also the shared helpers of the floor tests: updates built from the real TableEvent/TableState classes and
the real FindingLog (``hand_updates``), and a config pointing the link at a broker.
"""

from __future__ import annotations

import json
import re
import sqlite3
from pathlib import Path

import pytest

from dealerbox.config import Config, FloorConfig, TableConfig
from dealerbox.engine import events as te
from dealerbox.engine.findings import FindingLog
from dealerbox.engine.state import FindingView, SeatView, TableState
from dealerbox.runtime.bus import Update
from dealerbox.sinks.floor import contract as c
from dealerbox.sinks.floor.link import FloorLink
from dealerbox.sinks.floor.outbox import Outbox
from tests.conftest import scaled

ROOT = Path(__file__).resolve().parents[1]
DECK = [r + s for s in "shdc" for r in "AKQJT98765432"]


# --- helpers shared by the floor tests --------------------------------------------------------------------

def link_config(tmp_path, port: int, table: str = "T01", site: str = "demo", **floor) -> Config:
    values = dict(host="127.0.0.1", port=port, outbox=str(tmp_path / f"outbox-{table}.sqlite"), replay_rate=5000)
    values.update(floor)
    return Config(table=TableConfig(id=table, site=site), floor=FloorConfig(**values))


def hand_updates(hand: int, findings: FindingLog, t0: float = 0.0, alert: bool = True,
                 seats: tuple[int, ...] = (1, 2, 3)) -> tuple[list[Update], set[str]]:
    """One hold'em hand as the engine would report it, step by step; returns (updates, hole cards dealt)."""
    deck = DECK[(hand * 11) % 52:] + DECK[:(hand * 11) % 52]
    t = t0
    ups: list[Update] = []
    hole: set[str] = set()
    held = {s: 0 for s in seats}
    board: list[str] = []
    open_findings: list[FindingView] = []

    def state(phase: str) -> TableState:
        views = tuple(SeatView(seat=s, occupied=True, in_hand=True, cards_held=held[s], stack=200) for s in seats)
        return TableState(hand=hand, phase=phase, game="nlhe", button=seats[-1], board=tuple(board), pot=6,
                          seats=views, findings=tuple(open_findings))

    def step(phase: str, *events: te.TableEvent) -> None:
        ups.append(Update(tuple(events), state(phase), {"crc_errors": 0, "frames": len(ups)}))

    step("deal", te.HandStarted(t, hand, seats[-1], seats, "nlhe", {seats[0]: 1, seats[1]: 2}))
    for _round in range(2):
        for s in seats:
            card = deck.pop()
            hole.add(card)
            held[s] += 1
            t += 0.4
            step("deal", te.CardDealt(t, hand, s, card, False))
    t += 1
    step("preflop", te.ChipsMoved(t, hand, f"bet{seats[2]}", seats[2], 2, (1, 1)),
         te.ActionTaken(t, hand, seats[2], "call", 2, 2, "preflop"))
    burn = deck.pop()
    hole.add(burn)  # a burn card is as secret as a hole card
    t += 1
    step("flop", te.CardBurned(t, hand, burn))
    for _ in range(3):
        board.append(deck.pop())
        t += 0.3
        step("flop", te.BoardCardDealt(t, hand, "flop", board[-1]))
    if alert:
        f = findings.raise_(t, hand, "misdeal.1c", severity="floor", outcome="continues",
                            ruling="A card was exposed by the dealer: it is shown to all and play goes on.",
                            seats=(seats[0],))
        open_findings.append(FindingView(f.id, f.rule, f.citation, f.severity, f.outcome, f.ruling, f.seats))
        step("flop", f)
    info = findings.raise_(t, hand, "misdeal.1c", severity="info", outcome="continues", ruling="noted")
    step("flop", info)
    for s in seats[:2]:
        t += 0.5
        step("flop", te.CardMucked(t, hand, s, None), te.CardMucked(t, hand, s, None))
    t += 1
    step("ended", te.HandEnded(t, hand, "complete", (te.Pot(6, (seats[2],), (seats[2],), {seats[2]: 6}),),
                               {s: 200 for s in seats}, tuple(board)))
    return ups, hole


def count_events(updates: list[Update]) -> int:
    return sum(len(u.events) for u in updates)


def assert_no_hole_cards(raw_payloads: list[tuple[str, bytes]], hole: set[str]) -> None:
    """No dealt hole or burn card appears as a card string in any payload on any topic."""
    for topic, raw in raw_payloads:
        text = raw.decode("utf-8", errors="replace")
        found = {card for card in re.findall(r'"([2-9TJQKA][shdc])"', text) if card in hole}
        assert not found, f"hole cards {found} on {topic}: {text[:300]}"


# --- the schemas ------------------------------------------------------------------------------------------

def test_every_secret_field_is_forced_null_by_the_event_schema():
    # The schema must know every event that carries hole cards, so a new one cannot leak silently.
    schema = json.loads((ROOT / "dealerbox/schemas/floor/event.json").read_text())
    guarded = {rule["if"]["properties"]["event"]["const"]: set(rule["then"]["properties"])
               for rule in schema["$defs"]["secret_null"]["allOf"]}
    for name, cls in te.EVENT_TYPES.items():
        if cls.SECRET_FIELDS:
            assert guarded.get(name) == set(cls.SECRET_FIELDS), name


def test_built_payloads_validate_and_a_leaked_card_does_not():
    env = c.Envelope("demo", "T01", "boot1")
    ups, hole = hand_updates(3, FindingLog())
    for u in ups:
        for e in u.events:
            p = c.event_payload(env, e, 1.0)
            c.validate("event", p)
            if c.is_alert(e):
                c.validate("alert", c.alert_payload(env, e, p["seq"], 1.0))
        c.validate("state", c.state_payload(env, u.state, 1.0, 2.0, u.health, {"link": "connected"}))
    leaked = c.event_payload(env, te.CardDealt(1.0, 3, 1, "As", False), 1.0)
    leaked["data"]["card"] = "As"
    assert any("data.card" in e for e in c.schema_errors("event", leaked))
    assert c.schema_errors("status", {**c.status_payload(env, "online", "birth", 0, 1), "status": "maybe"})
    missing_seq = c.status_payload(env, "online", "birth", 0, 1)
    del missing_seq["seq"]
    assert c.schema_errors("status", missing_seq)


def test_state_carries_only_whitelisted_fields_and_no_hole_card():
    env = c.Envelope("demo", "T01", "boot1")
    ups, hole = hand_updates(5, FindingLog())
    p = c.state_payload(env, ups[-1].state, 1.0, 2.0, {}, {})
    assert set(p) - {"v", "kind", "site", "table", "boot", "seq", "t", "at", "replayed"} == \
        set(c.STATE_FIELDS) | {"seats", "pots", "in_hand", "findings", "findings_open", "findings_oldest", "health",
                                "event_seq"}
    assert p["seats"][0]["cards_held"] == 2 and p["in_hand"] == [1, 2, 3]
    assert_no_hole_cards([("state", json.dumps(p).encode())], hole)


def test_asyncapi_document_names_every_topic_and_schema():
    doc = (ROOT / "docs/asyncapi.yaml").read_text()
    assert doc.startswith("asyncapi: 3.")
    for kind in c.KINDS:
        assert f"dealerbox/{{site}}/{{table}}/{kind}" in doc
        assert f"dealerbox/schemas/floor/{kind}.json" in doc
    for ref in re.findall(r"\$ref: '?(\.\./dealerbox/schemas/floor/[a-z]+\.json)", doc):
        assert (ROOT / "docs" / ref).resolve().is_file(), ref


# --- commands are untrusted -----------------------------------------------------------------------------

def _cmd(**over) -> bytes:
    env = c.Envelope("demo", "floor", "floorboot")
    p = c.command_payload(env, over.pop("cmd", "ack"), 10.0, "floor-1", over.pop("finding", "h3-1"), table="T01")
    p.update(over)
    return json.dumps(p).encode()


def test_commands_are_checked_and_refusals_counted(tmp_path, caplog):
    link = FloorLink(link_config(tmp_path, 1))
    ups, _ = hand_updates(3, FindingLog())
    link.desk.known_findings.seen("h3-1")
    topic = "dealerbox/demo/T01/cmd"
    assert link.handle_command(topic, b"{not json") is None
    assert link.handle_command(topic, b"\xff\xfe") is None
    assert link.handle_command(topic, _cmd(table="T02")) is None
    assert link.handle_command(topic, _cmd(finding="h9-9")) is None
    assert link.handle_command(topic, _cmd(cmd="reboot")) is None
    assert link.handle_command(topic, _cmd(extra="x")) is None
    assert link.handle_command(topic, json.dumps([1, 2]).encode()) is None
    ok = link.handle_command(topic, _cmd())
    assert ok is not None and ok.cmd == "ack" and ok.finding == "h3-1"
    assert ok.as_input(12.5).action == "ack" and ok.as_input(12.5).ref == "h3-1"
    assert link.handle_command(topic, _cmd()) is None  # the same (boot, seq) again: a redelivery
    refresh = link.handle_command(topic, _cmd(cmd="refresh", seq=2))
    assert refresh is not None and refresh.cmd == "refresh" and link.latest.refresh
    h = link.health()
    assert h["commands_refused"] == 8 and h["commands_accepted"] == 2
    assert link.commands.qsize() == 2
    reasons = list(link.refusals)
    assert reasons[0].startswith("malformed JSON") and "T02" in reasons[2] and "unknown finding h9-9" in reasons[3]
    assert any("refused" in r.message for r in caplog.records)


# --- the outbox ----------------------------------------------------------------------------------------

def test_full_outbox_drops_oldest_low_value_first_never_alerts(tmp_path):
    # Nothing listens on port 1: the link spools only. Ten hands into an outbox of 60 rows.
    config = link_config(tmp_path, 1, outbox_max=60)
    link = FloorLink(config, reconnect_min=5, reconnect_max=5).start()
    fl = FindingLog()
    alerts = 0
    for hand in range(1, 11):
        ups, _ = hand_updates(hand, fl, t0=hand * 100.0)
        alerts += 1
        for u in ups:
            link.submit(u)
    link.stop(timeout=scaled(0.5))
    db = sqlite3.connect(config.floor.outbox)
    rows = db.execute("SELECT kind, priority, payload FROM outbox ORDER BY id").fetchall()
    kinds = [json.loads(p)["data"]["event"] if k == "event" else k for k, _, p in rows]
    assert kinds.count("alert") == alerts                      # every alert kept
    assert kinds.count("FindingRaised") == 2 * alerts          # findings are kept too (priority 2)
    assert kinds.count("HandStarted") == kinds.count("HandEnded") == 10  # normal ones kept while low ones go
    notices = [json.loads(p)["data"] for k, _, p in rows if k == "event" and '"FloorEventsDropped"' in p]
    # low-value ones went first, oldest first: whatever low-value events remain are newer than every dropped one
    dropped = {s for n in notices for r in n["seqs"] for s in range(r["first"], r["last"] + 1)}
    kept_low = [json.loads(p)["seq"] for k, prio, p in rows if prio == c.PRIORITY_LOW]
    assert "CardDealt" not in kinds and (not kept_low or max(dropped) < min(kept_low))
    assert notices and sum(n["count"] for n in notices) == link.health()["dropped"] > 0
    assert all(n["reason"] == "outbox-full" for n in notices)
    assert len(rows) <= 60 + len(notices)
    for k, _, p in rows:
        c.validate(k, json.loads(p))


def test_disk_full_keeps_alerts_and_says_so(tmp_path, caplog):
    # max_page_count makes SQLite fail with SQLITE_FULL, the same error a full SD card gives.
    config = link_config(tmp_path, 1)
    link = FloorLink(config, reconnect_min=5, reconnect_max=5, max_pages=12).start()
    fl = FindingLog()
    for hand in range(1, 16):
        for u in hand_updates(hand, fl, t0=hand * 100.0)[0]:
            link.submit(u)
    link.stop(timeout=scaled(0.5))
    h = link.health()
    assert h["disk_full"] > 0 and h["dropped"] > 0
    # said in the outbox's own field: the broker's connection error (port 1) must not hide it
    assert "disk full" in h["outbox_error"] and config.floor.outbox in h["outbox_error"]
    assert any("disk full" in r.message for r in caplog.records)
    rows = sqlite3.connect(config.floor.outbox).execute("SELECT kind FROM outbox").fetchall()
    kept_alerts = sum(1 for (k,) in rows if k == "alert") + len([r for r in link.spooler._unspooled if r[1] == "alert"])
    assert kept_alerts == 15


def test_outbox_keeps_order_and_survives_reopen(tmp_path):
    path = tmp_path / "o.sqlite"
    ob = Outbox(path)
    ids = ob.insert([("t", "event", 1, "b", i, -1, {"i": i}) for i in range(1, 6)])
    assert ids == sorted(ids)
    assert ob.db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert ob.db.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL
    ob.delete(ids[:2])
    ob.close()
    again = Outbox(path, "NORMAL")
    assert [json.loads(r.payload)["i"] for r in again.after(0, 10)] == [3, 4, 5]
    more = again.insert([("t", "event", 1, "b", 6, -1, {"i": 6})])
    assert more[0] > ids[-1]  # AUTOINCREMENT: never reuses an id, so order holds across restarts


def test_bad_outbox_path_is_named(tmp_path):
    (tmp_path / "file").write_text("x")
    link = FloorLink(link_config(tmp_path, 1, outbox=str(tmp_path / "file" / "o.sqlite")))
    with pytest.raises(Exception) as info:
        link.start()
    assert "o.sqlite" in str(info.value) and "floor.outbox" in str(info.value)


def test_a_table_id_that_cannot_be_a_topic_level_is_refused(tmp_path):
    with pytest.raises(ValueError, match=r"table.id: 'T/1'"):
        FloorLink(link_config(tmp_path, 1, table="T/1"))


def test_the_views_cheap_check_passes_what_the_schema_passes_and_refuses_what_it_shows_wrong():
    # The floor view checks only what it files and displays (full jsonschema costs ~1 ms a message); it must
    # never refuse a valid payload, and must refuse the breaks that would mislead the floor.
    env = c.Envelope("demo", "T01", "boot1")
    ups, _hole = hand_updates(3, FindingLog())
    good = [("status", c.status_payload(env, "online", "birth", 0, 1))]
    for u in ups:
        for e in u.events:
            p = c.event_payload(env, e, 1.0)
            good.append(("event", p))
            if c.is_alert(e):
                good.append(("alert", c.alert_payload(env, e, p["seq"], 1.0)))
        good.append(("state", c.state_payload(env, u.state, 1.0, 2.0, u.health, {"link": "connected"})))
    assert any(k == "alert" for k, _ in good)
    for kind, p in good:
        assert c.schema_errors(kind, p) == [] and c.display_errors(kind, p) == [], (kind, p)
    event = next(p for k, p in good if k == "event")
    alert = next(p for k, p in good if k == "alert")
    leaked = c.event_payload(env, te.CardDealt(1.0, 3, 1, "As", False), 1.0)
    leaked["data"]["card"] = "As"
    bad = [("event", leaked, "data.card"), ("event", {**event, "v": 2}, "v:"), ("alert", event, "kind:"),
           ("event", {**event, "seq": "7"}, "seq:"), ("event", {**event, "table": "a/b"}, "table:"),
           ("alert", {**alert, "finding": {**alert["finding"], "severity": "info"}}, "severity"),
           ("status", {**good[0][1], "status": "maybe"}, "status"), ("event", [1], "not an object")]
    for kind, p, why in bad:
        errors = c.display_errors(kind, p)
        assert errors and why in errors[0], (why, errors)
        assert c.schema_errors(kind, p)  # the cheap check is never stricter than the contract
