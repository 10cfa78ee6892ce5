"""The hand moving on: a hand started and ended (the button, the seats dealt in, the deck, the award), the end
of a betting round, everyone folded, the showdown and its order, a hand thrown away unshown. :class:`HandFlow`
is the only part that starts and ends a hand in :class:`engine.play.Play`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from ..config import Config
from . import events as te
from .betting import HandBetting, TableBetting
from .cards.deck import DeckInUse
from .cards.draw import DrawFlow
from .cards.hand import Hand
from .cards.ledger import CardLedger
from .cards.misdeal import Ruling
from .betting.pots import divide
from .cards.reading import boards_text, halves_text, judge, pot_name, shown_rank, winners_text
from .cards.showdown import clockwise_from, odd_chip_seat, show_order
from .chip_trail import ChipTrail
from .play import Play
from .referee import Referee
from .seating import Seating
from .tournament.moves import FloorMoves
from .variants import Variant, evaluate, evaluate_low

if TYPE_CHECKING:   # the type only: a cash table never loads the tournament parts' rulings
    from .tournament.table import TournamentTable


class HandFlow:
    """Starts and ends the hand in ``play``; reads the cards (``ledger``), the deck, the seats and the
    betting it is handed; a tournament table's parts (``tournament``) add their rows at the start and end."""

    def __init__(self, config: Config, variant: Variant, play: Play, seating: Seating, betting: TableBetting,
                 ledger: CardLedger, deck: DeckInUse, referee: Referee, trail: ChipTrail, moves: FloorMoves,
                 tournament: TournamentTable | None, all_in_prompts: bool, draws: DrawFlow) -> None:
        self.config = config
        self.variant = variant
        self.play = play
        self.seating = seating
        self.betting = betting
        self.ledger = ledger
        self.deck = deck
        self.referee = referee
        self.trail = trail
        self.moves = moves
        self.tournament = tournament
        self.all_in_prompts = all_in_prompts     # tournament.34 raised here: known once, the config is frozen
        self.draws = draws                       # a draw game's draws begin here, at the end of a betting round
        self.left_due: dict[int, int] = {}       # a misawarded hand ended uncorrected: what the cards gave each seat
        # asked as a decided hand ends (engine/misaward.py: a push awaiting its change is ruled if none came back)
        self.push_ending: Callable[[float, Hand], list[te.TableEvent]] | None = None

    # --- a hand starts and ends ------------------------------------------------------------------------------
    def start(self, t: float) -> list[te.TableEvent]:
        tt, play, seating, betting = self.tournament, self.play, self.seating, self.betting
        out: list[te.TableEvent] = tt.before_deal(t) if tt is not None else []
        if tt is not None and self.config.is_tournament:
            out += tt.hand_start(t)
        drawn = tt.drawn_button() if tt is not None else None
        button = seating.expected_button(seating.entitled(), drawn) or (seating.puck or 1)
        hand_no = play.next_hand()
        # A table filled afresh has no "new player between the blinds" (Blinds 7): everyone with chips plays.
        order = tuple(betting.entitled(button, seating.occupied))
        if seating.fresh_table:
            away = betting.waiting_for_bb | betting.sitting_out   # their choice, made before the deal
            order = tuple(clockwise_from(button, set(order) | (set(seating.entitled()) - away), seating.seats))
        out += self.deck.at_start(t, hand_no, order)
        bomb, boards = play.take_bomb()
        hb = betting.start_hand(t, hand_no, button, order, bomb)
        blinds = dict(betting.blinds_for(button, order)) if len(order) >= 2 and not bomb else {}
        h = Hand(hand_no, button, order, self.variant, self.deck.deck_id, self.deck.back, blinds)
        play.started(h, hb)
        seating.hand_started(button)
        out.append(te.HandStarted(t, hand_no, button, order, self.variant.key, h.blinds))
        if bomb:
            h.boards.start_bomb(bomb, boards)
            out.append(te.BombPotStarted(t, hand_no, bomb, boards))
            out += self.referee.info(t, "bomb-pot.1", f"Bomb pot (house practice): every player posts {bomb}; no "
                                     f"preflop betting, the hand starts on the flop"
                                     + (", dealt on two boards (each street to board 1, then board 2); every pot "
                                        "is divided equally by board, odd chips to board 1." if boards == 2
                                        else "."), order)
        last = play.last_hand
        if last is not None and last.award.misaward_over():   # the last pot still sat wrongly (engine/misaward.py)
            out += self.referee.rule(t, [Ruling("showdown.3", "continues", uncorrected_text(last, self.left_due),
                                                tuple(sorted({s for s, v in last.award.pushed.items() if v > 0}
                                                             | {w for ws in last.winners for w in ws})),
                                                severity="floor")])
        out += hb.opening_events
        out += self.moves.dealt(t, order)   # players the floor moved in are dealt in at once (Tournaments 15)
        if tt is not None:
            out += tt.at_start(t)
        return out

    def end(self, t: float, outcome: str) -> list[te.TableEvent]:
        h, hb = self.play.hand, self.play.hb
        assert h is not None and hb is not None
        out: list[te.TableEvent] = []
        pots: tuple[te.Pot, ...] = ()
        if outcome in ("misdeal", "void"):
            out += self.referee.betting_events(hb.refund(t, outcome))
            stacks = dict(self.betting.stacks)
            self.seating.hand_voided()
        else:
            if self.push_ending is not None:
                out += self.push_ending(t, h)
            winners = self._pot_winners(h, hb)
            if h.award.misaward:   # left wrong: what the cards give each seat, for the next hand's ruling
                self.left_due = due_with_uncalled(hb.shares_due(winners, h.portions() or None), hb.uncalled_back())
            settled, stacks = hb.settle(t, winners, h.portions() or None)
            pots = tuple(settled)
            for i, pot in enumerate(pots):
                parts = hb.board_parts[i] if i < len(hb.board_parts) else []
                halves = hb.half_parts[i] if i < len(hb.half_parts) else []
                for b in range(max(len(parts), len(halves))):
                    if b < len(parts):
                        out.append(te.PotSplitByBoard(t, h.number, i, b + 1, parts[b]))
                    # each half's part of this board's: the high (and the odd chip) first, then the low
                    for half, part in zip(("high", "low"), halves[b] if b < len(halves) else (), strict=False):
                        out.append(te.PotSplitByHalf(t, h.number, i, b + 1, half, part))
                out.append(te.PotAwarded(t, h.number, i, pot))
        h.ended([p.winners for p in pots])
        self.trail.hand_ended()
        board = tuple(self.ledger.card(u) for u in h.board)
        others = tuple(tuple(self.ledger.card(u) for u in h.boards.cards(b, h.board))
                       for b in range(2, h.boards.count + 1)) or None
        out.append(te.HandEnded(t, h.number, outcome, pots, dict(stacks), board, others))
        if outcome == "complete" and self.config.is_tournament and self.tournament is not None:
            out += self.tournament.eliminations(t, stacks)   # Tournaments 35 (engine/tournament/seats.py)
        self.play.ended(h)
        return out

    def shares_due(self, h: Hand) -> dict[int, int]:
        """What the cards give each seat of the decided hand ``h``: its shares of every pot, as the end of the hand
        will pay them (the odd chips included; the uncalled parts of bets are not in it)."""
        hb = self.play.hb
        assert hb is not None
        return hb.shares_due(self._pot_winners(h, hb), h.portions() or None)

    @staticmethod
    def _pot_winners(h: Hand, hb: HandBetting) -> list[tuple[int, ...]]:
        """Each pot's winners as the hand is settled: a pot nobody was named for goes to its eligible seats in hand."""
        return [w if w else tuple(e for e in p[1] if hb.in_hand(e)) for w, p in zip(h.winners, h.pots, strict=False)]

    def dealt_around(self, t: float) -> list[te.TableEvent]:
        """The deal passed seats that owed a post and had put nothing in (``Deal.take_around``): each waits for the
        big blind (Blinds 4a, 5, 9), out of the hand, the cards' and the betting's, still seated and owing."""
        h, hb = self._hand()
        out: list[te.TableEvent] = []
        for seat in h.deal.take_around():
            h.dealt_around(seat)
            out += self.referee.betting_events(hb.dealt_around(t, seat))
        return out

    def misdealt_cards_out(self) -> bool:
        """A misdealt or void hand's cards are still on the felt: no new hand until they are gathered."""
        last = self.play.last_hand
        return last is not None and self.seating.keep_button and any(
            self.ledger.where.get(u, "").startswith("seat") for u in last.dealt)

    def all_back(self, h: Hand) -> bool:
        uids = [u for seat in h.order for u in h.deal.held[seat]] + h.board
        return all(self.ledger.where.get(u) in ("shoe", "off") for u in uids)

    # --- the hand moving on by itself --------------------------------------------------------------------------
    def progress(self, t: float) -> list[te.TableEvent]:
        h, hb = self.play.hand, self.play.hb
        if h is None or hb is None or h.phase in ("ended", "showdown"):
            return []
        if h.deal.first_uid is None and h.voluntary_actions == 0:
            return []
        led = hb.ledger   # the betting's facts from their owner: hb.live, hb.round, hb.settled without a call each
        live_seats = led.live
        # Asked after most inputs, so the contenders list is built only when needed: hb.live lies within h.order,
        # and with no folded or dead seat among two or more of them, nobody has won by the others folding.
        live = None
        if (len(live_seats) <= 1 or (h.folded and not live_seats.isdisjoint(h.folded))
                or (h.dead and not live_seats.isdisjoint(h.dead))):
            live = h.contenders(live_seats)
            if len(live) <= 1:
                return self.decide(t, live)
        # the round still open (hb.round_complete, spelt out: hb.to_act is someone exactly when seats are pending,
        # the hand is not settled and two or more are live)
        if hb.held or hb.motions or (led.round.pending and not led.settled and len(live_seats) > 1):
            return []
        draws = self.draws
        if not draws.draws:
            if len(h.board) == 5 and h.street == "river" and h.boards.complete(h.board):
                return self.showdown(t, live if live is not None else h.contenders(live_seats))
        elif h.street == "river" and h.draws.number == draws.draws:
            live = live if live is not None else h.contenders(live_seats)
            if h.actions_on_street or draws.last_drawn(h, live):
                return self.showdown(t, live)
        elif not hb.leaving and draws.due(h, live if live is not None else h.contenders(live_seats)):
            # (a gather under way first: the chips in flight to the pot are no take-back of the round's bets)
            return self.draw_begins(t)
        out: list[te.TableEvent] = []
        if h.all_in_prompted or not h.deal.finished or not self.all_in_prompts:
            return out   # no all-in prompt to give (never at a cash table): every input until the next card asks
        if live is None:
            live = h.contenders(live_seats)
        able = [s for s in live if not hb.all_in(s)]
        if len(able) <= 1 and len(able) < len(live):
            h.all_in_prompt()
            out += self.referee.info(t, "tournament.34", "A player is all in and the betting is complete: all hands "
                                     "face up now, then run the board.", tuple(live))
        return out

    def draw_begins(self, t: float) -> list[te.TableEvent]:
        """A draw game's betting round is over: the next draw begins, and the round after it (cards/draw.py)."""
        h, hb = self._hand()
        street = self.draws.begin(h)
        h.street_reached(street)
        return self.referee.betting_events(hb.next_street(t, street))

    def hands_thrown_away(self, t: float, past: int | None = None) -> list[te.TableEvent]:
        """In a draw, a seat that threw its whole hand into the muck and was given nothing, passed by the draw
        (``past``, another seat, draws or stands pat; or the pot is pushed): it folded (Dead Hands 1b, a hand thrown
        away), not a draw of five still to be dealt. The last hand left then wins."""
        run = self.play.running_hand()
        if run is None or not self.draws.drawing(run[0]):
            return []
        h, hb = run
        out: list[te.TableEvent] = []
        for seat in h.order:
            if (seat != past and seat not in h.folded and seat not in h.dead and hb.in_hand(seat)
                    and not h.deal.held.get(seat) and h.draws.drawn(seat) == 0):
                h.fold(seat)
                out += self.referee.betting_events(hb.thrown_away(t, seat))
        live = h.contenders(hb.live_seats()) if out else []
        return out + self.decide(t, live) if out and len(live) <= 1 else out

    def decide(self, t: float, live: list[int]) -> list[te.TableEvent]:
        """Everyone else folded: the last hand wins every pot it is eligible for, unshown."""
        h, hb = self._hand()
        pots = [(p.amount, tuple(p.eligible)) for p in hb.pots()]
        h.decided_as(pots, [tuple(s for s in live if s in elig) for _, elig in pots])
        return []

    def showdown(self, t: float, live: list[int]) -> list[te.TableEvent]:
        h, hb = self._hand()
        card = self.ledger.card
        board = tuple(card(u) for u in h.board)
        split_game = self.variant.split is not None
        for seat in live:
            hole = tuple(card(u) for u in h.hole(seat))
            h.read(seat, evaluate(self.variant, hole, board),
                   evaluate_low(self.variant, hole, board) if split_game else None)
        pots = [(p.amount, tuple(p.eligible)) for p in hb.pots()]
        if h.boards.count > 1:
            self.read_boards(h, live, split_game)
        h.decided_as(pots, *judge(pots, h.award, h.boards, split_game))
        seats = self.seating.seats
        order = show_order(live, hb.last_aggressor, h.button, seats)
        out: list[te.TableEvent] = []
        for seat in order:
            out.append(te.HandShown(t, h.number, seat, tuple(card(u) for u in h.hole(seat)), shown_rank(h, seat,
                                                                                                        split_game)))
        info = self.referee.info
        first = "the last player to bet or raise" if hb.last_aggressor in order else "the first player to act"
        out += info(t, "showdown.7", f"Show in this order: seat {', '.join(map(str, order))} ({first} first).",
                    tuple(order))
        out += info(t, "showdown.2", f"Cards speak: {winners_text(h)}.",
                    tuple(sorted({w for ws in h.winners for w in ws})))
        if h.boards.count > 1:
            return out + info(t, "boards.1", f"Every pot is divided equally by board, odd chips to board 1; each "
                              f"board's part is split as its own pot (Ties 5a): {boards_text(h)}.",
                              tuple(sorted({w for ws in h.winners for w in ws})))
        if split_game:
            return out + self._split_rulings(t, h)
        for i, (w, (amount, _)) in enumerate(zip(h.winners, h.pots, strict=False)):
            if len(w) > 1:
                odd = odd_chip_seat(w, h.button, seats)
                out += info(t, "ties.5a", f"{pot_name(i).capitalize()} of {amount} is split "
                            f"between seats {' and '.join(map(str, w))}; any odd chip goes to seat {odd}, the "
                            "first clockwise from the button (side pots split separately).", w)
        return out

    def read_boards(self, h: Hand, live: list[int], split_game: bool) -> None:
        """Boards 2.. read for every hand still in (board 1 is ``h.award``'s reading): each board's ranks, and
        its lows in a split game."""
        card, boards = self.ledger.card, h.boards
        all_ranks, all_lows = [h.award.ranks], [h.award.lows]
        for b in range(2, boards.count + 1):
            board = tuple(card(u) for u in boards.cards(b, h.board))
            ranks: dict[int, tuple[int, str]] = {}
            lows: dict[int, tuple[int, str]] = {}
            for s in live:
                hole = tuple(card(u) for u in h.hole(s))
                ranks[s] = evaluate(self.variant, hole, board)
                low = evaluate_low(self.variant, hole, board) if split_game else None
                if low is not None:
                    lows[s] = low
            all_ranks.append(ranks)
            all_lows.append(lows)
        boards.read(all_ranks, all_lows)

    def _split_rulings(self, t: float, h: Hand) -> list[te.TableEvent]:
        """A split game's pots: each divided high and low (highlow.1) or all to the high (highlow.2), the odd chip
        between the halves to the high (Ties 5c), tied hands within a half as in a button game (Ties 5a)."""
        info, seats, unit = self.referee.info, self.seating.seats, max(1, self.config.game.smallest_chip)
        out: list[te.TableEvent] = []
        for i, (halves, (amount, _)) in enumerate(zip(h.award.halves, h.pots, strict=False)):
            name = pot_name(i)
            if len(halves) == 1:
                high = halves[0]
                out += info(t, "highlow.2", f"No hand in the {name} makes an eight-or-better low: the high hand, "
                            f"seat {' and '.join(map(str, high))}, takes all {amount}.", high)
                if len(high) > 1:     # tied high hands split the whole pot, as in a button game
                    out += info(t, "ties.5a", f"The {name} of {amount} is split between seats "
                                f"{' and '.join(map(str, high))}; any odd chip goes to seat "
                                f"{odd_chip_seat(high, h.button, seats)}, the first clockwise from the button.", high)
                continue
            high, low = halves
            scoop = high == low
            out += info(t, "highlow.1", f"{name.capitalize()} of {amount}: {halves_text(h, i)}"
                        + (" (scoops both halves)." if scoop else "; half to each."), tuple(sorted({*high, *low})))
            top, bottom = divide(amount, 2, unit)
            if top != bottom and not scoop:
                out += info(t, "ties.5c", f"{name.capitalize()} of {amount} splits {top} high and {bottom} low: "
                            "the odd chip goes to the high hand.", high)
            for label, w in (("high", high), ("low", low)):
                if len(w) > 1:
                    odd = odd_chip_seat(w, h.button, seats)
                    out += info(t, "ties.5a", f"The {label} half of the {name} is split between seats "
                                f"{' and '.join(map(str, w))}; any odd chip goes to seat {odd}, the first clockwise "
                                "from the button.", w)
        return out

    def unshown(self, t: float, seat: int) -> list[te.TableEvent]:
        """A decided hand thrown away unshown (a tap, or its cards to the muck): it wins no part of a pot."""
        h = self.play.hand
        if h is None or not h.decided or seat in h.award.unshown:
            return []
        h.award.thrown_away(seat)
        was = [i for i, w in enumerate(h.winners) if seat in w]
        if not was:
            return []
        h.award.unread(seat)
        h.boards.thrown_away(seat)
        h.rewon(*judge(h.pots, h.award, h.boards, self.variant.split is not None))
        return self.referee.rule(t, [Ruling("showdown.1", "continues", f"Seat {seat} threw its hand away unshown: "
                                            f"it cannot win any part of the pot; {winners_text(h)}.", (seat,))])

    def _hand(self) -> tuple[Hand, HandBetting]:
        h, hb = self.play.hand, self.play.hb
        assert h is not None and hb is not None, "asked with no hand under way"
        return h, hb


