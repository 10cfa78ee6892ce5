"""Colour-up and the chip race (Tournaments 8a-8d), each with a near miss that must stay quiet."""

from pathlib import Path

from dealerbox.tournament import config as tc
from dealerbox.tournament.chips import ChipRace, award, chip_does_not_play, colour_up, colour_up_prompt, deal_errors

T = tc.load(Path(__file__).parents[2] / "docs" / "tournament.example.toml")


def test_colour_up_prompts_when_the_schedule_stops_using_the_smallest_chip():
    assert [(c.value, new) for c, new in colour_up(T, 1)] == [(25, 50)]
    prompt = colour_up_prompt(T, 1)
    assert prompt.rule == "tournament.8a" and "green 25s" in prompt.ruling and "full sets of 2" in prompt.ruling
    assert colour_up_prompt(T, 2) is None          # near miss: nothing leaves after level 2


def test_a_coloured_up_chip_bet_later_does_not_play():
    r = chip_does_not_play(T, level=2, value=25, seat=4)
    assert (r.rule, r.outcome, r.seats) == ("tournament.8a", "wager-corrected", (4,))
    assert chip_does_not_play(T, level=1, value=25, seat=4) is None     # still in play at level 1
    assert chip_does_not_play(T, level=2, value=50, seat=4) is None


RACE = ChipRace(old_value=25, new_value=100, odd={2: 3, 5: 1, 7: 3}, left_without_chips=frozenset())


def test_the_race_deal_is_one_card_per_odd_chip_clockwise_from_seat_one():
    right = [(2, "4c"), (2, "9d"), (2, "Jh"), (5, "As"), (7, "2d"), (7, "Ks"), (7, "3h")]
    assert deal_errors(RACE, right) == ()
    short = deal_errors(RACE, right[:-1])
    assert short[0].rule == "tournament.8b" and short[0].seats == (7,) and "wrong number" in short[0].ruling
    interleaved = [right[0], right[3], right[1], right[2], *right[4:]]
    wrong = deal_errors(RACE, interleaved)
    assert "out of order at card 2" in wrong[0].ruling and wrong[0].seats == (5,)


def test_awards_go_by_highest_card_then_suit_one_chip_each():
    # 7 odd chips of 25 = 175: one 100 in full, 75 left over
    cards = {2: ("4c", "9d", "Jh"), 5: ("Ah",), 7: ("2d", "As", "3h")}
    result = award(RACE, cards)
    assert result.order[0] == 7 and result.chips[7] == 1            # As beats Ah on suit
    assert result.rulings[0].rule == "tournament.8c"
    # leftover 75: seat 5 (Ah) is the highest card not yet served, but held only 25 (< half of 100): nobody
    assert 5 not in result.chips
    assert any(r.rule == "tournament.8d" and "no chip" in r.ruling for r in result.rulings)


def test_a_leftover_goes_to_the_next_card_whose_player_held_half_a_chip():
    race = ChipRace(25, 100, {2: 3, 5: 2, 7: 2}, frozenset())       # 175: one in full, 75 over
    result = award(race, {2: ("4c", "9d", "Jh"), 5: ("Ah", "2c"), 7: ("2d", "As")})
    assert result.order == (7, 5) and result.chips == {7: 1, 5: 1}
    assert any(r.rule == "tournament.8d" and "gets one" in r.ruling for r in result.rulings)


def test_a_player_left_without_chips_gets_one_first():
    race = ChipRace(25, 100, {2: 3, 5: 1, 7: 3}, frozenset({5}))
    result = award(race, {2: ("4c", "9d", "Jh"), 5: ("2c",), 7: ("2d", "As", "3h")})
    # 175 is one full chip: it goes to chipless seat 5 before the As; seat 7 (75 held) takes the leftover
    assert result.order == (5, 7) and result.chips == {5: 1, 7: 1}
    assert [r.rule for r in result.rulings] == ["tournament.8c", "tournament.8c", "tournament.8d"]
    assert any("raced out" in r.ruling for r in result.rulings)
