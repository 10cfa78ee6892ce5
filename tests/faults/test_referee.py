"""Our own referee (tests/faults/referee/) against the worked examples of the rule text: each test is one example
of Robert's Rules (Kill Pots, Button and Blind Use, No-Limit and Pot-Limit, Ties) played through the referee."""

from __future__ import annotations

import pytest

from tests.faults.referee import Deal, Game, HandReferee, RefereeError, TableReferee
from tests.faults.referee.hand import Limits
from tests.faults.referee.table import Posts

NL = Limits("no-limit", 2, 2)


def table(game: Game, seated: dict[int, int], button: int, seats: int = 6) -> TableReferee:
    t = TableReferee(game, seats)
    for seat, stack in seated.items():
        t.tap("sit", seat, stack)
    t.place_button(button)
    return t


def win(t: TableReferee, posts: Posts, winner: int) -> None:
    """Everyone but ``winner`` folds after it raises (a hand ``winner`` wins uncontested)."""
    r = HandReferee(posts.deal(t.game, t.stacks))
    t.dealt(posts, posts.live)
    while r.to_act is not None:
        seat = r.to_act
        if seat == winner and r.current == max(r.bets.values()) and seat in r.may_raise:
            r.act(r.street_name, seat, "raise", r.current + r.last_raise)
        else:
            r.act(r.street_name, seat, "fold" if seat != winner else "call", 0 if seat != winner else r.current)
    t.hand_played(r.finish({}, ()))
    t.move_button()


def test_a_full_kill_is_twice_the_big_blind_and_doubles_the_limits():
    # Kill Pots, the preamble: a full kill is 2x the big blind and doubles the limits; a half kill 1.5x
    full = Game("limit", 1, 2, 2, 4, kill="full")
    assert full.kill_scale == 2 and full.limits(full.kill_scale) == Limits("limit", 4, 8)
    half = Game("limit", 1, 2, 2, 4, kill="half")
    assert half.limits(half.kill_scale) == Limits("limit", 3, 6)


def test_two_pots_in_a_row_make_the_winner_kill_the_next_one_acting_in_turn():
    # Kill Pots 3 and 2: a leg, a second leg, then the killer posts 2x the big blind and acts in proper turn
    t = table(Game("limit", 1, 2, 2, 4, kill="full"), {1: 100, 2: 100, 3: 100, 4: 100}, button=4)
    win(t, t.next_posts(), winner=3)
    assert t.holder == 3 and t.due is None
    win(t, t.next_posts(), winner=3)
    assert t.due == 3
    posts = t.next_posts()          # button 2: seat 3 the small blind, 4 the big blind, 1 first, 2 the button
    assert posts.killer == 3 and posts.live == {3: 4, 4: 2}
    r = HandReferee(posts.deal(t.game, t.stacks))
    assert r.to_act == 1 and r.current == 4
    with pytest.raises(RefereeError, match="limit wagers go up by 4"):
        r.act("preflop", 1, "raise", 6)
    r.act("preflop", 1, "raise", 8)           # the limits doubled
    r.act("preflop", 2, "fold", 0)
    r.act("preflop", 3, "call", 8)            # the killer in its turn: after the seat on its right
    with pytest.raises(RefereeError, match="seat 4 is to act"):
        r.act("preflop", 1, "check", 8)


def test_a_killer_who_wins_kills_again_and_one_who_splits_too():
    # Kill Pots 7 (wins: kills again, the same amount) and 4 (a holder who splits keeps the leg; the killer must
    # kill again)
    t = table(Game("no-limit", 1, 2, kill="half"), {1: 100, 2: 100, 3: 100}, button=3)
    t.holder, t.due = 2, 2
    posts = t.next_posts()
    assert posts.live[2] == 3
    win(t, posts, winner=2)
    assert t.due == 2 and t.holder == 2
    t.due, t.killer = None, None
    t.hand_played(_split_outcome((1, 2)))
    assert t.holder == 2 and t.due is None     # a split keeps the leg
    t.killer = 2
    t.hand_played(_split_outcome((2, 3)))
    assert t.due == 2
    t.holder, t.killer = 1, None
    t.hand_played(_split_outcome((2, 3)))
    assert t.holder is None                    # Kill Pots 1c: split by two who did not hold it: neutral


