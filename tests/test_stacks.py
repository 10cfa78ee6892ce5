"""A stack read incompletely never rules a short bet: the dealer is asked to confirm the amount, and the
finding says the chip values are advisory. Driven through the real pipeline and engine, with the short call
of Betting 16 (seat 5 calls 1 facing a big blind of 2) as the bet a partial read could fake."""

from __future__ import annotations

from pathlib import Path

from dealerbox.engine import inputs as ev
from dealerbox.pipeline import Pipeline
from dealerbox.record.logformat import Input
from dealerbox.sources.scenario import compile_file, compile_text
from dealerbox.wire import protocol as p
from dealerbox.wire.decoder import FrameDecoder
from tests.scenario_play import THREE_HANDED_DEALT

SHORT_CALL = Path(__file__).resolve().parent / "scenarios" / "chips-betting.16.scn"


def play(read_states: list[tuple[str, str, int]]):
    """The short-call scenario with the given (zone, state, tags) reads applied just before the call."""
    compiled = compile_file(SHORT_CALL)
    pipe = Pipeline.from_header(compiled.header)
    call = next(s for s in compiled.steps if s.text.startswith("chips 1x1 -> bet5"))
    before = compiled.steps[compiled.steps.index(call) - 1].end
    events = []
    for i, record in enumerate(compiled.records):
        if i == before:
            for zone, state, tags in read_states:
                events += pipe.engine.apply(ev.ZoneReadState(record.t, zone, state, tags))
        events += pipe.feed(record)
    return pipe, events


def rules(events) -> list[str]:
    return [e.rule for e in events if e.kind == "FindingRaised"]


def test_a_short_call_read_completely_is_ruled():
    pipe, events = play([("bet5", "complete", 1)])
    assert "betting.16" in rules(events)
    assert pipe.engine.snapshot().question is None


def test_a_short_call_on_an_uncertain_read_is_not_ruled_and_the_dealer_is_asked():
    pipe, events = play([("bet5", "uncertain", 14)])
    advisory = [e for e in events if e.kind == "FindingRaised"]
    assert len(advisory) == 1 and "advisory" in advisory[0].ruling and "at least 14 chips" in advisory[0].ruling
    assert advisory[0].seats == (5,) and advisory[0].outcome == "continues"
    state = pipe.engine.snapshot()
    assert all("advisory" in f.ruling for f in state.findings)   # no short-call ruling on the screen either
    q = state.question
    assert q is not None and q.seat == 5 and [k for k, _ in q.answers] == ["confirm", "recount"]
    assert "bet5" in q.text and "Is the amount" in q.text
    pipe.feed(Input(ev.DealerInput(99.0, "answer", ref=q.id, choice="confirm")))
    assert pipe.engine.snapshot().question is None and not pipe.engine.stacks.uncertain


def test_an_unreadable_bet_zone_asks_too_and_recount_keeps_the_hold():
    pipe, events = play([("bet5", "unreadable", 0)])
    assert rules(events) == ["betting.16"] and "cannot be read" in events[[e.kind for e in events].index(
        "FindingRaised")].ruling
    q = pipe.engine.snapshot().question
    pipe.feed(Input(ev.DealerInput(99.0, "answer", ref=q.id, choice="recount")))
    assert pipe.engine.snapshot().question is None and pipe.engine.stacks.held_seats() == {5}


def test_a_complete_read_after_an_uncertain_one_lets_the_ruling_stand():
    pipe, events = play([("bet5", "uncertain", 14), ("bet5", "complete", 1)])
    assert rules(events) == ["betting.16", "betting.16"]   # the advisory note, then the short-call ruling
    assert any(e.outcome == "wager-corrected" for e in events if e.kind == "FindingRaised")
    assert pipe.engine.snapshot().question is None


def test_an_unreadable_card_zone_is_neither_a_fold_nor_a_question():
    pipe, events = play([("seat3", "unreadable", 0)])
    assert "betting.16" in rules(events) and pipe.engine.snapshot().question is None
    assert not [e for e in events if e.kind == "ActionTaken" and e.action == "fold"]


def test_the_pipeline_turns_a_zone_inventory_frame_into_a_read_state():
    pipe = Pipeline.from_header(compile_file(SHORT_CALL).header)
    frame = FrameDecoder().feed(p.encode_frame(0, p.ZoneInventory(p.zone_id("bet5"), p.ZONE_READ_UNCERTAIN, 14)))[0]
    assert pipe.sensor_events(1.0, frame) == [ev.ZoneReadState(1.0, "bet5", "uncertain", 14)]


def test_a_board_restart_forgets_the_incomplete_reads_it_will_report_again():
    pipe, _ = play([("bet5", "uncertain", 14)])
    assert pipe.engine.snapshot().question is not None
    pipe.engine.apply(ev.BoardHello(120.0, "2.0", "2.0.0", ("shoe", "bet5")))
    assert pipe.engine.snapshot().question is None and not pipe.engine.stacks.held_seats()


def test_after_confirm_the_held_short_call_is_ruled_on_the_confirmed_amount():
    pipe, events = play([("bet5", "uncertain", 14)])
    assert rules(events) == ["betting.16"]   # only the advisory: the short call is held
    q = pipe.engine.snapshot().question
    assert "Is the amount 2?" in q.text   # the seat's wager as the betting holds it (the call made up to 2)
    judged = pipe.feed(Input(ev.DealerInput(99.0, "answer", ref=q.id, choice="confirm")))
    short = [e for e in judged if e.kind == "FindingRaised"]
    assert [e.rule for e in short] == ["betting.16"] and short[0].outcome == "wager-corrected"
    assert short[0].seats == (5,) and "confirmed" in short[0].ruling
    assert short[0].id in [f.id for f in pipe.engine.snapshot().findings]   # on the dealer's screen


