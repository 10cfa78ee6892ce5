"""Shared parts of the floor-witness tests (issue 29): a table's key enrolled on a real dashboard, a signed
recorder whose every head goes through a real floor link, a network cut that can be mended, and the
attacker's tool: rewrite a log's lines and re-sign them with the table's own key (root on the box has it). And
the badge tests' table: a scenario played live through a terminal sealing its log to the floor's key."""

from __future__ import annotations

import dataclasses
import json
import socket
import threading
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import httpx

from dealerbox.cli import main
from dealerbox.config import AuditConfig, RecordConfig, TableConfig, from_dict
from dealerbox.dashboard import auth
from dealerbox.dashboard.anchors import AnchorStore
from dealerbox.dashboard.store import Store
from dealerbox.engine.inputs import DealerInput
from dealerbox.pipeline import public_events, registry_from_enrolment
from dealerbox.record.logformat import GENESIS, Header, Input, Rx, chain
from dealerbox.record.recorder import Recorder
from dealerbox.record.sealing import generate_floor_keys, load_floor_public
from dealerbox.record.signing import Signer, generate, load_public, load_signer
from dealerbox.runtime.app import Terminal
from dealerbox.sinks.floor.link import FloorLink
from dealerbox.sinks.floor.view import FloorView
from dealerbox.sources import open_log
from dealerbox.sources.replaying import ReplayingSource
from dealerbox.tags import ChipSet, demo_chips, demo_deck, save_enrolment
from tests.dashboard.conftest import PASSWORD, Running, ShiftedClock, login
from tests.fixtures.broker import free_port
from tests.test_floor_contract import link_config
from tests.waiting import wait_until
from tests.conftest import scaled

HEADER = Header(config={"table": {"id": "T01", "site": "demo"}}, enrolment={"decks": [], "chips": []})


def table_keys(tmp_path: Path) -> tuple[Path, Path]:
    private = tmp_path / "keys" / "T01.key"
    return private, generate(private)


def floor(tmp_path: Path, broker, public: Path | None, clock: ShiftedClock | None = None) -> Running:
    """A real dashboard with a viewer ``vic`` and (unless None) T01's key enrolled."""
    db = f"sqlite:///{tmp_path / 'floor.db'}"
    store = Store(db)
    store.put_user("vic", "viewer", auth.hash_password(PASSWORD))
    if public is not None:
        AnchorStore(store).enrol("demo", "T01", load_public(public))
    store.close()
    return Running(db, broker, clock or ShiftedClock()).start()


def recorder(tmp_path: Path, private: Path, name: str = "T01-day") -> Recorder:
    """A signed recorder that keeps the table's sequence of logs and anchor chain under ``tmp_path/var``."""
    return Recorder(tmp_path / "var" / "logs", dataclasses.replace(HEADER), name=name,
                    signer=load_signer(private, "T01"), hand_count=tmp_path / "var" / "hands-T01.json")


def link(tmp_path: Path, port: int, window_min: float = 10.0, **kw) -> FloorLink:
    config = link_config(tmp_path, port, table="T01")
    config = dataclasses.replace(config, record=RecordConfig(anchor_alert_min=window_min))
    return FloorLink(config, reconnect_min=0.05, reconnect_max=0.2, **kw).start()


def play(rec: Recorder, hands: range, salt: int = 0) -> None:
    """Each hand: a few reads, a dealer tap, then the seal the terminal makes at the hand's end."""
    for hand in hands:
        t = hand * 10.0
        for i in range(4):
            rec.write(Rx(t + i, bytes([hand % 256, i, salt]) * 8))
        rec.write(Input(DealerInput(t=t + 5, action="new-hand")))
        rec.seal(hand=hand)


