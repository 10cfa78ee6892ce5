"""Placeholder until its piece lands."""

from .common import Context, Figure, missing


def run(ctx: Context) -> list[Figure]:
    return [missing("e2e", "(benchmark)", "", "not written yet")]
