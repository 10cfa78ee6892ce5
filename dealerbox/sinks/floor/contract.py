"""The floor topics' contract: topic names, the JSON Schemas (``dealerbox/schemas/floor/*.json``, the one
definition) and the pure functions that turn table events and snapshots into payloads. No I/O but reading
the schema files; the link, the floor view and the tests all use these.

>>> topic("demo", "T01", "alert")
'dealerbox/demo/T01/alert'
>>> parse_topic("dealerbox/demo/T01/state")
('demo', 'T01', 'state')
"""

from __future__ import annotations

import dataclasses
import json
import re
import unicodedata
from functools import cache
from importlib import resources
from typing import Any, TypeGuard

import jsonschema
from referencing import Registry, Resource

from ...engine.events import EVENT_TYPES, DealerSignedIn, DealerSignedOut, FindingRaised, TableEvent
from ...engine.state import TableState

VERSION = 1
ROOT = "dealerbox"
REVIEW = "review"             # review replays publish under review/dealerbox/...: never the live topics
KINDS = ("status", "state", "event", "alert", "holecards", "cmd")
ALERT_SEVERITIES = ("dealer", "floor")
NAME = re.compile(r"^[A-Za-z0-9_-]{1,32}$")
CONTENT_TYPE = "application/json"
STATE_EXPIRY_S = 300          # a retained state older than this is stale: the broker drops it
STATE_HEARTBEAT_S = 60        # so the terminal republishes at least this often

# Events the outbox drops first when it is full: they are re-derivable from the state and the later events.
LOW_VALUE = frozenset({"ChipsMoved", "CardDealt", "CardBurned", "CardMucked", "BoardCardDealt", "RunCardDealt",
                       "ActionTaken",
                       "UnknownTagSeen", "StackChanged"})
STATE_FIELDS = ("hand", "phase", "game", "button", "board", "burn_count", "muck_count", "pot", "to_act", "deck_id",
                "winners", "dealer")
SEAT_FIELDS = ("seat", "occupied", "in_hand", "folded", "all_in", "to_act", "dead", "cards_held", "shown", "bet",
               "stack")
FINDING_FIELDS = ("id", "rule", "citation", "severity", "outcome", "ruling", "seats", "cards", "acknowledged",
                  "hand")
PRIORITY_LOW, PRIORITY_NORMAL, PRIORITY_KEEP = 0, 1, 2
DROPPED_NOTICE = "FloorEventsDropped"


def topic(site: str, table: str, kind: str, review: bool = False) -> str:
    """The live topic, or with ``review`` its copy for a replayed log (``review/dealerbox/<site>/<table>/<kind>``)."""
    return f"{REVIEW}/{ROOT}/{site}/{table}/{kind}" if review else f"{ROOT}/{site}/{table}/{kind}"


def parse_topic(name: str) -> tuple[str, str, str] | None:
    """(site, table, kind) of a floor topic, or None when it is not one (a ``$share/...`` prefix is dropped)."""
    parts = name.split("/")
    if len(parts) == 4 and parts[0] == ROOT and parts[3] in KINDS:
        return parts[1], parts[2], parts[3]
    return None


def inert(text: object, limit: int = 500) -> str:
    """Text a table sent, made safe to print on a floor console: control characters (ESC sequences, C1
    codes, DEL), bidirectional overrides and other invisible format characters become visible escapes
    (``\\x1b``, ``\\u202e``), so a payload can neither drive the terminal nor hide or reorder what it shows.
    Longer text is cut at ``limit`` characters with a mark. HTML escaping is the dashboard's templates' job."""
    out = []
    for ch in str(text):
        if ch in "\\":
            out.append("\\\\")
        elif unicodedata.category(ch) in ("Cc", "Cf", "Cs", "Co", "Zl", "Zp"):
            code = ord(ch)
            out.append(f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}" if code < 0x10000 else f"\\U{code:08x}")
        else:
            out.append(ch)
        if len(out) >= limit:
            out.append("…")
            break
    return "".join(out)


def check_name(what: str, value: str) -> str:
    """A site or table id must be one topic level; the message says which config field to fix."""
    if not NAME.match(value or ""):
        raise ValueError(f"{what}: {value!r} cannot be an MQTT topic level; use 1-32 of A-Z a-z 0-9 _ -")
    return value


# --- schemas --------------------------------------------------------------------------------------

