"""A terminal imports only what it uses: the command line loads just the chosen subcommand, so a headless
terminal replaying a board's stream does not carry the simulator's referee, the MQTT client or the
signing library (about 23 MB of RSS on this box, see docs/performance.md)."""

import os
import subprocess
import sys
from pathlib import Path
from tests.conftest import scaled

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
    r = subprocess.run([sys.executable, "-c", PROBE, *args], capture_output=True, text=True, env=env,
                       timeout=scaled(120),
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


LEAN = """
import sys
from dealerbox.runtime.lean import import_pygame
pygame = import_pygame()
print("HELD", " ".join(m for m in ("pygame.mixer", "pygame.imageext", "pkg_resources") if m in sys.modules))
from dealerbox.config import Config
from dealerbox.engine.state import TableState
from dealerbox.sinks.screen import Screen
frame = Screen(Config(), (800, 480), fullscreen=False).render(TableState(), {})
print("FRAME", frame.get_size(), len(Screen(Config(), (800, 480)).renderer.fonts))
import pkg_resources   # lifted again once pygame is in: a later import works as usual
print("LATER", type(pygame.mixer).__name__, "pkg_resources" in sys.modules)
"""


def test_a_kiosk_screen_draws_with_pygame_minus_sound_image_codecs_and_pkg_resources():
    env = {**os.environ, "PYTHONPATH": str(ROOT), "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy"}
    r = subprocess.run([sys.executable, "-c", LEAN], capture_output=True, text=True, env=env, timeout=scaled(120))
    assert r.returncode == 0, r.stderr[-2000:]
    lines = dict(line.split(" ", 1) for line in r.stdout.splitlines() if " " in line)
    assert lines["HELD"].strip() == ""              # none of them loaded while pygame came in
    assert lines["FRAME"].startswith("(800, 480)")  # the default font found without pkg_resources
    assert lines["LATER"] == "MissingModule True"
