"""Scenario steps with chips: chips into zones, bets, blinds, gathering, pushing and awarding pots."""

from __future__ import annotations

import re

from ...tags import ChipSet
from .scene import Scene
from .script import StepError, pairs_arg, uid_arg, zone_arg


class ChipSteps:
    """The chip steps, acted out on the scene they are given (``ScenarioPlayer`` wires them)."""

    def __init__(self, scene: Scene) -> None:
        self.scene = scene

    def _chip_uids(self, spec: str) -> list[str]:
        """``50`` (house chips worth 50), ``25x2`` (two 25 chips), ``OTHER:25``, ``unknown``, ``uid:..``."""
        if spec == "unknown":
            return ["04" + self.scene.rng.getrandbits(48).to_bytes(6, "big").hex()]
        if spec.startswith("uid:"):
            return [uid_arg(spec[4:])]
        house = self.scene.config.enrolment.house
        if ":" in spec:
            house, spec = spec.split(":", 1)
        chips = next((cs for cs in self.scene.registry.chip_sets if cs.house == house), None)
        if chips is None:
            raise StepError(f"no chips registered for house {house!r}")
        m = re.fullmatch(r"(\d+)(?:x(\d+))?", spec)
        if not m:
            raise StepError(f"{spec!r} is not a chip amount (50), a count (25x2), OTHER:25, unknown or uid:..")
        value, count = int(m.group(1)), m.group(2)
        if count is not None:
            return [self._free_chip(chips, value) for _ in range(int(count))]
        return self._make(chips, value, house)

    def _free_chip(self, chips: ChipSet, value: int) -> str:
        for uid, v in chips.chips.items():
            if v == value and uid not in self.scene.used_chips and uid not in self.scene.c.where:
                self.scene.used_chips.add(uid)
                return uid
        raise StepError(f"no free chip of {value} registered for house {chips.house}")

    def _make(self, chips: ChipSet, amount: int, house: str) -> list[str]:
        smallest = self.scene.config.game.smallest_chip if house == self.scene.config.enrolment.house else 1
        denoms = sorted({v for v in chips.chips.values() if v >= smallest}, reverse=True)
        out, left = [], amount
        for d in denoms:
            while left >= d:
                try:
                    out.append(self._free_chip(chips, d))
                except StepError:
                    break
                left -= d
        if left:
            raise StepError(f"cannot make {amount} from house {house} chips of {denoms}")
        return out

    def _do_chips(self, args: list[str]) -> None:
        """``chips 50 -> bet4``, ``chips 25x2 5 -> bet4``, ``chips 20 then 10 -> bet4`` (two motions),
        ``chips all bet4 -> pot``, ``chips 30 bet4 -> off`` (chips taken out)."""
        spec, src, dst = self.scene.arrow_arg(args, "chips AMOUNT... [FROM] -> TO")
        if src is None:
            assert dst is not None  # arrow_arg refuses chips from nowhere to off
            motions: list[list[str]] = []
            current: list[str] = []
            for word in spec.split():
                if word == "then":
                    motions.append(current)
                    current = []
                else:
                    current.extend(self._chip_uids(word))
            motions.append(current)
            for i, uids in enumerate(motions):
                if i:
                    self.scene.c.wait(1.0)
                self.scene.c.motion(dst, uids)
            return
        uids = self._pick_from(src, spec)
        if dst is None:
            self.scene.c.take(src, uids)
        else:
            self.scene.c.sweep(src, dst, uids)

    def _do_change(self, args: list[str]) -> None:
        """``change 25 bet5 for 5x5``: the dealer makes change in a zone, as the simulator does: chips worth 25
        leave it and the chips named enter it at the same instant (the same value, so no action)."""
        usage = "change AMOUNT ZONE for CHIPS..."
        if len(args) < 4 or args[2] != "for":
            raise StepError(usage)
        zone = zone_arg(args[1])
        out = self._pick_from(zone, args[0])
        into = [u for word in args[3:] for u in self._chip_uids(word)]
        worth = self.scene.registry.lookup
        if sum(getattr(worth(u), "value", 0) for u in into) != sum(getattr(worth(u), "value", 0) for u in out):
            raise StepError(f"change {args[0]} {zone}: the chips given for it must be worth {args[0]}")
        for uid in out:
            self.scene.c.leave(zone, uid)
        self.scene.c.motion(zone, into, gap=0.0)

    def _pick_from(self, zone: str, spec: str) -> list[str]:
        registry = self.scene.registry
        here = [u for u in self.scene.c.in_zone(zone)
                if registry.lookup(u).__class__.__name__ in ("ChipTag", "UnknownTag")]
        if spec == "all":
            return here
        if not spec.isdigit():
            raise StepError(f"{spec!r}: say how much (a number) or 'all' when chips leave {zone}")
        amount, picked = int(spec), []
        values = {u: getattr(self.scene.registry.lookup(u), "value", 0) for u in here}
        for uid in sorted(here, key=lambda u: values[u], reverse=True):
            if values[uid] and values[uid] <= amount:
                picked.append(uid)
                amount -= values[uid]
        if amount:
            raise StepError(f"{zone} holds no chips making exactly {spec}")
        return picked

    def _do_bet(self, args: list[str]) -> None:
        """``bet SEAT AMOUNT`` (also ``call``, ``raise``, ``post``): chips into the seat's bet zone, one motion."""
        if len(args) != 2:
            raise StepError("bet SEAT AMOUNT")
        seat = self.scene.seat_arg(args[:1], "bet SEAT AMOUNT")
        self.scene.c.motion(f"bet{seat}", self._chip_uids(args[1]))

    _do_call = _do_raise = _do_post = _do_bet

    def _do_blinds(self, args: list[str]) -> None:
        """Small and big blind chips into the blinds' bet zones (heads-up: the button is the small blind)."""
        order = self.scene.order()
        sb, bb = (order[-1], order[0]) if len(order) == 2 else (order[0], order[1])
        g = self.scene.config.game
        self.scene.c.motion(f"bet{sb}", self._chip_uids(str(g.small_blind)))
        self.scene.c.wait(1.0)
        self.scene.c.motion(f"bet{bb}", self._chip_uids(str(g.big_blind)))

    def _do_gather(self, args: list[str]) -> None:
        moving = [(z, u) for u, z in list(self.scene.c.where.items()) if z.startswith("bet")
                  and self.scene.registry.lookup(u).__class__.__name__ != "CardTag"]
        for zone, uid in moving:
            self.scene.c.leave(zone, uid)
        self.scene.c.wait(0.4)
        for _, uid in moving:
            self.scene.c.enter("pot", uid)

    def _do_push(self, args: list[str]) -> None:
        """``push AMOUNT|all to SEAT``: chips from the pot into the winner's bet zone."""
        if len(args) != 3 or args[1] != "to":
            raise StepError("push AMOUNT|all to SEAT")
        seat = self.scene.seat_arg(args[2:], "push AMOUNT to SEAT")
        self.scene.c.sweep("pot", f"bet{seat}", self._pick_from("pot", args[0]))

    def _do_take(self, args: list[str]) -> None:
        """``take SEAT``: the player takes every chip out of their bet zone."""
        seat = self.scene.seat_arg(args[:1], "take SEAT")
        self.scene.c.take(f"bet{seat}", self._pick_from(f"bet{seat}", "all"))

    def _do_award(self, args: list[str]) -> None:
        """``award SEAT[,SEAT] [pot N]``: the award tap (``tap award`` alone is just the tap)."""
        if not args:
            raise StepError("award SEAT[,SEAT...] [pot N]")
        seats = tuple(self.scene.seat_arg([s], "award SEAT") for s in args[0].split(","))
        kv = pairs_arg(args[1:], "award SEATS [pot N]")
        self.scene.c.tap("award", ref=kv.get("pot", "0"), seats=seats)

    def _do_win(self, args: list[str]) -> None:
        """``win SEAT [AMOUNT|all] [pot N]``: push from the pot, award tap, the winner takes the chips."""
        seat = self.scene.seat_arg(args[:1], "win SEAT [AMOUNT] [pot N]")
        amount = args[1] if len(args) > 1 and args[1] != "pot" else "all"
        kv = pairs_arg(args[2:] if amount != "all" or (len(args) > 1 and args[1] == "all") else args[1:],
                    "win SEAT [AMOUNT] [pot N]")
        self.scene.c.sweep("pot", f"bet{seat}", self._pick_from("pot", amount))
        self.scene.c.wait(0.6)
        self.scene.c.tap("award", ref=kv.get("pot", "0"), seats=(seat,))
        self.scene.c.wait(1.0)
        self.scene.c.take(f"bet{seat}", self._pick_from(f"bet{seat}", "all"))
