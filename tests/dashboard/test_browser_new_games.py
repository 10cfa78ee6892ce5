"""The floor dashboard's hand page for the new games, in chromium against the shared dashboard: a hand run twice,
a double-board bomb pot and an Omaha high-low split, each played by the real engine from its scenario and sent
by a real FloorLink. The page shows every board (run) with its cards and what each board's part of the pot went
to, each pot's high and low half with its winner, and not one hole card that was not shown."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from dealerbox.engine import events as te
from dealerbox.pipeline import Pipeline
from dealerbox.runtime.bus import Update
from dealerbox.sources.scenario import compile_file
from tests.waiting import wait_until

from .tables import start_table
from tests.conftest import scaled

pytestmark = pytest.mark.timeout(240)
SCENARIOS = Path(__file__).resolve().parent.parent / "scenarios"


def scenario_updates(name: str) -> tuple[list[Update], list[te.TableEvent], set[str]]:
    """The updates a terminal's sinks get while the scenario is played, its events, and the cards that must
    never reach the floor: every hole card dealt face down and not shown at the showdown, every burn."""
    compiled = compile_file(SCENARIOS / name)
    pipe = Pipeline.from_header(compiled.header)
    ups, events = [], []
    for record in compiled.records:
        step = pipe.feed(record)
        if step:
            ups.append(Update(tuple(step), pipe.engine.snapshot(), {"crc_errors": 0}))
            events += step
    dealt = {e.card for e in events if isinstance(e, te.CardDealt) and not e.face_up}
    shown = {c for e in events if isinstance(e, te.HandShown) for c in e.cards}
    burnt = {e.card for e in events if isinstance(e, te.CardBurned)}
    return ups, events, (dealt - shown) | burnt


GAMES = {  # table: scenario
    "NG1": "house-boards.1.scn",        # run it twice: seat 3 wins board 1, seat 1 board 2
    "NG2": "house-bomb-pot.1.scn",      # a bomb pot on two boards
    "NG3": "showdown-highlow-split.scn",   # the high to seat 1, the low to seat 3, the odd chip to the high
}


def test_the_hand_page_of_each_new_game_shows_every_board_and_half_and_no_unshown_hole_card(
        tmp_path, floor_broker, signed_in, dashboard):
    played = {}
    for table, name in GAMES.items():
        link = start_table(tmp_path, floor_broker, table)
        try:
            ups, events, secret = scenario_updates(name)
            for u in ups:
                link.submit(u)
            def ended(t: str = table) -> bool:
                return any(r["event"] == "HandEnded" for r in dashboard.store.hand("demo", t, 1))
            assert wait_until(ended, scaled(30)), f"{table}: the hand did not reach the floor"
        finally:
            link.stop()
        played[table] = (events, secret)
    page = signed_in("vic")
    for table, (events, secret) in played.items():
        page.goto(f"{dashboard.url}/tables/demo/{table}/hands/1")
        ended, = [e for e in events if isinstance(e, te.HandEnded)]
        result = page.locator("section.result")
        # every board, in order: board 1 then each run (or second board) the hand was dealt
        boards = [list(ended.board), *(list(b) for b in ended.boards or ())]
        drawn = [row.get_attribute("data-cards").split() for row in result.locator(".board").all()]
        assert drawn == boards, (table, drawn)
        # what each board's part of each pot went to (PotSplitByBoard), a line each
        parts = [e for e in events if isinstance(e, te.PotSplitByBoard)]
        lines = result.locator(".board-part").all()
        assert [(int(li.get_attribute("data-board")), int(li.get_attribute("data-amount"))) for li in lines] == \
            [(p.board, p.pot.amount) for p in parts], table
        for li, p in zip(lines, parts, strict=True):
            assert li.inner_text().endswith(" ".join(f"S{s} {n}" for s, n in sorted(p.pot.shares.items()))), table
        # a split game's halves: each pot's high and low, with the seat that won each and its chips
        halves = result.locator(".half").all()
        if table == "NG3":   # a pot of 7: 4 to the high (the odd chip, Ties 5c), 3 to the low
            assert [(h.get_attribute("data-half"), h.get_attribute("data-seats"), h.get_attribute("data-chips"))
                    for h in halves] == [("high", "1", "4"), ("low", "3", "3")]
            assert [h.inner_text() for h in halves] == ["High half: 4 to S1 4", "Low half: 3 to S3 3"]
        else:
            assert halves == []
        won = {int(w.get_attribute("data-seat")): int(w.get_attribute("data-chips"))
               for w in result.locator(".won").all()}
        assert won == {s: n for p in ended.pots for s, n in p.shares.items() if n}, table
        html = page.content()
        leaked = {c for c in re.findall(r"\b([2-9TJQKA][shdc])\b", html) if c in secret}
        assert not leaked, f"{table}: hole or burn cards on the hand page: {leaked}"


def test_a_triple_draw_table_shows_its_draw_and_betting_rounds_and_each_seat_s_draw_count_never_a_card(
        tmp_path, floor_broker, signed_in, dashboard):
    """27td on the floor: the tile says the round as the dealer's screen does (Draw 1, then Bet 2, live), the
    table page how many cards each seat drew in the draw being dealt and whose turn it is, and no hole card."""
    ups, _events, secret = scenario_updates("lowball-triple-draw-ok.scn")
    link = start_table(tmp_path, floor_broker, "NG4")

    def round_is(name: str) -> bool:
        state = (dashboard.store.table("demo", "NG4") or {}).get("state") or {}
        return (state.get("draw") or {}).get("round") == name
    try:
        for u in ups[:43]:      # the first draw, seat 4's turn: seat 2 drew two cards, seat 3 one
            link.submit(u)
        assert wait_until(lambda: round_is("Draw 1"), scaled(30))
        page = signed_in("vic")
        page.goto(f"{dashboard.url}/tables/demo/NG4")
        page.wait_for_function("window.dealerboxEvents !== undefined")
        tile = page.locator("#tile-demo-NG4")
        assert "hand 1 · Draw 1" in tile.inner_text()
        drew = {int(row.get_attribute("data-seat")): row.locator("td.draw").inner_text()
                for row in page.locator("table.seats tr[data-seat]").all()}
        assert drew == {1: "", 2: "drew 2", 3: "drew 1", 4: "to draw"}
        for u in ups[43:46]:    # seat 4 drew, and the first bet of the second round ended the draw
            link.submit(u)
        page.wait_for_function("document.querySelector('#tile-demo-NG4').innerText.includes('Bet 2')",
                               timeout=scaled(30_000))   # pushed to the open page, as any tile change
        assert "Draw 1" not in tile.inner_text()
        html = page.content()
        leaked = {c for c in re.findall(r"\b([2-9TJQKA][shdc])\b", html) if c in secret}
        assert not leaked, f"hole or burn cards on the table page: {leaked}"
    finally:
        link.stop()
