"""Floor calls nobody acknowledges pile up (a 20,000-hand soak had some 200 open by hand 10,000): the table's
snapshot, which the dealer's screen and the retained floor state read, lists every finding of the hand under way
and only the newest floor calls of earlier hands, with how many are open in all and the oldest of them. Each
call still went to the floor as its own alert (tests/dashboard/test_open_calls.py files all 300)."""

from __future__ import annotations

import json

from dealerbox.engine.inputs import DealerInput
from dealerbox.engine.state import OPEN_LISTED
from dealerbox.sinks.floor import contract as c
from tests.open_calls import play, session


def payload(state) -> dict:
    return c.state_payload(c.Envelope("demo", "T01", "boot"), state, 1.0, 2.0, {}, {"link": "connected"})


def test_three_hundred_open_floor_calls_leave_the_snapshot_listing_the_newest_twenty_and_counting_all():
    s = session()
    assert len(s.calls) == 300
    state = s.updates[-1].state
    current = state.hand
    earlier = [f for f in state.findings if f.hand != current]
    # the newest twenty of earlier hands, oldest first, as raised; every call of the hand under way besides
    newest = [f.id for f in s.calls if f.hand != current][-OPEN_LISTED:]
    assert [f.id for f in earlier] == newest
    assert [f.id for f in state.findings if f.hand == current] == [f.id for f in s.calls if f.hand == current]
    assert state.findings_open == 300
    oldest = s.calls[0]
    assert state.oldest_open is not None
    assert (state.oldest_open.id, state.oldest_open.hand, state.oldest_open.t) == (oldest.id, oldest.hand, oldest.t)


def test_the_floor_state_stays_the_same_size_from_forty_open_calls_to_three_hundred():
    s = session()
    at_40 = next(u.state for u in s.updates if u.state.findings_open >= 40)
    at_300 = s.updates[-1].state
    small, big = payload(at_40), payload(at_300)
    assert c.schema_errors("state", big) == []
    assert (small["findings_open"], big["findings_open"]) == (at_40.findings_open, 300)
    assert big["findings_oldest"] == {"id": s.calls[0].id, "hand": s.calls[0].hand, "t": s.calls[0].t}
    assert len(big["findings"]) <= OPEN_LISTED + 2
    # before: every open call in every state, 107 kB at 300 (seven times the size at 40)
    assert len(json.dumps(big)) < 1.15 * len(json.dumps(small)), (len(json.dumps(small)), len(json.dumps(big)))


def test_acknowledging_the_oldest_call_counts_one_fewer_and_names_the_next_oldest():
    s = play(hands=15)
    assert len(s.calls) == 30 and s.pipe.engine.snapshot().findings_open == 30
    first, second = s.calls[0], s.calls[1]
    s.pipe.feed_input(DealerInput(s.updates[-1].events[-1].t + 1, "ack", ref=first.id, by="dashboard:sam"))
    state = s.pipe.engine.snapshot()
    assert state.findings_open == 29
    assert state.oldest_open is not None and state.oldest_open.id == second.id
    assert first.id not in {f.id for f in state.findings}


def test_an_older_floor_state_without_the_count_is_still_read_by_the_console_view():
    from dealerbox.sinks.floor.view import open_count
    s = session()
    old = payload(s.updates[-1].state)
    del old["findings_open"], old["findings_oldest"]
    assert c.schema_errors("state", old) == []           # the new fields are additive
    assert c.display_errors("state", old) == []
    new = payload(s.updates[-1].state)
    assert open_count(new) == 300
    assert open_count(old) == len([f for f in old["findings"] if not f.get("acknowledged")])


def test_the_dealer_screen_banners_the_most_serious_newest_call_and_counts_the_other_299():
    from dealerbox.config import Config
    from dealerbox.sinks.panel import light_for
    from dealerbox.sinks.screen import Screen
    state = session().updates[-1].state
    screen = Screen(Config(), (800, 480))
    screen.render(state, {"reader": {"connected": True, "seq_gaps": 0},
                          "floor": {"connected": True, "outbox_depth": 0}}, [])
    assert screen.frame.banner is not None and screen.frame.banner.id == session().calls[-1].id
    assert screen.frame.texts("more") == ["+299 more"]
    assert light_for(state) == "red"


def test_a_floor_call_stays_acknowledgeable_by_the_floor_however_many_findings_follow_it():
    from dealerbox.upkeep.bounded import KnownFindings
    known = KnownFindings(50)           # the link's is 5,000 (sinks/floor/link.py, KNOWN_FINDINGS)
    for f in session().calls:
        known.raised(f.id, floor_call=True)
    for n in range(1, 501):             # later hands' findings, listed by the state and never alerted
        known.seen(f"h{1000 + n}-1")
    assert all(f.id in known for f in session().calls[-50:])   # the newest 50 open calls, the oldest among them
    known.acknowledged(session().calls[-1].id)
    assert session().calls[-1].id not in known.calls and session().calls[-1].id in known   # answered, still recent
    assert len(known) == 49 + 50
