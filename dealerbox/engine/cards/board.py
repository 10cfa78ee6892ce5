"""The board as the engine follows it: each card turned, a joker on the board, a flop of four, and a card turned
before the betting was complete (Hold'em 2-4, Irregularities 8 and 15). :class:`BoardFlow` reads the hand in
``play``; the betting moves to the next street here.
"""

from __future__ import annotations

from ...tags import CardTag
from .. import events as te
from ..play import Play
from ..referee import Referee
from ..variants import Variant
from .hand import Hand
from .ledger import CardLedger
from .misdeal import Ruling


class BoardFlow:
    """Board cards for the hand in ``play``, named from the ``ledger``, rulings to the ``referee``."""

    def __init__(self, variant: Variant, play: Play, ledger: CardLedger, referee: Referee) -> None:
        self.variant = variant
        self.play = play
        self.ledger = ledger
        self.referee = referee

    def card(self, t: float, tag: CardTag) -> list[te.TableEvent]:
        """A card from the shoe reached the board."""
        play, referee = self.play, self.referee
        out = referee.deal_over(t)
        running = play.running_hand()
        if running is None:
            return out
        h, hb = running
        if tag.is_joker and not self.variant.jokers:
            return out + referee.rule(t, [Ruling("irregularity.8", "card-replaced", f"A joker ({tag.card}) was "
                                                 "turned on the board: a scrap of paper; replace it with the next "
                                                 "card.", cards=(tag.card,))])
        n = len(h.board)
        if h.off_board.premature_flop_left:
            h.off_board.premature_flop_card(tag.uid)
            return out
        boards = h.boards
        if boards.count > 1 and (target := boards.route(h.board)) != 1:
            return out + self.other_board(t, h, tag, target)
        starts_street = n in (0, 3, 4) and h.street == {0: "preflop", 3: "flop", 4: "turn"}[n]
        if n == 3 and h.street == "flop" and h.actions_on_street == 0 and not h.off_board.burn_since_board:
            # A fourth card straight after the flop: the flop had too many cards (Hold'em 2); on a double board
            # it follows board 2's flop, which is the one redealt
            flop = tuple(self.ledger.card(u) for u in h.four_card_flop(tag.uid))
            return out + referee.rule(t, [Ruling("holdem.2", "redeal-board", "The flop came with four cards: all "
                                                 "of them go back into the stub, reshuffle, cut, and deal a new "
                                                 "flop without a burn (the burn card stays).", cards=flop)])
        if starts_street and not hb.round_complete:
            # a board card turned before the betting was complete does not play
            if n == 0:
                h.off_board.premature_flop(tag.uid)
            else:
                h.off_board.does_not_play(tag.uid)
            seats = tuple(s for s in (hb.to_act,) if s is not None)
            return out + referee.rule(t, premature_rulings(tag.card, n, self.variant.flop_rules, seats))
        if n >= 5:
            h.off_board.does_not_play(tag.uid)
            return out + referee.info(t, "irregularity.15", f"{tag.card} was turned after the river: it does not "
                                      "play.", cards=(tag.card,))
        h.board_card(tag.uid)
        street = {3: "flop", 4: "turn", 5: "river"}.get(len(h.board))
        out.append(te.BoardCardDealt(t, h.number, street or "flop", tag.card))
        if street and street != h.street:
            h.street_reached(street)
            out += referee.betting_events(hb.next_street(t, street))
        return out


    def other_board(self, t: float, h: Hand, tag: CardTag, board: int) -> list[te.TableEvent]:
        """A card of board 2 or 3 (``board``; 0: every board is complete): runs agreed or a double board."""
        if board == 0:
            h.off_board.does_not_play(tag.uid)
            return self.referee.info(t, "irregularity.15", f"{tag.card} was turned after the last board's river: "
                                     "it does not play.", cards=(tag.card,))
        boards = h.boards
        boards.card_dealt(board, tag.uid)
        h.off_board.board_card()
        return [te.RunCardDealt(t, h.number, board, boards.street_of(board, h.board), tag.card)]


def premature_rulings(card: str, n: int, flop_rules: bool, seats: tuple[int, ...]) -> list[Ruling]:
    """The rulings for board card ``card`` turned early, ``n`` board cards already out (0: the flop)."""
    if n == 0:
        rule, text = "holdem.3", ("The flop was turned before the betting was complete: finish the betting, then "
                                  "the flop cards go back into the stub, reshuffle, cut and deal a new flop "
                                  "without a burn (the burn card stays).")
    elif n == 3:
        rule, text = "holdem.4", (f"The turn card {card} was turned before the betting was complete: it is out of "
                                  "play for the round. Finish the betting, burn and turn the next card as the "
                                  "turn; after that round reshuffle with it and turn the river without a burn.")
    else:
        rule, text = "holdem.4", (f"The river card {card} was turned before the betting was complete: it is out of "
                                  "play. Finish the betting, reshuffle with it, cut and turn the river without a "
                                  "burn.")
    if not flop_rules:
        rule = "irregularity.15"
    rulings = [Ruling(rule, "redeal-board", text, seats, (card,))]
    if rule != "irregularity.15":
        rulings.append(Ruling("irregularity.15", "redeal-board", "Cards dealt before the betting was complete do "
                              "not play, even if a player who has not acted folds.", seats, (card,),
                              severity="info"))
    return rulings
