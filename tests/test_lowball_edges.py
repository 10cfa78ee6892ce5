"""Edges of deuce-to-seven triple draw (docs/draw.md): a discard that lands on another seat's antenna, whether a
blind makes lowball's kill, the stub running short, a hand ended by folds in the first draw, and what never leaves
the table (no discard and no hole card on the floor topic, in the audit or in the PHH export)."""

from __future__ import annotations

from dealerbox.engine import events as te
from tests.scenario_play import loud, play_text
from tests.test_lowball import KILL_TABLE as LOWBALL_KILL_TABLE
from tests.test_scenario import SCENARIOS

HAND = (SCENARIOS / "lowball-triple-draw-ok.scn").read_text()
ASTRAY = (SCENARIOS / "faults-discard-on-another-seat.scn").read_text()


def _end(events: list[te.TableEvent]) -> te.HandEnded:
    (end,) = [e for e in events if isinstance(e, te.HandEnded)]
    return end


# --- a discard on another seat's antenna -------------------------------------------------------------------------

def test_a_discard_landing_in_another_hand_during_a_draw_is_dead_alone_and_the_hand_plays_to_the_showdown():
    events = play_text(ASTRAY)
    right = play_text((SCENARIOS / "faults-discard-on-another-seat-ok.scn").read_text())
    assert loud(events) == []
    (f,) = [e for e in events if isinstance(e, te.FindingRaised) and e.rule == "dead-hand.3"]
    assert (f.severity, f.outcome, f.seats) == ("info", "continues", (2, 3))
    assert "Seat 2 keeps the rest of its hand" in f.ruling and "seat 3 keeps its own" in f.ruling
    # seat 2 drew its two cards as usual; nobody's hand was killed; the showdown is the clean hand's
    drawn = [(e.seat, e.draw, e.count) for e in events if isinstance(e, te.CardsDrawn)]
    assert drawn == [(e.seat, e.draw, e.count) for e in right if isinstance(e, te.CardsDrawn)]
    shown = {e.seat: (e.cards, e.rank) for e in events if isinstance(e, te.HandShown)}
    assert shown == {e.seat: (e.cards, e.rank) for e in right if isinstance(e, te.HandShown)}
    assert shown[2] == (("7c", "5d", "4h", "3d", "2d"), "7-5-4-3-2") and "Kc" not in shown[3][0]
    assert _end(events).stacks == _end(right).stacks == {1: 200, 2: 212, 3: 194, 4: 194}


def test_outside_a_draw_hole_cards_thrown_into_another_hand_are_still_a_dead_hand():
    # before the first draw (the preflop betting under way) seat 1 throws a card into seat 2's hand: Dead Hands 3
    text = HAND.replace("fold 1\n", "card Ah seat1 -> seat2\nwait 1s\n")
    f = [e for e in play_text(text) if isinstance(e, te.FindingRaised) and e.rule == "dead-hand.3"]
    assert [(x.severity, x.outcome, x.seats) for x in f] == [("dealer", "dead-hand", (1,))]


# --- may a blind make lowball's kill? ----------------------------------------------------------------------------

KILL_TABLE = LOWBALL_KILL_TABLE.replace("STACK", "200")   # every seat 200 behind: each may kill
# seat 2 posts the small blind, seat 3 the big; seat 4 is first to act; dealt 2, 3, 4, 1 one card at a time
CARDS = {2: "7c 5d 4h Kc Kd", 3: "8s 6s 4s 3s Qh", 4: "2c 3c 4c 5c 9d", 1: "Ah Ad Jc Td 9s"}


def _rounds(first: int, last: int) -> str:
    return "".join(f"card {CARDS[s].split()[r]} shoe -> seat{s}\n" for r in range(first, last) for s in (2, 3, 4, 1))


def _blind_kills(chips: str, after_cards: int = 2, first: str = "") -> list[te.TableEvent]:
    """Two cards each (or ``after_cards`` rounds), then ``chips`` (a blind adding to its blind), the rest of the
    deal, and the first round played with the killer last: (``first``,) seat 4 calls the kill, seat 1 folds."""
    return play_text(KILL_TABLE + _rounds(0, after_cards) + f"wait 1s\n{chips}\nwait 1s\n" + _rounds(after_cards, 5)
                     + f"wait 2s\n{first}call 4 4\nwait 1s\nfold 1\nwait 1s\nheartbeat\n")


