"""A table event back from its JSON (``to_dict()``): how the clear ``ev`` records of a sealed log are read.

``TableEvent.to_dict`` turns tuples into lists, dict keys into strings and nested dataclasses (``Pot``) into
objects; :func:`event_from_dict` undoes exactly that from each field's type, so the hand summaries, the audit
and the export read a sealed log's public events as the very objects a replay would have made (hole cards
masked: ``None``).

>>> from dealerbox.engine import events as e
>>> ended = e.HandEnded(9.0, 1, "complete", (e.Pot(30, (1, 2), (2,), {2: 30}),), {1: 185, 2: 215})
>>> event_from_dict(ended.to_dict()) == ended
True
"""

from __future__ import annotations

import dataclasses
import types
import typing
from collections.abc import Callable
from typing import Any

from ..engine import events as e

_EVENTS: dict[str, type[e.TableEvent]] = {
    name: cls for name, cls in vars(e).items()
    if isinstance(cls, type) and issubclass(cls, e.TableEvent) and cls is not e.TableEvent}
_READERS: dict[type[e.TableEvent], list[tuple[str, Callable[[Any], Any]]]] = {}


class TranscriptError(ValueError):
    """An ``ev`` record that is not a table event this dealerbox knows (the reader counts and skips it)."""


def _reader(tp: Any) -> Callable[[Any], Any]:
    """How to turn the JSON form of a value of type ``tp`` back into the value."""
    origin = typing.get_origin(tp)
    args = typing.get_args(tp)
    if origin in (types.UnionType, typing.Union):
        inner = [_reader(a) for a in args if a is not type(None)]
        return (lambda v: None if v is None else inner[0](v)) if len(inner) == 1 else (lambda v: v)
    if origin is tuple:
        if len(args) == 2 and args[1] is Ellipsis:
            item = _reader(args[0])
            return lambda v: tuple(item(x) for x in v)
        each = [_reader(a) for a in args]
        return lambda v: tuple(f(x) for f, x in zip(each, v, strict=True))
    if origin is dict:
        key, value = _reader(args[0]), _reader(args[1])
        return lambda v: {key(k): value(x) for k, x in v.items()}
    if isinstance(tp, type) and dataclasses.is_dataclass(tp):
        hints = typing.get_type_hints(tp)
        fields = [(f.name, _reader(hints[f.name])) for f in dataclasses.fields(tp)]
        cls = tp
        return lambda v: cls(**{name: read(v[name]) for name, read in fields if name in v})
    if tp is int:
        return int
    return lambda v: v


def _fields(cls: type[e.TableEvent]) -> list[tuple[str, Callable[[Any], Any]]]:
    got = _READERS.get(cls)
    if got is None:
        hints = typing.get_type_hints(cls)
        got = _READERS[cls] = [(f.name, _reader(hints[f.name])) for f in dataclasses.fields(cls)]
    return got


def event_from_dict(data: dict[str, Any]) -> e.TableEvent:
    """The event ``data`` describes; raises TranscriptError for an unknown event or a field of the wrong shape."""
    cls = _EVENTS.get(str(data.get("event")))
    if cls is None:
        raise TranscriptError(f"event: {data.get('event')!r} is not a table event this dealerbox knows")
    try:
        return cls(**{name: read(data[name]) for name, read in _fields(cls) if name in data})
    except (TypeError, ValueError, KeyError, AttributeError) as err:
        raise TranscriptError(f"event {cls.__name__}: {err}") from None
