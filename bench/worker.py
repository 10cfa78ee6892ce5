"""Runs one benchmark in this process and prints its figures as one ``BENCH-JSON [...]`` line on stdout."""

from __future__ import annotations

import importlib
import json
import shutil
import sys
import traceback

from .common import Context, Figure


def main(argv: list[str]) -> int:
    name, quick = argv[0], "--quick" in argv[1:]
    from .__main__ import BENCHMARKS
    ctx = Context(quick=quick, log=lambda text: print(f"  {name}: {text}", file=sys.stderr, flush=True))
    try:
        module = importlib.import_module(BENCHMARKS[name])
        figures = module.run(ctx)
    except Exception as e:  # one broken benchmark must still leave a row saying what broke
        traceback.print_exc()
        figures = [Figure(name, "(benchmark)", None, "", note=f"error: {type(e).__name__}: {e}")]
    finally:
        shutil.rmtree(ctx.tmp, ignore_errors=True)
    print("BENCH-JSON " + json.dumps([f.as_dict() for f in figures]), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
