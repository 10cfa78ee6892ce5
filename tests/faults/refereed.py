"""Our own referee (tests/faults/referee/) run beside the session harnesses: every hand of a session is refereed
from the rules, and the referee's account must agree with the engine's (who is dealt in, the pots, their winners
and shares, the stacks after) and with the simulator's pokerkit account (its stacks). The referee follows the
table itself (its own stacks, button, missed blinds and kill legs, from the dealer's taps and its own outcomes),
so a kill owed by the wrong seat, a make-up of the wrong size or a new player dealt in out of turn is found
whoever made it.

This module is the only place that speaks both languages: the simulator's hand and the engine's events in, the
referee's plain values out; the referee package imports nothing of dealerbox (tests/test_structure.py).
"""

from __future__ import annotations

from collections import Counter

from dealerbox.config import GameConfig
from dealerbox.engine import inputs as ev
from dealerbox.engine.events import FindingRaised, HandEnded, HandStarted, TableEvent
from dealerbox.engine.variants import variant
from dealerbox.sources.sim.outcome import SimulatedHand
from dealerbox.tags import CardTag
from tests.faults.referee import Game, HandReferee, RefereeError, TableReferee

STRUCTURE = {"nlhe": "no-limit", "plhe": "pot-limit", "flhe": "limit", "plo": "pot-limit", "o8": "limit",
             "plo8": "pot-limit"}
TAPS = ("sit", "leave", "rebuy", "sit-out", "back-in", "wait-for-bb")


class Disagreement(AssertionError):
    """The referee, the engine and pokerkit do not tell the same story of a hand."""


def game_of(g: GameConfig, button: str = "moving") -> Game:
    """The referee's game from the house's configuration: the structure, blinds and limits, the kill and, in a
    split game, the scoop that forces it (``game.kill_scoop`` upper limits, Kill Pots 8), the button (Blinds 1)."""
    split = variant(g.variant).split is not None
    return Game(STRUCTURE[g.variant], g.small_blind, g.big_blind, g.small_bet, g.big_bet, g.kill, g.kill_qualifier,
                g.sb_counts_as_bb, g.kill_scoop * g.big_bet if split else 0, button, split)


