"""A referee of our own (issue 31) for what pokerkit cannot referee as it is: killed pots, missed blinds made up,
players seated mid-session, a dead button, a split game's scoops. Written from the rule text (RULES.md,
rules-source/: Button and Blind Use, Kill Pots, No-Limit and Pot-Limit, Ties), and kept apart from the engine:
nothing here imports dealerbox (tests/test_structure.py checks it), so an engine bug cannot hide in shared code.

- :mod:`.cards`: how strong a hand is (phevaluator), hold'em and Omaha, and the eight-or-better low;
- :mod:`.hand`: one hand given its posts: who acts when, which wagers are legal, the pots, who wins each and the
  stacks after (:class:`HandReferee`);
- :mod:`.table`: the table across hands: the moving or dead button, who is dealt in, who owes which blinds, the kill
  button's legs, and so who must post what before the next deal (:class:`TableReferee`).
"""

from tests.faults.referee.hand import Deal, HandReferee, Outcome, Pot, RefereeError, split_tie
from tests.faults.referee.table import Game, TableReferee

__all__ = ["Deal", "Game", "HandReferee", "Outcome", "Pot", "RefereeError", "TableReferee", "split_tie"]
