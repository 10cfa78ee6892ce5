"""The signed heads of a signed log: the ``sig`` lines and the anchors the floor keeps (signing.py,
identity.py, docs/security.md). The recorder says when a line is written; this part signs the chain head when
asked and turns each signature into the anchor the floor witnesses, in order, through ``on_anchor``."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

from .identity import AnchorChain
from .logformat import ChainWriter, Header, Sig
from .signing import Signer, anchor_digest, anchor_text, key_id

Anchor = dict[str, Any]


class HeadSigning:
    """Given the table's signer, the table's chain of anchors, the log's header and its file name; owns the
    log's origin (the hash of its first header line), the latest signed head and who is handed each one."""

    def __init__(self, signer: Signer, anchors: AnchorChain, header: Header, file_name: str) -> None:
        self._signer = signer
        self._anchors = anchors
        identity = header.log or {}
        self._log_id, self._seq = str(identity.get("id", "")), int(identity.get("seq", 0))
        self._site = _site(header)
        self._file_name = file_name
        self._origin = ""
        self.anchor: Anchor | None = None   # the latest signed head, for the floor (the terminal's health)
        self.on_anchor: Callable[[Anchor], None] | None = None   # every signed head, in order (the link)

    def hand_to(self, handler: Callable[[Anchor], None] | None) -> None:
        """Who is handed every signed head from now on, in order (the floor link)."""
        self.on_anchor = handler

    def opened(self, origin: str) -> None:
        """The log's first header line is written: its hash names this log among the table's logs."""
        self._origin = origin

    def hand_ended(self, hand: int) -> None:
        """A hand of this log ended: the next anchors name it (a hand anchored under two logs shows)."""
        self._anchors.hand_ended(hand)

    def signature(self, chain: ChainWriter, part: int, t: float) -> Sig:
        """The ``sig`` line for the chain head as it stands (the line whose hash is the head)."""
        n = chain.count - 1
        return Sig(t, n, chain.prev, self._signer.sign(part, n, chain.prev))

    def signed(self, sig: Sig, part: int) -> None:
        """A ``sig`` line is written: the signed head as the floor keeps it: the log's identity (never its file
        name), the head, and the anchor's place in the table's chain, signed again (``asig``) so the floor can
        refuse a rollback."""
        signer = self._signer
        a, prev = self._anchors.peek()
        hands = self._anchors.hands
        text = anchor_text(self._site, signer.table, self._log_id, self._seq, self._origin, part, sig.of, sig.head,
                           a, prev, hands)
        self._anchors.advance(anchor_digest(text))
        self.anchor = {"table": signer.table, "log": self._log_id, "seq": self._seq, "origin": self._origin,
                       "part": part, "n": sig.of, "head": sig.head, "sig": sig.sig,
                       "key": key_id(signer.public_hex), "t": sig.t,
                       "at": datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ"), "a": a, "prev": prev,
                       "asig": signer.sign_bytes(text), "site": self._site, "file": self._file_name,
                       "hands": list(hands)}
        if self.on_anchor is not None:
            self.on_anchor(dict(self.anchor))


def _site(header: Header) -> str:
    table = header.config.get("table", {}) if isinstance(header.config, dict) else {}
    site = table.get("site") if isinstance(table, dict) else None
    return str(site) if site else "demo"   # the config's default site, as the floor link uses it
