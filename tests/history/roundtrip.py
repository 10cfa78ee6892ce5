"""Round-trip check shared by the export tests and bench/replay.py: a PHH file back through pokerkit."""

from __future__ import annotations

import tomllib
import warnings

from pokerkit import HandHistory


def replay_phh_file(text: str) -> dict[int, tuple[list[int], list[int], int, int]]:
    """Every PHH hand in ``text``: index -> (pokerkit's final stacks, the file's finishing_stacks, pots total,
    how many split pots had an odd chip)."""
    raw = tomllib.loads(text)
    out = {}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")   # pokerkit warns about nothing we rely on (value parsing)
        for key, fields in raw.items():
            hh = HandHistory(**HandHistory._filter_non_fields(**fields))
            state = None
            for state in hh:  # noqa: B007 - the last state is read after the loop
                pass
            out[int(key)] = (list(state.stacks), list(fields["finishing_stacks"]), sum(fields["_pots"]),
                              len(fields.get("_odd_chip_pots", ())))
    return out