def _schema_files() -> dict[str, dict[str, Any]]:
    folder = resources.files("dealerbox.schemas").joinpath("floor")
    return {name: json.loads(folder.joinpath(f"{name}.json").read_text(encoding="utf-8"))
            for name in ("envelope", *KINDS)}


@cache
def validators() -> dict[str, jsonschema.Draft202012Validator]:
    """One validator per kind, with the envelope and the shared definitions resolved by their $id."""
    schemas = _schema_files()
    # crawl() indexes every subschema once, so each $ref is a dict lookup rather than a walk per message
    registry = Registry().with_resources((s["$id"], Resource.from_contents(s)) for s in schemas.values()).crawl()
    return {kind: jsonschema.Draft202012Validator(schemas[kind], registry=registry) for kind in KINDS}


def schema_errors(kind: str, payload: Any) -> list[str]:
    """Every way ``payload`` breaks the schema of ``kind``, one line each ("" path = top level)."""
    if kind not in KINDS:
        return [f"unknown kind {kind!r}"]
    out = []
    for e in sorted(validators()[kind].iter_errors(payload), key=lambda e: list(e.absolute_path)):
        where = ".".join(str(p) for p in e.absolute_path) or "(top level)"
        out.append(f"{where}: {e.message}")
    return out


def validate(kind: str, payload: Any) -> None:
    """Raise ValueError naming the first broken field; the tests call this on every payload they see."""
    errors = schema_errors(kind, payload)
    if errors:
        raise ValueError(f"{kind} payload: {errors[0]}")


# --- the cheap check a dashboard makes ------------------------------------------------------------------
# Full validation costs ~0.7-2 ms a message in jsonschema (unevaluatedProperties re-walks every subschema),
# which caps one view at a few hundred tables. A view only needs what it files and shows to have the right
# shape; the full schemas stay the contract, checked on every payload in the tests and sampled by the view.

_NUMBER = (int, float)
SECRET_FIELDS = {name: cls.SECRET_FIELDS for name, cls in EVENT_TYPES.items() if cls.SECRET_FIELDS}


def _is_int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _is_num(v: Any) -> bool:
    return isinstance(v, _NUMBER) and not isinstance(v, bool)


def display_errors(kind: str, payload: Any) -> list[str]:
    """What a floor view relies on, checked in a few microseconds: the envelope (version, kind, names, boot,
    seq, times) and the fields it files and displays for ``kind``. [] when usable; see :func:`schema_errors`
    for the whole contract."""
    if not isinstance(payload, dict):
        return ["(top level): not an object"]
    if payload.get("v") != VERSION:
        return [f"v: {payload.get('v')!r} is not {VERSION}"]
    if payload.get("kind") != kind:
        return [f"kind: {payload.get('kind')!r} on the {kind} topic"]
    for key in ("site", "table"):
        if not isinstance(payload.get(key), str) or not NAME.match(payload[key]):
            return [f"{key}: {payload.get(key)!r} is not a site/table name"]
    if not isinstance(payload.get("boot"), str) or not payload["boot"]:
        return [f"boot: {payload.get('boot')!r} is not a boot id"]
    if not _is_int(payload.get("seq")) or payload["seq"] < 0:
        return [f"seq: {payload.get('seq')!r} is not a sequence number"]
    for key in ("t", "at"):
        if not _is_num(payload.get(key)):
            return [f"{key}: {payload.get(key)!r} is not a number"]
    if not isinstance(payload.get("replayed", False), bool):
        return ["replayed: not a boolean"]
    if kind == "status":
        if payload.get("status") not in ("online", "offline") or not isinstance(payload.get("reason"), str):
            return ["status: needs status online|offline and a reason"]
    elif kind == "state":
        findings, health = payload.get("findings", []), payload.get("health", {})
        if not isinstance(findings, list) or not all(isinstance(f, dict) and isinstance(f.get("id"), str)
                                                     for f in findings):
            return ["findings: not a list of findings with ids"]
        if not isinstance(health, dict) or not isinstance(health.get("link", {}), dict):
            return ["health: not an object"]
    elif kind == "event":
        data = payload.get("data")
        if not isinstance(data, dict) or not isinstance(data.get("event"), str) or not _is_num(data.get("t")):
            return ["data: needs event (a name) and t"]
        name = data["event"]
        for secret in SECRET_FIELDS.get(name, ()):
            if data.get(secret) is not None:
                return [f"data.{secret}: a secret (hole card or badge uid) on the event topic ({name})"]
        if name == DROPPED_NOTICE:
            seqs = data.get("seqs")
            if not (_is_int(data.get("count")) and isinstance(data.get("reason"), str) and isinstance(seqs, list)
                    and all(isinstance(r, dict) and isinstance(r.get("boot"), str) and _is_int(r.get("first"))
                            and _is_int(r.get("last")) for r in seqs)):
                return ["data: a FloorEventsDropped notice needs count, reason and seqs [{boot, first, last}]"]
        elif name == "FindingAcknowledged" and not isinstance(data.get("id"), str):
            return ["data.id: FindingAcknowledged without a finding id"]
    elif kind == "alert":
        f = payload.get("finding")
        if not _is_int(payload.get("event_seq")) or not isinstance(f, dict):
            return ["alert: needs event_seq and finding"]
        if f.get("severity") not in ALERT_SEVERITIES:
            return [f"finding.severity: {f.get('severity')!r} is not an alert severity"]
        for key in ("id", "citation", "ruling"):
            if not isinstance(f.get(key), str):
                return [f"finding.{key}: not a string"]
    else:
        return schema_errors(kind, payload)   # cmd, holecards: a view does not read them; no shortcut
    return []


