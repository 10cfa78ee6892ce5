"""House practices the dealer agrees on the screen: running the board twice or three times after an all-in, and
the bomb pot (docs/engine.md, "House practices"). Both are table settings, off by default (``game.run_it``,
``game.bomb_pots``); the rulebook allows dealing twice or three times when all in (No-Limit and Pot-Limit 14,
House Policies 15) and has no word on bomb pots, so their rows in the catalogue carry the house-rule name.

:class:`HousePractices` owns nothing but reads the hand in ``play``: the runs are the hand's (``Hand.boards``),
the bomb pot due next is ``Play``'s (``Play.bomb_due``), which :class:`engine.hand_flow.HandFlow` takes at the
next start.
"""

from __future__ import annotations

from ..config import Config
from . import events as te
from .cards.ledger import CardLedger
from .cards.misdeal import Ruling
from .play import Play
from .referee import Referee


class HousePractices:
    """The ``run-it`` and ``bomb-pot`` taps for the hand in ``play``, at a table configured by ``config``; the
    cards are named from the ``ledger``."""

    def __init__(self, config: Config, play: Play, referee: Referee, ledger: CardLedger) -> None:
        self.config = config
        self.play = play
        self.referee = referee
        self.ledger = ledger

    def run_it(self, t: float, runs: int) -> list[te.TableEvent]:
        """The dealer agreed to deal the rest of the board ``runs`` times: agreed, or refused with the reason."""
        allowed = self.config.game.run_it
        running = self.play.running_hand()
        if allowed < 2:
            return self._refuse(t, "run-it.1", "This table does not run the board more than once (house "
                                "setting game.run_it is off): deal one board.")
        if not 2 <= runs <= allowed:
            return self._refuse(t, "run-it.1", f"This table runs the board at most {allowed} times: deal "
                                f"{'one board' if runs < 2 else f'{allowed} runs or one board'}.")
        if running is None:
            return []
        h, hb = running
        live = h.contenders(hb.live)
        able = [s for s in live if not hb.all_in(s)]
        why = ("the runs were already agreed" if h.boards.count > 1 else
               "the board is complete" if len(h.board) >= 5 else
               "the deal is not over" if not h.deal.finished else
               "nobody is all in with more betting impossible" if not (len(live) >= 2 and len(able) <= 1
                                                                      and len(able) < len(live)) else
               "the betting round is not complete" if not hb.round_complete or h.decided else "")
        if why:
            return self._refuse(t, "run-it.1", f"Run it {runs} times only after an all-in with no more betting "
                                f"possible: {why}. Deal one board.", tuple(live))
        h.boards.agree(runs, len(h.board))
        common = tuple(self.ledger.card(u) for u in h.board)
        out: list[te.TableEvent] = [te.RunsAgreed(t, h.number, runs, common)]
        return out + self.referee.info(t, "run-it.2", f"Run it {'twice' if runs == 2 else 'three times'} (house "
                                       f"practice): deal the rest of board 1, then each further run in full, in "
                                       f"order; every pot is divided equally by board, odd chips to board 1.",
                                       tuple(live))

    def bomb_pot(self, t: float, amount: int, boards: int) -> list[te.TableEvent]:
        """The dealer starts a bomb pot: the next hand every player posts ``amount``, no preflop betting."""
        if not self.config.game.bomb_pots:
            return self._refuse(t, "bomb-pot.3", "This table does not play bomb pots (house setting "
                                "game.bomb_pots is off): deal a normal hand.")
        if amount <= 0 or boards not in (1, 2):
            return self._refuse(t, "bomb-pot.3", "A bomb pot needs an amount every player posts and one or two "
                                "boards: tap it again.")
        h = self.play.hand
        if h is not None and h.phase != "ended" and not h.decided:
            return self._refuse(t, "bomb-pot.3", "A hand is under way: start the bomb pot before the next deal, "
                                "once this hand is over.")
        self.play.bomb_due(amount, boards)
        return []

    def _refuse(self, t: float, rule: str, text: str, seats: tuple[int, ...] = ()) -> list[te.TableEvent]:
        return self.referee.rule(t, [Ruling(rule, "continues", text, seats)])
