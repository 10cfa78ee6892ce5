"""One simulated session's hands read the same in the three places a hand is told after the fact: the PHH
export (``dealerbox export``), the dealer's hand history on the screen (sinks/screen/history.py) and the floor
dashboard's hand page (fed the floor's own event payloads). Hand number, outcome, pots, who won what and the
findings' rule ids must agree, because all three read history.summary."""

from __future__ import annotations

import json
import re
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from dealerbox.config import Config, GameConfig
from dealerbox.history.reader import events, read_hands
from dealerbox.history.summary import HandResult, events_from_dicts, pot_lines, summarise
from dealerbox.pipeline import Pipeline
from dealerbox.record.recorder import Recorder
from dealerbox.sinks.screen.history import hand_records
from dealerbox.sources import open_log
from dealerbox.sources.simulator import Simulator
from dealerbox.tags import demo_registry
from tests.conftest import scaled

ROOT = Path(__file__).resolve().parents[2]
SITE, TABLE = "demo", "T01"


@pytest.fixture(scope="module")
def session(tmp_path_factory) -> tuple[Path, list]:
    """A recorded session with misdeals and findings, and its table events as the terminal saw them."""
    folder = tmp_path_factory.mktemp("one")
    sim = Simulator(Config(game=GameConfig(variant="nlhe")), demo_registry(), seed=7, irregularities=0.35)
    rec = Recorder(folder, sim.header(), rotate_bytes=1 << 40, name="session", fsync_every_s=60.0)
    for record in sim.records(24):
        rec.write(record)
    rec.close()
    log = folder / "session.jsonl"
    source = open_log(log)
    return log, list(events(source, Pipeline.from_header(source.header)))


def _export(log: Path, tmp: Path) -> dict[int, HandResult]:
    """Every hand of the real ``dealerbox export`` file: PHH sections and the commented hands PHH cannot hold."""
    out = tmp / "session.phhs"
    done = subprocess.run([sys.executable, "-m", "dealerbox", "export", str(log), "--phh", str(out)],
                          cwd=ROOT, capture_output=True, text=True, timeout=scaled(120))
    assert done.returncode == 0, done.stderr
    text = out.read_text()
    hands: dict[int, HandResult] = {}
    for _name, fields in tomllib.loads(text).items():
        if not isinstance(fields, dict):
            continue
        won = {s: n for s, n in zip(fields["seats"], fields["winnings"], strict=True) if n}
        hands[fields["hand"]] = HandResult(fields["hand"], fields["_outcome"], tuple(fields["_pots"]),
                                           dict(sorted(won.items())), tuple(fields.get("_rules", ())))
    # a hand PHH cannot express is the same facts as comments: "#   _key = value" lines after its heading
    for block in re.split(r"^# \[\d+\] not a PHH hand: ", text, flags=re.M)[1:]:
        number = int(re.match(r"table \S+ hand (\d+)", block).group(1))
        facts = dict(re.findall(r"^#   (_\w+) = (.*)$", block, flags=re.M))
        hands[number] = HandResult(number, json.loads(facts["_outcome"]), tuple(json.loads(facts["_pots"])), {},
                                   tuple(json.loads(facts.get("_rules", "[]"))))
    return hands


