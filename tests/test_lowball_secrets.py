"""Secrecy in deuce-to-seven triple draw (docs/draw.md: discards are hole cards): a hand with its draws, one discard
landing on another seat's antenna, played by a terminal whose floor link publishes to a real mosquitto, puts no
hole card on any floor topic before the showdown and no discard, folded hand or burn card ever; the room audit and
the PHH export, without the reveal option, name none of them either."""

from __future__ import annotations

import json
import re

import pytest

from dealerbox.cli import main
from dealerbox.engine import events as te
from tests.conftest import scaled
from dealerbox.config import from_dict
from dealerbox.pipeline import registry_from_enrolment
from dealerbox.runtime.app import Terminal
from dealerbox.sinks.floor.link import FloorLink
from dealerbox.sinks.floor.view import FloorView
from dealerbox.sources import open_log
from dealerbox.sources.replaying import ReplayingSource
from tests.scenario_play import play_text
from tests.test_floor_contract import assert_no_hole_cards, link_config
from tests.test_scenario import SCENARIOS

pytestmark = pytest.mark.timeout(120)

HAND = SCENARIOS / "faults-discard-on-another-seat.scn"


def _cards() -> tuple[set[str], set[str]]:
    """(every card dealt to a seat or thrown in the hand; those of them shown at the showdown)."""
    events = play_text(HAND.read_text())
    dealt = {e.card for e in events if isinstance(e, (te.CardDealt, te.CardMucked)) and e.card}
    shown = {c for e in events if isinstance(e, te.HandShown) for c in e.cards}
    return dealt, shown


def test_the_cards_of_the_hand_are_many_and_only_the_final_hands_are_shown():
    dealt, shown = _cards()
    # 20 dealt and 6 drawn (one discard astray; burns carry no card); three hands shown: 15 cards
    assert len(dealt) == 26 and len(shown) == 15 and {"Kc", "Kd", "Qh", "9d", "Ah"} <= dealt - shown


def test_no_discard_and_no_hole_card_reaches_the_floor_topics(broker, tmp_path):
    dealt, shown = _cards()
    log = open_log(HAND)
    # the table's own settings (27td) with the floor link of the tests' broker
    linked = link_config(tmp_path, broker.port)
    config = from_dict({**log.header.config, "floor": {"host": "127.0.0.1", "port": broker.port,
                                                       "outbox": linked.floor.outbox, "replay_rate": 5000}})
    assert config.game.variant == "27td"
    link = FloorLink(config, reconnect_min=0.05, reconnect_max=0.3)
    terminal = Terminal(config, registry_from_enrolment(log.header.enrolment), ReplayingSource(log, speed=0),
                        floor=link)
    view = FloorView(broker.host, broker.port, "demo").start()
    try:
        terminal.start()
        assert view.wait_until(lambda v: bool(v.events("T01", "HandEnded")), scaled(30))
        messages = [(topic, json.dumps(payload)) for topic, payload, _, _ in list(view.messages)]
    finally:
        terminal.stop()
        view.stop()
    assert any('"CardsDrawn"' in text for _, text in messages)      # the draws did reach the floor
    assert any('"CardMucked"' in text for _, text in messages)
    # before the showdown (by the table's clock: the state topic is coalesced and may arrive out of order with the
    # events) no hole card of the hand at all; never a discard or a card of the folded hand
    shown_at = min(json.loads(x)["t"] for _, x in messages if '"HandShown"' in x)
    before = [(t, x.encode()) for t, x in messages if json.loads(x).get("t", shown_at) < shown_at]
    assert len(before) > 50
    assert_no_hole_cards(before, dealt)
    assert_no_hole_cards([(t, x.encode()) for t, x in messages], dealt - shown)


def test_neither_the_audit_nor_the_phh_export_names_a_discard_or_a_hole_card(tmp_path, capsys):
    dealt, shown = _cards()
    assert main(["audit", str(HAND), "--out-dir", str(tmp_path / "audit"), "--jobs", "1"]) == 0
    assert main(["export", str(HAND), "--phh", str(tmp_path / "hand.phhs")]) == 0
    texts = {p.name: p.read_text() for p in (tmp_path / "audit").iterdir()}
    texts["hand.phhs"] = (tmp_path / "hand.phhs").read_text()
    assert "sd ????" in texts["hand.phhs"]      # seat 2's two discards, the one astray counted, never named
    for name, text in texts.items():
        named = {c for c in re.findall(r"(?<![0-9A-Za-z])([2-9TJQKA][cdhs])(?![0-9A-Za-z])", text)}
        assert not named & (dealt - shown), (name, sorted(named & (dealt - shown)))
    # the shown hands are written as the showdown's cards in the export, and no other card is
    assert not set(re.findall(r"(?<![0-9A-Za-z])([2-9TJQKA][cdhs])", texts["hand.phhs"])) - shown