def wins_a_pot(seat: int, winners: list[tuple[int, ...]]) -> bool:
    # a plain loop: every pushed chip asks, and a generator in any() costs more than the test
    for ws in winners:
        if seat in ws:
            return True
    return False


def shorted(h: Hand) -> list[int]:
    """Winners of a pot holding none of it: a shared pot (a tie, a high and a low, two or more boards) whose whole
    went to another of its winners, or a pot won alone pushed with another pot to that pot's winner (a side pot
    pushed with the main pot to the all-in player, who cannot win it: issue 31). Only a seat whose share is a chip
    or more however the odd chips fall is counted (a quartered low half of 3 leaves one of its winners nothing,
    rightly; so does a tie on one board of a pot of 2 dealt on two)."""
    out: list[int] = []
    portions = h.portions()     # per pot, per board, the winners of each half (empty: each pot whole)
    for i, ((amount, _), winners) in enumerate(zip(h.pots, h.winners, strict=False)):
        boards = portions[i] if i < len(portions) and portions[i] else [(winners,)]
        least_part = min(divide(amount, len(boards)))   # the smaller board's part when the odd chips went to board 1
        sure = dict.fromkeys(set(winners), 0)
        for per_board in boards:
            halves = [w for w in per_board if w]
            least = min(divide(least_part, len(halves))) if halves else 0   # the smaller half likewise
            for w in halves:
                for s in w:
                    sure[s] = sure.get(s, 0) + least // len(w)
        out += [s for s, share in sure.items() if share > 0 and h.award.pushed.get(s, 0) <= 0 and s not in out]
    return sorted(out)


