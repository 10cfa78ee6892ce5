"""Key moments of a hand as TableState snapshots (what Engine.snapshot() gives the screen), shared by the
screen tests and docs. Hole cards appear only in ``shown`` at showdown, as the snapshot contract says."""

from dataclasses import replace

from dealerbox.engine import events as te
from dealerbox.engine.state import FindingView, SeatView, TableState

HOLE = {1: ("Ah", "Kh"), 2: ("Qs", "Qd"), 3: ("7c", "2d"), 5: ("Jc", "Tc"), 6: ("9s", "9h")}


def _build(overrides: dict, n: int = 9) -> tuple[SeatView, ...]:
    """n seats, seat 4 empty, everyone else dealt in with two cards; ``overrides`` per seat."""
    out = []
    for s in range(1, n + 1):
        kw = dict(seat=s, occupied=s != 4, in_hand=s != 4, cards_held=2 if s != 4 else 0, stack=200 - s)
        kw.update(overrides.get(s, {}))
        out.append(SeatView(**kw))
    return tuple(out)


def clean_hand(n: int = 9) -> TableState:
    """Pre-flop, blinds in, seat 3 to act, nothing wrong."""
    return TableState(hand=7, phase="preflop", game="nlhe", button=n, deck_id="DEMO-1", to_act=3, pot=30,
                      seats=_build({1: {"bet": 1}, 2: {"bet": 2}, 3: {"to_act": True}}, n))


def checkable_hand() -> TableState:
    """The clean hand on the flop before anyone bets: seat 3 to act may check (pre-flop it faces the blind)."""
    state = clean_hand()
    return replace(state, phase="flop", seats=tuple(replace(s, bet=0) for s in state.seats))


MISDEAL = FindingView("h8-1", "misdeal.1c", "Misdeals 1(c)", "floor", "misdeal",
                      "Two cards were found face up in the deck. The hand is a misdeal: cards back, blinds returned.",
                      seats=(5,), cards=("8d", "3s"))
VOID = FindingView("h9-1", "irregularity.4", "Irregularities 4", "floor", "void",
                   "Two cards of the same rank and suit are in play: all action is void, chips go back.",
                   seats=(2, 6), cards=("Qs",))
EXPOSED = FindingView("h7-1", "holdem.1", "Hold'em 1", "dealer", "card-replaced",
                      "A hole card was exposed: replace it and burn it.", seats=(3,))


def misdeal() -> TableState:
    return TableState(hand=8, phase="deal", game="nlhe", button=1, deck_id="DEMO-1",
                      seats=_build({2: {"bet": 1, "cards_held": 1}, 3: {"bet": 2, "cards_held": 1}}),
                      findings=(MISDEAL,))


def void_hand() -> TableState:
    return TableState(hand=9, phase="flop", game="nlhe", button=2, board=("Qs", "8c", "4d"), burn_count=1,
                      muck_count=3, pot=60, seats=_build({1: {"folded": True, "cards_held": 0}}, 9), findings=(VOID,))


def showdown() -> TableState:
    """Three players all in: a main pot and a side pot; seat 1 wins the main, seat 2 the side."""
    over = {s: {"in_hand": False, "folded": True, "cards_held": 0} for s in (3, 5, 6, 7, 8, 9)}
    over |= {1: {"all_in": True, "stack": 0, "shown": HOLE[1]},
             2: {"all_in": True, "stack": 0, "shown": HOLE[2]},
             6: {"in_hand": True, "folded": False, "cards_held": 2, "shown": HOLE[6], "stack": 340}}
    return TableState(hand=11, phase="showdown", game="nlhe", button=9, board=("Ac", "Qh", "9d", "5s", "2c"),
                      burn_count=3, muck_count=12, pot=750, pots=((450, (1, 2, 6)), (300, (2, 6))),
                      seats=_build(over, 9), winners={1: 450, 2: 300}, pot_winners=((1,), (2,)))


def hand_events() -> list[te.TableEvent]:
    """A short hand 10 and the start of hand 11, as the engine would report them (hole cards masked)."""
    return [
        te.HandStarted(1.0, 10, 9, (1, 2, 3), "nlhe", {1: 1, 2: 2}),
        te.CardDealt(1.5, 10, 1, "Ah", False),
        te.ActionTaken(2.0, 10, 1, "post", 1, 1, "preflop"),
        te.ActionTaken(2.1, 10, 2, "post", 2, 2, "preflop"),
        te.ActionTaken(3.0, 10, 3, "raise", 6, 6, "preflop"),
        te.FindingRaised(3.5, 10, "h10-1", "holdem.1", "Hold'em 1", "dealer", "card-replaced", "Replace it."),
        te.ActionTaken(4.0, 10, 1, "fold", 0, 1, "preflop"),
        te.PotAwarded(5.0, 10, 0, te.Pot(15, (2, 3), (3,), {3: 15})),
        te.HandEnded(5.5, 10, "complete", (te.Pot(15, (2, 3), (3,), {3: 15}),), {1: 199, 2: 196, 3: 212}),
        te.HandStarted(6.0, 11, 1, (2, 3, 1), "nlhe", {2: 1, 3: 2}),
        te.ActionTaken(6.5, 11, 2, "post", 1, 1, "preflop"),
    ]


def test_moments_keep_the_snapshot_contract():
    # Only the showdown moment may carry shown hands; the others hold cards face down.
    for moment in (clean_hand(), misdeal(), void_hand()):
        assert all(not s.shown for s in moment.seats)
        assert any(s.cards_held for s in moment.seats)
    assert {s.seat for s in showdown().seats if s.shown} == {1, 2, 6}
