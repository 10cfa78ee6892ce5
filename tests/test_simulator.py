"""The simulator: real bytes through the real decoder, pokerkit's results, the choreography of a hand."""

from __future__ import annotations

import queue

import pytest

from dealerbox.config import from_dict
from dealerbox.engine import inputs as ev
from dealerbox.pipeline import Pipeline, registry_from_enrolment
from dealerbox.record.logformat import Input, Rx
from dealerbox.sources.simulator import (IRREGULARITIES, SimulatedSource, Simulator, SimulatorError)
from dealerbox.tags import CardTag, ChipTag, MarkerTag, UnknownTag, demo_registry
from tests.table_checks import final_zones
from tests.conftest import scaled

VARIANTS = ("nlhe", "plhe", "flhe", "plo")


def config(variant="nlhe", **game):
    return from_dict({"game": {"variant": variant, **game}})


def sensor_inputs_from_records(records, registry):
    """What the real Pipeline makes of the records (decoder + registry), leaving out heartbeats/hello."""
    pipe = Pipeline(config(), registry)
    out = []
    for r in records:
        if isinstance(r, Rx):
            for frame in pipe.decoder.feed(r.data):
                out.extend(e for e in pipe.sensor_events(r.t, frame)
                           if not isinstance(e, ev.BoardAlive | ev.BoardHello))
        elif isinstance(r, Input):
            out.append(r.input)
    return out, pipe


def test_records_decode_to_exactly_the_hand_inputs():
    registry = demo_registry()
    hands = list(Simulator(config(), registry, seed=11).play(5))
    records = list(Simulator(config(), registry, seed=11).records(5))
    decoded, pipe = sensor_inputs_from_records(records, registry)
    assert decoded == [i for h in hands for i in h.inputs]
    assert pipe.decoder.counters.as_dict()["bad_crc"] == 0
    assert isinstance(records[0], Rx) and records[0].data  # the HELLO opens the stream
    beats = [r for r in records if isinstance(r, Rx) and r.data[1:2]]  # noqa: F841 (decoded below)
    kinds = [type(f.message).__name__ for r in records if isinstance(r, Rx)
             for f in Pipeline(config(), registry).decoder.feed(r.data)]
    assert kinds[0] == "Hello" and "Heartbeat" in kinds


def test_frames_sent_in_one_instant_are_read_as_one_chunk_and_replay_the_same():
    """A motion's chips reach the port together, and the serial source reads what has arrived as one chunk: the
    simulator writes them so. Split frame by frame instead, the same bytes give the same table events."""
    registry = demo_registry()
    records = list(Simulator(config(), registry, seed=3).records(6))
    rx = [r for r in records if isinstance(r, Rx)]
    # one chunk an instant (none reaches READ_CHUNK_MAX here)
    assert all(a.t != b.t for a, b in zip(rx, rx[1:], strict=False))
    assert max(r.data.count(0) for r in rx) > 3            # some chunks hold a whole motion's frames

    def events(chunks):
        pipe = Pipeline(config(), registry)
        return [e for r in chunks for e in (pipe.feed_bytes(r.t, r.data) if isinstance(r, Rx) else pipe.feed(r))]

    split = [Rx(r.t, frame + b"\x00") if isinstance(r, Rx) else r
             for r in records for frame in (r.data[:-1].split(b"\x00") if isinstance(r, Rx) else [b""])]
    assert len(split) > len(records)
    assert events(records) == events(split) != []


def test_same_seed_same_bytes_other_seed_other_bytes():
    reg = demo_registry()
    a = [r.to_record() for r in Simulator(config(), reg, seed=5).records(3)]
    b = [r.to_record() for r in Simulator(config(), reg, seed=5).records(3)]
    c = [r.to_record() for r in Simulator(config(), reg, seed=6).records(3)]
    assert a == b and a != c


