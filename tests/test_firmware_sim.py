"""The physical path, simulated: the real firmware ELF runs under simavr (firmware/build/dealerbox-sim) with
its UART on a pseudo-terminal, simulated MFRC522 readers (card zones) and PN5180 readers with their BUSY
lines (chip zones: stacks of ICODE chips) on its SPI bus, driven by a script of tags.
dealerbox reads the pty through its ordinary serial path and decodes what the board says; the scripted hand
then goes through the Pipeline (decoder, registry, engine) to a finding.

Nothing of ours is mocked: the bytes are produced by the AVR code that would be flashed on the board.
"""

from __future__ import annotations

import hashlib
import queue
import re
import subprocess
import threading
import time
from pathlib import Path

import pytest

from dealerbox.record.logformat import Rx

from dealerbox.config import Config
from dealerbox.engine import inputs as ev
from dealerbox.engine.events import FindingRaised
from dealerbox.pipeline import Pipeline
from dealerbox.tags import ChipSet, TagRegistry, demo_registry
from dealerbox.wire import protocol as p
from dealerbox.wire.decoder import FrameDecoder
from tests.conftest import scaled

try:  # engineer W's serial source; until it lands, pyserial on the same pty
    from dealerbox.sources.serial_port import SerialSource
except ImportError:  # pragma: no cover - depends on the order the team's work lands
    SerialSource = None

ROOT = Path(__file__).resolve().parent.parent
FIRMWARE = ROOT / "firmware"
ELF = FIRMWARE / "build" / "dealerbox.elf"
SIM = FIRMWARE / "build" / "dealerbox-sim"

# reader index -> zone, as wired in firmware/src/board.h
READER_ZONES = [0, *range(1, 11), 11, 12, 13, *range(21, 31), 31]
SHOE, MUCK = 0, 13  # reader numbers


def SEAT(n: int) -> int:  # a reader number, named like the constants beside it
    return n


def BET(n: int) -> int:  # a reader number, named like the constants beside it
    return 13 + n  # bet1 is reader 14


# the goal: measured ≈ 262-280 ms with the ten PN5180s scanning side by side and a 20 us BUSY (2.5 s when
# they were read one after the other); the figure is in AVR cycles, so the machine's load does not move it
SWEEP_BUDGET_MS = 300


@pytest.fixture(scope="session")
def firmware_sim() -> Path:
    """Build the firmware and the simulator harness once (tools/test has built them already)."""
    result = subprocess.run(["make", "-s", "-C", str(FIRMWARE), "all"], capture_output=True, text=True)
    assert result.returncode == 0, (
        f"`make -C firmware all` failed (needs gcc-avr avr-libc simavr libsimavr-dev; tools/test installs "
        f"them):\n{result.stdout}\n{result.stderr}")
    assert ELF.exists() and SIM.exists()
    return SIM


