"""The deal of the starting hands: one card at a time, clockwise from the first seat left of the button, one
round per hole card. :class:`Deal` checks every card against that sequence and returns rulings (Misdeals 1,
Hold'em 1 and 5, Irregularities 7, 8, 11).

>>> d = Deal(order=(4, 6, 1), rounds=2, first_player_rule="holdem.5", exposed_rule="holdem.1")
>>> [d.card_to_seat(s, f"c{i}", {1, 4, 6}, window=True) for i, s in enumerate((4, 6, 1, 4, 6, 1))]
[[], [], [], [], [], []]
>>> d.dealt_all
True
"""

from __future__ import annotations

from collections.abc import Collection

from .draws import Draws
from .misdeal import Ruling, misdeal


class Deal:
    def __init__(self, order: tuple[int, ...], rounds: int, *, first_player_rule: str | None = "holdem.5",
                 exposed_rule: str | None = "holdem.1") -> None:
        self.order = order
        self.rounds = rounds
        self.slots = [s for _ in range(rounds) for s in order]
        self.k = 0                                         # next slot of the sequence
        self.held: dict[int, list[str]] = {s: [] for s in order}   # uids that belong to each seat's hand
        self.owed: dict[int, str] = {}                     # seat -> scrap card (boxed/joker) it replaces
        self.replacement_due: dict[int, str] = {}          # seat -> exposed card replaced after the deal
        self.extras: list[tuple[int, str]] = []
        self.exposed: list[str] = []                       # hole cards exposed by the dealer
        self.exposed_other: list[str] = []                 # other cards exposed by the dealer (stub, burn)
        self.boxed: list[str] = []                         # names of the boxed cards found
        self.scraps: set[str] = set()                      # uids ruled scraps of paper (boxed cards, jokers)
        self.first_uid: str | None = None
        self.finished = False                              # the deal is over (burn, board or action)
        self.first_player_rule = first_player_rule
        self.exposed_rule = exposed_rule
        self.jokers: dict[int, str] = {}                   # seat -> joker uid still in that seat
        self.faces: dict[str, str] = {}                    # card name -> uid dealt this hand (Irregularities 4)
        self.last_dealt: str | None = None
        self.draws = Draws()                               # a draw game's draws: they change the cards held
        self.early: tuple[int, str, bool] | None = None    # (seat, action, misdeal window then) before the deal's end
        self.early_told = False                            # the dealer was told the deal goes on after it
        self.around: list[int] = []                        # seats passed that may be (owing a post): not dealt in

    @property
    def dealt_all(self) -> bool:
        return self.k >= len(self.slots)

    def holder(self, uid: str) -> int | None:
        """The seat whose hand holds ``uid`` (wherever the card lies now); None: no seat's hole card."""
        return next((seat for seat, uids in self.held.items() if uid in uids), None)

    def seat_of(self, uid: str) -> int | None:
        for seat, uids in self.held.items():
            if uid in uids:
                return seat
        for seat, u in (*self.owed.items(), *self.replacement_due.items()):
            if u == uid:
                return seat
        return None

    def expected_seat(self) -> int | None:
        return self.slots[self.k] if self.k < len(self.slots) else None

    # --- cards reaching a seat ----------------------------------------------------------------------
    def off_table(self, seat: int, uid: str) -> None:
        """The card due to ``seat`` was dealt off the table: it is that seat's, in its place in the sequence."""
        if self.first_uid is None:
            self.first_uid = uid
        self.held[seat].append(uid)
        self.k += 1
        self.last_dealt = uid

    def to_seat_zone(self, uid: str) -> None:
        """A card reached a seat's zone: the last one dealt (the ``exposed`` tap names it when it names none)."""
        self.last_dealt = uid

    def joker_held(self, seat: int, uid: str) -> None:
        self.jokers[seat] = uid

    def joker_mucked(self, seat: int) -> None:
        """The joker ``seat`` held reached the muck."""
        del self.jokers[seat]

    def taken_out(self, seat: int | None, uid: str) -> bool:
        """``uid`` left ``seat`` for no antenna: True for a scrap (a boxed card or a joker: "take it out" is its
        remedy, Irregularities 7/8), which ``seat`` then no longer holds, as if set aside in the muck."""
        if uid not in self.scraps:
            return False
        if seat is not None and self.jokers.get(seat) == uid:
            del self.jokers[seat]
        return True

    def face_seen(self, card: str, uid: str) -> str:
        """A card of face ``card`` was dealt: the uid of the first card of that face dealt this hand (``uid`` when
        it is the first; another uid means two cards of one face are in play, Irregularities 4)."""
        return self.faces.setdefault(card, uid)

    def card_to_seat(self, seat: int, uid: str, entitled: set[int], window: bool, acted: bool = False,
                     waiting: Collection[int] = ()) -> list[Ruling]:
        """A card from the shoe reached ``seat``; ``acted``: betting has begun (a voluntary action). ``entitled``:
        the seats that may get a card; a seat outside this deal's order is refused as well. ``waiting``: seats the
        deal may pass (they owe a post and put nothing in): passed on the way to ``seat``, each leaves the deal's
        order and is listed in ``around``, not a card out of sequence."""
        if seat not in entitled or seat not in self.held:
            return misdeal("misdeal.1i", f"a card went to seat {seat}, which is empty or not entitled to a hand",
                           window, seats=(seat,))
        if waiting and not self.finished:
            self._pass_to(seat, waiting)
        if self.first_uid is None:
            self.first_uid = uid
            if seat != self.slots[0]:
                self.held[seat].append(uid)
                return misdeal("misdeal.1h", f"the first card went to seat {seat}; it must go to seat "
                                             f"{self.slots[0]}, the first seat left of the button",
                               window, seats=(seat, self.slots[0]))
        if seat in self.owed and seat != self.expected_seat():
            # The replacement of a scrap card, now or after the round (Irregularities 7).
            del self.owed[seat]
            self.held[seat].append(uid)
            return []
        if self.finished or self.k >= len(self.slots):
            if seat in self.replacement_due:
                del self.replacement_due[seat]
                self.held[seat].append(uid)
                return []
            if acted:
                self.held[seat].append(uid)
                return misdeal("misdeal.1e", f"seat {seat} was dealt a card after the betting began and holds "
                                             f"{len(self.held[seat])} cards", window, seats=(seat,),
                               short_seats=(seat,))
            return self._extra(seat, uid, window)
        if seat == self.slots[self.k]:
            self.held[seat].append(uid)
            self.k += 1
            return []
        if len(self.held[seat]) >= self.rounds:
            return self._extra(seat, uid, window)
        self.held[seat].append(uid)
        return misdeal("misdeal.1f", f"seat {seat} got a card out of the clockwise sequence (seat "
                                     f"{self.slots[self.k]} was next)", window, seats=(seat, self.slots[self.k]))

    def _pass_to(self, seat: int, waiting: Collection[int]) -> None:
        """The card went to ``seat``: every seat before its next place in the sequence that may be passed and holds
        no card was dealt around. None is passed unless all the seats between may be (else: out of sequence)."""
        slots, held = self.slots, self.held
        j = next((i for i in range(self.k, len(slots)) if slots[i] == seat), None)
        if j is None or j == self.k:
            return
        passed = set(slots[self.k:j])
        if not all(s in waiting and not held[s] for s in passed):
            return
        self.around += [s for s in self.order if s in passed]
        self.order = tuple(s for s in self.order if s not in passed)
        self.slots = [s for s in slots if s not in passed]
        for s in passed:
            del held[s]

    def take_around(self) -> list[int]:
        """The seats the deal passed since last asked (see ``card_to_seat``)."""
        around, self.around = self.around, []
        return around

    def _extra(self, seat: int, uid: str, window: bool) -> list[Ruling]:
        self.extras.append((seat, uid))
        first = self.order[0]
        if len(self.extras) >= 2:
            rule = (self.first_player_rule if self.first_player_rule and self.extras[0][0] == first
                    else "misdeal.1d")
            seats = tuple(dict.fromkeys(s for s, _ in self.extras))
            return misdeal(rule, f"{len(self.extras)} extra cards were dealt to the starting hands (seats "
                                 f"{', '.join(map(str, seats))})", window, seats=seats)
        rule = self.first_player_rule if self.first_player_rule and seat == first else "irregularity.11"
        return [Ruling(rule, "card-replaced", f"One extra card went to seat {seat}: the last card it received goes "
                                              "back as the burn card; deal on.", (seat,))]

    # --- a draw game's draws (cards/draw.py) -------------------------------------------------------------
    def draw_begins(self) -> None:
        self.draws.begin()

    def betting_began(self) -> None:
        """A betting action: a draw being dealt is over."""
        self.draws.betting_began()

    def thrown_away(self, seat: int, uid: str) -> None:
        """``seat`` threw ``uid`` away in a draw: no longer a card of its hand."""
        if uid in self.held.get(seat, ()):
            self.held[seat].remove(uid)
        self.draws.thrown_away(seat, uid)

    def back_to_stub(self, uid: str, out_of_play: set[int]) -> bool:
        """During a draw, ``uid`` left the muck for a stub that ran short: True if it is a dead card of one of
        ``out_of_play`` (a folded or dead hand), which is then no longer that seat's."""
        for seat in out_of_play:
            if uid in self.held.get(seat, ()):
                self.held[seat].remove(uid)
                return True
        return False

    def drawn(self, seat: int, uid: str) -> bool:
        """``seat`` was given ``uid`` in a draw: a card of its hand now. True when its draw is complete."""
        self.held.setdefault(seat, []).append(uid)
        self.last_dealt = uid
        return self.draws.given(seat)

    # --- scraps and exposed cards --------------------------------------------------------------------
    def scrap(self, seat: int, uid: str, card: str, rule: str, window: bool) -> list[Ruling]:
        """A boxed card (Irregularities 7) or a joker (Irregularities 8) reached ``seat``: it is replaced."""
        if uid in self.held.get(seat, ()):
            self.held[seat].remove(uid)
        self.scraps.add(uid)
        if rule == "irregularity.7":
            self.boxed.append(card)
            if len(self.boxed) >= 2:
                return misdeal("misdeal.1c", f"{len(self.boxed)} boxed cards found", window, seats=(seat,),
                               cards=tuple(self.boxed))
        self.owed[seat] = uid
        what = "a boxed card (face up in the deck)" if rule == "irregularity.7" else "a joker, not used in this game"
        return [Ruling(rule, "card-replaced", f"{card} dealt to seat {seat} is {what}: a scrap of paper. Take it "
                                              f"out; seat {seat} gets the next card instead.", (seat,), (card,))]

    def expose(self, uid: str, card: str, seat: int | None, window: bool, hidden: str = "") -> list[Ruling]:
        """The dealer exposed ``card`` (tapped, flashed, dealt face up or off the table, put on the board).
        ``hidden``: the words' name for a card whose face is not told (a hole card put on the board may lie face
        down: its face never reaches a finding)."""
        if seat is None:
            self.exposed_other.append(uid)
            total = len(self.exposed) + len(self.exposed_other)
            if total >= 2 and not self.finished:
                return misdeal("misdeal.1b", f"{total} cards were exposed by the dealer during the deal", window)
            return []
        self.exposed.append(uid)
        rule = self.exposed_rule or "misdeal.1b"
        named = (card,) if not hidden else ()
        if uid == self.first_uid:
            return misdeal(rule, f"the first hole card dealt ({hidden or card}, seat {seat}) was exposed", window,
                           seats=(seat,), cards=named)
        if len(self.exposed) + len(self.exposed_other) >= 2:
            return misdeal(rule, "more than one hole card was exposed", window, seats=(seat,), cards=named)
        if uid in self.held.get(seat, ()):
            self.held[seat].remove(uid)
        self.replacement_due[seat] = uid
        what = f"{card} dealt to seat {seat} was exposed" if not hidden else f"Seat {seat}'s hole card is exposed"
        return [Ruling(rule, "card-replaced", f"{what}: the deal goes on. After the deal seat {seat} gets the top card "
                                              f"and {hidden or card} becomes the burn card.", (seat,), named)]

    # --- an action before the deal is complete --------------------------------------------------------------
    def action_taken(self, seat: int, action: str, window: bool) -> list[Ruling]:
        """A betting action while the deal is not over. The first one, with starting cards still to come, need not
        end the deal: the top card may still go to the player next in sequence (Misdeals 1e), so the deal is judged
        by what comes next (``dealt_on``, or ``finish`` at a second action, a burn or a gather). Any other ends it."""
        if self.early is not None or self.dealt_all:
            return self.over(window)
        self.early = (seat, action, window)
        return []

    def over(self, window: bool) -> list[Ruling]:
        """The deal is over (a burn, a board card, a second action, cards gathered): ``finish``, judged as the deal
        stood at an action taken before it (its misdeal window then: the deal was over from that action)."""
        return self.finish(self.early[2] if self.early is not None else window)

    def dealt_on(self, window: bool, taken_back: int = 0) -> list[Ruling]:
        """A starting card reached its seat in sequence after an action (``early``): the action came before the
        deal was complete (Betting 10), said once; once every starting card is out, the deal is over.
        ``taken_back``: chips of that action the seat has taken back out of its zone since (still binding,
        Betting 12, as the betting ruled when they left: the words say put them back, not leave them)."""
        out: list[Ruling] = []
        if self.early is not None and not self.early_told:
            self.early_told = True
            seat, action, _ = self.early
            chips = action not in ("check", "fold")
            done = "put chips in" if chips else f"{action}ed"
            if not chips:
                stands = f"Deal on: seat {seat}'s {action} stands"
            elif taken_back > 0:
                stands = (f"Deal on, and seat {seat} puts the {taken_back} it took back in again: its chips stand "
                          f"as its action")
            else:
                stands = f"Deal on and leave seat {seat}'s chips where they are: they stand as its action"
            out.append(Ruling("betting.10", "continues", f"Seat {seat} {done} before the deal was complete: nobody "
                                                         f"acts until every player has all its cards. {stands}, "
                                                         "binding, as nobody acts before it.", (seat,)))
        if self.dealt_all:
            out += self.finish(window)
        return out

    # --- the end of the deal -------------------------------------------------------------------------
    def finish(self, window: bool) -> list[Ruling]:
        """The deal is over (burn, board card or first action): seats dealt out or short a card."""
        if self.finished:
            return []
        self.finished = True
        counts = {s: len(self.held[s]) + (s in self.replacement_due) + (s in self.owed) for s in self.order}
        for seat in self.order:
            if counts[seat] == 0:
                return misdeal("misdeal.1j", f"seat {seat} is entitled to a hand and was dealt out", window,
                               seats=(seat,), short_seats=(seat,))
        out: list[Ruling] = []
        for seat in self.order:
            if counts[seat] != self.rounds:
                out += misdeal("misdeal.1e", f"seat {seat} holds {counts[seat]} cards instead of {self.rounds}",
                               window, seats=(seat,), short_seats=(seat,))
                if window:
                    break
        return out