@pytest.mark.parametrize("variant", VARIANTS)
def test_referee_accounting_holds(variant):
    sim = Simulator(config(variant), demo_registry(), seed=21)
    showdowns = side_pots = 0
    for hand in sim.play(60):
        e = hand.expected
        assert sum(e.stacks.values()) == sum(e.stacks_before.values())
        won = {s: 0 for s in e.dealt_in}
        for pot in e.pots:
            assert set(pot.winners) <= set(pot.eligible)
            assert sum(pot.shares.values()) == pot.amount
            for s, a in pot.shares.items():
                won[s] += a
        put_in = {s: e.stacks_before[s] - e.stacks[s] + won[s] for s in e.dealt_in}
        assert sum(put_in.values()) == sum(p.amount for p in e.pots)
        showdowns += len(e.board) == 5 and len(e.pots) > 0
        side_pots += len(e.pots) > 1
        # the chips in each seat's pool are worth its stack (what it could bet next)
        for seat, stack in sim.stacks.items():
            assert sum(v * len(u) for v, u in sim.chips.pools.get(seat, {}).items()) == stack
    assert showdowns > 0
    if variant != "flhe":
        assert side_pots > 0


def test_choreography_of_dealing_and_chips():
    sim = Simulator(config(), demo_registry(), seed=3)
    for hand in sim.play(10):
        inputs = hand.inputs
        for k, i in enumerate(inputs):
            if isinstance(i, ev.CardFaceSensed):
                assert isinstance(inputs[k + 1], ev.ZoneLeft) and inputs[k + 1].zone == "shoe"
                assert inputs[k + 1].tag == i.tag
        # chips of one action arrive < 0.5 s apart; separate actions in the same zone are further apart
        last: dict[str, float] = {}
        for i in inputs:
            if isinstance(i, ev.ZoneEntered) and i.zone.startswith("bet") and isinstance(i.tag, ChipTag):
                gap = i.t - last.get(i.zone, -99)
                assert gap < 0.5 or gap > 0.9
                last[i.zone] = i.t
        # after the hand every card of the deck is back in the shoe, and no chip is left in a zone
        where = final_zones(inputs)
        assert all(z == "shoe" for u, z in where.items() if isinstance(sim.registry.lookup(u), CardTag)), where
        assert not [u for u, z in where.items() if isinstance(sim.registry.lookup(u), ChipTag)]


def test_first_hand_seats_players_places_button_and_fills_the_shoe():
    hand = next(Simulator(config(), demo_registry(), seed=1).play(1))
    sits = [i for i in hand.inputs if isinstance(i, ev.DealerInput) and i.action == "sit"]
    assert len(sits) >= 2 and all(i.amount > 0 for i in sits)
    shoe = [i for i in hand.inputs if isinstance(i, ev.ZoneEntered) and i.zone == "shoe"
            and isinstance(i.tag, CardTag)]
    assert len({i.tag.card for i in shoe}) == 52
    button = [i for i in hand.inputs if isinstance(i.tag if hasattr(i, "tag") else None, MarkerTag)]
    assert button[0].zone == f"seat{hand.expected.button}"
    first_hole = next(i for i in hand.inputs if isinstance(i, ev.ZoneEntered) and i.zone.startswith("seat")
                      and isinstance(i.tag, CardTag))
    assert first_hole.zone == f"seat{hand.expected.dealt_in[0]}"


SIGNATURES = {
    "boxed-card": lambda ins: any(isinstance(i, ev.CardFaceSensed) and i.face_up for i in ins),
    "duplicate-card": lambda ins: any(isinstance(getattr(i, "tag", None), CardTag) and i.tag.deck_id != "DEMO-1"
                                      for i in ins),
    "other-deck": lambda ins: any(isinstance(getattr(i, "tag", None), CardTag) and i.tag.back == "blue"
                                  for i in ins),
    "joker": lambda ins: any(isinstance(getattr(i, "tag", None), CardTag) and i.tag.is_joker for i in ins),
    "out-of-sequence": lambda ins: any(isinstance(i, ev.DealerInput) and i.action == "misdeal" for i in ins),
    "first-card-wrong-seat": lambda ins: any(isinstance(i, ev.DealerInput) and i.action == "misdeal" for i in ins),
    "premature-flop": lambda ins: any(isinstance(i, ev.ZoneLeft) and i.zone == "board" for i in ins[:-60]),
    "foreign-chip": lambda ins: any(isinstance(getattr(i, "tag", None), ChipTag) and i.tag.house == "OTHER"
                                    for i in ins),
    "unknown-chip": lambda ins: any(isinstance(getattr(i, "tag", None), UnknownTag) for i in ins),
}


