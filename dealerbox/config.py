"""The terminal's configuration: one TOML file, validated against ``schemas/config.schema.json``.

Every key has a default that runs the demo, so an empty file (or none) is a working config. A broken file
raises :class:`ConfigError` whose message is one line naming the file and the field, e.g.
``dealerbox.toml: game.big_blind: -2 is less than the minimum of 1``; the CLI prints it and exits 2.
"""

from __future__ import annotations

import json
import tomllib
from dataclasses import dataclass, field, fields
from importlib import resources
from pathlib import Path
from collections.abc import Callable
from typing import Any

import jsonschema


class ConfigError(ValueError):
    """A configuration the terminal cannot run with; the message names the file and field."""


@dataclass(frozen=True)
class TableConfig:
    id: str = "T01"
    site: str = "demo"
    seats: int = 9
    button: str = "moving"          # "moving" | "dead" (Blinds 1)
    kind: str = "cash"              # "cash" | "tournament": tournament rows of RULES.md are raised only at the latter


@dataclass(frozen=True)
class GameConfig:
    variant: str = "nlhe"           # key of engine.variants.VARIANTS
    small_blind: int = 1
    big_blind: int = 2
    small_bet: int = 2              # limit games: the bet on the first two rounds
    big_bet: int = 4                # limit games: the bet on the last two rounds
    max_raises: int = 3             # limit cap: a bet and this many raises (Betting 3)
    smallest_chip: int = 1          # chips below this do not play (Betting 7)
    straddle: bool = False          # live straddle allowed (No-Limit 12)
    sb_counts_as_bb: bool = False   # pot-limit sizing option (Pot-Limit 6)
    pot_round_to: int = 0           # pot-limit: the pot is rounded up to a multiple of this (Pot-Limit 5); 0 = exact
    kill: str = "none"              # "none" | "half" | "full" (Kill Pots)
    kill_qualifier: int = 0         # a second leg's least profit, blinds included (docs/betting.md); 0 = any pot
    kill_scoop: int = 5             # split games: a scoop forces a kill from a pot of this many big bets (Kill Pots 8)
    lowball_kill: bool = False      # house option, lowball: a player may kill after looking at two cards (Kill Pots 10)
    buy_in: int = 200               # default buy-in for the simulator and the "sit" tap
    ante: int = 0                   # every player dealt in posts it before the deal; 0 = none
    big_blind_ante: int = 0         # the big blind posts it for the whole table; 0 = none (not with ante)
    run_it: int = 1                 # house practice: the most runs the dealer may agree after an all-in (1 = off)
    bomb_pots: bool = False         # house practice: the dealer may start a bomb pot (everyone posts, no preflop)
    bomb_pot: int = 0               # the bomb pot's post per player, on the screen's keys; 0 = five big blinds

    def bomb_amount(self) -> int:
        """What every player posts in a bomb pot the screen's key starts (``bomb_pot``, else five big blinds)."""
        return self.bomb_pot or 5 * self.big_blind


@dataclass(frozen=True)
class ReaderConfig:
    source: str = "auto"            # "auto" (board if found, else simulator) | "serial" | "simulator"
    port: str = "/dev/dealerbox-reader"
    baud: int = 115200
    reconnect_max_s: float = 5.0


@dataclass(frozen=True)
class EnrolmentConfig:
    decks: tuple[str, ...] = ()     # deck files; empty: the built-in demo decks
    chips: tuple[str, ...] = ()     # chip-set files; empty: the built-in demo chips
    house: str = "DEMO"             # our own chips; every other house's do not play (Procedures 3)
    demo_chip_tags: str = "ntag"    # the demo chips' tags: "ntag" (7-byte UIDs) or "icode" (8-byte, ISO 15693)


@dataclass(frozen=True)
class FloorConfig:
    enabled: bool = True
    host: str = "127.0.0.1"
    port: int = 1883
    tls: bool = False
    ca_file: str = ""
    cert_file: str = ""
    key_file: str = ""
    username: str = ""
    password_file: str = ""
    outbox: str = "var/outbox.sqlite"
    outbox_max: int = 100_000
    replay_rate: int = 200          # messages per second drained from the outbox after a reconnect
    hole_cards_topic: bool = False  # restricted topic for hole cards (broadcast use); off by default


