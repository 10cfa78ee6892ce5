"""The protocol's constants have one meaning on both sides of the wire, and the C has no dependency cycle.

firmware/src/protocol.h and dealerbox/wire/protocol.py spell every constant with the same name; this test
reads every ``#define`` of the header, evaluates it, and compares it with the Python module, in both
directions, so a constant changed or added on one side only fails here instead of on the table.
"""

import re
from pathlib import Path

from dealerbox.wire import protocol as p

ROOT = Path(__file__).resolve().parents[1]
SRC = ROOT / "firmware" / "src"
HEADER = SRC / "protocol.h"

# Names that live on one side only, each for a reason.
C_ONLY = {
    "DEALERBOX_PROTOCOL_H": "include guard",
    "FRAME_MAX_WIRE": "the board's output buffer: encoded frame + delimiter (Python builds bytes)",
    "UID_MAX_LEN": "the board's UID buffer size; Python lists the lengths in UID_LENGTHS",
}
PY_ONLY = {
    "SEQ_MODULO": "Python wraps with %, C with uint16_t",
    "UID_LENGTHS": "a tuple; C keeps only the longest (UID_MAX_LEN)",
    "SUPPORTED_MAJORS": "which boards the host accepts, a host decision",
    "ZONE_READ_STATES": "a tuple of the ZONE_READ_* values, for validation",
}

_DEFINE = re.compile(r"^#define\s+([A-Z][A-Z0-9_]*)(?:\s+(.*?))?\s*$")


def header_constants() -> dict[str, int | None]:
    """Every ``#define NAME value`` in protocol.h, its value evaluated (None for a bare guard)."""
    values: dict[str, int | None] = {}
    for line in HEADER.read_text().splitlines():
        line = re.sub(r"/\*.*?\*/", "", line).strip()
        m = _DEFINE.match(line)
        if not m:
            continue
        name, expr = m.group(1), m.group(2)
        if not expr:
            values[name] = None
            continue
        assert re.fullmatch(r"[A-Z0-9_x+\-*/() ]+", expr, re.I), \
            f"protocol.h: {name} = {expr!r} is not plain arithmetic"
        values[name] = int(eval(expr.replace("/", "//"), {"__builtins__": {}}, dict(values)))
    return values


def python_constants() -> dict[str, object]:
    return {name: value for name, value in vars(p).items()
            if re.fullmatch(r"[A-Z][A-Z0-9_]+", name) and isinstance(value, (int, tuple))}


def test_the_header_defines_something_to_compare():
    assert {"MSG_HELLO", "ZONE_POT", "FRAME_MAX_ENCODED", "PROTOCOL_VERSION_MAJOR"} <= set(header_constants())


def test_every_c_constant_has_the_same_value_in_python():
    py = python_constants()
    wrong = {name: (value, py.get(name, "missing"))
             for name, value in header_constants().items()
             if name not in C_ONLY and py.get(name) != value}
    assert not wrong, f"protocol.h and protocol.py disagree (name: (C, Python)): {wrong}"


def test_every_python_constant_is_in_the_header():
    c = header_constants()
    missing = sorted(name for name in python_constants() if name not in c and name not in PY_ONLY)
    assert not missing, f"constants in dealerbox/wire/protocol.py but not in firmware/src/protocol.h: {missing}"


def test_uid_buffer_holds_the_longest_uid():
    assert header_constants()["UID_MAX_LEN"] == max(p.UID_LENGTHS)


def test_one_side_only_lists_name_real_constants():
    assert set(C_ONLY) <= set(header_constants())
    assert set(PY_ONLY) <= set(python_constants())


def test_main_c_exports_nothing_so_drivers_cannot_depend_on_it():
    """The drivers reach the hardware through hal.h; main.c keeps everything but main() static."""
    text = re.sub(r"/\*.*?\*/", "", (SRC / "main.c").read_text(), flags=re.S)
    exported = re.findall(r"^(?!static\b)(?!ISR\b)[A-Za-z_][\w \*]*?\b(\w+)\s*\([^;]*\)\s*\{", text, re.M)
    assert exported == ["main"], f"main.c defines non-static functions {exported}: move them behind hal.h"


def test_drivers_include_no_application_code():
    for source in SRC.glob("*.[ch]"):
        if source.name == "main.c":
            continue
        includes = re.findall(r'#include\s+"([^"]+)"', source.read_text())
        assert "main.c" not in includes and "main.h" not in includes, f"{source.name} includes the application"
