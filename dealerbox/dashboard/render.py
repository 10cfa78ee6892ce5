"""Server-side HTML: Jinja2 with autoescape, and every value printed through :func:`inert` first, so what a
table sent (a ruling, a rule id, a seat note) can carry neither markup nor terminal control codes to a page."""

from __future__ import annotations

import re
import time
from importlib import resources

import jinja2
from markupsafe import Markup

from ..sinks.floor import contract as c
from ..sinks.floor.view import draw_text, phase_text

CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")


def inert(value: object) -> object:
    """Control characters shown as visible ``\\xNN`` text; the autoescape then handles < > & " '."""
    if isinstance(value, Markup) or not isinstance(value, str):
        return value
    return CONTROL.sub(lambda m: f"\\x{ord(m.group()):02x}", value)


def age(seconds: float) -> str:
    seconds = max(0, int(seconds))
    if seconds < 60:
        return f"{seconds}s"
    if seconds < 3600:
        return f"{seconds // 60}m{seconds % 60:02d}s"
    return f"{seconds // 3600}h{seconds % 3600 // 60:02d}m"


def clock_text(at: float | None) -> str:
    return time.strftime("%Y-%m-%d %H:%M:%S", time.gmtime(at)) if at else ""


def environment() -> jinja2.Environment:
    folder = str(resources.files("dealerbox.dashboard").joinpath("templates"))
    env = jinja2.Environment(loader=jinja2.FileSystemLoader(folder), autoescape=True, finalize=inert,
                             auto_reload=False)     # a stat of the template file per render: 5 % of the filing thread
    env.filters.update(age=age, clock=clock_text, drew=draw_text)
    return env


def tile(table: dict, alerts: list, now: float) -> dict:
    """What one table's tile shows: alive or dead, game, hand, phase (a draw game's round: Draw 1, Bet 2),
    health, open alerts by severity."""
    state = table.get("state") or {}
    health = state.get("health") or {}
    fresh = table.get("state_at") is not None and now - table["state_at"] <= c.STATE_EXPIRY_S
    alive = table.get("status") == "online" and fresh
    open_alerts = [a for a in alerts if a.open]
    worst = "floor" if any(a.severity == "floor" for a in open_alerts) else ("dealer" if open_alerts else "")
    return {"site": table["site"], "table": table["table_id"], "alive": alive,
            "status": table.get("status") or "unknown", "reason": table.get("reason") or "",
            "stale": table.get("status") == "online" and not fresh,
            "game": state.get("game") or "", "stakes": state.get("stakes") or "", "hand": state.get("hand"),
            "phase": phase_text(state), "dealer": state.get("dealer") or "",
            "pot": state.get("pot"), "link": (health.get("link") or {}).get("link", ""),
            "outbox": (health.get("link") or {}).get("outbox_depth", ""),
            "reader_bad": (health.get("reader") or {}).get("bad_crc", 0),
            "open": len(open_alerts), "worst": worst, "last_seen": table.get("last_seen")}
