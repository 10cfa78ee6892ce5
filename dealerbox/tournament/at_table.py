"""The tournament a table plays in: its configuration's ``[tournament] file``, loaded and validated.

A module of its own so that ``dealerbox.config`` (which ``tournament.config`` builds on) never imports the
tournament package.
"""

from __future__ import annotations

from pathlib import Path

from ..config import Config
from .config import Tournament, from_dict, load


def for_table(config: Config) -> Tournament | None:
    """The tournament ``config`` points at (``[tournament] file``, relative to the config file's folder), or
    None at a cash table or a tournament table configured without a file (``table.kind`` alone)."""
    if not config.tournament.file:
        return None
    path = Path(config.tournament.file)
    if not path.is_absolute() and config.path and Path(config.path).parent != Path(""):
        path = Path(config.path).parent / path
    return load(path)


def played(config: Config, recorded: dict[str, object] | None = None) -> Tournament | None:
    """The event a terminal plays: as a replayed log's header recorded it (``recorded``), else ``config``'s
    file. Raises TournamentConfigError (a ConfigError) naming the file and the field."""
    if recorded:
        return from_dict(recorded, "log header: tournament")
    return for_table(config)
