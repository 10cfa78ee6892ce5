"""What stays in front of the dealer: this hand's findings and unacknowledged floor calls, nothing older.

A long session must neither grow the snapshot (memory, the floor's state payload) nor carry last hand's
info notes into the next hand's banner.
"""

from pathlib import Path

from dealerbox.engine.inputs import DealerInput
from dealerbox.pipeline import Pipeline
from dealerbox.sources.scenario import compile_file

SCENARIOS = Path(__file__).resolve().parent / "scenarios"


def _played(name: str) -> tuple[Pipeline, float]:
    scn = compile_file(SCENARIOS / name)
    pipe = Pipeline.from_header(scn.header)
    for record in scn.records:
        pipe.feed(record)
    return pipe, scn.records[-1].t


def test_floor_calls_stay_until_acknowledged_and_info_notes_leave_with_their_hand():
    pipe, t = _played("void-duplicate-card.scn")
    before = {f.rule: f for f in pipe.engine.snapshot().findings}
    assert {"irregularity.3", "irregularity.4", "procedures.23"} <= set(before)

    pipe.feed_input(DealerInput(t + 5, "new-hand"))
    after = pipe.engine.snapshot()
    assert after.hand == 2
    # The void hand's floor calls are still open; its info note is gone. (The blue card went back into
    # the shoe with the cleanup, so the new hand has a finding of its own about it.)
    old = [f for f in after.findings if f.id.startswith("h1-")]
    assert {f.rule for f in old} == {"irregularity.3", "irregularity.4"}
    assert all(f.severity == "floor" and not f.acknowledged for f in old)

    for f in old:
        pipe.feed_input(DealerInput(t + 6, "ack", ref=f.id))
    assert not [f for f in pipe.engine.snapshot().findings if f.id.startswith("h1-")]


def test_a_clean_hand_leaves_nothing_open_once_the_next_hand_starts():
    pipe, t = _played("clean-hand.scn")
    assert any(f.rule == "showdown.2" for f in pipe.engine.snapshot().findings)
    pipe.feed_input(DealerInput(t + 5, "new-hand"))
    assert pipe.engine.snapshot().findings == ()


def test_acknowledgements_are_kept_only_while_their_findings_are_listed():
    # Each ack used to be kept for ever: a month of them, or a floor tool naming ids that never existed, grew the
    # terminal's memory without bound.
    pipe, t = _played("void-duplicate-card.scn")
    calls = [f.id for f in pipe.engine.snapshot().findings if f.severity == "floor"]
    pipe.feed_input(DealerInput(t + 1, "ack", ref=calls[0]))
    for n in range(500):
        pipe.feed_input(DealerInput(t + 2, "ack", ref=f"h9{n}-1"))
    shown = {f.id: f.acknowledged for f in pipe.engine.snapshot().findings}
    assert len(pipe.engine.taps.acked) <= 64 + 1
    assert shown[calls[0]] is True and not all(shown[c] for c in calls[1:])
