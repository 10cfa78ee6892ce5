"""Scenario scripts: what happens at a table, one line per step, compiled to the records the hardware makes.

The format is documented with examples in ``docs/scenarios.md``. A short taste::

    table seats 6
    game nlhe blinds 1/2
    hello
    shoe loaded
    sit 1 200
    sit 3 200
    button 1
    blinds
    deal hole cards 3=Ah,Kd
    chips 6 -> bet1
    call 3 6
    gather
    flop 2c 7d 9s

Records are exactly what a reader board and a dealer produce (Rx bytes from the protocol Encoder, Input
records for taps, Link records), so a scenario replays through the same decoder as a recorded log.
Errors raise :class:`ScenarioError` naming the file, the line and what is wrong.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from ..config import Config, ConfigError, from_dict
from ..engine.inputs import DEALER_ACTIONS, DealerInput
from ..pipeline import enrolment_of
from ..record.logformat import Header, Input, Link, Record, Rx
from ..tags import STANDARD_DECK, ChipSet, Deck, TagRegistry, demo_registry, is_card
from ..wire import protocol as p
from .choreography import Choreography, board_hello

HOLE_CARDS = {"nlhe": 2, "plhe": 2, "flhe": 2, "plo": 4}


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


class _Fail(Exception):
    """Raised inside a line handler; turned into a ScenarioError with the file and line."""


def compile_file(path: str | Path) -> CompiledScenario:
    path = Path(path)
    return compile_text(path.read_text(encoding="utf-8"), name=str(path))


def compile_text(text: str, name: str = "<scenario>") -> CompiledScenario:
    return _Compiler(name).compile(text)


# --- the compiler --------------------------------------------------------------------------------------

_SETTINGS = {"table", "game", "set", "seed", "pace", "registry"}
_ZONE_RE = re.compile(r"^(shoe|board|burn|muck|pot|seat(10|[1-9])|bet(10|[1-9]))$")


class _Compiler:
    def __init__(self, name: str) -> None:
        self.name = name
        self.settings: dict[str, dict[str, Any]] = {}
        self.registry = demo_registry()
        self.config: Config | None = None
        self.seed = 0
        self.pace = 1.0
        self.c = Choreography(0.0)
        self.records: list[Record] = []
        self.encoder = p.Encoder()
        self.steps: list[Step] = []
        self.seated: dict[int, int] = {}
        self.button: int | None = None
        self.used_chips: set[str] = set()
        self._taken: set[str] = set()   # cards named or drawn this hand, so random ones never repeat them

    # --- driving ------------------------------------------------------------------------------------
    def compile(self, text: str) -> CompiledScenario:
        started = False
        for no, raw in enumerate(text.splitlines(), 1):
            line = raw.split("#", 1)[0].strip()
            if not line:
                continue
            words = line.split()
            head = words[0].lower()
            try:
                if head in _SETTINGS:
                    if started:
                        raise _Fail(f"'{head}' is a setting: put it before the first event")
                    self._setting(head, words[1:])
                    continue
                if not started:
                    started = True
                    self._begin()
                self._event(head, words[1:], line)
            except _Fail as e:
                raise ScenarioError(f"{self.name}:{no}: {e}") from None
            except (ConfigError, ValueError) as e:
                raise ScenarioError(f"{self.name}:{no}: {e}") from None
            self._flush()
            self.steps.append(Step(no, raw.strip(), len(self.records)))
        if not started:
            self._begin()
        header = Header(config=self.config.to_dict(), enrolment=enrolment_of(self.registry))
        return CompiledScenario(header, self.records, self.steps, self.name, self.config, self.registry)

    def _begin(self) -> None:
        try:
            self.config = from_dict(self.settings, f"{self.name} (settings)")
        except ConfigError as e:
            raise _Fail(str(e)) from None
        self.rng = random.Random(self.seed)
        self.deck = self.registry.decks[0]

    def _flush(self) -> None:
        """Turn the choreography's new messages into records (the Encoder numbers the frames)."""
        for t, m in self.c.messages:
            if isinstance(m, DealerInput):
                self.records.append(Input(m))
            elif isinstance(m, tuple) and m and m[0] == "link":
                self.records.append(Link(t, m[1], m[2], m[3]))
            elif isinstance(m, bytes):
                self.records.append(Rx(t, m))
            else:
                self.records.append(Rx(t, self.encoder.encode(m)))
        self.c.messages.clear()

    # --- settings ------------------------------------------------------------------------------------
    def _set(self, section: str, key: str, value: Any) -> None:
        self.settings.setdefault(section, {})[key] = value

    def _setting(self, head: str, args: list[str]) -> None:
        if head == "table":
            pairs = _pairs(args, "table seats 6 [button moving|dead] [id T01]")
            for k, v in pairs.items():
                self._set("table", k, _value(v))
        elif head == "game":
            if not args:
                raise _Fail("game needs a variant: nlhe, plhe, flhe or plo")
            self._set("game", "variant", args[0])
            for k, v in _pairs(args[1:], "game nlhe blinds 1/2 [bets 2/4] [straddle on] [kill half]").items():
                if k in ("blinds", "bets"):
                    a, _, b = v.partition("/")
                    if not (a.isdigit() and b.isdigit()):
                        raise _Fail(f"{k} {v}: expected two whole numbers like 1/2")
                    names = ("small_blind", "big_blind") if k == "blinds" else ("small_bet", "big_bet")
                    self._set("game", names[0], int(a))
                    self._set("game", names[1], int(b))
                elif k == "straddle":
                    self._set("game", "straddle", v in ("on", "yes", "true"))
                else:
                    self._set("game", k.replace("-", "_"), _value(v))
        elif head == "set":
            if len(args) != 2 or "." not in args[0]:
                raise _Fail("set needs section.key and a value, e.g. 'set game.smallest_chip 5'")
            section, key = args[0].split(".", 1)
            self._set(section, key, _value(args[1]))
        elif head == "seed":
            self.seed = _int(args, "seed N")
        elif head == "pace":
            self.pace = _seconds(args, "pace 1s")
        elif head == "registry":
            self._registry(args)

    def _registry(self, args: list[str]) -> None:
        """``registry demo`` (default) or ``registry FILE...`` (deck and chip files, paths beside the scenario)."""
        if args == ["demo"]:
            self.registry = demo_registry()
            return
        from ..tags import load_enrolment
        base = Path(self.name).parent
        decks, chips = [], []
        for a in args:
            item = load_enrolment(base / a)
            (decks if isinstance(item, Deck) else chips).append(item)
        if not decks:
            raise _Fail("registry: name at least one deck file")
        self.registry = TagRegistry(decks, chips)

    # --- events --------------------------------------------------------------------------------------
    def _event(self, head: str, args: list[str], line: str) -> None:
        c = self.c
        handler = getattr(self, "_do_" + head.replace("-", "_"), None)
        if head in ("wait", "at"):
            handler(args)
            return
        if handler is None and head in DEALER_ACTIONS:
            self._tap(head, args)
        elif handler is None:
            raise _Fail(f"unknown step {head!r}; see docs/scenarios.md for the steps")
        else:
            handler(args)
        c.wait(self.pace)

    def _do_wait(self, args: list[str]) -> None:
        self.c.wait(_seconds(args, "wait 2s"))

    def _do_at(self, args: list[str]) -> None:
        t = _seconds(args, "at 12.5")
        if t < self.c.t - 1e-9:
            raise _Fail(f"at {t}: time cannot go back (it is already {self.c.t:.3f})")
        self.c.t = t

    # board and link
    def _do_hello(self, args: list[str]) -> None:
        kv = _pairs(args, "hello [firmware 1.2.3] [protocol 1.0]")
        fw = tuple(int(x) for x in kv.get("firmware", "1.0.0").split("."))
        proto = kv.get("protocol", f"{p.PROTOCOL_VERSION_MAJOR}.{p.PROTOCOL_VERSION_MINOR}").split(".")
        if len(fw) != 3 or len(proto) != 2:
            raise _Fail("hello: firmware is a.b.c and protocol is major.minor")
        hello = board_hello(self.config.table.seats, fw)
        self.c.emit(replace(hello, protocol_major=int(proto[0]), protocol_minor=int(proto[1])))

    def _do_heartbeat(self, args: list[str]) -> None:
        kv = _pairs(args, "heartbeat [tags N] [faulty N]")
        tags = int(kv.get("tags", len(self.c.where)))
        self.c.emit(p.Heartbeat(int(self.c.t * 1000), tags, int(kv.get("faulty", 0))))

    def _do_fault(self, args: list[str]) -> None:
        kv = _pairs(args, "fault reader 3 zone seat3 [code 1]")
        self.c.emit(p.ReaderFault(int(kv.get("reader", 0)), p.zone_id(_zone(kv.get("zone", "shoe"))),
                                  int(kv.get("code", p.FAULT_NO_ANSWER))))

    def _do_recover(self, args: list[str]) -> None:
        kv = _pairs(args, "recover reader 3 zone seat3")
        self.c.emit(p.ReaderFault(int(kv.get("reader", 0)), p.zone_id(_zone(kv.get("zone", "shoe"))),
                                  p.FAULT_RECOVERED))

    def _do_garbage(self, args: list[str]) -> None:
        try:
            data = bytes.fromhex("".join(args))
        except ValueError:
            raise _Fail("garbage takes hex bytes, e.g. 'garbage de ad 00 be ef'") from None
        if not data:
            raise _Fail("garbage needs at least one byte")
        self.c.emit(data)

    def _do_lose(self, args: list[str]) -> None:
        n = _int(args[:1], "lose 3 frames")
        self.encoder.seq = (self.encoder.seq + n) % p.SEQ_MODULO  # frames the host never received

    def _do_link(self, args: list[str]) -> None:
        if not args or args[0] not in ("up", "down"):
            raise _Fail("link up|down [reason words]")
        self.c.emit(("link", args[0] == "up", self.config.reader.port, " ".join(args[1:])))

    # players and button
    def _do_sit(self, args: list[str]) -> None:
        seat = self._seat(args[:1], "sit SEAT [AMOUNT]")
        amount = int(args[1]) if len(args) > 1 else self.config.game.buy_in
        self.seated[seat] = amount
        self.c.tap("sit", seat=seat, amount=amount)

    def _do_leave(self, args: list[str]) -> None:
        seat = self._seat(args[:1], "leave SEAT")
        self.seated.pop(seat, None)
        self.c.tap("leave", seat=seat)

    def _do_button(self, args: list[str]) -> None:
        seat = self._seat(args[:1], "button SEAT")
        uid = self._marker("button")
        self.c.move(uid, f"seat{self.button}" if self.button else None, f"seat{seat}", travel=0.6)
        self.button = seat

    def _marker(self, kind: str) -> str:
        for cs in self.registry.chip_sets:
            if cs.house == self.config.enrolment.house:
                for uid, k in cs.markers.items():
                    if k == kind:
                        return uid
        raise _Fail(f"no {kind} puck is registered for house {self.config.enrolment.house}")

    def _do_puck(self, args: list[str]) -> None:
        """``puck kill -> seat3`` / ``puck kill seat3 -> off``: any marker puck moved."""
        kind, src, dst = self._arrow(args, "puck KIND [FROM] -> TO")
        self.c.move(self._marker(kind), src, dst)

    # cards
    def _card_uid(self, spec: str) -> str:
        """``Ah`` (deck in use), ``DEMO-2:Ah`` or ``blue:Ah`` (another deck), ``X1`` (joker), ``uid:04..``."""
        if spec.startswith("uid:"):
            return _uid(spec[4:])
        deck = self.deck
        if ":" in spec:
            which, spec = spec.split(":", 1)
            found = [d for d in self.registry.decks if d.deck_id == which or d.back == which]
            if not found:
                raise _Fail(f"no enrolled deck with id or back {which!r}")
            deck = found[0]
        if not is_card(spec):
            raise _Fail(f"{spec!r} is not a card (e.g. As, Td, X1)")
        try:
            return deck.uid_of(spec)
        except KeyError:
            raise _Fail(f"card {spec} is not in deck {deck.deck_id}") from None

    def _random_card(self) -> str:
        out = {uid for uid, z in self.c.where.items() if z != "shoe"}
        free = [c for c in STANDARD_DECK if self.deck.uid_of(c) not in out and c not in self._taken]
        if not free:
            raise _Fail("no card left to deal at random")
        card = self.rng.choice(free)
        self._taken.add(card)
        return card

    def _do_card(self, args: list[str]) -> None:
        """``card Ah [FROM] -> TO [face up]``: from the shoe it is a deal (orientation sensed)."""
        face_up = args[-2:] == ["face", "up"]
        if face_up or args[-2:] == ["face", "down"]:
            args = args[:-2]
        spec, src, dst = self._arrow(args, "card CARD [FROM] -> TO [face up]")
        uid = self._card_uid(spec) if spec != "random" else self.deck.uid_of(self._random_card())
        if src == "shoe":
            self.c.deal(uid, dst, face_up)
        else:
            self.c.move(uid, src, dst)

    def _do_boxed(self, args: list[str]) -> None:
        """``boxed Ah -> seat3``: a card face up in the deck leaves the shoe."""
        spec, _, dst = self._arrow(args, "boxed CARD -> TO")
        self.c.deal(self._card_uid(spec) if spec != "random" else self.deck.uid_of(self._random_card()), dst, True)

    def _do_shoe(self, args: list[str]) -> None:
        """``shoe loaded``: every card of the deck in use is in the shoe (the board's inventory)."""
        if args != ["loaded"]:
            raise _Fail("did you mean 'shoe loaded'?")
        for card in STANDARD_DECK:
            uid = self.deck.uid_of(card)
            if self.c.where.get(uid) != "shoe":
                self.c.enter("shoe", uid)
        self._taken = set()

    def _deal(self, dest: str, spec: str | None) -> None:
        card = spec if spec and spec != "random" else self._random_card()
        uid = self._card_uid(card)
        if card in STANDARD_DECK and ":" not in card:
            self._taken.add(card)
        self.c.deal(uid, dest)
        self.c.wait(0.2)

    def _order(self) -> list[int]:
        if self.button is None:
            raise _Fail("place the button first ('button SEAT')")
        seats = sorted(self.seated)
        if len(seats) < 2:
            raise _Fail("seat at least two players first ('sit SEAT AMOUNT')")
        return [s for s in seats if s > self.button] + [s for s in seats if s <= self.button]

    def _do_deal(self, args: list[str]) -> None:
        """``deal hole cards [3=Ah,Kd 5=2c,2d]``: clockwise from left of the button, one card at a time."""
        if args[:2] != ["hole", "cards"]:
            raise _Fail("did you mean 'deal hole cards [SEAT=CARD,CARD ...]'?")
        given: dict[int, list[str]] = {}
        for a in args[2:]:
            seat, _, cards = a.partition("=")
            if not seat.isdigit() or not cards:
                raise _Fail(f"{a!r}: write SEAT=CARD,CARD like 3=Ah,Kd")
            given[int(seat)] = cards.split(",")
        order = self._order()
        rounds = HOLE_CARDS.get(self.config.game.variant, 2)
        for seat, cards in given.items():
            if seat not in order:
                raise _Fail(f"seat {seat} has no player ('sit {seat} AMOUNT' first)")
            if len(cards) != rounds:
                raise _Fail(f"seat {seat}: {len(cards)} cards given, {self.config.game.variant} deals {rounds}")
            self._taken.update(c for c in cards if c in STANDARD_DECK)
        for r in range(rounds):
            for seat in order:
                self._deal(f"seat{seat}", given.get(seat, [None] * rounds)[r])

    def _do_burn(self, args: list[str]) -> None:
        self._deal("burn", args[0] if args else None)

    def _street(self, args: list[str], count: int, usage: str) -> None:
        if args and len(args) != count:
            raise _Fail(f"{usage}: give {count} card(s) or none for random ones")
        self._deal("burn", None)
        self.c.wait(0.5)
        for i in range(count):
            self._deal("board", args[i] if args else None)

    def _do_flop(self, args: list[str]) -> None:
        self._street(args, 3, "flop [C C C]")

    def _do_turn(self, args: list[str]) -> None:
        self._street(args, 1, "turn [C]")

    def _do_river(self, args: list[str]) -> None:
        self._street(args, 1, "river [C]")

    def _do_fold(self, args: list[str]) -> None:
        seat = self._seat(args[:1], "fold SEAT")
        cards = self.c.in_zone(f"seat{seat}")
        cards = [u for u in cards if self.registry.lookup(u).__class__.__name__ == "CardTag"]
        if not cards:
            raise _Fail(f"seat {seat} holds no cards to fold")
        for uid in cards:
            self.c.move(uid, f"seat{seat}", "muck", travel=0.3)

    def _do_cleanup(self, args: list[str]) -> None:
        """Every card on an antenna other than the shoe goes back into the shoe."""
        for uid, zone in list(self.c.where.items()):
            if zone != "shoe" and self.registry.lookup(uid).__class__.__name__ == "CardTag":
                self.c.move(uid, zone, "shoe", travel=0.1)
                self.c.wait(0.05)
        self._taken = set()

    # chips
    def _chip_uids(self, spec: str) -> list[str]:
        """``50`` (house chips worth 50), ``25x2`` (two 25 chips), ``OTHER:25``, ``unknown``, ``uid:..``."""
        if spec == "unknown":
            return ["04" + self.rng.getrandbits(48).to_bytes(6, "big").hex()]
        if spec.startswith("uid:"):
            return [_uid(spec[4:])]
        house = self.config.enrolment.house
        if ":" in spec:
            house, spec = spec.split(":", 1)
        chips = next((cs for cs in self.registry.chip_sets if cs.house == house), None)
        if chips is None:
            raise _Fail(f"no chips registered for house {house!r}")
        m = re.fullmatch(r"(\d+)(?:x(\d+))?", spec)
        if not m:
            raise _Fail(f"{spec!r} is not a chip amount (50), a count (25x2), OTHER:25, unknown or uid:..")
        value, count = int(m.group(1)), m.group(2)
        if count is not None:
            return [self._free_chip(chips, value) for _ in range(int(count))]
        return self._make(chips, value, house)

    def _free_chip(self, chips: ChipSet, value: int) -> str:
        for uid, v in chips.chips.items():
            if v == value and uid not in self.used_chips and uid not in self.c.where:
                self.used_chips.add(uid)
                return uid
        raise _Fail(f"no free chip of {value} registered for house {chips.house}")

    def _make(self, chips: ChipSet, amount: int, house: str) -> list[str]:
        smallest = self.config.game.smallest_chip if house == self.config.enrolment.house else 1
        denoms = sorted({v for v in chips.chips.values() if v >= smallest}, reverse=True)
        out, left = [], amount
        for d in denoms:
            while left >= d:
                try:
                    out.append(self._free_chip(chips, d))
                except _Fail:
                    break
                left -= d
        if left:
            raise _Fail(f"cannot make {amount} from house {house} chips of {denoms}")
        return out

    def _do_chips(self, args: list[str]) -> None:
        """``chips 50 -> bet4``, ``chips 25x2 5 -> bet4``, ``chips 20 then 10 -> bet4`` (two motions),
        ``chips all bet4 -> pot``, ``chips 30 bet4 -> off`` (chips taken out)."""
        spec, src, dst = self._arrow(args, "chips AMOUNT... [FROM] -> TO")
        if src is None:
            motions, current = [], []
            for word in spec.split():
                if word == "then":
                    motions.append(current)
                    current = []
                else:
                    current.extend(self._chip_uids(word))
            motions.append(current)
            for i, uids in enumerate(motions):
                if i:
                    self.c.wait(1.0)
                self.c.motion(dst, uids)
            return
        uids = self._pick_from(src, spec)
        if dst is None:
            self.c.take(src, uids)
        else:
            self.c.sweep(src, dst, uids)

    def _pick_from(self, zone: str, spec: str) -> list[str]:
        here = [u for u in self.c.in_zone(zone) if self.registry.lookup(u).__class__.__name__ in ("ChipTag", "UnknownTag")]
        if spec == "all":
            return here
        if not spec.isdigit():
            raise _Fail(f"{spec!r}: say how much (a number) or 'all' when chips leave {zone}")
        amount, picked = int(spec), []
        values = {u: getattr(self.registry.lookup(u), "value", 0) for u in here}
        for uid in sorted(here, key=lambda u: values[u], reverse=True):
            if values[uid] and values[uid] <= amount:
                picked.append(uid)
                amount -= values[uid]
        if amount:
            raise _Fail(f"{zone} holds no chips making exactly {spec}")
        return picked

    def _do_bet(self, args: list[str]) -> None:
        """``bet SEAT AMOUNT`` (also ``call``, ``raise``, ``post``): chips into the seat's bet zone, one motion."""
        if len(args) != 2:
            raise _Fail("bet SEAT AMOUNT")
        seat = self._seat(args[:1], "bet SEAT AMOUNT")
        self.c.motion(f"bet{seat}", self._chip_uids(args[1]))

    _do_call = _do_raise = _do_post = _do_bet

    def _do_blinds(self, args: list[str]) -> None:
        """Small and big blind chips into the blinds' bet zones (heads-up: the button is the small blind)."""
        order = self._order()
        sb, bb = (order[-1], order[0]) if len(order) == 2 else (order[0], order[1])
        g = self.config.game
        self.c.motion(f"bet{sb}", self._chip_uids(str(g.small_blind)))
        self.c.wait(1.0)
        self.c.motion(f"bet{bb}", self._chip_uids(str(g.big_blind)))

    def _do_gather(self, args: list[str]) -> None:
        moving = [(z, u) for u, z in list(self.c.where.items()) if z.startswith("bet")
                  and self.registry.lookup(u).__class__.__name__ != "CardTag"]
        for zone, uid in moving:
            self.c.leave(zone, uid)
        self.c.wait(0.4)
        for _, uid in moving:
            self.c.enter("pot", uid)

    def _do_push(self, args: list[str]) -> None:
        """``push AMOUNT|all to SEAT``: chips from the pot into the winner's bet zone."""
        if len(args) != 3 or args[1] != "to":
            raise _Fail("push AMOUNT|all to SEAT")
        seat = self._seat(args[2:], "push AMOUNT to SEAT")
        self.c.sweep("pot", f"bet{seat}", self._pick_from("pot", args[0]))

    def _do_take(self, args: list[str]) -> None:
        """``take SEAT``: the player takes every chip out of their bet zone."""
        seat = self._seat(args[:1], "take SEAT")
        self.c.take(f"bet{seat}", self._pick_from(f"bet{seat}", "all"))

    def _do_award(self, args: list[str]) -> None:
        """``award SEAT[,SEAT] [pot N]``: the award tap (``tap award`` alone is just the tap)."""
        if not args:
            raise _Fail("award SEAT[,SEAT...] [pot N]")
        seats = tuple(self._seat([s], "award SEAT") for s in args[0].split(","))
        kv = _pairs(args[1:], "award SEATS [pot N]")
        self.c.tap("award", ref=kv.get("pot", "0"), seats=seats)

    def _do_win(self, args: list[str]) -> None:
        """``win SEAT [AMOUNT|all] [pot N]``: push from the pot, award tap, the winner takes the chips."""
        seat = self._seat(args[:1], "win SEAT [AMOUNT] [pot N]")
        amount = args[1] if len(args) > 1 and args[1] != "pot" else "all"
        kv = _pairs(args[2:] if amount != "all" or (len(args) > 1 and args[1] == "all") else args[1:],
                    "win SEAT [AMOUNT] [pot N]")
        self.c.sweep("pot", f"bet{seat}", self._pick_from("pot", amount))
        self.c.wait(0.6)
        self.c.tap("award", ref=kv.get("pot", "0"), seats=(seat,))
        self.c.wait(1.0)
        self.c.take(f"bet{seat}", self._pick_from(f"bet{seat}", "all"))

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
        for k, v in _pairs(rest, f"{action} [seat N] [card C] [amount A] [ref R] [seats 1,2] [choice C]").items():
            if k in ("seat", "amount"):
                fields[k] = int(v)
            elif k == "seats":
                fields[k] = tuple(int(s) for s in v.split(","))
            elif k in ("card", "ref", "choice"):
                fields[k] = v
            else:
                raise _Fail(f"{action}: unknown field {k!r} (seat, card, amount, ref, seats, choice)")
        self.c.tap(action, **fields)

    def _do_tap(self, args: list[str]) -> None:
        if not args or args[0] not in DEALER_ACTIONS:
            raise _Fail(f"tap ACTION: one of {', '.join(DEALER_ACTIONS)}")
        self._tap(args[0], args[1:])

    # --- small parsers -------------------------------------------------------------------------------
    def _seat(self, args: list[str], usage: str) -> int:
        if len(args) != 1 or not args[0].removeprefix("seat").isdigit():
            raise _Fail(f"expected a seat number: {usage}")
        seat = int(args[0].removeprefix("seat"))
        if not 1 <= seat <= self.config.table.seats:
            raise _Fail(f"seat {seat} is not at this table (seats 1-{self.config.table.seats})")
        return seat

    def _arrow(self, args: list[str], usage: str) -> tuple[str, str | None, str | None]:
        """``WHAT [FROM] -> TO``: TO ``off`` means it leaves every antenna."""
        if "->" not in args:
            raise _Fail(f"missing '->': {usage}")
        at = args.index("->")
        left, right = args[:at], args[at + 1:]
        if len(right) != 1 or not left:
            raise _Fail(usage)
        dst = None if right[0] == "off" else _zone(right[0])
        src = None
        if len(left) > 1 and _ZONE_RE.match(left[-1]):
            src = left.pop()
        if src is None and dst is None:
            raise _Fail(f"nothing to move off the table without a zone to leave: {usage}")
        return " ".join(left), src, dst


