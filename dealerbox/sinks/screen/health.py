"""What the health corner shows: the shell's health dict judged into ok / warn / bad, with one sentence.

The keys (filled by ``dealerbox run``; docs/screen.md lists them):

Either flat, or (as ``dealerbox run`` builds it) with the reader's keys under ``reader`` and
``connected`` for ``board_connected``.

- ``board_connected`` (bool): the reader board's serial link is up.
- ``heartbeat_age_s`` (float | None): seconds since the board's last heartbeat when the dict was made.
- ``seq_gaps``, ``frames_lost``, ``bad_crc``, ``garbage_bytes`` (int): the decoder's counters, as
  ``Pipeline.counters()`` names them (the whole dict may be spread in).
- ``faulty_readers`` (int): readers the board reports faulty in its last heartbeat.
- ``waiting`` (str): while the serial port cannot be opened, the sentence naming the port and what to do
  (plug in the cable, the udev rule, the dialout group); shown in place of the bare "disconnected".
- ``floor`` (dict | None): ``FloorLink.health()`` (``connected``, ``outbox_depth``, ``dropped``);
  None or missing when the floor link is off.
- ``source`` (str): "serial", "simulator" or "replay", shown small.
- ``memory_mb`` (float), ``disk_free_mb`` (float), ``log_days`` (int), ``outbox_depth`` (int): the terminal's
  own upkeep (its RSS, the free space where the log is written, how many days of log it keeps, the floor
  outbox's depth), shown as one line under the hand history; a disk nearly full or memory over budget is
  also an alert.

A missing key is "unknown" and never an alarm: the simulator has no heartbeat.
"""

from __future__ import annotations

from dataclasses import dataclass

HEARTBEAT_WARN_S = 2.5   # the board beats every second: two missed is worth a glance
HEARTBEAT_BAD_S = 5.0
GAP_WARN_S = 30.0        # a sequence gap stays on screen this long, then drops back to the small counter
OUTBOX_WARN = 1000
MEMORY_WARN_MB = 80.0    # the terminal's budget on a Pi 4
DISK_WARN_MB = 500.0     # a busy table writes some tens of MB a day: days left, not weeks
DISK_BAD_MB = 50.0       # the recorder is about to stop: the hand is still ruled, not recorded

LEVELS = ("ok", "warn", "bad")


@dataclass(frozen=True, slots=True)
class HealthView:
    level: str                       # "ok" | "warn" | "bad"
    board: str                       # short text for the corner: "1s", "down", "?"
    board_level: str
    floor: str                       # "ok", "down 12", "off"
    floor_level: str
    message: str = ""                # the sentence for the alert strip when level is not ok
    gaps: int = 0
    upkeep: str = ""                 # memory, disk left, log days, outbox depth: one line, when known


def _worse(a: str, b: str) -> str:
    return a if LEVELS.index(a) >= LEVELS.index(b) else b


