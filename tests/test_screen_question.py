"""The dealer's question (issue 18): when the engine cannot tell from the chips, the screen shows its
question as a bar above the table with one key per answer, the likely one first and highlighted; a tap
sends DealerInput(action="answer", ref=question id, choice=answer key). TableState is built by hand."""

import dataclasses

import pytest

from dealerbox.config import Config
from dealerbox.engine.state import QuestionView
from dealerbox.sinks.screen import Screen, theme
from tests.test_screen import OK_HEALTH, SIZES, Clock, assert_fits, colour_at, press, run_and_tap
from tests.test_screen_moments import clean_hand, misdeal

QUESTION = QuestionView("q1", "Seat 2 stands by the call?",
                        (("stands", "Yes, stands"), ("takes-back", "Takes it back")),
                        seat=2, rule="Betting 10")


def asked(state=None, question=QUESTION):
    return dataclasses.replace(state or clean_hand(), question=question)


@pytest.fixture(params=SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def screen(request):
    return Screen(Config(), request.param, clock=Clock())


def test_the_question_shows_with_one_key_per_answer_the_likely_one_first_and_green(screen):
    surface = screen.render(asked(), OK_HEALTH, [])
    f = screen.frame
    assert f.texts("question-text") == ["Seat 2 stands by the call?"]
    assert f.texts("question-rule") == ["Betting 10"]
    bar = f.find("question")[0].rect
    stands, back = f.target("answer:q1:stands"), f.target("answer:q1:takes-back")
    assert stands.label == "Yes, stands" and back.label == "Takes it back"
    assert bar.contains(stands.rect) and bar.contains(back.rect)
    assert stands.rect.left < back.rect.left  # in the engine's order: the likely one where the eye lands first
    assert colour_at(surface, (stands.rect.centerx, stands.rect.top + 2)) == theme.KEY_CONFIRM
    assert colour_at(surface, (back.rect.centerx, back.rect.top + 2)) == theme.KEY
    assert colour_at(surface, (bar.left + 2, bar.bottom - 2)) == theme.QUESTION
    # The seat the question is about is ringed in the bar's colour, so the dealer knows whom to ask.
    box = f.find("seat", 2)[0].rect
    assert colour_at(surface, (box.centerx, box.top - 2)) == theme.QUESTION
    other = f.find("seat", 4)[0].rect
    assert colour_at(surface, (other.centerx, other.top - 2)) != theme.QUESTION


def test_a_tap_on_an_answer_sends_the_answer_with_the_question_id(screen):
    screen.render(asked(), OK_HEALTH, [])
    answer = press(screen, "answer:q1:takes-back")
    assert (answer.action, answer.ref, answer.choice, answer.t) == ("answer", "q1", "takes-back", 100.0)
    screen.render(asked(), OK_HEALTH, [])
    answer = press(screen, "answer:q1:stands")
    assert (answer.action, answer.ref, answer.choice) == ("answer", "q1", "stands")


def test_the_question_blocks_nothing_the_dealer_needs(screen):
    """The table's keys, every seat and the findings banner stay there, and no two targets overlap."""
    screen.render(asked(misdeal()), {"reader": {"connected": False}}, [])
    f = screen.frame
    keys = {t.key for t in f.targets}
    assert {"answer:q1:stands", "answer:q1:takes-back", "call-floor", "new-hand", "history", "misdeal",
            "ack:h8-1"} <= keys
    assert {d.ref for d in f.find("seat")} == set(range(1, 10))
    assert_fits(screen)
    question, banner = f.find("question")[0].rect, f.find("banner")[0].rect
    assert not question.colliderect(banner)


def test_three_answers_and_no_rule_still_fit():
    screen = Screen(Config(), (800, 480), clock=Clock())
    q = QuestionView("q7", "Seat 5 posted the late big blind with a raise: what did they mean?",
                     (("raise", "Raise"), ("blind", "Blind only"), ("call", "Call")), seat=5)
    screen.render(asked(question=q), OK_HEALTH, [])
    f = screen.frame
    assert [t.label for t in f.targets if t.action == "answer"] == ["Raise", "Blind only", "Call"]
    assert not f.texts("question-rule")
    text = f.find("question-text")[0]
    assert text.rect.right <= f.find("question")[0].rect.right


def test_no_question_no_bar_and_the_table_gets_its_room_back():
    screen = Screen(Config(), (800, 480), clock=Clock())
    screen.render(asked(), OK_HEALTH, [])
    with_q = {d.ref: d.rect for d in screen.frame.find("seat")}
    screen.render(clean_hand(), OK_HEALTH, [])
    assert not screen.frame.find("question") and not [t for t in screen.frame.targets if t.action == "answer"]
    without = {d.ref: d.rect for d in screen.frame.find("seat")}
    assert with_q[5].top > without[5].top  # the top row of seats moved down under the bar


def test_the_run_loop_submits_the_answer_tapped():
    """The real main loop on the dummy driver, the tap posted as SDL mouse events."""
    got = run_and_tap(Screen(Config(), (1024, 600)), asked(), "answer:q1:stands")
    assert [(i.action, i.ref, i.choice) for i in got] == [("answer", "q1", "stands")]


def test_the_question_colour_is_legible_and_no_severitys():
    assert theme.contrast_ratio(theme.QUESTION, theme.QUESTION_TEXT) >= 4.5
    assert theme.QUESTION not in theme.SEVERITY_COLOURS.values()  # a question is not a finding
