"""``dealerbox enrol --port``: a dealer scanning a deck over the shoe of a live board (a real pty), the
command run as the dealer runs it (a subprocess), the deck file it writes checked card by card."""

from __future__ import annotations

import hashlib
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from dealerbox.tags import JOKERS, STANDARD_DECK, Deck, TagRegistry, load_enrolment
from dealerbox.wire import protocol as p
from tests.ctrl_c import as_from_a_shell
from tests.waiting import wait_until
from tests.conftest import scaled

ROOT = Path(__file__).resolve().parent.parent


def uid(i: int) -> bytes:
    return bytes.fromhex("04" + hashlib.sha256(f"live{i}".encode()).hexdigest()[:12])


def start_enrol(tmp_path: Path, *args: str) -> tuple[subprocess.Popen, Path]:
    err = tmp_path / "err.txt"
    with open(err, "w") as e:
        proc = subprocess.Popen([sys.executable, "-m", "dealerbox", "enrol", *args], cwd=tmp_path,
                                env={**os.environ, "PYTHONPATH": str(ROOT)}, stdout=subprocess.PIPE,
                                stderr=e, text=True, preexec_fn=as_from_a_shell)
    # The port is opened (and pyserial flushes what was pending) before the command says to scan.
    assert wait_until(lambda: "scanning on" in err.read_text() or proc.poll() is not None, scaled(60)), err.read_text()
    return proc, err


class Dealer:
    """The board's side of a scan: every card over the shoe antenna is an arrival, then a departure;
    heartbeats tick along; the bytes reach the host in chunks that do not respect frame boundaries."""

    def __init__(self, board) -> None:
        self.board, self.enc, self.pending = board, p.Encoder(), b""

    def send(self, *messages) -> None:
        self.pending += b"".join(self.enc.encode(m) for m in messages)
        while len(self.pending) > 7:  # odd-sized chunks, as USB delivers them
            self.board.write(self.pending[:7])
            self.pending = self.pending[7:]
        time.sleep(0.003)

    def flush(self) -> None:
        self.board.write(self.pending)
        self.pending = b""

    def present(self, tag: bytes, zone: int = p.ZONE_SHOE) -> None:
        self.send(p.TagArrived(zone, tag), p.TagLeft(zone, tag))


def test_a_deck_with_jokers_scanned_live_is_written_in_scan_order(tmp_path, pty_board):
    out = tmp_path / "D9.json"
    proc, err = start_enrol(tmp_path, "deck", "--deck-id", "D9", "--back", "blue", "--out", str(out),
                            "--port", str(pty_board.link), "--idle", "30")
    dealer = Dealer(pty_board)
    dealer.send(p.Hello(1, 0, (1, 0, 0), (0, 1, 13)))
    uids = [uid(i) for i in range(54)]
    for i, tag in enumerate(uids):
        dealer.present(tag)
        if i == 20:
            dealer.present(uid(999), zone=p.ZONE_SEAT_FIRST)  # the dealer's ring passed over seat 1
        if i % 10 == 0:
            dealer.send(p.Heartbeat(1000 * i, 1, 0))
    dealer.flush()
    stdout, _ = proc.communicate(timeout=scaled(20))  # the 54th card ends the scan: no idle wait
    assert proc.returncode == 0, err.read_text()
    assert "54 cards" in stdout and "1 tag(s) seen outside the shoe were ignored" in stdout
    deck = load_enrolment(out)
    assert isinstance(deck, Deck) and (deck.deck_id, deck.back) == ("D9", "blue")
    reg = TagRegistry([deck])
    assert [reg.lookup(t).card for t in uids] == list(STANDARD_DECK) + list(JOKERS)
    # The dealer saw each card named as it was read, so a slip is caught at the card, not at the end.
    progress = err.read_text()
    assert " 1/54 2c" in progress and "13/54 Ac" in progress and "54/54 X2" in progress


def test_a_deck_without_jokers_ends_after_the_idle_time_counted_from_the_last_card(tmp_path, pty_board):
    out = tmp_path / "D1.json"
    proc, err = start_enrol(tmp_path, "deck", "--deck-id", "D1", "--back", "red", "--out", str(out),
                            "--port", str(pty_board.link), "--idle", "1")
    time.sleep(1.5)  # the dealer is still fetching the deck: not yet an idle scan
    assert proc.poll() is None, err.read_text()
    dealer = Dealer(pty_board)
    uids = [uid(i) for i in range(52)]
    for tag in uids:
        dealer.present(tag)
    dealer.flush()
    done_at = time.monotonic()
    stdout, _ = proc.communicate(timeout=scaled(20))
    assert proc.returncode == 0, err.read_text()
    assert time.monotonic() - done_at >= 0.9  # waited the idle second after the last card
    assert "52 cards" in stdout
    reg = TagRegistry([load_enrolment(out)])
    assert [reg.lookup(t).card for t in uids] == list(STANDARD_DECK)


def test_a_card_presented_twice_live_writes_nothing(tmp_path, pty_board):
    out = tmp_path / "D2.json"
    proc, err = start_enrol(tmp_path, "deck", "--deck-id", "D2", "--back", "red", "--out", str(out),
                            "--port", str(pty_board.link), "--idle", "1")
    dealer = Dealer(pty_board)
    for i in list(range(10)) + [9] + list(range(10, 52)):  # the jack of clubs slipped back over the antenna
        dealer.present(uid(i))
    dealer.flush()
    proc.communicate(timeout=scaled(20))
    assert proc.returncode == 2 and "scanned twice" in err.read_text() and "Jc" in err.read_text()
    assert not out.exists()


def test_no_board_on_the_port_is_one_clear_line(tmp_path):
    missing = tmp_path / "dealerbox-reader"
    r = subprocess.run([sys.executable, "-m", "dealerbox", "enrol", "deck", "--deck-id", "D", "--back", "red",
                        "--out", str(tmp_path / "D.json"), "--port", str(missing)], cwd=tmp_path,
                       env={**os.environ, "PYTHONPATH": str(ROOT)}, capture_output=True, text=True, timeout=scaled(60))
    assert r.returncode == 2 and "Traceback" not in r.stderr
    assert f"no such port {missing}: is the reader board plugged in?" in r.stderr


def test_ctrl_c_while_scanning_writes_nothing_and_says_so(tmp_path, pty_board):
    out = tmp_path / "D3.json"
    proc, err = start_enrol(tmp_path, "deck", "--deck-id", "D3", "--back", "red", "--out", str(out),
                            "--port", str(pty_board.link))
    dealer = Dealer(pty_board)
    for i in range(5):
        dealer.present(uid(i))
    dealer.flush()
    assert wait_until(lambda: " 5/54" in err.read_text(), scaled(10)), err.read_text()
    proc.send_signal(signal.SIGINT)
    proc.communicate(timeout=scaled(20))
    said = err.read_text()
    assert proc.returncode == 130 and "Traceback" not in said and "nothing written" in said
    assert not out.exists()
