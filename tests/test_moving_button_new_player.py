"""Issue 31, mid-session seating at a moving-button table: the button moves to the next player the hand deals in
(Blinds 1a), so a new player who sat down just after the button is passed by it, never given it (Blinds 7: a new
player cannot be dealt in on the button), and every player meets the blinds once a round (Blinds 1). Whole
sessions of four hands through the real Pipeline, from scenario text: button, blinds, seats dealt in and stacks
of every hand, nothing above info when the dealer follows the rotation; the puck on the new seat is misdeal.1g."""

from __future__ import annotations

from dealerbox.pipeline import Pipeline
from dealerbox.sources.scenario import compile_text
from tests.scenario_play import NEW_PLAYER_AFTER_THE_BUTTON as HEAD, one_hand as hand



def run(text: str) -> list:
    compiled = compile_text(text + "wait 1s\nheartbeat\n")
    pipe = Pipeline.from_header(compiled.header)
    return [e for record in compiled.records for e in pipe.feed(record)]


def loud(events: list) -> list:
    return [(e.rule, e.ruling) for e in events if e.kind == "FindingRaised" and e.severity in ("dealer", "floor")]


def started(events: list) -> list[tuple[int, tuple[int, ...], dict[int, int]]]:
    return [(e.button, tuple(e.seats), dict(e.blinds)) for e in events if e.kind == "HandStarted"]


def stacks(events: list) -> list[dict[int, int]]:
    return [dict(e.stacks) for e in events if e.kind == "HandEnded"]


def test_the_button_passes_a_new_player_waiting_for_the_big_blind():
    events = run(HEAD + "wait-for-bb 6\n"
                 + hand(1, {3: 1, 5: 2}, [3, 5, 1], [1, 3], 5)           # seat 6 waits: not dealt in
                 + hand(3, {5: 1, 6: 2}, [5, 6, 1, 3], [1, 3, 5], 6)     # the big blind reaches seat 6
                 + hand(5, {6: 1, 1: 2}, [6, 1, 3, 5], [3, 5, 6], 1))
    assert loud(events) == []
    assert started(events) == [
        (5, (1, 3, 5), {1: 1, 3: 2}),
        (1, (3, 5, 1), {3: 1, 5: 2}),           # before the fix: button 6, seats 1 and 3 in the blinds again
        (3, (5, 6, 1, 3), {5: 1, 6: 2}),
        (5, (6, 1, 3, 5), {6: 1, 1: 2}),
    ]
    # each player posted each blind once in the round (Blinds 1), and the stacks carried hand to hand
    assert stacks(events) == [
        {1: 199, 3: 201, 5: 200},
        {1: 199, 3: 200, 5: 201, 6: 200},
        {1: 199, 3: 200, 5: 200, 6: 201},
        {1: 200, 3: 200, 5: 200, 6: 200},
    ]


def test_a_new_player_who_posts_at_once_is_dealt_in_behind_the_big_blind():
    # Blinds 4b: seat 6 posts a big blind where it sits, first to act at button 1, and plays at once
    events = run(HEAD + hand(1, {3: 1, 5: 2, 6: 2}, [3, 5, 6, 1], [6, 1, 3], 5)
                 + hand(3, {5: 1, 6: 2}, [5, 6, 1, 3], [1, 3, 5], 6))
    assert loud(events) == []
    assert started(events)[1:] == [(1, (3, 5, 6, 1), {3: 1, 5: 2}), (3, (5, 6, 1, 3), {5: 1, 6: 2})]
    assert stacks(events)[1:] == [{1: 199, 3: 200, 5: 203, 6: 198}, {1: 199, 3: 200, 5: 202, 6: 199}]


def test_the_puck_on_the_new_players_seat_is_out_of_position():
    events = run(HEAD + "wait-for-bb 6\n" + hand(6, {3: 1, 5: 2}, [3, 5, 1], [1, 3], 5))
    assert [r for r, _ in loud(events)] == ["misdeal.1g"]
    (finding,) = [e for e in events if e.kind == "FindingRaised" and e.rule == "misdeal.1g"]
    assert finding.outcome == "misdeal" and "belongs on seat 1" in finding.ruling
    assert started(events)[1] == (1, (3, 5, 1), {3: 1, 5: 2})


def test_a_dead_button_table_keeps_its_rotation_with_a_new_player():
    # Blinds 1b is unchanged: the big blind moves one seat, the button follows it (here seat 1, as above, since
    # last hand's small blind was seat 1); the fix is the moving button's alone
    events = run(HEAD.replace("table seats 6", "table seats 6 button dead") + "wait-for-bb 6\n"
                 + hand(1, {3: 1, 5: 2}, [3, 5, 1], [1, 3], 5))
    assert loud(events) == []
    assert started(events)[1] == (1, (3, 5, 1), {3: 1, 5: 2})
