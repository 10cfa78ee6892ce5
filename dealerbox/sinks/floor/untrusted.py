"""Reading a payload from the floor, which is untrusted: its size, its encoding and how deep it nests are
capped before it is parsed (a 100,000-deep array would otherwise exhaust the parser's recursion on the
network thread), then it is JSON or it is refused. The desks check the value against their JSON Schemas."""

from __future__ import annotations

import json
import re
from typing import Any

# The largest floor payload (a tournament clock with its levels) is a few kB: 64 kB leaves room and bounds
# the cost of reading one message; nothing the floor sends nests deeper than 6.
MAX_PAYLOAD = 64 * 1024
MAX_DEPTH = 32
_TOKENS = re.compile(r'"(?:[^"\\]|\\.)*"|[\[\]{}]')   # a string (skipped whole) or a bracket


def nesting(text: str, limit: int = MAX_DEPTH) -> int:
    """How deep ``text``'s brackets nest outside strings, counted up to ``limit + 1`` and no further."""
    depth = deepest = 0
    for m in _TOKENS.finditer(text):
        ch = m.group()
        if ch in "[{":
            depth += 1
            if depth > deepest:
                deepest = depth
                if deepest > limit:
                    break
        elif ch in "]}":
            depth -= 1
    return deepest


def read_payload(raw: bytes) -> tuple[Any, str]:
    """``(value, "")`` for a payload that is small, UTF-8 and shallow enough JSON; else ``(None, why)``."""
    if len(raw) > MAX_PAYLOAD:
        return None, f"payload of {len(raw)} bytes, over the {MAX_PAYLOAD} a floor message may have"
    try:
        text = bytes(raw).decode("utf-8")
    except UnicodeDecodeError as e:
        return None, f"malformed JSON (not UTF-8: {e})"
    if (depth := nesting(text)) > MAX_DEPTH:
        return None, f"malformed JSON (nested {depth}+ deep, over {MAX_DEPTH}; a floor message nests a few levels)"
    try:
        return json.loads(text), ""
    except (ValueError, RecursionError) as e:   # ValueError: bad JSON, or an integer too long to convert
        return None, f"malformed JSON ({type(e).__name__}: {str(e)[:120]})"
