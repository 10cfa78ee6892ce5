"""Why a hand run twice is not exported as PHH, proved on the pinned pokerkit rather than asserted.

pokerkit's state can play a hand run twice (``Mode.CASH_GAME``, ``select_runout_count``), but its PHH notation
cannot carry the count: the specification's action grammar (phh-std 0.0.1) and pokerkit's ``parse_action``
have no action for it, ``HandHistory.from_game_state`` writes the runs' cards as plain ``d db`` lines and drops
the selection, and ``HandHistory`` answers every selection itself with no preference, which leaves one run-out.
So the second run's cards cannot be replayed. If a later pokerkit carries the count, the first test here fails:
then ``dealerbox export`` should write such hands as PHH (dealerbox/history/phh.py, ``expressible``)."""

from __future__ import annotations

from pathlib import Path

import pytest
from pokerkit import Automation, HandHistory, Mode, NoLimitTexasHoldem, RunoutCountSelection

from dealerbox.history import phh
from dealerbox.history.summary import summarise
from dealerbox.pipeline import Pipeline
from dealerbox.sources.scenario import compile_file

SCENARIOS = Path(__file__).resolve().parent.parent / "scenarios"
AUTOMATIONS = (Automation.ANTE_POSTING, Automation.BET_COLLECTION, Automation.BLIND_OR_STRADDLE_POSTING,
               Automation.HOLE_CARDS_SHOWING_OR_MUCKING, Automation.HAND_KILLING, Automation.CHIPS_PUSHING,
               Automation.CHIPS_PULLING)   # burns by hand, as unknown cards: pokerkit's own would draw a real one


def run_twice_hand():
    """tests/scenarios/house-boards.1.scn as dealerbox summarised it: seat 1 (Kc Kd) and seat 3 (As Ad) all in
    before the flop for 200 each, the board run twice; each wins one board."""
    compiled = compile_file(SCENARIOS / "house-boards.1.scn")
    pipe = Pipeline.from_header(compiled.header)
    events = [e for record in compiled.records for e in pipe.feed(record)]
    hand, = [h for h in summarise(events) if h.outcome == "complete"]
    return hand


def played_in_pokerkit(hand):
    """The same hand played on pokerkit's state, run twice as the players agreed."""
    game = NoLimitTexasHoldem(AUTOMATIONS, False, 0, (hand.stakes.small_blind, hand.stakes.big_blind),
                              hand.stakes.big_blind, mode=Mode.CASH_GAME)
    order = list(hand.seats)                                  # p1 left of the button, the button last
    state = game([hand.stacks_before[s] for s in order], len(order))
    shown = {s.seat: "".join(s.cards) for s in hand.shown}
    for seat in order:
        state.deal_hole(shown[seat])
    while state.actor_index is not None:                      # all in before the flop: shove and call
        if state.can_complete_bet_or_raise_to():
            state.complete_bet_or_raise_to(state.max_completion_betting_or_raising_to_amount)
        else:
            state.check_or_call()
    while state.can_select_runout_count():
        state.select_runout_count(1 + len(hand.boards))
    for board in (hand.board, *hand.boards):                 # each run whole: flop, turn, river
        for cards in ("".join(board[:3]), board[3], board[4]):
            state.burn_card("??")
            state.deal_board(cards)
    return game, state, order


def test_pokerkit_plays_a_hand_run_twice_but_its_phh_cannot_carry_the_run_out_count():
    hand = run_twice_hand()
    assert hand.practice == "run it twice" and len(hand.boards) == 1
    game, state, order = played_in_pokerkit(hand)
    assert not state.status and state.runout_count == 2
    assert any(isinstance(op, RunoutCountSelection) and op.runout_count == 2 for op in state.operations)
    # pokerkit's state ends where dealerbox's stacks do: each player won one board
    assert list(state.stacks) == [hand.stacks_after[s] for s in order]
    written = HandHistory.from_game_state(game, state)
    # nothing in the actions says "twice": the selection is dropped, the two runs' cards are bare board deals
    assert all(a.split()[1] in ("dh", "db", "cbr", "cc", "sm") for a in written.actions), written.actions
    assert sum(a.startswith("d db") for a in written.actions) == 6
    with pytest.raises(ValueError, match="repair"):
        list(HandHistory.loads(written.dumps()))               # one run-out read back: run 2's cards have no street


def test_dealerbox_leaves_the_hand_out_of_a_phh_export_saying_why(tmp_path):
    hand = run_twice_hand()
    why = phh.expressible(hand)
    assert why is not None and why.startswith("run it twice") and "run-out count" in why
