"""Hole cards sealed at rest: the table writes what reveals them so that only the floor can read it back.

Card tags are reused hand after hand, so once a card is shown its UID is known; every raw read of a seat, the
muck or the burn (and the deck enrolment, UID -> card) then tells the cards of every other hand. A sealed log
therefore keeps none of them in the clear:

- the header's decks, and the UIDs of the dealers' badges among the chip sets' markers (a UID-only badge is
  cloned from its UID), are encrypted (``sealed.decks``) with a one-off key sealed to the floor (``sealed.key``);
- every ``rx``, ``tx`` and ``in`` record becomes an ``sx`` record, encrypted (XSalsa20-Poly1305, libsodium's
  ``SecretBox``) with the current hand's key; each hand's key is fresh, written once as a ``key`` record sealed
  to the floor's X25519 public key (libsodium's sealed box), and forgotten when the hand ends;
- beside them, every table event the engine rules is written in the clear as an ``ev`` record, hole cards
  (and a badge's UID) masked exactly as ``dealerbox replay --jsonl`` masks them: findings, pots, board, shown
  cards, awards.

The table holds only the floor's public key: it can write a sealed log and never read one back. The hash
chain and the signatures cover the ciphertext like any other line, so ``verify`` is unchanged; ``replay``,
``export``, ``audit`` and the dashboard read the ``ev`` records without a key. With the floor's private key
(:class:`Opener`) the raw records come back byte for byte and replay through the decoder exactly as before.
Format and choices: docs/log-format.md ("Sealed logs") and docs/security.md ("Hole cards at rest").
"""

from __future__ import annotations

import base64
import binascii
import dataclasses
import json
import logging
from pathlib import Path
from collections.abc import Callable
from typing import Any

from nacl.bindings import crypto_secretbox_open
from nacl.exceptions import CryptoError
from nacl.public import PrivateKey, PublicKey, SealedBox
from nacl.secret import SecretBox
from nacl.utils import random as random_bytes

from ..engine.events import HandEnded, TableEvent
from .logformat import Entry, Header, Input, Public, Record, Rx, Sealed, SealKey, Tx, from_record
from .signing import KeyFileError, key_id, write_key_pair

log = logging.getLogger("dealerbox.record")

SEALED_WITH = "x25519-sealedbox+xsalsa20poly1305/1"   # the header's ``sealed.with``: what a reader must speak
_RX, _TX = b"r", b"t"   # the first byte of a sealed rx or tx record's plaintext; a tap's is its JSON's "{"


# rules a log's records into the table events written in the clear beside them; built from the log's header by
# the shell (``pipeline.public_events``), so this folder never reaches up to the pipeline that reads it
Rules = Callable[[Entry], list[TableEvent]]


class SealError(ValueError):
    """A sealed log that this key cannot open (another floor's key, or a damaged record); names what to do."""


def _dumps(rec: dict[str, Any]) -> bytes:
    return json.dumps(rec, separators=(",", ":"), ensure_ascii=False).encode()


# --- the floor's key pair -------------------------------------------------------------------------------

def generate_floor_keys(private_path: str | Path, *, force: bool = False) -> Path:
    """Write the floor's X25519 pair: the private key 0600 (created so), the public key beside it as ``.pub``."""
    private_path = Path(private_path)
    public_path = private_path.with_suffix(".pub")
    if private_path.exists() and not force:
        raise KeyFileError(f"{private_path}: a key is already there; logs sealed to it need it to be read, so "
                           f"keep it, or pass --force to replace it")
    private_path.parent.mkdir(parents=True, exist_ok=True)
    key = PrivateKey.generate()
    write_key_pair(private_path, bytes(key).hex(), public_path, bytes(key.public_key).hex())
    return public_path


def _key_text(path: Path, what: str) -> bytes:
    try:
        text = path.read_text().strip()
    except FileNotFoundError:
        raise KeyFileError(f"{path}: no {what}; the floor makes it with `dealerbox keygen --floor --out FILE`") \
            from None
    except OSError as e:
        raise KeyFileError(f"{path}: cannot read the {what} ({e.strerror})") from None
    except UnicodeDecodeError:   # a binary file given as the key
        raise KeyFileError(f"{path}: not a dealerbox {what} (64 hex digits expected)") from None
    try:
        raw = bytes.fromhex(text)
    except ValueError:
        raw = b""
    if len(raw) != 32:
        raise KeyFileError(f"{path}: not a dealerbox {what} (64 hex digits expected)")
    return raw


def load_floor_public(path: str | Path) -> PublicKey:
    """The floor's public key (``record.floor_public_key``); raises KeyFileError naming the file."""
    return PublicKey(_key_text(Path(path), "floor public key"))


