"""The anchor: one signed head of the table's log, as the floor keeps it (topic ``dealerbox/<site>/<table>/anchor``).

A copy off the table is what makes a cut or rewritten log provable: whoever holds the box can delete lines
and re-hash, but cannot unpublish what the floor already saw. Every signed head is one anchor (the link
sends them all through its durable outbox, in order); each names the log's identity (its id and place in
the table's sequence of logs, never a file name) and its own place in the table's chain of anchors (``a``,
``prev``), signed by the table (``asig``), so the floor refuses a replayed old head or a missing one
(dealerbox/dashboard/anchors.py). Payload schema: ``dealerbox/schemas/floor/anchor.json``; ``dealerbox verify
--anchors/--from-floor`` reads them back.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

import jsonschema

ANCHOR_VERSION = 3              # 3 names the hands (``hands``); the floor still reads version 2 (without them)
ANCHOR_FIELDS = ("table", "log", "seq", "origin", "part", "n", "head", "sig", "key", "t", "at", "a", "prev", "asig")


def anchor_topic(site: str, table: str) -> str:
    return f"dealerbox/{site}/{table}/anchor"


@cache
def _validator() -> jsonschema.Draft202012Validator:
    text = resources.files("dealerbox.schemas").joinpath("floor").joinpath("anchor.json").read_text()
    return jsonschema.Draft202012Validator(json.loads(text))


def anchor_message(site: str, anchor: dict[str, Any], window_min: float | None = None) -> dict[str, Any]:
    """The payload of one signed head (``Recorder.anchor`` or what ``Recorder.on_anchor`` is handed)."""
    payload = {"v": ANCHOR_VERSION if "hands" in anchor else 2, "kind": "anchor",
               "site": str(anchor.get("site") or site), **{k: anchor[k] for k in ANCHOR_FIELDS}}
    if "hands" in anchor:
        payload["hands"] = [int(h) for h in anchor["hands"]]
    if window_min is not None:
        payload["window_min"] = window_min
    _validator().validate(payload)
    return payload


def anchor_payload(site: str, health: dict[str, Any] | None) -> dict[str, Any] | None:
    """The payload of the latest signed head in a terminal's health (``recorder.anchor``), or None when unsigned."""
    recorder = (health or {}).get("recorder")
    anchor = recorder.get("anchor") if isinstance(recorder, dict) else None
    return anchor_message(site, anchor) if isinstance(anchor, dict) else None


def anchor_errors(payload: object) -> list[str]:
    """What is wrong with a received anchor (empty when it is valid)."""
    return [f"{'.'.join(map(str, e.absolute_path)) or '(top level)'}: {e.message}"
            for e in _validator().iter_errors(payload)]


def log_identity(path: str) -> tuple[str, str, str, int] | None:
    """(site, table, log id, place) from a log's header, or None when it names no identity (or is unreadable)."""
    try:
        with open(path, "rb") as f:
            header = json.loads(f.readline())
        table, log = header["config"]["table"], header["log"]
        return str(table.get("site") or "demo"), str(table["id"]), str(log["id"]), int(log.get("seq", 0))
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return None


def missing_logs(anchors: list[dict[str, Any]], handed_in: set[tuple[str, str, str]]) -> list[dict[str, Any]]:
    """Logs the floor anchored that are not among ``handed_in`` ((site, table, log id)), and places in a table's
    sequence of logs the floor never saw (log ``?``, no heads): a missing log is evidence too. One row per log:
    site, table, log, seq, heads, first and last signing time, in the table's order."""
    seen: dict[tuple[str, str, str], dict[str, Any]] = {}
    for a in anchors:
        if "a" not in a:
            continue                       # version 1 anchors name a file, not a log
        key = (str(a.get("site", "")), str(a.get("table", "")), str(a.get("log", "")))
        row = seen.setdefault(key, {"site": key[0], "table": key[1], "log": key[2], "seq": a.get("seq", 0),
                                    "heads": 0, "first_at": a.get("at", ""), "last_at": a.get("at", "")})
        row["heads"] += 1
        row["last_at"] = max(str(row["last_at"]), str(a.get("at", "")))
    rows = [row for key, row in seen.items() if key not in handed_in]
    # a place in a table's sequence that no anchor and no handed-in log fills: a log the floor never heard of
    places: dict[tuple[str, str], set[int]] = {}
    for site, table, _log, seq in [(r["site"], r["table"], r["log"], r["seq"]) for r in seen.values()]:
        places.setdefault((site, table), set()).add(int(seq or 0))
    for (site, table), seqs in places.items():
        seqs.discard(0)
        for seq in range(min(seqs, default=1), max(seqs, default=0)):
            if seq not in seqs:
                rows.append({"site": site, "table": table, "log": "?", "seq": seq, "heads": 0,
                             "first_at": "", "last_at": ""})
    return sorted(rows, key=lambda r: (r["site"], r["table"], r["seq"], r["first_at"]))