def _split_outcome(winners: tuple[int, ...]):
    from tests.faults.referee.hand import Outcome, Pot
    return Outcome([Pot(20, winners, winners, {s: 20 // len(winners) for s in winners})], {}, {}, {}, frozenset())


def test_a_leg_holder_away_keeps_the_leg_unless_another_pot_is_won_meanwhile():
    # Kill Pots 5; 1b: a holder who quits leaves the button neutral
    t = table(Game("no-limit", 1, 2, kill="full"), {1: 100, 2: 100, 3: 100}, button=3)
    t.holder = 2
    t.tap("sit-out", 2)
    t.tap("back-in", 2)
    assert t.holder == 2
    t.tap("leave", 2)
    assert t.holder is None


def test_missed_blinds_are_made_up_live_up_to_the_big_blind_and_the_rest_dead():
    # Blinds 9: a player who missed both blinds posts both; the big blind plays, the small blind is dead, and the
    # player may raise at the first turn
    t = table(Game("no-limit", 1, 2), {1: 100, 2: 100, 3: 100, 4: 100, 5: 100}, button=5)
    t.tap("sit-out", 2)
    t.dealt(t.next_posts(), {})     # button 5: seat 1 small, 3 big: the big blind passes seat 2
    assert t.owes[2] == {"bb"}
    t.move_button()
    t.dealt(t.next_posts(), {})     # button 1: 3 small, 4 big: the small blind passes it too
    assert t.owes[2] == {"sb", "bb"}
    t.tap("back-in", 2)
    t.move_button()                 # not made up on the button (Blinds 7), so the button passes seat 2 (issue 31)
    posts = t.next_posts()          # button 3: 4 small, 5 big, seat 2 comes back out of position
    assert t.button == 3 and posts.order == (4, 5, 1, 2, 3) and posts.live[2] == 2 and posts.dead == {2: 1}
    r = HandReferee(posts.deal(t.game, t.stacks))
    assert r.stacks[2] == 97 and r.current == 2
    for seat in (1,):
        r.act("preflop", seat, "call", 2)
    r.act("preflop", 2, "raise", 6)             # its make-up is its bet: it may raise
    for seat in (3, 4, 5, 1):
        r.act("preflop", seat, "fold", 0)
    out = r.finish({}, ())
    assert out.pots[0].amount == 2 + 1 + 2 + 1 + 2 and out.stacks[2] == 100 + 1 + 2 + 2 + 1 - 1


def test_a_new_player_is_not_dealt_in_between_the_big_blind_and_the_button():
    # Blinds 7: not on the button nor the small blind; Blinds 4b: dealt in elsewhere with a big blind
    t = table(Game("no-limit", 1, 2), {1: 100, 3: 100, 5: 100}, button=1)
    t.tap("sit", 2, 100)
    t.move_button()                 # the new seat may not be dealt in on the button: it goes on to seat 3 (Blinds 1a)
    posts = t.next_posts()          # seat 2 is past it, dealt in with a big blind where it sits
    assert t.button == 3 and posts.order == (5, 1, 2, 3) and posts.live == {5: 1, 1: 2, 2: 2}
    t2 = table(Game("no-limit", 1, 2), {1: 100, 3: 100, 5: 100}, button=1)
    t2.tap("sit", 4, 100)           # next button 3: seat 4 would be the small blind: held
    t2.move_button()
    assert 4 not in t2.next_posts().order


def test_heads_up_the_button_posts_the_small_blind_and_acts_first_before_the_flop():
    # Blinds 3
    t = table(Game("no-limit", 1, 2), {2: 50, 5: 50}, button=5)
    posts = t.next_posts()
    assert posts.live == {5: 1, 2: 2}
    r = HandReferee(posts.deal(t.game, t.stacks))
    assert r.to_act == 5
    r.act("preflop", 5, "call", 2)
    r.act("preflop", 2, "check", 2)
    assert r.to_act == 2 and r.street_name == "flop"


def test_a_short_all_in_does_not_reopen_the_betting_for_who_already_acted():
    # No-Limit 3's example: A bets 100, B raises to 200, C all in for less than 300; A calls; B may not raise
    d = Deal(6, (1, 2, 3, 4), {1: 1000, 2: 1000, 3: 250, 4: 1000}, {}, {}, None, Limits("no-limit", 100, 100))
    r = HandReferee(d)
    r.street = 1
    r._open_round()
    r.act("flop", 1, "bet", 100)
    r.act("flop", 2, "raise", 200)
    r.act("flop", 3, "raise", 250)
    r.act("flop", 4, "fold", 0)
    r.act("flop", 1, "call", 250)
    with pytest.raises(RefereeError, match="not reopened"):
        r.act("flop", 2, "raise", 500)


def test_the_largest_pot_limit_raise_is_the_pot_after_the_call():
    # Pot-Limit 4: pot 100, a bet of 50: call 50 and raise 200, 250 in all
    d = Deal(3, (1, 2, 3), {1: 1000, 2: 1000, 3: 1000}, {}, {3: 100}, None, Limits("pot-limit", 10, 10))
    r = HandReferee(d)
    r.street = 1
    r._open_round()
    r.act("flop", 1, "bet", 50)
    with pytest.raises(RefereeError, match="250 at most"):
        r.act("flop", 2, "raise", 260)
    r.act("flop", 2, "raise", 250)


def test_a_tie_splits_each_pot_on_its_own_the_odd_chip_clockwise_from_the_button():
    # Ties 5a and 5d: seats 3 and 1 tie (a royal on the board); 3 is first clockwise from the button (2)
    d = Deal(2, (3, 1, 2), {1: 100, 2: 100, 3: 100}, {3: 1, 1: 2}, {}, 1, NL)
    r = HandReferee(d)
    r.act("preflop", 2, "fold", 0)
    r.act("preflop", 3, "call", 2)
    r.act("preflop", 1, "check", 2)
    r.deal.dead[3] = 0
    for street in ("flop", "turn", "river"):
        r.act(street, 3, "check", 0)
        r.act(street, 1, "check", 0)
    out = r.finish({1: ("2c", "3d"), 3: ("4h", "5h")}, ("As", "Ks", "Qs", "Js", "Ts"))
    assert out.pots[0].winners == (3, 1) and out.pots[0].shares == {3: 2, 1: 2}
    d = Deal(2, (3, 1, 2), {1: 100, 2: 100, 3: 100}, {3: 1, 1: 2}, {2: 1}, 1, NL)
    r = HandReferee(d)
    r.act("preflop", 2, "fold", 0)
    r.act("preflop", 3, "call", 2)
    r.act("preflop", 1, "check", 2)
    for street in ("flop", "turn", "river"):
        r.act(street, 3, "check", 0)
        r.act(street, 1, "check", 0)
    out = r.finish({1: ("2c", "3d"), 3: ("4h", "5h")}, ("As", "Ks", "Qs", "Js", "Ts"))
    assert out.pots[0].amount == 5 and out.pots[0].shares == {3: 3, 1: 2}


def test_side_pots_layer_by_the_all_in_amounts():
    d = Deal(3, (1, 2, 3), {1: 20, 2: 50, 3: 100}, {1: 1, 2: 2}, {}, 2, NL)
    r = HandReferee(d)
    r.act("preflop", 3, "raise", 100)
    r.act("preflop", 1, "call", 20)
    r.act("preflop", 2, "call", 50)
    out = r.finish({1: ("As", "Ad"), 2: ("Ks", "Kd"), 3: ("2c", "7d")}, ("3h", "9s", "Jd", "4c", "8h"))
    assert [(p.amount, p.eligible, p.winners) for p in out.pots] == [(60, (1, 2, 3), (1,)), (60, (2, 3), (2,))]
    assert out.returned == {3: 50} and out.stacks == {1: 60, 2: 60, 3: 50}


def test_a_bomb_pot_has_no_round_before_the_flop_and_a_short_post_is_all_in():
    # bomb-pot.1: every player posts 10 (seat 1 has 6: all in with it); the flop's round opens left of the button
    d = Deal(3, (1, 2, 3), {1: 6, 2: 100, 3: 100}, {}, {}, None, NL, bomb=10)
    r = HandReferee(d)
    assert r.street_name == "flop" and r.to_act == 2 and r.put_in == {1: 6, 2: 10, 3: 10}
    with pytest.raises(RefereeError):
        r.act("preflop", 2, "check", 0)
    r.act("flop", 2, "bet", 20)
    r.act("flop", 3, "call", 20)
    for street in ("turn", "river"):
        r.act(street, 2, "check", 0)
        r.act(street, 3, "check", 0)
    out = r.finish({1: ("As", "Ad"), 2: ("Ks", "Kd"), 3: ("2c", "7d")}, ("3h", "9s", "Jd", "4c", "8h"))
    # the main pot is the three posts as far as seat 1's 6 reaches; the rest is 2 and 3's
    assert [(p.amount, p.eligible, p.winners) for p in out.pots] == [(18, (1, 2, 3), (1,)), (48, (2, 3), (2,))]
    assert out.stacks == {1: 18, 2: 118, 3: 70}


def test_two_boards_divide_each_pot_equally_the_odd_chip_to_board_1():
    # boards.1: posts of 5 and a bet of 2 called: 19 on two boards is 10 (board 1) and 9 (board 2), each part to
    # its board's best hand
    def bomb() -> HandReferee:
        return HandReferee(Deal(3, (1, 2, 3), {1: 100, 2: 100, 3: 100}, {}, {}, None, NL, bomb=5))

    def check_down(r: HandReferee, seats: tuple[int, ...]) -> None:
        for street in ("turn", "river"):
            for seat in seats:
                r.act(street, seat, "check", 0)

    r = bomb()
    r.act("flop", 1, "bet", 2)
    r.act("flop", 2, "fold", 0)
    r.act("flop", 3, "call", 2)
    check_down(r, (1, 3))
    out = r.finish({1: ("As", "Ad"), 3: ("Kc", "Kd")}, ("Ah", "8c", "5s", "3d", "Jh"),
                   (("Kh", "9c", "4s", "3c", "Qc"),))
    pot = out.pots[0]
    assert pot.amount == 19 and pot.by_board == ((1,), (3,)) and pot.shares == {1: 10, 3: 9}
    # a tie on both boards: 21 is 11 and 10; board 1's odd chip to seat 1, first clockwise from the button (Ties 5a)
    r = bomb()
    r.act("flop", 1, "bet", 2)
    r.act("flop", 2, "call", 2)
    r.act("flop", 3, "call", 2)
    check_down(r, (1, 2, 3))
    out = r.finish({1: ("As", "2d"), 2: ("7c", "2s"), 3: ("Ac", "2h")}, ("Ah", "8c", "5s", "3d", "Jh"),
                   (("Kh", "Kc", "4s", "Ks", "Qc"),))
    assert out.pots[0].amount == 21 and out.pots[0].by_board == ((1, 3), (1, 3))
    assert out.pots[0].shares == {1: 11, 3: 10} and out.stacks == {1: 104, 2: 93, 3: 103}
    # nobody calls the bet: it comes back and the posts go to seat 1, a pot only one hand can win
    r = bomb()
    r.act("flop", 1, "bet", 2)
    r.act("flop", 2, "fold", 0)
    r.act("flop", 3, "fold", 0)
    out = r.finish({}, ())
    assert out.returned == {1: 2} and out.pots[0].shares == {1: 15} and out.stacks[1] == 110


def test_the_referee_imports_nothing_of_dealerbox():
    # kept apart from the engine (issue 31): no shared code, so an engine bug cannot hide in it
    import ast
    from pathlib import Path
    folder = Path(__file__).parent / "referee"
    files = sorted(folder.glob("*.py"))
    assert len(files) >= 4
    for path in files:
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else \
                [node.module or ""] if isinstance(node, ast.ImportFrom) else []
            assert not any(n.split(".")[0] in ("dealerbox", "pokerkit") for n in names), (path.name, names)
            assert not (isinstance(node, ast.ImportFrom) and node.level and node.module != "referee"), path.name
