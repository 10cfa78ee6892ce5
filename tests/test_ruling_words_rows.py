"""Issue 31: every catalogue row whose ruling tells the dealer to do something has a words case
(tests/ruling_words/): the row's fault, then the dealer doing literally what the ruling's words say, then the hand
and the next one played to their ends. After the fault nothing more is ruled above ``info`` (or, for a case naming
its row's near miss, exactly the prompts the right play gets too: the race's award after a right redeal), the words
the remedy follows are in the row's ruling, and every hand ends as the ruling says. A row added to the catalogue
without a words case (or a reasoned exemption below) fails ``test_every_row_with_a_remedy_has_a_words_case``."""

from __future__ import annotations

import pytest

from dealerbox.engine import events as te
from dealerbox.engine.catalogue import RULES
from tests.ruling_words import cards, chips, house, kills, showdown, tournament
from tests.ruling_words.common import Case, loud, play

CASES: dict[str, Case] = {**cards.CASES, **chips.CASES, **showdown.CASES, **kills.CASES, **house.CASES,
                         **tournament.CASES}

# rows with no remedy for the dealer to carry out: their rulings are info only (nothing to follow), or the engine
# raises no finding of their own
EXEMPT: dict[str, str] = {
    "betting.4": "info only: heads-up raising past the cap is allowed (a round capped before is ruled betting.3)",
    "blinds.1": "info only: where the dead button and the blinds are placed, from the configuration",
    "irregularity.10": "info only: the deck is short, the hand plays on",
    "irregularity.14": "info only: a dropped card still plays",
    "irregularity.15": "info only: the companion of holdem.3/holdem.4, whose cases follow the remedy",
    "procedures.23": "info only: a stub card read after the hand",
    "showdown.2": "info only: the cards' winners named at every showdown (every case's showdown follows them)",
    "showdown.7": "info only: the order of showing",
    "ties.5a": "info only: the odd chip's seat, followed by the split-pot cases' pushes",
    "ties.5c": "info only: the high/low odd chip, followed by the high-low split cases' pushes",
    "highlow.1": "info only: the high and low halves named at a split game's showdown",
    "highlow.2": "info only: no qualifying low, the high scoops",
    "kill.2": "no finding of its own: a killed pot's play (tests/faults kill sessions play it)",
    "kill.5": "no finding of its own: a leg kept by a player back from a break",
    "kill.8": "split-pot kill games are not played here: never raised",
    "tournament.19": "info only: a short blind or ante is all-in, no make-up owed",
    "tournament.34": "info only: all hands face up once a player is all-in",
    "tournament.15": "info only: a player the floor moved in is dealt in at once, taking over the seat's blind",
    "tournament.35": "info only: the finishing places of players out in the same hand",
}


# rows with a remedy whose words case is still to be written: a to-do list that may only shrink (now empty); a
# new row may not join it
PENDING: frozenset[str] = frozenset()


def test_every_row_with_a_remedy_has_a_words_case():
    covered = {c.rule for c in CASES.values()}
    missing = sorted(set(RULES) - covered - set(EXEMPT))
    assert missing == sorted(PENDING), (
        f"rows with a remedy but no words case in tests/ruling_words/: {sorted(set(missing) - PENDING)}; "
        f"rows now covered, to take off PENDING: {sorted(PENDING - set(missing))}")
    assert not covered & set(EXEMPT), sorted(covered & set(EXEMPT))
    assert set(EXEMPT) <= set(RULES)


@pytest.mark.parametrize("name", sorted(CASES))
def test_following_the_words_ends_the_hand_and_the_next_with_nothing_more_to_rule(name):
    case = CASES[name]
    # the board's heartbeat after the fault: a wager is ruled once its chips settle, which a later frame shows
    faulted = play(case.fault_text() + "wait 1s\nheartbeat\n", case.named(f"{name}-fault"))
    fault = loud(faulted)
    ruled = {case.rule, *case.also} - ({case.rule} if case.info else set())
    assert {f.rule for f in fault} == ruled, [(f.rule, f.ruling) for f in fault]
    words = [f.ruling for f in faulted if isinstance(f, te.FindingRaised) and f.rule == case.rule]
    assert any(case.follows in w for w in words), words
    events = play(case.text(), case.named(name))
    after = [(f.rule, f.ruling) for f in loud(events)][len(fault):]
    assert [(f.rule, f.ruling) for f in loud(events)][:len(fault)] == [(f.rule, f.ruling) for f in fault]
    # nothing more, or (a near miss named) exactly what the right play is prompted beyond what the fault was
    ruled_fault = {(f.rule, f.ruling) for f in fault}
    right = [(f.rule, f.ruling) for f in loud(play(case.near_text(), case.named(f"{name}-near")))
             if (f.rule, f.ruling) not in ruled_fault] if case.near else []
    assert after == right, after
    assert tuple(e.outcome for e in events if isinstance(e, te.HandEnded)) == case.outcomes
