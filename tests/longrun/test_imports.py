"""A terminal imports only what it uses: the command line loads just the chosen subcommand, so a headless
terminal replaying a board's stream does not carry the simulator's referee, the MQTT client or the
signing library (about 23 MB of RSS on this box, see docs/performance.md)."""

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

PROBE = """
import sys, atexit
atexit.register(lambda: print("LOADED", " ".join(sorted(m for m in ("pokerkit", "paho", "nacl", "sqlite3", "pygame")
                                                      if m in sys.modules))))
from dealerbox.cli import main
sys.exit(main(sys.argv[1:]))
"""


def _loaded(*args, cwd=None):
    env = {**os.environ, "PYTHONPATH": str(ROOT), "SDL_VIDEODRIVER": "dummy"}
    r = subprocess.run([sys.executable, "-c", PROBE, *args], capture_output=True, text=True, env=env, timeout=120,
                       cwd=cwd)
    line = [x for x in r.stdout.splitlines() if x.startswith("LOADED")][-1]
    return r.returncode, set(line.split()[1:])


def test_headless_terminal_without_floor_or_record_skips_the_heavy_imports():
    scn = str(ROOT / "tests/scenarios/misdeal-boxed-cards.scn")
    code, loaded = _loaded("run", "--replay", scn, "--headless", "--speed", "0", "--no-floor", "--no-record")
    assert code == 0
    assert not loaded & {"pokerkit", "paho", "nacl", "sqlite3", "pygame"}, loaded


def test_the_config_option_value_is_not_taken_for_the_command(tmp_path):
    cfg = tmp_path / "verify"   # a config file named like a subcommand
    cfg.write_text("")
    code, _ = _loaded("-c", "verify", "rules", cwd=tmp_path)
    assert code == 0