def uncorrected_text(last: Hand, due: dict[int, int]) -> str:
    """The floor's ruling when a hand starts before the last hand's misaward was put right; ``due``: what the
    cards gave each seat of it (pot shares and uncalled parts)."""
    wrong = [f"seat {s} holds {v}" if not due.get(s) else f"seat {s} holds {v}, {v - due[s]} more than its {due[s]}"
             for s, v in sorted(last.award.pushed.items()) if v > due.get(s, 0)]
    # a pot's lone winner holding none of it is named when no loser holds its chips (then that says it already)
    loser_holds = any(v > 0 and not wins_a_pot(s, last.winners) for s, v in last.award.pushed.items())
    short = [s for s in shorted(last) if not loser_holds or any(s in ws and len(set(ws)) > 1 for ws in last.winners)]
    held = ", ".join(wrong + [f"seat {s} got none of its share" for s in short])
    return (f"Hand {last.number}'s pot was pushed to the wrong player and not put right before this deal "
            f"({held}; the cards give {winners_text(last)}). The table's stacks differ from the terminal's, "
            f"which follow the cards: the floor must settle them.")


def due_with_uncalled(shares: dict[int, int], back: dict[int, int]) -> dict[int, int]:
    """What a seat may be pushed: its shares of the pots and the uncalled part of its bets, which goes back to it
    (gathered with the pot, the dealer pushes it back from there)."""
    due = dict(shares)
    for seat, chips in back.items():
        due[seat] = due.get(seat, 0) + chips
    return due