def anchored_session(tmp_path: Path, broker, hands: int = 4) -> tuple[Recorder, tuple[Path, Path], Running]:
    """A table that played ``hands`` hands and closed its log, every head on the floor; (rec, keys, floor)."""
    private, public = table_keys(tmp_path)
    running = floor(tmp_path, broker, public)
    floor_link = link(tmp_path, broker.port)
    rec = recorder(tmp_path, private)
    rec.on_anchor = floor_link.submit_anchor
    try:
        play(rec, range(1, hands + 1))
        rec.close()
        assert wait_until(lambda: len(running.dash.ingest.anchor_store.heads("demo", "T01")) == hands + 1, scaled(20))
    finally:
        floor_link.stop(timeout=scaled(2))
    return rec, (private, public), running


def rx_edit(hand: int):
    """Change the reads of one hand (what a rewrite to hide a card would do)."""
    def edit(recs):
        for r in recs:
            if r["k"] == "rx" and bytes.fromhex(r["d"])[0] == hand:
                r["d"] = bytes([hand, 9, 9]).hex() * 8
        return recs
    return edit


def resign(path: Path, signer: Signer, edit, out: Path) -> None:
    """The attacker's rewrite: ``edit(lines)`` changes the records, then every hash is recomputed and every
    signature made again with the table's key; written to ``out`` (a new name)."""
    recs = [json.loads(line) for line in path.read_text().splitlines()]
    recs = edit(recs)
    prev, lines = GENESIS, []
    for i, rec in enumerate(recs):
        rec["n"] = i
        if rec["k"] == "sig":
            rec["of"], rec["head"] = i - 1, prev
            rec["sig"] = signer.sign(0, i - 1, prev)
        rec["h"] = chain(prev, rec)
        prev = rec["h"]
        lines.append(json.dumps(rec, separators=(",", ":")))
    out.write_text("\n".join(lines) + "\n")


def badge_hand(why: str, held: str) -> str:
    """The badge tests' scenario: a hand at T01 during which the dealer holds a badge over seat 3 (``held``: the
    scenario lines that bring it and take it away), seat 1 folding to seat 3; ``why`` is its comment line."""
    return f"""\
# {why}
table seats 6 id T01
game nlhe blinds 1/2
registry deck.json chips.json
hello
shoe loaded
sit 1 200
sit 3 200
button 1
blinds
deal hole cards 1=9c,9d 3=Ah,Kd
{held}
fold 1
win 3
cleanup
"""


def badge_table(tmp_path: Path, scenario: str, badge: str | None = None) -> Path:
    """The scenario ``scenario`` beside its enrolment (the demo deck and the house chips, ``badge`` among the chips'
    markers as a ``badge`` when given), written to ``tmp_path``; returns the scenario's path."""
    chips = demo_chips("DEMO")
    if badge is not None:
        chips = ChipSet(chips.house, chips.chips, {**chips.markers, badge: "badge"})
    save_enrolment(demo_deck("DEMO-1", "red"), tmp_path / "deck.json")
    save_enrolment(chips, tmp_path / "chips.json")
    scn = tmp_path / "badge.scn"
    scn.write_text(scenario)
    return scn


def sealed_recorder(tmp_path: Path, header: Header) -> tuple[Recorder, Path]:
    """A recorder signing with a fresh T01 key and sealing to a fresh floor key; (recorder, the floor's private key)."""
    floor_private = tmp_path / "floor" / "floor.key"
    public = generate_floor_keys(floor_private)
    table_key = tmp_path / "etc" / "T01.key"
    generate(table_key)
    rec = Recorder(tmp_path / "logs", header, name="T01-badge", signer=load_signer(table_key, "T01"),
                   seal_to=load_floor_public(public), rules=public_events)
    return rec, floor_private


@dataclass
class LiveHand:
    """What a hand played live left behind: every T01 event the floor's tool account saw, the dashboard's page of
    the hand, and the sealed recorder with the floor's private key."""

    events: list[dict]
    page: httpx.Response
    rec: Recorder
    floor_private: Path