class SimulatedBoard:
    """The harness process plus a reader on its pty: collects (t, bytes) as the host would see them."""

    def __init__(self, script: str, tmp_path: Path, realtime: bool = False) -> None:
        path = tmp_path / "tags.script"
        path.write_text(script)
        args = [str(SIM), "--hold", "--script", str(path), str(ELF)]
        if realtime:
            args.insert(1, "--realtime")
        self.proc = subprocess.Popen(args, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE, text=True)
        self.port = self._wait_for("pty ").split()[1]
        self.chunks: list[tuple[float, bytes]] = []
        self.done = threading.Event()
        self._source = None
        self._serial = None
        self._stop = threading.Event()
        if SerialSource is not None:
            self._source = SerialSource(self.port, 115200)
            self._source.start()
        else:
            import serial
            self._serial = serial.Serial(self.port, 115200, timeout=0.05)
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()
        threading.Thread(target=self._watch, daemon=True).start()
        time.sleep(scaled(0.2))  # the port is open and being read before the CPU starts: HELLO cannot be lost
        self.proc.stdin.write("go\n")
        self.proc.stdin.flush()

    def _wait_for(self, prefix: str) -> str:
        for line in self.proc.stdout:
            if line.startswith(prefix):
                return line.strip()
        raise AssertionError(f"dealerbox-sim ended without printing {prefix!r}: {self.proc.stderr.read()}")

    def _watch(self) -> None:
        self._wait_for("done")
        self.done.set()

    def _read(self) -> None:
        while not self._stop.is_set():
            if self._source is not None:
                try:
                    entry = self._source.entries.get(timeout=scaled(0.05))
                except queue.Empty:
                    continue
                # Only what the board sent: the source also logs our own commands as Tx records.
                data = entry.data if isinstance(entry, Rx) else None
                if data:
                    self.chunks.append((entry.t, bytes(data)))
            else:
                data = self._serial.read(4096)
                if data:
                    self.chunks.append((time.monotonic(), data))

    def send(self, message: p.Message) -> None:
        if self._source is not None:
            self._source.send(message)
        else:
            self._serial.write(p.encode_frame(0, message))

    def finish(self, timeout: float = scaled(60.0)) -> list[tuple[float, bytes]]:
        """Wait for the script's end, drain the port, stop everything; returns the received chunks."""
        assert self.done.wait(timeout), "the simulation did not reach the end of its script in time"
        time.sleep(scaled(0.3))
        self.close()
        return self.chunks

    def close(self) -> None:
        self._stop.set()
        self._reader.join(scaled(2))
        if self._source is not None:
            self._source.stop()
        if self._serial is not None:
            self._serial.close()
        if self.proc.poll() is None:
            self.proc.stdin.close()
            try:
                self.proc.wait(scaled(5))
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self.stderr = self.proc.stderr.read()
        self.proc.stderr.close()
        self.proc.stdout.close()


@pytest.fixture
def board(firmware_sim, tmp_path):
    boards: list[SimulatedBoard] = []

    def start(script: str, realtime: bool = False) -> SimulatedBoard:
        b = SimulatedBoard(script, tmp_path, realtime)
        boards.append(b)
        return b

    yield start
    for b in boards:
        if b.proc.poll() is None or not b._stop.is_set():
            b.close()


def decode(chunks: list[tuple[float, bytes]]) -> tuple[list[p.Frame], FrameDecoder]:
    decoder = FrameDecoder()
    frames = [f for _, data in chunks for f in decoder.feed(data)]
    return frames, decoder


def assert_clean(decoder: FrameDecoder) -> None:
    c = decoder.counters
    damage = {k: v for k, v in c.as_dict().items() if k not in ("frames", "bytes") and v}
    assert not damage, f"the firmware's stream had damage or gaps: {damage}"


def test_hello_then_heartbeats_arrive_decoded(board):
    sim = board("2600 end\n")
    frames, decoder = decode(sim.finish())
    assert_clean(decoder)
    hello = frames[0].message
    assert frames[0].seq == 0
    assert hello == p.Hello(p.PROTOCOL_VERSION_MAJOR, p.PROTOCOL_VERSION_MINOR, (2, 2, 0), tuple(READER_ZONES))
    beats = [f.message for f in frames if isinstance(f.message, p.Heartbeat)]
    assert len(beats) == 2, frames
    assert [b.tags_present for b in beats] == [0, 0]
    assert [b.faulty_readers for b in beats] == [0, 0]
    assert 950 <= beats[0].uptime_ms <= 1150 and 950 <= beats[1].uptime_ms - beats[0].uptime_ms <= 1150
    assert [f.seq for f in frames] == list(range(len(frames)))


def test_host_commands_reach_the_firmware(board):
    sim = board("3000 end\n", realtime=True)
    deadline = time.monotonic() + scaled(5)
    while not any(b"\x00" in data for _, data in sim.chunks):  # the HELLO is in
        assert time.monotonic() < deadline, "no HELLO from the simulated board"
        time.sleep(0.02)
    sim.send(p.CmdHeartbeatPeriod(200))
    time.sleep(scaled(0.6))
    sim.send(p.CmdHello())
    frames, decoder = decode(sim.finish())
    assert_clean(decoder)
    beats = [f.message.uptime_ms for f in frames if isinstance(f.message, p.Heartbeat)]
    gaps = [b - a for a, b in zip(beats, beats[1:], strict=False)]
    assert len(beats) >= 6 and sum(1 for g in gaps if 190 <= g <= 260) >= 4, beats
    hellos = [i for i, f in enumerate(frames) if isinstance(f.message, p.Hello)]
    assert len(hellos) == 2 and frames[hellos[1]].seq == 0  # CMD_HELLO: HELLO again, numbering restarts


