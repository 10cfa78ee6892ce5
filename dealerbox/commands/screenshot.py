"""``dealerbox screenshot SCENARIO --step N --out FILE.png``: the dealer's screen as it stands after step N
of a scenario, for docs, bug reports and tests.

The scenario is compiled to records, the records of the first N steps run through the real pipeline
(decoder, registry, engine) set up from the scenario's header, and the screen is drawn offscreen with
SDL's dummy video driver: no display needed.
"""

from __future__ import annotations

import argparse
import dataclasses
import os
import re
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .inputs import scenario_without_steps

if TYPE_CHECKING:
    from ..config import Config
    from ..engine.events import TableEvent
    from ..engine.state import QuestionView, TournamentView
    from ..engine.state import TableState
    from ..sinks.screen.screen import Screen

    Shot = tuple[TableState, dict[str, Any], list[TableEvent]]   # what the screen draws: state, health, events


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("scenario", metavar="SCENARIO", help="scenario file (*.scn), or a recorded log (e.g. of "
                        "`dealerbox simulate --out`)")
    parser.add_argument("--step", "-n", type=int, default=None,
                        help="render after this many steps of the scenario, or records of a log (default: all)")
    parser.add_argument("--at", type=float, default=None, metavar="SECONDS",
                        help="a recorded log: render as the table stood this many seconds after its first record")
    parser.add_argument("--out", "-o", required=True, metavar="FILE.png", help="where to write the PNG")
    parser.add_argument("--size", default=None, metavar="WxH",
                        help="screen size, e.g. 800x480, 1024x600, 1280x800 (default: display.width x height)")
    parser.add_argument("--history", action="store_true", help="show the hand history view instead of the table")
    parser.add_argument("--seat", default=None, metavar="N[:rebuy|:leave]",
                        help="with the seat sheet of seat N open, as a tap on its box opens it "
                             "(':rebuy' or ':leave' goes one step on for an occupied seat)")
    parser.add_argument("--question", default=None, metavar="TEXT",
                        help="with this question to the dealer on screen (as the engine asks one when the chips "
                             "cannot tell), e.g. 'Seat 2 stands by the call?'")
    parser.add_argument("--answer", action="append", default=None, metavar="KEY=LABEL",
                        help="an answer key of --question, the likely one first; repeat for each "
                             "(default: yes=Yes no=No)")
    parser.add_argument("--clock", default=None, metavar="CLOCK.json",
                        help="a tournament table: paint this clock payload (as the floor sends it on the clock "
                             "topic, dealerbox/schemas/floor/clock.json) in the clock strip")


def read_clock(path: str, at: float) -> TournamentView:
    """The TournamentView of a clock payload file, checked against its schema (the message names the file)."""
    import json

    from ..sinks.screen.tournament import clock_view
    from ..tournament.floor import schema_errors
    try:
        payload = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, ValueError, RecursionError) as e:   # RecursionError: arrays nested too deep
        raise ValueError(f"--clock: {path}: not a readable JSON file ({e})") from e
    errors = schema_errors("clock", payload)
    if errors:
        raise ValueError(f"--clock: {path}: {errors[0]} (see dealerbox/schemas/floor/clock.json)")
    return clock_view(payload, at)


def parse_seat(text: str) -> tuple[int, str | None]:
    m = re.fullmatch(r"\s*(\d{1,2})\s*(?::\s*(rebuy|leave)\s*)?", text)
    if not m:
        raise ValueError(f"--seat: {text!r} is not a seat number, optionally with :rebuy or :leave (e.g. 4, 2:rebuy)")
    return int(m.group(1)), m.group(2)


def parse_question(text: str, answers: list[str] | None) -> QuestionView:
    """A QuestionView for ``--question`` and its ``--answer KEY=LABEL`` options (id "q1", as a scenario's first)."""
    from ..engine.state import QuestionView

    if not text.strip():
        raise ValueError("--question: the question is empty; give the sentence the dealer should read")
    pairs = []
    for answer in answers or ["yes=Yes", "no=No"]:
        key, sep, label = answer.partition("=")
        if not sep or not key.strip() or not label.strip():
            raise ValueError(f"--answer: {answer!r} is not KEY=LABEL (e.g. stands='Stands by the call')")
        pairs.append((key.strip(), label.strip()))
    return QuestionView("q1", text.strip(), tuple(pairs))


def parse_size(text: str) -> tuple[int, int]:
    m = re.fullmatch(r"\s*(\d{3,4})\s*[xX]\s*(\d{3,4})\s*", text)
    if not m:
        raise ValueError(f"--size: {text!r} is not WIDTHxHEIGHT (e.g. 800x480)")
    w, h = int(m.group(1)), int(m.group(2))
    if w < 640 or h < 400:
        raise ValueError(f"--size: {w}x{h} is smaller than the smallest supported screen, 800x480")
    return w, h


