"""Sources yield log records (Rx bytes, dealer Inputs, Link changes): a live serial port, a recorded log, a
scenario, or the simulator. Live links and recorded logs are the same kind of thing, so every path goes
through the same decoder (python-can's readers and buses are the model).

``open_log(path)`` opens a recorded log or a scenario file (``*.scn``) and returns a :class:`LogSource`:
``.header`` and iteration over its records in time order.
"""

from __future__ import annotations

from .logfile import LogError, LogSource, open_log

__all__ = ["LogError", "LogSource", "open_log"]