def test_the_big_blind_may_kill_by_bringing_its_blind_up_to_the_kill_and_then_acts_last():
    # Kill Pots 10 lets "players" kill after two cards, and names no exception: the big blind puts 2 more beside
    # its 2 (the kill, 4, replaces its blind as a required kill in a blind's seat does), the limits double
    events = _blind_kills("chips 2 -> bet3")
    assert loud(events) == []
    (f,) = [e for e in events if isinstance(e, te.FindingRaised) and e.rule == "kill.10"]
    assert (f.severity, f.seats) == ("info", (3,)) and "its blind of 2 is part of it" in f.ruling
    post = [(e.seat, e.action, e.amount, e.total) for e in events if isinstance(e, te.ActionTaken) and e.seat == 3]
    assert post == [(3, "post", 2, 2), (3, "post", 2, 4)]
    # seat 4 calls the kill (4), seat 1 folds: the turn is seat 2's (the small blind), then seat 3's, last
    acts = [(e.seat, e.action, e.total) for e in events if isinstance(e, te.ActionTaken) and e.action != "post"]
    assert acts == [(4, "call", 4), (1, "fold", 0)]


def test_the_small_blind_may_kill_too_and_a_blind_is_refused_after_a_third_card_like_any_player():
    # the small blind kills for 4 with its 1 in: it acts last, so the big blind (left of it) acts first
    events = _blind_kills("chips 3 -> bet2", first="call 3 2\nwait 1s\n")
    assert loud(events) == [] and [e.seats for e in events if isinstance(e, te.FindingRaised)
                                   and e.rule == "kill.10"] == [(2,)]
    acts = [(e.seat, e.action, e.total) for e in events if isinstance(e, te.ActionTaken) and e.action != "post"]
    assert acts == [(3, "call", 4), (4, "call", 4), (1, "fold", 0)]
    late = _blind_kills("chips 2 -> bet3", after_cards=3)
    f = [e for e in late if isinstance(e, te.FindingRaised) and e.rule == "kill.10"]
    assert [(x.severity, x.outcome, x.seats) for x in f] == [("dealer", "wager-corrected", (3,))]
    assert "takes the 2 back" in f[0].ruling


# --- the stub runs short in a draw ------------------------------------------------------------------------------

DECK = [r + s for s in "cdhs" for r in "23456789TJQKA"]


def _six_draw_five() -> tuple[str, dict[int, list[str]]]:
    """Six players, each dealt five and each throwing five in the first draw: after four of them the stub holds one
    card, so the dealer shuffles the discards of seats 1-4 (not those of seat 5, now drawing) into it and deals on
    (docs/draw.md). Returns the text up to the draw's end, and each seat's hand after the draw."""
    cards = iter(DECK)
    hands = {s: [next(cards) for _ in range(5)] for s in range(1, 7)}
    burn = next(cards)
    stub = list(cards)                                     # 52 - 30 - 1 = 21 cards
    text = ("table seats 6\ngame 27td blinds 1/2 bets 2/4\nhello\nshoe loaded\n"
            + "".join(f"sit {s} 200\n" for s in range(1, 7)) + "button 6\nblinds\nwait 1s\n"
            + "".join(f"card {hands[s][r]} shoe -> seat{s}\n" for r in range(5) for s in range(1, 7))
            + "wait 2s\n" + "".join(f"call {s} 2\nwait 1s\n" for s in (3, 4, 5, 6))
            + f"call 1 1\nwait 1s\ntap check seat 2\ngather\nburn {burn}\n")
    after: dict[int, list[str]] = {6: hands[6]}
    for s in (1, 2, 3, 4):
        after[s] = stub[5 * (s - 1):5 * s]
        text += f"draw {s} {','.join(hands[s])} -> {','.join(after[s])}\n"
    text += "".join(f"card {c} seat5 -> muck\n" for c in hands[5])
    again = [c for s in (1, 2, 3, 4) for c in hands[s]]
    text += "".join(f"card {c} muck -> shoe\n" for c in again)   # the discards shuffled into the last stub card
    after[5] = [stub[20]] + again[:4]
    text += "".join(f"card {c} shoe -> seat5\n" for c in after[5]) + "stand-pat 6\n"
    return text, after


