"""Playing scenario text through the real pipeline: the one helper the scenario-driven tests share."""

from __future__ import annotations

from dealerbox.engine import events as te
from dealerbox.pipeline import Pipeline
from dealerbox.sources.scenario import compile_text


def play_text(text: str, name: str = "<scenario>") -> list[te.TableEvent]:
    """Every table event of scenario ``text`` fed record by record to a pipeline built from its header."""
    compiled = compile_text(text, name)
    pipe = Pipeline.from_header(compiled.header)
    events: list[te.TableEvent] = []
    for record in compiled.records:
        events += pipe.feed(record)
    return events


def loud(events: list[te.TableEvent]) -> list[te.FindingRaised]:
    """The findings above ``info``: what the dealer or the floor must act on."""
    return [e for e in events if isinstance(e, te.FindingRaised) and e.severity != "info"]
