"""Hand summaries from the table events of every scenario: the accounting closes hand by hand, hole cards are
only there when revealed, and a log that stops mid-hand still yields that hand, marked unfinished."""

from __future__ import annotations

from pathlib import Path

from dealerbox.engine import events as e
from dealerbox.history.reader import read_hands
from dealerbox.history.summary import HandBook, summarise

SCENARIOS = sorted(Path(__file__).resolve().parents[1].joinpath("scenarios").glob("*.scn"))


def test_every_complete_scenario_hand_balances():
    complete = 0
    for path in SCENARIOS:
        for h in read_hands(path).hands:
            assert set(h.seats) <= set(h.stacks_before), f"{path.name} hand {h.hand}"
            if h.outcome != "complete":
                continue
            complete += 1
            put, won, back = h.contributed, h.winnings, h.returned
            where = f"{path.name} hand {h.hand}"
            assert sum(p.amount for p in h.pots) == sum(won.values()), where
            assert sum(h.stacks_after[s] for s in h.seats) == sum(h.stacks_before[s] for s in h.seats), where
            assert sum(put.values()) == sum(p.amount for p in h.pots) + sum(back.values()), where
            # only an uncalled bet comes back: to one seat, the biggest bettor, and never more than it put in
            assert len(back) <= 1, where
            for seat, chips in back.items():
                assert 0 < chips <= put[seat] and put[seat] == max(put.values()), where
    assert complete >= 40


def test_hole_cards_only_when_revealed():
    clean = next(p for p in SCENARIOS if p.name == "clean-hand.scn")
    hidden, shown = read_hands(clean).hands[0], read_hands(clean, reveal=True).hands[0]
    assert hidden.hole_cards == {}
    assert set(shown.hole_cards) == set(shown.seats) and all(len(c) == 2 for c in shown.hole_cards.values())
    assert hidden.shown and hidden.shown == shown.shown   # cards shown at showdown are public either way


def test_unfinished_hand_and_stray_findings_are_kept():
    events = [e.PlayerSeated(0.0, None, 1, 100), e.PlayerSeated(0.0, None, 2, 100),
              e.FindingRaised(0.5, None, "h0-1", "procedures.3", "Procedures 3", "dealer", "continues", "x"),
              e.HandStarted(1.0, 1, 2, (1, 2), "nlhe", {2: 1, 1: 2}),
              e.ActionTaken(1.5, 1, 2, "post", 1, 1, "preflop")]
    book = HandBook("T09")
    assert [book.feed(x) for x in events] == [None] * 5
    last = book.flush()
    assert last.outcome == "unfinished" and last.table == "T09" and last.contributed == {2: 1}
    assert [f.rule for f in book.stray_findings] == ["procedures.3"]
    assert [h.outcome for h in summarise(events)] == ["unfinished"]