class HealthMonitor:
    """Judges health dicts over time (a gap is news for a while, then just a count). Clock passed in."""

    def __init__(self) -> None:
        self._gaps = 0
        self._gap_seen_at: float | None = None

    def judge(self, health: dict, now: float, extra_age: float = 0.0) -> HealthView:
        """``extra_age``: seconds since ``health`` was made, added to the heartbeat age while nothing arrives."""
        messages: list[str] = []
        board_level, board = "ok", "?"
        reader = health.get("reader")
        if isinstance(reader, dict):  # the shell's nested form: {"reader": {...}, "floor": {...}}
            health = {**health, **{("board_connected" if k == "connected" else k): v for k, v in reader.items()}}
        connected = health.get("board_connected")
        age = health.get("heartbeat_age_s")
        waiting = health.get("waiting")
        if connected is False:
            board_level, board = "bad", "down"
            # while the port cannot even be opened, the dealer needs the fix, not just the symptom
            messages.append(waiting[:1].upper() + waiting[1:] if waiting
                            else "Reader board disconnected: table not read")
        elif age is not None:
            age = float(age) + extra_age
            board = f"{age:.0f}s"
            if age >= HEARTBEAT_BAD_S:
                board_level = "bad"
                messages.append(f"No heartbeat from the board for {age:.0f} s")
            elif age >= HEARTBEAT_WARN_S:
                board_level = "warn"
                messages.append(f"Board late: heartbeat {age:.0f} s ago")
        elif connected:
            board = "up"
        faulty = int(health.get("faulty_readers") or 0)
        if faulty:
            board_level = _worse(board_level, "warn")
            messages.append(f"{faulty} reader{'s' if faulty > 1 else ''} faulty")

        gaps = int(health.get("seq_gaps") or 0)
        if gaps > self._gaps:
            self._gap_seen_at = now
        self._gaps = gaps
        if self._gap_seen_at is not None and now - self._gap_seen_at < GAP_WARN_S:
            board_level = _worse(board_level, "warn")
            lost = int(health.get("frames_lost") or 0)
            messages.append(f"Sensor data lost ({gaps} gaps, {lost} frames): check the table")

        floor_level, floor = "off", "off"   # no floor link configured: a grey dot, never a green one
        link = health.get("floor")
        if isinstance(link, dict):
            floor_level = "ok"
            depth = int(link.get("outbox_depth") or 0)
            if link.get("connected"):
                floor = "ok" if depth == 0 else f"ok {depth}"
                if depth >= OUTBOX_WARN:
                    floor_level = "warn"
                    messages.append(f"Floor link slow: {depth} queued")
            else:
                floor_level, floor = "warn", f"down {depth}"
                messages.append(f"Floor link down: {depth} queued")
            age, limit = _number(link.get("oldest_unanchored_s")), _number(link.get("anchor_alert_min"))
            if age is not None and limit is not None and age > limit * 60:
                # the log since that head is evidence only the box holds: past the window, say so (docs/security.md)
                floor_level = "bad"
                messages.append(f"Evidence not on the floor for {age / 60:.0f} min (limit {limit:g}): call the floor")
            dropped = int(link.get("dropped") or 0)
            if dropped:   # the outbox filled and shed its least important rows; alerts are never among them
                floor_level = "warn"
                messages.append(f"Floor outbox full: {dropped} routine events dropped (alerts kept, floor told)")
        upkeep_level, upkeep = judge_upkeep(health, messages)
        level = _worse(_worse(board_level, "ok" if floor_level == "off" else floor_level), upkeep_level)
        return HealthView(level, board, board_level, floor, floor_level, "; ".join(messages), gaps, upkeep)


def _number(value: object) -> float | None:
    """A figure from the health dict, or None when it is missing or not a number (never an alarm)."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    return float(value)


def judge_upkeep(health: dict, messages: list[str]) -> tuple[str, str]:
    """(level, the upkeep line) from the terminal's own figures; alerts are added to ``messages``."""
    level, parts = "ok", []
    memory, disk = _number(health.get("memory_mb")), _number(health.get("disk_free_mb"))
    days, depth = _number(health.get("log_days")), _number(health.get("outbox_depth"))
    if memory is not None:
        parts.append(f"memory {memory:,.0f} MB")
        if memory > MEMORY_WARN_MB:
            level = "warn"
            messages.append(f"Memory high: {memory:,.0f} MB (budget {MEMORY_WARN_MB:.0f})")
    if disk is not None:
        parts.append(f"disk {disk:,.0f} MB free")
        if disk < DISK_BAD_MB:
            level = "bad"
            messages.append(f"Disk full: {disk:,.0f} MB left, the table log cannot be kept; call the floor")
        elif disk < DISK_WARN_MB:
            level = _worse(level, "warn")
            messages.append(f"Disk nearly full: {disk:,.0f} MB left")
    recorder = health.get("recorder")
    if isinstance(recorder, dict) and (recorder.get("last_error") or recorder.get("dropped")):
        level = "bad"   # the hand is still ruled and shown; what the log misses is said, with its count
        messages.append(f"Not recording: {recorder.get('buffered', 0)} records waiting, "
                        f"{recorder.get('dropped', 0)} lost; free space on the card")
    if days is not None:
        parts.append(f"logs {days:.0f} day{'' if days == 1 else 's'} kept")
    if depth is not None:
        parts.append(f"outbox {depth:,.0f}")
    return level, "   ".join(parts)
