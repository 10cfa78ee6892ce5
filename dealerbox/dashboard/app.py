"""The Starlette application: pages (map, alert queue and history, table, hand, health, users), the actions
(POST, CSRF-checked, role-checked), the CSV export and the server-sent event stream.

    app = create_app(Dashboard(Store("sqlite:///floor.db"), BrokerSettings(port=1883)))
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import csv
import io
import json
import secrets
from importlib import resources
from collections.abc import AsyncIterator, Awaitable, Callable

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.middleware.sessions import SessionMiddleware
from starlette.requests import Request
from starlette.responses import HTMLResponse, PlainTextResponse, RedirectResponse, Response, StreamingResponse
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from ..history.summary import pot_lines, summary_of_hand
from . import auth
from .render import environment, inert, tile
from .service import Dashboard
from .store import ROLES, Alert

CSV_COLUMNS = ("id", "site", "table_id", "finding", "rule", "citation", "severity", "ruling", "hand", "raised_at",
               "acked_by", "acked_at", "assigned_to", "resolved_by", "resolved_at", "note", "escalated_at")
KEEPALIVE_S = 15.0
COALESCE_S = 0.03          # after a wake-up, gather what else arrives this long: one query serves a burst
BODIES_KEPT = 20_000       # rendered SSE bodies kept: every client of the same role sends the same bytes


_UNRENDERED = object()
TOKEN_SLOT = f"@@csrf-{secrets.token_hex(8)}@@"   # unguessable: a table cannot plant it in a ruling


class Refused(Exception):
    def __init__(self, status: int, text: str) -> None:
        super().__init__(text)
        self.status, self.text = status, text


def create_app(dash: Dashboard, *, background: bool = True) -> Starlette:
    env = environment()
    limit = auth.LoginLimit()
    bodies: collections.OrderedDict[tuple[int, bool], str | None] = collections.OrderedDict()
    readers: dict[bool, int] = {False: 0, True: 0}     # live SSE streams without / with the action buttons

    def user(request: Request) -> tuple[str, str] | None:
        name, role = request.session.get("user"), request.session.get("role")
        return (name, role) if name and role in ROLES else None

    def csrf(request: Request) -> str:
        if "csrf" not in request.session:
            request.session["csrf"] = auth.new_csrf()
        return request.session["csrf"]

    def page(request: Request, name: str, status: int = 200, **context: object) -> HTMLResponse:
        who = user(request)
        html = env.get_template(name).render(user=who[0] if who else None, role=who[1] if who else None,
                                             csrf=csrf(request), may=lambda need: bool(who) and auth.may(who[1], need),
                                             broker=dash.broker_note, connected=dash.connected,
                                             now=dash.clock(), tournaments=list(dash.host.hosted), **context)
        return HTMLResponse(html, status_code=status)

    async def guard(request: Request, needed: str) -> tuple[str, dict]:
        """The signed-in user's name and the form, or Refused: not signed in, wrong CSRF token, role too low."""
        who = user(request)
        if who is None:
            raise Refused(401, "sign in first")
        form = dict(await request.form()) if request.method == "POST" else {}
        if request.method == "POST" and not auth.csrf_ok(request.session.get("csrf"),
                                                         request.headers.get("x-csrf-token") or form.get("csrf")):
            raise Refused(403, "the form's CSRF token is missing or stale: reload the page and try again")
        if not auth.may(who[1], needed):
            raise Refused(403, f"{who[0]} is a {who[1]}: this needs a {needed}")
        return who[0], {k: str(v) for k, v in form.items()}

    def viewer(handler: Callable[[Request], Awaitable[Response]]) -> Callable[[Request], Awaitable[Response]]:
        async def wrapped(request: Request) -> Response:
            if user(request) is None:
                return RedirectResponse(f"/login?next={request.url.path}", status_code=303)
            return await handler(request)
        return wrapped

    def action(needed: str) -> Callable[[Callable[..., Awaitable[object]]], Callable[[Request], Awaitable[Response]]]:
        def wrap(handler: Callable[..., Awaitable[object]]) -> Callable[[Request], Awaitable[Response]]:
            async def wrapped(request: Request) -> Response:
                try:
                    name, form = await guard(request, needed)
                    result = await handler(request, name, form)
                except Refused as e:
                    return PlainTextResponse(e.text, status_code=e.status)
                except (ValueError, LookupError, ConnectionError) as e:
                    return PlainTextResponse(str(e), status_code=409)
                if request.headers.get("x-csrf-token"):
                    return result if isinstance(result, Response) else PlainTextResponse("ok")
                return result if isinstance(result, Response) else \
                    RedirectResponse(request.headers.get("referer") or "/alerts", status_code=303)
            return wrapped
        return wrap

    # --- signing in ---------------------------------------------------------------------------------------

    async def login_page(request: Request) -> Response:
        return page(request, "login.html", error="", next=request.query_params.get("next", "/"))

    async def login(request: Request) -> Response:
        form = await request.form()
        name, password = str(form.get("name", "")), str(form.get("password", ""))
        where = request.client.host if request.client else "?"
        nxt = str(form.get("next") or "/")
        nxt = nxt if nxt.startswith("/") and not nxt.startswith("//") else "/"
        if not auth.csrf_ok(request.session.get("csrf"), str(form.get("csrf", ""))):
            return page(request, "login.html", 403, error="The form was stale: try again.", next=nxt)
        if limit.blocked(f"ip:{where}", f"user:{name}"):
            return page(request, "login.html", 429, error="Too many failed sign-ins: wait a minute.", next=nxt)
        role = await asyncio.to_thread(auth.check_password, dash.store, name, password)
        if role is None:
            limit.failed(f"ip:{where}", f"user:{name}")
            return page(request, "login.html", 401, error="Wrong name or password.", next=nxt)
        request.session.clear()
        request.session.update(user=name, role=role, csrf=auth.new_csrf())
        return RedirectResponse(nxt, status_code=303)

    @action("viewer")
    async def logout(request: Request, name: str, form: dict) -> Response:
        request.session.clear()
        return RedirectResponse("/login", status_code=303)

    # --- pages ----------------------------------------------------------------------------------------

    def site_filter(request: Request) -> str | None:
        return request.query_params.get("site") or None

    @viewer
    async def floor_map(request: Request) -> Response:
        site = site_filter(request)
        alerts = dash.store.alerts(site=site, open_only=True, limit=5000)
        by_table: dict[tuple[str, str], list[Alert]] = {}
        for a in alerts:
            by_table.setdefault((a.site, a.table_id), []).append(a)
        tiles = [tile(t, by_table.get((t["site"], t["table_id"]), []), dash.clock()) for t in dash.store.tables(site)]
        return page(request, "map.html", tiles=tiles, site=site or "", sites=dash.store.sites(),
                    after=dash.store.last_journal_id(), alarm=any(a.severity == "floor" for a in alerts))

    def filters(request: Request) -> dict:
        q = request.query_params
        out: dict = {k: q.get(k) or None for k in ("site", "table", "rule", "severity", "supervisor")}
        for key in ("since", "until"):
            try:
                out[key] = float(q[key]) if q.get(key) else None
            except ValueError:
                out[key] = None
        return out

    @viewer
    async def alert_queue(request: Request) -> Response:
        f = filters(request)
        alerts = dash.store.alerts(**f)
        return page(request, "alerts.html", alerts=alerts, f={k: v or "" for k, v in f.items()}, site=f["site"] or "",
                    users=[n for n, r in dash.store.user_names() if auth.may(r, "supervisor")],
                    after=dash.store.last_journal_id(),
                    alarm=any(a.open and a.severity == "floor" for a in alerts))

    @viewer
    async def export_csv(request: Request) -> Response:
        out = io.StringIO()
        w = csv.writer(out)
        w.writerow(CSV_COLUMNS)
        for a in dash.store.alerts(**filters(request), limit=100_000):
            # a cell starting with = + - @ would be a formula in a spreadsheet: quote it as text
            w.writerow([_cell(getattr(a, k)) for k in CSV_COLUMNS])
        return Response(out.getvalue(), media_type="text/csv",
                        headers={"content-disposition": "attachment; filename=dealerbox-alerts.csv"})

    @viewer
    async def table_page(request: Request) -> Response:
        site, table = request.path_params["site"], request.path_params["table"]
        rows = [t for t in dash.store.tables(site) if t["table_id"] == table]
        if not rows:
            return PlainTextResponse(f"no table {site}/{table} has been heard from", status_code=404)
        alerts = dash.store.alerts(site=site, table=table, limit=50)
        return page(request, "table.html", t=tile(rows[0], alerts, dash.clock()), state=rows[0]["state"] or {},
                    alerts=alerts, hands=dash.store.hands(site, table), site=site,
                    after=dash.store.last_journal_id(), alarm=False)

    @viewer
    async def hand_page(request: Request) -> Response:
        site, table, hand = request.path_params["site"], request.path_params["table"], request.path_params["hand"]
        events = dash.store.hand(site, table, hand)
        summary = summary_of_hand(events, table, hand)   # the same summary as the PHH export and the screen
        return page(request, "hand.html", site=site, table=table, hand=hand, events=events, summary=summary,
                    pot_lines=pot_lines(summary.pots) if summary else [],
                    events_json=json.dumps(events), alerts=dash.store.alerts(site=site, table=table, limit=2000))

    @viewer
    async def health_page(request: Request) -> Response:
        return page(request, "health.html", tables=dash.store.tables(), counters=dash.store.counters(),
                    duplicates=dash.ingest.duplicates, site="")

    @viewer
    async def tournaments_page(request: Request) -> Response:
        if len(dash.host.hosted) == 1:
            return RedirectResponse(f"/tournaments/{next(iter(dash.host.hosted))}", status_code=303)
        views = [dash.host.view(tid, dash.clock()) for tid in dash.host.hosted]
        return page(request, "tournaments.html", views=views, site="", after=dash.store.last_journal_id())

    @viewer
    async def tournament_page(request: Request) -> Response:
        try:
            view = dash.host.view(request.path_params["id"], dash.clock())
        except LookupError as e:
            return PlainTextResponse(str(e), status_code=404)
        return page(request, "tournament.html", v=view, site="", after=dash.store.last_journal_id())

    @action("supervisor")
    async def tournament_clock(request: Request, name: str, form: dict) -> None:
        await dash.clock_action(request.path_params["id"], form.get("do", ""))

    @viewer
    async def users_page(request: Request) -> Response:
        return page(request, "users.html", people=dash.store.user_names(), roles=ROLES, site="")

    # --- actions -----------------------------------------------------------------------------------------

    @action("supervisor")
    async def ack(request: Request, name: str, form: dict) -> None:
        await dash.acknowledge(request.path_params["id"], name)

    @action("supervisor")
    async def assign(request: Request, name: str, form: dict) -> None:
        dash.assign(request.path_params["id"], form.get("to", ""))

    @action("supervisor")
    async def resolve(request: Request, name: str, form: dict) -> None:
        dash.resolve(request.path_params["id"], name, form.get("note", ""))

    @action("admin")
    async def add_user(request: Request, name: str, form: dict) -> Response:
        dash.store.put_user(form.get("name", "").strip(), form.get("role", ""),
                            auth.hash_password(form.get("password", "")))
        return RedirectResponse("/users", status_code=303)

    # --- the live stream ------------------------------------------------------------------------------

    async def events(request: Request) -> Response:
        who = user(request)
        if who is None:
            return PlainTextResponse("sign in first", status_code=401)
        site = site_filter(request)
        try:
            last = int(request.headers.get("last-event-id") or request.query_params.get("after") or -1)
        except ValueError:
            last = -1
        if last < 0:
            last = dash.store.last_journal_id()
        return StreamingResponse(_stream(request, who[1], csrf(request), site, last), media_type="text/event-stream",
                                 headers={"cache-control": "no-store", "x-accel-buffering": "no"})

    async def _stream(request: Request, role: str, token: str, site: str | None, last: int) -> AsyncIterator[str]:
        yield "retry: 1000\n\n"
        acts = auth.may(role, "supervisor")
        readers[acts] += 1
        try:
            while True:
                rows = dash.journal_after(last)
                out = []
                for jid, kind, row_site, data in rows:
                    last = jid
                    if site and row_site and row_site != site:
                        continue
                    body = _cached_body(jid, kind, data, acts)
                    if body is not None:
                        # the CSRF token is per session: the cached body has a placeholder where it goes
                        out.append(f"id: {jid}\nevent: {kind}\ndata: {body.replace(TOKEN_SLOT, token)}\n\n")
                if out:
                    yield "".join(out)
                if not rows:
                    if await dash.wait(KEEPALIVE_S):
                        await asyncio.sleep(COALESCE_S)
                        continue
                    # a keepalive only when nothing was sent for a while: one write per wake-up, not two
                    if await request.is_disconnected():
                        return
                    yield ": keepalive\n\n"
        finally:
            readers[acts] -= 1

    def _cached_body(jid: int, kind: str, data: str, acts: bool) -> str | None:
        # the filing thread renders most bodies ahead (prepare): get() rather than `in`, as it may evict meanwhile
        found = bodies.get((jid, acts), _UNRENDERED)
        if found is _UNRENDERED:
            found = _render(jid, kind, data, (acts,))[acts]
        return found

    def prepare(rows: list[tuple[int, str, str | None, str]]) -> None:
        """On the filing thread: render the SSE bodies of fresh journal rows for the kinds of reader connected
        (with or without the action buttons); a reader of a kind nobody had renders for itself."""
        wanted = tuple(acts for acts, n in list(readers.items()) if n > 0)
        if wanted:
            for jid, kind, _site, data in rows:
                _render(jid, kind, data, wanted)

    dash.prepare = prepare

    def _render(jid: int, kind: str, data: str, wanted: tuple[bool, ...]) -> dict[bool, str | None]:
        """The body of one journal row for each kind of reader in ``wanted``, reading the database once."""
        found = json.loads(data)
        common: dict | None = found
        if kind == "alert":
            # an alert just filed is known as filed; a later change (ack, escalation) is read from the store
            a = dash.ingest.filed_alert(found["id"]) or dash.store.alert(found["id"])
            common = None if a is None else {
                "id": a.id, "open": a.open, "severity": a.severity, "escalated": a.escalated_at is not None,
                "html": "", "tile": _tile_html(a.site, a.table_id), "key": f"{a.site}/{a.table_id}", "site": a.site}
        elif kind == "tournament":
            try:
                view = dash.host.view(found["id"], dash.clock())
            except LookupError:        # a tournament a previous run hosted: nothing to show now
                view = None
            common = None if view is None else {"id": view["id"], "html": ""}
        elif kind == "table":
            html = _tile_html(found["site"], found["table"])
            common = {"key": f"{found['site']}/{found['table']}", "tile": html} if html else None
        out: dict[bool, str | None] = {}
        for acts in wanted:
            body = common
            role = "supervisor" if acts else "viewer"
            if kind == "alert" and common is not None:
                body = {**common, "html": env.get_template("_alert.html").render(
                    a=a, may=lambda need, r=role: auth.may(r, need), now=dash.clock(), csrf=TOKEN_SLOT, users=[])}
            elif kind == "tournament" and common is not None:
                body = {**common, "html": env.get_template("_tournament.html").render(
                    v=view, may=lambda need, r=role: auth.may(r, need), now=dash.clock(), csrf=TOKEN_SLOT)}
            out[acts] = None if body is None else json.dumps(body)
            bodies[(jid, acts)] = out[acts]
        while len(bodies) > BODIES_KEPT:
            bodies.popitem(last=False)
        return out

    def _tile_html(site: str, table: str) -> str:
        """The tile as the ingest holds it (no database read: 500 of them come at once after a start)."""
        held = dash.ingest.board.row((site, table))
        if held is None:
            return ""
        row, open_alerts = held
        return env.get_template("_tile.html").render(t=tile(row, open_alerts, dash.clock()))

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        tasks = [asyncio.create_task(dash.run_mqtt()), asyncio.create_task(dash.run_escalation()),
                 asyncio.create_task(dash.run_tournaments())] if background else []
        try:
            yield
        finally:
            for t in tasks:
                t.cancel()
            for t in tasks:
                with contextlib.suppress(asyncio.CancelledError):
                    await t

    static = str(resources.files("dealerbox.dashboard").joinpath("static"))
    routes = [
        Route("/login", login_page, methods=["GET"]), Route("/login", login, methods=["POST"]),
        Route("/logout", logout, methods=["POST"]),
        Route("/", floor_map), Route("/alerts", alert_queue), Route("/alerts.csv", export_csv),
        Route("/alerts/{id:int}/ack", ack, methods=["POST"]), Route("/alerts/{id:int}/assign", assign, methods=["POST"]),
        Route("/alerts/{id:int}/resolve", resolve, methods=["POST"]),
        Route("/tables/{site}/{table}", table_page), Route("/tables/{site}/{table}/hands/{hand:int}", hand_page),
        Route("/tournaments", tournaments_page), Route("/tournaments/{id}", tournament_page),
        Route("/tournaments/{id}/clock", tournament_clock, methods=["POST"]),
        Route("/health", health_page), Route("/users", users_page), Route("/users", add_user, methods=["POST"]),
        Route("/events", events), Route("/api/anchors", dash.ingest.anchor_store.api),   # verify --from-floor
        Mount("/static", StaticFiles(directory=static), name="static"),
    ]
    middleware = [Middleware(SessionMiddleware, secret_key=dash.session_key, session_cookie="dealerbox_floor",
                             same_site="strict", https_only=False, max_age=12 * 3600)]
    app = Starlette(routes=routes, middleware=middleware, lifespan=lifespan)
    app.state.dashboard = dash
    return app


def _cell(value: object) -> object:
    value = inert(value)      # control codes shown as \xNN: a `cat` of the export cannot drive a terminal
    if isinstance(value, str) and value[:1] in ("=", "+", "-", "@", "\t", "\r"):
        return "'" + value
    return value