def load_floor_private(path: str | Path) -> PrivateKey:
    """The floor's private key; refuses a file others can read (it opens every sealed log of the site)."""
    path = Path(path)
    raw = _key_text(path, "floor private key")
    mode = path.stat().st_mode & 0o777
    if mode & 0o077:
        raise KeyFileError(f"{path}: the floor's private key is readable by others (mode {mode:o}); chmod 600 it")
    return PrivateKey(raw)


def public_id(key: PublicKey) -> str:
    return key_id(bytes(key).hex())


def seal_target(public_path: str, record_dir: str) -> PublicKey | None:
    """The key a terminal seals its logs to (``record.floor_public_key``); without one, says so in one line and
    records in the clear as before (a table must never stop recording for want of a key). KeyFileError when set
    but unusable."""
    if public_path:
        return load_floor_public(public_path)
    log.warning("recorder: record.floor_public_key is not set: hole cards are recorded in the clear in %s, readable "
                "by anyone who can read a log; set it to the floor's public key (dealerbox keygen --floor)", record_dir)
    return None


# --- writing: the table's side ---------------------------------------------------------------------------

class Sealer:
    """What the recorder writes instead of each record: sealed raw records and the events in the clear.

    It replays what it seals through the ``rules`` it is handed (a pipeline of its own over the same pure engine
    as the live table, fed the records as the log will hold them), so every recorder, whatever feeds it, writes
    the same public events a replay would rule.
    """

    def __init__(self, floor: PublicKey, header: Header, rules: Rules) -> None:
        self._floor = SealedBox(floor)
        self._rules = rules
        self._box: SecretBox | None = None
        decks = header.enrolment.get("decks", [])
        chips, badges = _without_badges(header.enrolment.get("chips", []))
        one_off = random_bytes(SecretBox.KEY_SIZE)
        self.header = dataclasses.replace(header, enrolment={**header.enrolment, "decks": [], "chips": chips}, sealed={
            "with": SEALED_WITH, "to": public_id(floor), "key": self._floor.encrypt(one_off).hex(),
            "decks": SecretBox(one_off).encrypt(_dumps({"decks": decks, "badges": badges})).hex()})

    def entries(self, entry: Record) -> list[Entry]:
        """The lines that stand for ``entry``: sealed (with a ``key`` line first in a new hand), then its events."""
        out: list[Entry] = []
        if isinstance(entry, Rx | Tx | Input):
            raw = entry.to_record()
            as_read = from_record(raw)   # what a reader with the key gets back, to the microsecond
            assert isinstance(as_read, Rx | Tx | Input)
            if self._box is None:
                key = random_bytes(SecretBox.KEY_SIZE)
                self._box = SecretBox(key)
                out.append(SealKey(as_read.t, self._floor.encrypt(key).hex()))
            # the bytes themselves for rx/tx (the line's t says when), the record's JSON for a tap
            plain = _RX + entry.data if isinstance(entry, Rx) else _TX + entry.data if isinstance(entry, Tx) \
                else _dumps(raw)
            out.append(Sealed(as_read.t, base64.b64encode(bytes(self._box.encrypt(plain))).decode()))
            entry = as_read
        else:
            out.append(entry)   # link, gap: nothing about a card
        for event in self._rules(entry):
            out.append(Public(event.t, event.to_dict()))
            if isinstance(event, HandEnded):
                self._box = None   # the hand's key is forgotten: the next record starts a new one
        return out


# --- reading: the floor's side -----------------------------------------------------------------------------

