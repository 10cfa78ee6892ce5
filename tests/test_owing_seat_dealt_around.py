"""Issue 31, a seat that owes a post and has posted nothing: the dealer may deal around it (Blinds 4a, 5 and 9: it
waits for the big blind). It is out of the hand, quietly: no misdeal.1f for the sequence, no blinds.10, and the
betting, the screen and the floor no longer count it in; it stays seated and owing, and the big blind deals it in.
Dealt in without posting, it still gets blinds.10, at its own first card (Blinds 10). Through the real Pipeline,
from scenario text."""

from __future__ import annotations

from pathlib import Path

from dealerbox.pipeline import Pipeline
from dealerbox.sinks.floor import contract as c
from dealerbox.sources.scenario import compile_text
from tests.scenario_play import NEW_PLAYER_AFTER_THE_BUTTON as HEAD, one_hand as hand

ROOT = Path(__file__).resolve().parent.parent


def deal(order: list[int]) -> str:
    return "".join(f"card random shoe -> seat{s}\n" for s in order * 2)


def run(text: str) -> tuple[Pipeline, list]:
    compiled = compile_text(text + "wait 1s\nheartbeat\n")
    pipe = Pipeline.from_header(compiled.header)
    return pipe, [e for record in compiled.records for e in pipe.feed(record)]


def loud(events: list) -> list:
    return [(e.rule, e.ruling) for e in events if e.kind == "FindingRaised" and e.severity in ("dealer", "floor")]


def rules(events: list) -> list[str]:
    return [e.rule for e in events if e.kind == "FindingRaised"]


def started(events: list) -> list[tuple[int, tuple[int, ...], dict[int, int]]]:
    return [(e.button, tuple(e.seats), dict(e.blinds)) for e in events if e.kind == "HandStarted"]


def stacks(events: list) -> list[dict[int, int]]:
    return [dict(e.stacks) for e in events if e.kind == "HandEnded"]


POSTS = "button 1\npost 3 1\nwait 1s\npost 5 2\nwait 1s\n"


def test_a_new_player_who_has_not_posted_and_is_dealt_around_waits_quietly():
    pipe, events = run(HEAD + POSTS + deal([3, 5, 1]) + "wait 2s\n")
    assert loud(events) == []
    assert "blinds.10" not in rules(events) and "misdeal.1f" not in rules(events)
    assert started(events)[1] == (1, (3, 5, 6, 1), {3: 1, 5: 2})
    (around,) = [e for e in events if e.kind == "DealtAround"]
    assert around.seat == 6 and around.hand == 2
    # the betting goes on without seat 6: seat 1 is first to act behind the big blind
    state = pipe.engine.snapshot()
    seat6 = next(s for s in state.seats if s.seat == 6)
    assert seat6.occupied and not seat6.in_hand and seat6.cards_held == 0
    assert state.to_act == 1
    env = c.Envelope("demo", "T01", "boot1")
    body = c.state_payload(env, state, 1.0, 2.0, {}, {"link": "connected"})
    assert (body.get("data") or body)["in_hand"] == [1, 3, 5]
    # still seated, still owing the big blind, still new (Blinds 5: not a player who missed a blind)
    betting = pipe.engine.betting
    assert betting.owes.get(6) == {"bb"} and 6 in betting.new_players


def test_dealt_in_without_posting_it_is_blinds_10_at_its_own_first_card():
    _, events = run(HEAD + POSTS + deal([3, 5, 6, 1]) + "wait 2s\n")
    assert [r for r, _ in loud(events)] == ["blinds.10"]
    kinds = [(e.kind, getattr(e, "seat", None), getattr(e, "rule", None)) for e in events
             if e.hand == 2 and e.kind in ("CardDealt", "FindingRaised")]
    # the finding comes with seat 6's first card, after seats 3 and 5 got theirs, not at the deal's first card
    assert kinds[:4] == [("CardDealt", 3, None), ("CardDealt", 5, None), ("CardDealt", 6, None),
                         ("FindingRaised", None, "blinds.10")]
    assert not [e for e in events if e.kind == "DealtAround"]


def test_a_seat_that_posted_and_is_dealt_around_is_still_out_of_sequence():
    # seat 6 posted its big blind: it is in the hand, and a deal that goes around it is out of the clockwise
    # sequence, as before (Misdeals 1f)
    _, events = run(HEAD + POSTS + "post 6 2\nwait 1s\n" + deal([3, 5, 1]))
    assert [r for r, _ in loud(events)] == ["misdeal.1f"]