def test_a_stub_run_short_is_made_up_from_the_discards_and_the_cards_dealt_again_play():
    text, after = _six_draw_five()
    # seat 5 bets after the draw and everyone folds to it: its hand holds two cards dealt a second time
    text += "bet 1 2\nwait 1s\n" + "".join(f"fold {s}\nwait 1s\n" for s in (2, 3, 4)) + "raise 5 4\nwait 1s\n"
    text += "fold 6\nwait 1s\nfold 1\nwait 1s\ngather\nwait 1s\nwin 5\ncleanup\n"
    events = play_text(text)
    assert [e for e in events if isinstance(e, te.FindingRaised)] == []   # no procedures.22, no irregularity.4
    drawn = [(e.seat, e.draw, e.count) for e in events if isinstance(e, te.CardsDrawn)]
    assert drawn == [(1, 1, 5), (2, 1, 5), (3, 1, 5), (4, 1, 5), (5, 1, 5), (6, 1, 0)]
    assert _end(events).outcome == "complete" and _end(events).stacks[5] == 200 + 5 * 2 + 2
    assert len(set(after[5])) == 5 and set(after[5]) & {c for s in (1, 2, 3, 4) for c in DECK[5 * s - 5:5 * s]}


def test_discards_held_off_the_table_while_shuffled_into_a_short_stub_are_no_look_through_the_muck():
    # the same reshuffle, the discards off every antenna for three seconds (the dealer shuffling them) before they
    # reach the shoe: a card of the muck that fell is judged where it lands, and the shoe is where a short stub's
    # discards go (the near miss of faults-draw-discard-lifted-off-the-muck.scn's ruling)
    text, _ = _six_draw_five()
    again = [c for c in DECK[:20]]
    slow = "".join(f"card {c} muck -> off\n" for c in again) + "wait 3s\n" + "".join(f"card {c} -> shoe\n"
                                                                                     for c in again)
    fast = "".join(f"card {c} muck -> shoe\n" for c in again)
    assert fast in text
    text = text.replace(fast, slow) + "bet 1 2\nwait 1s\n"
    events = play_text(text)
    assert [e for e in events if isinstance(e, te.FindingRaised)] == []
    assert [(e.seat, e.count) for e in events if isinstance(e, te.CardsDrawn)][4:] == [(5, 5), (6, 0)]


LIFTED = (SCENARIOS / "faults-draw-discard-lifted-off-the-muck.scn").read_text()


def test_a_discard_lifted_off_every_antenna_is_ruled_once_where_it_lands_and_the_hand_plays_on():
    events = play_text(LIFTED)
    (f,) = loud(events)
    assert (f.rule, f.severity, f.outcome) == ("procedures.22", "floor", "continues")
    assert "nobody may look through the discards" in f.ruling
    # ruled as the Kc lands back in the muck, not as it left (it might have been on its way to the shoe)
    mucked = [e for e in events if isinstance(e, te.CardDealt) and e.seat == 4 and e.card == "9c"]
    assert events.index(f) < events.index(mucked[0])
    assert f.t - [e.t for e in events if isinstance(e, te.CardsDrawn) and e.seat == 3][0] > 3
    assert _end(events).outcome == "complete" and _end(events).stacks == {1: 200, 2: 212, 3: 194, 4: 194}


def test_a_discard_lifted_off_every_antenna_and_put_on_a_seat_is_ruled_as_one_lifted_straight_onto_it():
    text = LIFTED.replace("card Kc -> muck\n", "card Kc -> seat4\nwait 1s\ncard Kc seat4 -> muck\n")
    events = play_text(text)
    assert [(f.rule, f.severity) for f in loud(events)] == [("procedures.22", "floor")]
    assert _end(events).outcome == "complete"


