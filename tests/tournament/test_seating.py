"""Balancing and breaking (Tournaments 12, 14a, 14b, 16, 17): who moves, where, and when a table breaks."""

from dealerbox.tournament.seating import (
    TableSeats, allowed_gap, balance_flags, next_big_blind, plan, player_to_send, redraw_due, seat_for_arrival,
    table_to_break)


def seats(table, occupied, button=1, n=9):
    return TableSeats(table, n, frozenset(occupied), button)


def test_the_player_sent_is_the_one_due_for_the_big_blind_next_deal():
    t = seats("T01", {1, 3, 4, 6, 8}, button=3)       # next deal: button 4, small blind 6, big blind 8
    assert next_big_blind(t) == 8 and player_to_send(t) == 8
    assert player_to_send(seats("T01", {2, 9}, button=9)) == 9      # heads-up: the button's player gets the BB next
    assert player_to_send(seats("T01", {4})) is None


def test_an_arrival_takes_the_open_seat_the_big_blind_reaches_first():
    t = seats("T02", {1, 2, 4, 5, 7, 9}, button=1)    # next big blind is seat 5; open: 3, 6, 8
    assert seat_for_arrival(t) == 6
    assert seat_for_arrival(t, taken=frozenset({6})) == 8
    assert seat_for_arrival(t, taken=frozenset({6, 8})) == 3       # round the table past seat 9
    assert seat_for_arrival(seats("T02", set(range(1, 10)))) is None


def test_the_allowed_gap_is_two_over_six_tables_and_one_at_six_or_fewer():
    assert allowed_gap(7) == 2 and allowed_gap(6) == 1
    assert balance_flags({"T01": 8, "T02": 6, "T03": 7})[0].rule == "tournament.16"
    assert balance_flags({"T01": 7, "T02": 6, "T03": 7}) == ()        # near miss: one off at three tables
    seven = {f"T0{i}": 8 for i in range(1, 8)}
    assert balance_flags({**seven, "T01": 6}) == ()                    # two off at seven tables is fine
    assert [r.ruling[:3] for r in balance_flags({**seven, "T01": 5})] == ["T02", "T03", "T04", "T05", "T06", "T07"]


def test_the_plan_moves_from_the_longest_to_the_shortest_table_until_balanced():
    tables = {"T01": seats("T01", range(1, 9), button=2), "T02": seats("T02", {1, 2, 3, 4, 5}, button=5),
              "T03": seats("T03", range(1, 8))}
    p = plan(tables, ("T03", "T02", "T01"), set())
    assert p.breaking is None
    assert [(m.from_table, m.to_table, m.rule) for m in p.moves] == [("T01", "T02", "tournament.14a")]
    move = p.moves[0]
    assert move.from_seat == player_to_send(tables["T01"]) == 5 and move.to_seat == seat_for_arrival(tables["T02"])
    near = {**tables, "T01": seats("T01", range(1, 8)), "T02": seats("T02", range(1, 7))}
    assert plan(near, ("T03",), set()).moves == ()        # near miss: 7, 6, 7 is balanced and fits no break


def test_a_table_breaks_in_the_floor_order_once_the_others_can_seat_everyone():
    tables = {"T01": seats("T01", range(1, 7)), "T02": seats("T02", range(1, 6)), "T03": seats("T03", {2, 4, 6, 8})}
    assert table_to_break(tables, ("T03", "T02", "T01")) == "T03"      # 15 players fit in 18 seats
    p = plan(tables, ("T03", "T02", "T01"), set(), redraw_points=(2, 1))
    assert p.breaking == "T03" and p.redraw
    assert sorted(m.from_seat for m in p.moves) == [2, 4, 6, 8] and {m.rule for m in p.moves} == {"tournament.12"}
    dest = [m.to_table for m in p.moves]
    assert dest == ["T02", "T01", "T02", "T01"]                      # always to the shortest table: 8 and 7
    assert len({(m.to_table, m.to_seat) for m in p.moves}) == 4      # no two players given one seat
    assert [r.rule for r in p.rulings] == ["tournament.12", "tournament.17"]
    near = {**tables, "T03": seats("T03", range(1, 9))}              # 19 players do not fit in 18 seats
    assert table_to_break(near, ("T03",)) is None
    assert plan(tables, ("T03", "T02", "T01"), {"T03"}).breaking is None   # already broken: not broken twice


def test_redraw_points_are_configurable():
    assert redraw_due(3, 2, (3, 2, 1)) and redraw_due(4, 3, (3, 2, 1))
    assert not redraw_due(4, 3, (2, 1)) and not redraw_due(2, 2, (2, 1))
