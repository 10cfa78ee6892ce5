"""Chips and betting: read wagers from chip tags moving through the bet zones, follow the turn, keep the pots
and rule on every irregularity of the "Chips and betting" table (RULES.md). docs/betting.md has the full story.

Two objects, and the modules a reader looks for:

- :class:`TableBetting` (``table_betting``) lives across hands: stacks (buy-in - what went in + what was won;
  no stack sensors), missed blinds and new players, the dead-button history, kill legs, and the taps about
  them (``sit``, ``leave``, ``rebuy``, ``wait_for_bb``, ``back_in``, ``sit_out``, ``kill_puck``).
- :class:`HandBetting` (``hand_betting``) follows one hand: posts, bets, calls, raises, checks (dealer tap),
  folds (the engine calls ``fold`` when the cards reach the muck), all-ins, side pots, the odd chip. It is a
  coordinator of parts, each owning its state and handed its collaborators: ``ledger`` (the round, who is
  live, what went in, the stacks, the pots), ``chip_motions`` (chips in the bet zones become motions, motions
  become wagers; take-backs; ``tick``), ``posting`` (blinds, missed blinds, straddle, kill; the findings of the
  hand's start), ``antes``, ``wager_rules`` (what a wager may be, the ruling when it is not, recording it),
  ``betting_turn`` (the order of action, out-of-turn actions, ``check``, ``fold``, ``answer``, a dead hand),
  ``questions`` (asking the dealer what the chips cannot tell) and ``betting_round`` (the round's state as
  values: a copy is the undo point of a short call taken back, Betting 12). docs/betting.md, "The parts of a
  hand", says who owns what.

The engine calls ``deal_started(t)`` when the first card leaves the shoe (until then chips are posts),
``declare_raise(t, seat)`` for the tap, ``next_street(t, street)`` (``"showdown"`` closes the last round),
``settle`` or ``refund`` at the end, ``lose_track(t, reason)`` when sensor frames were lost mid-hand;
``opening_events`` are the findings of ``start_hand``.
"""

from __future__ import annotations

from .chip_motions import DECLARE_HOLD, MOTION_GAP, TAKE_BACK_GAP
from .hand_betting import HandBetting
from .table_betting import TableBetting

__all__ = ["DECLARE_HOLD", "MOTION_GAP", "TAKE_BACK_GAP", "HandBetting", "TableBetting"]