# --- payloads ---------------------------------------------------------------------------------------

def jsonable(value: Any) -> Any:
    """Plain JSON data from dataclasses, tuples and dicts; anything else becomes its repr (health is free-form)."""
    if isinstance(value, bool | int | float | str) or value is None:
        return value
    if isinstance(value, tuple | list | set | frozenset):
        return [jsonable(v) for v in value]
    if isinstance(value, dict):
        return {str(k): jsonable(v) for k, v in value.items()}
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: jsonable(getattr(value, f.name)) for f in dataclasses.fields(value)}
    return repr(value)


@dataclasses.dataclass
class Envelope:
    """Who is speaking: the table, its run (boot) and the per-kind sequence counters of that run."""
    site: str
    table: str
    boot: str
    seqs: dict[str, int] = dataclasses.field(default_factory=dict)
    replayed: bool = False    # True for a review replay: every payload then says so from the start
    dealer: str | None = None  # the dealer signed in when the payload was composed; left out while nobody is

    def next(self, kind: str) -> int:
        self.seqs[kind] = self.seqs.get(kind, 0) + 1
        return self.seqs[kind]

    def last(self, kind: str) -> int:
        return self.seqs.get(kind, 0)

    def wrap(self, kind: str, t: float, at: float, body: dict[str, Any], seq: int | None = None) -> dict[str, Any]:
        out = {"v": VERSION, "kind": kind, "site": self.site, "table": self.table, "boot": self.boot,
               "seq": self.next(kind) if seq is None else seq, "t": float(t), "at": float(at),
               "replayed": self.replayed}
        if self.dealer is not None:
            out["dealer"] = self.dealer
        return {**out, **body}



def is_alert(event: TableEvent) -> TypeGuard[FindingRaised]:
    return isinstance(event, FindingRaised) and event.severity in ALERT_SEVERITIES


def priority(event_name: str) -> int:
    if event_name in LOW_VALUE:
        return PRIORITY_LOW
    if event_name in ("FindingRaised", "FloorCalled", "FindingAcknowledged", DROPPED_NOTICE):
        return PRIORITY_KEEP
    return PRIORITY_NORMAL


def event_payload(env: Envelope, event: TableEvent, at: float) -> dict[str, Any]:
    """The event in its envelope. The envelope follows who is on duty: a sign-in's payload already names the
    new dealer, a sign-out's still names the one leaving (it is their act), the events after it nobody."""
    if isinstance(event, DealerSignedIn):
        env.dealer = event.dealer
    payload = env.wrap("event", event.t, at, {"data": jsonable(event.to_dict(reveal=False))})
    if isinstance(event, DealerSignedOut):
        env.dealer = None
    return payload


def alert_payload(env: Envelope, finding: FindingRaised, event_seq: int, at: float) -> dict[str, Any]:
    body = {k: jsonable(getattr(finding, k)) for k in
            ("id", "rule", "citation", "severity", "outcome", "ruling", "seats", "cards", "hand")}
    return env.wrap("alert", finding.t, at, {"event_seq": event_seq, "finding": body})


def holds_hole_cards(event: TableEvent) -> bool:
    """The events the restricted holecards topic carries revealed: those with a card among their secrets (a
    badge's uid is a secret too, and goes to no topic at all)."""
    return "card" in event.SECRET_FIELDS


def holecards_payload(env: Envelope, event: TableEvent, at: float) -> dict[str, Any]:
    return env.wrap("holecards", event.t, at, {"data": jsonable(event.to_dict(reveal=True))})