@pytest.mark.parametrize("kind", sorted(IRREGULARITIES))
def test_each_irregularity_leaves_its_evidence(kind):
    cfg = config(smallest_chip=5, small_blind=5, big_blind=10, buy_in=1000) if kind == "small-chip" else config()
    sim = Simulator(cfg, demo_registry(), seed=4, irregularities=[kind] * 12)
    hands = [h for h in sim.play(12) if h.expected.irregularity == kind]
    assert hands, f"{kind} never happened in 12 tries"
    h = hands[0]
    assert h.expected.rule == IRREGULARITIES[kind][0]
    if kind in SIGNATURES:
        assert SIGNATURES[kind](h.inputs)
    if kind == "small-chip":
        assert any(isinstance(getattr(i, "tag", None), ChipTag) and i.tag.value < 5 for i in h.inputs)
    if h.expected.outcome in ("misdeal", "void"):
        assert h.expected.stacks == h.expected.stacks_before and not h.expected.pots


def test_misdeal_keeps_the_button():
    sim = Simulator(config(), demo_registry(), seed=8, irregularities=["first-card-wrong-seat"])
    a, b = list(sim.play(2))
    assert a.expected.outcome == "misdeal" and b.expected.button == a.expected.button


def test_header_replays_the_same_registry():
    sim = Simulator(config("plo"), demo_registry(), seed=2)
    header = sim.header()
    assert header.config["game"]["variant"] == "plo"
    reg = registry_from_enrolment(header.enrolment)
    hand = next(sim.play(1))
    assert all(reg.lookup(i.tag.uid) == i.tag for i in hand.inputs if hasattr(i, "tag"))


def test_bad_setup_is_refused_clearly():
    with pytest.raises(SimulatorError, match="game.variant"):
        Simulator(from_dict({"game": {"variant": "stud"}}) if False else _stud(), demo_registry(), 1)
    with pytest.raises(SimulatorError, match="unknown irregularities"):
        Simulator(config(), demo_registry(), 1, irregularities=["cheating"])


def test_bomb_pots_are_dealt_on_the_schedule_only_where_the_table_plays_them():
    game = {"bomb_pots": True, "bomb_pot": 6}
    sim = Simulator(from_dict({"game": game, "simulator": {"bomb_every": 3}}), demo_registry(), 5)
    hands = list(sim.play(6))
    assert [h.expected.bomb for h in hands] == [0, 0, 6, 0, 0, 6]
    assert all(h.expected.blinds == {} and h.expected.boards == () for h in hands if h.expected.bomb)
    assert all(h.expected.actions[0][0] == "flop" for h in hands if h.expected.bomb and h.expected.actions)
    with pytest.raises(SimulatorError, match="game.bomb_pots"):
        Simulator(from_dict({"simulator": {"bomb_every": 3}}), demo_registry(), 1)
    with pytest.raises(SimulatorError, match="no kill"):
        Simulator(from_dict({"game": {**game, "kill": "full"}, "simulator": {"bomb_every": 3}}), demo_registry(), 1)


def _stud():
    from dataclasses import replace
    c = config()
    return replace(c, game=replace(c.game, variant="stud"))


class FakeClock:
    def __init__(self):
        self.now = 100.0
        self.slept = 0.0

    def clock(self):
        return self.now

    def sleep(self, s):
        self.slept += s
        self.now += s


def test_simulated_source_paces_records_on_the_given_clock():
    fake = FakeClock()
    sim = Simulator(config(), demo_registry(), seed=9)
    src = SimulatedSource(sim, speed=10.0, clock=fake.clock, sleep=fake.sleep, hands=2)
    src.start()
    src.join(scaled(10))
    got = []
    while True:
        try:
            got.append(src.entries.get_nowait())
        except queue.Empty:
            break
    assert got and isinstance(got[0], Rx)
    span = got[-1].t - got[0].t
    assert fake.slept == pytest.approx(span / 10.0, rel=0.05)
    assert src.counters["records"] == len(got)
