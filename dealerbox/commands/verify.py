"""``dealerbox verify``: placeholder until its owner lands it."""

import argparse
import sys


def add_arguments(parser: argparse.ArgumentParser) -> None:
    pass


def run(args: argparse.Namespace) -> int:
    print("dealerbox verify: not built yet", file=sys.stderr)
    return 2
