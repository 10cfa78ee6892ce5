"""The floor's instructions at one table, through the real pipeline: a logged ``floor-instruction`` input names
who moves where (Tournaments 12, 14a, 14b, 16, 17), the dealer's ``moved-out``/``moved-in`` confirm it, and a
player moved in is dealt in at once (15)."""

from __future__ import annotations

from dealerbox.config import Config, TableConfig
from dealerbox.engine.inputs import DealerInput
from dealerbox.pipeline import Pipeline
from dealerbox.record.logformat import Input
from dealerbox.tags import demo_registry

from .moves import compact, instruction


class Table:
    def __init__(self, kind: str = "tournament", table: str = "T01", seated=range(1, 9)) -> None:
        self.pipe = Pipeline(Config(table=TableConfig(id=table, kind=kind)), demo_registry())
        self.t = 0.0
        for s in seated:
            self.tap("sit", seat=s, amount=10000)

    def tap(self, action: str, **kw) -> list:
        self.t += 1.0
        return self.pipe.feed(Input(DealerInput(self.t, action, **kw)))

    def floor(self, payload: dict) -> list:
        return self.tap("floor-instruction", detail=compact(payload), by="floor")

    def findings(self, events) -> list[tuple[str, str, tuple[int, ...]]]:
        return [(e.rule, e.severity, e.seats) for e in events if e.kind == "FindingRaised"]

    @property
    def state(self):
        return self.pipe.engine.snapshot()


def test_a_move_names_the_seat_to_send_and_closes_when_the_dealer_confirms_it_empty():
    table = Table()
    said = table.floor(instruction("T01", "move", [("T01", 5, "T02", 6)], counts={"T01": 8, "T02": 5, "T03": 7}))
    assert table.findings(said) == [("tournament.16", "floor", ()), ("tournament.14a", "dealer", (5,))]
    ruling = next(e.ruling for e in said if e.kind == "FindingRaised" and e.rule == "tournament.14a")
    assert ruling.startswith("Send seat 5 to T02 seat 6")
    view = table.state.instruction
    assert (view.instruction, view.send, view.receive, view.lines) == ("move", (5,), (), ("Seat 5 to T02 seat 6",))
    out = table.tap("moved-out", seat=5)
    assert [e.kind for e in out] == ["PlayerLeft"] and table.findings(out) == []
    assert table.state.instruction is None
    assert not table.state.seats[4].occupied


def test_the_receiving_table_names_the_arrivals_seat_and_is_not_flagged_for_balancing():
    table = Table(table="T02", seated=range(1, 6))
    said = table.floor(instruction("T02", "move", [("T01", 5, "T02", 6)], counts={"T01": 8, "T02": 5, "T03": 7}))
    assert table.findings(said) == [("tournament.14b", "dealer", (6,))]
    assert table.state.instruction.receive == (6,)
    table.tap("moved-in", seat=6, amount=12500)
    assert table.state.instruction is None
    assert table.state.seats[5].occupied and table.state.seats[5].stack == 12500


def test_a_seat_left_to_the_table_is_the_one_due_for_the_big_blind_next_deal():
    table = Table(seated=(1, 2, 3, 4, 5, 6))
    table.tap("new-hand")           # button at seat 1: the next deal's button is 2, its big blind 4
    said = table.floor(instruction("T01", "move", [("T01", None, "T02", None)]))
    assert table.findings(said) == [("tournament.14a", "dealer", (4,))]


def test_another_seat_moved_out_than_the_floor_named_is_said():
    table = Table()
    table.floor(instruction("T01", "move", [("T01", 5, "T02", 6)]))
    said = table.tap("moved-out", seat=3)
    assert table.findings(said) == [("tournament.14a", "dealer", (3,))]
    assert table.state.instruction.send == (5,)


def test_a_broken_table_lists_every_destination_and_shows_broken_once_empty():
    table = Table(seated=(1, 2, 3))
    said = table.floor(instruction("T01", "break", [("T01", 1, "T02", 6), ("T01", 2, "T03", 4), ("T01", 3, "T02", 7)]))
    assert table.findings(said) == [("tournament.12", "floor", (1, 2, 3))]
    assert table.state.instruction.lines == ("Seat 1 to T02 seat 6", "Seat 2 to T03 seat 4", "Seat 3 to T02 seat 7")
    for seat in (1, 2):
        table.tap("moved-out", seat=seat)
        assert not table.state.instruction.broken
    table.tap("moved-out", seat=3)
    view = table.state.instruction
    assert view.broken and view.text == "This table is broken" and view.send == ()
    table.tap("moved-in", seat=4, amount=3000)     # the floor reopens it later
    assert table.state.instruction is None


