"""Issue 29, outside attack after the badge fix: ``BadgeShown.uid`` is masked, but a badge the table's enrolment
does not hold as a ``badge`` marker (a new dealer's badge, a dealer visiting from another table, a badge held
over a zone of a table whose chip set was re-enrolled) is an unknown tag to the engine, and ``UnknownTagSeen``
carried its uid in the clear: in a sealed log's clear lines, on the floor's event topic (every floor account that
subscribes to ``#``), in the floor link's outbox on the SD card and on the dashboard's hand page. A UID-only badge
is cloned from that uid. Nothing reads an unknown tag's uid but a person (no rule, no finding, no page uses it),
so it is masked like a badge's: only a replay with the floor's key and ``--reveal-hole-cards`` prints it."""

from __future__ import annotations

import json

import pytest

from dealerbox.sinks.floor import contract as c

from .witness import badge_hand, badge_table, play_live, replayed

pytestmark = pytest.mark.timeout(120)
BADGE = "04c1d2e3f4a5b6"      # D17's badge, named in audit.badges but not enrolled as a marker at this table

SCENARIO = badge_hand("A hand during which the dealer holds a badge this table's enrolment does not know over seat 3",
                      f"card uid:{BADGE} -> seat3\ncard uid:{BADGE} seat3 -> off")


def test_an_unenrolled_badge_s_uid_reaches_no_floor_topic_outbox_dashboard_or_sealed_log(tmp_path, broker, capsys):
    scn = badge_table(tmp_path, SCENARIO)
    live = play_live(tmp_path, broker, scn, {BADGE: "D17"}, "UnknownTagSeen")
    unknown = [p for p in live.events if p["data"]["event"] == "UnknownTagSeen"]
    assert [p["data"]["zone"] for p in unknown] == ["seat3"]       # the tag was seen: the check can fail
    assert unknown[0]["data"]["uid"] is None
    for p in live.events:
        c.validate("event", p)
    assert BADGE not in json.dumps(live.events).lower()
    assert live.page.status_code == 200 and "UnknownTagSeen" in live.page.text and BADGE not in live.page.text.lower()
    for path in [*live.rec.parts, tmp_path / "outbox-T01.sqlite"]:
        assert BADGE.encode() not in path.read_bytes().lower(), path
    # the floor's key and a reveal still tell the surveillance room which tag it was
    revealed = replayed(tmp_path, live.rec, live.floor_private, capsys)
    assert [e["uid"] for e in revealed if e["event"] == "UnknownTagSeen"] == [BADGE]
