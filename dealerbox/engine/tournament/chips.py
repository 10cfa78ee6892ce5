"""Chips at a tournament table (Tournaments 24, 8a-8d): only the event's chip set plays; a chip coloured up
stops playing after its last level; the chip race is read from the sensors and its awards guided on the
screen. The part :class:`TournamentChips` owns the race; the rulings are ``dealerbox.tournament.table`` and ``.chips``'.

The race: when a level ends after which a chip colours up, the dealer is prompted (8a). Between hands each
player's odd chips of that value go into their bet zone and the race cards are dealt face up into the seat
zones, one per odd chip, clockwise from seat 1; the ``chip-race`` tap asks the engine to check the deal (8b)
and then shows the awards (8c, 8d); the dealer carries them out and taps again to confirm (the stacks move).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from ...tags import CardTag, ChipTag
from .. import events as te
from ..cards.misdeal import Ruling as EngineRuling
from ..state import RaceView
from .ruling import engine_ruling
from ..zones import BET_OF, zone_seat
from ..betting import TableBetting
from ..chip_trail import ChipTrail
from ..play import Play
from ..referee import Referee
from ...config import Config

if TYPE_CHECKING:
    from ...tournament.config import Tournament


@dataclass
class RaceAtTable:
    old_value: int                                           # the chip raced off
    new_value: int                                           # the smallest chip staying: the prize
    chips: dict[str, int] = field(default_factory=dict)      # odd chip uid -> seat (bet zone it sits in)
    cards: list[tuple[int, str, str]] = field(default_factory=list)   # (seat, card, uid) in the order dealt
    awarded: dict[int, int] | None = None                    # seat -> stack change, shown, awaiting the dealer
    won: dict[int, int] = field(default_factory=dict)        # seat -> new chips won, with ``awarded``

    def odd_chip(self, uid: str, seat: int) -> None:
        """A chip of the raced value was put in ``seat``'s bet zone."""
        self.chips[uid] = seat

    def chip_gone(self, uid: str) -> bool:
        """A chip left a bet zone: True when it was an odd chip of the raced value (it is no longer in the race)."""
        return self.chips.pop(uid, None) is not None

    def card_dealt(self, seat: int, card: str, uid: str) -> None:
        """A race card dealt to ``seat``."""
        self.cards.append((seat, card, uid))

    def card_gone(self, uid: str) -> None:
        """A race card taken back (to redeal a wrong race deal) is no longer dealt."""
        if self.awarded is None:
            self.cards = [c for c in self.cards if c[2] != uid]

    def shown(self, awarded: dict[int, int], won: dict[int, int]) -> None:
        """The awards are shown: they wait for the dealer's confirm."""
        self.awarded, self.won = awarded, won

    def odd(self) -> dict[int, int]:
        counts: dict[int, int] = {}
        for seat in self.chips.values():
            counts[seat] = counts.get(seat, 0) + 1
        return counts