def test_a_recount_then_a_complete_read_of_the_same_amount_lets_the_held_ruling_stand():
    pipe, events = play([("bet5", "uncertain", 14)])
    q = pipe.engine.snapshot().question
    pipe.feed(Input(ev.DealerInput(99.0, "answer", ref=q.id, choice="recount")))
    judged = pipe.engine.apply(ev.ZoneReadState(100.0, "bet5", "complete", 1))
    assert [(e.rule, e.outcome) for e in judged if e.kind == "FindingRaised"] == [("betting.16", "wager-corrected")]


def test_a_stale_question_confirms_nothing():
    pipe, events = play([("bet5", "uncertain", 14)])
    q = pipe.engine.snapshot().question
    assert pipe.engine.stacks.answer("q-stack-0", "confirm") is False and pipe.engine.snapshot().question == q


def test_the_simulator_reads_stacks_as_a_pn5180_does():
    """`dealerbox run` with no board: chip zones holding more than the reader's proven count read
    "uncertain", the bytes carry ZONE_INVENTORY, and the engine holds and asks as it does for a real board."""
    from dealerbox.config import Config
    from dealerbox.sources.sim import Simulator
    from dealerbox.tags import demo_registry

    plain = Simulator(Config(), demo_registry(), seed=5)
    sim = Simulator(Config(), demo_registry(), seed=5, stack_limit=6)
    records = list(sim.records(8))
    frames = [f.message for r in records if hasattr(r, "data") for f in FrameDecoder().feed(r.data)]
    reads = [m for m in frames if isinstance(m, p.ZoneInventory)]
    assert any(m.state == p.ZONE_READ_UNCERTAIN and m.tags == 6 for m in reads)
    assert any(m.state == p.ZONE_READ_COMPLETE for m in reads)   # and complete again once the stack is gone
    assert all(p.zone_name(m.zone) == "pot" or p.zone_name(m.zone).startswith("bet") for m in reads)
    pipe = Pipeline.from_header(sim.header())
    questions, events = set(), []
    for r in records:
        events += pipe.feed(r)
        q = pipe.engine.snapshot().question
        if q is not None:
            questions.add(q.text.split(":")[0])
    assert questions and any("advisory" in e.ruling for e in events if e.kind == "FindingRaised")
    # the same seed without the model: the same hands, no read states (the default changes nothing)
    assert not [i for h in plain.play(8) for i in h.inputs if isinstance(i, ev.ZoneReadState)]


def test_the_simulator_makes_a_stack_unreadable_now_and_then():
    from dealerbox.config import Config
    from dealerbox.sources.sim import Simulator
    from dealerbox.tags import demo_registry

    sim = Simulator(Config(), demo_registry(), seed=2, unreadable_stacks=0.2)
    reads = [i for h in sim.play(6) for i in h.inputs if isinstance(i, ev.ZoneReadState)]
    assert any(i.state == "unreadable" and i.tags == 0 for i in reads)
    assert not [i for i in reads if i.state == "uncertain"]   # no limit: every readable stack reads completely


def test_the_simulators_stack_model_is_configured_in_the_toml(tmp_path):
    import pytest

    from dealerbox.config import ConfigError, load
    from dealerbox.sources.sim import Simulator
    from dealerbox.tags import demo_registry

    f = tmp_path / "dealerbox.toml"
    f.write_text("[simulator]\nstack_limit = 14\nunreadable_stacks = 0.01\n")
    sim = Simulator(load(f), demo_registry())
    assert (sim.stack_reads.limit, sim.stack_reads.unreadable) == (14, 0.01)
    f.write_text("[simulator]\nstack_limit = -1\n")
    with pytest.raises(ConfigError, match="stack_limit"):
        load(f)


def test_a_held_ruling_released_by_a_complete_read_says_so():
    pipe, _ = play([("bet5", "uncertain", 14)])
    judged = pipe.engine.apply(ev.ZoneReadState(100.0, "bet5", "complete", 1))
    assert [e.ruling.endswith("Judged on the amount read completely.") for e in judged] == [True]


HAND_ENDED_BY_FOLDS = THREE_HANDED_DEALT + """chips 1x2 -> bet5
wait 1s
fold 1
fold 3
gather
win 5
cleanup
wait 1s
heartbeat
"""


def test_a_partial_bet_zone_read_stays_held_and_followed_once_the_hand_has_ended():
    compiled = compile_text(HAND_ENDED_BY_FOLDS)
    pipe = Pipeline.from_header(compiled.header)
    after_call = next(s for s in compiled.steps if s.text.startswith("chips 1x2 -> bet5")).end
    ended_question = None
    for i, record in enumerate(compiled.records):
        if i == after_call:
            pipe.engine.apply(ev.ZoneReadState(record.t, "bet5", "uncertain", 14))
            assert pipe.engine.snapshot().question.text.endswith("Is the amount 2?")
        kinds = [e.kind for e in pipe.feed(record)]
        if "HandEnded" in kinds:   # the input that ends the hand still moves the question to the emptied zone
            ended_question = pipe.engine.snapshot().question
    assert ended_question is not None and ended_question.text.endswith("Is the amount 0?")
    assert pipe.engine.play.hand.phase == "ended" and pipe.engine.stacks.held_seats() == {5}
    state = pipe.engine.snapshot()
    assert state.question == ended_question   # nothing after the hand asks again
    pipe.feed(Input(ev.DealerInput(99.0, "answer", ref=state.question.id, choice="confirm")))
    assert pipe.engine.snapshot().question is None and not pipe.engine.stacks.uncertain
