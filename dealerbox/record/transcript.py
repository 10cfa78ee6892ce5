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
import functools
import types
import typing
from collections.abc import Callable
from typing import Any

from ..engine import events as e

_EVENTS: dict[str, type[e.TableEvent]] = {
    name: cls for name, cls in vars(e).items()
    if isinstance(cls, type) and issubclass(cls, e.TableEvent) and cls is not e.TableEvent}
_READERS: dict[type[e.TableEvent], list[tuple[str, Callable[[Any], Any]]]] = {}
_MAKERS: dict[type[e.TableEvent], Callable[[dict[str, Any]], e.TableEvent]] = {}


class TranscriptError(ValueError):
    """An ``ev`` record that is not a table event this dealerbox knows (the reader counts and skips it)."""


def _same(v: Any) -> Any:
    """The value as JSON has it (a text, a number, a flag): the reader of a type JSON keeps."""
    return v


def _optional_int(v: Any) -> int | None:
    return None if v is None else int(v)


def _int_tuple(v: Any) -> tuple[int, ...]:
    return tuple(map(int, v))


# How the generated reader spells a field read by one of these readers, in place of a call to it (the same
# operations, in the same order): {0} is the field's value, {1} a name free for it
_INLINE: dict[Callable[[Any], Any], str] = {
    _same: "{0}", int: "int({0})", tuple: "tuple({0})", _int_tuple: "tuple(map(int, {0}))",
    _optional_int: "(None if ({1} := {0}) is None else int({1}))"}


def _reader(tp: Any) -> Callable[[Any], Any]:
    """How to turn the JSON form of a value of type ``tp`` back into the value."""
    origin = typing.get_origin(tp)
    args = typing.get_args(tp)
    if origin in (types.UnionType, typing.Union):
        inner = [_reader(a) for a in args if a is not type(None)]
        if len(inner) != 1 or inner[0] is _same:   # None or a value JSON keeps: the value itself
            return _same
        if inner[0] is int:
            return _optional_int
        return lambda v: None if v is None else inner[0](v)
    if origin is tuple:
        if len(args) == 2 and args[1] is Ellipsis:
            item = _reader(args[0])
            if item is _same:
                return tuple
            if item is int:
                return _int_tuple
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
    return _same


def _fields(cls: type[e.TableEvent]) -> list[tuple[str, Callable[[Any], Any]]]:
    got = _READERS.get(cls)
    if got is None:
        hints = typing.get_type_hints(cls)
        got = _READERS[cls] = [(f.name, _reader(hints[f.name])) for f in dataclasses.fields(cls)]
    return got


def _maker(cls: type[e.TableEvent]) -> Callable[[dict[str, Any]], e.TableEvent]:
    """``cls`` read back from its JSON form by one generated function: when every field is there (every line a
    recorder writes) one call reads them in order, the usual readers (a value JSON keeps, a number, a list of
    numbers) written out in place of a call; otherwise :func:`_by_fields`. Either way the very event, or the
    very exception, of reading field by field. A sealed log holds one ``ev`` line for every table event, so the
    audit reads these by the hundred thousand."""
    got = _MAKERS.get(cls)
    if got is not None:
        return got
    fields = _fields(cls)
    scope: dict[str, Any] = {"cls": cls, "by_fields": functools.partial(_by_fields, cls, fields)}
    args = []
    for i, (name, read) in enumerate(fields):
        spelt = _INLINE.get(read)
        if spelt is None:
            scope[f"read{i}"] = read
            spelt = f"read{i}({{0}})"
        args.append(f"{name}=" + spelt.format(f"d[{name!r}]", f"v{i}"))
    every = " and ".join(f"{name!r} in d" for name, _ in fields) or "True"
    exec(f"def make(d):\n    if {every}:\n        return cls({', '.join(args)})\n    return by_fields(d)\n", scope)
    made: Callable[[dict[str, Any]], e.TableEvent] = scope["make"]
    _MAKERS[cls] = made
    return made


def _by_fields(cls: type[e.TableEvent], fields: list[tuple[str, Callable[[Any], Any]]],
               data: dict[str, Any]) -> e.TableEvent:
    """``cls`` from the fields ``data`` has, each read in order (a field left out is the constructor's to name)."""
    return cls(**{name: read(data[name]) for name, read in fields if name in data})


def event_from_dict(data: dict[str, Any]) -> e.TableEvent:
    """The event ``data`` describes; raises TranscriptError for an unknown event or a field of the wrong shape."""
    if not isinstance(data, dict):   # an edited log's "e" may be anything JSON holds: a reader must not crash on it
        raise TranscriptError(f"event: a {type(data).__name__}, not an object")
    cls = _EVENTS.get(str(data.get("event")))
    if cls is None:
        raise TranscriptError(f"event: {data.get('event')!r} is not a table event this dealerbox knows")
    try:
        return (_MAKERS.get(cls) or _maker(cls))(data)
    except (TypeError, ValueError, KeyError, AttributeError) as err:
        raise TranscriptError(f"event {cls.__name__}: {err}") from None
