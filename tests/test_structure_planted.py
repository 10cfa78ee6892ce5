"""tests/test_structure.py's checks catch what they should: each is run on a small package planted in a temporary
folder, holding one way round the rule (a base re-exported by a package, an alias, a chain of bases, an
attribute set through ``setattr``, by a helper function or through a receiver not called ``self``)."""

from __future__ import annotations

import textwrap
from pathlib import Path

from . import test_structure as ts


def _plant(root: Path, files: dict[str, str]) -> tuple[ts.Modules, ts.Classes]:
    for name, text in files.items():
        path = root / "pkg" / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text))
    for folder in [root / "pkg", *(p for p in (root / "pkg").rglob("*") if p.is_dir())]:
        (folder / "__init__.py").touch()
    modules = ts._modules(root / "pkg")
    return modules, ts._classes(modules)


def _lines(n: int) -> str:
    """A class body of ``n`` lines of class constants (no attributes)."""
    return "".join(f"    K{i} = {i}\n" for i in range(n))


def test_a_mixin_handed_on_by_a_package_counts_with_the_class_that_inherits_it(tmp_path):
    modules, classes = _plant(tmp_path, {
        "parts/mix.py": "class Mixin:\n" + _lines(300),
        "parts/__init__.py": "from .mix import Mixin\n",
        "big.py": "from .parts import Mixin\n\n\nclass Big(Mixin):\n" + _lines(150),
    })
    assert ts._class_lines(classes, modules)["pkg.big.Big"] == 151 + 301


def test_a_base_under_an_alias_or_a_full_module_path_counts(tmp_path):
    modules, classes = _plant(tmp_path, {
        "mix.py": "class Mixin:\n" + _lines(300),
        "aliased.py": "from . import mix\n\nBase = mix.Mixin\n\n\nclass Aliased(Base):\n" + _lines(150),
        "dotted.py": "import pkg.mix\n\n\nclass Dotted(pkg.mix.Mixin):\n" + _lines(150),
    })
    lines = ts._class_lines(classes, modules)
    assert lines["pkg.aliased.Aliased"] == lines["pkg.dotted.Dotted"] == 151 + 301


def test_a_chain_of_single_bases_is_counted_whole(tmp_path):
    modules, classes = _plant(tmp_path, {
        "a.py": "class A:\n" + _lines(150),
        "b.py": "from .a import A\n\n\nclass B(A):\n" + _lines(150),
        "c.py": "from . import b\n\n\nclass C(b.B):\n" + _lines(150),
    })
    assert ts._class_lines(classes, modules)["pkg.c.C"] == 3 * 151 > ts.MAX_CLASS_LINES


def test_two_bases_are_an_assembly_wherever_the_mixin_comes_from_and_however_the_class_is_made(tmp_path):
    modules, classes = _plant(tmp_path, {
        "mix.py": "class Mixin:\n    pass\n\n\nclass Part:\n    pass\n",
        "ok.py": "from typing import Generic, Protocol, TypeVar\n\nT = TypeVar('T')\n\n\n"
                 "class P(Protocol):\n    pass\n\n\nclass Fine(P, Generic[T]):\n    pass\n\n\n"
                 "class Failed(ValueError, P):\n    pass\n",
        "assembled.py": "from . import mix\nfrom .mix import Part\n\n\n"
                        "class Assembled(Part, mix.Mixin):\n    pass\n\n\n"
                        "Made = type('Made', (Part, mix.Mixin), {})\n",
    })
    assert set(ts._assembled(classes, modules)) == {"pkg.assembled.Assembled", "pkg.assembled:9"}


def test_attributes_set_by_setattr_a_helper_or_another_receiver_are_counted(tmp_path):
    modules, classes = _plant(tmp_path, {
        "part.py": """\
            from __future__ import annotations


            class Part:
                def __init__(this) -> None:
                    this.a = 1
                    setattr(this, "b", 2)
                    object.__setattr__(this, "c", 3)
                    for this.d in range(2):
                        pass

                @classmethod
                def make(cls) -> Part:
                    cls.e = 5
                    return cls()


            def _fill(part: Part | None) -> None:
                assert part is not None
                part.f = 6
                part.g += 1
            """,
        "other.py": """\
            from .part import Part


            class Filler:
                def fill(self, into: "Part") -> None:
                    into.h = 8
            """,
    })
    names = ts._class_attributes(classes, modules)["pkg.part.Part"]
    assert names == {"a", "b", "c", "d", "e", "f", "g", "h"}


def test_an_attribute_under_a_computed_name_is_flagged_as_uncounted(tmp_path):
    modules, classes = _plant(tmp_path, {
        "part.py": """\
            class Part:
                def __init__(self, **kw: int) -> None:
                    for k, v in kw.items():
                        setattr(self, k, v)
                    self.__dict__.update(kw)
                    vars(self)["x"] = 1
            """,
    })
    names = ts._class_attributes(classes, modules)["pkg.part.Part"]
    assert len([n for n in names if n.startswith("?")]) == 3


def test_a_class_defined_inside_a_function_or_a_condition_is_measured(tmp_path):
    modules, classes = _plant(tmp_path, {
        "hidden.py": "import sys\n\nif sys.platform:\n    class Cond:\n" + textwrap.indent(_lines(401), "    ")
                     + "\n\ndef make():\n    class Local(A, B):\n        pass\n    return Local\n",
    })
    assert ts._class_lines(classes, modules)["pkg.hidden.Cond"] > ts.MAX_CLASS_LINES
    assert "pkg.hidden.make.<locals>.Local" in ts._assembled(classes, modules)


def _found(tmp_path: Path, check, text: str) -> list[str]:
    path = tmp_path / "part.py"
    path.write_text(textwrap.dedent(text))
    return check(ts.ast.parse(path.read_text()))


def test_a_del_a_setattr_or_a_write_through_a_choice_of_owners_is_a_cross_write(tmp_path):
    found = _found(tmp_path, ts._cross_writes, """\
        class Flow:
            def __init__(self, hand):
                self.hand = hand
                self.jokers = {}
                self.zones = {}

            def muck(self, seat, b):
                h = self.hand
                del self.jokers[seat]               # its own: fine
                del h.deal.jokers[seat]             # the deal's
                setattr(self, "seen", True)         # its own: fine
                setattr(h, "phase", "ended")        # the hand's
                object.__setattr__(self, "frozen", 1)   # its own: fine
                object.__setattr__(h.deal, "k", 0)  # the deal's
                (b.zone if b else self.zones)[seat] = 1   # a bet's, when there is one
        """)
    assert {f.split(": ", 1)[1] for f in found} == {
        "(b.zone if b else self.zones)[seat] = 1", "del h.deal.jokers[seat]", "setattr(h, 'phase', 'ended')",
        "object.__setattr__(h.deal, 'k', 0)"}


def test_a_mutating_call_on_another_parts_attribute_is_a_cross_mutation(tmp_path):
    found = _found(tmp_path, ts._cross_mutations, """\
        class Referee:
            def __init__(self, hand):
                self.hand = hand
                self.ruled = set()

            def rule(self, seat, race, report):
                self.ruled.add(seat)                # its own: fine
                seen = []
                seen.append(seat)                   # a local: fine
                self.hand.dead.add(seat)            # the hand's
                race.cards[0].append(seat)          # an item of the race's
                self.hand.award.__setitem__(seat, 1)
                report = Report()
                report.lines.append(seat)           # built here: fine
        """)
    assert {f.split(": ", 1)[1] for f in found} == {
        "race.cards[0].append(seat)", "self.hand.award.__setitem__(seat, 1)", "self.hand.dead.add(seat)"}
