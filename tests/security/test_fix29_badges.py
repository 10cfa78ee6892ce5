"""Issue 29, after the outside review: a dealer's badge is only a UID, so whoever reads that UID can clone the
badge and sign in as the dealer. A log reader (a sealed log's clear lines and header), the floor's event topic
and the dashboard's hand pages all got it. Now every public view masks it as it masks hole cards, the badge
markers are sealed in the header with the decks, and the terminal still signs the dealer in live, and a replay
with the floor's key still sees whose badge it was."""

from __future__ import annotations

import json

import pytest

from dealerbox.sinks.floor import contract as c
from dealerbox.sources import open_log

from .witness import badge_hand, badge_table, play_live, replayed, sealed_recorder

pytestmark = pytest.mark.timeout(120)
BADGE = "04b0d9e5a17c22"

SCENARIO = badge_hand("A hand during which the dealer holds a badge over seat 3 (a dealer change mid-hand)",
                      "puck badge -> seat3\npuck badge seat3 -> off")


def test_a_sealed_log_holds_no_badge_uid_in_the_clear_and_the_floor_key_replay_still_sees_it(tmp_path, capsys):
    log = open_log(badge_table(tmp_path, SCENARIO, BADGE))   # one of the house chips' markers is the badge
    rec, floor_private = sealed_recorder(tmp_path, log.header)
    for record in log:
        rec.write(record)
    rec.close()
    text = b"".join(p.read_bytes() for p in rec.parts)
    lines = [json.loads(line) for line in text.splitlines()]
    shown = [line["e"] for line in lines if line["k"] == "ev" and line["e"]["event"] == "BadgeShown"]
    assert len(shown) == 1 and shown[0]["zone"] == "seat3"      # the event is there: the check can fail
    assert shown[0]["uid"] is None
    header = lines[0]
    assert all("badge" not in chip_set["markers"].values() for chip_set in header["enrolment"]["chips"])
    assert any("button" in chip_set["markers"].values() for chip_set in header["enrolment"]["chips"])
    assert BADGE.encode() not in text.lower() and BADGE.upper().encode() not in text
    # the floor's key opens the header's badges again: the engine sees the badge, and a reveal prints its uid
    revealed = replayed(tmp_path, rec, floor_private, capsys)
    assert [e["uid"] for e in revealed if e["event"] == "BadgeShown"] == [BADGE]
    # with the key but no reveal asked for, the uid stays masked like the hole cards
    assert [e["uid"] for e in replayed(tmp_path, rec, floor_private, capsys, reveal=False)
            if e["event"] == "BadgeShown"] == [None]


def test_the_terminal_signs_the_badge_s_dealer_in_live_and_the_floor_and_dashboard_never_see_the_uid(
        tmp_path, broker):
    scn = badge_table(tmp_path, SCENARIO, BADGE)
    live = play_live(tmp_path, broker, scn, {BADGE.upper(): "D17"}, "BadgeShown",
                     settled=lambda v: (v.tables["T01"].state or {}).get("dealer") == "D17")
    badge = [p for p in live.events if p["data"]["event"] == "BadgeShown"]
    signed = [p for p in live.events if p["data"]["event"] == "DealerSignedIn"]
    assert len(badge) == 1 and badge[0]["data"]["uid"] is None
    assert [(p["data"]["dealer"], p["data"]["method"]) for p in signed] == [("D17", "badge")]   # live sign-in works
    for p in live.events:
        c.validate("event", p)
    assert BADGE not in json.dumps(live.events).lower()
    # the dashboard's hand page lists the badge event, without its uid
    assert live.page.status_code == 200 and "BadgeShown" in live.page.text and "DealerSignedIn" in live.page.text
    assert BADGE not in live.page.text.lower()
    # nothing the terminal wrote holds it in the clear either: the sealed log and the floor's outbox
    for path in [*live.rec.parts, tmp_path / "outbox-T01.sqlite"]:
        assert BADGE.encode() not in path.read_bytes().lower(), path