def test_reader_faults_are_reported_and_recover(board):
    script = """
    100 mute 13          # muck reader unplugged
    1800 unmute 13
    100 stick 20         # bet7's PN5180 hangs: BUSY stays high
    4800 end             # a faulty reader is retried every 8 sweeps; a hung PN5180 costs each sweep 10 ms
    """
    frames, decoder = decode(board(script).finish())
    assert_clean(decoder)
    faults = [f.message for f in frames if isinstance(f.message, p.ReaderFault)]
    assert p.ReaderFault(13, p.ZONE_MUCK, p.FAULT_NO_ANSWER) in faults
    assert p.ReaderFault(20, 27, p.FAULT_COMM_ERROR) in faults
    assert faults.index(p.ReaderFault(13, p.ZONE_MUCK, p.FAULT_NO_ANSWER)) < faults.index(
        p.ReaderFault(13, p.ZONE_MUCK, p.FAULT_RECOVERED))
    assert p.ReaderFault(20, 27, p.FAULT_RECOVERED) not in faults
    masks = [f.message.faulty_readers for f in frames if isinstance(f.message, p.Heartbeat)]
    assert masks[0] == (1 << 13) | (1 << 20)  # at 1 s both are out
    assert masks[-1] == 1 << 20               # at 4 s the muck reader is back


def test_a_pn5180_unplugged_and_plugged_back_is_a_fault_then_recovered(board):
    """bet9's PN5180 drops off the bus (BUSY held low, MISO high) in the middle of the scans: the driver tells it
    by its all-ones answers, not by BUSY, so the board reports FAULT_NO_ANSWER, keeps its chips (no TAG_LEFT),
    and FAULT_RECOVERED once it is back and read again."""
    chip_uid = icode("unplug", 1)
    script = f"100 add {BET(9)} {chip_uid}\n600 mute {BET(9)}\n1600 unmute {BET(9)}\n3000 end\n"
    frames, decoder = decode(board(script).finish())
    assert_clean(decoder)
    msgs = [f.message for f in frames]
    faults = [m for m in msgs if isinstance(m, p.ReaderFault)]
    assert faults == [p.ReaderFault(BET(9), 29, p.FAULT_NO_ANSWER), p.ReaderFault(BET(9), 29, p.FAULT_RECOVERED)]
    assert p.TagArrived(29, bytes.fromhex(chip_uid), p.TECH_ISO15693) in msgs
    assert not [m for m in msgs if isinstance(m, (p.TagLeft, p.ZoneInventory))]


def icode(*parts: object) -> str:
    """An ICODE SLIX chip's UID (8 bytes, E0 = ISO 15693, 04 = NXP), the tag a chip zone's PN5180 reads."""
    return "e004" + hashlib.sha256("/".join(map(str, parts)).encode()).hexdigest()[:12]


def stack_registry() -> TagRegistry:
    """The demo decks and markers, with the house's chips as ICODE inlays: 100 of each value."""
    demo = demo_registry()
    house = demo.chips_of("DEMO")
    chips = {icode("chip", v, i): v for v in (1, 5, 25, 100) for i in range(100)}
    return TagRegistry(demo.decks, [ChipSet("DEMO", chips, house.markers)])


def chips_of_value(reg: TagRegistry, value: int, n: int, skip: int = 0) -> list[str]:
    return [uid for uid, v in reg.chips_of("DEMO").chips.items() if v == value][skip:skip + n]


