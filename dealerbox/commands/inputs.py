"""Input files judged one way by every command that reads them (CONTRIBUTING.md, "The command line").

An empty scenario is a file that cannot be run: ``replay``, ``export``, ``audit`` and ``screenshot`` all refuse it
with the same line naming it (exit 2 when it was all they were given), rather than one command replaying
"0 records" and another writing "0 hands" or a blank table.
"""

from __future__ import annotations

from pathlib import Path

SCENARIO_DOC = "docs/scenarios.md"


def is_scenario(path: str | Path) -> bool:
    return str(path).endswith(".scn")


def scenario_without_steps(path: str | Path) -> str:
    """For a scenario (``*.scn``) holding nothing but blank lines and comments, the line saying so, naming it;
    else "" (a file that cannot be opened or decoded is left to the reader, whose message names it and the line)."""
    if not is_scenario(path):
        return ""
    try:
        text = Path(path).read_bytes().decode("utf-8")
    except (OSError, UnicodeDecodeError):
        return ""
    if any(line.strip() and not line.lstrip().startswith("#") for line in text.splitlines()):
        return ""
    return f"{path}: no steps (the file is empty or only comments), so there is nothing to run; see {SCENARIO_DOC}"


def counted(n: int, noun: str) -> str:
    """``1 log``, ``2 logs``, ``0 hands``: a count with its noun agreeing (nouns that take an s)."""
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"
