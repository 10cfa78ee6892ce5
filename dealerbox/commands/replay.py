"""``dealerbox replay LOG``: a recorded log or a scenario through the same decoder and engine as live.

``--jsonl`` prints one JSON object per table event (the contract in docs/table-events.md), hole cards
masked unless ``--reveal-hole-cards``; otherwise one readable line per event. Decoder counters go to
stderr at the end. A missing or unreadable file is one clear line and exit 2.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from typing import Any

from ..config import ConfigError
from ..pipeline import Pipeline
from ..sources import LogError, open_log
from ..sources.pacing import paced
from ..tags import EnrolmentError


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("log", metavar="LOG", help="a recorded log (its first part) or a scenario file (*.scn)")
    parser.add_argument("--jsonl", action="store_true", help="one JSON object per table event")
    parser.add_argument("--speed", type=float, default=0.0, metavar="X",
                        help="replay at X times recorded time (default: as fast as possible)")
    parser.add_argument("--reveal-hole-cards", action="store_true",
                        help="show hole cards in the output (audit use only)")


def run(args: argparse.Namespace, clock=time.monotonic, sleep=time.sleep) -> int:
    from ..sources.scenario import ScenarioError
    try:
        source = open_log(args.log)
        pipeline = Pipeline.from_header(source.header)
    except (LogError, ScenarioError, ConfigError, EnrolmentError, OSError) as e:
        print(f"dealerbox replay: {e}", file=sys.stderr)
        return 2
    out = sys.stdout
    for entry in paced(source, args.speed, clock=clock, sleep=sleep):
        for event in pipeline.feed(entry):
            if args.jsonl:
                out.write(json.dumps(event.to_dict(reveal=args.reveal_hole_cards), separators=(",", ":")) + "\n")
            else:
                out.write(describe(event.to_dict(reveal=args.reveal_hole_cards)) + "\n")
    out.flush()
    print("dealerbox replay: " + summary(pipeline, source), file=sys.stderr)
    if pipeline.decoder.refusal:
        print(f"dealerbox replay: {pipeline.decoder.refusal}", file=sys.stderr)
    return 0


def describe(event: dict[str, Any]) -> str:
    """``  12.500  h3  CardDealt  seat=4 card=None``: time, hand, kind, then the other fields."""
    rest = " ".join(f"{k}={_short(v)}" for k, v in event.items() if k not in ("event", "t", "hand"))
    hand = f"h{event['hand']}" if event.get("hand") is not None else "-"
    return f"{event.get('t', 0):9.3f}  {hand:>5}  {event['event']}  {rest}".rstrip()


def _short(value: Any) -> str:
    return value if isinstance(value, str) and " " not in value else json.dumps(value, separators=(",", ":"))


def summary(pipeline: Pipeline, source) -> str:
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
