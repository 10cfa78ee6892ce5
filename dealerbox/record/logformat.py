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
- ``link``: the serial link went ``up`` or down (``port``, ``reason``);
- ``gap``: the recorder had to drop ``records`` records here (disk full for too long; ``reason``);
- ``closed``: the recorder closed the log cleanly (``records`` in the whole log, ``parts``). Only the last
  part ends with one; a log without it was cut short (power cut, crash, or truncation).
- ``sig`` (version 2, signed logs only): the table's Ed25519 signature (``sig``) of the chain head ``head``,
  the ``h`` of line ``of`` (see signing.py); written at every hand's end, at a part's end and after ``closed``.
- ``key``, ``sx``, ``ev`` (sealed logs only, sealing.py): a hand's key sealed to the floor, a raw record
  (``rx``, ``tx``, ``in``) encrypted with it, and a table event in the clear with its hole cards masked.

A signed log's header says ``version`` 2 and carries ``signer``, the table's public key (hex); an unsigned
log is version 1, exactly as before, and still reads and verifies (as unsigned).

Every line also carries ``n``, its index within its part (the header is 0), so a deleted line is named
as a deletion rather than as an edit. A rotated set is ``NAME.jsonl``, ``NAME.part1.jsonl``, ... (see
:func:`part_path`).
"""

from __future__ import annotations

import hashlib
import json
import re
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..engine.inputs import DealerInput

if TYPE_CHECKING:
    from ..config import Config
    from ..tags import TagRegistry
    from ..tournament.config import Tournament

LOG_FORMAT = "dealerbox-log"
LOG_VERSION = 1
SIGNED_VERSION = 2              # a header with a signer and ``sig`` records; version 1 readers refuse it cleanly
VERSIONS = (LOG_VERSION, SIGNED_VERSION)
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
    signer: str = ""                # the table's public key (hex) when the log is signed
    hands_before: int = 0           # hands the table ended before this recording: numbering continues after
    tournament: dict[str, Any] | None = None   # a tournament table's event (its validated TOML), for replays
    log: dict[str, Any] | None = None   # a signed log's identity: {"id": log id, "seq": place in the table's logs}
    sealed: dict[str, str] | None = None       # the decks sealed to the floor's key (sealing.py); None: in the clear

    def to_record(self) -> dict[str, Any]:
        rec = {"k": "header", "format": LOG_FORMAT, "version": SIGNED_VERSION if self.signer else LOG_VERSION,
               "created": self.created, "part": self.part, "prev": self.prev, "config": self.config,
               "enrolment": self.enrolment, "hello": self.hello}
        if self.signer:
            rec["signer"] = self.signer
        if self.hands_before:
            rec["hands_before"] = self.hands_before
        if self.tournament is not None:
            rec["tournament"] = self.tournament
        if self.log is not None:
            rec["log"] = self.log
        if self.sealed is not None:
            rec["sealed"] = self.sealed
        return rec

    @property
    def table(self) -> str:
        table = self.config.get("table", {}) if isinstance(self.config, dict) else {}
        return str(table.get("id", "")) if isinstance(table, dict) else ""


def enrolment_of(registry: TagRegistry) -> dict[str, list[dict[str, Any]]]:
    """The registry as a header carries it: every enrolled deck and chip set."""
    return {"decks": [d.to_json() for d in registry.decks], "chips": [c.to_json() for c in registry.chip_sets]}


def table_header(config: Config, registry: TagRegistry, *, hello: dict[str, Any] | None = None,
                 created: bool = False, tournament: Tournament | None = None) -> Header:
    """The first record of every log: the table's config and enrolment, the board's hello when known, the
    tournament a tournament table plays (so a replay follows its levels), and the UTC time when ``created``
    (simulated and scripted logs leave it out, so they compile identically)."""
    stamp = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()) if created else ""
    return Header(config=config.to_dict(), enrolment=enrolment_of(registry), created=stamp, hello=hello,
                  tournament=dict(tournament.data) if tournament is not None and tournament.data else None)


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
        for key, value in (("seat", i.seat), ("card", i.card), ("amount", i.amount), ("ref", i.ref),
                           ("choice", i.choice), ("by", i.by), ("detail", i.detail)):
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


@dataclass(frozen=True, slots=True)
class Gap:
    """The recorder dropped ``records`` records before this point (its memory buffer overflowed)."""

    t: float
    records: int
    reason: str = ""

    def to_record(self) -> dict[str, Any]:
        return {"k": "gap", "t": round(self.t, 6), "records": self.records, "reason": self.reason}


@dataclass(frozen=True, slots=True)
class Closed:
    """The last line of a cleanly closed log."""

    t: float
    records: int
    parts: int

    def to_record(self) -> dict[str, Any]:
        return {"k": "closed", "t": round(self.t, 6), "records": self.records, "parts": self.parts}


@dataclass(frozen=True, slots=True)
class Sig:
    """The table's signature of the chain head: the ``h`` (``head``) of this part's line ``of``."""

    t: float
    of: int
    head: str
    sig: str

    def to_record(self) -> dict[str, Any]:
        return {"k": "sig", "t": round(self.t, 6), "of": self.of, "head": self.head, "sig": self.sig}


@dataclass(frozen=True, slots=True)
class SealKey:
    """A fresh key for the records that follow, sealed to the floor's public key (``box``, hex; sealing.py)."""

    t: float
    box: str

    def to_record(self) -> dict[str, Any]:
        return {"k": "key", "t": round(self.t, 6), "box": self.box}


