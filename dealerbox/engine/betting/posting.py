"""Posts before the cards: small and big blinds, missed blinds made up (live and dead), a new player's big blind,
the straddle and the kill; the findings raised at the start of a hand and when the deal begins."""

from __future__ import annotations

from .. import events as te
from .blinds import between_big_blind_and_button
from .structures import LIMIT, Structure


class Posting:
    """Part of :class:`HandBetting`: what is posted, and what is owed."""

    def _opening(self, rule_id, severity, outcome, ruling, seats=()) -> None:
        self.opening_events.append(self._finding(self.t0, rule_id, severity, outcome, ruling, seats))

    def _opening_checks(self) -> None:
        tb = self.table
        for s in self.order:
            if (s in tb.new_players and between_big_blind_and_button(s, self.positions, self.table_seats)
                    and len(self.order) > 2):
                self._opening("blinds.7", "dealer", "misdeal",
                              f"Seat {s} is new and sits between the big blind and the button: it cannot be dealt in "
                              f"until the button passes. Misdeal: redeal without seat {s} (Misdeals 1i).", (s,))
        if tb.config.table.button == "dead" and len(self.order) > 2:
            if self.positions.small_blind is None or self.button not in self.seats:
                self._opening("blinds.1", "info", "continues",
                              f"Dead button: the big blind is seat {self.positions.big_blind}"
                              + ("; no small blind this hand" if self.positions.small_blind is None else "")
                              + (f"; the button stays in front of empty seat {self.button}"
                                 if self.button not in self.seats else "") + ".",
                              tuple(s for s in (self.positions.big_blind,) if s))
        if self.killer is not None:
            for s in self.order:
                if s in tb.new_players:
                    self._opening("kill.12", "dealer", "continues",
                                  f"Seat {s} is new and this pot is killed: it may play only by agreeing to kill the "
                                  f"next pot.", (s,))

    def deal_started(self, t: float) -> list[te.TableEvent]:
        """The first card left the shoe: posts are in. Flags a required kill or owed blinds not posted."""
        if self.lost:
            return []         # lost track of the betting: quiet until the next deal
        out = self._sync(t)
        for seat in list(self.motions):
            out += self._close_motion(t, seat)
        if self.dealing:
            return out
        self.dealing = True
        out += self._antes_at_deal(t) if self.ante_due else []
        for seat, (kind, amount) in list(self.required.items()):
            b = self.seats[seat]
            if kind == "kill" and (b.posted != "kill" or b.wager < amount and not b.all_in):
                out.append(self._finding(t, "kill.6", "dealer", "wager-corrected",
                                         f"Seat {seat} must post the required kill of {amount} before playing "
                                         f"this hand; dealt without it, the hand plays unkilled, at the normal "
                                         f"limits.", (seat,)))
                self._unkilled(seat)
        for seat, b in self.seats.items():
            owed = self.table.owes.get(seat)
            if owed and not b.posted and seat != self.positions.big_blind:
                amount = self._owed_amount(owed)
                out.append(self._finding(t, "blinds.10", "dealer", "continues",
                                         f"Seat {seat} owes {amount} in blinds and is dealt in without posting: if "
                                         f"the player looks at the cards before posting, the hand is dead; once "
                                         f"they act and put chips in, the hand plays and they post next deal.",
                                         (seat,)))
        return out

    def _unkilled(self, seat: int) -> None:
        """The deal began without the required kill (Kill Pots 6 ruled once): the hand is followed as it is
        played, unkilled: the normal limits, and the killer's own blind if it sits in one (issue 18: a kill
        still expected at the first action turned every later wager into a finding)."""
        self.killer = None
        self.structure = Structure.from_game(self.game)
        del self.required[seat]
        b = self.seats[seat]
        for kind, blind, amount in (("sb", self.positions.small_blind, self.game.small_blind),
                                    ("bb", self.positions.big_blind, self.game.big_blind)):
            if blind == seat:
                self.required[seat] = (kind, amount)
                if b.posted == "kill":
                    b.posted = kind
        if not self.round.voluntary_actions:
            self.round.last_raise = self.structure.min_bet("preflop")

    # --- posts -----------------------------------------------------------------------------------------
    def _owed_post(self, owed: set[str]) -> tuple[int, int]:
        """The smallest correct make-up (live, dead), Blinds 9: all the blinds missed, live up to the big blind.
        Only the small blind missed: the small blind, live. The big blind missed: the big blind live and a
        missed small blind dead. (A new player owes the big blind, Blinds 4.)"""
        g = self.game
        if "bb" not in owed:
            return g.small_blind, 0
        return g.big_blind, (g.small_blind if "sb" in owed else 0)

    def _dead_blind_owed(self, seat: int) -> int:
        """The dead part a seat still owes when it acts in turn after the deal without having posted (Blinds 10
        let it play): its chips may include that post, or not. 0 when nothing dead is owed."""
        b = self.seats[seat]
        owed = self.table.owes.get(seat)
        if not owed or not self.dealing or self.street != "preflop" or b.voluntary or b.posted:
            return 0
        return self._owed_post(owed)[1]

    def _owed_amount(self, owed: set[str]) -> int:
        return sum(self._owed_post(owed))

    def _missed_post(self, t: float, seat: int, owed: set[str], present: int, live_due: int,
                     dead_due: int) -> list[te.TableEvent]:
        g, b = self.game, self.seats[seat]
        out: list[te.TableEvent] = []
        # a player without enough chips makes up what it has, all in (issue 18: it was told to post more)
        short = min(live_due + dead_due, self._stack(seat)) - present
        if short > 0:
            # the ruling is applied: the whole make-up is charged now, the chips that bring it up are silent
            live, dead = live_due, dead_due
            if dead_due and present >= g.big_blind:
                what = (f"missed the small blind too: post the small blind of {g.small_blind} as well (dead, to "
                        f"the middle)")
            elif dead_due:
                what = (f"missed both blinds: post the big blind of {g.big_blind} live and the small blind of "
                        f"{g.small_blind} dead, to the middle")
            elif "bb" in owed:
                what = f"owes the big blind of {g.big_blind}"
            else:
                what = (f"missed the small blind: post it, {g.small_blind}, live (or a big blind of {g.big_blind} "
                        f"to play at once)")
            out.append(self._finding(t, "blinds.9", "dealer", "wager-corrected",
                                     f"Seat {seat} {what}; {short} more.", (seat,)))
        else:
            # up to the big blind plays; what is above it goes to the middle, at most the small blind missed
            live = min(present, g.big_blind)
            dead = min(present - live, g.small_blind) if "sb" in owed else 0
            if dead:
                out.append(self._finding(t, "blinds.9", "info", "continues",
                                         f"Seat {seat} posts the missed blinds: {live} live, {dead} dead in the "
                                         f"middle. The player has the option to raise.", (seat,)))
            elif "bb" not in owed:
                out.append(self._finding(t, "blinds.9", "info", "continues",
                                         f"Seat {seat} missed the small blind and posts {live}, all live (it is not "
                                         f"over the big blind): it counts toward the call, with the option to "
                                         f"raise.", (seat,)))
        self.table.owes.pop(seat, None)
        self.table.waiting_for_bb.discard(seat)
        out += self._post(t, seat, live, dead, "missed", present)
        b.credited = max(b.credited, present + max(short, 0))
        return out

    def _try_post(self, t: float, seat: int, present: int) -> list[te.TableEvent] | None:
        b = self.seats[seat]
        g = self.game
        if b.posted:
            return None
        out: list[te.TableEvent] = []
        req = self.required.get(seat)
        if req is not None:
            kind, amount = req
            # a big blind short of chips posts what it has (all in): not a small blind in the wrong seat
            if (self.positions.heads_up and kind == "bb" and present < min(amount, self._stack(seat))
                    and not self.round.voluntary_actions):
                out += self._blinds3(t)
            if self.positions.heads_up and kind == "sb" and present >= g.big_blind and not self.round.voluntary_actions:
                out += self._blinds3(t)
            if kind == "bb":
                self.table.owes.pop(seat, None)
                self.table.waiting_for_bb.discard(seat)
            return out + self._post(t, seat, min(present, amount), 0, kind, present) + self._short_blind(t, seat, kind, amount)
        owed = self.table.owes.get(seat)
        if owed and not (self.dealing and seat == self.to_act):
            live_due, dead_due = self._owed_post(owed)
            # a missed blind made up before the deal may come in short; after it, small chips are a bet
            if present >= live_due or not (self.dealing or seat in self.table.new_players):
                return self._missed_post(t, seat, owed, present, live_due, dead_due)
        if self.dealing or self.round.voluntary_actions:
            return None
        straddle_amount = 2 * g.big_blind
        kill = self.table.kill
        if kill.enabled and present == kill.amount(g.big_blind) and seat not in self.required:
            if self.killer is not None:
                return [self._finding(t, "kill.11", "dealer", "wager-corrected",
                                      f"Only one kill per deal: seat {self.killer} already killed this pot; seat "
                                      f"{seat} takes the {present} back.", (seat, self.killer))]
            self.killer = seat
            self.structure = Structure.from_game(g, kill.scale)
            return self._post(t, seat, present, 0, "kill", present)
        if present == straddle_amount:
            bb_posted = self.positions.big_blind in self.seats and self.seats[self.positions.big_blind].posted
            if not g.straddle or self.structure.kind == LIMIT:
                why = ("no straddle at limit poker (Blinds 15)" if self.structure.kind == LIMIT
                       else "this table does not allow a straddle")
                b.credited = present
                return [self._finding(t, "no-limit.12", "dealer", "wager-corrected",
                                      f"Seat {seat} put {present} in before the deal but {why}: take it back.",
                                      (seat,))]
            if seat != self.positions.straddle or not bb_posted:
                b.credited = present
                return [self._finding(t, "no-limit.12", "dealer", "wager-corrected",
                                      f"Only the player left of the big blind (seat {self.positions.straddle}) may straddle: "
                                      f"seat {seat} takes the {present} back.", (seat,))]
            out = self._post(t, seat, present, 0, "straddle", present)
            out.append(self._finding(t, "no-limit.12", "info", "continues",
                                     f"Seat {seat} straddles for {present}: live, and acts last before the flop.",
                                     (seat,)))
            return out
        return None

    def _blinds3(self, t: float) -> list[te.FindingRaised]:
        if self.heads_up_blinds_ruled:
            return []
        self.heads_up_blinds_ruled = True
        if self.table.config.is_tournament:
            # Tournaments 31 in place of Blinds 3 (dead button or not); its words are the tournament package's
            from ...tournament.table import check_blinds, heads_up
            big = self.positions.big_blind
            r = check_blinds(heads_up(self.button, {self.button, big}), big, self.button, action_started=False)
            return [self._finding(t, r.rule, r.severity, r.outcome, r.ruling + ".", r.seats)]
        return [self._finding(t, "blinds.3", "dealer", "misdeal",
                             f"Heads-up the small blind is on the button: seat {self.button} posts "
                             f"{self.game.small_blind}, seat {self.positions.big_blind} posts {self.game.big_blind}. "
                             f"Misdeal: correct the blinds and redeal.", (self.button, self.positions.big_blind))]

    def _post(self, t: float, seat: int, live: int, dead: int, kind: str, present: int) -> list[te.TableEvent]:
        b = self.seats[seat]
        live = min(live, self._stack(seat))
        dead = min(dead, self._stack(seat) - live)
        self.table._stacks[seat] -= live + dead
        b.wager += live
        b.credited = present
        b.posted = kind
        if dead:
            self.dead_money[seat] = self.dead_money.get(seat, 0) + dead
        if self._stack(seat) == 0:
            b.all_in = True
        self.round.current_bet = max(self.round.current_bet, b.wager)
        if kind in ("straddle", "kill"):
            self.round.last_raise = max(self.round.last_raise, b.wager)
        r = self.round
        r.full_raise_level = max(r.full_raise_level, r.current_bet, self.game.big_blind if self.positions.big_blind else 0)
        self.round.raises = 1
        out: list[te.TableEvent] = [te.ActionTaken(t, self.hand, seat, "straddle" if kind == "straddle" else "post",
                                                   live + dead, b.wager, self.street)]
        if not self.round.voluntary_actions:
            self.round.pending = self._preflop_order()
            # a blind all in for its post can leave one player with nothing to call: nobody is to act
            out += self._advance(t)
        return out
