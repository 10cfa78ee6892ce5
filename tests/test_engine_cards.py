"""The card engine at a physical table: each hand is acted out with the shared choreography (the same
messages the simulator and the scenarios produce), fed to the real Engine, and the table events checked.

``Table`` is the test helper: seats, a loaded shoe (deck DEMO-1), the button puck, house chips; its gestures
(deal, bet, check, fold, gather, burn, board, push) follow the choreography of the team brief.
"""

from __future__ import annotations

from dealerbox.config import from_dict
from dealerbox.engine import inputs as ev
from dealerbox.engine.cards.ledger import OFF_TABLE_AFTER_S, CardLedger
from dealerbox.engine.table import Engine
from dealerbox.sources.choreography import Choreography, to_inputs
from dealerbox.tags import STANDARD_DECK, CardTag, TagRegistry, demo_registry


class Table:
    def __init__(self, variant: str = "nlhe", seats=(1, 2, 3, 4), button: int = 1, stack: int = 200,
                 registry: TagRegistry | None = None, load_shoe: bool = True, **table) -> None:
        self.cfg = from_dict({"game": {"variant": variant}, "table": {"seats": 9, **table}})
        self.reg = registry or demo_registry()
        self.engine = Engine(self.cfg, self.reg)
        self.c = Choreography()
        self.events: list = []
        self.deck = self.reg.deck("DEMO-1")
        self.uid_of = {c: u for u, c in self.deck.cards.items()}
        chips = self.reg.chips_of("DEMO")
        self.rack: dict[int, list[str]] = {}
        for uid, v in sorted(chips.chips.items()):
            self.rack.setdefault(v, []).append(uid)
        self.value = dict(chips.chips)
        self.button_uid = next(u for u, k in chips.markers.items() if k == "button")
        for s in seats:
            self.tap("sit", seat=s, amount=stack)
        if load_shoe:
            for card in STANDARD_DECK:
                self.c.enter("shoe", self.uid_of[card])
        self.move_button(button)

    # --- running ------------------------------------------------------------------------------------------
    def run(self) -> Table:
        """Feed everything acted out so far to the engine, then a heartbeat a second later (closes motions)."""
        self.c.wait(1.0)
        inputs = to_inputs(self.c.messages, self.reg) + [ev.BoardAlive(self.c.t, 0, 0, 0)]
        self.c.messages.clear()
        for i in inputs:
            self.events += self.engine.apply(i)
        return self

    def kinds(self, kind: str) -> list:
        return [e for e in self.events if e.kind == kind]

    def findings(self, above_info: bool = True) -> list:
        return [e for e in self.kinds("FindingRaised") if e.severity != "info" or not above_info]

    def rules(self, above_info: bool = True) -> list[str]:
        return [f.rule for f in self.findings(above_info)]

    def finding(self, rule: str):
        found = [f for f in self.kinds("FindingRaised") if f.rule == rule]
        assert found, f"no {rule} in {[(f.rule, f.ruling) for f in self.kinds('FindingRaised')]}"
        return found[-1]

    def quiet(self) -> None:
        assert self.findings() == [], [(f.rule, f.ruling) for f in self.findings()]

    # --- gestures -------------------------------------------------------------------------------------------
    def tap(self, action: str, **fields) -> Table:
        self.c.tap(action, **fields)
        self.c.wait(0.5)
        return self

    def move_button(self, seat: int) -> Table:
        src = next((z for u, z in self.c.where.items() if u == self.button_uid), None)
        self.c.move(self.button_uid, src, f"seat{seat}")
        self.c.wait(0.5)
        return self

    def deal(self, card: str, dest: str | None, face_up: bool = False, uid: str | None = None) -> Table:
        self.c.deal(uid or self.uid_of[card], dest, face_up)
        self.c.wait(0.3 if dest is not None else 2.0)
        return self

    def deal_holes(self, hands: dict[int, tuple[str, ...]]) -> Table:
        """One card at a time in the order of ``hands`` (first seat left of the button first), round by round."""
        rounds = max(len(c) for c in hands.values())
        for r in range(rounds):
            for seat, cards in hands.items():
                if r < len(cards):
                    self.deal(cards[r], f"seat{seat}")
        return self

    def bet(self, seat: int, amount: int) -> Table:
        uids = []
        for v in (25, 5, 1):          # never one big chip: that would be a call (No-Limit 9)
            while amount >= v:
                uids.append(self.rack[v].pop())
                amount -= v
        self.c.motion(f"bet{seat}", uids)
        self.c.wait(1.0)
        return self

    def check(self, seat: int) -> Table:
        return self.tap("check", seat=seat)

    def fold(self, seat: int) -> Table:
        for uid in self.c.in_zone(f"seat{seat}"):
            if uid != self.button_uid:
                self.c.move(uid, f"seat{seat}", "muck")
        self.c.wait(0.5)
        return self

    def gather(self) -> Table:
        for s in range(1, 10):
            uids = self.c.in_zone(f"bet{s}")
            if uids:
                self.c.sweep(f"bet{s}", "pot", uids)
        self.c.wait(1.0)
        return self

    def burn(self, card: str) -> Table:
        return self.deal(card, "burn")

    def board(self, *cards: str) -> Table:
        for card in cards:
            self.deal(card, "board")
        return self

    def push(self, seat: int, amount: int | None = None) -> Table:
        """Chips out of the pot into ``seat``'s bet zone (all of them when ``amount`` is None)."""
        pot = sorted(self.c.in_zone("pot"), key=lambda u: -self.value[u])
        picked, left = [], amount
        for uid in pot:
            if left is None or self.value[uid] <= left:
                picked.append(uid)
                if left is not None:
                    left -= self.value[uid]
        self.c.sweep("pot", f"bet{seat}", picked)
        self.c.wait(0.8)
        return self

    def take(self, seat: int) -> Table:
        self.c.take(f"bet{seat}", self.c.in_zone(f"bet{seat}"))
        self.c.wait(0.5)
        return self

    def cleanup(self) -> Table:
        for zone in ("board", "burn", "muck", *(f"seat{s}" for s in range(1, 10))):
            for uid in self.c.in_zone(zone):
                if uid != self.button_uid and uid in self.deck.cards:
                    self.c.move(uid, zone, "shoe", travel=0.1)
        self.c.wait(1.0)
        return self

    # --- whole streets of a plain four-handed hand (button 1: SB 2, BB 3, UTG 4) --------------------------------
    def blinds(self, sb: int = 2, bb: int = 3) -> Table:
        return self.bet(sb, 1).bet(bb, 2)

    def preflop_limped(self, hands: dict[int, tuple[str, ...]] | None = None) -> Table:
        self.blinds()
        self.deal_holes(hands or HANDS)
        return self.bet(4, 2).bet(1, 2).bet(2, 1).check(3).gather()

    def checked_street(self, burn: str, *cards: str, seats=(2, 3, 4, 1)) -> Table:
        self.burn(burn).board(*cards)
        for s in seats:
            self.check(s)
        return self


