"""What the dashboard does with one floor message: parse it with the contract's checks, drop redeliveries, file
it in the store and journal what browsers must be told. No network here, so tests feed bytes straight in and the
console view (``dealerbox floor``) and the web dashboard judge payloads the same way (``contract.display_errors``
and view.Stream for the sequence numbers).
"""

from __future__ import annotations

import json
from collections import OrderedDict
from dataclasses import dataclass
from collections.abc import Callable

from ..sinks.floor import contract as c
from ..sinks.floor.view import MAX_PAYLOAD, STREAMS, Stream, judge
import sqlalchemy as sa

from ..record.anchor import anchor_errors
from .anchors import AnchorStore
from .board import TileBoard
from .store import Alert, Store

TILE_FIELDS = ("hand", "phase", "draw", "game", "stakes", "dealer", "pot", "findings", "health")

__all__ = ["MAX_PAYLOAD", "FloorIngest", "Received"]
SEEN_IDS_KEPT = 50_000            # envelope ids remembered for dropping QoS 1 redeliveries
TILES_EVERY_S = 0.25              # during a backlog (a start), tile pushes gather this long: one per table
TILES_PER_BURST = 100             # during a backlog, tile pushes journalled with one burst at most
FILED_ALERTS_KEPT = 5_000         # alerts just filed, kept for the SSE renderer so it need not read them back
ESCALATION = "escalation"         # the topic kind the dashboard publishes (dealerbox/<site>/<table>/escalation)


@dataclass
class Received:
    """What one message changed: the journal ids to push, and whether it was filed."""
    journal: list[int]
    filed: bool
    reason: str = ""