class Opener:
    """Opens a sealed log with the floor's private key: the header's decks, each hand's key, each raw record."""

    def __init__(self, private: PrivateKey) -> None:
        self._unseal = SealedBox(private)
        self.key_id = public_id(private.public_key)
        self._key: bytes | None = None
        self._open = _direct_opener()

    def header(self, header: Header) -> Header:
        """The header as the table had it (decks restored); raises SealError if this is not the floor's key."""
        sealed = header.sealed
        if sealed is None:
            return header
        if sealed.get("with") != SEALED_WITH:
            raise SealError(f"sealed with {sealed.get('with')!r}, which this dealerbox cannot open; upgrade dealerbox")
        try:
            one_off = self._unseal.decrypt(bytes.fromhex(sealed["key"]))
            opened = json.loads(SecretBox(one_off).decrypt(bytes.fromhex(sealed["decks"])))
            decks, badges = opened["decks"], opened.get("badges", {})   # a log sealed before badges were: none
        except (CryptoError, ValueError, KeyError, TypeError, AttributeError):
            raise SealError(f"the log is sealed to floor key {sealed.get('to', '?')}, and this key is "
                            f"{self.key_id}: give the floor's private key it was sealed to") from None
        chips = _with_badges(header.enrolment.get("chips", []), badges)
        return dataclasses.replace(header, enrolment={**header.enrolment, "decks": decks, "chips": chips})

    def key(self, box: str) -> None:
        """A ``key`` line: the records after it are sealed with this hand's key."""
        try:
            self._key = self._unseal.decrypt(bytes.fromhex(box))
        except (CryptoError, ValueError, TypeError):
            self._key = None   # the records it seals are skipped and counted by the reader

    def plain(self, x: str) -> bytes | None:
        """An ``sx`` line's plaintext (``r`` or ``t`` and the bytes, or a tap's JSON), or None if it cannot."""
        if self._key is None:
            return None
        try:
            raw = binascii.a2b_base64(x)   # base64.b64decode's own checks cost a third of the call on a short line
        except (ValueError, TypeError):
            return None
        return self._open(raw, self._key)

    def record(self, x: str, t: float) -> dict[str, Any] | None:
        """An ``sx`` line's record as the table wrote it (a dict ``from_record`` reads), or None if it cannot."""
        plain = self.plain(x)
        if plain is None:
            return None
        if plain[:1] in (_RX, _TX):
            return {"k": "rx" if plain[:1] == _RX else "tx", "t": t, "d": plain[1:].hex()}
        try:
            rec = json.loads(plain)
        except ValueError:
            return None
        return rec if isinstance(rec, dict) else None

    def open(self, entry: Sealed) -> Entry | None:
        rec = self.record(entry.x, entry.t)
        return from_record(rec) if rec is not None else None


def _open_binding(raw: bytes, key: bytes) -> bytes | None:
    """One secret box (nonce first), through PyNaCl's binding."""
    try:
        return crypto_secretbox_open(raw[SecretBox.NONCE_SIZE:], raw[:SecretBox.NONCE_SIZE], key)
    except (CryptoError, ValueError, TypeError):
        return None


def _direct_opener() -> Callable[[bytes, bytes], bytes | None]:
    """One secret box opened by libsodium's ``crypto_secretbox_open_easy`` into one buffer kept for the reader:
    the exact replay opens one box per raw record, and PyNaCl's binding pads, allocates and copies each time
    (half the cost of a short record). One per reader (the buffer is its own). PyNaCl's cffi module is not its
    public API: without it, the binding."""
    try:
        from nacl._sodium import ffi, lib
    except ImportError:  # pragma: no cover - pinned PyNaCl has it
        return _open_binding
    size = [1 << 16]
    out = [ffi.new("unsigned char[]", size[0])]
    nonce_size, mac = SecretBox.NONCE_SIZE, SecretBox.MACBYTES

    def open_box(raw: bytes, key: bytes) -> bytes | None:
        n = len(raw) - nonce_size - mac
        if n < 0 or len(key) != SecretBox.KEY_SIZE:
            return None
        if n > size[0]:
            size[0] = n
            out[0] = ffi.new("unsigned char[]", n)
        if lib.crypto_secretbox_open_easy(out[0], raw[nonce_size:], n + mac, raw[:nonce_size], key) != 0:
            return None
        data: bytes = ffi.buffer(out[0], n)[:]
        return data
    return open_box


def _without_badges(chip_sets: list[dict[str, Any]]) -> tuple[list[dict[str, Any]], dict[str, dict[str, str]]]:
    """The chip sets with their badge markers taken out, and those markers by chip set (its place in the list)."""
    clear, badges = [], {}
    for i, chip_set in enumerate(chip_sets):
        markers = chip_set.get("markers", {}) if isinstance(chip_set, dict) else {}
        mine = {uid: kind for uid, kind in markers.items() if kind == "badge"} if isinstance(markers, dict) else {}
        if mine:
            badges[str(i)] = mine
            chip_set = {**chip_set, "markers": {uid: kind for uid, kind in markers.items() if kind != "badge"}}
        clear.append(chip_set)
    return clear, badges


def _with_badges(chip_sets: list[dict[str, Any]], badges: dict[str, dict[str, str]]) -> list[dict[str, Any]]:
    """The chip sets as the table enrolled them: each one's sealed badge markers put back."""
    out = []
    for i, chip_set in enumerate(chip_sets):
        mine = badges.get(str(i))
        if mine and isinstance(chip_set, dict):
            chip_set = {**chip_set, "markers": {**chip_set.get("markers", {}), **mine}}
        out.append(chip_set)
    return out


def is_sealed(header: Header) -> bool:
    return header.sealed is not None
