"""A tournament's configuration: one TOML file, validated against ``schemas/tournament.schema.json``.

A broken file raises :class:`TournamentConfigError` (a :class:`~dealerbox.config.ConfigError`, so the CLI
prints it on one line and exits 2) naming the file and the field, e.g.
``sunday.toml: levels.3.big_blind: 0 is less than the minimum of 1``.
"""

from __future__ import annotations

import json
from typing import Any, cast
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path

import jsonschema

from ..config import ConfigError, read_toml

# TOML and JSON data as tomllib/json give it: nested dicts, lists and scalars.
Data = dict[str, object]


class TournamentConfigError(ConfigError):
    """A tournament configuration the terminal or the floor cannot run with; names the file and field."""


@dataclass(frozen=True, slots=True)
class Level:
    number: int                 # 1-based, as announced in the room
    small_blind: int
    big_blind: int
    ante: int                   # every player's ante; 0: none
    big_blind_ante: int         # the big blind posts it for the table; 0: none
    seconds: float


@dataclass(frozen=True, slots=True)
class Break:
    after_level: int
    seconds: float


@dataclass(frozen=True, slots=True)
class Chip:
    value: int
    colour: str
    colour_up_after_level: int | None   # the last level it plays in (tournament.8a); None: it stays


@dataclass(frozen=True, slots=True)
class Tournament:
    id: str
    name: str
    starting_stack: int
    levels: tuple[Level, ...]
    breaks: tuple[Break, ...] = ()
    chips: tuple[Chip, ...] = ()
    entrants: int | None = None
    places_paid: int = 1
    seats_per_table: int = 9
    tables: tuple[str, ...] = ()          # the floor's break order (tournament.12), first broken first
    redraw_at_tables: tuple[int, ...] = (3, 2, 1)
    late_entry_until_level: int = 0
    held_seats: tuple[tuple[str, int], ...] = ()
    rebuy_until_level: int = 0
    rebuy_chips: int = 0
    rebuy_max_per_player: int = 0
    rebuy_only_at_or_below: int | None = None
    path: str = ""
    data: Data | None = field(default=None, compare=False, repr=False)   # the validated file, for the log header

    def level(self, number: int) -> Level:
        """Level ``number`` (1-based); past the schedule the last level repeats."""
        return self.levels[min(max(number, 1), len(self.levels)) - 1]

    def chips_in_play(self, level: int) -> tuple[Chip, ...]:
        """The chips that play at ``level``, smallest first."""
        return tuple(sorted((c for c in self.chips if c.colour_up_after_level is None
                             or c.colour_up_after_level >= level), key=lambda c: c.value))

    def colour_up_at(self, level: int) -> tuple[Chip, ...]:
        """The chips whose last level is ``level``: they are raced off when it ends (tournament.8a)."""
        return tuple(c for c in self.chips if c.colour_up_after_level == level)


def schema() -> Data:
    loaded: Data = json.loads(resources.files("dealerbox.schemas").joinpath("tournament.schema.json").read_text())
    return loaded


def _field_path(error: jsonschema.ValidationError) -> str:
    # levels are numbered from 1 in the room and in the messages, as the dealer reads them
    parts = [str(p + 1) if isinstance(p, int) else str(p) for p in error.absolute_path]
    return ".".join(parts) or "(top level)"


