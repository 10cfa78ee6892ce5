"""The floor link: MQTT topics and payloads (contract), the durable outbox, the link that publishes, and the
reference floor view that subscribes. docs/floor-topics.md and docs/asyncapi.yaml describe the contract."""

from .contract import topic, validate
from .link import FloorCommand, FloorLink
from .outbox import Outbox, OutboxError

__all__ = ["FloorCommand", "FloorLink", "Outbox", "OutboxError", "topic", "validate"]