def hand_script() -> tuple[str, dict]:
    """A full red deck on the muck's antenna (all 54 tags in one field), taken into the shoe; the button on
    seat 3, blinds in bet1/bet2, then a deal through the shoe's mouth with two boxed cards (Misdeals 1(c)) and
    a card of the blue deck arriving on the board."""
    reg = stack_registry()
    red, blue, chips = reg.deck("DEMO-1"), reg.deck("DEMO-2"), reg.chips_of("DEMO")
    button = next(uid for uid, kind in chips.markers.items() if kind == "button")
    ones = chips_of_value(reg, 1, 3)
    lines = [f"10 add {MUCK} {uid}" for uid in red.cards] + [f"900 remove {MUCK} {uid}" for uid in red.cards]
    lines += [f"20 add {SEAT(3)} {button}",
              f"800 add {BET(1)} {ones[0]}",
              f"800 add {BET(2)} {ones[1]}",
              f"800 add {BET(2)} {ones[2]}"]
    deals = [("up", 1, "Ah"), ("down", 2, "7c"), ("up", 3, "Kd"), ("down", 1, "2s")]
    t = 1400
    for face, seat, card in deals:
        lines.append(f"{t} pass {face} {SEAT(seat)} {red.uid_of(card)}")
        t += 350
    lines.append(f"{t} add {11} {blue.uid_of('As')}")
    lines.append(f"{t + 1500} end")  # a heartbeat after the board card's sweep (~330 ms)
    return "\n".join(lines) + "\n", {"red": red, "blue": blue, "deals": deals, "button": button, "ones": ones}


def test_scripted_hand_goes_through_firmware_uart_and_decoder(board):
    script, facts = hand_script()
    chunks = board(script, realtime=True).finish()
    frames, decoder = decode(chunks)
    assert_clean(decoder)
    msgs = [f.message for f in frames]
    red = facts["red"]
    muck_in = {m.uid.hex() for m in msgs if isinstance(m, p.TagArrived) and m.zone == p.ZONE_MUCK}
    assert muck_in == set(red.cards)  # all 54 tags of one field found through real anticollision
    assert not [m for m in msgs if isinstance(m, p.TagArrived) and m.zone == p.ZONE_SHOE]  # read at the mouth
    assert p.TagArrived(3, bytes.fromhex(facts["button"])) in msgs
    # blinds: ICODE chips read by the bet zones' PN5180s
    for zone, uid in zip((21, 22, 22), facts["ones"], strict=False):
        assert p.TagArrived(zone, bytes.fromhex(uid), p.TECH_ISO15693) in msgs
    for face, seat, card in facts["deals"]:
        uid = bytes.fromhex(red.uid_of(card))
        face_at = msgs.index(p.CardFace(p.ZONE_SHOE, face == "up", uid))
        left_at = msgs.index(p.TagLeft(p.ZONE_SHOE, uid))
        arrived_at = msgs.index(p.TagArrived(seat, uid))
        assert face_at == left_at - 1, f"{card}: CARD_FACE must come just before its TAG_LEFT"
        assert left_at < arrived_at, f"{card}: the host must hear it leave the shoe before it reaches seat {seat}"
    assert p.TagArrived(p.ZONE_BOARD, bytes.fromhex(facts["blue"].uid_of("As"))) in msgs
    beats = [m for m in msgs if isinstance(m, p.Heartbeat)]
    assert beats[-1].tags_present == 1 + 3 + 4 + 1 and beats[-1].faulty_readers == 0

    # The same bytes through the pipeline the terminal runs: registry lookups and the engine.
    pipe = Pipeline(Config(), stack_registry())
    t0 = chunks[0][0]
    for seat in (1, 2, 3):
        pipe.feed_input(ev.DealerInput(t0, "sit", seat=seat, amount=200))
    events = [e for t, data in chunks for e in pipe.feed_bytes(t, data)]
    kinds = [e.kind for e in events]
    assert "BoardConnected" in kinds
    assert pipe.unknown_tags == 0  # every UID the firmware reported is enrolled
    rules = [e.rule for e in events if isinstance(e, FindingRaised)]
    assert "misdeal.1c" in rules, f"two boxed cards should be a misdeal; findings: {rules}"


