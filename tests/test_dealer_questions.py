"""Questions to the dealer (issue 18): where the chips cannot tell what happened, the engine asks one question,
the hand waits for that answer only, the answer is applied and nothing else is raised for the legal play that
follows. Driven through the real decoder from the scenario files, with the answer as a recorded tap."""

from __future__ import annotations

from pathlib import Path

from dealerbox.engine import events as te
from dealerbox.pipeline import Pipeline
from dealerbox.sources.scenario import compile_file, compile_text

SCENARIOS = Path(__file__).resolve().parent / "scenarios"
LOUD = ("dealer", "floor")


def play(text_or_path) -> tuple[Pipeline, list[te.TableEvent], list]:
    compiled = compile_file(text_or_path) if isinstance(text_or_path, Path) else compile_text(text_or_path)
    pipe = Pipeline.from_header(compiled.header)
    events: list[te.TableEvent] = []
    states = []
    for record in compiled.records:
        events += pipe.feed(record)
        states.append(pipe.engine.snapshot())
    return pipe, events, states


def loud_after(events: list[te.TableEvent], kind: type) -> list[te.FindingRaised]:
    start = next(i for i, e in enumerate(events) if isinstance(e, kind))
    return [e for e in events[start:] if isinstance(e, te.FindingRaised) and e.severity in LOUD]


def test_an_out_of_turn_call_that_matches_the_new_call_is_asked_about_and_standing_by_it_is_a_call():
    pipe, events, states = play(SCENARIOS / "chips-betting.10-stands.scn")
    asked = [e for e in events if isinstance(e, te.QuestionAsked)]
    assert [(q.id, q.seat, q.rule, [k for k, _ in q.answers]) for q in asked] == \
        [("q1", 1, "betting.10", ["stands", "takes-back"])]
    answered = [e for e in events if isinstance(e, te.QuestionAnswered)]
    assert [(a.id, a.choice, a.by) for a in answered] == [("q1", "stands", "dealer")]
    # the screen sees the question while it is open, and the seat it is about is the one to act
    open_states = [s for s in states if s.question is not None]
    assert open_states and all(s.question.id == "q1" and s.to_act == 1 for s in open_states)
    assert states[-1].question is None
    calls = [e for e in events if isinstance(e, te.ActionTaken) and e.seat == 1 and e.street == "preflop"]
    assert [(c.action, c.amount, c.total) for c in calls] == [("post", 1, 1), ("call", 1, 2)]
    assert loud_after(events, te.QuestionAsked) == []           # one fault, one ruling: no cascade
    assert any(isinstance(e, te.BettingRoundEnded) and e.pot == 6 for e in events)


def test_taking_the_out_of_turn_chips_back_leaves_the_seat_to_act_afresh():
    text = (SCENARIOS / "chips-betting.10-stands.scn").read_text()
    text = text.replace("tap answer ref q1 choice stands", "tap answer ref q1 choice takes-back\nchips 1 bet1 -> off"
                        "\nwait 1s\nchips 1 -> bet1")
    pipe, events, _ = play(text)
    answered = [(a.choice, a.by) for a in events if isinstance(a, te.QuestionAnswered)]
    assert answered == [("takes-back", "dealer")]
    calls = [e for e in events if isinstance(e, te.ActionTaken) and e.seat == 1 and e.street == "preflop"]
    assert [(c.action, c.total) for c in calls] == [("post", 1), ("call", 2)]
    assert loud_after(events, te.QuestionAsked) == []


def test_an_answer_to_another_question_or_with_an_unknown_key_changes_nothing():
    text = (SCENARIOS / "chips-betting.10-stands.scn").read_text()
    text = text.replace("tap answer ref q1 choice stands",
                        "tap answer ref q9 choice stands\ntap answer ref q1 choice maybe")
    pipe, events, states = play(text)
    assert not [e for e in events if isinstance(e, te.QuestionAnswered) and e.by == "dealer"]
    assert pipe.engine.snapshot().question is not None or any(
        isinstance(e, te.QuestionAnswered) and e.by == "play" for e in events)


def test_a_late_dead_blind_posted_with_a_raise_is_asked_about_and_posting_settles_the_debt():
    pipe, events, _ = play(SCENARIOS / "chips-blinds.9-late.scn")
    asked = [e for e in events if isinstance(e, te.QuestionAsked)]
    assert [(q.seat, q.rule, [k for k, _ in q.answers]) for q in asked] == [(4, "blinds.9", ["posts", "all-wager"])]
    acts = [(e.action, e.amount, e.total) for e in events if isinstance(e, te.ActionTaken) and e.seat == 4
            and e.hand == 4]
    assert acts == [("post", 1, 0), ("raise", 6, 6)]
    assert loud_after(events, te.QuestionAsked) == []
    assert 4 not in pipe.engine.betting.owes                      # posted now: nothing owed next deal
    ended = [e for e in events if isinstance(e, te.HandEnded) and e.hand == 4]
    assert ended and ended[0].outcome == "complete"
    before = next(e for e in events if isinstance(e, te.HandEnded) and e.hand == 3).stacks
    # seat 4 won the blinds (1 + 2) and paid the dead 1, which it also won back: +3 in all
    assert ended[0].stacks[4] == before[4] + 3


def test_playing_all_of_it_keeps_the_blind_owed_for_next_deal():
    text = (SCENARIOS / "chips-blinds.9-late.scn").read_text().replace("choice posts", "choice all-wager")
    pipe, events, _ = play(text)
    acts = [(e.action, e.total) for e in events if isinstance(e, te.ActionTaken) and e.seat == 4 and e.hand == 4]
    assert acts == [("raise", 7)]
    assert pipe.engine.betting.owes.get(4)
    assert loud_after(events, te.QuestionAsked) == []


def test_the_near_misses_ask_nothing():
    for name in ("chips-betting.10-stands-ok.scn", "chips-blinds.9-late-ok.scn"):
        _, events, _ = play(SCENARIOS / name)
        assert not [e for e in events if isinstance(e, te.QuestionAsked | te.QuestionAnswered)], name


def test_a_seat_acting_while_the_dealer_is_asked_is_queued_behind_the_answer_not_ruled():
    # seat 3 (big blind) checks while the question about seat 1 is open: no Betting 10 finding; once the dealer
    # answers, seat 1's call is made and seat 3's check is its action in turn, closing the round
    text = (SCENARIOS / "chips-betting.10-stands.scn").read_text()
    text = text.replace("tap answer ref q1 choice stands\nwait 1s\ntap check seat 3\n",
                        "tap check seat 3\nwait 1s\ntap answer ref q1 choice stands\nwait 1s\n")
    _, events, _ = play(text)
    assert loud_after(events, te.QuestionAsked) == []
    acts = [(e.seat, e.action) for e in events if isinstance(e, te.ActionTaken) and e.street == "preflop"
            and e.action not in ("post",)]
    assert acts == [(5, "call"), (1, "call"), (3, "check")]
    assert any(isinstance(e, te.BettingRoundEnded) and e.pot == 6 for e in events)
