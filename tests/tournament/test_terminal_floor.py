"""A tournament table follows the floor over a real mosquitto with the shipped ACL: its FloorLink subscribes to
its own instruction topic and its tournament's clock, checks every payload, and hands each as a logged input
(``floor-instruction`` / ``floor-clock``, the payload in ``detail``, ``by`` floor); bad ones are counted."""

from __future__ import annotations

import dataclasses
import json

import pytest

from dealerbox.config import TableConfig
from dealerbox.sinks.floor.link import FloorLink
from dealerbox.tournament.clock import Clock
from dealerbox.tournament.config import load
from dealerbox.tournament.floor import clock_payload, schema_errors
from tests.test_floor_contract import ROOT, link_config
from tests.test_floor_security import USERS, Raw, _password_file
from tests.waiting import wait_until

from .moves import compact, instruction
from .tables import tournament_file
from tests.conftest import scaled

pytestmark = pytest.mark.timeout(90)
ACL = (ROOT / "docs/mosquitto/acl").read_text()


def table_link(broker, tmp_path, table: str) -> FloorLink:
    config = link_config(tmp_path, broker.port, table=table, username=f"demo/{table}",
                         password_file=_password_file(tmp_path, f"demo/{table}"))
    config = dataclasses.replace(config, table=dataclasses.replace(config.table, kind="tournament"))
    link = FloorLink(config, reconnect_min=0.05)
    link.follow_tournament("SUN-500")
    return link.start()


def taken(link: FloorLink) -> list:
    out = []
    while not link.floor_inputs.empty():
        out.append(link.floor_inputs.get_nowait())
    return out


def test_each_table_gets_its_own_instructions_and_the_clock_as_logged_inputs(make_broker, tmp_path):
    broker = make_broker(users=USERS, acl=ACL)
    t01, t02 = table_link(broker, tmp_path, "T01"), table_link(broker, tmp_path, "T02")
    floor = Raw(broker, "floor")
    try:
        assert wait_until(lambda: t01.health()["connected"] and t02.health()["connected"], scaled(10))
        clock = clock_payload("demo", "SUN-500", Clock.start(load(tournament_file(tmp_path)), 0.0).view(100.0),
                              boot="floor1", seq=1, at=1.0e9, players_left=19, tables_left=3)
        assert schema_errors("clock", clock) == []
        move = instruction("T01", "move", [("T01", 5, "T02", 6)])
        for table in ("T01", "T02"):
            assert floor.publish(f"dealerbox/demo/{table}/tournament",
                                 compact(dict(move, table=table)).encode()) == 0
        assert floor.publish("dealerbox/demo/tournament/SUN-500/clock", json.dumps(clock).encode()) == 0
        assert wait_until(lambda: t01.floor_inputs.qsize() == 2 and t02.floor_inputs.qsize() == 2, scaled(10))
        got = taken(t01)
        assert [(i.action, i.by) for i in got] == [("floor-instruction", "floor"), ("floor-clock", "floor")]
        assert json.loads(got[0].detail) == move and json.loads(got[1].detail) == clock
        assert json.loads(taken(t02)[0].detail)["table"] == "T02"
        assert t01.health()["floor_inputs"] == 2 and t01.health()["floor_inputs_refused"] == 0
    finally:
        floor.close()
        t01.stop(timeout=scaled(1))
        t02.stop(timeout=scaled(1))


def test_bad_payloads_are_counted_and_said_and_a_repeat_is_taken_once(make_broker, tmp_path, caplog):
    broker = make_broker(users=USERS, acl=ACL)
    t01 = table_link(broker, tmp_path, "T01")
    floor = Raw(broker, "floor")
    topic = "dealerbox/demo/T01/tournament"
    try:
        assert wait_until(lambda: t01.health()["connected"], scaled(10))
        good = instruction("T01", "move", [("T01", 5, "T02", 6)])
        for raw in (b"{not json", compact(dict(good, instruction="shuffle")).encode(),
                    compact(dict(good, table="T02")).encode(), compact(dict(good, tournament="OTHER")).encode(),
                    compact(good).encode(), compact(good).encode()):
            floor.publish(topic, raw)
        assert wait_until(lambda: t01.health()["floor_inputs_refused"] == 4
                          and t01.health()["floor_inputs_repeated"] == 1, scaled(10)), t01.health()
        assert [i.action for i in taken(t01)] == ["floor-instruction"]
        said = list(t01.refusals)
        assert any("malformed JSON" in r for r in said) and any("schema: instruction" in r for r in said)
        assert any("addressed to demo/T02, this is demo/T01" in r for r in said)
        assert any("this table plays SUN-500" in r for r in said)
        assert t01.health()["link"] == "connected"     # never dropped for a bad message
    finally:
        floor.close()
        t01.stop(timeout=scaled(1))