def test_a_card_present_but_unreadable_is_its_own_state_never_a_departure(board):
    """The firmware reports a zone whose tag answers but never reads as unreadable (protocol 2.0), keeps the
    card it last read there (no TAG_LEFT: not a fold, not a missing card), and says when it reads again."""
    uid = "04aabbccddee01"
    sim = board(f"100 add 3 {uid}\n800 garble 3\n1800 ungarble 3\n2600 end\n")
    frames, decoder = decode(sim.finish())
    assert_clean(decoder)
    seat3 = [f.message for f in frames
             if isinstance(f.message, (p.TagArrived, p.TagLeft, p.ZoneInventory)) and f.message.zone == 3]
    assert seat3 == [p.TagArrived(3, bytes.fromhex(uid), p.TECH_ISO14443A),
                     p.ZoneInventory(3, p.ZONE_READ_UNREADABLE, 0),
                     p.ZoneInventory(3, p.ZONE_READ_COMPLETE, 1)]


def test_an_inventory_request_repeats_the_zones_that_are_not_complete(board):
    uid = bytes.fromhex("04aabbccddee02")
    # garbled between two polls of seat3: a poll that read the card and then only bad frames says "uncertain"
    sim = board(f"100 add 3 {uid.hex()}\n500 garble 3\n3000 end\n", realtime=True)
    unreadable = p.ZoneInventory(3, p.ZONE_READ_UNREADABLE, 0)
    deadline = time.monotonic() + scaled(5)
    while unreadable not in [f.message for f in decode(list(sim.chunks))[0]]:
        assert time.monotonic() < deadline, "the firmware never reported seat3 unreadable"
        time.sleep(0.05)
    sim.send(p.CmdInventory())  # what a host sends after reconnecting
    frames, decoder = decode(sim.finish())
    assert_clean(decoder)
    seat3 = [f.message for f in frames
             if isinstance(f.message, (p.TagArrived, p.TagLeft, p.ZoneInventory)) and f.message.zone == 3]
    assert seat3 == [p.TagArrived(3, uid), unreadable, p.TagArrived(3, uid), unreadable]
    assert not [f for f in frames if isinstance(f.message, p.ZoneInventory) and f.message.zone != 3]


def stack_hand_script(stack: list[str], limit: int = 0) -> tuple[str, float]:
    """Seats 1-3, button on seat 3, blinds 1/2 in bet1/bet2 (ICODE chips), six cards dealt face down, then
    seat 3 (first to act) pushes `stack` into bet3 in one motion; bet3's PN5180 reads `limit` chips per field
    (0: all). Returns the script and the time of the stack, in seconds."""
    reg = stack_registry()
    red, chips = reg.deck("DEMO-1"), reg.chips_of("DEMO")
    button = next(uid for uid, kind in chips.markers.items() if kind == "button")
    ones = chips_of_value(reg, 1, 3)
    lines = [f"20 add {SEAT(3)} {button}", f"800 add {BET(1)} {ones[0]}",
              f"800 add {BET(2)} {ones[1]}", f"800 add {BET(2)} {ones[2]}"]
    if limit:
        lines.append(f"20 limit {BET(3)} {limit}")
    t = 1400
    for i, card in enumerate(["2c", "3c", "4c", "5d", "6d", "7d"]):
        lines.append(f"{t} pass down {SEAT(1 + i % 3)} {red.uid_of(card)}")
        t += 350
    t += 600
    lines += [f"{t} add {BET(3)} {uid}" for uid in stack]
    lines.append(f"{t + 2500} end")
    return "\n".join(lines) + "\n", t / 1000


def through_pipeline(chunks: list[tuple[float, bytes]]) -> tuple[Pipeline, list]:
    pipe = Pipeline(Config(), stack_registry())
    for seat in (1, 2, 3):
        pipe.feed_input(ev.DealerInput(chunks[0][0], "sit", seat=seat, amount=200))
    return pipe, [e for t, data in chunks for e in pipe.feed_bytes(t, data)]


