"""``dealerbox simulate``: play simulated hands and write them as a recorded log (replayable, verifiable).

    dealerbox simulate --hands 500 --out var/logs/sim.jsonl --seed 7 --irregularities 0.1
    dealerbox simulate --hands 200 --out var/logs/twice.jsonl --run-it 2    # run it twice after each all-in
    dealerbox simulate --hands 200 --out var/logs/bombs.jsonl --bomb-every 5 --bomb-boards 2   # double-board bomb pots

Signed with ``record.key`` and sealed to ``record.floor_public_key`` when the config names them, as ``run`` does.
"""

from __future__ import annotations

import argparse
from dataclasses import replace
import sys
import time
from pathlib import Path

from ..config import ConfigError
from ..pipeline import public_events
from ..record.logformat import part_path
from ..record.recorder import Recorder
from ..record.sealing import load_floor_public
from ..record.signing import table_signer
from ..sources.sim import IRREGULARITIES, Simulator, SimulatorError
from ..tags import EnrolmentError
from .progress import progress


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--hands", type=int, default=100, metavar="N", help="hands to play (default 100)")
    parser.add_argument("--out", required=True, metavar="LOG", help="log file to write (name ending .jsonl)")
    parser.add_argument("--seed", type=int, help="random seed (default: simulator.seed of the config)")
    parser.add_argument("--irregularities", metavar="R",
                        help="chance per hand of an irregularity (0..1), or a comma list of kinds: "
                             + ", ".join(IRREGULARITIES))
    parser.add_argument("--run-it", type=int, choices=(2, 3), metavar="N",
                        help="a table that runs it N times (2 or 3) after every all-in with no more betting: sets "
                             "game.run_it (house practice); pokerkit's run-out count referees each run")
    parser.add_argument("--bomb-every", type=int, metavar="N",
                        help="every Nth hand is a bomb pot: sets game.bomb_pots (house practice) and "
                             "simulator.bomb_every; each player posts game.bomb_pot (0: five big blinds)")
    parser.add_argument("--bomb-boards", type=int, choices=(1, 2),
                        help="the bomb pots' boards: 1, or 2 for double-board bomb pots (simulator.bomb_boards)")


def _irregularities(text: str | None) -> float | list[str] | None:
    if text is None:
        return None
    try:
        rate = float(text)
    except ValueError:
        return [k.strip() for k in text.split(",") if k.strip()]
    if not 0.0 <= rate <= 1.0:
        raise ValueError(f"--irregularities: {rate} is not a chance between 0 and 1")
    return rate


def run(args: argparse.Namespace) -> int:
    from ..runtime.app import load_registry  # the same enrolment the terminal would use
    out = Path(args.out)
    if out.suffix != ".jsonl":
        print(f"dealerbox simulate: --out {out}: name the log with a .jsonl suffix", file=sys.stderr)
        return 2
    if part_path(out, 0).exists():
        print(f"dealerbox simulate: --out {out}: already exists; choose another name", file=sys.stderr)
        return 2
    if args.hands < 1:
        print("dealerbox simulate: --hands must be at least 1", file=sys.stderr)
        return 2
    try:
        irregular = _irregularities(args.irregularities)
        if args.run_it:
            args.cfg = replace(args.cfg, game=replace(args.cfg.game, run_it=args.run_it))
        if args.bomb_every is not None and args.bomb_every < 1:
            raise ValueError(f"--bomb-every: {args.bomb_every}; a bomb pot every N hands needs N of 1 or more")
        if args.bomb_every:
            args.cfg = replace(args.cfg, game=replace(args.cfg.game, bomb_pots=True),
                               simulator=replace(args.cfg.simulator, bomb_every=args.bomb_every))
        if args.bomb_boards:
            args.cfg = replace(args.cfg, simulator=replace(args.cfg.simulator, bomb_boards=args.bomb_boards))
        registry = load_registry(args.cfg)
        tournament = None
        if args.cfg.tournament.file:   # a tournament table: the simulator plays the event to its winner
            from ..tournament.at_table import for_table
            tournament = for_table(args.cfg)
        sim = Simulator(args.cfg, registry, seed=args.seed, irregularities=irregular, tournament=tournament)
        # signed like ``run`` signs (record.key): a signed log can be made without a live table
        signer = table_signer(args.cfg.record.key, args.cfg.table.id)
        # sealed like ``run`` seals (record.floor_public_key), without run's warning when unset: a demo log
        key = args.cfg.record.floor_public_key
        seal_to = load_floor_public(key) if key else None
    except (ValueError, SimulatorError, EnrolmentError, ConfigError) as e:
        print(f"dealerbox simulate: {e}", file=sys.stderr)
        return 2
    out.parent.mkdir(parents=True, exist_ok=True)
    recorder = Recorder(out.parent, sim.header(), rotate_bytes=1 << 40, name=out.stem, fsync_every_s=60.0,
                        signer=signer, seal_to=seal_to, rules=public_events)
    started = time.perf_counter()
    try:
        hand = sim.hand_no
        with progress(args.hands, "hands", "simulate") as bar:
            done = 0   # hands played to the end: the one being dealt is not counted yet
            for record in sim.records(args.hands):
                if signer is not None and sim.hand_no != hand:   # a new hand began: sign the one before, as run does
                    recorder.seal(hand=hand)
                    hand = sim.hand_no
                recorder.write(record)
                if sim.hand_no - 1 > done:
                    bar.update(sim.hand_no - 1 - done)
                    done = sim.hand_no - 1
            bar.update(sim.hand_no - done)
    except SimulatorError as e:
        print(f"dealerbox simulate: {e}", file=sys.stderr)
        return 2
    finally:
        recorder.close()
    took = time.perf_counter() - started
    health = recorder.health()
    if health.get("write_errors"):
        print(f"dealerbox simulate: could not write {recorder.path}: {health.get('last_error')}", file=sys.stderr)
        return 1
    print(f"{sim.hand_no} hands, {health['records']} records, {sim.t:.0f} s of table time "
          f"in {took:.1f} s -> {recorder.path}")
    return 0
