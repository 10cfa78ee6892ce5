"""Which fault-injection class makes each Cards, Chips and betting, and Showdown row happen (issue 18), and why
the rows no class injects are left out. tests/faults/test_coverage.py holds this map to the catalogue: a new row
must land in one of the two tables, so a row can never silently go untested.

``betting:Name`` is a class of tests/faults/players.py (HandBetting with pokerkit's hands); ``table:kind`` a fault
class of tests/faults/table_run.py (whole hands through the Pipeline: the simulator's staged faults, the taps
edited into its hands, and the card faults staged in tests/faults/staged_cards.py); ``session:kind`` a fault
class of tests/faults/sessions.py (sessions of hands through the Pipeline, the fault spanning hands: kills,
missed blinds, a deck change); ``arrival:kind`` a class of tests/faults/arrivals.py (a player sitting down
mid-session); ``dead-button:kind`` a class of tests/faults/dead_button.py (a dead-button table, players leaving
and arriving); ``split:kind`` a table class staged in the split games (Omaha high-low), whose showdowns raise the
split's info rows; ``option:kind`` a class of tests/faults/pot_option.py (Pot-Limit 6's option);
``showdown:kind`` a table class of the showdown slice (tests/faults/test_table_faults.py), which counts the info
rulings every showdown raises (the order of showing, cards speak) and a tied pot's odd chip (Ties 5a), each tied
pot's shares checked against our own referee's (tests/faults/odd_chip.py).
"""

from __future__ import annotations

INJECTED: dict[str, tuple[str, ...]] = {
    # --- cards ---------------------------------------------------------------------------------------------------
    "misdeal.1b": ("table:stub-cards-flashed",),
    "misdeal.1c": ("table:two-boxed-cards",),
    "misdeal.1d": ("table:two-extra-cards",),
    "misdeal.1e": ("table:deal-short",),
    "misdeal.1f": ("table:out-of-sequence",),
    "misdeal.1g": ("table:button-misplaced",),
    "misdeal.1h": ("table:first-card-wrong-seat", "table:out-of-sequence"),
    "misdeal.1i": ("table:card-to-empty-seat",),
    "misdeal.1j": ("table:dealt-out",),
    "misdeal.2": ("table:button-moved-after-action", "table:card-to-a-hand-after-action"),
    "holdem.1": ("table:exposed-in-deal", "table:first-card-exposed"),
    "holdem.2": ("table:four-card-flop",),
    "holdem.3": ("table:premature-flop",),
    "holdem.4": ("table:premature-turn-or-river",),
    "holdem.5": ("table:extra-card", "table:two-extra-cards"),
    "irregularity.1": ("table:button-moved-after-action",),
    "irregularity.3": ("table:other-deck", "table:duplicate-card"),
    "irregularity.4": ("table:duplicate-card",),
    "irregularity.7": ("table:boxed-card", "table:two-boxed-cards"),
    "irregularity.8": ("table:joker", "session:joker-kept"),
    "irregularity.10": ("table:deck-short",),
    "irregularity.11": ("table:extra-card",),
    "irregularity.12": ("table:exposed-tap", "table:stub-cards-flashed", "table:hole-card-on-board",
                        "table:folded-card-on-board"),
    "irregularity.14": ("table:card-dropped",),
    "irregularity.15": ("table:premature-flop", "table:premature-turn-or-river"),
    "dead-hand.1d": ("table:card-to-a-hand-after-action",),
    "dead-hand.1e": ("session:joker-kept",),
    "dead-hand.3": ("table:card-into-another-hand",),
    "procedures.22": ("table:muck-picked",),
    "procedures.23": ("table:card-after-the-hand",),
    # --- chips and betting ---------------------------------------------------------------------------------------
    "betting.3": ("betting:RaiseNotAllowed",),
    "betting.4": ("betting:HeadsUpPastTheCap",),
    "betting.5": ("betting:RaiseNotAllowed",),
    "betting.6": ("betting:UnderRaise",),
    "betting.7": ("table:small-chip",),
    "betting.10": ("betting:OutOfTurnCall", "betting:ChipsFromAFoldedSeat", "table:check-out-of-turn",
                   "table:check-raise-out-of-turn"),
    "betting.12": ("betting:ShortCall", "table:short-call"),
    "betting.14": ("betting:StringRaise", "betting:ShortRaise", "table:string-raise"),
    "betting.15": ("betting:LoneChip",),
    "betting.16": ("betting:ShortCall", "betting:ShortRaise", "table:short-call"),
    "no-limit.2": ("betting:ShortRaise",),
    "no-limit.3": ("betting:RaiseNotAllowed",),
    "no-limit.9": ("betting:LoneChip",),
    "no-limit.10": ("betting:ShortRaise",),
    "no-limit.12": ("betting:StraddleOutOfPlace", "betting:StraddleInPlace"),
    "pot-limit.1": ("betting:OverThePot",),
    "pot-limit.4": ("betting:OverThePot",),
    "pot-limit.6": ("option:pot-limit-6-over-the-option",),
    "pot-limit.7": ("betting:PotSizedChip",),
    "procedures.3": ("betting:ForeignChip", "table:foreign-chip", "table:unknown-chip"),
    "blinds.1": ("dead-button:big-blind-leaves", "dead-button:small-blind-leaves"),
    "blinds.3": ("table:heads-up-blinds-reversed",),
    "blinds.7": ("arrival:new-player-dealt-in-between",),
    "blinds.9": ("session:make-up-short", "session:sit-out-and-make-up"),
    "blinds.10": ("session:back-in-without-posting",),
    "kill.1": ("session:kill-button-misplaced",),
    "kill.2": ("session:killed-hands", "session:half-killed-hands"),
    "kill.3": ("session:kill-not-posted", "session:half-kill-not-posted", "session:killed-hands",
               "session:kill-button-misplaced"),
    "kill.4": ("session:killer-splits",),
    "kill.5": ("session:leg-holder-steps-away",),
    "kill.6": ("session:kill-not-posted", "session:half-kill-not-posted", "session:kill-by-another-seat"),
    "kill.7": ("session:killed-hands", "session:half-killed-hands"),
    "kill.8": ("session:scooped-hands", "session:scoop-kill-not-posted"),
    "kill.9": ("session:short-call-in-a-killed-pot",),
    "kill.10": ("session:lowball-kill-after-a-third-card", "session:lowball-kill-short",
                "session:lowball-killed-hands"),
    "kill.11": ("session:kill-by-another-seat",),
    "kill.12": ("session:new-player-in-a-killed-pot",),
    "procedures.21": ("session:deck-changed-early",),
    # --- showdown ------------------------------------------------------------------------------------------------
    "showdown.1": ("table:mucked-unshown",),
    "showdown.2": ("showdown:exposed-tap",),
    "showdown.3": ("table:wrong-award", "table:wrong-push-to-a-loser", "table:wrong-push-side-pot",
                   "table:wrong-push-uncalled", "table:wrong-push-split"),
    "showdown.7": ("showdown:exposed-tap",),
    # every tied pot of the showdown slice (hold'em and Omaha, side pots, the split games' halves) checked against
    # our referee's Ties 5a split and the ruling's odd-chip seat, a minimum of them counted
    "ties.5a": ("showdown:exposed-tap",),
    # the split games' showdown rows, at info: every split-game hand of the table run's split slice that reaches
    # a showdown says how its pots split (a fault staged in the hand and its remedy carried out first)
    "highlow.1": ("split:wrong-award", "split:boxed-card", "split:short-call"),
    "highlow.2": ("split:wrong-award", "split:boxed-card", "split:short-call"),
    "ties.5c": ("split:wrong-award", "split:boxed-card", "split:short-call"),
}

