"""The built-in simulator: realistic hands at a table, as the bytes a reader board and taps a dealer produce.

- ``simulator.py``: :class:`Simulator`, the session (seats, stacks, button, rebuys) and its records;
- ``session.py``: :class:`Session`, what one hand may know of the session, passed to it as a value;
- ``hand.py``: one hand, refereed by pokerkit and acted out by the choreography;
- ``referee.py``: pokerkit's settings and the phevaluator ranking; ``chips.py``: the house chips in play;
- ``outcome.py``: the irregularities it stages and :class:`Expected`, the referee's account of a hand;
- ``stack_reads.py``: :class:`StackReads`, the chip zones' read states as a PN5180 reports them;
- ``live.py``: :class:`SimulatedSource`, the simulator paced as a live source.
"""

from .live import SimulatedSource
from .outcome import CHIP_KINDS, DEAL_KINDS, IRREGULARITIES, Expected, ExpectedPot, SimulatedHand, SimulatorError
from .simulator import HEARTBEAT_PERIOD, Simulator

__all__ = ["CHIP_KINDS", "DEAL_KINDS", "HEARTBEAT_PERIOD", "IRREGULARITIES", "Expected", "ExpectedPot",
           "SimulatedHand", "SimulatedSource", "Simulator", "SimulatorError"]