def _zone(name: str) -> str:
    if not _ZONE_RE.match(name):
        raise _Fail(f"unknown zone {name!r}: shoe, board, burn, muck, pot, seat1-10, bet1-10 (or off)")
    return name


def _uid(text: str) -> str:
    try:
        raw = bytes.fromhex(text)
    except ValueError:
        raise _Fail(f"uid:{text} is not hex") from None
    if len(raw) not in p.UID_LENGTHS:
        raise _Fail(f"uid:{text} must be 4, 7 or 10 bytes")
    return raw.hex()


def _pairs(args: list[str], usage: str) -> dict[str, str]:
    if len(args) % 2:
        raise _Fail(f"expected KEY VALUE pairs: {usage}")
    return {args[i]: args[i + 1] for i in range(0, len(args), 2)}


def _int(args: list[str], usage: str) -> int:
    if len(args) != 1 or not args[0].isdigit():
        raise _Fail(f"expected a whole number: {usage}")
    return int(args[0])


def _seconds(args: list[str], usage: str) -> float:
    if len(args) != 1:
        raise _Fail(f"expected a time: {usage}")
    text = args[0].removesuffix("s")
    try:
        value = float(text)
    except ValueError:
        raise _Fail(f"{args[0]!r} is not a time in seconds: {usage}") from None
    if value < 0:
        raise _Fail(f"{args[0]}: time cannot be negative")
    return value


def _value(text: str) -> Any:
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
