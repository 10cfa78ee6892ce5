"""The scenario language's parser: lines into words, the settings block into a ``Config``, and the small
argument readers every step uses. What the steps *do* at the table is the player's (``player.py``)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ...engine.variants import VARIANTS, check_seats
from ...config import Config, ConfigError, from_dict
from ...record.logformat import Header, Record
from ...tags import ChipSet, Deck, TagRegistry, demo_registry
from ...wire import protocol as p

if TYPE_CHECKING:  # a cash scenario never loads the tournament package
    from ...tournament.config import Tournament

HOLE_CARDS = {key: v.hole_cards for key, v in VARIANTS.items()}
SETTINGS = {"table", "game", "set", "seed", "pace", "registry", "tournament"}
ZONE_RE = re.compile(r"^(shoe|board|burn|muck|pot|seat(10|[1-9])|bet(10|[1-9]))$")


class ScenarioError(ValueError):
    """A scenario that cannot be compiled; the message is ``file:line: what is wrong``."""


@dataclass(frozen=True)
class Step:
    line: int       # 1-based line number in the file
    text: str       # the line as written
    end: int        # records produced up to and including this step


@dataclass
class CompiledScenario:
    header: Header
    records: list[Record]
    steps: list[Step]
    name: str = "<scenario>"
    config: Config = field(default_factory=Config)
    registry: TagRegistry | None = None


@dataclass(frozen=True)
class ScriptLine:
    """One line that says something: its number, the text as written, the step word and its arguments."""
    no: int
    raw: str
    head: str
    args: list[str]
    text: str       # without the comment


def script_lines(text: str) -> Iterator[ScriptLine]:
    """The lines that say something, comments and blank lines left out."""
    for no, raw in enumerate(text.splitlines(), 1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        words = line.split()
        yield ScriptLine(no, raw.strip(), words[0].lower(), words[1:], line)


class StepError(Exception):
    """Raised inside a line handler; turned into a ScenarioError with the file and line."""


class Settings:
    """The settings block at the top of a scenario: config sections, the registry, the seed and the pace."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.sections: dict[str, dict[str, Any]] = {}
        self.registry = demo_registry()
        self.seed = 0
        self.pace = 1.0
        self.tournament: Tournament | None = None  # ``tournament FILE``: the event a tournament table plays

    def config(self) -> Config:
        """The table's config from what was read (raises StepError naming the bad setting)."""
        try:
            config = from_dict(self.sections, f"{self.name} (settings)")
            check_seats(config, f"{self.name} (settings)")   # the game and the seats are configured here
            return config
        except ConfigError as e:
            raise StepError(str(e)) from None

    # --- reading ------------------------------------------------------------------------------------
    def put(self, section: str, key: str, value: Any) -> None:
        self.sections.setdefault(section, {})[key] = value

    def read(self, head: str, args: list[str]) -> None:
        """One settings line (``table``, ``game``, ``set``, ``seed``, ``pace``, ``registry``)."""
        if head == "table":
            pairs = pairs_arg(args, "table seats 6 [button moving|dead] [id T01]")
            for k, v in pairs.items():
                self.put("table", k, value_arg(v))
        elif head == "game":
            if not args:
                raise StepError(f"game needs a variant: {', '.join(VARIANTS)}")
            self.put("game", "variant", args[0])
            for k, v in pairs_arg(args[1:], "game nlhe blinds 1/2 [bets 2/4] [straddle on] [kill half]").items():
                if k in ("blinds", "bets"):
                    a, _, b = v.partition("/")
                    if not (a.isdigit() and b.isdigit()):
                        raise StepError(f"{k} {v}: expected two whole numbers like 1/2")
                    names = ("small_blind", "big_blind") if k == "blinds" else ("small_bet", "big_bet")
                    self.put("game", names[0], int(a))
                    self.put("game", names[1], int(b))
                elif k == "straddle":
                    self.put("game", "straddle", v in ("on", "yes", "true"))
                else:
                    self.put("game", k.replace("-", "_"), value_arg(v))
        elif head == "set":
            if len(args) != 2 or "." not in args[0]:
                raise StepError("set needs section.key and a value, e.g. 'set game.smallest_chip 5'")
            section, key = args[0].split(".", 1)
            self.put(section, key, value_arg(args[1]))
        elif head == "seed":
            self.seed = int_arg(args, "seed N")
        elif head == "pace":
            self.pace = seconds_arg(args, "pace 1s")
        elif head == "registry":
            self._registry(args)
        elif head == "tournament":
            self._tournament(args)

    def _tournament(self, args: list[str]) -> None:
        """``tournament FILE``: a tournament table playing the event in FILE (TOML, beside the scenario)."""
        if len(args) != 1:
            raise StepError("tournament needs the event's TOML file, beside the scenario: tournament sunday.toml")
        from ...tournament.config import load   # a cash scenario never loads the tournament package
        path = Path(self.name).parent / args[0]
        self.tournament = load(path)
        self.put("tournament", "file", str(path))

    def _registry(self, args: list[str]) -> None:
        """``registry demo`` (default) or ``registry FILE...`` (deck and chip files, paths beside the scenario)."""
        if args == ["demo"]:
            self.registry = demo_registry()
            return
        from ...tags import load_enrolment
        base = Path(self.name).parent
        decks: list[Deck] = []
        chips: list[ChipSet] = []
        for a in args:
            item = load_enrolment(base / a)
            if isinstance(item, Deck):
                decks.append(item)
            else:
                chips.append(item)
        if not decks:
            raise StepError("registry: name at least one deck file")
        self.registry = TagRegistry(decks, chips)


def zone_arg(name: str) -> str:
    if not ZONE_RE.match(name):
        raise StepError(f"unknown zone {name!r}: shoe, board, burn, muck, pot, seat1-10, bet1-10 (or off)")
    return name


def uid_arg(text: str) -> str:
    try:
        raw = bytes.fromhex(text)
    except ValueError:
        raise StepError(f"uid:{text} is not hex") from None
    if len(raw) not in p.UID_LENGTHS:
        raise StepError(f"uid:{text} must be 4, 7 or 10 bytes")
    return raw.hex()


def pairs_arg(args: list[str], usage: str) -> dict[str, str]:
    if len(args) % 2:
        raise StepError(f"expected KEY VALUE pairs: {usage}")
    return {args[i]: args[i + 1] for i in range(0, len(args), 2)}


def int_arg(args: list[str], usage: str) -> int:
    if len(args) != 1 or not args[0].isdigit():
        raise StepError(f"expected a whole number: {usage}")
    return int(args[0])


def seconds_arg(args: list[str], usage: str) -> float:
    if len(args) != 1:
        raise StepError(f"expected a time: {usage}")
    text = args[0].removesuffix("s")
    try:
        value = float(text)
    except ValueError:
        raise StepError(f"{args[0]!r} is not a time in seconds: {usage}") from None
    if value < 0:
        raise StepError(f"{args[0]}: time cannot be negative")
    return value


def value_arg(text: str) -> Any:
    low = text.lower()
    if low in ("true", "on", "yes"):
        return True
    if low in ("false", "off", "no"):
        return False
    try:
        return int(text)
    except ValueError:
        pass
    try:
        return float(text)
    except ValueError:
        return text
