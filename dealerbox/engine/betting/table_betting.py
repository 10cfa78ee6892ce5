"""Betting across hands: stacks (buy-in, minus what went in, plus what was won: there are no stack sensors),
missed blinds and new players, the dead-button history, kill legs; it starts each hand's :class:`HandBetting`.

Two facts it reads are another part's: the hand under way and its number are ``engine.play.Play``'s (handed in
as ``hands``), and where the button was last hand is ``engine.seating.Seating``'s (handed to ``button_for``)."""

from __future__ import annotations

from collections.abc import Collection, Iterable
from typing import Protocol

from ...config import Config, GameConfig
from .. import events as te
from .blinds import Positions, between_big_blind_and_button, clockwise, next_seat, positions
from ..findings import FindingLog
from .hand_betting import HandBetting
from .kill import KillTracker


class HandCount(Protocol):
    """Who numbers the hands (``engine.play.Play``): the number of the hand under way, or the last one."""

    @property
    def hand_no(self) -> int | None: ...


class TableBetting:
    """Stacks and obligations across hands. ``findings`` is the engine's shared FindingLog; ``hands`` numbers the
    hands (the events between hands carry the last one's number)."""

    def __init__(self, config: Config, findings: FindingLog, hands: HandCount) -> None:
        self.config = config
        self.hands = hands
        self.game = config.game
        self.findings = findings
        self.table_seats = config.table.seats
        self._stacks: dict[int, int] = {}
        self.owes: dict[int, set[str]] = {}       # missed "sb"/"bb", or "bb" for a new player (Blinds 4, 9)
        self.new_players: set[int] = set()        # sat down since the game started, not yet dealt in
        self.waiting_for_bb: set[int] = set()
        self.sitting_out: set[int] = set()        # the sit-out tap: not dealt in until back-in or wait-for-bb
        self.returning: set[int] = set()          # tapped back-in owing blinds, not dealt in yet (Blinds 7, 9)
        self.hands_played = 0
        self.last_big_blind: int | None = None
        self.last_small_blind: int | None = None
        self.kill = KillTracker.for_game(config.game)
        self.kill_reason = ""
        self.questions_asked = 0                  # numbers the questions to the dealer: q1, q2, ...

    # --- seats ---------------------------------------------------------------------------------------
    @property
    def stacks(self) -> dict[int, int]:
        return dict(self._stacks)

    def sit(self, t: float, seat: int, amount: int | None) -> list[te.TableEvent]:
        self._stacks[seat] = amount or self.game.buy_in
        self.kill.seat_taken(seat)
        if self.hands_played:
            # Blinds 4/12b: a player joining a running game posts a big blind or waits for it.
            self.new_players.add(seat)
            self.owes[seat] = {"bb"}
        return [te.PlayerSeated(t, self._hand_no, seat, self._stacks[seat])]

    def leave(self, t: float, seat: int) -> list[te.TableEvent]:
        stack = self._stacks.pop(seat, 0)
        self.owes.pop(seat, None)
        self.new_players.discard(seat)
        self.waiting_for_bb.discard(seat)
        self.sitting_out.discard(seat)
        self.returning.discard(seat)
        self.kill.seat_left(seat)
        if not self._stacks:
            self._new_game()
        return [te.PlayerLeft(t, self._hand_no, seat, stack)]

    def _new_game(self) -> None:
        """Everyone has left: the next players to sit start a new game, not join a running one, so nobody
        owes a blind, waits for one or counts as new between the blinds (Blinds 4, 7, 9), and no kill is due."""
        self.owes.clear()
        self.new_players.clear()
        self.waiting_for_bb.clear()
        self.sitting_out.clear()
        self.returning.clear()
        self.hands_played = 0
        self.last_big_blind = self.last_small_blind = None
        self.kill = KillTracker.for_game(self.config.game)
        self.kill_reason = ""

    def play_level(self, game: GameConfig) -> None:
        """A tournament table's level for the next hand: its blinds, ante and bets (Tournaments 7)."""
        self.game = game

    def moved_in(self, seat: int) -> None:
        """A player the floor moved in (Tournaments 15): no new player waiting for the button, no blind owed."""
        self.new_players.discard(seat)
        self.owes.pop(seat, None)

    def rebuy(self, t: float, seat: int, amount: int) -> list[te.TableEvent]:
        self._stacks[seat] = self._stacks.get(seat, 0) + amount
        return [te.StackChanged(t, self._hand_no, seat, self._stacks[seat], "rebuy")]

    def chips_changed(self, t: float, seat: int, delta: int, reason: str) -> list[te.TableEvent]:
        """A stack changed by ``delta`` outside any wager or rebuy (``reason``: "race", a colour-up's chip race)."""
        if seat not in self._stacks or not delta:
            return []
        self._stacks[seat] = max(0, self._stacks[seat] + delta)
        return [te.StackChanged(t, self._hand_no, seat, self._stacks[seat], reason)]

    def wait_for_bb(self, t: float, seat: int) -> list[te.TableEvent]:
        """The ``wait-for-bb`` tap: the seat is dealt in again when the big blind reaches it (Blinds 9)."""
        self.waiting_for_bb.add(seat)
        self.sitting_out.discard(seat)
        self.returning.discard(seat)
        return []

    def sit_out(self, t: float, seat: int) -> list[te.TableEvent]:
        """The ``sit-out`` tap: the player steps away. From the next hand the seat is not dealt in and every blind
        that passes it is owed (Blinds 9), until ``back-in`` or ``wait-for-bb``."""
        if seat not in self._stacks:
            return []
        self.sitting_out.add(seat)
        self.waiting_for_bb.discard(seat)
        self.returning.discard(seat)
        return []

    def back_in(self, t: float, seat: int) -> list[te.TableEvent]:
        """The ``back-in`` tap: a player sitting out or waiting for the big blind is dealt in again from the next
        hand and posts what they owe before the deal (Blinds 9: the big blind live, a missed small blind dead).
        Blinds may not be made up between the big blind and the button (Blinds 7): until the button passes,
        the seat stays out."""
        if seat not in self._stacks:
            return []
        self.waiting_for_bb.discard(seat)
        self.sitting_out.discard(seat)
        if self.owes.get(seat) and seat not in self.new_players:
            self.returning.add(seat)
        return []

    def kill_puck(self, t: float, seat: int) -> list[te.TableEvent]:
        """The dealer put the kill button in front of ``seat``. It marks the last pot's winner, who keeps it until
        the next hand is completed; it is neutral on a new game, after its holder quits or after a split
        without it (Kill Pots 1), and waits for a holder who stepped away (Kill Pots 5)."""
        k = self.kill
        if not k.enabled or seat == k.holder or (k.holder is None and seat == k.away):
            return []
        if k.holder is None:
            return [self.findings.raise_(
                t, self._hand_no, "kill.1", severity="dealer", outcome="continues", seats=(seat,),
                ruling=f"The kill button is neutral: nobody has a leg up. Take it away from seat {seat}.")]
        if k.scoop_min is not None:     # a split game: the button marks the seat that scooped and must kill
            return [self.findings.raise_(
                t, self._hand_no, "kill.8", severity="dealer", outcome="continues", seats=(seat, k.holder),
                ruling=f"The kill button belongs to seat {k.holder}, who scooped the last pot and must kill this one. "
                       f"Put it in front of seat {k.holder}.")]
        return [self.findings.raise_(
            t, self._hand_no, "kill.3", severity="dealer", outcome="continues", seats=(seat, k.holder),
            ruling=f"The kill button belongs to seat {k.holder}, who won the last pot and has a leg up; seat {seat} "
                   f"has none. Put it in front of seat {k.holder}.")]

    def next_question_id(self) -> str:
        """Numbers the questions to the dealer across hands: q1, q2, ..."""
        self.questions_asked += 1
        return f"q{self.questions_asked}"

    @property
    def _hand_no(self) -> int | None:
        return self.hands.hand_no

    # --- positions -----------------------------------------------------------------------------------
    def _players(self, occupied: Collection[int]) -> list[int]:
        return sorted(s for s in occupied if self._stacks.get(s, 0) > 0)

    def positions(self, button: int, occupied: Collection[int]) -> Positions:
        return positions(button, self._players(occupied), self.table_seats, self.last_big_blind,
                         self.config.table.button == "dead")

    def button_for(self, occupied: Collection[int], last_button: int) -> int | None:
        """Where the button belongs for the next hand, after it was on ``last_button`` (the seating's; moving: next
        player; dead: before the small blind)."""
        players = self._players(occupied)
        if not players:
            return None
        if self.config.table.button == "dead" and self.last_small_blind is not None and len(players) > 2:
            # Blinds 1b: last hand's small blind seat gets the button, even if it is empty now.
            return self.last_small_blind
        # Blinds 1a: the next player in the game, the first seat clockwise that this button would deal in: a new
        # player it would hold out (Blinds 7), a seat waiting for the big blind or sitting out is passed by
        for seat in clockwise(last_button, players, self.table_seats):
            if seat in self.entitled(seat, occupied):
                return seat
        return next_seat(last_button, players, self.table_seats)

    def blinds_for(self, button: int, occupied: Collection[int]) -> dict[int, int]:
        """Seat -> forced amount for the hand: small and big blind, and a kill that is due (all-in if short). A
        killer in a blind seat posts the kill alone, as ``HandBetting`` requires (docs/betting.md)."""
        entitled = set(self.entitled(button, occupied))
        players = [s for s in self._players(occupied)
                   if s in entitled or (s not in self.waiting_for_bb and s not in self.sitting_out)]
        pos = positions(button, players, self.table_seats, self.last_big_blind, self.config.table.button == "dead")
        out: dict[int, int] = {}
        if pos.small_blind is not None:
            out[pos.small_blind] = self.game.small_blind
        if pos.big_blind is not None:
            out[pos.big_blind] = self.game.big_blind
        if self.kill.due in players:
            # the kill is the killer's blind for the hand, only larger: in a blind seat it replaces that blind
            out[self.kill.due] = self.kill.amount(self.game.big_blind)
        return {s: min(a, self._stacks.get(s, 0)) for s, a in out.items()}

    def entitled(self, button: int, occupied: Collection[int]) -> tuple[int, ...]:
        """Seats entitled to a hand: players with chips, except those sitting out, those waiting for the big blind
        (until it reaches them) and new or returning players between the big blind and the button (Blinds 7)."""
        players = [s for s in self._players(occupied) if s not in self.sitting_out]
        active = [s for s in players if s not in self.waiting_for_bb]
        out = set(active) if active else set(players)   # nobody to wait behind: everyone plays
        waiting = [s for s in players if s in self.waiting_for_bb] if active else []
        for w in clockwise(button, waiting, self.table_seats):
            if positions(button, active + [w], self.table_seats).big_blind == w:
                out.add(w)
                break       # one big blind a hand: a waiting seat further round waits for the next one
        if self.new_players or self.returning:   # nobody new or returning (most hands): no positions to work out
            pos = positions(button, sorted(out), self.table_seats)
            for s in list(out):
                if (s in self.new_players or s in self.returning) and len(out) > 2 and \
                        between_big_blind_and_button(s, pos, self.table_seats):
                    out.discard(s)
        return tuple(clockwise(button, out, self.table_seats))

    def held_back(self, seat: int, button: int, order: Collection[int]) -> str:
        """Why a seated player with chips was left out of a hand by Blinds 7 ("new", "returning"), or "": they
        are new or making up blinds, and would sit between the big blind and the button (see ``entitled``)."""
        if seat in order or self._stacks.get(seat, 0) <= 0 or seat in self.sitting_out or seat in self.waiting_for_bb:
            return ""
        why = "new" if seat in self.new_players else "returning" if seat in self.returning else ""
        players = sorted(set(order) | {seat})
        if not why or len(players) <= 2:
            return ""
        return why if between_big_blind_and_button(seat, positions(button, players, self.table_seats),
                                                   self.table_seats) else ""

    # --- a hand --------------------------------------------------------------------------------------
    def start_hand(self, t: float, hand: int, button: int, dealt_in: Iterable[int], bomb: int = 0) -> HandBetting:
        """The betting of a new hand; ``bomb``: a bomb pot's post per player (no blinds pass, none is missed)."""
        dealt = [s for s in dealt_in if s in self._stacks]
        h = HandBetting(self, self._stacks, t, hand, button, dealt, bomb)
        self.returning -= set(h.seats)
        if not bomb:
            self._record_missed(h)
        return h

    def _record_missed(self, h: HandBetting) -> None:
        """Blinds 9: a seated player not dealt in misses the blind that passes it."""
        pos, n = h.positions, self.table_seats

        def between(a: int | None, b: int | None, s: int) -> bool:
            return a is not None and b is not None and 0 < (s - a) % n < (b - a) % n

        for s, stack in self._stacks.items():
            if s in h.seats or stack <= 0 or s in self.new_players:
                continue
            if between(pos.button, pos.small_blind, s):
                self.owes.setdefault(s, set()).add("sb")
            if between(pos.small_blind if pos.small_blind is not None else pos.button, pos.big_blind, s):
                self.owes.setdefault(s, set()).add("bb")

    def seat_dealt_around(self, seat: int) -> None:
        """The deal passed ``seat``, which owed a post and put nothing in: it still owes, and a seat making up
        missed blinds is held out between the big blind and the button again (Blinds 7), as before the hand."""
        if self.owes.get(seat) and seat not in self.new_players:
            self.returning.add(seat)

    def hand_finished(self, h: HandBetting, main_winners: tuple[int, ...], won: int, scooped: int = 0) -> None:
        self.hands_played += 1
        # Blinds 1b: a dead small blind still has its place (last hand's big blind seat), where the button goes next
        dead_small = self.config.table.button == "dead" and h.positions.small_blind is None and len(h.order) > 2
        self.last_small_blind = self.last_big_blind if dead_small else h.positions.small_blind
        if h.positions.big_blind is not None:
            self.last_big_blind = h.positions.big_blind
        agreed = tuple(s for s in h.order if s in self.new_players)     # new players in a killed pot (Kill Pots 12)
        for s in h.order:
            self.new_players.discard(s)
        self.kill_reason = self.kill.record_win(main_winners, won, h.killer, scooped, agreed)
