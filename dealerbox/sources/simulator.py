"""The simulator's import path of old: everything lives in :mod:`dealerbox.sources.sim` now."""

from .sim import (CHIP_KINDS, DEAL_KINDS, HEARTBEAT_PERIOD, IRREGULARITIES, Expected, ExpectedPot, SimulatedHand,
                  SimulatedSource, Simulator, SimulatorError)

__all__ = ["CHIP_KINDS", "DEAL_KINDS", "HEARTBEAT_PERIOD", "IRREGULARITIES", "Expected", "ExpectedPot",
           "SimulatedHand", "SimulatedSource", "Simulator", "SimulatorError"]