class FloorIngest:
    def __init__(self, store: Store) -> None:
        self.store = store
        self.anchor_store = AnchorStore(store)      # checks each anchor against the table's enrolled key
        self.streams: dict[tuple[str, str, str, str], Stream] = {}      # (site, table, kind, boot)
        self.seen_ids: OrderedDict[str, None] = OrderedDict()
        self.duplicates = 0
        self.shown: dict[tuple[str, str], tuple[object, ...]] = {}     # what each tile last showed
        self.heard: dict[tuple[str, str], int] = {}                  # events and alerts per table, this burst
        self.states: dict[tuple[str, str], tuple[str, int]] = {}    # the latest state per table and how many
        self.events: list[dict] = []
        self.statuses: dict[tuple[str, str], tuple[str, str, int]] = {}   # the latest status per table, how many
        self.online: set[tuple[str, str]] = set()      # tables that said "online" this burst (anchor presence)
        self.filed = 0
        self.known = store.table_keys()
        self.board = TileBoard(store)
        # tables whose tile changed since it was last pushed, in the order they changed: one push each
        self.touched: dict[tuple[str, str], None] = {}
        self.alerted: set[tuple[str, str]] = set()     # tables with an alert this burst: its push carries the tile
        self.tiles_at = 0.0          # when every touched tile was last pushed, or when the backlog began
        self.behind = False          # the last burst had more waiting behind it
        self.filed_alerts: OrderedDict[int, Alert] = OrderedDict()
        # a hosted tournament director reads each checked state: the ids of the tournaments whose page changed
        self.state_seen: Callable[[str, str, dict], list[str]] | None = None

    def receive_many(self, messages: list[tuple[str, bytes]], now: float, *, backlog: bool = False) -> list[int]:
        """File a burst in one transaction (one commit instead of one per message); the journal ids to push.
        ``backlog``: more is waiting to be filed, so the tile pushes wait: at a start 500 tables' statuses and
        retained states come at once, and each table's tile is pushed once when the backlog is filed, or every
        TILES_EVERY_S while it lasts (its first push too), TILES_PER_BURST at a time, never with an alert's burst.
        An alert that arrives meanwhile is filed ahead of the backlog (subscriber.py) and journalled ahead of
        those pushes, so a browser is sent it first; a burst it waits for renders at most TILES_PER_BURST tiles."""
        return self.receive_until(messages, now, backlog=backlog)[0]

    def receive_until(self, messages: list[tuple[str, bytes]], now: float, *, backlog: bool = False,
                      stop: Callable[[], bool] | None = None) -> tuple[list[int], int]:
        """``receive_many``, cut short once ``stop()`` says an alert waits: what was read so far is filed (at least
        one message) and pushes no tiles, so the alert's own burst follows at once. The journal ids and how many
        of ``messages`` were filed (the caller keeps the rest, in order, for after the alert)."""
        if backlog and not self.behind:
            self.tiles_at = now               # a backlog begins: its first pushes gather for TILES_EVERY_S too
        ids: list[int] = []
        done = 0
        try:
            with self.store.engine.begin() as conn:
                for topic, raw in messages:
                    ids += self._receive(topic, raw, now, conn).journal
                    done += 1
                    if stop is not None and done < len(messages) and stop():
                        backlog = True
                        break
                self.behind = backlog
                # while more waits, a burst with alerts pushes no tiles: they would be rendered before its alerts
                # are sent; nor does a burst cut short for an alert
                due = not backlog or (not self.alerted and now - self.tiles_at >= TILES_EVERY_S
                                      and done == len(messages))
                ids += self._flush(conn, now, tiles=due, most=TILES_PER_BURST if backlog else None)
        except Exception:
            # rolled back: forget what this burst marked as seen, so the tables' resends are filed, not dropped
            # as redeliveries; re-read the tables another instance on the same database may have added
            self.streams.clear()
            self.seen_ids.clear()
            self.heard, self.states, self.events, self.statuses, self.filed = {}, {}, [], {}, 0
            self.online = set()
            self.known = self.store.table_keys()
            raise
        return ids, done

    def _flush(self, conn: sa.Connection, now: float, tiles: bool = True, most: int | None = None) -> list[int]:
        """A burst's counts, states and events in a few executemany statements instead of several per message,
        and one tile push per table whose tile changed, however many of its messages the burst held (500 tables
        starting send a status and a state each in the same second). The journal ids of those pushes."""
        fresh = (set(self.heard) | set(self.states) | set(self.statuses)) - self.known
        if fresh:                               # tables heard of for the first time get their rows first
            self.store.add_tables(conn, sorted(fresh), now)
            self.known |= fresh
        self._settle_presence(conn, now)
        self.store.file_burst(conn, now, self.heard, self.states, self.events, self.statuses)
        if self.filed:
            self.store.bump(conn, "received", self.filed)
        self.heard, self.states, self.events, self.statuses = {}, {}, [], {}
        self.filed = 0
        for key in self.alerted:               # an alert's push carries its table's tile
            self.touched.pop(key, None)
        self.alerted = set()
        if not tiles:
            return []
        push = list(self.touched)[:most]
        if len(push) == len(self.touched):
            self.touched = {}
            self.tiles_at = now
        else:                                  # the rest with the next bursts, oldest first
            for key in push:
                del self.touched[key]
        return self.store.log_many(conn, "table", [(site, {"site": site, "table": table}) for site, table in push],
                                   now)

    def receive(self, topic: str, raw: bytes, now: float) -> Received:
        with self.store.engine.begin() as conn:
            got = self._receive(topic, raw, now, conn)
            got.journal += self._flush(conn, now)
        return got

    def _receive(self, topic: str, raw: bytes, now: float, conn: sa.Connection) -> Received:
        if topic.endswith("/anchor"):
            return self._anchor(topic, raw, now, conn)
        parsed = c.parse_topic(topic)
        if parsed is None:
            return self._refuse(conn, None, None, topic, "not a floor topic", now)
        if parsed[2] in ("cmd", "holecards", ESCALATION):
            return Received([], False, "not for the dashboard")    # we never subscribe to them; ignore if routed
        judged = judge(topic, raw)
        if len(judged) == 2:
            return self._refuse(conn, parsed[0], parsed[1], topic, str(judged[0]), now)
        site, table, kind, payload = judged
        if self._redelivered(site, table, kind, payload):
            self.duplicates += 1
            return Received([], False, "duplicate")
        ids: list[int] = []
        if kind == "status":
            key = (site, table)
            self.statuses[key] = (payload["status"], payload["reason"], self.statuses.get(key, ("", "", 0))[2] + 1)
            self.board.heard((site, table), now, status=payload["status"], reason=payload["reason"])
            if payload["status"] == "online":      # the floor's own clock; in one statement when the burst is filed
                self.online.add(key)
            else:
                self._settle_presence(conn, now)
                self.anchor_store.presence(conn, site, table, payload["status"], now)
            self.touched[key] = None
        elif kind == "state":
            key = (site, table)
            # the checked payload as it came: re-encoding every table's state each second cost more than filing it
            self.states[key] = (_as_text(raw, payload), self.states.get(key, ("", 0))[1] + 1)
            self.board.heard(key, now, state=payload, state_at=now, status="online")
            # a state arrives every second from every table: browsers hear of it only when a tile would change
            shown = tuple(payload.get(k) for k in TILE_FIELDS)
            if self.shown.get(key) != shown:
                self.shown[key] = shown
                self.touched[key] = None
            if self.state_seen is not None:
                ids += [self.store.log(conn, "tournament", site, {"id": tid}, now)
                        for tid in self.state_seen(site, table, payload)]
        elif kind == "event":
            data = payload["data"]
            self.events.append({"site": site, "table_id": table, "hand": data.get("hand"), "name": data["event"],
                                "data": json.dumps(data), "at": now})
            if data["event"] == "HandEnded" and isinstance(data.get("hand"), int):
                self.anchor_store.hand_ended(conn, site, table, data["hand"], now)   # a head must name it
            if data["event"] == "FindingAcknowledged":
                by = data.get("by") if isinstance(data.get("by"), str) else None
                ids += self._acked_at_table(conn, site, table, payload["boot"], data["id"], now, by)
        else:
            f = payload["finding"]
            row = {"site": site, "table_id": table, "boot": payload["boot"], "finding": f["id"],
                   "rule": str(f.get("rule") or ""), "citation": f["citation"], "severity": f["severity"],
                   "ruling": f["ruling"], "seats": json.dumps(f.get("seats") or []),
                   "hand": f.get("hand") if isinstance(f.get("hand"), int) else None, "raised_at": now}
            alert_id = self.store.add_alert(conn, row)
            if alert_id is None:
                self.duplicates += 1
                return Received([], False, "duplicate")
            self.board.alert_opened((site, table), alert_id, row["severity"])
            self._keep_filed(Alert(id=alert_id, **row, acked_by=None, acked_at=None, assigned_to=None,
                                   resolved_by=None, resolved_at=None, note=None, escalated_at=None))
            self.alerted.add((site, table))
            ids.append(self.store.log(conn, "alert", site, {"id": alert_id}, now))
        if kind in STREAMS:
            key = (site, table)
            self.heard[key] = self.heard.get(key, 0) + 1
        self.filed += 1
        return Received(ids, True)

    def _acked_at_table(self, conn: sa.Connection, site: str, table: str, boot: str, finding: str, now: float,
                        by: str | None = None) -> list[int]:
        """The table says a finding was acknowledged there (by the dealer, or by whoever it names in ``by``):
        noted on our alert. It closes a dealer alert; a floor alert stays open until the floor's own records
        close it, as a table can name anybody (``by: "dashboard:sam"`` is only what the table says)."""
        a = self.store.alert_of(conn, site, table, boot, finding)     # in this burst's transaction: it may be new
        if a is not None and a.table_acked_at is None:
            said = (by or "table")[:64]
            values: dict[str, object] = {"table_acked_by": said, "table_acked_at": now}
            if a.open and a.severity != "floor":
                values.update(acked_at=now, acked_by=said)
                self.board.alert_closed((site, table), a.id)
            self.store.update_alert(conn, a.id, **values)
            self.alerted.add((site, table))
            return [self.store.log(conn, "alert", site, {"id": a.id}, now)]
        return []

    def _keep_filed(self, alert: Alert) -> None:
        self.filed_alerts[alert.id] = alert
        if len(self.filed_alerts) > FILED_ALERTS_KEPT:
            self.filed_alerts.popitem(last=False)

    def filed_alert(self, alert_id: int) -> Alert | None:
        """The alert as filed, once (the SSE renderer's first look at it), or None: then read the store."""
        return self.filed_alerts.pop(alert_id, None)

    def _redelivered(self, site: str, table: str, kind: str, payload: dict) -> bool:
        """QoS 1 may deliver twice: drop by the envelope's id when it has one, else by (boot, seq) per stream."""
        envelope_id = payload.get("id")
        if isinstance(envelope_id, str) and kind in STREAMS:
            if envelope_id in self.seen_ids:
                return True
            self.seen_ids[envelope_id] = None
            if len(self.seen_ids) > SEEN_IDS_KEPT:
                self.seen_ids.popitem(last=False)
            return False
        if kind not in STREAMS:
            return False
        stream = self.streams.setdefault((site, table, kind, payload["boot"]), Stream())
        return not stream.accept(payload["seq"])

    def _settle_presence(self, conn: sa.Connection, now: float) -> None:
        """The "online" statuses of the burst so far, told to the anchor store before anything that reads what they
        change (an ``offline``, an anchor) and at the burst's end."""
        if self.online:
            self.anchor_store.back_online(conn, sorted(self.online), now)
            self.online = set()

    def _anchor(self, topic: str, raw: bytes, now: float, conn: sa.Connection) -> Received:
        """A table's signed log head: kept (every one, not only the retained latest) for ``verify --anchors``."""
        self._settle_presence(conn, now)
        parts = topic.split("/")
        if len(parts) != 4 or parts[0] != c.ROOT or not (c.NAME.match(parts[1]) and c.NAME.match(parts[2])):
            return self._refuse(conn, None, None, topic, "not a floor topic", now)
        site, table = parts[1], parts[2]
        try:
            payload: dict | None = json.loads(raw.decode("utf-8")) if len(raw) <= MAX_PAYLOAD else None
        except (UnicodeDecodeError, ValueError, RecursionError) as e:
            return self._refuse(conn, site, table, topic, f"malformed JSON ({str(e)[:200]})", now)
        errors = anchor_errors(payload) if payload is not None else ["(top level): larger than the floor accepts"]
        if payload is not None and not errors and (payload["site"], payload["table"]) != (site, table):
            errors = [f"site/table: {payload['site']}/{payload['table']} on {site}/{table}'s topic"]
        if errors or payload is None:
            return self._refuse(conn, site, table, topic, f"anchor: {errors[0]}", now)
        verdict = self.anchor_store.receive(conn, site, table, payload, now)
        ids = [i for row in verdict.alerts for i in self._file_alert(conn, row, now)]
        if verdict.kept or verdict.reason == "duplicate":
            return Received(ids, verdict.kept, verdict.reason)
        refused = self._refuse(conn, site, table, topic, verdict.reason, now)
        return Received(ids + refused.journal, False, verdict.reason)

    def sweep_anchors(self, now: float) -> list[int]:
        """Raise the enrolled tables whose ended hands no signed head named within the window (journal ids)."""
        with self.store.engine.begin() as conn:
            return [i for row in self.anchor_store.unsigned_hands(conn, now) for i in self._file_alert(conn, row, now)]

    def _file_alert(self, conn: sa.Connection, row: dict, now: float) -> list[int]:
        """A floor alert the dashboard raises itself (the anchor store's rollback, gap or late head)."""
        alert_id = self.store.add_alert(conn, row)
        if alert_id is None:
            return []
        key = (row["site"], row["table_id"])
        self.board.alert_opened(key, alert_id, row["severity"])
        self._keep_filed(Alert(id=alert_id, **row, acked_by=None, acked_at=None, assigned_to=None,
                               resolved_by=None, resolved_at=None, note=None, escalated_at=None))
        self.alerted.add(key)
        return [self.store.log(conn, "alert", row["site"], {"id": alert_id}, now)]

    def _refuse(self, conn: sa.Connection, site: str | None, table: str | None, topic: str, reason: str,
                now: float) -> Received:
        self.store.bump(conn, "invalid")
        named = site and table and c.NAME.match(site) and c.NAME.match(table)
        if site and table and named:
            self.store.touch_table(conn, site, table, now, invalid=True)
        self.store.refused(conn, site if named else None, table if named else None, topic, reason, now)
        ids = [self.store.log(conn, "invalid", site, {"topic": topic[:200], "reason": reason[:300]}, now)]
        return Received(ids, False, reason)


def _as_text(raw: bytes, payload: dict) -> str:
    """The payload's JSON text: the bytes as sent when UTF-8 (json.loads also took UTF-16 or -32), else re-encoded."""
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        return json.dumps(payload)