def from_dict(data: Data, source: str = "<tournament>") -> Tournament:
    """Validate plain data and build a Tournament; raises TournamentConfigError naming ``source`` and the field."""
    validator = jsonschema.Draft202012Validator(schema())
    errors = sorted(validator.iter_errors(data), key=lambda e: (len(e.absolute_path), _field_path(e)))
    if errors:
        raise TournamentConfigError(f"{source}: {_field_path(errors[0])}: {errors[0].message}")
    doc = cast(dict[str, Any], data)   # the schema has vouched for every field read below
    head: dict[str, Any] = doc["tournament"]
    levels = tuple(Level(i, lv["small_blind"], lv["big_blind"], lv.get("ante", 0), lv.get("big_blind_ante", 0),
                         float(lv["minutes"]) * 60) for i, lv in enumerate(doc["levels"], 1))
    breaks = tuple(sorted((Break(b["after_level"], float(b["minutes"]) * 60) for b in doc.get("breaks", [])),
                          key=lambda b: b.after_level))
    chips = tuple(sorted((Chip(c["value"], c["colour"], c.get("colour_up_after_level"))
                          for c in doc["chips"]), key=lambda c: c.value))
    late: dict[str, Any] = doc.get("late_entry", {})
    rebuys: dict[str, Any] = doc.get("rebuys", {})
    held = tuple((s.split(":")[0], int(s.split(":")[1])) for s in late.get("held_seats", []))
    t = Tournament(
        id=head["id"], name=head["name"], starting_stack=head["starting_stack"], levels=levels, breaks=breaks,
        chips=chips, entrants=head.get("entrants"), places_paid=head.get("places_paid", 1),
        seats_per_table=head.get("seats_per_table", 9), tables=tuple(head.get("tables", ())),
        redraw_at_tables=tuple(sorted(head.get("redraw_at_tables", (3, 2, 1)), reverse=True)),
        late_entry_until_level=late.get("until_level", 0), held_seats=held,
        rebuy_until_level=rebuys.get("until_level", 0), rebuy_chips=rebuys.get("chips", 0),
        rebuy_max_per_player=rebuys.get("max_per_player", 0), rebuy_only_at_or_below=rebuys.get("only_at_or_below"),
        path=source, data=data)
    _check_consistency(t, source)
    return t


def _check_consistency(t: Tournament, source: str) -> None:
    """Rules a schema cannot say: relations between fields."""
    def fail(field: str, why: str) -> None:
        raise TournamentConfigError(f"{source}: {field}: {why}")

    last = len(t.levels)
    for lv in t.levels:
        at = f"levels.{lv.number}"
        if lv.small_blind > lv.big_blind:
            fail(f"{at}.small_blind", f"{lv.small_blind} is more than the big blind {lv.big_blind}")
        if lv.ante and lv.big_blind_ante:
            fail(at, "has both ante and big_blind_ante; a level uses one or the other")
        in_play = t.chips_in_play(lv.number)
        if not in_play:
            fail("chips", f"no chip is left in play at level {lv.number}; keep one without colour_up_after_level")
        smallest = in_play[0].value
        for name in ("small_blind", "big_blind", "ante", "big_blind_ante"):
            amount = getattr(lv, name)
            if amount % smallest:
                fail(f"{at}.{name}", f"{amount} cannot be paid with the chips in play at this level "
                     f"(smallest is {smallest}); colour that chip up later or change the amount")
    values = [c.value for c in t.chips]
    if len(set(values)) != len(values):
        fail("chips", "two chips have the same value; list each denomination once")
    for c in t.chips:
        if c.colour_up_after_level is not None and c.colour_up_after_level >= last:
            fail(f"chips.{values.index(c.value) + 1}.colour_up_after_level",
                 f"{c.colour_up_after_level} is not before the last level ({last}); a chip raced off must leave play")
    if t.starting_stack % t.chips[0].value:
        fail("tournament.starting_stack",
             f"{t.starting_stack} is not a multiple of the smallest chip {t.chips[0].value}")
    seen: set[int] = set()
    for i, b in enumerate(t.breaks, 1):
        if b.after_level >= last:
            fail(f"breaks.{i}.after_level", f"{b.after_level} is not before the last level ({last})")
        if b.after_level in seen:
            fail(f"breaks.{i}.after_level", f"two breaks after level {b.after_level}; merge them")
        seen.add(b.after_level)
    if t.entrants is not None and t.places_paid > t.entrants:
        fail("tournament.places_paid", f"{t.places_paid} is more than the {t.entrants} entrants")
    for name, level in (("late_entry.until_level", t.late_entry_until_level),
                        ("rebuys.until_level", t.rebuy_until_level)):
        if level > last:
            fail(name, f"level {level} is past the last level ({last})")
    for table, seat in t.held_seats:
        if t.tables and table not in t.tables:
            fail("late_entry.held_seats", f"{table}:{seat} names a table not in tournament.tables")
        if seat > t.seats_per_table:
            fail("late_entry.held_seats", f"{table}:{seat} is past seats_per_table ({t.seats_per_table})")
    if t.rebuy_until_level and not t.rebuy_chips:
        fail("rebuys.chips", "missing: how many chips a rebuy buys")


def load(path: str | Path) -> Tournament:
    """Load and validate the tournament TOML file at ``path``."""
    path = Path(path)
    return from_dict(read_toml(path, TournamentConfigError, "copy docs/tournament.example.toml there"), str(path))
