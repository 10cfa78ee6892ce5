"""The live stream (``/events``, server-sent events): every change the journal holds, as bodies rendered once per
kind of reader (with or without the action buttons) and shared by every stream. A browser holds one stream for
all its tabs (static/live.js, a SharedWorker), so a stream carries every site's news and each page applies what
its own filter shows. A stream ends when its session does (sign-out, a removed user, a new password) or its
role changes, so a demoted supervisor's buttons go with the next reconnect.
"""

from __future__ import annotations

import asyncio
import collections
import json
import secrets
import time
from collections.abc import AsyncIterator, Awaitable, Callable

import jinja2

from . import auth
from .render import tile
from .service import Dashboard

KEEPALIVE_S = 15.0
COALESCE_S = 0.03          # after a wake-up, gather what else arrives this long: one query serves a burst
BODIES_KEPT = 20_000       # rendered SSE bodies kept: every client of the same role sends the same bytes
SESSION_RECHECK_S = 5.0    # a stream re-reads its session this often (at once when this dashboard ended one)
SESSION_SHARED_S = 1.0     # streams of one session share a read this young (50 of them cost 13 % of the loop)
SESSIONS_KEPT = 2_000
SUPERSEDE_FROM = 50        # a stream this far behind sends each table's newest tile among the rows it reads
LOOK_AHEAD_READS = 4       # ...and those of the next reads (500 rows each, from the kept tail as a rule)
TOKEN_SLOT = f"@@csrf-{secrets.token_hex(8)}@@"   # unguessable: a table cannot plant it in a ruling
_UNRENDERED = object()

# (user, role, csrf) of a session token hash now, or None: the app reads it from the store
SessionOf = Callable[[str], tuple[str, str, str] | None]


