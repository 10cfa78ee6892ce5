"""A dead-button table (issue 31; Blinds 1b): a fixed-seed slice of the dead-button run (tests/faults/dead_button.py).
Players leave (last hand's big blind, so the next small blind is dead; or its small blind, so the next button stands
before an empty seat) and arrive; every hand is quiet but for the engine's info on where the dead button put the
blinds, ends with pokerkit's stacks, and our own referee, placing the button and blinds from the rule text, agrees on
the button, who is dealt in, the posts, the pots and the stacks. The large run is tools/fault-injection."""

from __future__ import annotations

from collections import Counter

import pytest

from tests.faults.dead_button import INFO_RULED, KINDS, run
from tests.faults.table_run import VARIANTS

SESSIONS = 2


@pytest.mark.parametrize("kind", KINDS)
def test_a_dead_button_table_places_the_button_by_the_rule_and_stays_quiet(kind):
    stats: Counter = Counter()
    run((kind,), SESSIONS, seed=5, stats=stats)
    assert stats["sessions"] == len(VARIANTS) * SESSIONS
    assert stats["refereed hands"] == stats["hands"], stats
    # the class did what it is for, often: players left, and hands were played after it with the dead button
    assert stats[f"left ({kind})"] >= 2 * SESSIONS and stats[f"hands after a leave ({kind})"] >= 8 * SESSIONS, stats
    for rule in INFO_RULED[kind]:
        assert stats[f"info {rule} ({kind})"] >= 2 * SESSIONS, stats
    if kind == "big-blind-leaves":
        assert stats["refereed dead small blinds"] >= 2 * SESSIONS, stats      # no small blind: its seat empty
    else:
        assert stats["refereed buttons before an empty seat"] >= 2 * SESSIONS, stats
