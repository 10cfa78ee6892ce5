"""When the engine genuinely cannot follow the betting any more (sensor frames lost while it ran, so chips may
have moved unseen) it says so once, stays quiet about chips until the next deal, and the next hand is judged
as usual (issue 18). Driven through the real decoder from a scenario, the frame gap made by the encoder."""

from __future__ import annotations

from dealerbox.engine import events as te
from tests.scenario_play import THREE_HANDED_DEALT
from tests.scenario_play import play_text as run

HAND = THREE_HANDED_DEALT + """call 5 2
wait 1s
lose 3 frames
chips 10 -> bet1
wait 1s
chips 3 -> bet3
wait 1s
tap check seat 3
chips 1 -> bet1
wait 1s
heartbeat
"""


def test_lost_frames_during_the_betting_are_said_once_and_nothing_is_ruled_on_the_chips_after():
    events = run(HAND)
    lost = [e for e in events if isinstance(e, te.BettingLost)]
    assert [(e.hand, e.reason) for e in lost] == [(1, "sequence-gap")]
    assert "lost track of the betting" in lost[0].text.lower() and "next deal" in lost[0].text
    after = events[events.index(lost[0]):]
    # a string bet, a check facing a bet and a second motion would each be ruled on if the engine still followed
    assert [e for e in after if isinstance(e, te.FindingRaised) and e.severity != "info"] == []
    assert not [e for e in after if isinstance(e, te.ActionTaken)]


def test_the_next_deal_is_followed_again():
    events = run(HAND + "new-hand\nwait 1s\nchips 1 -> bet1\nwait 1s\nchips 2 -> bet3\nwait 1s\ndeal hole cards\n"
                 "wait 2s\nchips 1 -> bet5\nwait 1s\nheartbeat\n")
    second = [e for e in events if e.hand == 2]
    assert any(isinstance(e, te.HandStarted) for e in second)
    assert not any(isinstance(e, te.BettingLost) for e in second)
    # the betting is read and judged again: the blinds are posts, a short call is ruled and brought up
    assert [(e.seat, e.action, e.total) for e in second if isinstance(e, te.ActionTaken)] == \
        [(1, "post", 1), (3, "post", 2), (5, "call", 2)]
    assert [(f.rule, f.seats) for f in second if isinstance(f, te.FindingRaised) and f.severity != "info"] == \
        [("betting.16", (5,))]


def test_frames_lost_between_hands_change_nothing():
    events = run("table seats 6\ngame nlhe blinds 1/2\nhello\nshoe loaded\nsit 1 200\nsit 3 200\nlose 2 frames\n"
                 "heartbeat\n")
    assert any(isinstance(e, te.SensorDataLost) for e in events)
    assert not any(isinstance(e, te.BettingLost) for e in events)
