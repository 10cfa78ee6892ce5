"""Shared parts of the floor-witness tests (issue 29): a table's key enrolled on a real dashboard, a signed
recorder whose every head goes through a real floor link, a network cut that can be mended, and the
attacker's tool: rewrite a log's lines and re-sign them with the table's own key (root on the box has it)."""

from __future__ import annotations

import dataclasses
import json
import socket
import threading
from pathlib import Path

from dealerbox.config import RecordConfig
from dealerbox.dashboard import auth
from dealerbox.dashboard.anchors import AnchorStore
from dealerbox.dashboard.store import Store
from dealerbox.engine.inputs import DealerInput
from dealerbox.record.logformat import GENESIS, Header, Input, Rx, chain
from dealerbox.record.recorder import Recorder
from dealerbox.record.signing import Signer, generate, load_public, load_signer
from dealerbox.sinks.floor.link import FloorLink
from tests.dashboard.conftest import PASSWORD, Running, ShiftedClock
from tests.fixtures.broker import free_port
from tests.test_floor_contract import link_config

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
