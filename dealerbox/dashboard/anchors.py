"""The floor's witness of every table's log (issue 29): the anchor store the dashboard files each signed head in.

An anchor is kept only when both its signatures check against the table's *enrolled* public key (the one the
floor was given when the table was set up, never one the table sends), when it follows the table's chain
(``a`` is the last one's plus one and ``prev`` is its digest) and when it moves forward in the table's logs
(``(seq, part, n)`` grows). A replayed older head (a rollback) or a missing one (a gap) is refused, counted
and raised as a floor alert. Kept, but raised: a log whose hands (``hands``) repeat hands another log of the
table was anchored with first, or skip some (``evidence.anchor.hands``), and a head that reaches the floor
after the table was out of its hearing longer than the window (``evidence.anchor.late``, measured on the
floor's own clock from when it last heard the table before its ``offline`` status: the table's signed
``at`` is only information, since whoever holds the table's key dates a head as he likes). One table may keep
at most ``cap`` heads, and a table whose valid heads come far faster than it can play hands is raised
(``evidence.anchor.flood``) long before that: a leaky bucket on the floor's clock lets ``flood_per_min`` heads a
minute through for ever and an outage's backlog of up to ``flood_burst`` at once, and raises past that.
``GET /api/anchors?site=S&table=T`` serves all of a table's heads, oldest first, to ``dealerbox verify
--from-floor`` (without ``table``: every table of the site, for ``dealerbox audit``) over HTTP Basic
authentication with a dashboard user's password.

Enrol a table's key (again after a rotation, which also restarts its chain)::

    python -m dealerbox.dashboard.anchors enrol --db sqlite:///floor.db --site demo --table T01 --pubkey T01.pub
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import binascii
import json
import sys
import time
from dataclasses import dataclass, field
from typing import Any

import sqlalchemy as sa
from starlette.requests import Request
from starlette.responses import JSONResponse, PlainTextResponse, Response

from ..record.signing import KeyFileError, anchor_digest, anchor_fields_text, check_anchor, load_public
from . import auth
from .store import Store, alerts as alert_rows, anchors as anchor_rows, tables as table_rows

CAP_PER_TABLE = 500_000          # 2-3 years of a busy table's heads (docs/security.md, window 7); a flood stops here
LATE_AFTER_MIN = 10.0            # a head reaching the floor later than this (or the table's window) is an alert
# An honest table signs a head at each hand's end and, between, at most one a record.sign_idle_s (60 s): about
# 1-3 a minute. Ten a minute for ever, and a backlog of 2,000 at once (an outage of half a day resent in order),
# pass; a flood past that is raised after at most 2,000 heads, 0.4 % of the cap.
FLOOD_PER_MIN = 10.0
FLOOD_BURST = 2_000
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
                    sa.Column("kept", sa.Integer, nullable=False, default=0),
                    # added with the hands check and the floor-clock lateness (issue 29); _add_columns adds them
                    # to a floor database made before
                    sa.Column("log_id", sa.String(16), nullable=False, default="", server_default=""),
                    sa.Column("hand", sa.Integer, nullable=False, default=0, server_default="0"),
                    sa.Column("hand_log", sa.String(16), nullable=False, default="", server_default=""),
                    sa.Column("hand_seq", sa.Integer, nullable=False, default=0, server_default="0"),
                    sa.Column("down_at", sa.Float, nullable=True),
                    sa.Column("up_at", sa.Float, nullable=True),
                    # the oldest hand the floor saw end (event topic) that no kept head names yet, and when (floor
                    # clock): a table that ends hands and signs none (its key taken out of the config) is raised
                    sa.Column("ended_hand", sa.Integer, nullable=False, default=0, server_default="0"),
                    sa.Column("ended_at", sa.Float, nullable=True),
                    # the flood check's leaky bucket: heads in it, and when it was last drained (floor clock)
                    sa.Column("flood_level", sa.Float, nullable=True),
                    sa.Column("flood_at", sa.Float, nullable=True))
_BACK_ONLINE = (enrolled.update().where(enrolled.c.site == sa.bindparam("k_site"),
                                        enrolled.c.table_id == sa.bindparam("k_table"), enrolled.c.down_at.is_not(None))
                .values(up_at=sa.bindparam("at")))
LATER_COLUMNS = ("log_id", "hand", "hand_log", "hand_seq", "down_at", "up_at", "ended_hand", "ended_at",
                 "flood_level", "flood_at")


@dataclass
class Verdict:
    """What the store did with one anchor: ``kept``, or why not; ``alerts``: floor alert rows to file."""
    kept: bool
    reason: str = ""
    alerts: list[dict[str, Any]] = field(default_factory=list)


class AnchorStore:
    def __init__(self, store: Store, cap: int = CAP_PER_TABLE, late_after_min: float = LATE_AFTER_MIN,
                 flood_per_min: float = FLOOD_PER_MIN, flood_burst: int = FLOOD_BURST) -> None:
        self.store, self.cap, self.late_after_min = store, cap, late_after_min
        self.flood_per_min, self.flood_burst = flood_per_min, flood_burst
        with store.schema_lock() as conn:      # two instances starting at once: one creates it
            enrolled.create(conn, checkfirst=True)
            _add_columns(conn)

    def enrol(self, site: str, table: str, pubkey_hex: str, now: float | None = None) -> None:
        """Give the floor a table's public key; its chain starts again from the next anchor it sends. The hands
        it anchored stay anchored: a new key does not make their numbers free again."""
        mine = (enrolled.c.site == site) & (enrolled.c.table_id == table)
        with self.store.engine.begin() as conn:
            old = conn.execute(sa.select(enrolled).where(mine)).first()
            # a new key restarts the chain, not what the floor holds against the table: hands, and the flood bucket
            held = {"hand": old.hand, "hand_log": old.hand_log, "hand_seq": old.hand_seq,
                    "flood_level": old.flood_level, "flood_at": old.flood_at} if old else {}
            conn.execute(enrolled.delete().where(mine))
            conn.execute(enrolled.insert().values(site=site, table_id=table, pubkey=pubkey_hex, a=0, digest="",
                                                  seq=0, part=0, n=-1, kept=self._count(conn, site, table),
                                                  enrolled_at=time.time() if now is None else now, **held))

    def presence(self, conn: sa.Connection, site: str, table: str, status: str, now: float) -> None:
        """The table's link status as the floor heard it (floor clock): from the first ``offline`` until a head
        comes while it is back ``online``, the floor cannot vouch for when the table signed what it sends."""
        mine = (enrolled.c.site == site) & (enrolled.c.table_id == table)
        if status == "offline":
            # deaf since the floor last heard the table (its state comes every second), not since the broker
            # noticed it gone (a cut link's last will comes a keep-alive and a half later)
            heard = conn.execute(sa.select(sa.func.max(anchor_rows.c.received_at)).where(
                (anchor_rows.c.site == site) & (anchor_rows.c.table_id == table))).scalar()
            seen = conn.execute(sa.select(table_rows.c.last_seen).where(
                (table_rows.c.site == site) & (table_rows.c.table_id == table))).scalar()
            since = max((x for x in (heard, seen) if x is not None), default=now)
            conn.execute(enrolled.update().where(mine & enrolled.c.down_at.is_(None))
                         .values(down_at=min(since, now), up_at=None))
        elif status == "online":
            self.back_online(conn, [(site, table)], now)

    def back_online(self, conn: sa.Connection, keys: list[tuple[str, str]], now: float) -> None:
        """``presence(..., "online", now)`` for many tables in one prebuilt statement: 500 tables starting send
        their statuses in the same second, and a statement built per status was 4/5 of filing it."""
        if keys:
            conn.execute(_BACK_ONLINE, [{"k_site": site, "k_table": table, "at": now} for site, table in keys])

    def hand_ended(self, conn: sa.Connection, site: str, table: str, hand: int, now: float) -> None:
        """The floor saw an enrolled table end ``hand`` (its event topic): a head naming it must follow within the
        window. The first such hand no head names yet starts the clock; a later one only moves the hand on."""
        mine = (enrolled.c.site == site) & (enrolled.c.table_id == table) & (enrolled.c.hand < hand)
        conn.execute(enrolled.update().where(mine & enrolled.c.ended_at.is_(None)).values(ended_hand=hand,
                                                                                          ended_at=now))
        conn.execute(enrolled.update().where(mine & (enrolled.c.ended_hand < hand)).values(ended_hand=hand))

    def unsigned_hands(self, conn: sa.Connection, now: float) -> list[dict[str, Any]]:
        """Alert rows for the enrolled tables that ended a hand longer than the window ago (floor clock) and sent
        no head naming it since: hands played unsigned (``record.key`` taken out) never reach the floor at all."""
        due = conn.execute(sa.select(enrolled).where(enrolled.c.ended_at.is_not(None)
                                                     & (enrolled.c.ended_at < now - self.late_after_min * 60))).all()
        rows = []
        for r in due:
            since = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(r.ended_at))
            what = (f"the table ended hand {r.ended_hand} and others since {since} (floor clock), and no signed head "
                    f"naming them reached the floor within {self.late_after_min:g} min (the last names hand "
                    f"{r.hand}): it is not signing (record.key), or its heads are held back")
            rows.append(self._alert_row(conn, r.site, r.table_id, "missing", {}, now, what))
        return [row for row in rows if row is not None]

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
        if row.a and at[0] == row.seq and row.log_id and payload["log"] != row.log_id:
            return self._alarm(conn, site, table, "rollback", payload, now,
                               f"anchor {a} names log {payload['log']} in place {at[0]}, which the floor anchored "
                               f"as log {row.log_id}: another recording put in its place")
        if row.kept >= self.cap:
            return self._alarm(conn, site, table, "full", payload, now,
                               f"{site}/{table} holds {row.kept} anchors, the floor's cap: later heads are not kept")
        conn.execute(anchor_rows.insert().values(site=site, table_id=table, origin=payload["origin"],
                                                 part=payload["part"], n=payload["n"], head=payload["head"],
                                                 payload=json.dumps(payload, sort_keys=True), received_at=now))
        alerts: list[dict[str, Any] | None] = []
        moved: dict[str, Any] = {}
        hands = payload.get("hands")
        if hands is not None:
            first, last = int(hands[0]), int(hands[1])
            if payload["log"] != row.log_id or not row.a:      # a new log: its first hand follows the floor's last
                what = _hands_wrong(row, payload, first)
                if what:
                    alerts.append(self._alert_row(conn, site, table, "hands", payload, now, what))
            if last > row.hand:
                moved = {"hand": last, "hand_log": payload["log"], "hand_seq": at[0]}
            if last >= row.ended_hand:
                moved.update(ended_hand=0, ended_at=None)     # every hand the floor saw end is named now
        late = self._late(row, payload, now)
        if late:
            alerts.append(self._alert_row(conn, site, table, "late", payload, now, late))
        level = self._flood_level(row, now)
        if level > self.flood_burst:
            alerts.append(self._alert_row(conn, site, table, "flood", payload, now, (
                f"{site}/{table} sends signed heads faster than {self.flood_per_min:g} a minute beyond an outage's "
                f"backlog of {self.flood_burst} (it holds {row.kept + 1} of its cap of {self.cap}): no table plays "
                f"hands that fast; someone with its key is flooding the floor")))
        heard = {"down_at": None, "up_at": None} if row.down_at is not None and row.up_at is not None else {}
        conn.execute(enrolled.update().where(mine).values(a=a, digest=digest, seq=at[0], part=at[1], n=at[2],
                                                          kept=row.kept + 1, log_id=payload["log"], **moved,
                                                          **heard, flood_level=min(level, self.flood_burst + 1.0),
                                                          flood_at=now))
        return Verdict(True, "", [r for r in alerts if r is not None])

    def heads(self, site: str, table: str | None) -> list[dict[str, Any]]:
        """Every head the floor kept for the table (every table of the site: None), oldest first, as published."""
        q = sa.select(anchor_rows.c.payload).where(anchor_rows.c.site == site)
        if table is not None:
            q = q.where(anchor_rows.c.table_id == table)
        with self.store.engine.connect() as conn:
            return [json.loads(r[0]) for r in conn.execute(q.order_by(anchor_rows.c.id))]

    # --- the authenticated API ---------------------------------------------------------------------------

    async def api(self, request: Request, limit: auth.LoginLimit, where: str) -> Response:
        """``GET /api/anchors?site=S&table=T`` with HTTP Basic credentials of any dashboard user. A wrong password
        counts against ``limit`` (the login form's, for the client address ``where``), so the API is no faster a
        door for a guesser than the form."""
        name, password = _basic(request.headers.get("authorization", ""))
        wait = limit.wait(name, where) if name else 0.0
        if wait > 0:
            return PlainTextResponse(f"too many failed sign-ins: wait {wait:.0f} s", status_code=429,
                                     headers={"Retry-After": str(int(wait) + 1)})
        role = await asyncio.to_thread(auth.check_password, self.store, name, password) if name else None
        if role is None:
            if name:
                limit.failed(name, where)
            return PlainTextResponse("sign in with a dashboard user (HTTP Basic)", status_code=401,
                                     headers={"WWW-Authenticate": 'Basic realm="dealerbox floor"'})
        limit.succeeded(name, where)
        site, table = request.query_params.get("site", ""), request.query_params.get("table", "")
        if not site:
            return PlainTextResponse("a site is needed: /api/anchors?site=S[&table=T]", status_code=400)
        heads = await asyncio.to_thread(self.heads, site, table or None)
        return JSONResponse({"site": site, "table": table, "anchors": heads})

    # --- refusals and alerts ----------------------------------------------------------------------------

    def _alarm(self, conn: sa.Connection, site: str, table: str, kind: str, payload: dict[str, Any], now: float,
               what: str) -> Verdict:
        row = self._alert_row(conn, site, table, kind, payload, now, what)
        return Verdict(False, f"anchor {kind}: {what}", [row] if row else [])

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

    def _late(self, row: Any, payload: dict[str, Any], now: float) -> str:
        """Why the head is late on the floor's clock, or "": the floor has not been able to hear the table since its
        ``offline`` at ``down_at``, until it came back (``up_at``) or until now when it did not: whatever it sends
        after, it may have signed (or re-signed) at any time in between. The table's ``at`` is only told."""
        if row.down_at is None:
            return ""
        window = min(float(payload.get("window_min") or self.late_after_min), self.late_after_min)
        back = row.up_at if row.up_at is not None else now
        deaf_min = (back - row.down_at) / 60
        if deaf_min <= window:
            return ""
        since = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(row.down_at))
        how = (f"it was back {deaf_min:.0f} min later" if row.up_at is not None
               else f"this head came {deaf_min:.0f} min later while the table was still offline")
        return (f"the floor could not hear the table from {since} (floor clock) and {how} (window {window:g} min): "
                f"log {payload['seq']} up to part {payload['part']} record {payload['n']} could have been rewritten "
                f"meanwhile; the table dates this head {payload.get('at', '?')}")

    def _flood_level(self, row: Any, now: float) -> float:
        """The table's leaky bucket with this head in it: drained at ``flood_per_min`` since the last head (floor
        clock), never below empty; over ``flood_burst`` the table is flooding."""
        level, since = float(row.flood_level or 0.0), row.flood_at if row.flood_at is not None else now
        return max(0.0, level - max(0.0, now - since) / 60 * self.flood_per_min) + 1.0

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


