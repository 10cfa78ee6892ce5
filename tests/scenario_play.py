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


# The same table after that hand (seat 5 and 1 fold to seat 3), and a new player sitting down in seat 6, just after
# the button: the start of the mid-session seating tests (Blinds 1(a), 4, 7, 10)
NEW_PLAYER_AFTER_THE_BUTTON = THREE_HANDED_DEALT + """fold 5
fold 1
gather
win 3
cleanup
sit 6 200
"""


def one_hand(button: int, posts: dict[int, int], order: list[int], folds: list[int], winner: int) -> str:
    """One hand as the dealer runs it: the puck, the posts, two cards each in ``order``, folds, the push."""
    lines = [f"button {button}"]
    for seat, amount in posts.items():
        lines += [f"post {seat} {amount}", "wait 1s"]
    lines += [f"card random shoe -> seat{s}" for s in order * 2]
    lines += ["wait 2s"] + [f"fold {s}" for s in folds] + ["gather", f"win {winner}", "cleanup"]
    return "\n".join(lines) + "\n"


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