@dataclass(frozen=True)
class PanelConfig:
    enabled: bool = True
    pin_factory: str = ""           # gpiozero factory name ("lgpio", "mock"); empty: gpiozero's default
    button_call_floor: int = 17
    button_misdeal: int = 27
    button_new_hand: int = 22
    light_green: int = 5
    light_amber: int = 6
    light_red: int = 13
    buzzer: int = 19


@dataclass(frozen=True)
class DisplayConfig:
    mode: str = "auto"              # "auto" | "fullscreen" | "window" | "headless"
    width: int = 800
    height: int = 480


@dataclass(frozen=True)
class RecordConfig:
    enabled: bool = True
    dir: str = "var/logs"
    rotate_mb: int = 64
    rotate_daily: bool = True       # a new part at the first record after midnight UTC
    keep_days: int = 0              # delete parts older than this once the floor or an export holds them; 0 = keep all
    key: str = ""                   # the table's signing key (dealerbox keygen); "" = logs are not signed
    anchor_alert_min: float = 10.0  # a signed head not on the floor after this long: alert on screen and floor
    sign_idle_s: float = 60.0       # records unsigned this long get a signed (and anchored) head: no hand end needed
    floor_public_key: str = ""      # the floor's X25519 public key (keygen --floor); "" = hole cards in the clear


@dataclass(frozen=True)
class SimulatorConfig:
    seed: int = 1
    speed: float = 1.0              # 1.0 = a real dealer's pace
    irregularities: float = 0.0     # chance per hand of injecting an irregularity
    stack_limit: int = 0            # chips a chip zone's reader proves per field; more read "uncertain" (0: off)
    unreadable_stacks: float = 0.0  # chance a chip motion leaves its zone "unreadable" until its next change
    cue_file: str = ""              # drills: kinds written here play from the next hand (docs/dashboard.md); "" = off
    bomb_every: int = 0             # every Nth hand is a bomb pot (a table with game.bomb_pots); 0 = none
    bomb_boards: int = 1            # a scheduled bomb pot's boards: 1 or 2 (double board)


@dataclass(frozen=True)
class AuditConfig:
    supervisors: dict[str, str] = field(default_factory=dict)   # supervisor id -> argon2 hash of the PIN
    journal: str = "var/audit.jsonl"   # every reveal of hole cards, hash-chained (docs/security.md)
    dealers: dict[str, str] = field(default_factory=dict)       # dealer id -> argon2 hash of the sign-in PIN
    badges: dict[str, str] = field(default_factory=dict)        # badge tag uid -> dealer id (sign-in by badge)


@dataclass(frozen=True)
class TournamentSection:
    file: str = ""                  # the tournament's TOML (docs/tournaments.md); set: a tournament table


@dataclass(frozen=True)
class Config:
    table: TableConfig = field(default_factory=TableConfig)
    game: GameConfig = field(default_factory=GameConfig)
    reader: ReaderConfig = field(default_factory=ReaderConfig)
    enrolment: EnrolmentConfig = field(default_factory=EnrolmentConfig)
    floor: FloorConfig = field(default_factory=FloorConfig)
    panel: PanelConfig = field(default_factory=PanelConfig)
    display: DisplayConfig = field(default_factory=DisplayConfig)
    record: RecordConfig = field(default_factory=RecordConfig)
    simulator: SimulatorConfig = field(default_factory=SimulatorConfig)
    audit: AuditConfig = field(default_factory=AuditConfig)
    tournament: TournamentSection = field(default_factory=TournamentSection)
    path: str = ""                  # the file it came from ("" for defaults)

    @property
    def is_tournament(self) -> bool:
        """A tournament table: ``table.kind = "tournament"`` or a ``[tournament]`` file."""
        return self.table.kind == "tournament" or bool(self.tournament.file)

    def to_dict(self) -> dict[str, Any]:
        """The config as plain data (for the recorded log header); secrets are not in it, only file names.

        The audit section stays out: PIN hashes in every log would invite an offline guess of short PINs."""
        return {f.name: _section_dict(getattr(self, f.name)) for f in fields(self) if f.name not in ("path", "audit")}


def _section_dict(section: Any) -> dict[str, Any]:
    return {f.name: (list(v) if isinstance(v := getattr(section, f.name), tuple) else v) for f in fields(section)}


# every section of Config has a default_factory (its dataclass), so each value here can be called
SECTIONS: dict[str, Callable[[], object]] = {
    f.name: f.default_factory for f in fields(Config)   # type: ignore[misc]  # never MISSING: see above
    if f.name != "path"}