class Live:
    def __init__(self, dash: Dashboard, env: jinja2.Environment, session_of: SessionOf) -> None:
        self.dash, self.env, self.session_of = dash, env, session_of
        self.bodies: collections.OrderedDict[tuple[int, bool], str | None] = collections.OrderedDict()
        self.readers: dict[bool, int] = {False: 0, True: 0}   # live streams without / with the action buttons
        self.epoch = 0              # bumped when this dashboard ends a session: every stream re-reads its own
        # token hash -> (epoch, when read, what the store said): one read serves a session's streams for a moment
        self._sessions: dict[str, tuple[int, float, tuple[str, str, str] | None]] = {}
        self._templates: dict[str, jinja2.Template] = {}
        # journal id -> the tile ("site/table") its body carries: a table push, or an alert with its table's tile
        self.tile_keys: collections.OrderedDict[int, str] = collections.OrderedDict()
        dash.prepare = self.prepare

    def sessions_changed(self) -> None:
        self.epoch += 1
        self.dash.wake()

    async def stream(self, token_hash: str, role: str, csrf: str, site: str | None, last: int,
                     gone: Callable[[], Awaitable[bool]]) -> AsyncIterator[str]:
        yield "retry: 1000\n\n"
        acts = auth.may(role, "supervisor")
        self.readers[acts] += 1
        epoch, checked = self.epoch, time.monotonic()
        try:
            while True:
                if epoch != self.epoch or time.monotonic() - checked > SESSION_RECHECK_S:
                    epoch, checked = self.epoch, time.monotonic()
                    now = self._session(token_hash)
                    if now is None or now[1] != role:
                        return      # the browser reconnects: as the new role, or to a 401 that sends it to sign in
                rows = self.dash.journal_after(last)
                stale = self._superseded(rows) if len(rows) >= SUPERSEDE_FROM else set()
                out = []
                for jid, kind, row_site, data in rows:
                    last = jid
                    if (site and row_site and row_site != site) or jid in stale:
                        continue
                    body = self._cached_body(jid, kind, data, acts)
                    if body is not None:
                        # the CSRF token is per session: the cached body has a placeholder where it goes
                        out.append(f"id: {jid}\nevent: {kind}\ndata: {body.replace(TOKEN_SLOT, csrf)}\n\n")
                if out:
                    yield "".join(out)
                if not rows:
                    if await self.dash.wait(KEEPALIVE_S):
                        await asyncio.sleep(COALESCE_S)
                        continue
                    # a keepalive only when nothing was sent for a while: one write per wake-up, not two
                    if await gone():
                        return
                    yield ": keepalive\n\n"
        finally:
            self.readers[acts] -= 1

    def _superseded(self, rows: list[tuple[int, str, str | None, str]]) -> set[int]:
        """The table pushes among ``rows`` that a later row replaces, in ``rows`` or in what the stream is sent
        after them: a push of the same table, or an alert carrying its tile. A stream that fell behind (a slow
        browser, a start's thousand pushes) sends each table's newest tile once. The ids it sends still only
        grow, and the replacing row comes later, so a reconnect after the last id sent still gets it."""
        newest: dict[str, int] = {}
        ahead = rows
        for _ in range(1 + LOOK_AHEAD_READS):
            for jid, _kind, _site, _data in ahead:
                key = self.tile_keys.get(jid)
                if key is not None:
                    newest[key] = jid
            if len(ahead) < SUPERSEDE_FROM:
                break
            ahead = self.dash.journal_after(ahead[-1][0])
        return {jid for jid, kind, _site, _data in rows
                if kind == "table" and (key := self.tile_keys.get(jid)) is not None and newest[key] != jid}

    def _session(self, token_hash: str) -> tuple[str, str, str] | None:
        """The session as the store has it, read at most once a SESSION_SHARED_S per session and epoch (a page
        in twenty tabs, or the bench's fifty streams on one sign-in, share it)."""
        now = time.monotonic()
        held = self._sessions.get(token_hash)
        if held is not None and held[0] == self.epoch and now - held[1] < SESSION_SHARED_S:
            return held[2]
        found = self.session_of(token_hash)
        if len(self._sessions) >= SESSIONS_KEPT:
            self._sessions.clear()
        self._sessions[token_hash] = (self.epoch, now, found)
        return found

    def _cached_body(self, jid: int, kind: str, data: str, acts: bool) -> str | None:
        # the filing thread renders most bodies ahead (prepare): get() rather than `in`, as it may evict meanwhile
        found = self.bodies.get((jid, acts), _UNRENDERED)
        if found is _UNRENDERED:
            found = self._render(jid, kind, data, (acts,))[acts]
        return found  # type: ignore[return-value]  # _UNRENDERED was replaced just above

    def prepare(self, rows: list[tuple[int, str, str | None, str]]) -> None:
        """On the filing thread: render the SSE bodies of fresh journal rows for the kinds of reader connected
        (with or without the action buttons); a reader of a kind nobody had renders for itself."""
        wanted = tuple(acts for acts, n in list(self.readers.items()) if n > 0)
        if wanted:
            for jid, kind, _site, data in rows:
                self._render(jid, kind, data, wanted)

    def _render(self, jid: int, kind: str, data: str, wanted: tuple[bool, ...]) -> dict[bool, str | None]:
        """The body of one journal row for each kind of reader in ``wanted``, reading the database once."""
        dash = self.dash
        found = json.loads(data)
        common: dict | None = found
        a = view = None
        if kind == "alert":
            # an alert just filed is known as filed; a later change (ack, escalation) is read from the store
            a = dash.ingest.filed_alert(found["id"]) or dash.store.alert(found["id"])
            # the first keys stay in this order: bench/dashboard.py reads the body with a regular expression
            common = None if a is None else {
                "id": a.id, "open": a.open, "severity": a.severity, "escalated": a.escalated_at is not None,
                "html": "", "tile": self._tile_html(a.site, a.table_id), "key": f"{a.site}/{a.table_id}",
                "site": a.site, "table": a.table_id, "rule": a.rule, "raised_at": a.raised_at,
                "people": [p for p in (a.acked_by, a.assigned_to, a.resolved_by) if p],
                "floor": dash.ingest.board.floor_calls()}
        elif kind == "tournament":
            try:
                view = dash.host.view(found["id"], dash.clock())
            except LookupError:        # a tournament a previous run hosted: nothing to show now
                view = None
            common = None if view is None else {"id": view["id"], "html": ""}
        elif kind == "invalid":
            # the server's own count, read after this refusal was filed: a page shows it, never its own tally
            common = {**found, "total": dash.store.counters().get("invalid", 0)}
        elif kind == "table":
            html = self._tile_html(found["site"], found["table"])
            common = {"key": f"{found['site']}/{found['table']}", "tile": html, "site": found["site"]} \
                if html else None
        out: dict[bool, str | None] = {}
        # a body no role changes (a tile, a refusal), encoded once
        same = None if common is None or kind in ("alert", "tournament") else json.dumps(common)
        for acts in wanted:
            role = "supervisor" if acts else "viewer"
            if kind == "alert" and common is not None:
                out[acts] = json.dumps({**common, "html": self._template("_alert.html").render(
                    a=a, may=lambda need, r=role: auth.may(r, need), now=dash.clock(), csrf=TOKEN_SLOT, users=[])})
            elif kind == "tournament" and common is not None:
                out[acts] = json.dumps({**common, "html": self._template("_tournament.html").render(
                    v=view, may=lambda need, r=role: auth.may(r, need), now=dash.clock(), csrf=TOKEN_SLOT)})
            else:
                out[acts] = same
            self.bodies[(jid, acts)] = out[acts]
        if common is not None and common.get("tile") and kind in ("table", "alert"):
            self.tile_keys[jid] = common["key"]
        while len(self.bodies) > BODIES_KEPT:
            self.bodies.popitem(last=False)
        while len(self.tile_keys) > BODIES_KEPT:
            self.tile_keys.popitem(last=False)
        return out

    def _tile_html(self, site: str, table: str) -> str:
        """The tile as the ingest holds it (no database read: 500 of them come at once after a start)."""
        held = self.dash.ingest.board.row((site, table))
        if held is None:
            return ""
        row, open_alerts = held
        return self._template("_tile.html").render(t=tile(row, open_alerts, self.dash.clock()))

    def _template(self, name: str) -> jinja2.Template:
        """A template, looked up once: ``get_template`` checks the loader's cache under a lock on every call (a
        sixth of rendering 500 tiles at a start)."""
        found = self._templates.get(name)
        if found is None:
            found = self._templates[name] = self.env.get_template(name)
        return found
