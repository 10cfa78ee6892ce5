"""Issue 29's secrecy rule held against every scenario of the library: what a sealed log shows in the clear (its
``ev`` lines), what the floor link would publish (event, alert and state payloads, hole cards off as by default)
and the audit's CSV name no face-down card that was not shown down, findings included. Real parts throughout:
the scenario compiler's bytes, the recorder sealing to a real floor key pair, the floor contract's payloads, and
the audit that reads the sealed log back."""

from __future__ import annotations

import csv
import json
import re
from pathlib import Path

import pytest

from dealerbox.engine import events as te
from dealerbox.history.audit import Room, audit_log
from dealerbox.history.report import write_csv
from dealerbox.pipeline import Pipeline, public_events
from dealerbox.record.recorder import Recorder
from dealerbox.record.sealing import generate_floor_keys, load_floor_public
from dealerbox.sinks.floor import contract as c
from dealerbox.config import from_dict
from dealerbox.record.logformat import Header, Record
from dealerbox.sources.scenario import compile_file
from dealerbox.sources.sim import DEAL_KINDS
from dealerbox.sources.simulator import Simulator
from dealerbox.tags import demo_registry

SCENARIOS = Path(__file__).parents[1] / "scenarios"
ALL = sorted(p.relative_to(SCENARIOS).as_posix() for p in SCENARIOS.rglob("*.scn"))


def _secrets(events: list[te.TableEvent]) -> dict[int, set[str]]:
    """Per hand, the cards that went face down (dealt to a seat, burnt, mucked) and were never shown down."""
    hidden: dict[int, set[str]] = {}
    for e in events:
        if e.hand is None:
            continue
        # a joker ("X1") is no card of anyone's hand: it is replaced, and naming it tells nothing of the hand
        if (isinstance(e, te.CardDealt) and not e.face_up or isinstance(e, te.CardBurned | te.CardMucked)) \
                and e.card and not e.card.startswith("X"):
            hidden.setdefault(e.hand, set()).add(e.card)
    for e in events:   # shown down, or dealt face up at some point of the hand: known to the table
        if isinstance(e, te.HandShown) and e.hand is not None:
            hidden.get(e.hand, set()).difference_update(e.cards)
        if isinstance(e, te.CardDealt) and e.face_up and e.hand is not None and e.card:
            hidden.get(e.hand, set()).discard(e.card)
        if isinstance(e, te.BoardCardDealt) and e.hand is not None:
            hidden.get(e.hand, set()).discard(e.card)
    return hidden


def _named(text: str, cards: set[str]) -> set[str]:
    return {card for card in cards if re.search(rf"(?<![A-Za-z0-9]){re.escape(card)}(?![a-z0-9])", text)}


@pytest.fixture(scope="module")
def floor_key(tmp_path_factory) -> Path:
    return generate_floor_keys(tmp_path_factory.mktemp("floor") / "floor.key")


@pytest.mark.parametrize("name", ALL)
def test_no_face_down_card_of_a_scenario_reaches_the_public_log_the_floor_or_the_audit(name, floor_key, tmp_path):
    compiled = compile_file(SCENARIOS / name)
    assert _told(compiled.header, compiled.records, floor_key, tmp_path, min_hidden=0) == []   # some show all


@pytest.mark.parametrize("kind", sorted(DEAL_KINDS))
def test_no_face_down_card_of_a_simulated_irregular_deal_reaches_the_public_log(kind, floor_key, tmp_path):
    sim = Simulator(from_dict({"game": {"variant": "nlhe"}}), demo_registry(), seed=11, irregularities=[kind] * 4)
    records = list(sim.records(6))
    assert _told(sim.header(), records, floor_key, tmp_path) == []


def _told(header: Header, records: list[Record], floor_key: Path, tmp_path: Path, min_hidden: int = 2) -> list[tuple]:
    """(hand, where, cards) for every public line, floor payload or audit CSV row that names a hidden card."""
    # the truth, from the engine itself: every event with its cards
    pipe = Pipeline.from_header(header)
    env = c.Envelope("demo", "T01", "boot")
    events: list[te.TableEvent] = []
    payloads: list[tuple[int | None, str]] = []
    for record in records:
        got = pipe.feed(record)
        for e in got:
            event = c.event_payload(env, e, 0.0)
            payloads.append((e.hand, json.dumps(event)))
            if c.is_alert(e):
                payloads.append((e.hand, json.dumps(c.alert_payload(env, e, event["seq"], 0.0))))
        if got:
            state = c.state_payload(env, pipe.engine.snapshot(), record.t, 0.0, {}, {})
            payloads.append((state.get("hand"), json.dumps(state)))
        events += got
    hidden = _secrets(events)
    assert events and sum(map(len, hidden.values())) >= min_hidden    # hole cards dealt and not all shown
    # what the table writes in the clear: a sealed log's public lines
    rec = Recorder(tmp_path / "logs", header, name="scn", seal_to=load_floor_public(floor_key),
                   rules=public_events)
    for record in records:
        rec.write(record)
    rec.close()
    public = [json.loads(line)["e"] for line in rec.path.read_text().splitlines() if '"k":"ev"' in line]
    assert len(public) == len(events)       # the same events, the secret fields masked
    told = [(e.get("hand"), e["event"], sorted(_named(json.dumps(e), hidden.get(e.get("hand"), set()))))
            for e in public]
    told += [(hand, "floor payload", sorted(_named(text, hidden.get(hand, set())))) for hand, text in payloads
             if hand is not None]
    # the audit of the sealed log, without the floor's key: every CSV it writes
    room = Room.of([audit_log(str(rec.path))])
    every = set().union(*hidden.values())
    for path in write_csv(room, tmp_path / "report"):
        with open(path, newline="", encoding="utf-8") as f:
            for row in csv.DictReader(f):
                hand = int(row["hand"]) if (row.get("hand") or "").isdigit() else None
                cards = every if hand is None else hidden.get(hand, set())   # no hand: no hand's card at all
                told.append((hand, path.name, sorted(_named(json.dumps(row), cards))))
    return [t for t in told if t[2]]