def state_payload(env: Envelope, state: TableState, t: float, at: float, reader_health: dict[str, Any],
                  link_health: dict[str, Any]) -> dict[str, Any]:
    # A whitelist, not the whole dataclass: a field the engine adds later reaches the floor only through a
    # contract change, so nothing secret can slip out by accident.
    body = {k: jsonable(getattr(state, k, None)) for k in STATE_FIELDS}
    body["seats"] = [{k: jsonable(getattr(s, k)) for k in SEAT_FIELDS if hasattr(s, k)} for s in state.seats]
    body["pots"] = [{"amount": amount, "eligible": list(eligible)} for amount, eligible in state.pots]
    if state.house.boards:    # boards 2 and 3 (house practices): public board cards, as board is
        body["boards"] = [list(b) for b in state.house.boards]
    body["in_hand"] = [s.seat for s in state.seats if s.in_hand and not s.folded]
    if state.draw is not None:     # a draw game (27td): the round, and how many cards each seat drew, never which
        d = state.draw
        body["draw"] = {"number": d.number, "dealing": d.dealing, "turn": d.turn, "round": d.round_name(state.phase)}
        for seat, view in zip(body["seats"], state.seats, strict=True):
            seat["drawn"], seat["to_draw"] = view.drawn, view.to_draw
    body["findings"] = [{k: jsonable(getattr(f, k)) for k in FINDING_FIELDS if hasattr(f, k)}
                        for f in state.findings]
    body["findings_open"] = state.findings_open      # findings lists the newest open calls only (engine/state.py)
    oldest = state.oldest_open
    body["findings_oldest"] = {"id": oldest.id, "hand": oldest.hand, "t": oldest.t} if oldest is not None else None
    body["health"] = {"reader": jsonable(reader_health or {}), "link": jsonable(link_health)}
    body["event_seq"] = env.last("event")
    if state.tournament is not None or state.instruction is not None:
        body["tournament"] = tournament_state(state)
    return env.wrap("state", t, at, body)


def tournament_state(state: TableState) -> dict[str, Any]:
    """A tournament table's part of its state, for the floor's Director and dashboard: players seated, the
    level it plays, and the floor's instruction it is carrying out (seats still to empty or fill)."""
    clock, inst = state.tournament, state.instruction
    return {"tournament": clock.tournament if clock else None, "level": clock.level if clock else None,
            "on_break": clock.on_break if clock else False,
            "players": sum(1 for s in state.seats if s.occupied),
            "instruction": None if inst is None or inst.broken else inst.instruction,
            "plan": inst.plan if inst else None, "send": list(inst.send) if inst else [],
            "receive": list(inst.receive) if inst else [], "broken": bool(inst and inst.broken)}


def status_payload(env: Envelope, status: str, reason: str, t: float, at: float,
                   clock: dict[str, Any] | None = None) -> dict[str, Any]:
    """``clock``: the sender's time source (record.clock.clock_status()), so the floor knows what ``at`` is worth."""
    body: dict[str, Any] = {"status": status, "reason": reason}
    if clock is not None:
        body["clock"] = clock
    return env.wrap("status", t, at, body, seq=env.last("event"))


def dropped_payload(env: Envelope, t: float, at: float, ranges: list[dict[str, Any]], count: int, total: int,
                    reason: str) -> dict[str, Any]:
    data = {"event": DROPPED_NOTICE, "t": float(t), "hand": None, "count": count, "seqs": ranges,
            "reason": reason, "total": total}
    return env.wrap("event", t, at, {"data": data})


def seq_ranges(pairs: list[tuple[str, int]]) -> list[dict[str, Any]]:
    """[(boot, seq), ...] in order -> [{"boot", "first", "last"}, ...] runs of consecutive seqs."""
    out: list[dict[str, Any]] = []
    for boot, seq in pairs:
        if out and out[-1]["boot"] == boot and out[-1]["last"] + 1 == seq:
            out[-1]["last"] = seq
        else:
            out.append({"boot": boot, "first": seq, "last": seq})
    return out


def command_payload(env: Envelope, cmd: str, at: float, sender: str, finding: str | None = None,
                    table: str | None = None) -> dict[str, Any]:
    body: dict[str, Any] = {"cmd": cmd, "from": sender}
    if finding is not None:
        body["finding"] = finding
    out = env.wrap("cmd", at, at, body)
    del out["replayed"]
    if table is not None:
        out["table"] = table
    return out
