"""The table's Ed25519 key pair: it signs the log's chain head, so a rewritten log cannot be re-hashed into passing.

The unkeyed SHA-256 chain (logformat.py) only proves a log is internally consistent; anyone with a shell can
recompute it. A ``sig`` record signs the chain head (the ``h`` of the line before it) with the table's private
key, which lives outside the log directory with mode 0600. What is signed is fixed text, so a signature can
never be moved to another table, part or position:

    dealerbox-log-head/1 <table> <part> <n> <head hash>

where ``n`` is the index of the line whose ``h`` is the head. Keys are files of 64 hex characters (the 32-byte
seed for the private key, the 32-byte verify key for the public one) plus a newline.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from nacl.exceptions import BadSignatureError
from nacl.signing import SigningKey, VerifyKey

from ..config import ConfigError

SIGNED_PREFIX = "dealerbox-log-head/1"
ANCHOR_PREFIX = "dealerbox-anchor/1"
HANDS_PREFIX = "dealerbox-anchor/2"   # an anchor that also names the hands its log holds (``hands``)
ANCHOR_GENESIS = "0" * 64       # ``prev`` of a table's first anchor


class KeyFileError(ConfigError):
    """A key file that is missing, unreadable, too open or not a key; the message names the file.

    A ConfigError, so every command reports it as one line and exits 2."""


def signed_text(table: str, part: int, n: int, head: str) -> bytes:
    return f"{SIGNED_PREFIX} {table} {part} {n} {head}".encode()


def anchor_text(site: str, table: str, log: str, seq: int, origin: str, part: int, n: int, head: str, a: int,
                prev: str, hands: tuple[int, int] | None = None) -> bytes:
    """What an anchor's ``asig`` signs: the log's identity, the head, the anchor's place in the table's chain and
    (``hands``: the log's first hand number and the last one ended by this head) the hands the log holds."""
    if hands is None:
        return f"{ANCHOR_PREFIX} {site} {table} {log} {seq} {origin} {part} {n} {head} {a} {prev}".encode()
    return (f"{HANDS_PREFIX} {site} {table} {log} {seq} {origin} {part} {n} {head} {a} {prev} "
            f"{hands[0]} {hands[1]}").encode()


def anchor_digest(text: bytes) -> str:
    """The ``prev`` the next anchor of the table carries: the SHA-256 of this one's signed text."""
    return hashlib.sha256(text).hexdigest()


def anchor_fields_text(anchor: Mapping[str, Any]) -> bytes:
    """``anchor_text`` of an anchor payload (raises KeyError/ValueError/TypeError on a malformed one)."""
    hands = anchor.get("hands")
    return anchor_text(str(anchor["site"]), str(anchor["table"]), str(anchor["log"]), int(anchor["seq"]),
                       str(anchor["origin"]), int(anchor["part"]), int(anchor["n"]), str(anchor["head"]),
                       int(anchor["a"]), str(anchor["prev"]),
                       None if hands is None else (int(hands[0]), int(hands[1])))


def check_anchor(public_hex: str, anchor: Mapping[str, Any]) -> bool:
    """Both signatures of an anchor payload: the log head's (``sig``) and the anchor's own (``asig``)."""
    try:
        if not check_signature(public_hex, str(anchor["table"]), int(anchor["part"]), int(anchor["n"]),
                               str(anchor["head"]), str(anchor["sig"])):
            return False
        VerifyKey(bytes.fromhex(public_hex)).verify(anchor_fields_text(anchor), bytes.fromhex(str(anchor["asig"])))
        return True
    except (BadSignatureError, KeyError, ValueError, TypeError):
        return False


def key_id(verify_key_hex: str) -> str:
    """A short name for a public key (its first 16 hex digits), written in headers and anchors."""
    return verify_key_hex[:16]


@dataclass(frozen=True)
class Signer:
    """Signs chain heads for one table."""

    table: str
    key: SigningKey

    @property
    def public_hex(self) -> str:
        return self.key.verify_key.encode().hex()

    def sign(self, part: int, n: int, head: str) -> str:
        return self.key.sign(signed_text(self.table, part, n, head)).signature.hex()

    def sign_bytes(self, text: bytes) -> str:
        return self.key.sign(text).signature.hex()


def check_signature(public_hex: str, table: str, part: int, n: int, head: str, signature_hex: str) -> bool:
    try:
        VerifyKey(bytes.fromhex(public_hex)).verify(signed_text(table, part, n, head), bytes.fromhex(signature_hex))
        return True
    except (BadSignatureError, ValueError, TypeError):
        return False


def generate(private_path: str | Path, public_path: str | Path | None = None, *, force: bool = False) -> Path:
    """Write a new key pair: the private key 0600 (created so, never readable by others), the public beside it."""
    private_path = Path(private_path)
    public_path = Path(public_path) if public_path else private_path.with_suffix(".pub")
    if private_path.exists() and not force:
        raise KeyFileError(f"{private_path}: a key is already there; rotating keys is a deliberate act "
                        f"(see docs/security.md), pass --force to replace it")
    private_path.parent.mkdir(parents=True, exist_ok=True)
    key = SigningKey.generate()
    write_key_pair(private_path, key.encode().hex(), public_path, key.verify_key.encode().hex())
    return public_path


def write_key_pair(private_path: Path, private_hex: str, public_path: Path, public_hex: str) -> None:
    """The private key written whole or not at all, 0600 from its creation (never readable by others, even for
    a moment), then the public one beside it; the table's signing pair and the floor's sealing pair alike."""
    tmp = private_path.with_name(private_path.name + ".new")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w") as fh:
        fh.write(private_hex + "\n")
        fh.flush()
        os.fsync(fh.fileno())
    os.chmod(tmp, 0o600)   # a .new left by an earlier try keeps its old mode through O_CREAT
    os.replace(tmp, private_path)
    public_path.write_text(public_hex + "\n")


def load_signer(private_path: str | Path, table: str) -> Signer:
    """The table's signer; refuses a key file others can read (it would let them forge the table's logs)."""
    path = Path(private_path)
    try:
        mode = path.stat().st_mode & 0o777
        text = path.read_text().strip()
    except FileNotFoundError:
        raise KeyFileError(f"{path}: no signing key; create one with `dealerbox keygen`") from None
    except OSError as e:
        raise KeyFileError(f"{path}: cannot read the signing key ({e.strerror})") from None
    except UnicodeDecodeError:   # a binary file given as the key
        raise KeyFileError(f"{path}: not a dealerbox signing key (64 hex digits expected)") from None
    if mode & 0o077:
        raise KeyFileError(f"{path}: signing key is readable by others (mode {mode:o}); chmod 600 it, or make a new "
                        f"one with `dealerbox keygen --force` if it may have been copied")
    try:
        return Signer(table, SigningKey(bytes.fromhex(text)))
    except (ValueError, TypeError):
        raise KeyFileError(f"{path}: not a dealerbox signing key (64 hex digits expected)") from None


def load_public(path: str | Path) -> str:
    """A public key file's hex; raises KeyFileError naming the file."""
    path = Path(path)
    try:
        text = path.read_text().strip()
    except OSError as e:
        raise KeyFileError(f"{path}: cannot read the public key ({e.strerror})") from None
    except UnicodeDecodeError:   # a binary file given as the key
        raise KeyFileError(f"{path}: not a dealerbox public key (64 hex digits expected)") from None
    try:
        VerifyKey(bytes.fromhex(text))
    except (ValueError, TypeError):
        raise KeyFileError(f"{path}: not a dealerbox public key (64 hex digits expected)") from None
    return text


def table_signer(key_path: str, table: str) -> Signer | None:
    """The signer record.key names, or None when logs are not signed; a bad key raises KeyFileError."""
    return load_signer(key_path, table) if key_path else None
