"""Deuce-to-seven triple draw (27td): the variant's row, the low hand read by pokerkit's deuce-to-seven hand, the
seats one deck deals, and the draws sensed on the felt (discards to the muck, as many cards from the shoe), with
the hole cards (discards included) kept off every public event."""

from __future__ import annotations

import pytest

from dealerbox.config import ConfigError, from_dict
from dealerbox.engine import events as te
from dealerbox.engine.variants import VARIANTS, check_seats, evaluate
from tests.scenario_play import loud, play_text
from tests.test_scenario import SCENARIOS

HAND = (SCENARIOS / "lowball-triple-draw-ok.scn").read_text()


def test_the_lowball_row_deals_five_cards_no_board_three_draws_at_limit():
    v = VARIANTS["27td"]
    assert (v.hole_cards, v.board_cards, v.draws, v.structure) == (5, 0, 3, "limit")


@pytest.mark.parametrize("better, worse", [
    (("7c", "5d", "4h", "3s", "2c"), ("7c", "6d", "4h", "3s", "2c")),     # the nut low beats the next
    (("8c", "6d", "5h", "4s", "2c"), ("As", "5d", "4h", "3s", "2c")),     # the ace is high: A-5-4-3-2 is ace high
    (("Kc", "Qd", "Jh", "9s", "8c"), ("6c", "5d", "4h", "3s", "2c")),     # a straight counts against the hand
    (("Kc", "Qd", "Jh", "9s", "8c"), ("8s", "6s", "5s", "4s", "2s")),     # so does a flush
    (("Ac", "Kd", "Qh", "Js", "9c"), ("2c", "2d", "3h", "4s", "5c")),     # a pair loses to any high card hand
])
def test_the_low_hand_is_read_deuce_to_seven(better, worse):
    assert evaluate(VARIANTS["27td"], better, ())[0] < evaluate(VARIANTS["27td"], worse, ())[0]


def test_a_hand_with_too_few_cards_is_not_read():
    assert evaluate(VARIANTS["27td"], ("7c", "5d", "4h", "3s"), ()) == (10**6, "")


def test_a_table_seats_at_most_nine_players_of_triple_draw():
    check_seats(from_dict({"game": {"variant": "27td"}, "table": {"seats": 9}}, "t.toml"), "t.toml")
    with pytest.raises(ConfigError, match=r"t\.toml: table\.seats: 10 players of 27td need 53 cards.*at most 9"):
        check_seats(from_dict({"game": {"variant": "27td"}, "table": {"seats": 10}}, "t.toml"), "t.toml")


def test_a_hand_of_triple_draw_is_followed_through_its_three_draws_to_the_low_hand():
    events = play_text(HAND)
    assert loud(events) == []
    drawn = [(e.seat, e.draw, e.count) for e in events if isinstance(e, te.CardsDrawn)]
    assert drawn == [(2, 1, 2), (3, 1, 1), (4, 1, 1), (3, 2, 1), (4, 3, 1)]
    rounds = [e.street for e in events if isinstance(e, te.BettingRoundEnded)]
    assert rounds == ["preflop", "flop", "turn"]
    # the river round's limit is the big bet: seat 2 bets 4
    assert [(e.seat, e.action, e.amount) for e in events if isinstance(e, te.ActionTaken) and e.street == "river"] \
        == [(2, "bet", 4), (3, "call", 4), (4, "call", 4)]
    shown = {e.seat: (e.cards, e.rank) for e in events if isinstance(e, te.HandShown)}
    assert shown[2] == (("7c", "5d", "4h", "3d", "2d"), "7-5-4-3-2")      # the cards it drew are its hand now
    assert shown[4][1] == "Flush"
    end = next(e for e in events if isinstance(e, te.HandEnded))
    assert end.outcome == "complete" and end.stacks == {1: 200, 2: 212, 3: 194, 4: 194} and end.board == ()


def test_a_discard_is_no_fold_and_no_public_event_names_a_hole_card():
    events = play_text(HAND)
    folds = [e.seat for e in events if isinstance(e, te.ActionTaken) and e.action == "fold"]
    assert folds == [1]                                       # seat 1's fold only: the draws' discards are not folds
    public = [e.to_dict() for e in events if not isinstance(e, te.HandShown)]
    for d in public:
        if d["event"] in ("CardDealt", "CardMucked", "CardBurned"):
            assert d["card"] is None
    assert sum(1 for e in events if isinstance(e, te.CardMucked)) == 5 + 6   # seat 1's fold, six discards


