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
from functools import cache
from importlib import resources
from typing import Any

import jsonschema

ANCHOR_VERSION = 2
ANCHOR_FIELDS = ("table", "log", "seq", "origin", "part", "n", "head", "sig", "key", "t", "at", "a", "prev", "asig")


def anchor_topic(site: str, table: str) -> str:
    return f"dealerbox/{site}/{table}/anchor"


@cache
def _validator() -> jsonschema.Draft202012Validator:
    text = resources.files("dealerbox.schemas").joinpath("floor").joinpath("anchor.json").read_text()
    return jsonschema.Draft202012Validator(json.loads(text))


def anchor_message(site: str, anchor: dict[str, Any], window_min: float | None = None) -> dict[str, Any]:
    """The payload of one signed head (``Recorder.anchor`` or what ``Recorder.on_anchor`` is handed)."""
    payload = {"v": ANCHOR_VERSION, "kind": "anchor", "site": str(anchor.get("site") or site),
               **{k: anchor[k] for k in ANCHOR_FIELDS}}
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
