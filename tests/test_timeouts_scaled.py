"""No fixed timeout in the tests: every hang guard goes through DEALERBOX_TIMEOUT_SCALE, measured on the source.

A timeout in a test is a guard against a hang, never a speed check (tests/conftest.py). On a loaded 2-core machine
a guard sized for a quiet one fails a test that would pass, so each one is written ``scaled(N)`` (or multiplied by
``TIMEOUT_SCALE``). This scan finds a numeric literal where a timeout goes: a ``*timeout*=`` or ``deadline=``
keyword, the positional timeout of ``wait_until``/``wait``/``join``/``wait_for``/..., ``time.monotonic() + N``,
a ``timeout`` parameter's default, a name bound to such a literal and used there, a sleep that is not a step of a
polling loop (a sleep used as a wait: wait for the condition instead), and a playwright context made without
``new_context`` of tests/dashboard/conftest.py (each of its steps would wait playwright's fixed 30 s). The few that
are not hang guards are allowed below, each with its reason; an allowance nothing needs any more fails the scan too.
"""

from __future__ import annotations

import ast
import functools
from dataclasses import dataclass
from pathlib import Path

TESTS = Path(__file__).resolve().parent
ROOT = TESTS.parent

# callee name -> index of its positional timeout argument
POSITIONAL = {"wait_until": 1, "wait": 0, "join": 0, "wait_for": 1, "wait_for_publish": 0, "settimeout": 0,
              "set_default_timeout": 0, "set_default_navigation_timeout": 0, "fail_after": 0, "timeout": 0}
SLEEPS = {"sleep", "wait_for_timeout"}              # time.sleep, asyncio.sleep, playwright's page.wait_for_timeout
CLOCKS = {"monotonic", "time", "perf_counter"}
BROWSER_PAGES = {"new_context"}     # a context from browser.new_context() waits 30 s per step: use new_context()
SCALERS = {"scaled", "TIMEOUT_SCALE"}

# (file under tests/, the call as the scan names it, or its callee alone for all its calls in that file)
#   -> why it is not a hang guard to scale
NEGATIVE = "a window in which nothing may happen: load can only let it pass, never fail it"
ALLOWED: dict[tuple[str, str], str] = {
    ("test_floor_memory.py", "wait_until(0.05)"):
        NEGATIVE,
    ("test_engine_cards.py", "self.c.wait"):
        "the choreography's simulated clock, not the wall clock",
    ("test_engine_cards_on_board.py", "t.c.wait"):
        "the choreography's simulated clock, not the wall clock",
    ("test_engine_cards_rules.py", "t.c.wait"):
        "the choreography's simulated clock, not the wall clock",
    ("test_set_aside_cards.py", "t.c.wait"):
        "the choreography's simulated clock, not the wall clock",
    ("dashboard/conftest.py", "browser.new_context()"):
        "new_context(), the one helper that scales playwright's default timeout",
    ("dashboard/conftest.py", "uvicorn.Config(timeout_graceful_shutdown=1)"):
        "how long uvicorn lets open SSE streams finish at a restart: longer only slows every restart",
    ("test_firmware_sim.py", "serial.Serial(timeout=0.05)"):
        "the read loop's poll step; the loop has its own deadline",
    ("test_screen.py", "threading.Event().wait(0.01)"):
        "a poll step in a loop bounded by its own scaled deadline",
    ("test_enrol_live.py", "time.sleep(0.003)"):
        "paces the odd-sized chunks as USB delivers them",
    ("test_serial.py", "time.sleep(0.01)"):
        "the reconnect backoff's stand-in sleeper, a pacing step",
    ("test_serial.py", "time.sleep(0.3)"):
        "lets time pass while unplugged: load only lets more pass",
    ("tournament/test_tournament_broker.py", "time.sleep(0.15)"):
        "paces the tables' states one at a time, as busts come",
    ("tournament/test_tournament_broker.py", "time.sleep(0.3)"):
        NEGATIVE,
    ("test_enrol_no_board.py", "scan.done.wait(0.5)"):
        NEGATIVE,
    ("test_run_waits_for_board.py", "threading.Event().wait(1.5)"):
        NEGATIVE,
    ("test_enrol_live.py", "time.sleep(1.5)"):
        NEGATIVE,
    ("test_panel.py", "time.sleep(0.15)"):
        NEGATIVE,
    ("test_panel.py", "time.sleep(0.3)"):
        NEGATIVE,
    ("test_floor_view.py", "time.sleep(0.3)"):
        NEGATIVE,
    ("test_floor_link.py", "time.sleep(0.2)"):
        NEGATIVE,
    ("test_floor_security.py", "time.sleep(0.3)"):
        NEGATIVE,
    ("security/test_identity.py", "time.sleep(0.3)"):
        NEGATIVE,
    ("security/test_review_replay.py", "time.sleep(0.3)"):
        NEGATIVE,
}