HANDS = {2: ("Ah", "Kh"), 3: ("7c", "2d"), 4: ("Qs", "Qd"), 1: ("9c", "9d")}
FLOP, TURN, RIVER = ("Qh", "Jh", "3c"), "4s", "Th"   # seat 2: royal flush; seat 4: a set of queens


def play_clean_hand(t: Table) -> Table:
    t.preflop_limped()
    t.checked_street("5d", *FLOP).checked_street("6d", TURN).checked_street("8s", RIVER)
    return t.run()


# --- the clean hand ----------------------------------------------------------------------------------------------

def test_a_clean_hand_is_followed_card_by_card_and_raises_nothing():
    t = play_clean_hand(Table())
    t.quiet()
    started = t.kinds("HandStarted")[0]
    assert started.button == 1 and started.seats == (2, 3, 4, 1)
    dealt = t.kinds("CardDealt")
    assert [d.seat for d in dealt] == [2, 3, 4, 1, 2, 3, 4, 1]
    assert [b.card for b in t.kinds("BoardCardDealt")] == [*FLOP, TURN, RIVER]
    assert len(t.kinds("CardBurned")) == 3
    shown = {h.seat: h for h in t.kinds("HandShown")}
    assert shown[2].rank == "Straight Flush" and shown[4].rank == "Three of a Kind"
    state = t.engine.snapshot()
    assert state.phase == "showdown" and state.pot_winners == ((2,),)


def test_hole_cards_never_leave_the_engine_before_showdown():
    t = Table().blinds().deal_holes(HANDS).run()
    state = t.engine.snapshot()
    assert all(s.shown == () for s in state.seats)
    assert {s.seat: s.cards_held for s in state.seats if s.cards_held} == {1: 2, 2: 2, 3: 2, 4: 2}
    for e in t.kinds("CardDealt"):
        assert e.to_dict()["card"] is None
    assert not any(c in str(t.engine.snapshot()) for c in ("Ah", "Kh", "Qs"))


def test_the_award_ends_the_hand_with_every_pot_and_stack():
    t = play_clean_hand(Table())
    t.push(2).take(2).tap("award", ref="0", seats=(2,)).cleanup().run()
    ended = t.kinds("HandEnded")
    assert len(ended) == 1 and ended[0].outcome == "complete"
    pot = ended[0].pots[0]
    assert pot.amount == 8 and pot.winners == (2,) and pot.shares == {2: 8}
    assert ended[0].stacks == {1: 198, 2: 206, 3: 198, 4: 198}
    assert ended[0].board == (*FLOP, TURN, RIVER)
    t.quiet()


# --- who is dealt in at a fresh table ------------------------------------------------------------------------------

def test_a_player_who_sits_out_before_the_first_hand_is_not_dealt_in():
    t = Table(seats=(1, 2, 3, 4, 5))
    t.tap("sit-out", seat=5)
    t.blinds().run()
    started = t.kinds("HandStarted")[0]
    assert 5 not in started.seats and set(started.seats) == {1, 2, 3, 4}
    t.quiet()


def test_the_fall_bound_is_never_once_no_card_moves_and_a_card_still_travelling_keeps_it():
    # Engine.apply asks fallen() only from fall_due on: the bound must not outlive the cards in transit, and
    # must stay while one still travels (a card that fell would otherwise never be found)
    ledger = CardLedger()
    ace, king = CardTag("04aa", "As", "D1", "red"), CardTag("04ab", "Kd", "D1", "red")
    ledger.left(1.0, "shoe", ace)
    assert 1.0 < ledger.fall_due <= 1.0 + OFF_TABLE_AFTER_S
    ledger.entered("seat3", ace)
    assert ledger.fall_due == float("inf") and not ledger.fallen(100.0)
    ledger.left(2.0, "shoe", ace)
    ledger.left(2.2, "shoe", king)
    ledger.entered("seat4", ace)     # the king still travels: its fall is still looked for
    assert ledger.fall_due <= 2.2 + OFF_TABLE_AFTER_S
    assert [uid for uid, _ in ledger.fallen(2.2 + OFF_TABLE_AFTER_S + 0.01)] == ["04ab"]
    assert ledger.fall_due == float("inf") and ledger.where["04ab"] == "off"
