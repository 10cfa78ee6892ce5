"""``dealerbox tournament`` against a real mosquitto: three tables publish their retained state, shrink to two
as players bust, and the balancing and breaking instructions reach the right tables."""

import subprocess
import sys
import time
from pathlib import Path

from dealerbox.tournament.floor import schema_errors
from tests.waiting import wait_until

from .tables import Ear, state, tournament_file
from tests.conftest import scaled

ROOT = Path(__file__).parents[2]


def test_three_tables_shrink_to_two_and_the_instructions_reach_the_right_tables(broker, tmp_path):
    ear = Ear(broker.port, "ear", ("dealerbox/demo/+/tournament", "dealerbox/demo/tournament/+/clock"))
    tables = {n: Ear(broker.port, f"demo-{n}") for n in ("T01", "T02", "T03")}
    seq = {"n": 0}

    def table_says(name: str, occupied: set[int], button: int) -> None:
        seq["n"] += 1
        tables[name].publish(f"dealerbox/demo/{name}/state", state(name, occupied, button, seq["n"]))
        time.sleep(0.15)            # one table at a time, as busts happen

    t01, t02, t03 = set(range(1, 9)), {1, 2, 3, 4, 5}, set(range(1, 8))
    table_says("T01", t01, 2)
    table_says("T02", t02, 1)
    table_says("T03", t03, 1)
    director = subprocess.Popen(
        [sys.executable, "-m", "dealerbox", "tournament", "--tournament", str(tournament_file(tmp_path)),
         "--port", str(broker.port), "--for", "40"], cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        text=True)
    try:
        # 8, 5, 7 at three tables: one off is the most allowed, so T01 sends its next big blind (seat 5) to T02
        assert wait_until(lambda: len(ear.messages("T02/tournament")) >= 1, scaled(25)), ear.received
        move = {"from_table": "T01", "from_seat": 5, "to_table": "T02", "to_seat": 6}
        assert [p["moves"] for p in ear.messages("T01/tournament")] == [[move]]
        assert [p["moves"] for p in ear.messages("T02/tournament")] == [[move]]
        assert ear.messages("T03/tournament") == []                  # the balanced third table hears nothing
        table_says("T01", t01 - {5}, 2)
        table_says("T02", t02 | {6}, 1)
        # two players bust: at 7, 6, 6 the 19 players need three tables...
        table_says("T03", {1, 2, 3, 5, 6, 7}, 1)
        time.sleep(0.3)
        assert ear.messages("T03/tournament") == []
        # ...and at 6, 6, 6 they fit in two: T03 breaks first, in the floor's order
        table_says("T01", {1, 2, 3, 4, 6, 7}, 2)
        assert wait_until(lambda: len(ear.messages("T03/tournament")) >= 1, scaled(10)), ear.received
        assert wait_until(lambda: sum(p.get("instruction") == "redraw" for _, p, _ in ear.received) >= 2, scaled(5))
        broken = ear.messages("T03/tournament")
        assert [(p["instruction"], p["rule"]) for p in broken] == [("break", "tournament.12")]
        assert sorted(m["from_seat"] for m in broken[0]["moves"]) == [1, 2, 3, 5, 6, 7]
        arrivals = {n: [m for p in ear.messages(f"{n}/tournament") if p["plan"] == broken[0]["plan"]
                        for m in p["moves"]] for n in ("T01", "T02")}
        assert len(arrivals["T01"]) == 3 and len(arrivals["T02"]) == 3        # nine and nine after the break
        assert len({(m["to_table"], m["to_seat"]) for ms in arrivals.values() for m in ms}) == 6
        assert all(m["to_table"] == n and m["to_seat"] is not None for n, ms in arrivals.items() for m in ms)
        redraws = [t for t, p, _ in ear.received if p.get("instruction") == "redraw"]
        assert sorted(redraws) == ["dealerbox/demo/T01/tournament", "dealerbox/demo/T02/tournament"]
        for _, p, _ in ear.received:
            assert schema_errors(p["kind"], p) == [], p
        clocks = ear.messages("/clock")
        assert clocks and clocks[0]["tournament"] == "SUN-500" and clocks[0]["level"] == 1 and clocks[0]["running"]
    finally:
        director.terminate()
        out, err = director.communicate(timeout=scaled(10))
        for c in (ear, *tables.values()):
            c.stop()
    assert "dealerbox/demo/T03/tournament break" in out, (out, err)


def test_a_broken_tournament_file_is_named_with_exit_2(tmp_path):
    bad = tmp_path / "bad.toml"
    bad.write_text(tournament_file(tmp_path).read_text().replace("big_blind = 100", "big_blind = 0"))
    result = subprocess.run([sys.executable, "-m", "dealerbox", "tournament", "--tournament", str(bad),
                             "--for", "0"], cwd=ROOT, capture_output=True, text=True, timeout=scaled(30))
    assert result.returncode == 2
    assert f"{bad}: levels.1.big_blind: 0 is less than the minimum of 1" in result.stderr


def test_the_clock_is_retained_so_a_table_connecting_later_reads_it(broker, tmp_path):
    result = subprocess.run(
        [sys.executable, "-m", "dealerbox", "tournament", "--tournament", str(tournament_file(tmp_path)),
         "--port", str(broker.port), "--level", "2", "--left", "30", "--paused", "--for", "0.5"],
        cwd=ROOT, capture_output=True, text=True, timeout=scaled(30))
    assert result.returncode == 0, result.stderr
    late = Ear(broker.port, "late-table", ("dealerbox/demo/tournament/SUN-500/clock",))
    try:
        assert wait_until(lambda: late.messages("/clock"), scaled(5))
        clock = late.messages("/clock")[-1]
        assert (clock["level"], clock["left"], clock["running"], clock["big_blind_ante"]) == (2, 30.0, False, 200)
        assert clock["next"] is None and schema_errors("clock", clock) == []
    finally:
        late.stop()


def test_an_unreachable_broker_is_named_with_exit_2(tmp_path):
    from tests.fixtures.broker import free_port
    port = free_port()
    result = subprocess.run([sys.executable, "-m", "dealerbox", "tournament", "--tournament",
                             str(tournament_file(tmp_path)), "--port", str(port), "--for", "0"],
                            cwd=ROOT, capture_output=True, text=True, timeout=scaled(30))
    assert result.returncode == 2 and f"127.0.0.1:{port}" in result.stderr