def play_live(tmp_path: Path, broker, scn: Path, badges: dict[str, str], event: str,
              settled: Callable[[FloorView], bool] = lambda view: True) -> LiveHand:
    """``scn`` played live at T01 (``audit.badges`` = ``badges``) through a real terminal, floor link, broker and
    dashboard, its log sealed; once the hand has ended and ``settled(view)`` holds, the dashboard's page of the
    hand that raised ``event`` is fetched as the viewer ``vic``."""
    log = open_log(scn)
    config = dataclasses.replace(from_dict(log.header.config), table=TableConfig(id="T01", site="demo"),
                                 floor=link_config(tmp_path, broker.port).floor, audit=AuditConfig(badges=badges))
    running = floor(tmp_path, broker, None)
    rec, floor_private = sealed_recorder(tmp_path, log.header)
    link = FloorLink(config, reconnect_min=0.05, reconnect_max=0.3)
    terminal = Terminal(config, registry_from_enrolment(log.header.enrolment), ReplayingSource(log, speed=8.0),
                        floor=link, recorder=rec)
    view = FloorView(broker.host, broker.port, "demo").start()     # the floor's tool account, every topic
    try:
        terminal.start()
        assert wait_until(lambda: terminal.hands_ended >= 1, scaled(60))
        assert view.wait_until(lambda v: any(p["data"]["event"] == "HandEnded" for p in v.events("T01")), scaled(30))
        assert view.wait_until(settled, scaled(10))
        hand = next(p["data"]["hand"] for p in view.events("T01") if p["data"]["event"] == event)
        assert wait_until(lambda: running.dash.store.hand("demo", "T01", hand), scaled(20))
        with httpx.Client(base_url=running.url) as client:
            login(client, "vic")
            page = client.get(f"/tables/demo/T01/hands/{hand}")
    finally:
        terminal.stop()
        view.stop()
        running.stop()
    return LiveHand(view.events("T01"), page, rec, floor_private)


def replayed(tmp_path: Path, rec: Recorder, floor_private: Path, capsys, reveal: bool = True) -> list[dict]:
    """The events of ``dealerbox replay --jsonl`` of the sealed log, opened with the floor's key (and
    ``--reveal-hole-cards`` unless ``reveal`` is False); the replay must exit 0."""
    cfg = tmp_path / "t.toml"
    cfg.write_text(f'[audit]\njournal = "{tmp_path / "audit.jsonl"}"\n')
    capsys.readouterr()
    code = main(["replay", "--jsonl", str(rec.path), "--floor-key", str(floor_private),
                 *(["--reveal-hole-cards"] if reveal else []), "--config", str(cfg)])
    out = capsys.readouterr().out
    assert code == 0
    return [json.loads(line) for line in out.splitlines()]


class Cut:
    """A TCP path to the broker that the test can cut (a firewall dropping the table) and mend."""

    def __init__(self, port: int) -> None:
        self.target = port
        self.port = free_port()
        self.open = True
        self._socks: list[socket.socket] = []
        self._server = socket.create_server(("127.0.0.1", self.port))
        threading.Thread(target=self._accept, daemon=True).start()

    def cut(self) -> None:
        self.open = False
        for s in self._socks:
            try:
                s.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
            s.close()
        self._socks = []

    def mend(self) -> None:
        self.open = True

    def close(self) -> None:
        self.cut()
        self._server.close()

    def _accept(self) -> None:
        while True:
            try:
                client, _ = self._server.accept()
            except OSError:
                return
            if not self.open:
                client.close()
                continue
            upstream = socket.create_connection(("127.0.0.1", self.target))
            self._socks += [client, upstream]
            for a, b in ((client, upstream), (upstream, client)):
                threading.Thread(target=self._pipe, args=(a, b), daemon=True).start()

    @staticmethod
    def _pipe(a: socket.socket, b: socket.socket) -> None:
        try:
            while data := a.recv(65536):
                b.sendall(data)
        except OSError:
            pass
        finally:
            for s in (a, b):
                try:
                    s.close()
                except OSError:
                    pass
