"""Betting rounds read from chips in the bet zones: HandBetting driven directly with real chip tags.

``BettingTable`` is the small driver the other betting tests share: it puts real registered chip tags
into bet zones with real timing (one motion = chips less than 0.5 s apart) and taps like a dealer.
"""

from __future__ import annotations


from dealerbox.config import Config, GameConfig, TableConfig
from dealerbox.engine import events as te
from dealerbox.engine.betting import TableBetting
from dealerbox.engine.findings import FindingLog
from dealerbox.engine.play import Play
from dealerbox.tags import ChipTag, demo_registry

DENOMS = (500, 100, 25, 5, 1)


_POOL: dict[tuple[str, int], list[ChipTag]] = {}


def _pool() -> dict[tuple[str, int], list[ChipTag]]:
    if not _POOL:
        for cs in demo_registry().chip_sets:
            for uid, value in cs.chips.items():
                _POOL.setdefault((cs.house, value), []).append(ChipTag(uid, cs.house, value))
    return _POOL


class ChipBox:
    """Registered chip tags by house and value, handed out fresh for each hand."""

    def __init__(self) -> None:
        self.pool = _pool()
        self.cursor: dict[tuple[str, int], int] = {}

    def reset(self) -> None:
        self.cursor.clear()

    def take(self, value: int, house: str = "DEMO") -> ChipTag:
        key = (house, value)
        i = self.cursor.get(key, 0)
        self.cursor[key] = i + 1
        return self.pool[key][i]

    def make(self, amount: int, denoms=DENOMS) -> list[ChipTag]:
        out = []
        for d in denoms:
            while amount >= d:
                out.append(self.take(d))
                amount -= d
        return out


class BettingTable:
    def __init__(self, variant: str = "nlhe", seats=(1, 2, 3, 4), stack: int | dict = 200, button_mode="moving",
                 **game) -> None:
        self.config = Config(table=TableConfig(seats=9, button=button_mode), game=GameConfig(variant=variant, **game))
        self.findings = FindingLog()
        self.play = Play()                       # numbers the hands, as in the engine
        self.table = TableBetting(self.config, self.findings, self.play)
        self.box = ChipBox()
        self.t = 0.0
        self.events: list[te.TableEvent] = []
        self.hand = None
        for s in seats:
            self.sit(s, stack[s] if isinstance(stack, dict) else stack)

    def sit(self, seat: int, amount: int) -> None:
        self.events += self.table.sit(self.t, seat, amount)

    def _step(self, dt: float = 1.0) -> None:
        self.t += dt
        if self.hand:
            self.events += self.hand.tick(self.t)

    def start(self, button: int = 1, dealt=None, post: bool = True, deal: bool = True):
        self.hand_no = self.play.next_hand()
        self.box.reset()
        occupied = [s for s, v in self.table.stacks.items() if v > 0]
        dealt = tuple(dealt) if dealt is not None else self.table.entitled(button, occupied)
        blinds = self.table.blinds_for(button, dealt)
        self.hand = self.table.start_hand(self.t, self.hand_no, button, dealt)
        self.events += self.hand.opening_events
        if post:
            for seat in sorted(blinds, key=lambda s: blinds[s]):
                self.put(seat, blinds[seat])
        if deal:
            self.deal()
        return self.hand

    def deal(self) -> None:
        self.events += self.hand.deal_started(self.t)

    def put(self, seat: int, amount: int = 0, chips=None, gap: float = 0.1) -> None:
        """One motion: ``amount`` in chips (or the given chip tags), ``gap`` seconds apart."""
        if chips is None:
            chips = self.box.make(amount)
            smaller = tuple(d for d in DENOMS if self.config.game.smallest_chip <= d < amount)
            if len(chips) == 1 and smaller:      # a stack, not one lone chip (that is Betting 15's case)
                chips = self.box.make(amount, smaller)
        for i, chip in enumerate(chips):
            if i:
                self.t += gap
            self.events += self.hand.chip_entered(self.t, seat, chip)
        self._step()

    def chip(self, value: int, house: str = "DEMO") -> ChipTag:
        return self.box.take(value, house)

    def take_back(self, seat: int, amount: int) -> None:
        zone = dict(self.hand.seats[seat].zone)
        got = 0
        for uid, value in sorted(zone.items(), key=lambda kv: kv[1]):
            if got >= amount:
                break
            self.events += self.hand.chip_left(self.t, seat, ChipTag(uid, "DEMO", value))
            got += value
        self._step()

    def declare(self, seat: int) -> None:
        self.events += self.hand.declare_raise(self.t, seat)

    def check(self, seat: int | None = None) -> None:
        self.events += self.hand.check(self.t, seat)
        self._step()

    def fold(self, seat: int) -> None:
        self.events += self.hand.fold(self.t, seat)
        self._step()

    def gather(self) -> None:
        for seat, b in self.hand.seats.items():
            for uid, value in list(b.zone.items()):
                tag = ChipTag(uid, "DEMO", value)
                self.events += self.hand.chip_left(self.t, seat, tag)
                self.events += self.hand.chip_to_pot(self.t, tag)
        self._step(0.2)

    def street(self, name: str) -> None:
        self.gather()
        self.events += self.hand.next_street(self.t, name)
        self._step()

    # --- what happened
    def found(self, rule: str | None = None) -> list[te.FindingRaised]:
        return [e for e in self.events if isinstance(e, te.FindingRaised) and (rule is None or e.rule == rule)]

    def loud(self) -> list[te.FindingRaised]:
        return [f for f in self.found() if f.severity != "info"]

    def actions(self, seat: int | None = None) -> list[tuple[int, str, int]]:
        return [(e.seat, e.action, e.total) for e in self.events
                if isinstance(e, te.ActionTaken) and (seat is None or e.seat == seat)]


# --- a clean hand --------------------------------------------------------------------------------------

def test_blinds_are_posts_and_the_turn_starts_left_of_the_big_blind():
    g = BettingTable()
    h = g.start(button=1)
    assert g.actions() == [(2, "post", 1), (3, "post", 2)]
    assert h.to_act == 4 and h.bets == {2: 1, 3: 2}
    assert g.table.stacks[2] == 199 and g.table.stacks[3] == 198


def test_a_clean_hand_to_showdown_keeps_stacks_and_raises_nothing():
    g = BettingTable()
    h = g.start(button=1)
    g.put(4, 6)          # raise to 6
    g.fold(1)
    g.put(2, 5)          # sb calls
    g.put(3, 4)          # bb calls
    assert h.round_complete and h.to_act is None
    g.street("flop")
    assert h.to_act == 2
    g.check()
    g.check()
    g.put(4, 10)
    g.fold(2)
    g.put(3, 10)
    g.street("turn")
    g.check()
    g.check()
    g.street("river")
    g.check()
    g.check()
    g.street("showdown")
    pots, stacks = h.settle(g.t, [(4,)])
    assert [(p.amount, p.eligible, p.winners) for p in pots] == [(38, (3, 4), (4,))]
    assert stacks == {1: 200, 2: 194, 3: 184, 4: 222}
    assert sum(stacks.values()) == 800
    assert g.loud() == [] and g.found() == []


def test_everyone_folds_to_the_big_blind_the_uncalled_part_goes_back():
    g = BettingTable()
    h = g.start(button=1)
    g.fold(4)
    g.fold(1)
    g.fold(2)
    assert h.to_act is None
    pots, stacks = h.settle(g.t, [])
    assert stacks[3] == 201 and stacks[2] == 199
    assert pots[0].winners == (3,)