def _dashboard(tmp: Path, table_events: list, numbers: list[int]) -> dict[int, HandResult]:
    """The dashboard fed the floor link's own event payloads, each hand page read back from its HTML."""
    from starlette.testclient import TestClient

    from dealerbox.dashboard import auth
    from dealerbox.dashboard.app import create_app
    from dealerbox.dashboard.service import Dashboard
    from dealerbox.dashboard.store import Store
    from dealerbox.sinks.floor import contract as c

    store = Store(f"sqlite:///{tmp / 'floor.db'}")
    store.put_user("vic", "viewer", auth.hash_password("viewer-pass-1"))
    dash = Dashboard(store, clock=lambda: 1000.0)
    env = c.Envelope(SITE, TABLE, "boot1")
    topic = f"dealerbox/{SITE}/{TABLE}"
    dash.receive(f"{topic}/status", json.dumps(env.wrap("status", 0, 0, {"status": "online", "reason": "birth"},
                                                         seq=0)).encode())
    for event in table_events:
        dash.receive(f"{topic}/event", json.dumps(c.event_payload(env, event, 1.0)).encode())
    pages: dict[int, HandResult] = {}
    with TestClient(create_app(dash, background=False)) as client:
        token = re.search(r'name="csrf" value="([^"]+)"', client.get("/login").text).group(1)
        client.post("/login", data={"name": "vic", "password": "viewer-pass-1", "csrf": token})
        for n in numbers:
            html = client.get(f"/tables/{SITE}/{TABLE}/hands/{n}").text
            head = re.search(r'<section class="result" data-hand="(\d+)" data-outcome="(\w+)">', html)
            assert head, f"hand {n}: the hand page shows no result"
            pages[n] = HandResult(int(head.group(1)), head.group(2),
                                  tuple(int(a) for a in re.findall(r'class="pot" data-amount="(\d+)"', html)),
                                  {int(s): int(ch) for s, ch in
                                   re.findall(r'class="won" data-seat="(\d+)" data-chips="(\d+)"', html)},
                                  tuple(re.findall(r'class="finding" data-rule="([^"]+)"', html)))
            for line in re.findall(r'<li class="pot" data-amount="\d+">([^<]+)</li>', html):
                assert line.startswith(("Main pot", "Side pot"))
    return pages


def test_export_screen_and_dashboard_tell_every_hand_the_same(session, tmp_path):
    log, table_events = session
    truth = {h.hand: h.result for h in read_hands(log).hands}
    assert len(truth) >= 20
    outcomes = {r.outcome for r in truth.values()}
    assert {"complete", "misdeal", "void"} <= outcomes, "the session should hold hands PHH cannot express"
    assert sum(len(r.rules) for r in truth.values()) >= 20, "the session should hold findings"
    assert any(len(r.pots) > 1 for r in truth.values()), "the session should hold side pots"

    exported = _export(log, tmp_path)
    screen = {r.hand: r for r in hand_records(table_events, keep=10_000) if r.hand is not None}
    dashboard = _dashboard(tmp_path, table_events, sorted(truth))

    assert set(exported) == set(truth) and set(dashboard) == set(truth)
    for n, want in truth.items():
        record = screen[n]
        assert record.summary is not None and record.summary.result == want, f"screen, hand {n}"
        texts = [line.text for line in record.lines]
        for line in pot_lines(record.summary.pots):   # what the dealer reads is the summary's pots
            assert line in texts, f"screen, hand {n}: {line!r} not shown"
        assert exported[n] == want, f"PHH export, hand {n}"
        assert dashboard[n] == want, f"dashboard, hand {n}"


def test_a_summary_rebuilt_from_the_floors_json_equals_the_engines(session):
    _, table_events = session
    from_json = summarise(events_from_dicts(json.loads(json.dumps(e.to_dict())) for e in table_events), TABLE)
    direct = summarise(table_events, TABLE)
    assert [s.result for s in from_json] == [s.result for s in direct]
    assert [(s.actions, s.board, s.shown, s.pots) for s in from_json] == \
           [(s.actions, s.board, s.shown, s.pots) for s in direct]


def test_rows_that_do_not_fit_their_event_are_left_out():
    rows = [{"event": "HandStarted", "t": 1.0, "hand": 1, "button": 2, "seats": [1, 2], "game": "nlhe",
             "blinds": {"1": 1, "2": 2}},
            {"event": "HandEnded", "t": 2.0, "hand": 1, "outcome": "complete", "pots": [{"amount": "x"}],
             "stacks": {}},                                   # a pot amount that is no number
            {"event": "ActionTaken", "t": 1.5, "hand": 1},    # fields missing
            {"event": "NoSuchEvent", "t": 1.0}, "not a row",
            {"event": "HandEnded", "t": 3.0, "hand": 1, "outcome": "misdeal", "pots": [], "stacks": {"1": 200}}]
    got = events_from_dicts(rows)
    assert [type(e).__name__ for e in got] == ["HandStarted", "HandEnded"]
    assert got[0].blinds == {1: 1, 2: 2} and got[1].stacks == {1: 200}
