"""The table across hands, refereed from the rules: who sits, where the moving button goes, who is dealt in, who
owes which blinds, the kill button's legs, and so what each seat must post before the next deal.

Paraphrased from Button and Blind Use and Kill Pots:
- Moving button (Blinds 1a): after each deal it goes to the next player, a seat the deal then reaches (not one
  away, waiting for the big blind, or new on the button: Blinds 7); a misdeal deals again with it
  where it was. With two blinds the small blind is left of the button, the big blind next; heads-up the button is
  the small blind (Blinds 3).
- Dead button (Blinds 1b), at a table so configured, three or more players: the big blind goes to the player due
  for it, the next one after last hand's big blind; the small blind and the button follow it a place each, to
  the seats last hand's big and small blind had, even an empty seat: nobody there, no small blind this hand, and
  the button may stand before an empty seat (the same player gets last action twice). Heads-up, Blinds 3.
- A new player posts a big blind where they sit or waits for the big blind (Blinds 4), is not dealt in between
  the big blind and the button (Blinds 7), and has missed no blind while waiting (Blinds 5). A player away who
  lets a blind pass owes it; coming back they post every blind missed (up to the opening bet live, the rest dead)
  or wait for the big blind, and not between the big blind and the button either (Blinds 7, 9). Posting the big
  blind in its place settles every debt.
- Kill Pots: the kill button is neutral at a new game's first hand, when its holder quits, or after a split
  neither party held it for (1); the winner of a pot holds it (a leg); a holder who wins the next pot, by at
  least the house's qualifying amount (3), or a killer who wins (7) or splits (4), must kill the next pot, for
  2x the big blind (full) or 1.5x (half), the limits raised the same; the leg survives a split (4) and a spell
  away when nobody else won a pot meanwhile (5); one kill per deal (11). A new player dealt into a killed pot plays
  it by agreeing to kill the next (12): that kill is theirs unless the pot's result already makes one due (11).
  A high-low split game has no legs: a player who scoops a pot (both halves) of at least the set size (five upper
  limits by default) must kill the next one (the section's introduction, 8); a split pot or a smaller scoop
  forces nothing.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from tests.faults.referee.hand import Deal, Limits, Outcome

KILL = {"full": 2.0, "half": 1.5}


@dataclass(frozen=True)
class Game:
    """The game the table plays, as the house configures it."""
    structure: str                  # "no-limit" | "pot-limit" | "limit"
    small_blind: int
    big_blind: int
    small_bet: int = 0              # limit only
    big_bet: int = 0
    kill: str = "none"              # "none" | "full" | "half"
    kill_qualifier: int = 0         # Kill Pots 3: what a second leg must win (0: any pot)
    sb_counts_as_bb: bool = False   # Pot-Limit 6's option
    scoop: int = 0                  # a split game's kill: a scoop of a pot this big forces it (Kill Pots 8); 0: legs
    button: str = "moving"          # "moving" | "dead" (Blinds 1)
    split: bool = False             # a high-low split game (Omaha eight or better)

    @property
    def kill_scale(self) -> float:
        return KILL.get(self.kill, 1.0)

    def limits(self, scale: float = 1.0) -> Limits:
        if self.structure == "limit":
            return Limits("limit", int(self.small_bet * scale), int(self.big_bet * scale))
        return Limits(self.structure, int(self.big_blind * scale), int(self.big_blind * scale))


@dataclass
class Posts:
    """What the rules require of the next deal: the seats dealt in, the button, who posts what live and dead,
    the killer, and the seats that owe a post and are not dealt in to make it (a due kill: Kill Pots 6)."""
    button: int
    order: tuple[int, ...]
    small_blind: int | None
    big_blind: int | None
    live: dict[int, int] = field(default_factory=dict)
    dead: dict[int, int] = field(default_factory=dict)
    killer: int | None = None
    kill_owed_away: int | None = None
    small_place: int | None = None      # the small blind's seat, occupied or not (Blinds 1b)

    def deal(self, game: Game, stacks: dict[int, int], posted: dict[int, int] | None = None) -> Deal:
        """The :class:`Deal` of these posts (``posted``: the live posts as actually made, when they differ)."""
        live = self.live if posted is None else posted
        scale = game.kill_scale if self.killer is not None and self.killer in live else 1.0
        return Deal(self.button, self.order, {s: stacks[s] for s in self.order}, dict(live),
                    {s: a for s, a in self.dead.items() if s in live}, self.big_blind, game.limits(scale),
                    self.small_blind, game.sb_counts_as_bb and game.structure == "pot-limit", split=game.split)


def _after(seat: int, among: list[int]) -> int:
    among = sorted(among)
    return next((s for s in among if s > seat), among[0])


def _between(a: int, b: int, seat: int, seats: int) -> bool:
    """``seat`` strictly after ``a`` and before ``b``, clockwise round a table of ``seats``."""
    return 0 < (seat - a) % seats < (b - a) % seats


class TableReferee:
    """The table, hand after hand: fed the dealer's taps between hands (:meth:`tap`), it says what the next deal
    requires (:meth:`next_posts`), and learns each hand's outcome (:meth:`hand_played`) from the hand referee.

    >>> t = TableReferee(Game("no-limit", 1, 2, kill="full"), seats=6)
    >>> for s in (1, 3, 5): t.tap("sit", s, 100)
    >>> t.place_button(5)
    >>> p = t.next_posts()
    >>> p.order, p.live
    ((1, 3, 5), {1: 1, 3: 2})
    """

    def __init__(self, game: Game, seats: int) -> None:
        self.game = game
        self.seats = seats
        self.stacks: dict[int, int] = {}
        self.button: int | None = None
        self.away: set[int] = set()          # sitting out: not dealt in
        self.waiting: set[int] = set()       # away, dealt in again when the big blind reaches them
        self.returning: set[int] = set()     # tapped back in: dealt in once not between the big blind and button
        self.new: set[int] = set()           # arrived, to post a big blind where they sit (Blinds 4b)
        self.stepped_away: set[int] = set()  # sat out since the last deal
        self.owes: dict[int, set[str]] = {}  # missed blinds, "sb" and "bb" (Blinds 9)
        self.holder: int | None = None       # the kill button's seat (a leg up); None: neutral
        self.due: int | None = None          # the seat that must kill the next pot
        self.parked: int | None = None       # a holder away (Kill Pots 5)
        self.killer: int | None = None       # who killed the hand being played
        self.newcomers: set[int] = set()     # sat down in the running game, no hand played out yet (Kill Pots 12)
        self.order: tuple[int, ...] = ()     # the seats the hand being played was dealt to
        self.places: tuple[int, int] | None = None      # last hand's small blind and big blind seats (Blinds 1b)
        self.dealing: tuple[int, int] | None = None     # the same of the hand being played, once it is played out

    # --- between hands ------------------------------------------------------------------------------------------
    def tap(self, action: str, seat: int, amount: int | None = None) -> None:
        """A tap of the dealer's before the next deal: ``sit`` (a player sits down with ``amount``), ``leave``,
        ``rebuy``, ``sit-out``, ``back-in``, ``wait-for-bb``."""
        if action == "sit":
            if not self.stacks:
                self._new_game()
            elif self.button is not None:
                self.new.add(seat)
                self.newcomers.add(seat)
            self.stacks[seat] = amount or 0
        elif action == "leave":
            self.stacks.pop(seat, None)
            for group in (self.away, self.waiting, self.returning, self.new, self.newcomers):
                group.discard(seat)
            self.owes.pop(seat, None)
            if self.holder == seat:     # Kill Pots 1b: the winner quit
                self.holder = None
            if not self.stacks:
                self._new_game()
        elif action == "rebuy":
            self.stacks[seat] += amount or 0
        elif action == "sit-out":
            self.away.add(seat)
            self.stepped_away.add(seat)
            if self.holder == seat:     # Kill Pots 5: the leg waits for the player's return
                self.holder, self.parked = None, seat
        elif action == "wait-for-bb":
            if seat in self.new:        # a new player waiting for the big blind (Blinds 4a)
                self.new.discard(seat)
                self.away.add(seat)
            if seat in self.away:
                self.waiting.add(seat)
        elif action == "back-in":
            if seat in self.stepped_away:       # back before a deal went by: it missed nothing
                self.away.discard(seat)
                self.stepped_away.discard(seat)
            elif seat in self.away:
                self.returning.add(seat)
            if self.parked == seat and self.holder is None:
                self.holder = seat
            self.parked = None if self.parked == seat else self.parked

    def _new_game(self) -> None:
        """Every player gone: a new game (Kill Pots 1a: the kill button neutral), nobody owes anything."""
        self.button = None
        for group in (self.away, self.waiting, self.returning, self.new, self.stepped_away, self.newcomers):
            group.clear()
        self.owes.clear()
        self.holder = self.due = self.parked = self.killer = None
        self.places = self.dealing = None

    def place_button(self, seat: int) -> None:
        """The first hand of a game: the button where it was drawn."""
        self.button = seat

    def move_button(self) -> None:
        """Blinds 1a: the button moves to the next player dealt in. Blinds 1b: it goes where last hand's small blind
        was, a player there or not."""
        assert self.button is not None
        if self._dead_button():
            assert self.places is not None
            self.button = self.places[0]
        else:
            # the next player: the first seat after it that the button there deals in (not a seat away, waiting
            # for the big blind, or new or coming back on the button, Blinds 7)
            last, seated = self.button, sorted(self.stacks)
            for seat in [s for s in seated if s > last] + [s for s in seated if s <= last]:
                self.button = seat
                if seat in self.dealt_in():
                    return
            self.button = _after(last, seated)

    def _dead_button(self) -> bool:
        """Blinds 1b applies to the next deal: a dead-button table, a hand played before it, three or more players."""
        players = [s for s in self.stacks if s not in self.away and self.stacks[s] > 0]
        return self.game.button == "dead" and self.places is not None and len(players) > 2

    # --- the next deal -----------------------------------------------------------------------------------------
    def _blinds(self, button: int, players: list[int]) -> tuple[int | None, int | None]:
        if len(players) < 2:
            return None, None
        if self.places is not None and self.game.button == "dead" and len(players) > 2:
            last_big = self.places[1]       # Blinds 1b: the big blind to the player due, the small blind behind it
            return (last_big if last_big in players else None), _after(last_big, players)
        small = button if len(players) == 2 and button in players else _after(button, players)
        return small, _after(small, players)

    def _held(self, seat: int, button: int, players: list[int]) -> bool:
        """Blinds 7: ``seat`` would come in between the big blind and the button (on the button or the small
        blind), at a table of three or more."""
        together = sorted(set(players) | {seat})
        small, _ = self._blinds(button, together)
        return len(together) > 2 and seat in (button, small)

    def dealt_in(self) -> list[int]:
        """The seats entitled to the next hand (Blinds 4, 5, 7, 9)."""
        assert self.button is not None
        button = self.button
        players = [s for s in sorted(self.stacks) if s not in self.away and self.stacks[s] > 0]
        for w in sorted(self.waiting, key=lambda s: (s - button - 1) % self.seats):
            _, big = self._blinds(button, sorted(players + [w]))
            if big == w:
                return self._without_held_new(sorted(players + [w]))
        for r in sorted(self.returning):
            if not self._held(r, button, players):
                players = sorted(players + [r])
        return self._without_held_new(players)

    def _without_held_new(self, players: list[int]) -> list[int]:
        assert self.button is not None
        return [s for s in players if not (s in self.new and self._held(s, self.button, [p for p in players
                                                                                          if p != s]))]

    def next_posts(self) -> Posts:
        """What the rules require of the next deal. Records the blinds that pass the seats left out (Blinds 9)."""
        assert self.button is not None
        g, button = self.game, self.button
        players = self.dealt_in()
        order = tuple(s for s in players if s > button) + tuple(s for s in players if s <= button)
        small, big = self._blinds(button, players)
        posts = Posts(button, order, small, big)
        posts.small_place = small if small is not None or self.places is None else self.places[1]
        if big is not None:
            posts.live = {big: g.big_blind} if small is None else {small: g.small_blind, big: g.big_blind}
            place = posts.small_place if posts.small_place is not None else button
            for seat, stack in self.stacks.items():
                if seat in players or stack <= 0 or seat in self.new:
                    continue
                if _between(button, place, seat, self.seats):
                    self.owes.setdefault(seat, set()).add("sb")
                if _between(place, big, seat, self.seats):
                    self.owes.setdefault(seat, set()).add("bb")
        if self.due is not None and g.kill in KILL:
            if self.due in players:
                posts.killer = self.due
                posts.live[self.due] = int(g.big_blind * g.kill_scale)
            else:
                posts.kill_owed_away = self.due       # Kill Pots 6: owed all the same
        heads_up = len(players) == 2
        for seat in players:
            if seat in (small, big) or seat == posts.killer or heads_up:
                continue
            owed = self.owes.get(seat, set())
            if seat in self.returning and owed:      # Blinds 9: every blind missed, up to the big blind live
                posts.live[seat] = g.big_blind if "bb" in owed else g.small_blind
                if owed == {"sb", "bb"}:
                    posts.dead[seat] = g.small_blind
            elif seat in self.new:                   # Blinds 4b: a big blind where they sit
                posts.live[seat] = g.big_blind
        for seat, amount in posts.live.items():      # short of chips: all in for what they have, live first
            posts.live[seat] = min(amount, self.stacks[seat])
        for seat, amount in posts.dead.items():
            posts.dead[seat] = min(amount, self.stacks[seat] - posts.live[seat])
        return posts

    def dealt(self, posts: Posts, posted: dict[int, int]) -> None:
        """The hand was dealt to ``posts.order`` with the live posts ``posted``: who came in, who settled."""
        self.stepped_away.clear()
        for seat in posts.order:
            self.away.discard(seat)
            self.waiting.discard(seat)
            self.returning.discard(seat)
            self.new.discard(seat)
        if posts.big_blind is not None:
            self.owes.pop(posts.big_blind, None)
        for seat in posted:
            if seat in posts.dead or posts.live.get(seat) == self.game.big_blind and seat != posts.killer:
                self.owes.pop(seat, None)
        self.killer = posts.killer if posts.killer in posted else None
        self.order = posts.order
        small = posts.small_place if posts.small_place is not None else posts.small_blind
        self.dealing = (small, posts.big_blind) if small is not None and posts.big_blind is not None else None

    # --- after the hand ----------------------------------------------------------------------------------------
    def hand_played(self, outcome: Outcome) -> None:
        """The hand was played out: the stacks it left, and the kill button (Kill Pots 1, 3, 4, 5, 7, 12)."""
        killer = self.killer
        self.places = self.dealing
        agreed = [s for s in self.order if s in self.newcomers and s != killer]
        self.newcomers -= set(self.order)
        self._legs(outcome)
        if self.game.kill in KILL and killer is not None and self.due is None and agreed:
            # Kill Pots 12: a new player played this killed pot by agreeing to kill the next; one kill a deal
            # (Kill Pots 11), and a kill the pot's result forces comes first
            self.due = agreed[0]

    def _legs(self, outcome: Outcome) -> None:
        before = dict(self.stacks)
        self.stacks.update(outcome.stacks)
        winners = outcome.pots[0].winners if outcome.pots else ()
        killer, self.killer, self.due = self.killer, None, None
        if not winners or self.game.kill not in KILL:
            return
        if self.game.scoop:
            self._scoop(outcome)
            return
        self.parked = None              # somebody else won while the holder was away: the streak is over
        if len(winners) > 1:
            if killer in winners:
                self.due = killer                   # Kill Pots 4: a killer who splits kills again
            elif self.holder not in winners:
                self.holder = None                  # Kill Pots 1c
            return
        (w,) = winners
        if w == killer:
            self.holder = self.due = w              # Kill Pots 7
        elif self.holder == w and self.stacks[w] - before[w] >= self.game.kill_qualifier:
            self.due = w                            # Kill Pots 3: the second leg
        else:
            self.holder = w

    def _scoop(self, outcome: Outcome) -> None:
        """Kill Pots 8 (and the section's introduction): in a split game, the player who takes the main pot whole,
        high and low, must kill the next pot when what they took whole comes to the set size; the kill button marks
        only that seat."""
        self.holder = None
        w = outcome.pots[0].scooped_by() if outcome.pots else None
        if w is None:
            return
        scooped = sum(p.amount for p in outcome.pots if p.scooped_by() == w)
        if scooped >= self.game.scoop:
            self.holder = self.due = w
