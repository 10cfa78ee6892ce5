"""Scenario scripts: what happens at a table, one line per step, compiled to the records the hardware makes.

The format is documented with examples in ``docs/scenarios.md``. A short taste::

    table seats 6
    game nlhe blinds 1/2
    hello
    shoe loaded
    sit 1 200
    sit 3 200
    button 1
    blinds
    deal hole cards 3=Ah,Kd
    chips 6 -> bet1
    call 3 6
    gather
    flop 2c 7d 9s

Records are exactly what a reader board and a dealer produce (Rx bytes from the protocol Encoder, Input
records for taps, Link records), so a scenario replays through the same decoder as a recorded log.
Errors raise :class:`ScenarioError` naming the file, the line and what is wrong.

The package: ``script.py`` reads the language (lines, settings, arguments), ``player.py`` acts it out with
the steps of ``table_steps.py`` and ``chip_steps.py`` on the shared ``scene.py``.
"""

from .player import ScenarioPlayer, compile_file, compile_text
from .script import HOLE_CARDS, CompiledScenario, ScenarioError, Step

__all__ = ["HOLE_CARDS", "CompiledScenario", "ScenarioError", "ScenarioPlayer", "Step", "compile_file",
           "compile_text"]