def schema() -> dict[str, Any]:
    return json.loads(resources.files("dealerbox.schemas").joinpath("config.schema.json").read_text())


def _field_path(error: jsonschema.ValidationError) -> str:
    return ".".join(str(p) for p in error.absolute_path) or "(top level)"


def from_dict(data: dict[str, Any], source: str = "<config>") -> Config:
    """Validate plain data and build a Config; raises ConfigError naming ``source`` and the field."""
    validator = jsonschema.Draft202012Validator(schema())
    errors = sorted(validator.iter_errors(data), key=lambda e: (len(e.absolute_path), _field_path(e)))
    if errors:
        e = errors[0]
        raise ConfigError(f"{source}: {_field_path(e)}: {e.message}")
    built: dict[str, Any] = {}   # section name -> its dataclass, each checked by the schema above
    for name, factory in SECTIONS.items():
        section = dict(data.get(name, {}))
        for key, value in section.items():
            if isinstance(value, list):
                section[key] = tuple(value)
        built[name] = type(factory())(**section)
    config = Config(**built, path=source)
    _check_consistency(config, source)
    return config


def _check_consistency(c: Config, source: str) -> None:
    """Rules a schema cannot say: relations between fields."""
    g = c.game
    if g.small_blind > g.big_blind:
        raise ConfigError(f"{source}: game.small_blind: {g.small_blind} is more than game.big_blind {g.big_blind}")
    if g.small_bet > g.big_bet:
        raise ConfigError(f"{source}: game.small_bet: {g.small_bet} is more than game.big_bet {g.big_bet}")
    if g.ante and g.big_blind_ante:
        raise ConfigError(f"{source}: game.ante: {g.ante} is set with game.big_blind_ante {g.big_blind_ante}; "
                          f"a game uses one or the other, set the other to 0")
    key = c.record.key
    if key and Path(c.record.dir).resolve() in Path(key).resolve().parents:
        raise ConfigError(f"{source}: record.key: {key} is inside record.dir {c.record.dir}; keep the signing "
                          f"key out of the log directory (copies of the logs must not carry it)")
    pins = {k: v for k, v in _section_dict(c.panel).items() if k.startswith(("button_", "light_", "buzzer"))}
    seen: dict[int, str] = {}
    for key, pin in pins.items():
        if pin in seen:
            raise ConfigError(f"{source}: panel.{key}: GPIO {pin} is already used by panel.{seen[pin]}")
        seen[pin] = key


def check_stakes(c: Config, source: str) -> None:
    """Stakes the table's chips cannot make. Checked on a config file only: a log or scenario replays as recorded."""
    g = c.game
    names: tuple[str, ...] = ("small_blind", "big_blind", "buy_in", "ante", "big_blind_ante", "bomb_pot")
    names += ("small_bet", "big_bet") if g.variant in ("flhe", "o8", "27td") else ()   # the limit games
    for name in names:
        value = getattr(g, name)
        if value % g.smallest_chip:
            raise ConfigError(f"{source}: game.{name}: {value} cannot be made with chips of "
                              f"game.smallest_chip {g.smallest_chip}; make it a multiple of it")


def read_toml(path: Path, error: type[ConfigError], missing_hint: str) -> dict:
    """The TOML file at ``path`` as a dict; ``error`` names the file and what is wrong with it."""
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise error(f"{path}: no such file; {missing_hint}") from None
    except OSError as e:
        raise error(f"{path}: cannot read ({e.strerror})") from None
    except UnicodeDecodeError:
        raise error(f"{path}: not UTF-8 text") from None
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        raise error(f"{path}: not valid TOML: {e}") from None
    except RecursionError:   # the parser recurses per nesting level: a hostile or broken file
        raise error(f"{path}: arrays or tables nested too deeply to read; no dealerbox setting nests more "
                    f"than a few levels (see docs/dealerbox.example.toml)") from None


def load(path: str | Path | None) -> Config:
    """Load the TOML file at ``path`` (None: the defaults, which run the demo)."""
    if path is None:
        return Config()
    path = Path(path)
    data = read_toml(path, ConfigError, "copy docs/dealerbox.example.toml there or drop --config")
    try:
        config = from_dict(data, str(path))
    except RecursionError:   # validating recurses per level too
        raise ConfigError(f"{path}: values nested too deeply to check; no dealerbox setting nests more than a "
                          f"few levels (see docs/dealerbox.example.toml)") from None
    check_stakes(config, str(path))
    return config