def _hands_wrong(row: Any, payload: dict[str, Any], first: int) -> str:
    """What a new log's first head says against the hands the floor holds for the table, or ""."""
    if not row.hand_log:
        return ""                       # nothing anchored with hands yet: any start is the first
    mine = f"log {payload['log']} (place {payload['seq']})"
    theirs = f"log {row.hand_log} (place {row.hand_seq})"
    if first <= row.hand:
        return (f"{mine} starts again at hand {first}, but the floor holds hands up to {row.hand} (the last under "
                f"{theirs}): hand numbers anchored twice, a re-recorded or relabelled log")
    if first > row.hand + 1:
        return (f"{mine} starts at hand {first}, but the floor's last is hand {row.hand} under {theirs}: hands "
                f"{row.hand + 1}-{first - 1} are in no log the floor anchored")
    return ""


def _add_columns(conn: sa.Connection) -> None:
    """The columns added after the first anchor store, on a floor database made before them."""
    have = {c["name"] for c in sa.inspect(conn).get_columns(enrolled.name)}
    for name in LATER_COLUMNS:
        if name not in have:
            col = enrolled.c[name]
            kind = col.type.compile(dialect=conn.dialect)
            default = "" if col.server_default is None else \
                f" NOT NULL DEFAULT {chr(39) * 2 if isinstance(col.type, sa.String) else 0}"
            conn.exec_driver_sql(f"ALTER TABLE {enrolled.name} ADD COLUMN {name} {kind}{default}")


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
