"""``dealerbox replay LOG``: a recorded log or a scenario through the same decoder and engine as live.

``--jsonl`` prints one JSON object per table event (the contract in docs/table-events.md), hole cards
masked unless ``--reveal-hole-cards``; otherwise one readable line per event. Decoder counters go to
stderr at the end. A missing, empty, non-UTF-8 or non-log file is one clear line naming it and exit 2; a log
whose chain is broken or has damaged lines replays what is there, then names the first damaged line (as
``verify`` does) and exits 1, so a script never takes a tampered log for a clean replay.

A sealed log (record/sealing.py) replays without a key from its public events (the same ``--jsonl`` lines a
replay of its raw records prints, hole cards masked); with ``--floor-key`` its raw records replay exactly.
Revealing a recorded log's hole cards needs the floor's private key and is journalled and sent to the floor
(commands/floor_key.py); a scenario's cards are in its own text.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from ..config import ConfigError
from ..pipeline import Pipeline
from ..record.logformat import Public
from ..record.verify import verify_log
from ..sources import LogError, LogSource, open_log
from ..sources.pacing import paced
from ..tags import EnrolmentError
from .floor_key import add_floor_key, opener_for
from .inputs import scenario_without_steps


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("log", metavar="LOG", help="a recorded log (its first part) or a scenario file (*.scn)")
    parser.add_argument("--jsonl", action="store_true", help="one JSON object per table event")
    parser.add_argument("--speed", type=float, default=0.0, metavar="X",
                        help="replay at X times recorded time (default: as fast as possible)")
    parser.add_argument("--reveal-hole-cards", action="store_true",
                        help="show hole cards in the output: needs --floor-key, and is journalled and sent to the "
                             "floor (docs/security.md)")
    add_floor_key(parser)


def run(args: argparse.Namespace, clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], None] = time.sleep) -> int:
    from ..sources.scenario import ScenarioError
    problem = _not_a_log(args.log)
    if problem:
        print(f"dealerbox replay: {problem}", file=sys.stderr)
        return 2
    # A scenario's cards are written in the script itself; a recorded log's are real players' cards.
    opener, refused = opener_for("replay", getattr(args, "cfg", None), getattr(args, "floor_key", ""),
                                 [str(args.log)], args.reveal_hole_cards, "replay")
    if refused:
        return refused
    try:
        source = open_log(args.log, opener)
        pipeline = Pipeline.from_header(source.header)
    except (LogError, ScenarioError, ConfigError, EnrolmentError, OSError) as e:
        print(f"dealerbox replay: {e}", file=sys.stderr)
        return 2
    out = sys.stdout
    for entry in paced(source, args.speed, clock=clock, sleep=sleep):
        # a sealed log read without the floor's key: its events as the table ruled them, hole cards masked
        shown = [entry.e] if isinstance(entry, Public) else \
            [event.to_dict(reveal=args.reveal_hole_cards) for event in pipeline.feed(entry)]
        for event in shown:
            out.write((json.dumps(event, separators=(",", ":")) if args.jsonl else describe(event)) + "\n")
    out.flush()
    print("dealerbox replay: " + summary(pipeline, source), file=sys.stderr)
    if pipeline.decoder.refusal:
        print(f"dealerbox replay: {pipeline.decoder.refusal}", file=sys.stderr)
    if source.counters.get("chain_breaks") or source.counters.get("skipped_lines"):
        report = verify_log(args.log)
        where = report.problems[0] if report.problems else "a damaged line"
        print(f"dealerbox replay: the log is damaged or was edited: {where}; the events above are not evidence",
              file=sys.stderr)
        return 1
    if source.counters.get("partial_lines"):
        report = verify_log(args.log)
        where = report.partial_line or (report.problems[0] if report.problems else "its last line")
        print(f"dealerbox replay: the log was cut short: {where} (a power cut, or copied while recording); the "
              f"events above stop there", file=sys.stderr)
        return 1
    if not str(args.log).endswith(".scn") and not _closed(source.files()[-1]):
        print(f"dealerbox replay: {source.files()[-1]}: no closing record: the recorder did not stop cleanly (a "
              f"power cut), the end was cut off, or it is still recording; run dealerbox verify {args.log}",
              file=sys.stderr)
        return 1
    return 0


_TAIL = 1 << 16   # the closing record and the signatures after it fit in the last 64 KiB of a part


def _closed(last_part: Path) -> bool:
    """Whether a log's last part ends with its closing record (signature lines may follow it)."""
    try:
        with open(last_part, "rb") as fh:
            fh.seek(0, 2)
            size = fh.tell()
            fh.seek(max(0, size - _TAIL))
            tail = fh.read()
    except OSError:
        return False
    for line in reversed(tail.splitlines()):
        if b'"k":"sig"' in line.replace(b" ", b""):
            continue
        return b'"k":"closed"' in line.replace(b" ", b"")
    return False


def _not_a_log(path: str) -> str:
    """Why ``path`` cannot be replayed at all, naming file and line, or "" (the reader judges the rest)."""
    scenario = str(path).endswith(".scn")
    try:
        with open(path, "rb") as fh:
            text = fh.read() if scenario else fh.readline()
    except OSError:
        return ""  # open_log says what is wrong with the path
    if scenario:
        try:
            text.decode("utf-8")
        except UnicodeDecodeError as e:
            line = text[:e.start].count(b"\n") + 1
            return f"{path} line {line}: not UTF-8 text, not a scenario; save it as UTF-8 (docs/scenarios.md)"
        return scenario_without_steps(path)
    if not text:
        return f"{path} line 1: empty file, not a recorded log (nothing was recorded, or it was emptied)"
    try:
        text.decode("utf-8")
    except UnicodeDecodeError as e:
        return f"{path} line 1: not UTF-8 text (byte {e.start + 1}), not a recorded log"
    return ""


def describe(event: dict[str, Any]) -> str:
    """``  12.500  h3  CardDealt  seat=4 card=None``: time, hand, kind, then the other fields."""
    rest = " ".join(f"{k}={_short(v)}" for k, v in event.items() if k not in ("event", "t", "hand"))
    hand = f"h{event['hand']}" if event.get("hand") is not None else "-"
    return f"{event.get('t', 0):9.3f}  {hand:>5}  {event['event']}  {rest}".rstrip()


def _short(value: Any) -> str:
    return value if isinstance(value, str) and " " not in value else json.dumps(value, separators=(",", ":"))


def summary(pipeline: Pipeline, source: LogSource) -> str:
    c = pipeline.counters()
    damage = {k: v for k, v in c.items() if v and k not in ("frames", "bytes")}
    log = {k: v for k, v in source.counters.items() if v and k in ("skipped_lines", "partial_lines", "chain_breaks")}
    parts = f", {source.counters['parts']} parts" if source.counters.get("parts", 0) > 1 else ""
    text = f"{source.counters['records']} records{parts}, {c['frames']} frames, {c['bytes']} bytes"
    if damage:
        text += "; " + ", ".join(f"{k}={v}" for k, v in damage.items())
    if log:
        text += "; log: " + ", ".join(f"{k}={v}" for k, v in log.items())
        if log.get("chain_breaks"):
            text += " (run dealerbox verify to see where)"
    return text
