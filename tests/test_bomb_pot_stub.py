"""A bomb pot on two boards no bigger than the deck deals: ten-handed Omaha (10 x 4 hole cards) or eight-handed Big O
(8 x 5), with two boards of 5 cards and 3 burns each, need 56 cards of a 52-card deck. The tap asking it is refused
with the count (bomb-pot.3, dealer), as a run-it tap the stub cannot deal is (tests/test_run_it_stub.py), and the
screen offers the two-board key only when the deck deals it."""

from __future__ import annotations

from pathlib import Path

from dealerbox.engine import events as te
from dealerbox.pipeline import Pipeline
from dealerbox.sinks.screen.model import practice_keys
from dealerbox.sources.scenario import compile_text

SCENARIOS = Path(__file__).resolve().parent / "scenarios"
REFUSED = (SCENARIOS / "house-bomb-pot.3-stub.scn").read_text()


def feed(text: str) -> tuple[Pipeline, list[te.TableEvent]]:
    compiled = compile_text(text, str(SCENARIOS / "bomb-stub.scn"))
    pipe = Pipeline.from_header(compiled.header)
    events: list[te.TableEvent] = []
    for record in compiled.records:
        events += pipe.feed(record)
    return pipe, events


def bomb_findings(events: list[te.TableEvent]) -> list[te.FindingRaised]:
    return [e for e in events if isinstance(e, te.FindingRaised) and e.rule.startswith("bomb-pot")]


def seated(text: str, players: int) -> str:
    """``text`` with only seats 1..``players`` taken."""
    return "".join(line for line in text.splitlines(keepends=True)
                   if not line.startswith("sit ") or int(line.split()[1]) <= players)


def test_a_double_board_bomb_pot_at_ten_handed_omaha_is_refused_at_the_tap_with_the_count():
    _, events = feed(REFUSED)
    (f,) = bomb_findings(events)
    assert (f.rule, f.severity, f.outcome, f.seats) == ("bomb-pot.3", "dealer", "continues", tuple(range(1, 11)))
    assert f.ruling == ("The deck holds 52 cards: a bomb pot on 2 boards for 10 players needs 56 (10 x 4 hole cards, "
                        "2 x 8 for the boards and their burns). Deal it on one board.")
    assert not [e for e in events if isinstance(e, te.BombPotStarted)]


def test_eight_handed_big_o_on_two_boards_is_refused_and_on_one_board_is_started():
    big_o = seated(REFUSED.replace("game plo blinds", "game plo5-8 blinds").replace("table seats 10", "table seats 8"),
                   8)
    _, events = feed(big_o)
    (f,) = bomb_findings(events)
    assert f.rule == "bomb-pot.3" and "for 8 players needs 56 (8 x 5 hole cards, 2 x 8" in f.ruling
    pipe, events = feed(big_o.replace("ref 2", "ref 1"))
    assert not bomb_findings(events) and pipe.engine.snapshot().house.bomb_offer == 10


def test_the_screen_offers_the_two_board_key_only_when_the_deck_deals_it():
    def keys(players: int) -> list[str]:
        pipe, _ = feed(seated(REFUSED.replace("bomb-pot amount 10 ref 2\n", ""), players))
        house = pipe.engine.snapshot().house
        return [k.key for k in practice_keys(pipe.engine.snapshot())] + [f"boards {house.bomb_boards}"]

    assert keys(10) == ["bomb-pot:1", "boards 1"]                  # 40 hole cards + 8: one board
    assert keys(9) == ["bomb-pot:1", "bomb-pot:2", "boards 2"]     # 36 + 16 = 52: the whole deck, two boards


def test_nine_handed_omaha_on_two_boards_uses_the_whole_deck_and_starts():
    _, events = feed((SCENARIOS / "house-bomb-pot.3-stub-ok.scn").read_text())
    assert [(e.amount, e.boards) for e in events if isinstance(e, te.BombPotStarted)] == [(10, 2)]
    assert [f.rule for f in bomb_findings(events)] == ["bomb-pot.1"]
