"""Scenario steps at the table itself: the board's messages and the link, seats and the button, the cards
(shoe, deal, streets, folds, clean-up). Each ``_do_WORD`` acts one line ``WORD ...`` out."""

from __future__ import annotations

from dataclasses import replace

from ...tags import STANDARD_DECK, is_card
from ...wire import protocol as p
from ..choreography import LinkChange, board_hello
from .scene import Scene
from .script import HOLE_CARDS, StepError, int_arg, pairs_arg, uid_arg, zone_arg


READ_STATES = {"complete": p.ZONE_READ_COMPLETE, "uncertain": p.ZONE_READ_UNCERTAIN,
               "unreadable": p.ZONE_READ_UNREADABLE}


class TableSteps:
    """The table's own steps, acted out on the scene they are given (``ScenarioPlayer`` wires them)."""

    def __init__(self, scene: Scene) -> None:
        self.scene = scene

    # --- board and link ---
    def _do_hello(self, args: list[str]) -> None:
        kv = pairs_arg(args, "hello [firmware 1.2.3] [protocol 1.0]")
        fw = tuple(int(x) for x in kv.get("firmware", "1.0.0").split("."))
        proto = kv.get("protocol", f"{p.PROTOCOL_VERSION_MAJOR}.{p.PROTOCOL_VERSION_MINOR}").split(".")
        if len(fw) != 3 or len(proto) != 2:
            raise StepError("hello: firmware is a.b.c and protocol is major.minor")
        hello = board_hello(self.scene.config.table.seats, fw)
        self.scene.c.emit(replace(hello, protocol_major=int(proto[0]), protocol_minor=int(proto[1])))

    def _do_heartbeat(self, args: list[str]) -> None:
        kv = pairs_arg(args, "heartbeat [tags N] [faulty N]")
        tags = int(kv.get("tags", len(self.scene.c.where)))
        self.scene.c.emit(p.Heartbeat(int(self.scene.c.t * 1000), tags, int(kv.get("faulty", 0))))

    def _do_fault(self, args: list[str]) -> None:
        kv = pairs_arg(args, "fault reader 3 zone seat3 [code 1]")
        self.scene.c.emit(p.ReaderFault(int(kv.get("reader", 0)), p.zone_id(zone_arg(kv.get("zone", "shoe"))),
                                  int(kv.get("code", p.FAULT_NO_ANSWER))))

    def _do_recover(self, args: list[str]) -> None:
        kv = pairs_arg(args, "recover reader 3 zone seat3")
        self.scene.c.emit(p.ReaderFault(int(kv.get("reader", 0)), p.zone_id(zone_arg(kv.get("zone", "shoe"))),
                                  p.FAULT_RECOVERED))

    def _do_read(self, args: list[str]) -> None:
        """``read bet5 uncertain 14``: the board's ZONE_INVENTORY (protocol 2.0), how completely a zone was read."""
        usage = "read ZONE complete|uncertain|unreadable [CHIPS PROVEN]"
        if len(args) not in (2, 3) or args[1] not in READ_STATES:
            raise StepError(usage)
        zone = zone_arg(args[0])
        if args[1] == "uncertain" and len(args) < 3:
            raise StepError(f"read {zone} uncertain: say how many chips were proven, e.g. 'read {zone} uncertain 14'")
        tags = int_arg(args[2:], usage) if len(args) == 3 else (
            sum(1 for where in self.scene.c.where.values() if where == zone) if args[1] == "complete" else 0)
        self.scene.c.emit(p.ZoneInventory(p.zone_id(zone), READ_STATES[args[1]], tags))

    def _do_garbage(self, args: list[str]) -> None:
        try:
            data = bytes.fromhex("".join(args))
        except ValueError:
            raise StepError("garbage takes hex bytes, e.g. 'garbage de ad 00 be ef'") from None
        if not data:
            raise StepError("garbage needs at least one byte")
        self.scene.c.emit_raw(data)

    def _do_lose(self, args: list[str]) -> None:
        n = int_arg(args[:1], "lose 3 frames")
        self.scene.encoder.seq = (self.scene.encoder.seq + n) % p.SEQ_MODULO  # frames the host never received

    def _do_link(self, args: list[str]) -> None:
        if not args or args[0] not in ("up", "down"):
            raise StepError("link up|down [reason words]")
        self.scene.c.emit_raw(LinkChange(args[0] == "up", self.scene.config.reader.port, " ".join(args[1:])))

    # players and button
    def _do_sit(self, args: list[str]) -> None:
        seat = self.scene.seat_arg(args[:1], "sit SEAT [AMOUNT]")
        amount = int(args[1]) if len(args) > 1 else self.scene.config.game.buy_in
        self.scene.seated[seat] = amount
        self.scene.c.tap("sit", seat=seat, amount=amount)

    def _do_moved_in(self, args: list[str]) -> None:
        """A tournament player the floor moved here sits (Tournaments 15): ``moved-in SEAT [amount N]``."""
        seat = self.scene.seat_arg(args[:1], "moved-in SEAT [amount N]")
        rest = args[1:]
        amount = int(rest[1]) if len(rest) == 2 and rest[0] == "amount" else self.scene.config.game.buy_in
        self.scene.seated[seat] = amount
        self.scene.c.tap("moved-in", seat=seat, amount=amount)

    def _do_moved_out(self, args: list[str]) -> None:
        """The player the floor sent away has gone: ``moved-out SEAT`` (Tournaments 12, 14a)."""
        seat = self.scene.seat_arg(args[:1], "moved-out SEAT")
        self.scene.seated.pop(seat, None)
        self.scene.c.tap("moved-out", seat=seat)

    def _do_leave(self, args: list[str]) -> None:
        seat = self.scene.seat_arg(args[:1], "leave SEAT")
        self.scene.seated.pop(seat, None)
        self.scene.c.tap("leave", seat=seat)

    def _do_button(self, args: list[str]) -> None:
        seat = self.scene.seat_arg(args[:1], "button SEAT")
        uid = self._marker("button")
        self.scene.c.move(uid, f"seat{self.scene.button}" if self.scene.button else None, f"seat{seat}", travel=0.6)
        self.scene.button = seat

    def _marker(self, kind: str) -> str:
        for cs in self.scene.registry.chip_sets:
            if cs.house == self.scene.config.enrolment.house:
                for uid, k in cs.markers.items():
                    if k == kind:
                        return uid
        raise StepError(f"no {kind} puck is registered for house {self.scene.config.enrolment.house}")

    def _do_puck(self, args: list[str]) -> None:
        """``puck kill -> seat3`` / ``puck kill seat3 -> off``: any marker puck moved."""
        kind, src, dst = self.scene.arrow_arg(args, "puck KIND [FROM] -> TO")
        self.scene.c.move(self._marker(kind), src, dst)

    # cards
    def _card_uid(self, spec: str) -> str:
        """``Ah`` (deck in use), ``DEMO-2:Ah`` or ``blue:Ah`` (another deck), ``X1`` (joker), ``uid:04..``."""
        if spec.startswith("uid:"):
            return uid_arg(spec[4:])
        deck = self.scene.deck
        if ":" in spec:
            which, spec = spec.split(":", 1)
            found = [d for d in self.scene.registry.decks if d.deck_id == which or d.back == which]
            if not found:
                raise StepError(f"no enrolled deck with id or back {which!r}")
            deck = found[0]
        if not is_card(spec):
            raise StepError(f"{spec!r} is not a card (e.g. As, Td, X1)")
        try:
            return deck.uid_of(spec)
        except KeyError:
            raise StepError(f"card {spec} is not in deck {deck.deck_id}") from None

    def _random_card(self) -> str:
        out = {uid for uid, z in self.scene.c.where.items() if z != "shoe"}
        free = [c for c in STANDARD_DECK if self.scene.deck.uid_of(c) not in out and c not in self.scene.taken]
        if not free:
            raise StepError("no card left to deal at random")
        card = self.scene.rng.choice(free)
        self.scene.taken.add(card)
        return card

    def _do_card(self, args: list[str]) -> None:
        """``card Ah [FROM] -> TO [face up]``: from the shoe it is a deal (orientation sensed)."""
        face_up = args[-2:] == ["face", "up"]
        if face_up or args[-2:] == ["face", "down"]:
            args = args[:-2]
        spec, src, dst = self.scene.arrow_arg(args, "card CARD [FROM] -> TO [face up]")
        uid = self._card_uid(spec) if spec != "random" else self.scene.deck.uid_of(self._random_card())
        if src == "shoe":
            self.scene.c.deal(uid, dst, face_up)
        else:
            self.scene.c.move(uid, src, dst)

    def _do_boxed(self, args: list[str]) -> None:
        """``boxed Ah -> seat3``: a card face up in the deck leaves the shoe."""
        spec, _, dst = self.scene.arrow_arg(args, "boxed CARD -> TO")
        uid = self._card_uid(spec) if spec != "random" else self.scene.deck.uid_of(self._random_card())
        self.scene.c.deal(uid, dst, True)

    def _do_shoe(self, args: list[str]) -> None:
        """``shoe loaded [DECK]``: every card of the deck in use is in the shoe (the board's inventory); with a
        deck id or back, that deck replaces the one in the shoe (a deck change)."""
        if args[:1] != ["loaded"] or len(args) > 2:
            raise StepError("did you mean 'shoe loaded' or 'shoe loaded DEMO-2'?")
        if len(args) == 2:
            found = [d for d in self.scene.registry.decks if args[1] in (d.deck_id, d.back)]
            if not found:
                raise StepError(f"no enrolled deck with id or back {args[1]!r}")
            for uid in [u for u, z in self.scene.c.where.items() if z == "shoe" and u in self.scene.deck.cards]:
                self.scene.c.leave("shoe", uid)
            self.scene.deck = found[0]
        for card in STANDARD_DECK:
            uid = self.scene.deck.uid_of(card)
            if self.scene.c.where.get(uid) != "shoe":
                self.scene.c.enter("shoe", uid)
        self.scene.taken = set()

    def _deal(self, dest: str, spec: str | None) -> None:
        card = spec if spec and spec != "random" else self._random_card()
        uid = self._card_uid(card)
        if card in STANDARD_DECK and ":" not in card:
            self.scene.taken.add(card)
        self.scene.c.deal(uid, dest)
        self.scene.c.wait(0.2)

    def _do_deal(self, args: list[str]) -> None:
        """``deal hole cards [3=Ah,Kd 5=2c,2d]``: clockwise from left of the button, one card at a time."""
        if args[:2] != ["hole", "cards"]:
            raise StepError("did you mean 'deal hole cards [SEAT=CARD,CARD ...]'?")
        given: dict[int, list[str]] = {}
        for a in args[2:]:
            seat_text, _, cards_text = a.partition("=")
            if not seat_text.isdigit() or not cards_text:
                raise StepError(f"{a!r}: write SEAT=CARD,CARD like 3=Ah,Kd")
            given[int(seat_text)] = cards_text.split(",")
        order = self.scene.order()
        rounds = HOLE_CARDS.get(self.scene.config.game.variant, 2)
        for seat, cards in given.items():
            if seat not in order:
                raise StepError(f"seat {seat} has no player ('sit {seat} AMOUNT' first)")
            if len(cards) != rounds:
                variant = self.scene.config.game.variant
                raise StepError(f"seat {seat}: {len(cards)} cards given, {variant} deals {rounds}")
            self.scene.taken.update(c for c in cards if c in STANDARD_DECK)
        for r in range(rounds):
            for seat in order:
                hole = given.get(seat)
                self._deal(f"seat{seat}", hole[r] if hole is not None else None)  # None: a random card

    def _do_burn(self, args: list[str]) -> None:
        self._deal("burn", args[0] if args else None)

    def _street(self, args: list[str], count: int, usage: str) -> None:
        if args and len(args) != count:
            raise StepError(f"{usage}: give {count} card(s) or none for random ones")
        self._deal("burn", None)
        self.scene.c.wait(0.5)
        for i in range(count):
            self._deal("board", args[i] if args else None)

    def _do_flop(self, args: list[str]) -> None:
        self._street(args, 3, "flop [C C C]")

    def _do_turn(self, args: list[str]) -> None:
        self._street(args, 1, "turn [C]")

    def _do_river(self, args: list[str]) -> None:
        self._street(args, 1, "river [C]")

    def _do_draw(self, args: list[str]) -> None:
        """``draw 3 Kd,Qh [-> 4c,5d]`` / ``draw 3 2``: a draw game's draw for seat 3: the cards named (or that many
        of its cards, last dealt first) to the muck, then as many from the shoe to the seat (named, or random)."""
        usage = "draw SEAT CARDS|COUNT [-> CARDS]"
        if len(args) not in (2, 4) or (len(args) == 4 and args[2] != "->"):
            raise StepError(f"expected {usage}, e.g. draw 3 Kd,Qh or draw 3 2")
        seat = self.scene.seat_arg(args[:1], usage)
        held = [u for u in self.scene.c.in_zone(f"seat{seat}")
                if self.scene.registry.lookup(u).__class__.__name__ == "CardTag"]
        if args[1].isdigit():
            count = int(args[1])
            if count > len(held):
                raise StepError(f"seat {seat} holds {len(held)} cards, cannot throw {count}")
            thrown = held[len(held) - count:]
        else:
            thrown = [self._card_uid(c) for c in args[1].split(",")]
            missing = [c for c, u in zip(args[1].split(","), thrown, strict=True) if u not in held]
            if missing:
                raise StepError(f"seat {seat} does not hold {', '.join(missing)}")
        new = args[3].split(",") if len(args) == 4 else [None] * len(thrown)
        if len(new) != len(thrown):
            raise StepError(f"{len(thrown)} cards thrown, {len(new)} named to replace them")
        for uid in thrown:
            self.scene.c.move(uid, f"seat{seat}", "muck", travel=0.3)
        self.scene.c.wait(0.3)
        for card in new:
            self._deal(f"seat{seat}", card)

    def _do_fold(self, args: list[str]) -> None:
        seat = self.scene.seat_arg(args[:1], "fold SEAT")
        cards = self.scene.c.in_zone(f"seat{seat}")
        cards = [u for u in cards if self.scene.registry.lookup(u).__class__.__name__ == "CardTag"]
        if not cards:
            raise StepError(f"seat {seat} holds no cards to fold")
        for uid in cards:
            self.scene.c.move(uid, f"seat{seat}", "muck", travel=0.3)

    def _do_cleanup(self, args: list[str]) -> None:
        """Every card on an antenna other than the shoe goes back into the shoe."""
        for uid, zone in list(self.scene.c.where.items()):
            if zone != "shoe" and self.scene.registry.lookup(uid).__class__.__name__ == "CardTag":
                self.scene.c.move(uid, zone, "shoe", travel=0.1)
                self.scene.c.wait(0.05)
        self.scene.taken = set()
