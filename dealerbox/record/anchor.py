"""The anchor: the log's latest signed head, as the floor keeps it (topic ``dealerbox/<site>/<table>/anchor``).

A copy off the table is what makes a cut or rewritten log provable: whoever holds the box can delete lines
and re-hash, but cannot unpublish what the floor already saw, nor sign a new head without the key. Payload
schema: ``dealerbox/schemas/floor/anchor.json``; ``dealerbox verify --anchors/--from-floor`` reads it back.
"""

from __future__ import annotations

import json
from functools import cache
from importlib import resources
from typing import Any

import jsonschema

ANCHOR_VERSION = 1
ANCHOR_FIELDS = ("table", "log", "origin", "part", "n", "head", "sig", "key", "t", "at")


def anchor_topic(site: str, table: str) -> str:
    return f"dealerbox/{site}/{table}/anchor"


@cache
def _validator() -> jsonschema.Draft202012Validator:
    text = resources.files("dealerbox.schemas").joinpath("floor").joinpath("anchor.json").read_text()
    return jsonschema.Draft202012Validator(json.loads(text))


def anchor_payload(site: str, health: dict[str, Any] | None) -> dict[str, Any] | None:
    """The retained anchor payload from a terminal's health (``recorder.anchor``), or None when unsigned."""
    recorder = (health or {}).get("recorder")
    anchor = recorder.get("anchor") if isinstance(recorder, dict) else None
    if not isinstance(anchor, dict):
        return None
    payload = {"v": ANCHOR_VERSION, "kind": "anchor", "site": site, **{k: anchor[k] for k in ANCHOR_FIELDS}}
    _validator().validate(payload)
    return payload


def anchor_errors(payload: object) -> list[str]:
    """What is wrong with a received anchor (empty when it is valid)."""
    return [f"{'.'.join(map(str, e.absolute_path)) or '(top level)'}: {e.message}"
            for e in _validator().iter_errors(payload)]
