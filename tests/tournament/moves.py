"""Instruction payloads as the floor's Director sends them, checked against the contract's schema."""

from __future__ import annotations

import json

from dealerbox.tournament.floor import schema_errors


def instruction(table: str, kind: str, moves: list[tuple[str, int | None, str, int | None]], *, plan: int = 1,
                rule: str | None = None, counts: dict[str, int] | None = None, tables_left: int = 3,
                site: str = "demo", seq: int = 1) -> dict:
    """A ``tournament`` payload for ``table``: moves as (from_table, from_seat, to_table, to_seat)."""
    rule = rule or {"move": "tournament.14a", "break": "tournament.12", "redraw": "tournament.17"}[kind]
    payload = {"v": 1, "kind": "tournament", "site": site, "table": table, "tournament": "SUN-500", "boot": "floor1",
               "seq": seq, "at": 1.0e9 + seq, "plan": plan, "instruction": kind, "rule": rule,
               "moves": [{"from_table": a, "from_seat": b, "to_table": c, "to_seat": d} for a, b, c, d in moves],
               "tables_left": tables_left, "from": "tournament"}
    if counts is not None:
        payload["counts"] = counts
    assert schema_errors("tournament", payload) == [], schema_errors("tournament", payload)
    return payload


def compact(payload: dict) -> str:
    return json.dumps(payload, separators=(",", ":"))