@dataclass(frozen=True, slots=True)
class Sealed:
    """A raw record (``rx``, ``tx``, ``in``) encrypted with the last ``key``: ``x`` is nonce + ciphertext, hex."""

    t: float
    x: str

    def to_record(self) -> dict[str, Any]:
        return {"k": "sx", "t": round(self.t, 6), "x": self.x}


@dataclass(frozen=True, slots=True)
class Public:
    """A table event as the live engine ruled it, in the clear with hole cards masked (``to_dict()``)."""

    t: float
    e: dict[str, Any]

    def to_record(self) -> dict[str, Any]:
        return {"k": "ev", "t": round(self.t, 6), "e": self.e}


Record = Rx | Tx | Input | Link
Entry = Header | Record | Gap | Closed | Sig | SealKey | Sealed | Public

_PART = re.compile(r"^(?P<stem>.*?)(\.part(?P<n>[1-9][0-9]*))?\.jsonl$")


def part_path(path: str | Path, n: int) -> Path:
    """Part ``n`` of the rotated set ``path`` belongs to: ``x.jsonl`` -> ``x.part3.jsonl`` (0 is ``x.jsonl``)."""
    path = Path(path)
    m = _PART.match(path.name)
    stem = m.group("stem") if m else path.stem
    return path.with_name(f"{stem}.jsonl" if n == 0 else f"{stem}.part{n}.jsonl")


def log_part(name: str) -> tuple[str, int] | None:
    """``("x.jsonl", 3)`` for ``x.part3.jsonl``, ``("x.jsonl", 0)`` for ``x.jsonl``; None for any other file."""
    m = _PART.match(name)
    return (f"{m.group('stem')}.jsonl", int(m.group("n") or 0)) if m else None


def part_number(path: str | Path) -> int:
    """Which part a file name says it is (0 for the first part or an unnumbered name)."""
    m = _PART.match(Path(path).name)
    return int(m.group("n")) if m and m.group("n") else 0


class LogFormatError(ValueError):
    """A line that is not a valid record (the reader counts it and goes on)."""


def from_record(rec: dict[str, Any]) -> Entry:
    """Parse one decoded JSON line; raises LogFormatError naming the field at fault."""
    try:
        k = rec["k"]
        if k == "header":
            if rec.get("format") != LOG_FORMAT:
                raise LogFormatError(f"format: expected {LOG_FORMAT!r}")
            if rec.get("version") not in VERSIONS:
                raise LogFormatError(f"version: {rec.get('version')!r} is not one of {VERSIONS}; upgrade dealerbox")
            return Header(config=rec["config"], enrolment=rec["enrolment"], created=rec.get("created", ""),
                          part=int(rec.get("part", 0)), prev=rec.get("prev", GENESIS), hello=rec.get("hello"),
                          signer=str(rec.get("signer", "")), hands_before=int(rec.get("hands_before", 0)),
                          tournament=rec.get("tournament"), sealed=rec.get("sealed"))
        t = float(rec["t"])
        if k == "rx":
            return Rx(t, bytes.fromhex(rec["d"]))
        if k == "tx":
            return Tx(t, bytes.fromhex(rec["d"]))
        if k == "in":
            return Input(DealerInput(t=t, action=rec["a"], seat=rec.get("seat"), card=rec.get("card"),
                                     amount=rec.get("amount"), ref=rec.get("ref"),
                                     seats=tuple(rec.get("seats", ())), choice=rec.get("choice"),
                                     by=rec.get("by"), detail=rec.get("detail")))
        if k == "link":
            return Link(t, bool(rec["up"]), rec.get("port", ""), rec.get("reason", ""))
        if k == "gap":
            return Gap(t, int(rec["records"]), rec.get("reason", ""))
        if k == "closed":
            return Closed(t, int(rec["records"]), int(rec["parts"]))
        if k == "sig":
            return Sig(t, int(rec["of"]), str(rec["head"]), str(rec["sig"]))
        if k == "key":
            return SealKey(t, str(rec["box"]))
        if k == "sx":
            return Sealed(t, str(rec["x"]))
        if k == "ev" and isinstance(rec["e"], dict):
            return Public(t, rec["e"])
    except KeyError as e:
        raise LogFormatError(f"missing field {e.args[0]!r}") from None
    except (TypeError, ValueError) as e:
        if isinstance(e, LogFormatError):
            raise
        raise LogFormatError(str(e)) from None
    raise LogFormatError(f"k: unknown record kind {k!r}")


@dataclass
class ChainWriter:
    """Turns entries into hash-chained JSON lines (no I/O: the recorder owns the file).

    ``count`` is the index the next line gets (``n``); a Header resets it to 0, as it starts a part.
    """

    prev: str = GENESIS
    count: int = field(default=0)

    def line(self, entry: Entry) -> str:
        text, h = self.peek(entry)
        self.commit(h, header=isinstance(entry, Header))
        return text

    def peek(self, entry: Entry) -> tuple[str, str]:
        """The line for ``entry`` and its hash, without advancing (commit once it is safely written)."""
        rec = entry.to_record()
        rec["n"] = 0 if isinstance(entry, Header) else self.count
        rec["h"] = chain(self.prev, rec)
        return json.dumps(rec, separators=(",", ":"), ensure_ascii=False) + "\n", rec["h"]

    def commit(self, h: str, header: bool = False) -> None:
        self.prev = h
        self.count = 1 if header else self.count + 1
