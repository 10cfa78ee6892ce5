"""Words cases of the Showdown rows: a pot pushed where the cards do not send it (to a loser, or a shared pot
whole to one of its winners), the chips pulled back or slid over as the ruling says, then the next hand."""

from __future__ import annotations

from .common import SCENARIOS, Case, folded_to_the_big_blind


def upto(name: str, line: str) -> str:
    """A scenario of tests/scenarios/ up to and including its first line starting with ``line``."""
    lines = (SCENARIOS / name).read_text().splitlines(keepends=True)
    return "".join(lines[:next(i for i, x in enumerate(lines) if x.startswith(line)) + 1])


def after(name: str, line: str) -> str:
    """A scenario of tests/scenarios/ after its first line starting with ``line`` (the rest of its hand)."""
    lines = (SCENARIOS / name).read_text().splitlines(keepends=True)
    return "".join(lines[next(i for i, x in enumerate(lines) if x.startswith(line)) + 1:])


CASES: dict[str, Case] = {
    "showdown.3-loser": Case(
        "showdown.3", "stop, pull them back; the cards give main pot to seat 1",
        upto("showdown-3-wrong-push.scn", "push all to 3"),
        "chips all bet3 -> pot\nwait 2s\n", "win 1\nwait 1s\ncleanup\n" + folded_to_the_big_blind((1, 3), 3)),
    "showdown.3-split": Case(
        "showdown.3", "stop, pull what is over 3 back into the pot and push it to seat 4",
        upto("showdown-split-pushed-to-one.scn", "push all to 1"),
        "chips 4 bet1 -> pot\nwait 1s\npush 4 to 4\n", "award 1,4\nwait 1s\ntake 1\ntake 4\nwait 1s\ncleanup\n"
        + folded_to_the_big_blind((1, 2, 3, 4), 2)),
    "showdown.3-high-low": Case(
        "showdown.3", "stop, pull what is over 4 back into the pot and push it to seat 3",
        upto("showdown-highlow-pushed-to-the-high.scn", "push all to 1"),
        "chips 3 bet1 -> pot\nwait 1s\npush 3 to 3\n", "award 1\naward 3\nwait 1s\ntake 1\ntake 3\nwait 1s\ncleanup\n"
        + folded_to_the_big_blind((1, 2, 3, 4), 2)),
}
