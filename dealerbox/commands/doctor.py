"""``dealerbox doctor``: is this terminal fit for the floor? Connects with the configured identity and reports
what it may and may not publish, then memory, disk left, days of logs kept and the outbox's depth. On the
broker's host, ``--mosquitto-conf FILE`` also checks the broker settings delivery relies on (persistence and
its directory; sinks/floor/brokerconf.py). Exit 0 all as it should be, 1 a problem found."""

from __future__ import annotations

import argparse
import shutil
import sqlite3
import time
from pathlib import Path

from ..config import Config
from ..sinks.floor.brokerconf import check_conf
from ..sinks.floor.probe import Probe, probe_identity

DAY_S = 86400.0


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--no-broker", action="store_true", help="only the local checks (memory, disk, logs, outbox)")
    parser.add_argument("--timeout", type=float, default=5.0, metavar="S", help="seconds to wait for each answer")
    parser.add_argument("--mosquitto-conf", metavar="FILE", help="on the broker's host: check the broker settings "
                        "delivery relies on in this mosquitto configuration (e.g. /etc/mosquitto/mosquitto.conf)")


def memory_mb() -> tuple[int, int]:
    """(available, total) MiB from /proc/meminfo; (0, 0) where there is none."""
    fields: dict[str, int] = {}
    try:
        for line in Path("/proc/meminfo").read_text().splitlines():
            name, _, rest = line.partition(":")
            fields[name] = int(rest.split()[0])
    except (OSError, ValueError, IndexError):
        return 0, 0
    return fields.get("MemAvailable", 0) // 1024, fields.get("MemTotal", 0) // 1024


def log_days(directory: str) -> tuple[int, float]:
    """(files, days between the oldest and the newest recorded log) in the record directory."""
    files = [p for p in Path(directory).glob("**/*") if p.is_file()] if Path(directory).is_dir() else []
    if not files:
        return 0, 0.0
    stamps = [p.stat().st_mtime for p in files]
    return len(files), (max(stamps) - min(stamps)) / DAY_S


def outbox_depth(path: str) -> int | None:
    """Rows waiting in the outbox, read without creating it; None when there is no outbox yet."""
    if not Path(path).is_file():
        return None
    try:
        db = sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=2.0)
        try:
            return int(db.execute("SELECT COUNT(*) FROM outbox").fetchone()[0])
        finally:
            db.close()
    except sqlite3.Error:
        return None


def free_mb(path: str) -> int:
    here = Path(path).resolve()
    while not here.exists():
        here = here.parent
    return shutil.disk_usage(here).free // (1024 * 1024)


def local_report(config: Config) -> list[str]:
    available, total = memory_mb()
    files, days = log_days(config.record.dir)
    depth = outbox_depth(config.floor.outbox)
    return [
        f"memory: {available} MiB available of {total} MiB",
        f"disk: {free_mb(config.floor.outbox)} MiB free for the outbox ({config.floor.outbox}), "
        f"{free_mb(config.record.dir)} MiB for the logs ({config.record.dir})",
        f"logs: {files} file(s) spanning {days:.1f} day(s) in {config.record.dir}",
        f"outbox: {'no outbox yet' if depth is None else f'{depth} message(s) waiting'} "
        f"(cap {config.floor.outbox_max})",
    ]


def _line(p: Probe) -> str:
    said = {True: "may publish", False: "refused", None: "no answer"}[p.allowed]
    want = "may publish" if p.should else "refused"
    return f"  {'ok ' if p.ok else 'BAD'} {p.topic}: {said} ({p.reason}){'' if p.ok else f', should be {want}'}"


def run(args: argparse.Namespace) -> int:
    config: Config = args.cfg
    fc = config.floor
    print(f"table {config.table.site}/{config.table.id}, floor user {fc.username or '(none)'}")
    expected_user = f"{config.table.site}/{config.table.id}"
    healthy = True
    if fc.username and fc.username != expected_user:
        print(f"  BAD floor.username {fc.username!r} is not {expected_user!r}: the broker's ACL binds site and "
              f"table through the username (docs/security-identity.md)")
        healthy = False
    if not args.no_broker:
        began = time.monotonic()
        outcome, probes = probe_identity(config, args.timeout)
        print(f"broker: {outcome} ({(time.monotonic() - began) * 1000:.0f} ms)")
        for p in probes:
            print(_line(p))
        healthy = healthy and bool(probes) and all(p.ok for p in probes)
    for line in local_report(config):
        print(line)
    if args.mosquitto_conf:
        print(f"broker settings ({args.mosquitto_conf}):")
        for setting in check_conf(args.mosquitto_conf):
            print(f"  {({True: 'ok ', False: 'BAD', None: 'warn'})[setting.ok]} {setting.text}")
            healthy = healthy and setting.ok is not False
    else:
        print("broker settings: not checked here (on the broker's host: dealerbox doctor --no-broker "
              "--mosquitto-conf /etc/mosquitto/mosquitto.conf)")
    return 0 if healthy else 1
