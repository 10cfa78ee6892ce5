"""The board as the engine follows it: each card turned, a joker on the board, a flop of four, and a card turned
before the betting was complete (Hold'em 2-4, Irregularities 8 and 15). A part of :class:`engine.table.Engine`.
"""

from __future__ import annotations

from ..tags import CardTag
from . import events as te
from .misdeal import Ruling


class BoardFlow:
    """Mixed into :class:`engine.table.Engine`."""

    def _board_card(self, t: float, tag: CardTag) -> list[te.TableEvent]:
        h = self.hand
        out = self._deal_over(t)
        if not self._running():
            return out
        if tag.is_joker and not self.variant.jokers:
            return out + self._rulings(t, [Ruling("irregularity.8", "card-replaced", f"A joker ({tag.card}) was turned "
                                       "on the board: a scrap of paper; replace it with the next card.",
                                       cards=(tag.card,))])
        n = len(h.board)
        if h.premature_flop_left:
            h.premature_flop_left -= 1
            h.out_of_play.add(tag.uid)
            return out
        starts_street = n in (0, 3, 4) and h.street == {0: "preflop", 3: "flop", 4: "turn"}[n]
        if n == 3 and h.street == "flop" and h.actions_on_street == 0 and not h.burn_since_board:
            # A fourth card straight after the flop: the flop had too many cards (Hold'em 2).
            h.out_of_play.update(h.board + [tag.uid])
            flop = tuple(self.ledger.card(u) for u in h.board + [tag.uid])
            h.board.clear()
            return out + self._rulings(t, [Ruling("holdem.2", "redeal-board", "The flop came with four cards: all of "
                                       "them go back into the stub, reshuffle, cut, and deal a new flop without a "
                                       "burn (the burn card stays).", cards=flop)])
        if starts_street and not self.hb.round_complete:
            return out + self._premature(t, tag, n)
        if n >= 5:
            h.out_of_play.add(tag.uid)
            return out + self._info(t, "irregularity.15", f"{tag.card} was turned after the river: it does not play.",
                                    cards=(tag.card,))
        h.board.append(tag.uid)
        h.burn_since_board = False
        street = {3: "flop", 4: "turn", 5: "river"}.get(len(h.board))
        out.append(te.BoardCardDealt(t, h.number, street or "flop", tag.card))
        if street and street != h.street:
            h.street = street
            h.phase = street
            h.actions_on_street = 0
            out += self._betting_events(self.hb.next_street(t, street))
        return out

    def _premature(self, t: float, tag: CardTag, n: int) -> list[te.TableEvent]:
        """A board card turned before the betting was complete does not play (Hold'em 3/4, Irregularities 15)."""
        h = self.hand
        h.out_of_play.add(tag.uid)
        if n == 0:
            h.premature_flop_left = 2
        seats = tuple(s for s in (self.hb.to_act,) if s is not None)
        return self._rulings(t, premature_rulings(tag.card, n, self.variant.flop_rules, seats))


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