def test_a_stack_of_20_chips_in_a_bet_zone_is_the_bet_of_its_value(board):
    """20 ICODE chips of 5 land in bet3 at once: the PN5180 driver in the firmware reads the whole stack
    (16-slot inventory through collisions, BUSY honoured), the UART carries 20 TAG_ARRIVED (ISO 15693, 8-byte
    UIDs) and a complete read, and the engine sees seat 3 raise to 100."""
    stack = chips_of_value(stack_registry(), 5, 20)
    script, _ = stack_hand_script(stack)
    sim = board(script, realtime=True)
    chunks = sim.finish()
    frames, decoder = decode(chunks)
    assert_clean(decoder)
    msgs = [f.message for f in frames]
    bet3 = {m.uid.hex() for m in msgs if isinstance(m, p.TagArrived) and m.zone == 23}
    assert bet3 == set(stack)
    assert all(m.tech == p.TECH_ISO15693 for m in msgs if isinstance(m, p.TagArrived) and m.zone == 23)
    assert not [m for m in msgs if isinstance(m, p.ZoneInventory)]  # every read complete: nothing to say
    assert "0 BUSY violations" in sim.stderr
    pipe, events = through_pipeline(chunks)
    assert pipe.unknown_tags == 0
    actions = [(e.seat, e.action, e.total) for e in events if e.kind == "ActionTaken"]
    assert (3, "raise", 100) in actions, actions
    assert pipe.engine.snapshot().question is None


def test_a_stack_of_30_on_a_reader_limited_to_14_is_uncertain_and_the_dealer_is_asked(board):
    """30 chips on a PN5180 whose antenna reads 14 per field: the firmware proves 14, says the zone's read is
    uncertain (never a smaller, certain total), and the engine asks the dealer to confirm the amount."""
    stack = chips_of_value(stack_registry(), 5, 30)
    script, _ = stack_hand_script(stack, limit=14)
    chunks = board(script, realtime=True).finish()
    frames, decoder = decode(chunks)
    assert_clean(decoder)
    msgs = [f.message for f in frames]
    read = [m for m in msgs if isinstance(m, p.TagArrived) and m.zone == 23]
    assert len(read) == 14 and {m.uid.hex() for m in read} <= set(stack)
    assert p.ZoneInventory(23, p.ZONE_READ_UNCERTAIN, 14) in msgs
    assert not [m for m in msgs if isinstance(m, p.TagLeft) and m.zone == 23]  # an unproven chip never leaves
    pipe, events = through_pipeline(chunks)
    advisory = [e for e in events if e.kind == "FindingRaised" and "advisory" in e.ruling]
    assert advisory and "at least 14 chips" in advisory[0].ruling and advisory[0].seats == (3,)
    q = pipe.engine.snapshot().question
    assert q is not None and q.seat == 3 and "bet3" in q.text and "Is the amount 70?" in q.text
    assert [k for k, _ in q.answers] == ["confirm", "recount"]


def test_a_sweep_of_ten_bet_zones_of_20_chips_is_counted_in_cycles(board):
    """The harness counts AVR cycles from the first bet field on to the last one off, each exchange ending
    with the IRQ line after its air time: the figure in hardware/chip-stacks.md, firmware/README.md and
    `bench/run --only firmware`. The ten scans run side by side: the fields are on together."""
    lines = [f"100 add {BET(z)} {icode('sweep', z, i)}" for z in range(1, 11) for i in range(20)]
    sim = board("\n".join(lines) + "\n3000 end\n", realtime=True)
    frames, decoder = decode(sim.finish())
    assert_clean(decoder)
    arrived = [m for m in (f.message for f in frames) if isinstance(m, p.TagArrived)]
    assert len(arrived) == 200 and {m.zone for m in arrived} == set(range(21, 31))
    stats = re.search(r"bet sweeps (\d+), last (\d+) cycles \(([\d.]+) ms\), worst (\d+) cycles", sim.stderr)
    assert stats, sim.stderr
    assert int(stats[1]) >= 2 and "0 BUSY violations" in sim.stderr
    print(f"\nsweep of 10 bet zones x 20 chips: {stats[2]} cycles = {stats[3]} ms (worst {stats[4]} cycles)")
    assert float(stats[3]) < SWEEP_BUDGET_MS
    assert int(stats[4]) < 2_500 * 16_000  # even the sweep in which all 200 arrive: far below zone after zone


