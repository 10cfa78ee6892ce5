"""``dealerbox rules [--json]``: the rulings the engine implements, from the catalogue."""

from __future__ import annotations

import argparse
import json

from ..engine.catalogue import RULES


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--json", action="store_true", help="one JSON array for machines")


def run(args: argparse.Namespace) -> int:
    rows = [{"rule": r.id, "citation": r.citation, "area": r.area, "detect": r.detect, "summary": r.summary,
             "tournament": r.tournament} | ({"house": r.house} if r.house else {})
            | ({"severities": list(r.severities), "outcomes": list(r.outcomes)} if r.tournament else {})
            for r in RULES.values()]
    if args.json:
        print(json.dumps(rows, indent=1))
        return 0
    width = max(len(str(r["rule"])) for r in rows)
    for r in rows:
        where = "  (tournament tables only)" if r["tournament"] else ""
        where += f"  (house practice: {r['house']}, a table setting)" if r.get("house") else ""
        print(f"{r['rule']:<{width}}  {r['detect']:<3}  {r['citation']:<24}  {r['summary']}{where}")
    return 0
