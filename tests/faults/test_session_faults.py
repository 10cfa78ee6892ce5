"""One fault, one ruling, across hands (issue 18): a fixed-seed slice of the session run
(tests/faults/sessions.py). Sessions of clean simulated hands through the real Pipeline with one fault that spans
hands: a required kill not posted (full and half kills), the kill put in by a seat that does not owe it, a short
call in a killed pot, the kill button in front of the wrong seat, a player back from sitting out dealt in without
posting what they owe or making up only the live big blind, a joker kept and acted on (the hand dead), a deck
changed before it has played a full round, a kill forced by a scoop at limit Omaha high-low not posted (Kill Pots
8, 6), lowball's optional kill put in after a third card or from a stack under four kills at deuce-to-seven triple
draw (Kill Pots 10, taken back); and their near misses (killed pots played with the kill posted, full
and half, the killer winning or splitting and killing again, the scoop's kill posted and played at limit Omaha
high-low, lowball's kill posted after two cards and played; a leg holder stepping away and back; a player who
sits out and waits for the big blind, or makes the blinds up; a deck changed after a round, a pot-limit table
playing Pot-Limit 6's option).
The expected rule at the fault, nothing above ``info`` for the rest of that hand and every following hand of the
session, pokerkit's stacks hand after hand. The large run is tools/fault-injection; its figures are in
docs/engine.md."""

from __future__ import annotations

from collections import Counter

import pytest

from tests.faults.sessions import (CLASSES, EXPECTED, GAME, INFO_RULED, LATER_IN_THE_HAND, MUST_FOLLOW, STANDING,
                                   VARIANTS_OF, run, sits_out)
from tests.faults.refereed import STRUCTURE as REFEREED
from tests.faults.table_run import VARIANTS

SESSIONS = 4


@pytest.mark.parametrize("kind", tuple(CLASSES))
def test_a_fault_across_hands_gives_one_ruling_and_the_session_plays_on(kind):
    stats: Counter = Counter()
    run((kind,), SESSIONS, seed=5, stats=stats)
    assert stats["sessions"] == len(VARIANTS_OF.get(kind, VARIANTS)) * SESSIONS
    # the fault really happened and was ruled, and hands were played after it: a class that never fires would
    # prove nothing
    for rule in EXPECTED[kind] | STANDING.get(kind, frozenset()) | (LATER_IN_THE_HAND[kind] if kind in MUST_FOLLOW
                                                                     else frozenset()):
        assert stats[f"ruled {rule} ({kind})"] >= 3, stats
    assert stats[f"injected {kind}"] >= SESSIONS, stats
    assert stats[f"hands after a fault {kind}"] >= SESSIONS, stats
    # our own referee (tests/faults/refereed.py) agreed on every hand of the games it knows: who is dealt in, the
    # posts, pots and stacks (a draw game's sessions are pokerkit's alone)
    refereed = set(VARIANTS_OF.get(kind, VARIANTS)) <= set(REFEREED)
    assert stats["refereed hands"] + stats["refereed misdeals and voids"] == (stats["hands"] if refereed else 0), stats
    if GAME.get(kind, {}).get("kill") and kind in INFO_RULED and kind not in STANDING and refereed:     # posted
        assert stats["refereed killed hands"] >= SESSIONS, stats       # killed pots, refereed by the rules
    if kind in ("sit-out-and-make-up", "make-up-short"):
        assert stats["refereed make-ups"] >= 2, stats
    for rule in STANDING.get(kind, ()):
        if rule in ("kill.6", "blinds.10"):     # the referee knew the post was owed, and the engine ruled it
            assert stats[f"refereed {rule}: the post missing, ruled"] >= 3, stats
    if kind == "kill-not-posted":
        # the killer in a blind seat posts that blind alone: a kill posted short, ruled the same way
        assert stats[f"kill posted short: only the blind ({kind})"] >= 1, stats
    if CLASSES[kind] is sits_out:
        assert stats[f"back in play ({kind})"] >= 3, stats     # the player did come back
    for rule in INFO_RULED.get(kind, ()):
        assert stats[f"info {rule} ({kind})"] >= 1, stats      # the kill was posted and played, the blinds made up
    if kind == "new-player-in-a-killed-pot":
        # Kill Pots 12 carried out: the new player who played the killed pot kills the next one, and the referee
        # (who follows the agreement from the rule) asked for that same kill
        assert stats[f"info kill.12 ({kind})"] >= 3, stats
    if kind in ("killed-hands", "half-killed-hands"):
        assert stats[f"info kill.3 ({kind})"] >= 3 * SESSIONS, stats     # killed hands played: many of them
    if kind == "lowball-killed-hands":
        # Kill Pots 10 played: lowball kills posted after two cards each, the killers last on the first round
        assert stats[f"info kill.10 ({kind})"] >= SESSIONS, stats
    if VARIANTS_OF.get(kind) == ("o8",):
        # Kill Pots 8 at limit Omaha high-low: contested pots scooped, and the kills they force are the referee's
        # own (it follows scoops from the rule text) as well as the engine's; split pots force none
        assert stats["refereed scoops"] >= SESSIONS and stats["refereed splits"] >= 2, stats
        assert stats["refereed scoop kills due"] >= 3 * SESSIONS, stats


def test_every_session_class_names_its_rulings():
    assert set(EXPECTED) == set(CLASSES)
    ruled = {rule for rules in (*EXPECTED.values(), *STANDING.values(), *LATER_IN_THE_HAND.values())
             for rule in rules}
    assert ruled == {"procedures.21", "kill.6", "kill.11", "blinds.10", "irregularity.8", "dead-hand.1e", "kill.9",
                     "kill.1", "kill.3", "blinds.9", "kill.12", "kill.10"}, ruled
    # the near misses: quiet from start to end (but for the info rulings of a kill or a make-up)
    assert sorted(k for k in CLASSES if not EXPECTED[k] and k not in STANDING) == \
        ["deck-changed-after-a-round", "half-killed-hands", "killed-hands", "killer-splits", "leg-holder-steps-away",
         "lowball-killed-hands", "pot-limit-6-option", "scooped-hands", "sit-out-and-make-up",
         "sit-out-and-wait-for-the-big-blind"]