@dataclass(frozen=True)
class HandConflict:
    """What the heads of one table's logs say against each other (issue 29). ``repeat``: ``log`` holds hands
    ``first``..``last`` that ``other`` was anchored with first; ``behind``: ``log`` numbers its hands from
    ``first`` although ``other`` was anchored with hand ``last`` before it; ``gap``: hands ``first``..``last``
    are in no log the floor anchored; ``restart``: ``log`` takes a place in the table's sequence of logs at or
    before ``other``'s, which the floor anchored earlier."""

    kind: str
    site: str
    table: str
    log: str
    seq: int
    first: int = 0
    last: int = 0
    other: str = ""
    other_seq: int = 0

    def text(self) -> str:
        mine = f"{self.site}/{self.table}'s log {self.log} (place {self.seq})"
        theirs = f"log {self.other} (place {self.other_seq})"
        if self.kind == "repeat":
            return (f"{mine} holds hand{'s' if self.last > self.first else ''} {_span(self.first, self.last)}, "
                    f"which the floor anchored first under {theirs}: the same hands recorded twice (a re-recorded "
                    f"or relabelled log)")
        if self.kind == "behind":
            return (f"{mine} numbers its hands from {self.first}, but the floor anchored hand {self.last} under "
                    f"{theirs} before it: the table's hand count went back")
        if self.kind == "gap":
            return (f"{mine} starts at hand {self.last + 1}: hand{'s' if self.last > self.first else ''} "
                    f"{_span(self.first, self.last)} are in no log the floor anchored (a log it never heard of, or "
                    f"the hand count was moved on)")
        return (f"{mine} was anchored after {theirs} but takes an earlier place in the table's sequence of logs: "
                f"the sequence restarted (the table's ledger was deleted or replaced)")

    def row(self) -> dict[str, Any]:
        return {"site": self.site, "table": self.table, "kind": self.kind, "log": self.log, "seq": self.seq,
                "first": self.first, "last": self.last, "other_log": self.other, "other_seq": self.other_seq,
                "what": self.text()}


CONFLICT_FIELDS = ("site", "table", "kind", "log", "seq", "first", "last", "other_log", "other_seq", "what")


def _span(first: int, last: int) -> str:
    return str(first) if first == last else f"{first}-{last}"


def hand_conflicts(anchors: list[dict[str, Any]]) -> list[HandConflict]:
    """Hand numbers and places in the sequence of logs that one table's logs contradict each other on, from the
    heads in the order the floor kept them (the floor's order is the witness, not the table's ``a`` or ``seq``).
    Version 2 heads (no ``hands``) take part in the sequence check only.

    >>> a = lambda log, seq, hands: {"a": 1, "site": "s", "table": "T", "log": log, "seq": seq, "hands": hands}
    >>> [c.text() for c in hand_conflicts([a("x", 1, [1, 4]), a("y", 2, [1, 4])])][0][:54]
    "s/T's log y (place 2) holds hands 1-4, which the floor"
    """
    logs: dict[tuple[str, str, str], list[int]] = {}      # (site, table, log) -> [seq, first, last]; 0: unknown
    for a in anchors:
        if "a" not in a:
            continue                    # version 1 anchors name a file, not a log
        row = logs.setdefault((str(a.get("site", "")), str(a.get("table", "")), str(a.get("log", ""))),
                              [int(a.get("seq", 0) or 0), 0, -1])
        hands = a.get("hands")
        if isinstance(hands, list) and len(hands) == 2 and all(isinstance(h, int) for h in hands):
            row[1] = row[1] or hands[0]
            row[2] = max(row[2], hands[1])
    found: list[HandConflict] = []
    tables: dict[tuple[str, str], _Table] = {}
    for (site, table, log), (seq, first, last) in logs.items():
        t = tables.setdefault((site, table), _Table())
        if seq and t.seq[0] and seq <= t.seq[0]:
            found.append(HandConflict("restart", site, table, log, seq, other=t.seq[1], other_seq=t.seq[0]))
        if first and t.held:
            top, top_log, top_seq = t.top
            if first <= top:
                hi = max(last, first)
                hits = [HandConflict("repeat", site, table, log, seq, max(first, o_first), min(hi, o_last), o_log,
                                     o_seq) for o_log, o_seq, o_first, o_last in t.held
                        if max(first, o_first) <= min(hi, o_last)]
                found += hits or [HandConflict("behind", site, table, log, seq, first, top, top_log, top_seq)]
            elif first > top + 1:
                found.append(HandConflict("gap", site, table, log, seq, top + 1, first - 1))
        if seq > t.seq[0]:
            t.seq = (seq, log)
        if first and last >= first:
            t.held.append((log, seq, first, last))
            if last > t.top[0]:
                t.top = (last, log, seq)
    return found


class _Table:
    """The logs of one table seen so far, in the floor's order."""

    def __init__(self) -> None:
        self.seq: tuple[int, str] = (0, "")                # the highest place so far: (seq, log)
        self.top: tuple[int, str, int] = (0, "", 0)        # the highest hand so far: (hand, log, seq)
        self.held: list[tuple[str, int, int, int]] = []    # (log, seq, first, last) of logs holding hands