class RefereedSession:
    """One session's referee: :meth:`check` each hand, in order, with the engine's events for it."""

    def __init__(self, game: GameConfig, seats: int, stats: Counter | None = None, button: str = "moving") -> None:
        self.game = game_of(game, button)
        self.smallest_chip = game.smallest_chip
        self.table = TableReferee(self.game, seats)
        self.stats: Counter = Counter() if stats is None else stats
        self.redeal = False        # the last hand was a misdeal or void: dealt again with the same button

    def check(self, hand: SimulatedHand, events: list[TableEvent]) -> dict[int, str]:
        """Referee ``hand`` and compare; returns the required posts the hand was dealt without (seat -> the rule
        that rules it: kill.6, blinds.10). Raises Disagreement (or RefereeError) at the first difference."""
        exp, t = hand.expected, self.table
        deal_at = next((x.t for x in hand.inputs if isinstance(x, ev.ZoneEntered) and x.zone.startswith("seat")
                        and isinstance(x.tag, CardTag)), None)
        for x in hand.inputs:
            if isinstance(x, ev.DealerInput) and x.action in TAPS and x.seat is not None and \
                    (deal_at is None or x.t < deal_at):
                t.tap(x.action, x.seat, x.amount)
        if t.button is None:
            t.place_button(exp.button)
        elif not self.redeal:
            t.move_button()
        where = f"hand {hand.number}"
        if t.button != exp.button:
            raise Disagreement(f"{where}: the button goes to seat {t.button} (Blinds 1), the record has {exp.button}")
        for seat, stack in exp.stacks_before.items():
            if t.stacks.get(seat) != stack:
                raise Disagreement(f"{where}: seat {seat} starts with {t.stacks.get(seat)} by the referee's own "
                                   f"account, {stack} by the simulator's")
        posts = t.next_posts()
        if posts.order != exp.dealt_in:
            raise Disagreement(f"{where}: the rules deal in {posts.order} (Blinds 4, 7, 9), the record "
                               f"{exp.dealt_in}")
        started = [e for e in events if isinstance(e, HandStarted)]
        if started and tuple(started[-1].seats) != posts.order:
            raise Disagreement(f"{where}: the engine deals in {started[-1].seats}, the rules {posts.order}")
        missing: dict[int, str] = {}
        posted = dict(exp.blinds)
        for seat, amount in posts.live.items():
            if posted.get(seat) == amount:
                continue
            if seat == posts.killer:
                missing[seat] = "kill.6"
            elif posted.get(seat) is None:
                missing[seat] = "blinds.10"
            else:
                raise Disagreement(f"{where}: seat {seat} posts {posted.get(seat)}, the rules ask {amount}")
        if posts.kill_owed_away is not None:
            missing[posts.kill_owed_away] = "kill.6"
        extra = {s: a for s, a in posted.items() if s not in posts.live}
        if extra:
            raise Disagreement(f"{where}: posts the rules do not ask for: {extra}")
        ruled = {e.rule for e in events if isinstance(e, FindingRaised) and e.severity != "info"}
        for seat, rule in missing.items():
            if rule not in ruled:
                raise Disagreement(f"{where}: seat {seat} was dealt in without its required post ({rule}), and the "
                                   f"engine did not rule it ({sorted(ruled)})")
            self.stats[f"refereed {rule}: the post missing, ruled"] += 1
        if posts.killer in missing:     # dealt without the kill: the hand plays unkilled (its own blind, if any)
            posts.killer = None
        t.dealt(posts, posted)
        self.redeal = exp.outcome != "played"
        if self.redeal:
            self.stats["refereed misdeals and voids"] += 1
            return missing
        referee = HandReferee(posts.deal(self.game, t.stacks, posted), self.smallest_chip)
        for street, seat, kind, to in exp.actions:
            referee.act(street, seat, kind, to)
        outcome = referee.finish(exp.hole_cards, exp.board)
        self._compare(where, outcome, exp.stacks, events)
        t.hand_played(outcome)
        self.stats["refereed hands"] += 1
        self.stats["refereed killed hands"] += posts.killer is not None
        self.stats["refereed make-ups"] += sum(1 for s in posts.dead if s in posted)
        self.stats["refereed new players' big blinds"] += sum(
            1 for s, a in posted.items() if a == self.game.big_blind and s not in (posts.big_blind, posts.killer))
        self.stats["refereed side pots"] += len(outcome.pots) - 1
        self.stats["refereed splits"] += sum(1 for p in outcome.pots if len(p.winners) > 1)
        self.stats["refereed dead small blinds"] += posts.small_blind is None and len(posts.order) > 2
        self.stats["refereed buttons before an empty seat"] += posts.button not in t.stacks
        main = outcome.pots[0] if outcome.pots else None
        self.stats["refereed scoops"] += bool(self.game.split and main and main.scooped_by() is not None
                                              and main.eligible[1:])
        self.stats["refereed scoop kills due"] += bool(self.game.scoop and t.due is not None)
        return missing

    def _compare(self, where: str, outcome, stacks: dict[int, int], events: list[TableEvent]) -> None:
        mine = {s: outcome.stacks[s] for s in stacks}
        if mine != stacks:
            raise Disagreement(f"{where}: the referee's stacks {mine}, pokerkit's {stacks}")
        ended = [e for e in events if isinstance(e, HandEnded)]
        if not ended or ended[-1].outcome != "complete":
            raise Disagreement(f"{where}: the engine ended the hand {[e.outcome for e in ended]}")
        engine = ended[-1]
        if {s: engine.stacks.get(s) for s in mine} != mine:
            raise Disagreement(f"{where}: the referee's stacks {mine}, the engine's {engine.stacks}")
        ours = sorted((p.amount, tuple(sorted(p.winners)), tuple(sorted(p.shares.items()))) for p in outcome.pots
                      if p.amount)
        theirs = sorted((p.amount, tuple(sorted(p.winners)), tuple(sorted((s, a) for s, a in p.shares.items() if a)))
                        for p in engine.pots if p.amount)
        if ours != theirs:
            raise Disagreement(f"{where}: the referee's pots {ours}, the engine's {theirs}")


__all__ = ["Disagreement", "RefereeError", "RefereedSession", "game_of"]
