"""The floor's witness of every table's log (issue 29): the anchor store the dashboard files each signed head in.

An anchor is kept only when both its signatures check against the table's *enrolled* public key (the one the
floor was given when the table was set up, never one the table sends), when it follows the table's chain
(``a`` is the last one's plus one and ``prev`` is its digest) and when it moves forward in the table's logs
(``(seq, part, n)`` grows). A replayed older head (a rollback) or a missing one (a gap) is refused, counted
and raised as a floor alert; so is a head that reaches the floor later than the table's window. One table
may keep at most ``cap`` heads. ``GET /api/anchors?site=S&table=T`` serves all of a table's heads, oldest
first, to ``dealerbox verify --from-floor`` (without ``table``: every table of the site, for ``dealerbox audit``)
over HTTP Basic authentication with a dashboard user's password.

Enrol a table's key (again after a rotation, which also restarts its chain)::

    python -m dealerbox.dashboard.anchors enrol --db sqlite:///floor.db --site demo --table T01 --pubkey T01.pub
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import binascii
import calendar
import json
import sys
import time
from dataclasses import dataclass
from typing import Any

import sqlalchemy as sa
from starlette.requests import Request
from starlette.responses import JSONResponse, PlainTextResponse, Response

from ..record.signing import KeyFileError, anchor_digest, anchor_fields_text, check_anchor, load_public
from . import auth
from .store import Store, alerts as alert_rows, anchors as anchor_rows

CAP_PER_TABLE = 500_000          # about ten years of hands at one table; a flood from one account stops here
LATE_AFTER_MIN = 10.0            # a head reaching the floor later than this (or the table's window) is an alert
RULE = "evidence.anchor"

# the enrolled key and the chain's end per table (the heads themselves are in the store's ``anchors`` table)
_meta = sa.MetaData()
enrolled = sa.Table("anchor_tables", _meta, sa.Column("site", sa.String(32), primary_key=True),
                    sa.Column("table_id", sa.String(32), primary_key=True),
                    sa.Column("pubkey", sa.String(64), nullable=False),
                    sa.Column("enrolled_at", sa.Float, nullable=False),
                    sa.Column("a", sa.Integer, nullable=False, default=0),
                    sa.Column("digest", sa.String(64), nullable=False, default=""),
                    sa.Column("seq", sa.Integer, nullable=False, default=0),
                    sa.Column("part", sa.Integer, nullable=False, default=0),
                    sa.Column("n", sa.Integer, nullable=False, default=-1),
                    sa.Column("kept", sa.Integer, nullable=False, default=0))


@dataclass
class Verdict:
    """What the store did with one anchor: ``kept``, or why not; ``alert`` is a floor alert row to file."""
    kept: bool
    reason: str = ""
    alert: dict[str, Any] | None = None


class AnchorStore:
    def __init__(self, store: Store, cap: int = CAP_PER_TABLE, late_after_min: float = LATE_AFTER_MIN) -> None:
        self.store, self.cap, self.late_after_min = store, cap, late_after_min
        with store.schema_lock() as conn:      # two instances starting at once: one creates it
            enrolled.create(conn, checkfirst=True)

    def enrol(self, site: str, table: str, pubkey_hex: str, now: float | None = None) -> None:
        """Give the floor a table's public key; its chain starts again from the next anchor it sends."""
        with self.store.engine.begin() as conn:
            conn.execute(enrolled.delete().where((enrolled.c.site == site) & (enrolled.c.table_id == table)))
            conn.execute(enrolled.insert().values(site=site, table_id=table, pubkey=pubkey_hex, a=0, digest="",
                                                  seq=0, part=0, n=-1, kept=self._count(conn, site, table),
                                                  enrolled_at=time.time() if now is None else now))

    def receive(self, conn: sa.Connection, site: str, table: str, payload: dict[str, Any], now: float) -> Verdict:
        """File one anchor already checked against anchor.json and its topic; refusals say why."""
        mine = (enrolled.c.site == site) & (enrolled.c.table_id == table)
        row = conn.execute(sa.select(enrolled).where(mine)).first()
        if row is None:
            return Verdict(False, f"anchor: no enrolled key for {site}/{table}: enrol its public key "
                                  f"(python -m dealerbox.dashboard.anchors enrol)")
        if not check_anchor(row.pubkey, payload):
            return self._alarm(conn, site, table, "forged", payload, now,
                               f"an anchor not signed by {site}/{table}'s enrolled key was refused")
        a, digest = int(payload["a"]), anchor_digest(anchor_fields_text(payload))
        at = (int(payload["seq"]), int(payload["part"]), int(payload["n"]))
        if row.a and a <= row.a:
            if digest == self._digest_of(conn, site, table, a):
                return Verdict(False, "duplicate")            # QoS 1 redelivered what is already kept
            return self._alarm(conn, site, table, "rollback", payload, now,
                               f"anchor {a} replays an older place in the chain (the floor is at {row.a}): "
                               f"someone with the table's key is re-signing its history")
        if row.a and (a != row.a + 1 or payload["prev"] != row.digest):
            return self._alarm(conn, site, table, "gap", payload, now,
                               f"anchor {a} does not follow anchor {row.a}: {a - row.a - 1} signed head(s) "
                               f"never reached the floor (deleted from the table's outbox or ledger)")
        if row.a and at <= (row.seq, row.part, row.n):
            return self._alarm(conn, site, table, "rollback", payload, now,
                               f"anchor {a} goes back to log {at[0]} part {at[1]} record {at[2]}")
        if row.kept >= self.cap:
            return self._alarm(conn, site, table, "full", payload, now,
                               f"{site}/{table} holds {row.kept} anchors, the floor's cap: later heads are not kept")
        conn.execute(anchor_rows.insert().values(site=site, table_id=table, origin=payload["origin"],
                                                 part=payload["part"], n=payload["n"], head=payload["head"],
                                                 payload=json.dumps(payload, sort_keys=True), received_at=now))
        conn.execute(enrolled.update().where(mine).values(a=a, digest=digest, seq=at[0], part=at[1], n=at[2],
                                                          kept=row.kept + 1))
        late = self._late(payload, now)
        if late is None:
            return Verdict(True)
        return Verdict(True, "", self._alert_row(conn, site, table, "late", payload, now, late))

    def heads(self, site: str, table: str | None) -> list[dict[str, Any]]:
        """Every head the floor kept for the table (every table of the site: None), oldest first, as published."""
        q = sa.select(anchor_rows.c.payload).where(anchor_rows.c.site == site)
        if table is not None:
            q = q.where(anchor_rows.c.table_id == table)
        with self.store.engine.connect() as conn:
            return [json.loads(r[0]) for r in conn.execute(q.order_by(anchor_rows.c.id))]

    # --- the authenticated API ---------------------------------------------------------------------------

    async def api(self, request: Request) -> Response:
        """``GET /api/anchors?site=S&table=T`` with HTTP Basic credentials of any dashboard user."""
        name, password = _basic(request.headers.get("authorization", ""))
        role = await asyncio.to_thread(auth.check_password, self.store, name, password) if name else None
        if role is None:
            return PlainTextResponse("sign in with a dashboard user (HTTP Basic)", status_code=401,
                                     headers={"WWW-Authenticate": 'Basic realm="dealerbox floor"'})
        site, table = request.query_params.get("site", ""), request.query_params.get("table", "")
        if not site:
            return PlainTextResponse("a site is needed: /api/anchors?site=S[&table=T]", status_code=400)
        heads = await asyncio.to_thread(self.heads, site, table or None)
        return JSONResponse({"site": site, "table": table, "anchors": heads})

    # --- refusals and alerts ----------------------------------------------------------------------------

    def _alarm(self, conn: sa.Connection, site: str, table: str, kind: str, payload: dict[str, Any], now: float,
               what: str) -> Verdict:
        return Verdict(False, f"anchor {kind}: {what}", self._alert_row(conn, site, table, kind, payload, now, what))

    def _alert_row(self, conn: sa.Connection, site: str, table: str, kind: str, payload: dict[str, Any], now: float,
                   what: str) -> dict[str, Any] | None:
        """A floor alert, one per table and kind while it is open (a flood of junk is one alert, not thousands)."""
        q = sa.select(alert_rows.c.id).where((alert_rows.c.site == site) & (alert_rows.c.table_id == table)
                                             & (alert_rows.c.rule == f"{RULE}.{kind}")
                                             & alert_rows.c.resolved_at.is_(None)).limit(1)
        if conn.execute(q).first() is not None:
            return None
        return {"site": site, "table_id": table, "boot": "floor", "finding": f"anchor-{kind}-{int(now * 1000)}"[:32],
                "rule": f"{RULE}.{kind}", "citation": "docs/security.md (threat model)", "severity": "floor",
                "ruling": f"Evidence: {what}. Check the table's box and its log (dealerbox verify --from-floor).",
                "seats": "[]", "hand": None, "raised_at": now}

    def _late(self, payload: dict[str, Any], now: float) -> str | None:
        window = min(float(payload.get("window_min") or self.late_after_min), self.late_after_min)
        try:
            signed = calendar.timegm(time.strptime(str(payload["at"]), "%Y-%m-%dT%H:%M:%SZ"))
        except ValueError:
            return None
        late_min = (now - signed) / 60
        if late_min <= window:
            return None
        return (f"a signed head of log {payload['seq']} reached the floor {late_min:.0f} min after it was signed "
                f"(window {window:g} min): the log before it could have been rewritten meanwhile")

    def _digest_of(self, conn: sa.Connection, site: str, table: str, a: int) -> str:
        rows = conn.execute(sa.select(anchor_rows.c.payload).where((anchor_rows.c.site == site)
                                                                   & (anchor_rows.c.table_id == table))
                            .order_by(anchor_rows.c.id.desc()).limit(64))
        for (text,) in rows:
            kept = json.loads(text)
            if kept.get("a") == a:
                return anchor_digest(anchor_fields_text(kept))
        return ""

    @staticmethod
    def _count(conn: sa.Connection, site: str, table: str) -> int:
        q = sa.select(sa.func.count()).select_from(anchor_rows).where((anchor_rows.c.site == site)
                                                                      & (anchor_rows.c.table_id == table))
        return int(conn.execute(q).scalar() or 0)


def _basic(header: str) -> tuple[str, str]:
    scheme, _, value = header.partition(" ")
    if scheme.lower() != "basic":
        return "", ""
    try:
        name, _, password = base64.b64decode(value, validate=True).decode("utf-8").partition(":")
    except (binascii.Error, UnicodeDecodeError):
        return "", ""
    return name, password


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m dealerbox.dashboard.anchors")
    parser.add_argument("action", choices=("enrol",))
    parser.add_argument("--db", required=True, help="the dashboard's database URL")
    parser.add_argument("--site", required=True)
    parser.add_argument("--table", required=True)
    parser.add_argument("--pubkey", required=True, metavar="FILE", help="the table's public key (dealerbox keygen)")
    args = parser.parse_args(argv)
    try:
        pubkey = load_public(args.pubkey)
    except KeyFileError as e:
        print(f"enrol: {e}", file=sys.stderr)
        return 2
    store = Store(args.db)
    try:
        AnchorStore(store).enrol(args.site, args.table, pubkey)
    finally:
        store.close()
    print(f"{args.site}/{args.table}: key {pubkey[:16]} enrolled; its anchor chain starts with the next head")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