@dataclass(frozen=True)
class Unscaled:
    path: str       # under tests/
    line: int
    what: str       # the call and its timeout as written (``proc.wait(timeout=5)``), or ``time.monotonic() + 5``

    def __str__(self) -> str:
        return f"tests/{self.path}:{self.line}: {self.what}"


def _dotted(node: ast.expr) -> str:
    if isinstance(node, ast.Attribute):
        return f"{_dotted(node.value)}.{node.attr}"
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Call):
        return f"{_dotted(node.func)}()"
    return "?"


def _constant(node: ast.expr) -> bool:
    """A number written in the source (or arithmetic of numbers), not zero: zero means "do not wait"."""
    if isinstance(node, ast.Constant):
        return type(node.value) in (int, float) and node.value != 0
    if isinstance(node, ast.UnaryOp):
        return _constant(node.operand)
    if isinstance(node, ast.BinOp):
        return all(isinstance(n, ast.Constant) and type(n.value) in (int, float) for n in (node.left, node.right))
    if isinstance(node, ast.IfExp):
        return _constant(node.body) or _constant(node.orelse)
    return False


def _scaled(node: ast.expr) -> bool:
    return any(isinstance(n, ast.Name) and n.id in SCALERS or isinstance(n, ast.Attribute) and n.attr in SCALERS
               for n in ast.walk(node))


def _defaults(a: ast.arguments) -> list[tuple[ast.arg, ast.expr]]:
    """Each parameter that has a default, with it."""
    positional = [*a.posonlyargs, *a.args]
    pairs = list(zip(positional[len(positional) - len(a.defaults):], a.defaults, strict=True))
    return pairs + [(k, d) for k, d in zip(a.kwonlyargs, a.kw_defaults, strict=True) if d is not None]


class _Scan(ast.NodeVisitor):
    def __init__(self, path: str, source: str, tree: ast.Module) -> None:
        self.path, self.source, self.loops = path, source, 0
        self.found: list[Unscaled] = []
        self.nodes: list[ast.AST] = []                # what each finding points at, for tools that fix them
        self.fixed = self._fixed_names(tree)

    @staticmethod
    def _fixed_names(tree: ast.Module) -> set[str]:
        """Names bound anywhere in the file to a bare number (``WAIT = 10``, ``def f(seconds=5)``)."""
        names = set()
        for node in ast.walk(tree):
            if isinstance(node, ast.Assign) and _constant(node.value):
                names |= {t.id for t in node.targets if isinstance(t, ast.Name)}
            elif isinstance(node, ast.AnnAssign) and node.value is not None and _constant(node.value) \
                    and isinstance(node.target, ast.Name):
                names.add(node.target.id)
            elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda):
                names |= {arg.arg for arg, d in _defaults(node.args) if _constant(d)}
        return names

    def _fixed(self, node: ast.expr) -> bool:
        if _scaled(node):
            return False
        return _constant(node) or isinstance(node, ast.Name) and node.id in self.fixed

    def _add(self, node: ast.expr, what: str) -> None:
        self.found.append(Unscaled(self.path, node.lineno, what))
        self.nodes.append(node)

    def _text(self, node: ast.expr) -> str:
        return " ".join((ast.get_source_segment(self.source, node) or "?").split())

    def _visit_loop(self, node: ast.For | ast.While | ast.AsyncFor) -> None:
        self.loops += 1
        self.generic_visit(node)
        self.loops -= 1

    visit_For = visit_While = visit_AsyncFor = _visit_loop

    def _visit_function(self, node: ast.FunctionDef | ast.AsyncFunctionDef) -> None:
        for arg, default in _defaults(node.args):
            if ("timeout" in arg.arg or arg.arg == "deadline") and _constant(default):
                self._add(default, f"def {node.name}({arg.arg}={self._text(default)})")
        loops, self.loops = self.loops, 0           # a loop around a function definition is not its poll loop
        self.generic_visit(node)
        self.loops = loops

    visit_FunctionDef = visit_AsyncFunctionDef = _visit_function

    def visit_Call(self, node: ast.Call) -> None:
        callee = _dotted(node.func)
        name = callee.rsplit(".", 1)[-1]
        for kw in node.keywords:
            if kw.arg and ("timeout" in kw.arg or kw.arg == "deadline") and self._fixed(kw.value):
                self._add(kw.value, f"{callee}({kw.arg}={self._text(kw.value)})")
        index = POSITIONAL.get(name)
        if index is not None and len(node.args) > index and self._fixed(node.args[index]) \
                and not callee.endswith("mark.timeout"):        # pytest-timeout's marks are scaled in conftest.py
            self._add(node.args[index], f"{callee}({self._text(node.args[index])})")
        if name in SLEEPS and not self.loops and node.args and self._fixed(node.args[0]):
            self._add(node, f"{callee}({self._text(node.args[0])})")
        if isinstance(node.func, ast.Attribute) and name in BROWSER_PAGES:   # playwright's own 30 s per wait
            self._add(node, f"{callee}()")
        self.generic_visit(node)

    def visit_BinOp(self, node: ast.BinOp) -> None:
        if isinstance(node.op, ast.Add):
            for clock, other in ((node.left, node.right), (node.right, node.left)):
                if isinstance(clock, ast.Call) and _dotted(clock.func).rsplit(".", 1)[-1] in CLOCKS \
                        and self._fixed(other):
                    self._add(other, f"{_dotted(clock.func)}() + {self._text(other)}")
        self.generic_visit(node)


