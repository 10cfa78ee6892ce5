"""One hand's card state: who was dealt in, the deal, the live board, burns, dead and folded hands, remedies
still open, and the showdown's reading. The engine (``engine.table``) drives it from sensor events.

The deal's own tracking (jokers held, faces seen, the last card dealt) is the ``Deal``'s; the
cards off the live board are ``off_board``'s; the showdown's reading and the push are ``award``'s.

Phases: ``deal`` (starting hands going out) -> ``preflop`` / ``flop`` / ``turn`` / ``river`` (betting) ->
``showdown`` (hands read, pots being pushed) -> ``ended``.
"""

from __future__ import annotations

from collections.abc import Container
from dataclasses import dataclass, field

from .boards import Boards
from .deal import Deal
from .draws import Draws
from .misdeal import Ruling
from ..variants import Variant

STREET_OF_BOARD = {0: "preflop", 3: "flop", 4: "turn", 5: "river"}


@dataclass(slots=True)
class OffBoard:
    """Cards turned or burnt that are not the live board."""
    out_of_play: set[str] = field(default_factory=set)      # premature board cards (Hold'em 3/4, Irregularities 15)
    premature_flop_left: int = 0           # cards of a premature flop still to come (they do not play either)
    burns: list[str] = field(default_factory=list)
    burn_since_board: bool = False

    def burned(self, uid: str) -> None:
        self.burns.append(uid)
        self.burn_since_board = True

    def board_card(self) -> None:
        """A card of the live board was turned: the next one wants a burn first."""
        self.burn_since_board = False

    def premature_flop(self, uid: str) -> None:
        """A flop turned before the betting was complete: this card and the two after it do not play."""
        self.out_of_play.add(uid)
        self.premature_flop_left = 2

    def premature_flop_card(self, uid: str) -> None:
        self.premature_flop_left -= 1
        self.out_of_play.add(uid)

    def does_not_play(self, *uids: str) -> None:
        """Board cards turned too soon or too late (or a four-card flop): they do not play."""
        self.out_of_play.update(uids)


@dataclass(slots=True)
class Award:
    """The showdown's reading and the push of the pots: hands read, hands thrown away unshown, chips pushed."""
    ranks: dict[int, tuple[int, str]] = field(default_factory=dict)
    lows: dict[int, tuple[int, str]] = field(default_factory=dict)          # split games: qualifying lows read
    halves: list[tuple[tuple[int, ...], ...]] = field(default_factory=list)  # split games: (high, low) per pot
    unshown: set[int] = field(default_factory=set)
    pushed_chips: set[str] = field(default_factory=set)       # chips pushed and still in a bet zone (or taken)
    pushed: dict[int, int] = field(default_factory=dict)      # seat -> chips pushed to it, less those pulled back
    misaward: bool = False     # the pot was emptied to a seat that wins nothing: the hand waits for the remedy

    def read(self, seat: int, rank: tuple[int, str], low: tuple[int, str] | None = None) -> None:
        self.ranks[seat] = rank
        if low is not None:
            self.lows[seat] = low

    # --- the push (engine/misaward.py) -------------------------------------------------------------------
    def push(self, seat: int, uid: str, value: int) -> int:
        """A chip pushed to ``seat``: what the seat held pushed before it."""
        self.pushed_chips.add(uid)
        before = self.pushed.get(seat, 0)
        self.pushed[seat] = before + value
        return before

    def pull(self, seat: int, uid: str, value: int) -> None:
        """A pushed chip taken back from ``seat``'s bet zone."""
        self.pushed_chips.discard(uid)
        self.pushed[seat] = self.pushed.get(seat, 0) - value

    def handed_back(self, seat: int, value: int) -> None:
        """``seat``, wrongly paid, handed a chip back into the pot from its stack."""
        self.pushed[seat] -= value

    def misawarded(self) -> None:
        self.misaward = True

    def misaward_over(self) -> bool:
        """The misaward is over (put right, or left as it was when the next hand started): was there one."""
        was, self.misaward = self.misaward, False
        return was

    def judged(self, halves: list[tuple[tuple[int, ...], ...]]) -> None:
        """A split game's pots judged: each pot's high and low halves (none in a high-only game)."""
        self.halves = halves

    def thrown_away(self, seat: int) -> None:
        """``seat`` threw its decided hand away unshown."""
        self.unshown.add(seat)

    def unread(self, seat: int) -> None:
        """``seat``'s hand, thrown away, wins nothing: its reading is gone."""
        self.ranks.pop(seat, None)
        self.lows.pop(seat, None)


