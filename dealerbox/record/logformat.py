"""The recorded hardware log (contract 2, docs/log-format.md): JSON Lines, one record per line, hash-chained.

Line 1 is the header; every later line is a record. Every line carries ``h``, the SHA-256 of the previous
line's ``h`` followed by this record's canonical JSON without ``h``, so any edit, insertion or deletion
breaks the chain from that point on. A rotated part's header chains to the last ``h`` of the part before.

Record kinds (``k``):

- ``header``: ``format``, ``version``, ``created`` (UTC), ``part``, ``prev``, ``config``, ``enrolment``
  (every deck and chip set, so a log replays with no other file), ``hello`` (the board's last HELLO or null);
- ``rx``: ``t`` (seconds on the source clock), ``d`` (hex of the bytes exactly as read from the port);
- ``tx``: bytes the host sent to the board;
- ``in``: a dealer input (``a`` action, optional ``seat``, ``card``, ``amount``, ``ref``, ``seats``);
- ``link``: the serial link went ``up`` or down (``port``, ``reason``).
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from typing import Any

from ..engine.inputs import DealerInput

LOG_FORMAT = "dealerbox-log"
LOG_VERSION = 1
GENESIS = "0" * 64


def canonical(record: dict[str, Any]) -> bytes:
    """The bytes that are hashed: sorted keys, no spaces, ``h`` left out."""
    body = {k: v for k, v in record.items() if k != "h"}
    return json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()


def chain(prev: str, record: dict[str, Any]) -> str:
    return hashlib.sha256(prev.encode() + canonical(record)).hexdigest()


@dataclass(frozen=True, slots=True)
class Header:
    config: dict[str, Any]
    enrolment: dict[str, list[dict[str, Any]]]   # {"decks": [deck json...], "chips": [chip-set json...]}
    created: str = ""
    part: int = 0
    prev: str = GENESIS
    hello: dict[str, Any] | None = None

    def to_record(self) -> dict[str, Any]:
        return {"k": "header", "format": LOG_FORMAT, "version": LOG_VERSION, "created": self.created,
                "part": self.part, "prev": self.prev, "config": self.config, "enrolment": self.enrolment,
                "hello": self.hello}


@dataclass(frozen=True, slots=True)
class Rx:
    t: float
    data: bytes

    def to_record(self) -> dict[str, Any]:
        return {"k": "rx", "t": round(self.t, 6), "d": self.data.hex()}


@dataclass(frozen=True, slots=True)
class Tx:
    t: float
    data: bytes

    def to_record(self) -> dict[str, Any]:
        return {"k": "tx", "t": round(self.t, 6), "d": self.data.hex()}


@dataclass(frozen=True, slots=True)
class Input:
    input: DealerInput

    @property
    def t(self) -> float:
        return self.input.t

    def to_record(self) -> dict[str, Any]:
        i = self.input
        rec: dict[str, Any] = {"k": "in", "t": round(i.t, 6), "a": i.action}
        for key, value in (("seat", i.seat), ("card", i.card), ("amount", i.amount), ("ref", i.ref)):
            if value is not None:
                rec[key] = value
        if i.seats:
            rec["seats"] = list(i.seats)
        return rec


@dataclass(frozen=True, slots=True)
class Link:
    t: float
    up: bool
    port: str = ""
    reason: str = ""

    def to_record(self) -> dict[str, Any]:
        return {"k": "link", "t": round(self.t, 6), "up": self.up, "port": self.port, "reason": self.reason}


Record = Rx | Tx | Input | Link
Entry = Header | Record


class LogFormatError(ValueError):
    """A line that is not a valid record (the reader counts it and goes on)."""


def from_record(rec: dict[str, Any]) -> Entry:
    """Parse one decoded JSON line; raises LogFormatError naming the field at fault."""
    try:
        k = rec["k"]
        if k == "header":
            if rec.get("format") != LOG_FORMAT:
                raise LogFormatError(f"format: expected {LOG_FORMAT!r}")
            if rec.get("version") != LOG_VERSION:
                raise LogFormatError(f"version: {rec.get('version')!r} is not {LOG_VERSION}; upgrade dealerbox")
            return Header(config=rec["config"], enrolment=rec["enrolment"], created=rec.get("created", ""),
                          part=int(rec.get("part", 0)), prev=rec.get("prev", GENESIS), hello=rec.get("hello"))
        t = float(rec["t"])
        if k == "rx":
            return Rx(t, bytes.fromhex(rec["d"]))
        if k == "tx":
            return Tx(t, bytes.fromhex(rec["d"]))
        if k == "in":
            return Input(DealerInput(t=t, action=rec["a"], seat=rec.get("seat"), card=rec.get("card"),
                                     amount=rec.get("amount"), ref=rec.get("ref"),
                                     seats=tuple(rec.get("seats", ()))))
        if k == "link":
            return Link(t, bool(rec["up"]), rec.get("port", ""), rec.get("reason", ""))
    except KeyError as e:
        raise LogFormatError(f"missing field {e.args[0]!r}") from None
    except (TypeError, ValueError) as e:
        if isinstance(e, LogFormatError):
            raise
        raise LogFormatError(str(e)) from None
    raise LogFormatError(f"k: unknown record kind {k!r}")


@dataclass
class ChainWriter:
    """Turns entries into hash-chained JSON lines (no I/O: the recorder owns the file)."""

    prev: str = GENESIS
    count: int = field(default=0)

    def line(self, entry: Entry) -> str:
        rec = entry.to_record()
        rec["h"] = chain(self.prev, rec)
        self.prev = rec["h"]
        self.count += 1
        return json.dumps(rec, separators=(",", ":"), ensure_ascii=False) + "\n"