# info rulings raised alongside a class's ruling (the companion), not as its ruling
COMPANIONS = {"irregularity.15": "holdem.3/holdem.4's info companion",
              "kill.3": "the info announcement, at the hand's start, of the kill that kill.6 finds not posted",
              "irregularity.12": "each flashed stub card, before the second makes it misdeal.1b"}

# rows that rule nothing of their own (the engine raises no finding for them): how a hand is played, which a
# quiet class plays, its property (nothing above info, pokerkit's stacks, and the kill that follows posted where
# the engine asks for it) proving the engine follows the row
PLAYED = {"kill.2": "a killed pot played: the killer's kill is live, it acts in turn, the limits are x2 (x1.5 "
                    "half); pokerkit referees it with the kill as a negative blind and scaled bet sizes",
          "kill.5": "a leg holder steps away and is back before another pot is won: the leg is kept, so its next "
                    "win makes the kill due, which the simulator (following the legs itself) posts"}

NOT_INJECTED: dict[str, str] = {}

# rows of games the simulator does not deal yet (not in dealerbox.sources.sim.referee.VARIANTS): the harnesses play
# simulated hands, so such a row would wait for it. None now: lowball's kill (Kill Pots 10) is dealt at 27td
GAME_NOT_DEALT: dict[str, str] = {}


def report(rows: set[str]) -> str:
    """'N of M rows injected' over the Cards, Chips and betting, and Showdown rows, and the ones left out."""
    return f"{len(set(INJECTED) & rows)} of {len(rows)} rows injected; left out: {sorted(rows - set(INJECTED))}"
