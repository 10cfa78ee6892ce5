"""Who the link is to the broker: credentials, TLS and the MQTT 5 properties every publish carries.

Kept apart from the session so that ``dealerbox doctor`` and the floor console build their clients exactly as
the terminal does; a bad file raises :class:`OutboxError` naming the config field to fix.
"""

from __future__ import annotations

import ssl
from pathlib import Path

import paho.mqtt.client as mqtt
from paho.mqtt.packettypes import PacketTypes
from paho.mqtt.properties import Properties

from . import contract as c
from .outbox import OutboxError


def client_id(site: str, table: str) -> str:
    """The id the link asks for; a broker set up as docs/mosquitto/ replaces it by the username anyway."""
    return f"dealerbox-{site}-{table}"


def publish_properties(kind: str) -> Properties:
    """MQTT 5 properties: JSON content type, the schema as a user property, an expiry on state."""
    props = Properties(PacketTypes.PUBLISH)
    props.ContentType = c.CONTENT_TYPE
    props.PayloadFormatIndicator = 1
    props.UserProperty = [("schema", f"dealerbox.floor.{kind}/{c.VERSION}")]
    if kind == "state":
        props.MessageExpiryInterval = c.STATE_EXPIRY_S
    return props


# read-only once built: shared by publishes (anchors go through the outbox too)
PROPERTIES = {kind: publish_properties(kind) for kind in (*c.KINDS, "anchor")}


def read_password(path: str) -> str:
    try:
        return Path(path).read_text(encoding="utf-8").splitlines()[0].strip()
    except (OSError, IndexError, UnicodeDecodeError) as e:
        raise OutboxError(f"{path}: cannot read the floor password ({e}); check floor.password_file") from None


def configure_security(client: mqtt.Client, username: str, password_file: str, tls: bool, ca_file: str,
                       cert_file: str, key_file: str) -> None:
    """Credentials and TLS on a paho client; a bad file raises OutboxError naming the config field."""
    if username:
        client.username_pw_set(username, read_password(password_file) if password_file else None)
    if tls:
        for field, path in (("ca_file", ca_file), ("cert_file", cert_file), ("key_file", key_file)):
            if path and not Path(path).is_file():
                raise OutboxError(f"floor.{field}: {path} does not exist")
        try:
            client.tls_set(ca_certs=ca_file or None, certfile=cert_file or None, keyfile=key_file or None)
        except (ssl.SSLError, OSError, ValueError) as e:
            raise OutboxError(f"floor.tls: cannot load the certificates ({e}); check floor.ca_file, "
                              f"floor.cert_file and floor.key_file") from None