def test_a_chip_that_never_finishes_its_reply_makes_its_zone_unreadable_not_faulty(board):
    """A chip in bet5 begins its reply and never ends it (the PN5180 sees a start of frame, then nothing):
    the driver's wait for the IRQ times out, the zone is reported unreadable (no reader fault, no chip
    leaving), the other zones' scans are not held up, and the zone reads complete again once it answers."""
    uid, other = icode("stall", 1), icode("stall", 2)
    script = (f"100 add {BET(5)} {uid}\n100 add {BET(6)} {other}\n600 stall {BET(5)}\n"
              f"1600 unstall {BET(5)}\n2400 end\n")
    frames, decoder = decode(board(script).finish())
    assert_clean(decoder)
    msgs = [f.message for f in frames]
    bet5 = [m for m in msgs if isinstance(m, (p.TagArrived, p.TagLeft, p.ZoneInventory)) and m.zone == 25]
    assert bet5 == [p.TagArrived(25, bytes.fromhex(uid), p.TECH_ISO15693),
                    p.ZoneInventory(25, p.ZONE_READ_UNREADABLE, 0),
                    p.ZoneInventory(25, p.ZONE_READ_COMPLETE, 1)]
    assert p.TagArrived(26, bytes.fromhex(other), p.TECH_ISO15693) in msgs
    assert not [m for m in msgs if isinstance(m, (p.ReaderFault, p.TagLeft))]


def test_a_shoe_read_at_its_mouth_reports_each_card_as_it_passes(board):
    """The shoe's antenna is a small loop at its mouth, not around the stack: the deck in the shoe is never in
    its field, each card only for the 25 ms it takes to slide out. The firmware polls the shoe reader while the
    mouth's beam is blocked, so every card is read in passing and reported in the order of a deal: its face,
    left the shoe, arrived at the seat (a card at the mouth is leaving: no TAG_ARRIVED for the shoe). The
    engine sees the deal (two boxed cards: a misdeal) with no card of the stub ever read."""
    reg = stack_registry()
    red, chips = reg.deck("DEMO-1"), reg.chips_of("DEMO")
    button = next(uid for uid, kind in chips.markers.items() if kind == "button")
    ones = chips_of_value(reg, 1, 3)
    deals = [("up", 1, "Ah"), ("down", 2, "7c"), ("up", 3, "Kd"), ("down", 1, "2s"), ("down", 2, "9h")]
    lines = [f"20 add {SEAT(3)} {button}", f"800 add {BET(1)} {ones[0]}", f"800 add {BET(2)} {ones[1]}",
             f"800 add {BET(2)} {ones[2]}"]
    t = 1400
    for face, seat, card in deals:
        lines.append(f"{t} pass {face} {SEAT(seat)} {red.uid_of(card)}")
        t += 400
    chunks = board("\n".join(lines + [f"{t + 800} end"]) + "\n", realtime=True).finish()
    frames, decoder = decode(chunks)
    assert_clean(decoder)
    msgs = [f.message for f in frames]
    for face, seat, card in deals:
        uid = bytes.fromhex(red.uid_of(card))
        mine = [m for m in msgs if getattr(m, "uid", None) == uid]
        assert mine == [p.CardFace(p.ZONE_SHOE, face == "up", uid), p.TagLeft(p.ZONE_SHOE, uid),
                        p.TagArrived(seat, uid)], f"{card}: {mine}"
    assert len([m for m in msgs if isinstance(m, p.TagLeft) and m.zone == p.ZONE_SHOE]) == len(deals)
    pipe, events = through_pipeline(chunks)
    assert pipe.unknown_tags == 0
    assert "misdeal.1c" in [e.rule for e in events if isinstance(e, FindingRaised)]