class TournamentChips:
    """The event's chips at the table: judged against the ``event`` as they enter (where each came from is the
    ``trail``'s), the race opened when a level ends and guided to its award; stacks change in ``betting``."""

    def __init__(self, config: Config, event: Tournament | None, play: Play, referee: Referee,
                 betting: TableBetting, trail: ChipTrail) -> None:
        self.config = config
        self.event = event
        self.play = play
        self.referee = referee
        self.betting = betting
        self.trail = trail
        self.outside_chips: dict[str, tuple[int | None, str]] = {}   # chip that does not play -> (seat, rule)
        self.pot_ruled: set[tuple[int | None, str]] = set()   # (hand, rule) ruled for chips put in the pot
        self.race: RaceAtTable | None = None

    # --- chips that do not play (24, 8a) ------------------------------------------------------------------
    def entered(self, t: float, zone: str, tag: ChipTag, level: int) -> list[te.TableEvent] | None:
        """A chip reaching a zone at a tournament table: a race chip, or one that does not play (a finding, and
        it never reaches the betting); None for a chip that plays."""
        event = self.event
        if event is None:
            return None
        uid = tag.uid
        seat = BET_OF[zone]
        came = self.trail.chip_from.get(uid)
        if uid in self.outside_chips and (seat is None or (came is not None and came[0] == "pot")):
            return []   # ruled out already, moving with the pot (gathered, pushed): it still does not play
        if seat is None:
            # straight into the pot during a hand (not gathered from a bet zone, not moving within the pot)
            if zone != "pot" or not self.play.running() or (came is not None and came[0].startswith(("bet", "pot"))):
                return None
            return self._into_pot(t, tag, level, event)
        self.outside_chips.pop(uid, None)   # bet again: judged afresh
        if self.race is not None and not self.play.running() and tag.value == self.race.old_value:
            self.race.odd_chip(uid, seat)
            return []
        from ...tournament.chips import chip_does_not_play
        from ...tournament.table import foreign_chip
        house_ok = tag.house == self.config.enrolment.house
        r = foreign_chip({c.value for c in event.chips}, tag.value, house_ok, seat) \
            or chip_does_not_play(event, level, tag.value, seat)
        if r is None:
            return None
        ruled = (seat, r.rule) in self.outside_chips.values()
        self.outside_chips[uid] = (seat, r.rule)
        return [] if ruled else self.referee.rule(t, [engine_ruling(r)])

    def _into_pot(self, t: float, tag: ChipTag, level: int, event: Tournament) -> list[te.TableEvent] | None:
        """A chip put straight into the pot: outside the event's set (24) or raced off (8a), it does not play
        either; no seat is known, so the dealer is told to take it out. Once per hand and rule."""
        from ...tournament.chips import chip_does_not_play
        from ...tournament.table import foreign_chip
        house_ok = tag.house == self.config.enrolment.house
        r = foreign_chip({c.value for c in event.chips}, tag.value, house_ok, 0) \
            or chip_does_not_play(event, level, tag.value, 0)
        if r is None:
            return None
        self.outside_chips[tag.uid] = (None, r.rule)
        hand_no = self.play.hand_no
        if (hand_no, r.rule) in self.pot_ruled:
            return []
        self.pot_ruled.add((hand_no, r.rule))
        what = "another house's chip" if not house_ok else f"a {tag.value:,} chip that does not play here"
        return self.referee.rule(t, [EngineRuling(r.rule, "wager-corrected", f"Straight into the pot: {what}. It "
                                                  "does not count; take it out and hand it back to its owner", (),
                                                  severity="dealer")])

    def left(self, zone: str, tag: ChipTag) -> bool:
        """True when the chip leaving is none of the betting's business (it did not play, or it was raced)."""
        if self.race is not None and self.race.chip_gone(tag.uid):
            return True
        return tag.uid in self.outside_chips

    # --- the level ending: colour-up and race (8a) --------------------------------------------------------
    def level_changed(self, t: float, old: int, new: int) -> list[te.TableEvent]:
        """Levels ``old``..``new - 1`` ended: prompt each colour-up (8a) and open the race for its chip."""
        event = self.event
        if event is None:
            return []
        from ...tournament.chips import colour_up, colour_up_prompt
        out: list[te.TableEvent] = []
        for ended in range(old, new):
            r = colour_up_prompt(event, ended)
            if r is None:
                continue
            out += self.referee.rule(t, [engine_ruling(r)])
            for chip, new_value in colour_up(event, ended):
                self.race = RaceAtTable(chip.value, new_value)
        return out

    # --- the race (8b, 8c, 8d) ------------------------------------------------------------------------------
    def race_card(self, zone: str, tag: CardTag) -> list[te.TableEvent] | None:
        """A card dealt to a seat zone between hands while a race is open is a race card; None otherwise."""
        race = self.race
        seat = zone_seat(zone)
        if race is None or self.play.running() or not race.chips or seat is None:
            return None
        race.card_dealt(seat, tag.card, tag.uid)
        return []     # a race card is no hole card: nothing of a hand to report

    def hand_dealt(self) -> None:
        """A hand dealt ends a race left open (unconfirmed awards too): its chips bet again."""
        self.race = None

    def race_card_gone(self, uid: str) -> None:
        """A race card taken back (to redeal a wrong race deal) is no longer dealt."""
        if self.race is not None:
            self.race.card_gone(uid)

    def race_tap(self, t: float) -> list[te.TableEvent]:
        """The ``chip-race`` tap: check the race deal (8b); right, show the awards (8c, 8d); tapped again once
        the awards are shown, the dealer confirms them: the stacks change and the race is over."""
        race = self.race
        if race is None or self.play.running():
            return []
        if race.awarded is not None:
            self.race = None
            return [e for seat, delta in sorted(race.awarded.items())
                    for e in self.betting.chips_changed(t, seat, delta, "race")]
        from ...tournament.chips import ChipRace, award, deal_errors
        odd = race.odd()
        stacks = self.betting.stacks
        left = frozenset(s for s, n in odd.items() if stacks.get(s, 0) <= n * race.old_value)
        chip_race = ChipRace(race.old_value, race.new_value, odd, left)
        errors = deal_errors(chip_race, [(seat, card) for seat, card, _ in race.cards])
        if errors:
            return self.referee.rule(t, [engine_ruling(r) for r in errors])
        cards: dict[int, tuple[str, ...]] = {}
        for seat, card, _ in race.cards:
            cards[seat] = cards.get(seat, ()) + (card,)
        result = award(chip_race, cards)
        # the odd chips leave; each winner gets one new chip
        race.shown({seat: result.chips.get(seat, 0) * race.new_value - n * race.old_value for seat, n in odd.items()},
                   {seat: result.chips.get(seat, 0) for seat in odd})
        return self.referee.rule(t, [engine_ruling(r) for r in result.rulings])

    def race_view(self) -> RaceView | None:
        """The open race as the screen guides it; None at a cash table, with no race open, or during a hand."""
        race = self.race
        if race is None or self.play.running():
            return None
        colours = {c.value: c.colour for c in self.event.chips} if self.event is not None else {}
        cards: dict[int, tuple[str, ...]] = {}
        for seat, card, _ in race.cards:
            cards[seat] = cards.get(seat, ()) + (card,)
        won = tuple(sorted(race.won.items())) if race.awarded is not None else None
        return RaceView(race.old_value, race.new_value, colours.get(race.old_value, ""),
                        colours.get(race.new_value, ""), tuple(sorted(race.odd().items())),
                        tuple(sorted(cards.items())), won)
