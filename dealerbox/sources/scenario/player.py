"""The scenario player: acts each line of a script out on a choreography and collects the records a
reader board and a dealer would have made (the parser is ``script.py``; the steps are ``table_steps.py``
and ``chip_steps.py``)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ...config import ConfigError
from ...engine.inputs import DEALER_ACTIONS, DealerInput
from ...record.logformat import Input, Link, Record, Rx, table_header
from ...tags import is_card
from ..choreography import LinkChange
from .chip_steps import ChipSteps
from .scene import Scene
from .script import (
    SETTINGS,
    CompiledScenario,
    ScenarioError,
    Settings,
    Step,
    StepError,
    pairs_arg,
    script_lines,
    seconds_arg,
)
from .table_steps import TableSteps


def compile_file(path: str | Path) -> CompiledScenario:
    """A scenario file compiled to records; errors name the file and the line."""
    path = Path(path)
    data = path.read_bytes()
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        line = data[:e.start].count(b"\n") + 1
        raise ScenarioError(f"{path} line {line}: not UTF-8 text, not a scenario; save it as UTF-8 "
                            "(docs/scenarios.md)") from None
    return compile_text(text, name=str(path))


def compile_text(text: str, name: str = "<scenario>") -> CompiledScenario:
    """Scenario text compiled to records; ``name`` is what error messages call it."""
    return ScenarioPlayer(name).compile(text)


class ScenarioPlayer:
    """Plays one script: settings first, then every step in order, each step's records kept apart. The
    table as set so far is one :class:`Scene`, handed to the table steps and the chip steps wired here."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.scene = Scene(name)
        self.groups: tuple[TableSteps | ChipSteps | ScenarioPlayer, ...] = (
            self, TableSteps(self.scene), ChipSteps(self.scene))
        self.records: list[Record] = []
        self.steps: list[Step] = []

    # --- driving ------------------------------------------------------------------------------------
    def compile(self, text: str) -> CompiledScenario:
        settings = Settings(self.name)
        started = False
        for line in script_lines(text):
            try:
                if line.head in SETTINGS:
                    if started:
                        raise StepError(f"'{line.head}' is a setting: put it before the first event")
                    settings.read(line.head, line.args)
                    continue
                if not started:
                    started = True
                    self.scene.begin(settings)
                self._event(line.head, line.args, line.text)
            except (StepError, ConfigError, ValueError) as e:
                raise ScenarioError(f"{self.name}:{line.no}: {e}") from None
            self._flush()
            self.steps.append(Step(line.no, line.raw, len(self.records)))
        if not started:
            self.scene.begin(settings)
        scene = self.scene
        return CompiledScenario(table_header(scene.config, scene.registry, tournament=settings.tournament),
                                self.records, self.steps, self.name, scene.config, scene.registry)

    def _flush(self) -> None:
        """Turn the choreography's new messages into records (the Encoder numbers the frames)."""
        c = self.scene.c
        for t, m in c.messages:
            if isinstance(m, DealerInput):
                self.records.append(Input(m))
            elif isinstance(m, LinkChange):
                self.records.append(Link(t, m.up, m.port, m.reason))
            elif isinstance(m, bytes):
                self.records.append(Rx(t, m))
            else:
                self.records.append(Rx(t, self.scene.encoder.encode(m)))
        c.messages.clear()

    # --- events --------------------------------------------------------------------------------------
    def _event(self, head: str, args: list[str], line: str) -> None:
        c = self.scene.c
        name = "_do_" + head.replace("-", "_")
        handler = next((h for group in self.groups if (h := getattr(group, name, None)) is not None), None)
        if head in ("wait", "at") and handler is not None:
            handler(args)
            return
        if handler is None and head in DEALER_ACTIONS:
            self._tap(head, args)
        elif handler is None:
            raise StepError(f"unknown step {head!r}; see docs/scenarios.md for the steps")
        else:
            handler(args)
        c.wait(self.scene.pace)

    def _do_wait(self, args: list[str]) -> None:
        self.scene.c.wait(seconds_arg(args, "wait 2s"))

    def _do_at(self, args: list[str]) -> None:
        t = seconds_arg(args, "at 12.5")
        c = self.scene.c
        if t < c.t - 1e-9:
            raise StepError(f"at {t}: time cannot go back (it is already {c.t:.3f})")
        c.t = t

    # dealer taps
    def _tap(self, action: str, args: list[str]) -> None:
        fields: dict[str, Any] = {}
        rest = list(args)
        if rest and rest[0].isdigit() and action not in ("award",):
            fields["seat"] = int(rest.pop(0))
        elif rest and action in ("exposed",) and is_card(rest[0]):
            fields["card"] = rest.pop(0)
        elif rest and action == "ack" and rest[0] not in ("seat", "ref"):
            fields["ref"] = rest.pop(0)
        for k, v in pairs_arg(rest, f"{action} [seat N] [card C] [amount A] [ref R] [seats 1,2] [choice C] [by B] "
                                    "[detail JSON]").items():
            if k in ("seat", "amount"):
                fields[k] = int(v)
            elif k == "seats":
                fields[k] = tuple(int(s) for s in v.split(","))
            elif k in ("card", "ref", "choice", "by", "detail"):   # detail: a floor payload, compact JSON (no spaces)
                fields[k] = v
            else:
                raise StepError(f"{action}: unknown field {k!r} (seat, card, amount, ref, seats, choice, by, detail)")
        self.scene.c.tap(action, **fields)

    def _do_tap(self, args: list[str]) -> None:
        if not args or args[0] not in DEALER_ACTIONS:
            raise StepError(f"tap ACTION: one of {', '.join(DEALER_ACTIONS)}")
        self._tap(args[0], args[1:])