@dataclass
class Hand:
    number: int
    button: int
    order: tuple[int, ...]                 # dealt in, clockwise from the first seat left of the button
    variant: Variant
    deck_id: str | None
    back: str | None
    blinds: dict[int, int] = field(default_factory=dict)
    deal: Deal = field(init=False)
    phase: str = "deal"
    street: str = "preflop"                # the betting round engine.betting is on
    board: list[str] = field(default_factory=list)          # live board card uids, in order
    off_board: OffBoard = field(default_factory=OffBoard)
    actions_on_street: int = 0
    voluntary_actions: int = 0
    folded: set[int] = field(default_factory=set)
    dead: set[int] = field(default_factory=set)
    provisional_boxed: tuple[str, int] | None = None        # a face-up card that may yet be tapped `exposed`
    dealt: list[str] = field(default_factory=list)          # every card that came out of the shoe this hand
    cards_out: int = 0                     # cards that left the shoe this hand
    pots: list[tuple[int, tuple[int, ...]]] = field(default_factory=list)   # (amount, eligible) at the decision
    winners: list[tuple[int, ...]] = field(default_factory=list)
    award: Award = field(default_factory=Award)
    all_in_prompted: bool = False
    muck_touched: bool = False
    boards: Boards = field(default_factory=Boards)         # runs agreed, a bomb pot's second board (house practices)

    def __post_init__(self) -> None:
        self.deal = Deal(self.order, self.variant.hole_cards, first_player_rule=self.variant.extra_card_rule,
                         exposed_rule=self.variant.exposed_rule)

    # --- what happened: the parts that follow the hand say it here ----------------------------------------
    def acted(self) -> None:
        """A voluntary action (not a post, straddle or ante) was taken."""
        self.voluntary_actions += 1
        self.actions_on_street += 1
        self.deal.betting_began()

    def betting_begins(self) -> None:
        """The deal is over: the hand is on its preflop betting."""
        if self.phase == "deal":
            self.phase = "preflop"

    def dealt_on(self, window: bool, taken_back: int = 0) -> list[Ruling]:
        """A starting card in sequence after an action taken before the deal was complete (``Deal.dealt_on``; its
        ``taken_back``); the betting begins once every starting card is out."""
        rulings = self.deal.dealt_on(window, taken_back)
        if self.deal.finished:
            self.betting_begins()
        return rulings

    def dealt_around(self, seat: int) -> None:
        """The deal passed ``seat`` (it owed a post and waits): not one of this hand's seats."""
        self.order = tuple(s for s in self.order if s != seat)

    def street_reached(self, street: str) -> None:
        self.street = self.phase = street
        self.actions_on_street = 0

    def card_out(self) -> None:
        """A card left the shoe for this hand."""
        self.cards_out += 1

    def from_shoe(self, uid: str) -> None:
        """Card ``uid`` came out of the shoe this hand."""
        self.dealt.append(uid)

    def fold(self, seat: int) -> None:
        """``seat`` folded (an action, or its cards reached the muck)."""
        self.folded.add(seat)

    def kill(self, seat: int) -> None:
        """``seat``'s hand was ruled dead."""
        self.dead.add(seat)

    def board_card(self, uid: str) -> None:
        """A card of the live board was turned."""
        self.board.append(uid)
        self.off_board.board_card()

    def board_complete(self) -> bool:
        """Every board card of the game is out (a draw game has none), on every board."""
        return len(self.board) >= self.variant.board_cards and (self.variant.board_cards == 0
                                                                 or self.boards.complete(self.board))

    def four_card_flop(self, uid: str) -> list[str]:
        """A fourth card straight after the flop (Hold'em 2): the flop and ``uid`` go back (they do not play) and
        are dealt again; on a double board the flop is board 2's, the one redealt. The cards, in order."""
        if self.boards.double:
            flop = self.boards.flop_withdrawn()
        else:
            flop = list(self.board)
            self.board.clear()
        cards = flop + [uid]
        self.off_board.does_not_play(*cards)
        return cards

    def deck_seen(self, deck_id: str, back: str) -> None:
        """The hand started with no deck known: its first card names it."""
        self.deck_id, self.back = deck_id, back

    def box(self, uid: str, seat: int) -> None:
        """A card dealt face up to ``seat``: boxed, unless the next input is the dealer's ``exposed`` tap."""
        self.provisional_boxed = (uid, seat)

    def unbox(self) -> tuple[str, int] | None:
        """The boxed card waiting, now judged: which it was."""
        boxed, self.provisional_boxed = self.provisional_boxed, None
        return boxed

    def back_to_stub(self, uid: str) -> bool:
        """Card ``uid`` left the muck: True during a draw for a discard or a folded or dead hand's card, which may
        go back to a stub that ran short (docs/draw.md), and is then no seat's."""
        d = self.draws
        return d.dealing and (uid in d.discards or self.deal.back_to_stub(uid, self.folded | self.dead))

    def touch_muck(self) -> bool:
        """A card left the muck: True the first time this hand (Procedures 22 is said once)."""
        first, self.muck_touched = not self.muck_touched, True
        return first

    def off_the_muck(self, uid: str, zone: str) -> bool:
        """Card ``uid``, which left the muck in a draw and reached no antenna (``Draws.fell``), landed in ``zone``:
        True when that is looking through the discards, said once a hand (Procedures 22): anywhere but the shoe (a
        stub run short), before the showdown."""
        return (self.phase != "ended" and self.draws.landed(uid) and zone != "shoe" and not self.decided
                and self.touch_muck())

    def all_in_prompt(self) -> None:
        self.all_in_prompted = True

    def read(self, seat: int, rank: tuple[int, str], low: tuple[int, str] | None = None) -> None:
        """The showdown read ``seat``'s hand (and in a split game its qualifying low)."""
        self.award.read(seat, rank, low)

    def decided_as(self, pots: list[tuple[int, tuple[int, ...]]], winners: list[tuple[int, ...]],
                   halves: list[tuple[tuple[int, ...], ...]] | None = None,
                   by_board: list[list[tuple[tuple[int, ...], ...]]] | None = None) -> None:
        """The hand is decided (a showdown, or everyone else folded): the pots as they stand and who wins each
        (``halves``: a split game's high and low halves of each pot, when the hands were read; ``by_board``: each
        board's halves of each pot, on two or more boards)."""
        self.phase = "showdown"
        self.pots, self.winners = pots, winners
        if halves is not None:
            self.award.judged(halves)
        if by_board is not None:
            self.boards.judged(by_board)

    def rewon(self, winners: list[tuple[int, ...]], halves: list[tuple[tuple[int, ...], ...]],
              by_board: list[list[tuple[tuple[int, ...], ...]]] | None = None) -> None:
        """A hand thrown away unshown: the pots' winners (and a split game's halves, each board's) again."""
        self.winners = winners
        self.award.judged(halves)
        if by_board is not None:
            self.boards.judged(by_board)

    def ended(self, winners: list[tuple[int, ...]]) -> None:
        """The hand is over; ``winners``: of the pots as settled (none after a misdeal or void)."""
        self.winners = winners or self.winners
        self.phase = "ended"

    @property
    def draws(self) -> Draws:
        """A draw game's draws (cards/draw.py): the deal's, as they change the cards each seat holds."""
        return self.deal.draws

    @property
    def decided(self) -> bool:
        return self.phase in ("showdown", "ended")

    def hole(self, seat: int) -> list[str]:
        return list(self.deal.held.get(seat, ()))

    def portions(self) -> list[list[tuple[tuple[int, ...], ...]]]:
        """How each pot divides at the showdown, for :func:`engine.betting.pots.split_portions`: per pot, per board
        (board 1 first), the winners of each half (high, then low in a split game). Empty where every pot goes
        whole to its winners (one board, no halves read)."""
        if self.boards.count > 1 and self.boards.halves:
            return [list(per_board) for per_board in zip(*self.boards.halves, strict=True)]
        return [[halves] for halves in self.award.halves]

    def contenders(self, live: Container[int]) -> list[int]:
        """Seats still in the hand, in dealing order; ``live``: the betting's live seats (not folded or dead)."""
        dead, folded = self.dead, self.folded
        return [s for s in self.order if s in live and s not in dead and s not in folded]