def test_a_discard_lifted_outside_a_draw_is_ruled_as_it_leaves_the_muck():
    # on the betting round after the first draw (betting under way) the muck may go nowhere: ruled at once, as before
    text = LIFTED.replace("card Kc muck -> off\nwait 3s\ncard Kc -> muck\n", "")
    text = text.replace("tap check seat 3\ntap check seat 4\nburn\ndraw 3 Jd",
                        "card Kc muck -> off\nwait 3s\ncard Kc -> muck\ntap check seat 3\ntap check seat 4\n"
                        "burn\ndraw 3 Jd", 1)
    assert "card Kc muck -> off" in text
    events = play_text(text)
    (f,) = loud(events)
    assert f.rule == "procedures.22"
    left = [e for e in events if isinstance(e, te.ActionTaken) and e.seat == 2 and e.street == "flop"][0]
    assert f.t - left.t < 2


# --- a hand ending by folds in the first draw ---------------------------------------------------------------------

def _thrown_in_the_first_draw() -> str:
    head = HAND.split("burn\ndraw 2")[0]
    throw = "".join(f"card {c} seat2 -> muck\n" for c in ("7c", "5d", "4h", "Kc", "Kd"))
    throw += "wait 1s\n" + "".join(f"card {c} seat3 -> muck\n" for c in ("8s", "6s", "4s", "3s", "Qh"))
    return head + "burn\n" + throw + "wait 2s\npush all to 4\naward 4\ntake 4\nwait 1s\ncleanup\n"


def test_players_throwing_their_hands_away_in_the_first_draw_fold_and_the_last_hand_wins_unshown():
    # seats 2 and 3 throw all five cards and are given none: seat 2 folded once seat 3's turn came, seat 3 once
    # the dealer pushed the pot to seat 4; seat 4 wins the 6 unshown, with nothing to rule
    events = play_text(_thrown_in_the_first_draw())
    assert loud(events) == []
    folds = [(e.seat, e.street) for e in events if isinstance(e, te.ActionTaken) and e.action == "fold"]
    assert folds == [(1, "preflop"), (2, "flop"), (3, "flop")]
    assert not any(isinstance(e, (te.HandShown, te.CardsDrawn)) for e in events)
    end = _end(events)
    assert end.outcome == "complete" and end.stacks == {1: 200, 2: 198, 3: 198, 4: 204}


def test_a_player_drawing_five_is_no_fold():
    # the near miss: seat 2 throws five and is given five, the draw goes on, the hand is played out
    text = HAND.replace("draw 2 Kc,Kd -> 3d,2d\n", "draw 2 7c,5d,4h,Kc,Kd -> 7h,5s,4d,3h,2h\n")
    events = play_text(text)
    assert loud(events) == [] and [e.seat for e in events if isinstance(e, te.ActionTaken)
                                   and e.action == "fold"] == [1]
    assert [(e.seat, e.count) for e in events if isinstance(e, te.CardsDrawn) and e.draw == 1][0] == (2, 5)


# --- a replacement that comes face up in a draw -----------------------------------------------------------------

def _drawn_told(events: list[te.TableEvent]) -> dict[tuple[int, int], list[int]]:
    """(seat, draw) -> the counts its ``CardsDrawn`` said, in order (once per seat and draw is right)."""
    told: dict[tuple[int, int], list[int]] = {}
    for e in events:
        if isinstance(e, te.CardsDrawn):
            told.setdefault((e.seat, e.draw), []).append(e.count)
    return told


