"""Placeholder until its piece lands."""

from .common import Context, Figure, missing


def run(ctx: Context) -> list[Figure]:
    return [missing("engine", "(benchmark)", "", "not written yet")]
