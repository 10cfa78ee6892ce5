"""``dealerbox run``: placeholder until its owner lands it."""

import argparse
import sys


def add_arguments(parser: argparse.ArgumentParser) -> None:
    pass


def run(args: argparse.Namespace) -> int:
    print("dealerbox run: not built yet", file=sys.stderr)
    return 2
