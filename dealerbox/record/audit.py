"""Seeing hole cards outside a showdown is an audited act: a supervisor's PIN, a journal line, a floor message.

The PINs are checked against argon2 hashes in ``audit.supervisors`` (never the PINs themselves, and never in
a log header). Every reveal, granted or refused, goes to the audit journal (``audit.journal``: JSON Lines,
hash-chained like the recorded log, created 0640) and is published to the floor on
``dealerbox/<site>/<table>/audit`` (QoS 1, schema ``dealerbox/schemas/floor/audit.json``). If the floor cannot
be reached the journal line says so: the reveal is still on the record.
"""

from __future__ import annotations

import json
import os
import socket
import threading
from datetime import datetime, UTC
from pathlib import Path
from typing import TYPE_CHECKING, Any

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError

from ..config import Config

if TYPE_CHECKING:
    import paho.mqtt.client as mqtt
from .logformat import GENESIS, chain

_HASHER = PasswordHasher()


def hash_pin(pin: str) -> str:
    """The argon2id hash to put in ``audit.supervisors`` for a new PIN."""
    return _HASHER.hash(pin)


def pin_ok(config: Config, supervisor: str, pin: str) -> bool:
    stored = config.audit.supervisors.get(supervisor)
    if not stored:
        _HASHER.hash(pin)    # as slow as a real check: the time does not tell which ids exist
        return False
    try:
        return _HASHER.verify(stored, pin)
    except (VerificationError, InvalidHashError):
        return False


def audit_topic(site: str, table: str) -> str:
    return f"dealerbox/{site}/{table}/audit"


def audit_payload(config: Config, action: str, supervisor: str, granted: bool, subject: str) -> dict[str, Any]:
    return {"v": 1, "kind": "audit", "site": config.table.site, "table": config.table.id, "action": action,
            "supervisor": supervisor, "granted": granted, "subject": subject, "host": socket.gethostname(),
            "at": datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ")}


def journal(path: str | Path, payload: dict[str, Any], floor: str) -> dict[str, Any]:
    """Append one chained line (``floor``: "sent" or why not) to the journal; returns the line as written."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    prev = GENESIS
    if path.exists():
        lines = path.read_bytes().splitlines()
        if lines:
            try:
                prev = json.loads(lines[-1]).get("h", GENESIS)
            except ValueError:
                prev = "damaged"   # chained to a marker: the damage stays visible, the new line is still kept
    rec = {**payload, "floor": floor, "n": len(path.read_bytes().splitlines()) if path.exists() else 0}
    rec["h"] = chain(prev, rec)
    fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o640)
    with os.fdopen(fd, "a", encoding="utf-8") as fh:
        fh.write(json.dumps(rec, separators=(",", ":"), ensure_ascii=False) + "\n")
        fh.flush()
        os.fsync(fh.fileno())
    return rec


def send_to_floor(config: Config, payload: dict[str, Any], timeout_s: float = 5.0) -> str:
    """Publish the audit event (QoS 1, not retained); "sent" once the broker acknowledged it, else why not."""
    fc = config.floor
    if not fc.enabled:
        return "not sent: floor.enabled is false"
    acked = threading.Event()
    try:
        client = floor_client(config)
        client.on_publish = lambda c, u, mid, rc, props: acked.set()
        client.connect(fc.host, fc.port)
    except (OSError, ValueError) as e:
        return f"not sent: floor broker {fc.host}:{fc.port}: {getattr(e, 'strerror', None) or e}"
    client.loop_start()
    try:
        client.publish(audit_topic(config.table.site, config.table.id), json.dumps(payload), qos=1)
        return "sent" if acked.wait(timeout_s) else f"not sent: no acknowledgement within {timeout_s:.0f} s"
    finally:
        client.loop_stop()
        client.disconnect()


def floor_client(config: Config) -> mqtt.Client:
    """A one-shot MQTT 5 client with the table's floor credentials (``floor.*``); raises OSError/ValueError."""
    import paho.mqtt.client as mqtt
    fc = config.floor
    client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, protocol=mqtt.MQTTv5)
    if fc.username:
        password = Path(fc.password_file).read_text().strip() if fc.password_file else None
        client.username_pw_set(fc.username, password)
    if fc.tls:
        client.tls_set(ca_certs=fc.ca_file or None, certfile=fc.cert_file or None, keyfile=fc.key_file or None)
    return client


def authorise_reveal(config: Config, supervisor: str, pin: str, subject: str) -> tuple[bool, str]:
    """Check the PIN, journal the attempt and tell the floor; (granted, what to print)."""
    granted = bool(supervisor) and pin_ok(config, supervisor, pin)
    payload = audit_payload(config, "reveal-hole-cards", supervisor, granted, subject)
    floor = send_to_floor(config, payload)
    journal(config.audit.journal, payload, floor)
    where = f"journal {config.audit.journal}, floor {floor}"
    if not granted:
        return False, f"hole cards stay hidden: supervisor {supervisor or '?'} and PIN do not match " \
                      f"(audit.supervisors); the attempt is recorded ({where})"
    return True, f"hole cards revealed to supervisor {supervisor}; recorded ({where})"