def table_after(scenario: str | Path, step: int | None) -> Shot:
    """(state, health, events) after ``step`` steps of a scenario, through the real pipeline."""
    from ..pipeline import Pipeline
    from ..sources.scenario import compile_file

    compiled = compile_file(scenario)
    steps = compiled.steps
    if step is None:
        step = len(steps)
    if not 0 <= step <= len(steps):
        raise ValueError(f"--step: {scenario} has {len(steps)} steps; {step} is out of range (0..{len(steps)})")
    end = steps[step - 1].end if step else 0
    pipe = Pipeline.from_header(compiled.header)
    events: list[TableEvent] = []
    for record in compiled.records[:end]:
        events.extend(pipe.feed(record))
    health = {"reader": {"connected": True, **pipe.counters()}}
    return pipe.engine.snapshot(), health, events


def log_after(path: str | Path, step: int | None, at: float | None) -> Shot:
    """(state, health, events) of a recorded log after ``step`` records, or as it stood ``at`` seconds after its
    first record, through the real pipeline (the log's own table and enrolment)."""
    from ..pipeline import Pipeline
    from ..sources import open_log

    log = open_log(path)
    pipe = Pipeline.from_header(log.header)
    events: list[TableEvent] = []
    start: float | None = None
    for i, record in enumerate(log):
        start = record.t if start is None else start
        if (step is not None and i >= step) or (at is not None and record.t - start > at):
            break
        events.extend(pipe.feed(record))
    health = {"reader": {"connected": True, **pipe.counters()}}
    return pipe.engine.snapshot(), health, events


def save_png(config: Config, size: tuple[int, int], state: TableState, health: dict[str, Any],
             events: list[TableEvent], out: str | Path, history: bool = False,
             seat: tuple[int, str | None] | None = None) -> Screen:
    """Draw the screen offscreen and write it as a PNG; returns the Screen (its ``frame`` says what was drawn).
    ``seat``: (seat, None | "rebuy" | "leave") draws it with that seat's sheet open."""
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    import pygame

    from ..sinks.screen.screen import Screen as ScreenClass

    screen = ScreenClass(config, size)
    screen.ui.history = history
    surface = screen.render(state, health, events)
    if seat is not None:
        if history:
            raise ValueError("--seat with --history: the seat sheet is drawn over the table, not the history")
        view = next((v for v in state.seats if v.seat == seat[0]), None)
        if view is None:
            raise ValueError(f"--seat: the table has seats 1..{len(state.seats)}; there is no seat {seat[0]}")
        if seat[1] and not view.occupied:
            raise ValueError(f"--seat: seat {seat[0]} is empty, so it has no {seat[1]} (use --seat {seat[0]})")
        screen.open_sheet(seat[0], view.occupied, seat[1])
        surface = screen.render(state, health, events)
    Path(out).parent.mkdir(parents=True, exist_ok=True)
    pygame.image.save(surface, str(out))
    return screen


def run(args: argparse.Namespace) -> int:
    config = args.cfg
    try:
        size = parse_size(args.size) if args.size else (config.display.width, config.display.height)
        seat = parse_seat(args.seat) if args.seat else None
        if args.answer and not args.question:
            raise ValueError("--answer: answers belong to a --question; give the question too")
        question = parse_question(args.question, args.answer) if args.question is not None else None
        scenario = Path(args.scenario)
        if scenario.is_dir():
            example = next(iter(sorted(scenario.glob("*.scn"))), scenario / "NAME.scn")
            raise ValueError(f"{scenario}: a folder; give one scenario (*.scn) or recorded log, e.g. {example}")
        if not scenario.is_file():
            raise ValueError(f"{scenario}: no such scenario file or recorded log")
        if Path(args.out).is_dir():
            raise ValueError(f"--out {args.out}: a folder; --out is the PNG file to write, e.g. "
                             f"{Path(args.out) / 'screen.png'}")
        empty = scenario_without_steps(scenario)
        if empty:   # not a blank table: the same line as replay's
            raise ValueError(empty)
        try:
            if args.scenario.endswith(".scn"):
                if args.at is not None:
                    raise ValueError("--at: a scenario is stepped with --step; --at is for a recorded log")
                state, health, events = table_after(args.scenario, args.step)
            else:
                state, health, events = log_after(args.scenario, args.step, args.at)
            if question is not None:
                state = dataclasses.replace(state, question=question)
            if args.clock:
                state = dataclasses.replace(state, tournament=read_clock(args.clock, 0.0))
        except ImportError as e:
            raise ValueError(f"the scenario compiler is not available in this build ({e})") from e
        save_png(config, size, state, health, events, args.out, history=args.history, seat=seat)
    except (ValueError, OSError, _scenario_error()) as e:  # the message names the file (and line)
        print(f"dealerbox screenshot: {e}", file=sys.stderr)
        return 2
    where = f"at {args.at:g} s" if args.at is not None else \
        f"after step {args.step if args.step is not None else 'last'}"
    print(f"{args.out}: {size[0]}x{size[1]}, {args.scenario} {where}")
    return 0


def _scenario_error() -> type[Exception]:
    try:
        from ..sources.scenario import ScenarioError
        return ScenarioError
    except ImportError:
        return ValueError