def test_a_seat_that_owes_nothing_dealt_out_at_the_end_is_still_misdeal_1j():
    # seat 1, on the button, owes nothing; the dealer gives seats 3, 5 and 6 a card and burns: seat 1 was dealt out
    text = "".join(f"card random shoe -> seat{s}\n" for s in (3, 5, 6)) + "card random shoe -> burn\n"
    _, events = run(HEAD + POSTS + "post 6 2\nwait 1s\n" + text)
    assert [r for r, _ in loud(events)] == ["misdeal.1j"]


def test_a_session_deals_around_the_new_player_until_the_big_blind_reaches_it():
    _, events = run(HEAD
                    + hand(1, {3: 1, 5: 2}, [3, 5, 1], [1, 3], 5)           # seat 6 dealt around: it waits
                    + hand(3, {5: 1, 6: 2}, [5, 6, 1, 3], [1, 3, 5], 6)     # the big blind reaches seat 6
                    + hand(5, {6: 1, 1: 2}, [6, 1, 3, 5], [3, 5, 6], 1)
                    + hand(6, {1: 1, 3: 2}, [1, 3, 5, 6], [5, 6, 1], 3))
    assert [e for e in events if e.kind == "FindingRaised" and e.severity != "info"] == []
    assert started(events) == [
        (5, (1, 3, 5), {1: 1, 3: 2}),
        (1, (3, 5, 6, 1), {3: 1, 5: 2}),        # seat 6 could have posted; it was dealt around instead
        (3, (5, 6, 1, 3), {5: 1, 6: 2}),
        (5, (6, 1, 3, 5), {6: 1, 1: 2}),
        (6, (1, 3, 5, 6), {1: 1, 3: 2}),
    ]
    assert [e.seat for e in events if e.kind == "DealtAround"] == [6]
    dealt = {}
    for e in events:
        if e.kind == "CardDealt":
            dealt.setdefault(e.hand, set()).add(e.seat)
    assert dealt == {1: {1, 3, 5}, 2: {1, 3, 5}, 3: {1, 3, 5, 6}, 4: {1, 3, 5, 6}, 5: {1, 3, 5, 6}}
    assert stacks(events) == [
        {1: 199, 3: 201, 5: 200},
        {1: 199, 3: 200, 5: 201, 6: 200},       # seat 6 put nothing in and lost nothing
        {1: 199, 3: 200, 5: 200, 6: 201},
        {1: 200, 3: 200, 5: 200, 6: 200},
        {1: 199, 3: 201, 5: 200, 6: 200},
    ]


def test_the_hand_history_lists_only_the_seats_dealt_in():
    from dealerbox.history.summary import HandBook
    _, events = run(HEAD + hand(1, {3: 1, 5: 2}, [3, 5, 1], [1, 3], 5))
    book = HandBook(keep=True)
    for e in events:
        book.feed(e)
    second = book.hands[1]
    assert second.seats == (3, 5, 1) and 6 not in second.stacks_before and second.outcome == "complete"


def test_a_seat_back_in_owing_missed_blinds_dealt_around_waits_and_the_big_blind_settles_it():
    # Blinds 9: seat 4 missed both blinds (sit-out), taps back-in and posts nothing; the dealer deals around it:
    # it waits, out of the hand, still owing both; the next hand's big blind reaches it and settles the debt
    scn = (ROOT / "tests/scenarios/chips-blinds.9-both.scn").read_text()
    head = scn[scn.index("table seats"):scn.index("button 1\nblinds\npost 4 2")]
    pipe, events = run(head + hand(1, {2: 1, 3: 2}, [2, 3, 1], [1, 2], 3))
    assert loud(events) == []
    around = [(e.hand, e.seat, e.owed) for e in events if e.kind == "DealtAround"]
    assert around == [(4, 4, 3)]                      # both blinds: 2 live and 1 dead, when it posts
    betting = pipe.engine.betting
    assert betting.owes.get(4) == {"sb", "bb"} and 4 in betting.returning
    pipe2, events = run(head + hand(1, {2: 1, 3: 2}, [2, 3, 1], [1, 2], 3)
                        + hand(2, {3: 1, 4: 2}, [3, 4, 1, 2], [1, 2, 3], 4))
    assert loud(events) == []
    assert started(events)[-1] == (2, (3, 4, 1, 2), {3: 1, 4: 2})
    assert 4 not in pipe2.engine.betting.owes
    # seat 4 put nothing in the hand it was dealt around, then won the blinds as the big blind
    assert stacks(events)[-3:] == [{1: 200, 2: 200, 3: 200, 4: 200}, {1: 200, 2: 199, 3: 201, 4: 200},
                                   {1: 200, 2: 199, 3: 200, 4: 201}]
