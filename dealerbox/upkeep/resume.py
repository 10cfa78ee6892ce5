"""A clean start after a power cut: before the terminal records again, the logs it left unclosed are verified
and what was found is said once. A new recording always goes to a new file (the recorder never opens an old
one for writing), so a log cut mid-write is kept exactly as the power left it: whole records plus at most one
unfinished last line, which every reader skips and counts.
"""

from __future__ import annotations

import logging
import os
from pathlib import Path

from ..record.verify import VerifyReport, verify_log
from .retention import log_sets

log = logging.getLogger("dealerbox.upkeep")


def unclosed_logs(directory: str | os.PathLike, newest: int = 1) -> list[VerifyReport]:
    """Verify the ``newest`` most recent logs in ``directory`` that have no closing record."""
    sets = [s for s in log_sets(Path(directory)) if s.parts]
    sets.sort(key=lambda s: max(p.mtime for p in s.parts), reverse=True)
    found: list[VerifyReport] = []
    for s in sets[:max(newest, 1) * 4]:    # a few candidates: most logs were closed cleanly
        try:
            report = verify_log(s.parts[0].path)
        except OSError as e:
            log.warning("cannot read %s to check it after the last stop (%s)", s.parts[0].path, e.strerror or e)
            continue
        if not report.closed:
            found.append(report)
        if len(found) >= newest:
            break
    return found


def check_last_stop(directory: str | os.PathLike) -> VerifyReport | None:
    """Log what the last unclosed log looks like (called once at start); None when every log was closed."""
    reports = unclosed_logs(directory)
    if not reports:
        return None
    r = reports[0]
    if r.problems:
        log.error("the log %s left by the last stop is damaged: %s; keep it for the floor (dealerbox verify)",
                  r.path, r.problems[0])
    else:
        torn = f", {r.partial_line}" if r.partial_line else ""
        log.warning("the last stop was not clean (power cut or crash): %s verified, chain intact, %d records%s; "
                    "recording goes on in a new log", r.path, r.records, torn)
    return r