KILL_TABLE = """table seats 6
game 27td blinds 1/2 bets 2/4 kill full lowball_kill on
hello
shoe loaded
sit 1 200
sit 2 200
sit 3 200
sit 4 STACK
button 1
blinds
wait 1s
"""


def _two_each_then_kill(stack: int, lowball_kill: bool = True) -> list[te.TableEvent]:
    text = KILL_TABLE.replace("STACK", str(stack))
    if not lowball_kill:
        text = text.replace(" lowball_kill on", "")
    deal = "".join(f"card {c} shoe -> seat{s}\n" for c, s in zip(
        ("9c", "8d", "7c", "Kh", "Qc", "6d", "5c", "Kd"), (2, 3, 4, 1) * 2, strict=True))
    return play_text(text + deal + "wait 1s\npost 4 4\nwait 1s\nheartbeat\n")


def test_a_lowball_kill_by_a_seat_short_of_four_kills_goes_back():
    events = _two_each_then_kill(15)     # the kill is 4: at least 16 behind it before posting
    f = [e for e in events if isinstance(e, te.FindingRaised) and e.rule == "kill.10"]
    assert [(x.severity, x.outcome, x.seats) for x in f] == [("dealer", "wager-corrected", (4,))]
    assert "at least four times the kill blind in the stack (16)" in f[0].ruling and "has 15" in f[0].ruling
    assert not any(isinstance(e, te.ActionTaken) and e.seat == 4 for e in events)


def test_a_lowball_kill_with_four_kills_behind_it_doubles_the_limits_and_puts_the_killer_last():
    events = _two_each_then_kill(16)
    assert [(e.severity, e.seats) for e in events if isinstance(e, te.FindingRaised)] == [("info", (4,))]
    post = next(e for e in events if isinstance(e, te.ActionTaken) and e.seat == 4)
    assert (post.action, post.amount) == ("post", 4)


def test_without_the_house_option_chips_put_in_during_the_deal_are_no_lowball_kill():
    events = _two_each_then_kill(200, lowball_kill=False)
    assert not any(isinstance(e, te.FindingRaised) and e.rule == "kill.10" for e in events)


ALL_IN = """table seats 6
game 27td blinds 1/2 bets 2/4
hello
shoe loaded
sit 1 200
sit 2 2
button 1
blinds
deal hole cards 2=7c,5d,4h,Kc,Kd 1=8s,6s,4s,3s,Qh
wait 2s
call 1 2
wait 1s
gather
burn
draw 2 Kc,Kd -> 3d,2d
PAT1
burn
draw 1 Qh -> Jd
PAT2
burn
PAT3
draw 2 5d -> 6c
"""


def _all_in_draws(taps: bool) -> list[te.TableEvent]:
    text = ALL_IN
    for n, seat in ((1, 1), (2, 2), (3, 1)):
        text = text.replace(f"PAT{n}", f"stand-pat {seat}" if taps else "wait 1s")
    return play_text(text + "wait 3s\nheartbeat\n")


def test_all_in_the_draws_end_when_every_live_seat_drew_or_was_tapped_pat():
    # seat 2 is all in with its big blind: nobody can bet; seat 1 stands pat in the first and the last draw (the
    # dealer taps its knock), seat 2 in the second. The last drawer is seat 2 (after the button), so the showdown
    # follows its cards; the first draw ends at seat 1's tap, the second at seat 2's
    events = _all_in_draws(taps=True)
    assert loud(events) == []
    drawn = [(e.seat, e.draw, e.count) for e in events if isinstance(e, te.CardsDrawn)]
    assert drawn == [(2, 1, 2), (1, 1, 0), (1, 2, 1), (2, 2, 0), (1, 3, 0), (2, 3, 1)]
    shown = {e.seat: e.cards for e in events if isinstance(e, te.HandShown)}
    # the showdown came after seat 2's last cards: each hand is the cards it holds after its draws
    assert sorted(shown[2]) == sorted(("7c", "6c", "4h", "3d", "2d"))
    assert sorted(shown[1]) == sorted(("8s", "6s", "4s", "3s", "Jd"))


def test_all_in_without_the_stand_pat_tap_the_draw_does_not_end():
    # the limitation the tap closes: seat 1 standing pat unseen, seat 2's next discard is read as more of draw 1
    events = _all_in_draws(taps=False)
    assert [(e.seat, e.draw) for e in events if isinstance(e, te.CardsDrawn) and e.draw > 1] != \
        [(1, 2), (2, 3)]
    assert not any(isinstance(e, te.HandShown) for e in events)
