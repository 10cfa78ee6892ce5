"""``python -m bench [--quick] [--only NAME[,NAME]] [--json PATH]``: run the suite, print one table, write JSON.

Each benchmark runs in its own child process (``python -m bench.worker NAME``) so that one cannot skew
another's memory or CPU figures, and so a crash or a hang in one still leaves a table for the rest.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
import time
from pathlib import Path

from .common import ROOT, Figure

# Order matters only for reading: cheap, self-contained ones first.
BENCHMARKS = {
    "decoder": "bench.decoder",
    "engine": "bench.engine",
    "render": "bench.render",
    "outbox": "bench.outbox",
    "e2e": "bench.e2e",
    "floor": "bench.floor",
    "idle": "bench.idle",
    "memory": "bench.memory",
    "replay": "bench.replay",
    "dashboard": "bench.dashboard",
    "firmware": "bench.firmware",
}
# Wall-clock budget per benchmark (full mode); a benchmark that overruns is reported, not waited for.
BUDGET_S = {"decoder": 60, "engine": 120, "render": 60, "outbox": 180, "e2e": 60, "floor": 300, "idle": 60,
            "memory": 240, "replay": 900,
            "dashboard": 420, "firmware": 240}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="bench/run", description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true",
                    help="tiny sizes: checks the suite still runs (figures are meaningless)")
    ap.add_argument("--only", metavar="NAME", help=f"comma-separated subset of: {', '.join(BENCHMARKS)}")
    ap.add_argument("--json", metavar="PATH", default=str(ROOT / "bench" / "results" / "latest.json"),
                    help="where to write the results (default bench/results/latest.json)")
    args = ap.parse_args(argv)
    names = list(BENCHMARKS)
    if args.only:
        names = [n.strip() for n in args.only.split(",") if n.strip()]
        unknown = [n for n in names if n not in BENCHMARKS]
        if unknown:
            print(f"bench: unknown benchmark {', '.join(unknown)}; known: {', '.join(BENCHMARKS)}", file=sys.stderr)
            return 2
    started = time.time()
    figures: list[dict] = []
    from dealerbox.commands.progress import progress   # the bar every long dealerbox job shows (terminal only)
    with progress(len(names), "benchmarks", "bench") as bar:
        for name in names:
            figures.extend(run_one(name, args.quick))
            bar.update(1)
    elapsed = time.time() - started
    print(table(figures))
    quick = " (--quick: sizes too small to mean anything)" if args.quick else ""
    print(f"\n{len(names)} benchmark(s) in {elapsed:.0f} s{quick}")
    out = {
        "quick": args.quick,
        "when": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
        "elapsed_s": round(elapsed, 1),
        "machine": machine(),
        "figures": figures,
    }
    path = Path(args.json)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(out, indent=1) + "\n")
    print(f"results: {path}")
    return 0


def run_one(name: str, quick: bool) -> list[dict]:
    budget = BUDGET_S[name] if not quick else 60
    cmd = [sys.executable, "-m", "bench.worker", name] + (["--quick"] if quick else [])
    env = {**os.environ, "PYTHONPATH": f"{ROOT}{os.pathsep}{os.environ.get('PYTHONPATH', '')}".rstrip(os.pathsep)}
    print(f"bench: {name} ...", file=sys.stderr, flush=True)
    t0 = time.time()
    try:
        done = subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, text=True, timeout=budget)
    except subprocess.TimeoutExpired:
        return [Figure(name, "(benchmark)", None, "", note=f"overran its {budget} s budget").as_dict()]
    sys.stderr.write(done.stderr)
    print(f"bench: {name} done in {time.time() - t0:.1f} s", file=sys.stderr, flush=True)
    for line in reversed(done.stdout.splitlines()):
        if line.startswith("BENCH-JSON "):
            return json.loads(line[len("BENCH-JSON "):])
    tail = (done.stderr.strip().splitlines() or ["no output"])[-1]
    return [Figure(name, "(benchmark)", None, "", note=f"crashed (exit {done.returncode}): {tail}").as_dict()]


def fmt(value: float | None, unit: str = "") -> str:
    if value is None:
        return "-"
    if value == float("inf"):
        return "inf"
    a = abs(value)
    if a >= 100_000:
        text = f"{value:,.0f}"
    elif a >= 100:
        text = f"{value:.0f}"
    elif a >= 10:
        text = f"{value:.1f}"
    elif a >= 0.1:
        text = f"{value:.2f}"
    else:
        text = f"{value:.3g}"
    return f"{text} {unit}".strip()


def table(figures: list[dict]) -> str:
    rows = [("benchmark", "figure", "value", "target", "headroom", "status")]
    notes = []
    for f in figures:
        target = f"{f['op']} {fmt(f['target'], f['unit'])}" if f["target"] is not None else "-"
        head = f"{f['headroom']:.1f}x" if f["headroom"] is not None else "-"
        rows.append((f["bench"], f["name"], fmt(f["value"], f["unit"]), target, head, f["status"]))
        if f["note"]:
            notes.append(f"  {f['bench']} / {f['name']}: {f['note']}")
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    lines = ["| " + " | ".join(c.ljust(w) for c, w in zip(r, widths, strict=True)) + " |" for r in rows]
    lines.insert(1, "|" + "|".join("-" * (w + 2) for w in widths) + "|")
    if notes:
        lines += ["", "notes:"] + notes
    return "\n".join(lines)


def machine() -> dict:
    info = {"python": platform.python_version(), "platform": platform.platform(), "cores": os.cpu_count(),
            "loadavg_at_end": [round(x, 2) for x in os.getloadavg()]}
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith(("model name", "Model")):
                info["cpu"] = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    try:
        info["commit"] = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True,
                                        text=True, timeout=5).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        pass
    return info


if __name__ == "__main__":
    sys.exit(main())
