"""The rulings catalogue: every finding the engine can raise, one row per rule id (RULES.md is the source).

Rule ids are stable: tests, the floor dashboard and recorded logs key on them. Everything else (the
``rules`` command, the screen's citation, the floor payloads) reads this table.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..rulebook import OUTCOMES as OUTCOMES, SEVERITIES as SEVERITIES   # the vocabulary lives below the engine and the tournament rulings
from .tournament.rows import TOURNAMENT_ROWS


@dataclass(frozen=True, slots=True)
class Rule:
    id: str
    citation: str     # how the rulebook names it, for the dealer's banner: "Misdeals 1(c)"
    summary: str      # one line, our own words
    detect: str       # "S" sensors, "D" dealer tap, "S+D" either
    area: str         # "cards", "chips", "showdown" or "tournament"
    severities: tuple[str, ...] = ()   # tournament rows: the severities their rulings use
    outcomes: tuple[str, ...] = ()     # tournament rows: the outcomes their rulings use
    house: str = ""                    # a house practice's name (a table setting, off by default)

    @property
    def tournament(self) -> bool:
        """A row of RULES.md's Tournaments section: raised only at a tournament table."""
        return self.area == "tournament"


def _r(id: str, citation: str, detect: str, area: str, summary: str) -> Rule:
    return Rule(id, citation, summary, detect, area)


