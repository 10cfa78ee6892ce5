"""Rulings raised as findings with their outcome applied: the one place a ruling ends or voids a hand or kills
a seat's cards. Every part hands its rulings here; the hand flow is wired in to end a hand."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING

from . import events as te
from .cards.misdeal import Ruling
from .findings import FindingLog
from .play import Play

if TYPE_CHECKING:
    from .cards.hand import Hand

EndHand = Callable[[float, str], list[te.TableEvent]]
Retell = Callable[[list[Ruling]], list[Ruling]]


def _unwired(t: float, outcome: str) -> list[te.TableEvent]:
    raise RuntimeError("Referee.end_hand is wired by engine.table.Engine")


class Referee:
    """Raises rulings in ``findings`` for the hand in ``play``; ``end_hand`` (the hand flow's) ends a hand on a
    misdeal or void; ``retell`` (a tournament table's entrants) may re-cite a ruling first."""

    def __init__(self, findings: FindingLog, play: Play) -> None:
        self.findings = findings
        self.play = play
        self.end_hand: EndHand = _unwired
        self.retell: Retell | None = None

    def wire(self, end_hand: EndHand, retell: Retell | None) -> None:
        """Wired once by the engine, after the hand flow is built (it is handed this referee)."""
        self.end_hand, self.retell = end_hand, retell

    def rule(self, t: float, rulings: list[Ruling]) -> list[te.TableEvent]:
        """Raise each ruling as a finding and apply its outcome."""
        if not rulings:
            return []
        out: list[te.TableEvent] = []
        play = self.play
        was_running = play.running()
        if self.retell is not None:
            rulings = self.retell(rulings)   # a paid seat dealt out: the tournament's citation
        for r in rulings:
            if not was_running and r.outcome in ("misdeal", "void", "dead-hand"):
                continue   # the hand had already ended: nothing left to apply it to
            out.append(self.findings.raise_(t, play.hand_no, r.rule, severity=r.level, outcome=r.outcome,
                                            ruling=r.text, seats=r.seats, cards=r.cards))
            if not play.running():
                continue   # a second reason for the same void or misdeal: reported, applied once
            if r.outcome in ("misdeal", "void"):
                out += self.end_hand(t, r.outcome)
            elif r.outcome == "dead-hand":
                for seat in r.seats:
                    h, hb = play.hand, play.hb
                    if h is not None and hb is not None and seat not in h.dead:
                        h.kill(seat)
                        out += self.betting_events(hb.kill_hand(t, seat))
        return out

    def info(self, t: float, rule: str, text: str, seats: Iterable[int] = (), cards: Iterable[str] = (),
             outcome: str = "continues") -> list[te.TableEvent]:
        return self.rule(t, [Ruling(rule, outcome, text, tuple(seats), tuple(cards), severity="info")])

    def betting_events(self, events: list[te.TableEvent]) -> list[te.TableEvent]:
        """Pass the betting's events through, noting the actions the card rules care about (joker held, deal over)."""
        if not events:
            return []
        out = list(events)
        h = self.play.hand
        if h is None:
            return out
        for e in events:
            if isinstance(e, te.ActionTaken) and e.action == "fold" and h.draws.dealing:
                h.fold(e.seat)   # a hand thrown away during a draw: no betting action, the draw goes on
            elif isinstance(e, te.ActionTaken) and e.action not in ("post", "straddle", "ante"):
                drawing = h.draws.dealing
                h.acted()
                if drawing:
                    out += self.rule(e.t, self.drawn_short_or_long(h))
                if not h.deal.finished and h.phase == "deal":
                    # the first action may come before the deal is complete: the deal may still go on (Deal.dealt_on)
                    out += self.rule(e.t, h.deal.action_taken(e.seat, e.action, self.play.window()))
                    if h.deal.finished:
                        h.betting_begins()
                if e.seat in h.deal.jokers and e.action != "fold" and e.seat not in h.dead:
                    out += self.rule(e.t, [Ruling(
                        "dead-hand.1e", "dead-hand", f"Seat {e.seat} acted on a hand holding a joker: the hand is "
                        "dead, cards to the muck.", (e.seat,))])
            elif isinstance(e, te.ActionTaken) and e.action == "fold" and e.seat is not None:
                h.fold(e.seat)
        return out

    @staticmethod
    def drawn_short_or_long(h: Hand) -> list[Ruling]:
        """A draw ended (the next round's first action): a hand left with too many or too few cards is dead (Dead
        Hands 1(d); the exception for too few cards is before the draw only)."""
        want = h.variant.hole_cards
        return [Ruling("dead-hand.1d", "dead-hand", f"Seat {seat} holds {len(h.deal.held.get(seat, ()))} cards "
                                                    f"after the draw, not {want}: the hand is dead, cards to the "
                                                    f"muck.", (seat,))
                for seat in h.order if seat not in h.dead and seat not in h.folded
                and len(h.deal.held.get(seat, ())) != want]

    def deal_over(self, t: float) -> list[te.TableEvent]:
        """The deal is over (a burn, a board card, cards gathered): its rulings, and the betting goes on preflop."""
        h = self.play.hand
        if h is None or h.deal.finished:
            return []
        out = self.rule(t, h.deal.over(self.play.window()))
        if self.play.running():
            h.betting_begins()
        return out
