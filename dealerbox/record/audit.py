"""Seeing hole cards outside a showdown is an audited act: the floor's private key, a journal line, a floor message.

What locks a recorded log's hole cards is the floor's key (record/sealing.py), not a PIN: ``replay`` and
``export`` reveal only with ``--floor-key``. Every reveal, granted or refused, goes to the audit journal
(``audit.journal``: JSON Lines, hash-chained like the recorded log, created 0640) and is published to the floor
on ``dealerbox/<site>/<table>/audit`` (QoS 1, schema ``dealerbox/schemas/floor/audit.json``). If the floor
cannot be reached the journal line says so: the reveal is still on the record.

The supervisors' PINs (argon2 hashes in ``audit.supervisors``, :func:`pin_ok`) are for the terminal's screen
only; they are no lock on data, since whoever reads a log can also write the config that holds their hashes.
"""

from __future__ import annotations

import json
import os
import socket
import threading
from datetime import UTC, datetime
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
    from paho.mqtt.enums import CallbackAPIVersion
    client = mqtt.Client(CallbackAPIVersion.VERSION2, protocol=mqtt.MQTTv5)
    if fc.username:
        password = Path(fc.password_file).read_text().strip() if fc.password_file else None
        client.username_pw_set(fc.username, password)
    if fc.tls:
        client.tls_set(ca_certs=fc.ca_file or None, certfile=fc.cert_file or None, keyfile=fc.key_file or None)
    return client


def who() -> str:
    """The account asking (the journal's ``supervisor``): the login name, or the uid when it has none."""
    import getpass
    try:
        return getpass.getuser()[:32]
    except (KeyError, OSError):   # no name for this uid (a container): say so rather than guess
        return f"uid-{os.getuid()}"


def record_reveal(config: Config, granted: bool, subject: str) -> tuple[bool, str]:
    """Journal a reveal with the floor's key (granted or refused) and tell the floor: (on the record anywhere,
    where it went). A reveal that reached neither the journal nor the floor must not go ahead."""
    payload = audit_payload(config, "reveal-hole-cards", who(), granted, subject)
    floor = send_to_floor(config, payload)
    try:
        journal(config.audit.journal, payload, floor)
    except OSError as e:
        return floor == "sent", f"journal {config.audit.journal} not written ({e.strerror or e}), floor {floor}"
    return True, f"journal {config.audit.journal}, floor {floor}"