RULES: dict[str, Rule] = {r.id: r for r in (
    # --- cards ------------------------------------------------------------------------------------
    _r("misdeal.1b", "Misdeals 1(b)", "S+D", "cards", "Two or more cards exposed by the dealer during the deal"),
    _r("misdeal.1c", "Misdeals 1(c)", "S", "cards", "Two or more boxed cards found in the deck"),
    _r("misdeal.1d", "Misdeals 1(d)", "S", "cards", "Two or more extra cards dealt to the starting hands"),
    _r("misdeal.1e", "Misdeals 1(e)", "S", "cards", "A player was dealt the wrong number of cards"),
    _r("misdeal.1f", "Misdeals 1(f)", "S", "cards", "A card was dealt out of the clockwise sequence"),
    _r("misdeal.1g", "Misdeals 1(g)", "S", "cards", "The button was out of position"),
    _r("misdeal.1h", "Misdeals 1(h)", "S", "cards", "The first card went to a seat other than the first left of the button"),
    _r("misdeal.1i", "Misdeals 1(i)", "S", "cards", "Cards dealt to an empty seat or a player not entitled to a hand"),
    _r("misdeal.1j", "Misdeals 1(j)", "S", "cards", "A player entitled to a hand was dealt out"),
    _r("misdeal.2", "Misdeals 2", "S", "cards", "Misdeal condition found after two players behind the blinds acted: the hand plays on"),
    _r("holdem.1", "Hold'em 1", "S+D", "cards", "Exposed hole card: first one dealt is a misdeal, another single one is replaced and burned"),
    _r("holdem.2", "Hold'em 2", "S", "cards", "The flop has too many cards and must be redealt"),
    _r("holdem.3", "Hold'em 3", "S", "cards", "Flop turned before the betting was complete: reshuffle the board cards, new flop without a burn"),
    _r("holdem.4", "Hold'em 4", "S", "cards", "Turn or river turned before the betting was complete: out of play for the round"),
    _r("holdem.5", "Hold'em 5", "S", "cards", "Extra card to the first player after the deal becomes the burn card; more than one is a misdeal"),
    _r("irregularity.1", "Irregularities 1", "S", "cards", "The button was wrongly placed last hand: correct it for the next hand"),
    _r("irregularity.3", "Irregularities 3", "S", "cards", "A card with a different back appeared: all action void (found in the stub: action stands)"),
    _r("irregularity.4", "Irregularities 4", "S", "cards", "Two cards of the same rank and suit: all action void"),
    _r("irregularity.7", "Irregularities 7", "S", "cards", "A boxed card is treated as a scrap of paper and replaced"),
    _r("irregularity.8", "Irregularities 8", "S", "cards", "A joker in a game without jokers is replaced; acting on a hand holding it kills the hand"),
    _r("irregularity.10", "Irregularities 10", "S", "cards", "Cards missing from the deck do not invalidate the hand"),
    _r("irregularity.11", "Irregularities 11", "S", "cards", "One extra card dealt before the first betting round goes back as the burn card"),
    _r("irregularity.12", "Irregularities 12", "S+D", "cards", "A card flashed by the dealer, dealt off the table or a hole card put on the board counts as exposed"),
    _r("irregularity.14", "Irregularities 14", "S", "cards", "A card a player drops off the table must still be played"),
    _r("irregularity.15", "Irregularities 15", "S", "cards", "Cards dealt before the betting was complete do not play"),
    _r("dead-hand.1d", "Dead Hands 1(d)", "S", "cards", "After action, a hand without the proper number of cards is dead"),
    _r("dead-hand.1e", "Dead Hands 1(e)", "S", "cards", "A player acted on a hand holding a joker: the hand is dead"),
    _r("dead-hand.3", "Dead Hands 3", "S", "cards", "Cards thrown into another player's hand are dead"),
    _r("procedures.21", "Procedures 21", "S", "cards", "A new deck must be used a full round before it is changed"),
    _r("procedures.22", "Procedures 22", "S", "cards", "Nobody may look through the discards or the stub"),
    _r("procedures.23", "Procedures 23", "S", "cards", "After the hand, the card that would have been dealt must not be shown"),
    # --- chips and betting ------------------------------------------------------------------------
    _r("betting.3", "Betting and Raising 3", "S", "chips", "Limit: a bet and three raises at most (four on two-round games) with three or more players"),
    _r("betting.4", "Betting and Raising 4", "S", "chips", "Heads-up: raises are unlimited unless the round was capped before"),
    _r("betting.5", "Betting and Raising 5", "S", "chips", "Limit: an all-in under half a bet does not reopen the betting"),
    _r("betting.6", "Betting and Raising 6", "S", "chips", "A wager must be at least the previous bet or raise unless all-in"),
    _r("betting.7", "Betting and Raising 7", "S", "chips", "Chips smaller than the game's smallest chip do not play"),
    _r("betting.10", "Betting and Raising 10", "S+D", "chips", "Action out of turn"),
    _r("betting.12", "Betting and Raising 12", "S+D", "chips", "A player unaware of a raise may take the chips back if nobody acted after"),
    _r("betting.14", "Betting and Raising 14", "S", "chips", "String raise: chips in more than one motion without declaring a raise"),
    _r("betting.15", "Betting and Raising 15", "S", "chips", "One chip larger than the bet, put in without a word, is a call"),
    _r("betting.16", "Betting and Raising 16", "S", "chips", "Wagers and calls short of the proper amount must be brought up"),
    _r("no-limit.2", "No-Limit 2", "S", "chips", "Every bet at least the minimum bring-in unless all-in"),
    _r("no-limit.3", "No-Limit 3", "S", "chips", "A raise at least the previous bet or raise; a short all-in does not reopen the betting"),
    _r("no-limit.9", "No-Limit 9", "S", "chips", "A single chip without comment: a bet of its value when opening, a call when facing a bet"),
    _r("no-limit.10", "No-Limit 10", "S", "chips", "A raise below the minimum is brought up to the minimum"),
    _r("no-limit.12", "No-Limit 12", "S", "chips", "One live straddle, left of the big blind, twice the big blind"),
    _r("pot-limit.1", "Pot-Limit 1", "S", "chips", "A wager over the pot is reduced to the pot"),
    _r("pot-limit.4", "Pot-Limit 4", "S", "chips", "The largest raise is the pot after the call"),
    _r("pot-limit.6", "Pot-Limit 6", "S", "chips", "Option: the small blind counts as a big blind when sizing the pot preflop"),
    _r("pot-limit.7", "Pot-Limit 7", "S", "chips", "A chip larger than the pot, put in without a word, is a pot-sized bet"),
    _r("procedures.3", "Procedures 3", "S", "chips", "Chips from another establishment do not play"),
    _r("blinds.1", "Blinds 1", "S", "chips", "Moving or dead button, as the table is configured"),
    _r("blinds.3", "Blinds 3", "S", "chips", "Heads-up with two blinds: the small blind is on the button"),
    _r("blinds.7", "Blinds 7", "S", "chips", "A new player cannot be dealt in between the big blind and the button"),
    _r("blinds.9", "Blinds 9", "S+D", "chips", "Missed blinds: post them all or wait for the big blind"),
    _r("blinds.10", "Blinds 10", "S+D", "chips", "Dealt in owing a blind without posting"),
    *(
        _r(f"kill.{n}", f"Kill Pots {n}", "S", "chips", text)
        for n, text in (
            (1, "The kill button is neutral on a new game's first hand, when its holder quits, or after a split without it"),
            (2, "The killer acts in normal turn, after the player on the right"),
            (3, "First leg needs no size; the second must win at least a full bet beyond the blinds to force a kill"),
            (4, "Splitting the next pot keeps a leg; a killer who splits must kill again"),
            (5, "A player who leaves with a leg up still has it on return"),
            (6, "A required kill must be posted that hand even when quitting; no play until it is"),
            (7, "The kill is part of the pot; a killer who wins again kills again for the same amount"),
            (8, "Split-pot games: a scoop forces a kill only if the pot is at least five upper limits"),
            (9, "Unaware of the kill and short: with the kill button up the full amount is due, else chips may come back"),
            (10, "Lowball option: kill after two cards with four kills behind, killer acting last"),
            (11, "Only one kill per deal"),
            (12, "A new player may play a killed pot only by agreeing to kill the next one"),
        )
    ),
    # --- showdown and pots ------------------------------------------------------------------------
    _r("showdown.1", "Showdown 1", "S+D", "showdown", "All cards of a hand must be shown to win any part of the pot"),
    _r("showdown.2", "Showdown 2", "S", "showdown", "Cards speak: the terminal reads the hands and names each pot's winner"),
    _r("showdown.3", "Showdown 3", "S+D", "showdown", "A pot is about to be pushed to a player the cards do not make the winner"),
    _r("showdown.7", "Showdown 7", "S", "showdown", "Order of showing: last aggressor first, or first to act if checked"),
    _r("ties.5a", "Ties 5(a)", "S", "showdown", "Odd chip to the first hand clockwise from the button; side pots split separately"),
    _r("ties.5c", "Ties 5(c)", "S", "showdown", "High-low split: the odd chip between the high and the low halves goes to the high"),
    _r("highlow.1", "Omaha High-Low (cards speak, Showdown 2)", "S", "showdown", "Split game: half the pot to the best high, half to the best eight-or-better low (two hole cards, three board); one hand may scoop, tied hands share their half"),
    _r("highlow.2", "Omaha High-Low (cards speak, Showdown 2)", "S", "showdown", "Split game: no hand eligible for the pot makes an eight-or-better low, so the high takes it all"),
    # --- house practices: table settings, off by default (game.run_it, game.bomb_pots; engine/practices.py) ---
    *(Rule(id, citation, summary, detect, "house", house=house) for id, citation, detect, house, summary in (
        ("run-it.1", "No-Limit 14; House Policies 15", "D", "Run it twice",
         "Run it twice or three times only after an all-in with no more betting possible, where the table allows it"),
        ("run-it.2", "No-Limit 14; House Policies 15", "D", "Run it twice",
         "Runs agreed: board 1 is finished first, then each further run in full, in order"),
        ("boards.1", "No-Limit 14; Ties 3, 5(a)", "S", "Run it twice / double-board bomb pot",
         "A pot dealt on two or more boards is divided equally by board, odd chips to board 1; each part is split as its own pot"),
        ("bomb-pot.1", "House rule: bomb pot", "D", "Bomb pot",
         "Bomb pot: every player posts the agreed amount, no preflop betting, the hand starts on the flop"),
        ("bomb-pot.2", "House rule: bomb pot", "S", "Bomb pot",
         "Bomb pot: a player dealt in without the full post brings it up before the flop"),
        ("bomb-pot.3", "House rule: bomb pot", "D", "Bomb pot",
         "A bomb pot starts only where the table allows it, between hands, with an amount and one or two boards"),
    )),
    # --- tournaments: raised only at a tournament table (raised_at) -----------------------------------
    *(Rule(id, citation, summary, detect, "tournament", severities, outcomes)
      for id, citation, detect, severities, outcomes, summary in TOURNAMENT_ROWS),
)}


def rule(rule_id: str) -> Rule:
    """The catalogue row for ``rule_id``; a KeyError here is a bug in the engine, never in the input."""
    return RULES[rule_id]


def raised_at(rule_id: str, tournament_table: bool) -> bool:
    """Whether ``rule_id`` may be raised at this table: a tournament row never at a cash table."""
    return tournament_table or not RULES[rule_id].tournament
