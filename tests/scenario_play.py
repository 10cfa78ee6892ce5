"""Playing scenario text through the real pipeline: the one helper the scenario-driven tests share, and the
three-handed opening many of their hands start from."""

from __future__ import annotations

from dealerbox.engine import events as te
from dealerbox.pipeline import Pipeline
from dealerbox.sources.scenario import compile_text

# Three players at a 1/2 no-limit table, the button on seat 5: blinds posted by seats 1 and 3, hole cards dealt,
# seat 5 first to act
THREE_HANDED_DEALT = """table seats 6
game nlhe blinds 1/2
hello
shoe loaded
sit 1 200
sit 3 200
sit 5 200
button 5
blinds
deal hole cards
wait 2s
"""


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
