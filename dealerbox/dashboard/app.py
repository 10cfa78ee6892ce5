"""The Starlette application: pages (map, alert queue and history, table, hand, health, users), the actions
(POST, CSRF-checked, role-checked against the store on every request), the CSV export and the live stream
(live.py).

    app = create_app(Dashboard(Store("sqlite:///floor.db"), BrokerSettings(port=1883)))
"""

from __future__ import annotations

import asyncio
import contextlib
import csv
import io
import secrets
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass
from importlib import resources
from urllib.parse import urlencode

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import HTMLResponse, PlainTextResponse, RedirectResponse, Response, StreamingResponse
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from ..history.summary import part_line, pot_lines, summary_of_hand
from ..sinks.floor.view import open_count
from . import auth
from .live import Live
from .render import environment, inert, tile
from .service import Dashboard
from .store import ROLES, Alert

CSV_COLUMNS = ("id", "site", "table_id", "finding", "rule", "citation", "severity", "ruling", "hand", "raised_at",
               "seen_by", "seen_at", "acked_by", "acked_at", "assigned_to", "assigned_by", "assigned_at",
               "resolved_by", "resolved_at", "note", "escalated_at", "table_acked_by", "table_acked_at")
PAGE_ROWS = 100            # alerts per page of the queue and history
FILTERS = ("site", "table", "rule", "severity", "supervisor")


class Refused(Exception):
    def __init__(self, status: int, text: str) -> None:
        super().__init__(text)
        self.status, self.text = status, text


@dataclass(frozen=True)
class Visitor:
    """Who sent a request, as the store says now: ``name`` None before signing in."""
    name: str | None
    role: str | None
    csrf: str
    token_hash: str | None = None
    login_cookie: str | None = None      # a fresh one to set (the login form's CSRF token is bound to it)