def unscaled(path: str, source: str) -> list[Unscaled]:
    """Every fixed timeout in one file's source (``path`` names it in the findings)."""
    scan = _Scan(path, source, tree := ast.parse(source, path))
    scan.visit(tree)
    return scan.found


@functools.cache
def _everything() -> list[Unscaled]:
    return [u for p in sorted(TESTS.rglob("*.py"))
            for u in unscaled(p.relative_to(TESTS).as_posix(), p.read_text())]


def _allowance(u: Unscaled) -> tuple[str, str] | None:
    """The key of ALLOWED that covers ``u``: its exact call, or its callee for all of that callee's calls."""
    for key in ((u.path, u.what), (u.path, u.what.split("(", 1)[0])):
        if key in ALLOWED:
            return key
    return None


def test_every_timeout_in_the_tests_is_scaled_or_allowed_with_a_reason():
    found = [u for u in _everything() if _allowance(u) is None]
    assert not found, ("a fixed timeout in the tests: write scaled(N) (tests/conftest.py), wait for the condition, "
                       "or allow it in ALLOWED with its reason:\n" + "\n".join(map(str, found)))


def test_every_allowance_is_still_needed_and_says_why():
    used = {_allowance(u) for u in _everything()}
    assert not set(ALLOWED) - used, f"allowances nothing needs any more: {sorted(set(ALLOWED) - used)}"
    assert all(len(reason.split()) >= 4 for reason in ALLOWED.values())


PLANTED = '''
import time, subprocess, threading, asyncio
from tests.conftest import TIMEOUT_SCALE, scaled
WAIT = 10
GOOD = 10 * TIMEOUT_SCALE
def helper(cond, timeout=5.0):
    subprocess.run(["true"], timeout=60)
    subprocess.run(["true"], timeout=scaled(60))
    threading.Event().wait(2)
    threading.Event().wait(GOOD)
    wait_until(cond, WAIT)
    deadline = time.monotonic() + 15
    time.sleep(0.5)
    while not cond():
        time.sleep(0.02)
    page.wait_for_selector("x", timeout=5000)
    asyncio.wait_for(cond(), 3)
    proc.communicate(timeout=0)
    browser.new_context()
'''


def test_the_scan_catches_each_kind_of_fixed_timeout_and_passes_the_scaled_ones():
    assert [(u.line, u.what) for u in unscaled("planted.py", PLANTED)] == [
        (6, "def helper(timeout=5.0)"), (7, "subprocess.run(timeout=60)"), (9, "threading.Event().wait(2)"),
        (11, "wait_until(WAIT)"), (12, "time.monotonic() + 15"), (13, "time.sleep(0.5)"),
        (16, "page.wait_for_selector(timeout=5000)"), (17, "asyncio.wait_for(3)"), (19, "browser.new_context()")]
