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
from .betting.hand_betting import HandBetting
from .cards.deck import DeckInUse
from .cards.hand import Hand
from .cards.ledger import CardLedger
from .cards.misdeal import Ruling
from .play import Play
from .referee import Referee
from .seating import Seating
from .variants import BURNS, DECK_CARDS, variant

BURNS_BEFORE = {0: 3, 3: 2, 4: 1}    # board cards out -> burns still to come on one board


class HousePractices:
    """The ``run-it`` and ``bomb-pot`` taps for the hand in ``play``, at a table configured by ``config``; the
    cards are named from the ``ledger``, the stub counted by the ``deck`` in use, a bomb pot's players by
    ``seating``."""

    def __init__(self, config: Config, play: Play, referee: Referee, ledger: CardLedger, deck: DeckInUse,
                 seating: Seating) -> None:
        self.config = config
        self.play = play
        self.referee = referee
        self.ledger = ledger
        self.deck = deck
        self.seating = seating

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
        why = self._why_not(h, hb, live)
        if why:
            return self._refuse(t, "run-it.1", f"Run it {runs} times only after an all-in with no more betting "
                                f"possible: {why}. Deal one board.", tuple(live))
        stub = self._stub(h)
        if stub is not None and runs > (most := _runs_dealt(*stub)):
            cards, first, each = stub
            need = first + each * (runs - 1)
            return self._refuse(t, "run-it.1", f"The stub holds {cards} cards: {runs} runs need {need} (each run "
                                f"its burns and the rest of its board, {each}"
                                f"{f'; {first} for board 1, its burn is down' if first != each else ''}). Deal "
                                f"{f'{most} runs or one board' if most >= 2 else 'one board'}.", tuple(live))
        h.boards.agree(runs, len(h.board))
        common = tuple(self.ledger.card(u) for u in h.board)
        out: list[te.TableEvent] = [te.RunsAgreed(t, h.number, runs, common)]
        return out + self.referee.info(t, "run-it.2", f"Run it {'twice' if runs == 2 else 'three times'} (house "
                                       f"practice): deal the rest of board 1, then each further run in full, in "
                                       f"order; every pot is divided equally by board, odd chips to board 1.",
                                       tuple(live))

    def runs_offer(self) -> int:
        """The most runs the dealer may agree now (the screen's run-it keys): after an all-in with no more betting,
        before the river, once, and no more than the table allows and the stub deals; 0 when none."""
        running = self.play.running_hand()
        if self.config.game.run_it < 2 or running is None:
            return 0
        h, hb = running
        if self._why_not(h, hb, h.contenders(hb.live)):
            return 0
        stub = self._stub(h)
        most = min(self.config.game.run_it, _runs_dealt(*stub)) if stub is not None else self.config.game.run_it
        return most if most >= 2 else 0

    @staticmethod
    def _why_not(h: Hand, hb: HandBetting, live: list[int]) -> str:
        """Why runs cannot be agreed now ("" when they can)."""
        able = [s for s in live if not hb.all_in(s)]
        return ("the runs were already agreed" if h.boards.count > 1 else
                "the board is complete" if len(h.board) >= 5 else
                "the deal is not over" if not h.deal.finished else
                "nobody is all in with more betting impossible" if not (len(live) >= 2 and len(able) <= 1
                                                                       and len(able) < len(live)) else
                "the betting round is not complete" if not hb.round_complete or h.decided else "")

    def _stub(self, h: Hand) -> tuple[int, int, int] | None:
        """(cards in the stub, cards board 1's run still takes, cards each further run takes), each run its burns
        and the rest of its board; None while no deck is known."""
        cards = self.deck.stub()
        if cards is None:
            return None
        n = len(h.board)
        each = (5 - n) + BURNS_BEFORE.get(n, 0)
        return cards, each - (1 if h.off_board.burn_since_board else 0), each

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
        cards, players, hole, each = self._bomb_cards()
        need = players * hole + boards * each
        if need > cards:
            most = self.bomb_boards()
            return self._refuse(t, "bomb-pot.3", f"The deck holds {cards} cards: a bomb pot on {boards} board"
                                f"{'s' if boards > 1 else ''} for {players} players needs {need} ({players} x {hole} "
                                f"hole cards, {boards} x {each} for the board{'s' if boards > 1 else ''} and "
                                f"{'their' if boards > 1 else 'its'} burns). "
                                f"{'Deal it on one board.' if most else 'Deal a normal hand.'}",
                                tuple(self.seating.posting()))
        self.play.bomb_due(amount, boards)
        return []

    def bomb_boards(self) -> int:
        """The most boards a bomb pot dealt now would have cards for (the screen's bomb-pot keys): 2, 1 or 0."""
        cards, players, hole, each = self._bomb_cards()
        return max(0, min(2, (cards - players * hole) // each))

    def _bomb_cards(self) -> tuple[int, int, int, int]:
        """(cards of the deck in use, players a bomb pot deals in, hole cards each, cards a board takes with its
        burns). The bomb pot is dealt from the whole deck, gathered and shuffled; one deck when none is known."""
        v = variant(self.config.game.variant)
        size = self.deck.size()
        return (DECK_CARDS if size is None else size), len(self.seating.posting()), v.hole_cards, \
            v.board_cards + BURNS

    def _refuse(self, t: float, rule: str, text: str, seats: tuple[int, ...] = ()) -> list[te.TableEvent]:
        return self.referee.rule(t, [Ruling(rule, "continues", text, seats)])


def _runs_dealt(cards: int, first: int, each: int) -> int:
    """How many runs ``cards`` stub cards deal: board 1's run takes ``first``, every further run ``each``.

    >>> _runs_dealt(16, 8, 8), _runs_dealt(15, 8, 8), _runs_dealt(15, 7, 8), _runs_dealt(6, 8, 8)
    (2, 1, 2, 0)
    """
    return 0 if cards < first else 1 + (cards - first) // each