def test_the_shipped_acl_lets_a_table_read_its_own_instructions_only(make_broker, tmp_path):
    broker = make_broker(users=USERS, acl=ACL)
    nosy = Raw(broker, "demo/T01")
    floor = Raw(broker, "floor")
    try:
        nosy.client.subscribe([("dealerbox/demo/T02/tournament", 1), ("dealerbox/demo/T01/tournament", 1),
                               ("dealerbox/demo/tournament/SUN-500/clock", 1)])
        assert wait_until(lambda: nosy.client.is_connected(), scaled(5))
        for table in ("T02", "T01"):
            floor.publish(f"dealerbox/demo/{table}/tournament", compact(instruction(table, "redraw", [])).encode())
        floor.publish("dealerbox/demo/tournament/SUN-500/clock", b'{"kind":"clock"}')
        assert wait_until(lambda: len(nosy.got) >= 2, scaled(5))
        assert sorted(t for t, _ in nosy.got) == ["dealerbox/demo/T01/tournament",
                                                  "dealerbox/demo/tournament/SUN-500/clock"]
        writer = Raw(broker, "demo/T01")
        try:
            assert writer.publish("dealerbox/demo/T01/tournament", b"{}") != 0   # a table cannot write it
        finally:
            writer.close()
    finally:
        nosy.close()
        floor.close()


def test_a_cash_table_subscribes_to_no_tournament_topic(tmp_path):
    link = FloorLink(link_config(tmp_path, 1))
    assert link.tournament_topics() == ()
    config = dataclasses.replace(link_config(tmp_path, 1), table=TableConfig(id="T01", kind="tournament"))
    assert FloorLink(config).tournament_topics() == ("dealerbox/demo/T01/tournament",)


def test_the_state_topic_carries_the_tournament_part_so_the_director_counts_seats():
    from dealerbox.engine.state import InstructionView, SeatView, TableState, TournamentView
    from dealerbox.sinks.floor import contract as c
    from dealerbox.tournament.floor import seats_from_state
    seats = tuple(SeatView(seat=s, occupied=s in (1, 2, 5), stack=9000 if s in (1, 2, 5) else 0)
                  for s in range(1, 10))
    clock = TournamentView("SUN-500", 3, 100, 200, 0, 200, 300.0, 5.0, True, False)
    state = TableState(seats=seats, tournament=clock,
                       instruction=InstructionView(4, "break", "tournament.12", "This table breaks", send=(1, 5)))
    payload = c.state_payload(c.Envelope("demo", "T03", "b1"), state, 5.0, 1.0e9, {}, {})
    c.validate("state", payload)
    assert payload["tournament"] == {"tournament": "SUN-500", "level": 3, "on_break": False, "players": 3,
                                     "instruction": "break", "plan": 4, "send": [1, 5], "receive": [],
                                     "broken": False}
    assert seats_from_state("T03", payload, 9).occupied == {1, 2, 5}
    cash = c.state_payload(c.Envelope("demo", "T01", "b1"), TableState(seats=seats), 5.0, 1.0e9, {}, {})
    assert "tournament" not in cash


def test_the_directors_instructions_carry_the_counts_of_the_tables_still_in_play(tmp_path):
    from dealerbox.tournament.config import load
    from dealerbox.tournament.floor import Director

    from .tables import state
    d = Director(load(tournament_file(tmp_path)), "demo", "boot1")
    for table, seated, button in (("T01", set(range(1, 9)), 2), ("T02", {1, 2, 3, 4, 5}, 1),
                                  ("T03", set(range(1, 8)), 1)):
        out = d.observe(table, state(table, seated, button), 0.0, 1.0)
    assert {p["counts"]["T01"] for _, p in out} == {8} and out[0][1]["counts"] == {"T01": 8, "T02": 5, "T03": 7}
    d.observe("T01", state("T01", {1, 2, 3, 4, 6, 7}, 2), 1.0, 2.0)
    d.observe("T02", state("T02", {1, 2, 3, 4, 5, 6}, 1), 2.0, 3.0)
    out = d.observe("T03", state("T03", {1, 2, 3, 5, 6, 7}, 1), 3.0, 4.0)   # 6, 6, 6: T03 breaks
    assert out and all(schema_errors("tournament", p) == [] for _, p in out)
    assert all(set(p["counts"]) == {"T01", "T02"} for _, p in out)           # the broken table is not counted
