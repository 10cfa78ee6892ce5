"""One fault, one ruling, across hands (issue 18): a fixed-seed slice of the session run
(tests/faults/sessions.py). Sessions of clean simulated hands through the real Pipeline, one fault that spans
hands injected: a required kill not posted (full and half kills), the kill put in by another seat, a deck changed before it has played a full
round, and the near miss of a deck changed after one. The expected rule at the fault, nothing above ``info``
for the rest of that hand and every following hand of the session, pokerkit's stacks hand after hand. The large
run is tools/fault-injection; its figures are in docs/engine.md."""

from __future__ import annotations

from collections import Counter

import pytest

from tests.faults.sessions import CLASSES, EXPECTED, run

SESSIONS = 4


@pytest.mark.parametrize("kind", tuple(CLASSES))
def test_a_fault_across_hands_gives_one_ruling_and_the_session_plays_on(kind):
    stats: Counter = Counter()
    run((kind,), SESSIONS, seed=5, stats=stats)
    assert stats["sessions"] == 4 * SESSIONS
    # the fault really happened, and hands were played after it: a class that never fires would prove nothing
    assert stats[f"injected {kind}"] >= SESSIONS, stats
    assert stats[f"hands after a fault {kind}"] >= SESSIONS, stats


def test_every_session_class_names_its_rulings():
    assert set(EXPECTED) == set(CLASSES)
    assert {rule for rules in EXPECTED.values() for rule in rules} == {"procedures.21", "kill.6", "kill.11"}
    assert [k for k, rules in EXPECTED.items() if not rules] == ["deck-changed-after-a-round"]   # the near miss
