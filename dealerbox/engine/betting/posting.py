"""Posts before the cards: small and big blinds, missed blinds made up (live and dead), a new player's big blind,
the straddle and the kill; the findings raised at the start of a hand and when the deal begins."""

from __future__ import annotations

from ...rulebook import short_post_ruling
from .. import events as te
from .betting_turn import BettingTurn
from .blinds import between_big_blind_and_button
from .kill import KillTracker
from .ledger import HandLedger
from .structures import LIMIT, Structure


class Posting:
    """Part of :class:`HandBetting`: what is posted, and what is owed. It owns the posts this hand requires
    (``required``: the blinds and a kill), the blinds owed as the hand began, the findings of the hand's start
    (``opening_events``) and whether the heads-up blinds were ruled. The table's obligations across hands
    (``owes``, ``new_players``, ``waiting_for_bb``) are handed in and changed in place; ``kill`` is read."""

    def __init__(self, ledger: HandLedger, turn: BettingTurn, t0: float, owes: dict[int, set[str]],
                 new_players: set[int], waiting_for_bb: set[int], kill: KillTracker, kill_reason: str,
                 dead_button: bool, is_tournament: bool, bomb: int = 0, *, lowball_kill: bool = False) -> None:
        self.ledger = ledger
        self.lowball_kill = lowball_kill   # house option: a kill after two cards, the killer last (Kill Pots 10)
        self.deal_stage = 0                # lowball: 1 once a player has a third card (no kill), 2 once all are dealt
        self.bomb = bomb          # a bomb pot's post per player (house practice): no blinds, no kill, no straddle
        self.turn = turn
        self.t0 = t0
        self.owes = owes
        self.new_players = new_players
        self.waiting_for_bb = waiting_for_bb
        self.kill = kill
        self.dead_button = dead_button
        self.is_tournament = is_tournament
        self.heads_up_blinds_ruled = False
        self.opening_events: list[te.TableEvent] = []
        self.required: dict[int, tuple[str, int]] = {}
        # seats owing a post (a new player's big blind, missed blinds), no blind this hand, that had posted nothing
        # when the deal began: judged when the deal reaches them (Blinds 10) or passes them (they wait, Blinds 4a, 9)
        self.unposted: set[int] = set()
        led, game = ledger, ledger.game
        # blinds owed by the seats dealt in: a post pays them, a misdeal gives the post back and the debt with it
        self.owed_at_start = {s: set(owed) for s, owed in owes.items() if s in led.seats}
        if bomb:
            return   # every player posts the bomb as an ante (Antes); blinds owed wait for the next hand
        if led.positions.small_blind in led.seats:
            self.required[led.positions.small_blind] = ("sb", game.small_blind)
        if led.positions.big_blind in led.seats:
            self.required[led.positions.big_blind] = ("bb", game.big_blind)
        scale = 1.0
        if kill.enabled and kill.due is not None:
            if kill.due in led.seats:
                led.killed_by(kill.due, led.structure)
                self.required[kill.due] = ("kill", kill.amount(game.big_blind))
                scale = kill.scale
                self.opening(kill.due_rule, "info", "continues",
                             f"Seat {kill.due} must kill this pot for {kill.amount(game.big_blind)}; the "
                             f"limits are raised x{kill.scale:g}. ({kill_reason})", (kill.due,))
            else:
                self.opening("kill.6", "dealer", "continues",
                             f"Seat {kill.due} owes a required kill of {kill.amount(game.big_blind)}: it must "
                             f"be posted this hand even when sitting out; no play until it is.", (kill.due,))
        if scale != 1.0:
            led.killed_by(led.killer, Structure.from_game(game, scale))
            led.round.smallest_raise(led.structure.min_bet("preflop"))
        self.opening_checks()

    def opening(self, rule_id: str, severity: str, outcome: str, ruling: str,
                seats: tuple[int | None, ...] = ()) -> None:
        self.opening_events.append(self.ledger.finding(self.t0, rule_id, severity, outcome, ruling, seats))

    def opening_checks(self) -> None:
        led = self.ledger
        for s in led.order:
            if (s in self.new_players and between_big_blind_and_button(s, led.positions, led.table_seats)
                    and len(led.order) > 2):
                self.opening("blinds.7", "dealer", "misdeal",
                             f"Seat {s} is new and sits between the big blind and the button: it cannot be dealt in "
                             f"until the button passes. Misdeal: redeal without seat {s} (Misdeals 1i).", (s,))
        if self.dead_button and len(led.order) > 2:
            if led.positions.small_blind is None or led.button not in led.seats:
                self.opening("blinds.1", "info", "continues",
                             f"Dead button: the big blind is seat {led.positions.big_blind}"
                             + ("; no small blind this hand" if led.positions.small_blind is None else "")
                             + (f"; the button stays in front of empty seat {led.button}"
                                if led.button not in led.seats else "") + ".",
                             tuple(s for s in (led.positions.big_blind,) if s))
        if led.killer is not None:
            for s in led.order:
                if s in self.new_players:
                    self.opening("kill.12", "dealer", "continues",
                                 f"Seat {s} is new and this pot is killed: it may play only by agreeing to kill the "
                                 f"next pot.", (s,))

    def defer_unposted(self) -> set[int]:
        """The first card left the shoe: the seats that owe a post, hold no blind this hand and have posted
        nothing. Each is judged when the deal reaches it (``dealt_in_unposted``) or passes it (``dealt_around``)."""
        led = self.ledger
        if not self.bomb and self.owes:
            self.unposted = {s for s, b in led.seats.items() if self.owes.get(s) and not b.posted
                             and s != led.positions.big_blind and s not in self.required}
        return self.unposted

    def waiting(self) -> set[int]:
        """Of ``unposted``, the seats the deal may still pass: nothing of theirs in the pot or their zone yet."""
        seats = self.ledger.seats
        return {s for s in self.unposted if not (b := seats[s]).posted and not b.voluntary and not b.zone}

    def dealt_in_unposted(self, t: float, seat: int) -> list[te.TableEvent]:
        """The deal reached ``seat``, one of ``unposted``: dealt in owing a post, Blinds 10, unless it posted since."""
        self.unposted.discard(seat)
        owed, b = self.owes.get(seat), self.ledger.seats[seat]
        if not owed or b.posted:
            return []
        return [self.unposted_finding(t, seat, owed)]

    def dealt_around(self, seat: int) -> int:
        """The deal passed ``seat``, one of ``unposted``: it waits. What it still owes."""
        self.unposted.discard(seat)
        return self.owed_amount(self.owes.get(seat) or set())

    def unposted_finding(self, t: float, seat: int, owed: set[str]) -> te.FindingRaised:
        return self.ledger.finding(t, "blinds.10", "dealer", "continues",
                                   f"Seat {seat} owes {self.owed_amount(owed)} in blinds and is dealt in without "
                                   f"posting: if the player looks at the cards before posting, the hand is dead; "
                                   f"once they act and put chips in, the hand plays and they post next deal.",
                                   (seat,))

    def at_deal(self, t: float) -> list[te.TableEvent]:
        """The first card left the shoe: flags a required kill or owed blinds not posted (a seat of
        ``unposted`` is judged when the deal reaches it)."""
        led = self.ledger
        out: list[te.TableEvent] = []
        if self.bomb:
            return out   # a bomb pot has no blinds and no kill: the posts are the antes' to judge
        for seat, (kind, amount) in list(self.required.items()):
            b = led.seats[seat]
            if kind == "kill" and (b.posted != "kill" or b.wager < amount and not b.all_in):
                out.append(led.finding(t, "kill.6", "dealer", "wager-corrected",
                                               f"Seat {seat} must post the required kill of {amount} before playing "
                                               f"this hand; dealt without it, the hand plays unkilled, at the normal "
                                               f"limits.", (seat,)))
                self.unkilled(seat)
        for seat, b in led.seats.items():
            owed = self.owes.get(seat)
            if owed and not b.posted and seat != led.positions.big_blind and seat not in self.unposted:
                out.append(self.unposted_finding(t, seat, owed))
        return out

    def restore_owed(self) -> None:
        """A misdeal gave the posts back: the blinds owed as the hand began are owed again."""
        for s, owed in self.owed_at_start.items():
            self.owes.setdefault(s, set()).update(owed)

    def unkilled(self, seat: int) -> None:
        """The deal began without the required kill (Kill Pots 6 ruled once): the hand is followed as it is
        played, unkilled: the normal limits, and the killer's own blind if it sits in one (issue 18: a kill
        still expected at the first action turned every later wager into a finding)."""
        led = self.ledger
        led.killed_by(None, Structure.from_game(led.game))
        del self.required[seat]
        b = led.seats[seat]
        for kind, blind, amount in (("sb", led.positions.small_blind, led.game.small_blind),
                                    ("bb", led.positions.big_blind, led.game.big_blind)):
            if blind == seat:
                self.required[seat] = (kind, amount)
                if b.posted == "kill":
                    b.posts(kind)
        if not led.round.voluntary_actions:
            led.round.smallest_raise(led.structure.min_bet("preflop"))

    # --- posts -----------------------------------------------------------------------------------------
    def owed_post(self, owed: set[str]) -> tuple[int, int]:
        """The smallest correct make-up (live, dead), Blinds 9: all the blinds missed, live up to the big blind.
        Only the small blind missed: the small blind, live. The big blind missed: the big blind live and a
        missed small blind dead. (A new player owes the big blind, Blinds 4.)"""
        g = self.ledger.game
        if "bb" not in owed:
            return g.small_blind, 0
        return g.big_blind, (g.small_blind if "sb" in owed else 0)

    def dead_blind_owed(self, seat: int) -> int:
        """The dead part a seat still owes when it acts in turn after the deal without having posted (Blinds 10
        let it play): its chips may include that post, or not. 0 when nothing dead is owed."""
        led = self.ledger
        b = led.seats[seat]
        owed = self.owes.get(seat)
        if not owed or not led.dealing or led.street != "preflop" or b.voluntary or b.posted:
            return 0
        return self.owed_post(owed)[1]

    def owed_amount(self, owed: set[str]) -> int:
        return sum(self.owed_post(owed))

    def missed_post(self, t: float, seat: int, owed: set[str], present: int, live_due: int,
                     dead_due: int) -> list[te.TableEvent]:
        led = self.ledger
        g, b = led.game, led.seats[seat]
        out: list[te.TableEvent] = []
        # a player without enough chips makes up what it has, all in (issue 18: it was told to post more)
        short = min(live_due + dead_due, led.stack(seat)) - present
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
            out.append(led.finding(t, "blinds.9", "dealer", "wager-corrected",
                                     f"Seat {seat} {what}; {short} more.", (seat,)))
        else:
            # up to the big blind plays; what is above it goes to the middle, at most the small blind missed
            live = min(present, g.big_blind)
            dead = min(present - live, g.small_blind) if "sb" in owed else 0
            if dead:
                out.append(led.finding(t, "blinds.9", "info", "continues",
                                         f"Seat {seat} posts the missed blinds: {live} live, {dead} dead in the "
                                         f"middle. The player has the option to raise.", (seat,)))
            elif "bb" not in owed:
                out.append(led.finding(t, "blinds.9", "info", "continues",
                                         f"Seat {seat} missed the small blind and posts {live}, all live (it is not "
                                         f"over the big blind): it counts toward the call, with the option to "
                                         f"raise.", (seat,)))
        self.owes.pop(seat, None)
        self.waiting_for_bb.discard(seat)
        out += self.post(t, seat, live, dead, "missed", present)
        b.credit(max(b.credited, present + max(short, 0)))
        return out

    def try_post(self, t: float, seat: int, present: int) -> list[te.TableEvent] | None:
        led = self.ledger
        b = led.seats[seat]
        g = led.game
        kill = self.kill
        if (self.lowball_kill and b.posted in ("sb", "bb") and kill.enabled and present == kill.amount(g.big_blind)
                and b.wager < present and not led.round.voluntary_actions and self.deal_stage < 2):
            return self.lowball_kill_post(t, seat, present, b.wager)   # a blind brings its blind up to the kill
        if b.posted or self.bomb:
            return None
        out: list[te.TableEvent] = []
        req = self.required.get(seat)
        if req is not None:
            kind, amount = req
            # a big blind short of chips posts what it has (all in): not a small blind in the wrong seat
            if (led.positions.heads_up and kind == "bb" and present < min(amount, led.stack(seat))
                    and not led.round.voluntary_actions):
                out += self.blinds3(t)
            if led.positions.heads_up and kind == "sb" and present >= g.big_blind and not led.round.voluntary_actions:
                out += self.blinds3(t)
            if kind == "bb":
                self.owes.pop(seat, None)
                self.waiting_for_bb.discard(seat)
            return (out + self.post(t, seat, min(present, amount), 0, kind, present)
                    + self.short_blind(t, seat, kind, amount))
        owed = self.owes.get(seat)
        if owed and not (led.dealing and seat == led.to_act):
            live_due, dead_due = self.owed_post(owed)
            # a missed blind made up before the deal may come in short; after it, small chips are a bet
            if present >= live_due or not (led.dealing or seat in self.new_players):
                return self.missed_post(t, seat, owed, present, live_due, dead_due)
        if (self.lowball_kill and kill.enabled and present == kill.amount(g.big_blind) and seat not in self.required
                and not led.round.voluntary_actions and self.deal_stage < 2):   # once all are dealt: a bet
            return self.lowball_kill_post(t, seat, present)
        if led.dealing or led.round.voluntary_actions:
            return None
        straddle_amount = 2 * g.big_blind
        if kill.enabled and present == kill.amount(g.big_blind) and seat not in self.required:
            if led.killer is not None:
                return [led.finding(t, "kill.11", "dealer", "wager-corrected",
                                      f"Only one kill per deal: seat {led.killer} already killed this pot; seat "
                                      f"{seat} takes the {present} back.", (seat, led.killer))]
            led.killed_by(seat, Structure.from_game(g, kill.scale))
            return self.post(t, seat, present, 0, "kill", present)
        if present == straddle_amount:
            bb_posted = led.positions.big_blind in led.seats and led.seats[led.positions.big_blind].posted
            if not g.straddle or led.structure.kind == LIMIT:
                why = ("no straddle at limit poker (Blinds 15)" if led.structure.kind == LIMIT
                       else "this table does not allow a straddle")
                b.credit(present)
                return [led.finding(t, "no-limit.12", "dealer", "wager-corrected",
                                      f"Seat {seat} put {present} in before the deal but {why}: take it back.",
                                      (seat,))]
            if seat != led.positions.straddle or not bb_posted:
                b.credit(present)
                return [led.finding(t, "no-limit.12", "dealer", "wager-corrected",
                                      f"Only the player left of the big blind (seat {led.positions.straddle}) may "
                                      f"straddle: "
                                      f"seat {seat} takes the {present} back.", (seat,))]
            out = self.post(t, seat, present, 0, "straddle", present)
            out.append(led.finding(t, "no-limit.12", "info", "continues",
                                     f"Seat {seat} straddles for {present}: live, and acts last before the flop.",
                                     (seat,)))
            return out
        return None

    def deal_reached(self, stage: int) -> None:
        """Lowball: a player got a third card (``stage`` 1), every starting card is dealt (2)."""
        self.deal_stage = max(self.deal_stage, stage)

    def lowball_kill_post(self, t: float, seat: int, present: int, blind: int = 0) -> list[te.TableEvent]:
        """Lowball's optional kill (Kill Pots 10, a house option): after looking at two cards, before anyone has a
        third, a player with at least four kills in the stack may kill the pot; the killer acts last on the first
        round, the limits scaled as for any kill. Too late, or too short: the chips go back (kill.10). A blind
        may kill too (docs/draw.md): ``blind``, the chips it posted, are part of the kill and of its stack before."""
        led, kill = self.ledger, self.kill
        g = led.game
        b = led.seats[seat]
        if led.killer is not None:
            return [led.finding(t, "kill.11", "dealer", "wager-corrected",
                                f"Only one kill per deal: seat {led.killer} already killed this pot; seat "
                                f"{seat} takes the {present} back.", (seat, led.killer))]
        why = ""
        if self.deal_stage:
            why = "a player in the game has received a third card, and then the pot may no longer be killed"
        elif led.stack(seat) + blind < 4 * present:
            why = (f"a voluntary killer needs at least four times the kill blind in the stack ({4 * present}) before "
                   f"posting, and seat {seat} has {led.stack(seat) + blind}")
        if why:
            b.credit(present)
            back = present - blind
            return [led.finding(t, "kill.10", "dealer", "wager-corrected",
                                f"Seat {seat} cannot kill the pot for {present}: {why}. Seat {seat} takes the "
                                f"{back} back; the pot plays unkilled.", (seat,))]
        led.killed_by(seat, Structure.from_game(g, kill.scale), acts_last=True)
        led.round.smallest_raise(led.structure.min_bet("preflop"))
        out = self.post(t, seat, present - blind, 0, "kill", present)
        own = f" (its blind of {blind} is part of it)" if blind else ""
        out.append(led.finding(t, "kill.10", "info", "continues",
                               f"Seat {seat} kills the pot for {present}{own} after looking at two cards: the limits "
                               f"are raised x{kill.scale:g}, and seat {seat} acts last on this betting round.",
                               (seat,)))
        return out

    def blinds_ruled(self) -> None:
        """The tournament's blind check ruled on this hand's blinds: Blinds 3 is not judged again."""
        self.heads_up_blinds_ruled = True

    def blinds3(self, t: float) -> list[te.FindingRaised]:
        led = self.ledger
        if self.heads_up_blinds_ruled:
            return []
        self.heads_up_blinds_ruled = True
        if self.is_tournament:
            # Tournaments 31 in place of Blinds 3 (dead button or not); its words are the tournament package's
            from ...tournament.table import check_blinds, heads_up
            big = led.positions.big_blind
            if big is None:
                return []     # heads-up always has a big blind: nothing to rule without one
            r = check_blinds(heads_up(led.button, {led.button, big}), big, led.button,
                             action_started=False)
            return [led.finding(t, r.rule, r.severity, r.outcome, r.ruling + ".", r.seats)] if r is not None else []
        return [led.finding(t, "blinds.3", "dealer", "misdeal",
                             f"Heads-up the small blind is on the button: seat {led.button} posts "
                             f"{led.game.small_blind}, seat {led.positions.big_blind} posts {led.game.big_blind}. "
                             f"Misdeal: correct the blinds and redeal.", (led.button, led.positions.big_blind))]

    def post(self, t: float, seat: int, live: int, dead: int, kind: str, present: int) -> list[te.TableEvent]:
        led = self.ledger
        b = led.seats[seat]
        live = min(live, led.stack(seat))
        dead = min(dead, led.stack(seat) - live)
        led.take(seat, live + dead)
        b.post(live, present, kind, led.stack(seat) == 0)
        if dead:
            led.dead_in(seat, dead)
        led.round.posted(b.wager, kind in ("straddle", "kill"), led.game.big_blind if led.positions.big_blind else 0)
        out: list[te.TableEvent] = [te.ActionTaken(t, led.hand, seat, "straddle" if kind == "straddle" else "post",
                                                   live + dead, b.wager, led.street)]
        if not led.round.voluntary_actions:
            led.round.turn_order(self.turn.preflop_order())
            # a blind all in for its post can leave one player with nothing to call: nobody is to act
            out += self.turn.advance(t)
        return out

    def bring_up(self, seat: int, due: int) -> None:
        """A blind posted short of its level's amount (Tournaments 7) counts as ``due`` (what the stack allows):
        the chips the dealer then adds make it up, silently."""
        led = self.ledger
        b = led.seats[seat]
        add = min(due - b.wager, led.stack(seat))
        if add <= 0 or not b.posted:
            return
        led.take(seat, add)
        b.post(add, b.credited, b.posted, led.stack(seat) == 0)
        led.round.posted(b.wager, False, led.game.big_blind if led.positions.big_blind else 0)

    def short_blind(self, t: float, seat: int, kind: str, due: int) -> list[te.TableEvent]:
        """A blind all-in for less at a tournament table: Tournaments 19 (no make-up owed if it wins)."""
        led = self.ledger
        b = led.seats[seat]
        if not self.is_tournament or kind not in ("sb", "bb") or led.stack(seat) or b.wager >= due:
            return []
        what = "small blind" if kind == "sb" else "big blind"
        return [led.finding(t, "tournament.19", "info", "continues",
                              short_post_ruling(seat, b.wager, due, what) + ".", (seat,))]