def test_a_redraw_after_a_plan_keeps_the_plans_arrivals_open_until_the_next_deal():
    table = Table(table="T02", seated=range(1, 7))
    table.floor(instruction("T02", "move", [("T03", 1, "T02", 7)], rule="tournament.12", plan=4))
    said = table.floor(instruction("T02", "redraw", [], plan=4, tables_left=2, seq=2))
    assert table.findings(said) == [("tournament.17", "floor", ())]
    view = table.state.instruction
    assert view.receive == (7,) and view.lines[-1] == "Redraw for seats: the field is down to 2 table(s)"
    table.tap("moved-in", seat=7, amount=9000)
    assert table.state.instruction.instruction == "redraw"
    table.tap("new-hand")
    assert table.state.instruction is None


def test_a_player_moved_in_between_the_big_blind_and_the_button_is_dealt_in_at_once():
    table = Table(seated=(1, 3, 5, 7))
    table.tap("new-hand")           # button 1; abandoned, so the next hand deals from 1 again: blinds 3 and 5
    table.tap("moved-in", seat=6, amount=8000)     # between the big blind (5) and the button (1)
    table.tap("moved-in", seat=2, amount=8000)     # between the button and the small blind
    out = table.tap("new-hand")
    started = next(e for e in out if e.kind == "HandStarted")
    assert (started.button, 2 in started.seats, 6 in started.seats) == (1, True, True)
    assert table.findings(out) == [("tournament.15", "info", (2, 6))]


def test_a_player_seated_the_ordinary_way_is_no_move():
    table = Table(seated=(1, 3, 5, 7))
    table.tap("new-hand")
    table.tap("sit", seat=6, amount=8000)
    assert "tournament.15" not in [r for r, _, _ in table.findings(table.tap("new-hand"))]


def test_a_cash_table_follows_no_instruction_and_an_unreadable_one_is_counted():
    cash = Table(kind="cash")
    assert cash.findings(cash.floor(instruction("T01", "move", [("T01", 5, "T02", 6)]))) == []
    table = Table()
    assert table.tap("floor-instruction", detail="{not json") == []
    assert table.floor(instruction("T09", "move", [("T09", 5, "T01", 9)])) == []   # another table's
    assert table.pipe.engine.moves.refused == 2 and table.state.instruction is None


def test_an_older_plan_arriving_late_changes_nothing():
    table = Table()
    table.floor(instruction("T01", "move", [("T01", 5, "T02", 6)], plan=3))
    assert table.findings(table.floor(instruction("T01", "move", [("T01", 2, "T02", 6)], plan=2))) == []
    assert table.state.instruction.send == (5,)


def test_an_arrival_in_a_seat_the_floor_did_not_assign_is_said():
    table = Table(table="T02", seated=range(1, 6))
    table.floor(instruction("T02", "move", [("T03", 1, "T02", 6)], rule="tournament.12"))
    said = table.tap("moved-in", seat=8, amount=5000)
    assert table.findings(said) == [("tournament.12", "floor", (8,))]
    assert table.state.instruction.receive == (6,)
    balancing = Table(table="T02", seated=range(1, 6))
    balancing.floor(instruction("T02", "move", [("T01", 5, "T02", 6)]))
    assert balancing.findings(balancing.tap("moved-in", seat=7, amount=5000)) == [("tournament.14b", "dealer", (7,))]
    assert balancing.findings(balancing.tap("moved-in", seat=6, amount=5000)) == []


def test_a_broken_tables_empty_count_flags_nobody():
    table = Table(seated=range(1, 8))
    said = table.floor(instruction("T01", "move", [("T01", 5, "T02", 6)], counts={"T01": 7, "T02": 5, "T03": 0}))
    assert [r for r, _, _ in table.findings(said)] == ["tournament.16", "tournament.14a"]   # 7 against 5
    table = Table(seated=range(1, 7))
    said = table.floor(instruction("T01", "move", [("T01", 5, "T02", 6)], counts={"T01": 6, "T02": 5, "T03": 0}))
    assert [r for r, _, _ in table.findings(said)] == ["tournament.14a"]                   # 6 against 5: balanced


def test_moved_out_for_a_player_still_in_the_hand_is_refused_and_the_hand_plays_on_with_them():
    """Following the words too early (Moved out tapped mid-hand, the player still holding a live hand) crashed the
    engine at the player's next action; the seat is not empty: the tap is refused, the hand plays on."""
    from pathlib import Path

    from tests.scenario_play import loud, play_text
    path = Path(__file__).parent.parent / "scenarios" / "tournament" / "t14a_send-the-next-big-blind.scn"
    text = path.read_text()
    early = text.replace("moved-out 4\n", "").replace("fold 6\n", "wait 1s\nmoved-out 4\nwait 1s\nfold 6\n", 1)
    events = play_text(early + "wait 1s\nmoved-out 4\n", str(path))
    ruled = [(f.rule, f.ruling, f.seats) for f in loud(events)]
    assert ruled[1:] == [("tournament.14a", "Seat 4 is still in the hand: the player goes when it is over; tap Moved "
                          "out then.", (4,))], ruled
    assert "once any hand in play is over" in ruled[0][1]
    assert [e.outcome for e in events if e.kind == "HandEnded"] == ["complete"]
    assert [e.seat for e in events if e.kind == "PlayerLeft"] == [4]      # only the tap after the hand