def test_a_replacement_dealt_face_up_is_ruled_out_of_play_and_the_next_card_is_the_seats_draw():
    # seat 3's replacement (Jh) comes face up: an exposed card (Irregularities 12, 13), out of play; the dealer takes it
    # to the muck and gives seat 3 the next card, as the ruling says, and nothing more is ruled. With three players
    # still betting the hand is the clean one's, round for round
    events = play_text((SCENARIOS / "faults-draw-replacement-face-up.scn").read_text())
    clean = play_text((SCENARIOS / "faults-draw-replacement-face-up-ok.scn").read_text())
    (f,) = loud(events)
    assert (f.rule, f.severity, f.outcome, f.seats, f.cards) == ("irregularity.12", "dealer", "card-replaced", (3,),
                                                                  ("Jh",))
    assert "Jh, dealt to seat 3 in the draw, came face up" in f.ruling
    assert "put it in the muck; seat 3 gets the next card" in f.ruling
    ruled_at = events.index(f)
    dealt = [e for e in events if isinstance(e, te.CardDealt) and e.face_up]
    assert [(e.seat, e.card) for e in dealt] == [(3, "Jh")] and events.index(dealt[0]) == ruled_at - 1
    assert _end(events).stacks == _end(clean).stacks == {1: 200, 2: 212, 3: 194, 4: 194}
    streets = [(e.seat, e.street) for e in events if isinstance(e, te.ActionTaken) and e.action != "post"]
    assert streets == [(e.seat, e.street) for e in clean if isinstance(e, te.ActionTaken) and e.action != "post"]
    shown = {e.seat: e.cards for e in events if isinstance(e, te.HandShown)}
    assert shown == {e.seat: e.cards for e in clean if isinstance(e, te.HandShown)} and "Jh" not in shown[3]


def test_each_seats_draw_is_told_once_with_its_final_count():
    # the Jh was no card of seat 3's draw: seat 3 drew one card in the first draw, told once (it used to be told
    # twice, "1" as the Jh landed and "2" when the Jd came), as in the clean hand
    events = play_text((SCENARIOS / "faults-draw-replacement-face-up.scn").read_text())
    clean = play_text((SCENARIOS / "faults-draw-replacement-face-up-ok.scn").read_text())
    told = _drawn_told(events)
    assert told == _drawn_told(clean)
    assert told[(3, 1)] == [1] and all(len(counts) == 1 for counts in told.values()), told


DRAW_SCENARIOS = sorted(p for p in SCENARIOS.rglob("*.scn") if "game 27td" in p.read_text())


def test_every_triple_draw_scenario_tells_each_seats_draw_once_per_draw():
    # the scenarios of tests/scenarios/ that deal 27td, faults and near misses: no (hand, seat, draw) told twice
    assert len(DRAW_SCENARIOS) >= 10
    for path in DRAW_SCENARIOS:
        events = play_text(path.read_text(), str(path))
        told: dict[tuple[int, int, int], int] = {}
        for e in events:
            if isinstance(e, te.CardsDrawn):
                told[(e.hand, e.seat, e.draw)] = told.get((e.hand, e.seat, e.draw), 0) + 1
        assert all(n == 1 for n in told.values()), (path.name, told)


def test_a_stub_run_short_may_be_made_up_from_the_whole_muck_a_folded_hand_included():
    # seat 6 folded before the draw: its cards lie in the muck with the discards, and the dealer shuffles them all
    # (not seat 5's, drawing now) into the last stub card; seat 5 is given four of seat 6's old cards
    events = play_text((SCENARIOS / "faults-stub-short-with-a-folded-hand.scn").read_text())
    assert loud(events) == [] and _end(events).outcome == "complete"
    shown = {e.seat: e.cards for e in events if isinstance(e, te.HandShown)}
    assert shown[5] == ("As", "Ad", "2h", "3h", "4h") and 6 not in shown   # As the last stub card, the rest seat 6's


def test_a_face_up_last_stub_card_is_dead_in_the_muck_and_shuffled_back_with_the_discards():
    # the last stub card, the As, comes face up to seat 5: out of play, to the muck (irregularity.12); the dealer
    # shuffles the muck, the As with it, into the empty stub and deals seat 5 its five: no procedures.22 follows
    events = play_text((SCENARIOS / "faults-draw-replacement-face-up-last-stub-card.scn").read_text())
    assert [(f.rule, f.outcome) for f in loud(events)] == [("irregularity.12", "card-replaced")]
    assert [e.count for e in events if isinstance(e, te.CardsDrawn) and e.seat == 5 and e.draw == 1] == [5]
    shown = {e.seat: e.cards for e in events if isinstance(e, te.HandShown)}
    assert "As" not in shown[5] and _end(events).outcome == "complete" and _end(events).stacks[5] == 208