def create_app(dash: Dashboard, *, background: bool = True, proxies: auth.Proxies | None = None) -> Starlette:
    env = environment()
    limit = auth.LoginLimit()
    trust = proxies or auth.Proxies()

    def session_of(token_hash: str) -> tuple[str, str, str] | None:
        return dash.store.session(token_hash, dash.clock())

    live = Live(dash, env, session_of)

    def visitor(request: Request) -> Visitor:
        known = getattr(request.state, "visitor", None)
        if known is not None:
            return known
        found = None
        token = request.cookies.get(auth.SESSION_COOKIE)
        if token:
            hashed = auth.token_hash(token)
            got = session_of(hashed)
            if got is not None and got[1] in ROLES:
                found = Visitor(got[0], got[1], got[2], hashed)
        if found is None:
            cookie = request.cookies.get(auth.LOGIN_COOKIE)
            fresh = None if cookie else secrets.token_urlsafe(24)
            found = Visitor(None, None, auth.login_csrf(dash.session_key, cookie or fresh or ""), login_cookie=fresh)
        request.state.visitor = found
        return found

    def secure(request: Request) -> bool:
        return trust.secure(request.url.scheme, request.client.host if request.client else None,
                            request.headers.get("x-forwarded-proto"))

    def cookie(response: Response, request: Request, name: str, value: str | None, max_age: int) -> Response:
        if value is None:
            response.delete_cookie(name, path="/", secure=secure(request), httponly=True, samesite="strict")
        else:
            response.set_cookie(name, value, max_age=max_age, path="/", secure=secure(request), httponly=True,
                                samesite="strict")
        return response

    def page(request: Request, name: str, status: int = 200, **context: object) -> HTMLResponse:
        who = visitor(request)
        context.setdefault("after", dash.store.last_journal_id())    # the page holds everything up to here
        calls = dash.store.floor_calls()      # every page's alarm: the open floor calls per site, from the store
        html = env.get_template(name).render(user=who.name, role=who.role, csrf=who.csrf,
                                             may=lambda need: bool(who.name) and auth.may(who.role, need),
                                             broker=dash.broker_note, connected=dash.connected,
                                             now=dash.clock(), tournaments=list(dash.host.hosted), floor_calls=calls,
                                             floor_calls_in=lambda s: sum(n for k, n in calls.items()
                                                                          if not s or k == s), **context)
        response = HTMLResponse(html, status_code=status)
        if who.login_cookie:
            cookie(response, request, auth.LOGIN_COOKIE, who.login_cookie, 3600)
        return response

    async def guard(request: Request, needed: str) -> tuple[str, dict]:
        """The signed-in user's name and the form, or Refused: not signed in, wrong CSRF token, role too low."""
        who = visitor(request)
        if who.name is None or who.role is None:
            raise Refused(401, "sign in first")
        form = dict(await request.form()) if request.method == "POST" else {}
        if request.method == "POST" and not auth.csrf_ok(who.csrf, request.headers.get("x-csrf-token")
                                                         or str(form.get("csrf") or "")):
            raise Refused(403, "the form's CSRF token is missing or stale: reload the page and try again")
        if not auth.may(who.role, needed):
            raise Refused(403, f"{who.name} is a {who.role}: this needs a {needed}")
        return who.name, {k: str(v) for k, v in form.items()}

    def viewer(handler: Callable[[Request], Awaitable[Response]]) -> Callable[[Request], Awaitable[Response]]:
        async def wrapped(request: Request) -> Response:
            if visitor(request).name is None:
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

    # --- signing in and out -------------------------------------------------------------------------------

    async def login_page(request: Request) -> Response:
        return page(request, "login.html", error="", next=request.query_params.get("next", "/"))

    async def login(request: Request) -> Response:
        form = await request.form()
        name, password = str(form.get("name", "")), str(form.get("password", ""))
        where = trust.client(request.client.host if request.client else None, request.headers.get("x-forwarded-for"))
        nxt = str(form.get("next") or "/")
        nxt = nxt if nxt.startswith("/") and not nxt.startswith("//") else "/"
        sent_from = request.cookies.get(auth.LOGIN_COOKIE)
        if not sent_from or not auth.csrf_ok(auth.login_csrf(dash.session_key, sent_from), str(form.get("csrf", ""))):
            return page(request, "login.html", 403, error="The form was stale: try again.", next=nxt)
        wait = limit.wait(name, where)
        if wait > 0:
            refused = page(request, "login.html", 429, next=nxt,
                           error=f"Too many failed sign-ins: wait {wait:.0f} s and try again.")
            refused.headers["retry-after"] = str(int(wait) + 1)
            return refused
        role = await asyncio.to_thread(auth.check_password, dash.store, name, password)
        if role is None:
            limit.failed(name, where)
            return page(request, "login.html", 401, error="Wrong name or password.", next=nxt)
        limit.succeeded(name, where)
        token = secrets.token_urlsafe(32)
        dash.store.open_session(auth.token_hash(token), name, auth.new_csrf(), dash.clock(), auth.SESSION_TTL_S)
        done = RedirectResponse(nxt, status_code=303)
        cookie(done, request, auth.SESSION_COOKIE, token, int(auth.SESSION_TTL_S))
        return cookie(done, request, auth.LOGIN_COOKIE, None, 0)

    async def anchors_api(request: Request) -> Response:
        """The floor's signed heads for ``verify --from-floor`` (HTTP Basic), slowed by the login form's limit."""
        where = trust.client(request.client.host if request.client else None, request.headers.get("x-forwarded-for"))
        return await dash.ingest.anchor_store.api(request, limit, where)

    @action("viewer")
    async def logout(request: Request, name: str, form: dict) -> Response:
        hashed = visitor(request).token_hash
        if hashed:
            dash.store.end_session(hashed)
            live.sessions_changed()
        return cookie(RedirectResponse("/login", status_code=303), request, auth.SESSION_COOKIE, None, 0)

    # --- pages ----------------------------------------------------------------------------------------

    def site_filter(request: Request) -> str | None:
        return request.query_params.get("site") or None

    @viewer
    async def floor_map(request: Request) -> Response:
        site = site_filter(request)
        after = dash.store.last_journal_id()
        alerts = dash.store.alerts(site=site, open_only=True, limit=5000)
        by_table: dict[tuple[str, str], list[Alert]] = {}
        for a in alerts:
            by_table.setdefault((a.site, a.table_id), []).append(a)
        tiles = [tile(t, by_table.get((t["site"], t["table_id"]), []), dash.clock()) for t in dash.store.tables(site)]
        return page(request, "map.html", tiles=tiles, site=site or "", sites=dash.store.sites(), after=after,
                    live_filter={"site": site} if site else {})

    def filters(request: Request) -> dict:
        q = request.query_params
        out: dict = {k: q.get(k) or None for k in FILTERS}
        for key in ("since", "until"):
            try:
                out[key] = float(q[key]) if q.get(key) else None
            except ValueError:
                out[key] = None
        return out

    def number(request: Request, key: str, default: int) -> int:
        text = request.query_params.get(key, "")
        # ASCII digits only ("²".isdigit() is true, int("²") raises) and no more than a column holds
        return int(text) if text.isascii() and text.isdigit() and len(text) <= 9 else default

    @viewer
    async def alert_queue(request: Request) -> Response:
        f = filters(request)
        at = max(1, number(request, "page", 1))
        after = dash.store.last_journal_id()
        alerts = dash.store.alerts(**f, limit=PAGE_ROWS + 1, offset=(at - 1) * PAGE_ROWS)
        query = urlencode([(k, v) for k, v in request.query_params.multi_items() if k != "page"])
        return page(request, "alerts.html", alerts=alerts[:PAGE_ROWS], f={k: v or "" for k, v in f.items()},
                    site=f["site"] or "", users=[n for n, r in dash.store.user_names() if auth.may(r, "supervisor")],
                    after=after, at=at, more=len(alerts) > PAGE_ROWS, query=query,
                    # live rows are shown only on the first page, and only those this page's filter shows
                    live_filter={**{k: v for k, v in f.items() if v is not None}, "older": at > 1})

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
        after = dash.store.last_journal_id()
        row = dash.store.table(site, table)
        if row is None:
            return PlainTextResponse(f"no table {site}/{table} has been heard from", status_code=404)
        alerts = dash.store.alerts(site=site, table=table, limit=50)
        state = row["state"] or {}
        return page(request, "table.html", t=tile(row, alerts, dash.clock()), state=state,
                    open_at_table=open_count(state), oldest=state.get("findings_oldest"),
                    alerts=alerts, hands=dash.store.hands(site, table), site=site, after=after,
                    live_filter={"site": site, "table": table})

    @viewer
    async def hand_page(request: Request) -> Response:
        site, table, hand = request.path_params["site"], request.path_params["table"], request.path_params["hand"]
        events = dash.store.hand(site, table, hand)
        summary = summary_of_hand(events, table, hand)   # the same summary as the PHH export and the screen
        boards = [summary.board, *summary.boards] if summary else []
        parts = [[(part, part_line(part, len(boards))) for part in summary.parts if part.index == i]
                 for i in range(len(summary.pots))] if summary else []
        return page(request, "hand.html", site=site, table=table, hand=hand, events=events, summary=summary,
                    pot_lines=pot_lines(summary.pots) if summary else [], boards=boards, parts=parts)

    @viewer
    async def health_page(request: Request) -> Response:
        after = dash.store.last_journal_id()
        before = number(request, "before", 0) or None
        refused = dash.store.refusals(50, before)
        return page(request, "health.html", tables=dash.store.tables(), counters=dash.store.counters(),
                    duplicates=dash.ingest.duplicates, site="", after=after, refused=refused,
                    older=refused[-1]["id"] if len(refused) == 50 else None)

    @viewer
    async def tournaments_page(request: Request) -> Response:
        if len(dash.host.hosted) == 1:
            return RedirectResponse(f"/tournaments/{next(iter(dash.host.hosted))}", status_code=303)
        views = [dash.host.view(tid, dash.clock()) for tid in dash.host.hosted]
        return page(request, "tournaments.html", views=views, site="")

    @viewer
    async def tournament_page(request: Request) -> Response:
        try:
            view = dash.host.view(request.path_params["id"], dash.clock())
        except LookupError as e:
            return PlainTextResponse(str(e), status_code=404)
        return page(request, "tournament.html", v=view, site="")

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
        a = dash.store.alert(request.path_params["id"])
        if a is None:
            raise LookupError(f"no alert {request.path_params['id']}")
        if a.resolved_at is not None:      # a settled alert is nobody's to follow up
            raise ValueError(f"alert {a.id} is already resolved by {a.resolved_by}: nothing to assign")
        dash.assign(a.id, form.get("to", ""), by=name)

    @action("supervisor")
    async def resolve(request: Request, name: str, form: dict) -> None:
        await dash.resolve(request.path_params["id"], name, form.get("note", ""))

    @action("supervisor")
    async def seen(request: Request, name: str, form: dict) -> Response:
        ids = [int(i) for i in form.get("ids", "").split(",") if i.strip().isdigit()]
        return PlainTextResponse(str(dash.seen(ids, name)))

    @action("admin")
    async def put_user(request: Request, name: str, form: dict) -> Response:
        password = form.get("password", "")
        dash.store.put_user(form.get("name", "").strip(), form.get("role", ""),
                            auth.hash_password(password) if password else None)
        live.sessions_changed()          # a new password ends that user's sessions; a new role, their streams
        return RedirectResponse("/users", status_code=303)

    @action("admin")
    async def remove_user(request: Request, name: str, form: dict) -> Response:
        gone = request.path_params["name"]
        if gone == name:
            raise ValueError("remove: an admin cannot remove themself (ask another admin)")
        if not dash.store.remove_user(gone):
            raise LookupError(f"remove: no user named {gone!r}")
        live.sessions_changed()
        return RedirectResponse("/users", status_code=303)

    # --- the live stream ------------------------------------------------------------------------------

    async def events(request: Request) -> Response:
        who = visitor(request)
        if who.name is None or who.role is None or who.token_hash is None:
            return PlainTextResponse("sign in first", status_code=401)
        try:
            last = int(request.headers.get("last-event-id") or request.query_params.get("after") or -1)
        except ValueError:
            last = -1
        if last < 0:
            last = dash.store.last_journal_id()
        stream = live.stream(who.token_hash, who.role, who.csrf, site_filter(request), last, request.is_disconnected)
        return StreamingResponse(stream, media_type="text/event-stream",
                                 headers={"cache-control": "no-store", "x-accel-buffering": "no"})

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        tasks = [asyncio.create_task(dash.run_mqtt()), asyncio.create_task(dash.run_escalation()),
                 asyncio.create_task(dash.run_tournaments()),
                 asyncio.create_task(dash.run_journal_watch())] if background else []
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
        Route("/alerts/seen", seen, methods=["POST"]),
        Route("/alerts/{id:int}/ack", ack, methods=["POST"]),
        Route("/alerts/{id:int}/assign", assign, methods=["POST"]),
        Route("/alerts/{id:int}/resolve", resolve, methods=["POST"]),
        Route("/tables/{site}/{table}", table_page), Route("/tables/{site}/{table}/hands/{hand:int}", hand_page),
        Route("/tournaments", tournaments_page), Route("/tournaments/{id}", tournament_page),
        Route("/tournaments/{id}/clock", tournament_clock, methods=["POST"]),
        Route("/health", health_page), Route("/users", users_page), Route("/users", put_user, methods=["POST"]),
        Route("/users/{name}/remove", remove_user, methods=["POST"]),
        Route("/events", events), Route("/api/anchors", anchors_api),   # verify --from-floor
        Mount("/static", StaticFiles(directory=static), name="static"),
    ]
    app = Starlette(routes=routes, lifespan=lifespan)
    app.state.dashboard = dash
    return app


def _cell(value: object) -> object:
    value = inert(value)      # control codes shown as \xNN: a `cat` of the export cannot drive a terminal
    if isinstance(value, str) and value[:1] in ("=", "+", "-", "@", "\t", "\r"):
        return "'" + value
    return value
