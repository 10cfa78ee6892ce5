"""A log's identity and the table's chain of anchors, kept across restarts (issue 29).

Every recording gets a log id (random, so unique for the table's lifetime) and its place in the table's
sequence of logs (``seq``, 1, 2, ...); both go into the signed header, so the first signed head binds them.
Every anchor (a signed head sent to the floor) carries the table's anchor number ``a`` and ``prev``, the
digest of the anchor before it: the floor refuses a rollback (an ``a`` it already has) and a gap (a missing
``a``); and ``hands``, the log's first hand number and the last one ended, so the floor sees hands anchored
under two logs. The counters live next to the log directory in ``anchors-<table>.json`` (beside ``hands-<table>.json``,
see sequence.py), written atomically at every anchor, so a restart continues the chain instead of restarting it.

A damaged or missing file starts a new chain at ``a`` 1 and says so: the floor then sees a rollback or a
gap and raises its alert, which is what a deleted ledger should look like.
"""

from __future__ import annotations

import json
import logging
import os
import secrets
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from .signing import ANCHOR_GENESIS

log = logging.getLogger("dealerbox.record")


def ledger_path(hand_count: Path) -> Path:
    """``anchors-<table>.json`` beside the hand count ``hands-<table>.json``."""
    name = hand_count.name
    return hand_count.with_name("anchors-" + name[len("hands-"):] if name.startswith("hands-") else name + ".anchors")


def new_log_id() -> str:
    """A log id: 16 random hex digits (64 bits), never reused by the table in practice."""
    return secrets.token_hex(8)


@dataclass
class AnchorChain:
    """The table's log sequence and anchor chain; ``path`` None keeps them in memory only (tests, simulations)."""

    table: str
    path: Path | None = None
    last_log: int = 0
    a: int = 0
    prev: str = ANCHOR_GENESIS
    hands: tuple[int, int] = (1, 0)    # this log's first hand and the last one ended (not kept in the file)

    @classmethod
    def open(cls, path: Path | None, table: str) -> AnchorChain:
        chain = cls(table, path)
        if path is None:
            return chain
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
            if (isinstance(data, dict) and data.get("table") == table and isinstance(data.get("last_log"), int)
                    and isinstance(data.get("a"), int) and isinstance(data.get("prev"), str)):
                chain.last_log, chain.a, chain.prev = data["last_log"], data["a"], data["prev"]
            else:
                log.error("recorder: %s is not this table's anchor chain (table %r); the chain restarts and the "
                          "floor will report a gap: restore it from a backup if it was damaged", path,
                          data.get("table") if isinstance(data, dict) else None)
        except FileNotFoundError:
            pass
        except (OSError, ValueError) as e:
            log.error("recorder: cannot read the anchor chain %s (%s); the chain restarts and the floor will "
                      "report a gap: restore it from a backup if it was damaged", path, e)
        return chain

    def log_hands(self, hands_before: int) -> None:
        """A new log numbers its hands from ``hands_before + 1``; none has ended in it yet."""
        self.hands = (hands_before + 1, hands_before)

    def hand_ended(self, hand: int) -> None:
        self.hands = (self.hands[0], max(self.hands[1], hand))

    def next_log(self) -> int:
        """The place of a new recording in the table's sequence (0 when no ledger is kept: place unknown)."""
        if self.path is None:
            return 0
        self.last_log += 1
        self.save()
        return self.last_log

    def advance(self, digest: str) -> tuple[int, str]:
        """(a, prev) for the next anchor, then remember ``digest`` as its own; saved before it is sent."""
        a, prev = self.a + 1, self.prev
        self.a, self.prev = a, digest
        self.save()
        return a, prev

    def peek(self) -> tuple[int, str]:
        """(a, prev) the next anchor will carry."""
        return self.a + 1, self.prev

    def save(self) -> None:
        if self.path is None:
            return
        body = {"table": self.table, "last_log": self.last_log, "a": self.a, "prev": self.prev,
                "at": datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")}
        tmp = self.path.with_name(self.path.name + ".new")
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o640)
            with os.fdopen(fd, "w", encoding="utf-8") as fh:
                json.dump(body, fh)
                fh.flush()
                os.fsync(fh.fileno())
            os.replace(tmp, self.path)
        except OSError as e:   # the anchor still goes out; a restart then breaks the chain, which the floor shows
            log.error("recorder: cannot keep the anchor chain in %s (%s); after a restart the floor will report a "
                      "gap: free space or check record.dir", self.path, e.strerror or e)
