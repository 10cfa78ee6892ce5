"""The structure rules of CONTRIBUTING.md, measured on the code itself, so they cannot drift.

No class with more than one base (a Protocol, Generic or exception aside); no class, counted with the classes
of this package it inherits from, over 400 lines or 25 attributes; no file over 500 lines; no import cycle
between modules at import time. tests/test_structure_planted.py proves each check catches what it should, on
small planted packages (a base re-exported by a package, an attribute set through ``setattr`` or by a helper).
"""

from __future__ import annotations

import ast
from collections.abc import Callable, Iterator
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "dealerbox"
MAX_FILE_LINES = 500
MAX_CLASS_LINES = 400
MAX_CLASS_ATTRIBUTES = 25
# Known to be over a limit, each with its count today, which it may not exceed; the split is the next step.
KNOWN_OVER_ATTRIBUTES: dict[str, int] = {}
ALLOWED_EXTRA_BASES = {"Protocol", "Generic", "Exception", "ValueError", "RuntimeError", "KeyError", "OSError"}

Modules = dict[str, tuple[Path, ast.Module]]          # dotted module name -> (file, tree)
Classes = dict[str, tuple[str, ast.ClassDef]]         # module.Qual.Name -> (module, definition)


def _modules(package: Path = PACKAGE) -> Modules:
    out = {}
    for path in sorted(package.rglob("*.py")):
        rel = path.relative_to(package.parent).with_suffix("")
        parts = list(rel.parts)
        if parts[-1] == "__init__":
            parts.pop()
        out[".".join(parts)] = (path, ast.parse(path.read_text(), str(path)))
    return out


MODULES = _modules()


def _base_name(node: ast.expr) -> str:
    """``Base``, ``mod.Base`` or ``Base[T]`` as written (a dotted name keeps its module alias)."""
    if isinstance(node, ast.Subscript):
        node = node.value
    if isinstance(node, ast.Attribute):
        return f"{_base_name(node.value)}.{node.attr}"
    return node.id if isinstance(node, ast.Name) else ast.dump(node)


def _classes(modules: Modules = MODULES) -> Classes:
    """Every class, nested ones too, under its module and qualified name (``mod.Outer.Inner``)."""
    found: Classes = {}

    def visit(module: str, prefix: str, body: list[ast.stmt]) -> None:
        for node in body:
            if isinstance(node, ast.ClassDef):
                found[f"{module}.{prefix}{node.name}"] = (module, node)
                visit(module, f"{prefix}{node.name}.", node.body)
            elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                visit(module, f"{prefix}{node.name}.<locals>.", node.body)
            elif isinstance(node, ast.If | ast.Try | ast.With):   # a class defined under a condition
                for part in ("body", "orelse", "finalbody"):
                    visit(module, prefix, getattr(node, part, []))
                for h in getattr(node, "handlers", []):
                    visit(module, prefix, h.body)

    for module, (_, tree) in modules.items():
        visit(module, "", tree.body)
    return found


CLASSES = _classes()


_BOUND: dict[tuple[int, str], tuple[ast.Module, dict[str, str]]] = {}   # kept with its tree: ids stay unique


def _imported_names(module: str, modules: Modules = MODULES, classes: Classes = CLASSES) -> dict[str, str]:
    """Names this module binds to the package's classes and modules (``from .x import Y``, ``from . import x``,
    ``import dealerbox.x as x``, ``import dealerbox.x``, a module-level ``Alias = Y``) -> the dotted name they
    stand for (a class key, a module, or a name another module binds: :func:`_resolve` follows those)."""
    path, tree = modules[module]
    cached = _BOUND.get((id(modules), module))
    if cached is not None and cached[0] is tree:
        return cached[1]
    here = module.split(".") if path.name == "__init__.py" else module.split(".")[:-1]
    out = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            base = here[: len(here) - node.level + 1] if node.level else []
            target = ".".join(base + ([node.module] if node.module else []))
            if target in modules:
                for a in node.names:
                    out[a.asname or a.name] = f"{target}.{a.name}"
        elif isinstance(node, ast.Import):
            for a in node.names:
                if a.name in modules:
                    out[a.asname or a.name.partition(".")[0]] = a.name if a.asname else a.name.partition(".")[0]
    for stmt in tree.body:   # ``Base = other.Base``: an alias is the class it names
        if (isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name)
                and isinstance(stmt.value, ast.Name | ast.Attribute)):
            out.setdefault(stmt.targets[0].id, f"{module}:{_base_name(stmt.value)}")
    _BOUND[id(modules), module] = (tree, out)
    return out


def _resolve(where: str, name: str, modules: Modules = MODULES, classes: Classes = CLASSES,
             depth: int = 0) -> str | None:
    """The class key a base written as ``name`` in module ``where`` names, or None (outside the package).
    Followed through re-exports (a package's ``__init__`` handing on a class of one of its modules) and aliases."""
    if depth > 20:
        return None
    if f"{where}.{name}" in classes:
        return f"{where}.{name}"
    head, _, rest = name.partition(".")
    bound = _imported_names(where, modules, classes).get(head)
    if bound is None:
        return None
    if ":" in bound:   # an alias in ``where`` itself: resolve what it names, there
        alias_module, _, written = bound.partition(":")
        return _resolve(alias_module, f"{written}.{rest}" if rest else written, modules, classes, depth + 1)
    key = f"{bound}.{rest}" if rest else bound
    if key in classes:
        return key
    # ``mod.Name`` where mod is one of ours but Name is not defined there: what mod binds Name to
    for cut in range(key.count("."), 0, -1):
        mod, tail = ".".join(key.split(".")[:cut]), ".".join(key.split(".")[cut:])
        if mod in modules and mod != where:
            return _resolve(mod, tail, modules, classes, depth + 1)
    return None


def _own_bases(node: ast.ClassDef, module: str, modules: Modules = MODULES,
               classes: Classes = CLASSES) -> list[ast.ClassDef]:
    """The classes of this package the class inherits from, all the way up (followed through the imports)."""
    out: list[ast.ClassDef] = []
    todo = [(module, _base_name(b)) for b in node.bases]
    while todo:
        where, name = todo.pop()
        key = _resolve(where, name, modules, classes)
        if key is None:
            continue   # a class from outside the package
        base_module, base = classes[key]
        if base not in out and base is not node:
            out.append(base)
            todo.extend((base_module, _base_name(b)) for b in base.bases)
    return out


def _receivers(node: ast.ClassDef) -> set[str]:
    """The names a method of the class writes its state through: ``self``, and each method's first parameter
    whatever it is called (``this``, ``cls``)."""
    names = {"self"}
    for stmt in node.body:
        if isinstance(stmt, ast.FunctionDef | ast.AsyncFunctionDef) and stmt.args.args:
            if not any(isinstance(d, ast.Name) and d.id == "staticmethod" for d in stmt.decorator_list):
                names.add(stmt.args.args[0].arg)
    return names


def _writes(scope: ast.AST, receivers: set[str]) -> set[str]:
    """Attribute names written on ``receivers`` anywhere in ``scope``: ``r.x =``, ``r.x +=``, ``r.x: T =``,
    ``for r.x in``, ``with ... as r.x``, ``setattr(r, "x", ...)``, ``object.__setattr__(r, "x", ...)``. A name
    the code computes (``setattr(r, name, ...)``, ``r.__dict__[...]``, ``vars(r)``) comes back as ``?`` and the
    text, which no class may have: the check could not count it."""
    names: set[str] = set()
    for sub in ast.walk(scope):
        targets: list[ast.expr] = []
        if isinstance(sub, ast.Assign):
            targets = sub.targets
        elif isinstance(sub, ast.AnnAssign | ast.AugAssign | ast.For | ast.AsyncFor):
            targets = [sub.target]
        elif isinstance(sub, ast.With | ast.AsyncWith):
            targets = [i.optional_vars for i in sub.items if i.optional_vars is not None]
        for t in targets:
            for leaf in ast.walk(t):
                if isinstance(leaf, ast.Attribute) and isinstance(leaf.value, ast.Name) and leaf.value.id in receivers:
                    names.add(leaf.attr if leaf.attr != "__dict__" else f"?{ast.unparse(t)}")
        if isinstance(sub, ast.Call):
            func = ast.unparse(sub.func)
            if func in ("setattr", "object.__setattr__") or func.endswith(".__setattr__"):
                args = sub.args if func == "setattr" or func == "object.__setattr__" else [sub.func, *sub.args]
                on = args[0] if args else None
                on_receiver = (isinstance(on, ast.Name) and on.id in receivers) or (
                    isinstance(on, ast.Attribute) and isinstance(on.value, ast.Name) and on.value.id in receivers)
                if on_receiver and len(args) > 1:
                    name = args[1]
                    names.add(name.value if isinstance(name, ast.Constant) and isinstance(name.value, str)
                              else f"?{ast.unparse(sub)}")
            elif func == "vars" and sub.args and isinstance(sub.args[0], ast.Name) and sub.args[0].id in receivers:
                names.add(f"?{ast.unparse(sub)}")
            elif (isinstance(sub.func, ast.Attribute) and isinstance(sub.func.value, ast.Attribute)
                  and sub.func.value.attr == "__dict__" and isinstance(sub.func.value.value, ast.Name)
                  and sub.func.value.value.id in receivers):
                names.add(f"?{ast.unparse(sub)}")
    return names


def _attributes(node: ast.ClassDef) -> set[str]:
    names: set[str] = set()
    for stmt in node.body:   # dataclass fields and class-level state
        if isinstance(stmt, ast.AnnAssign) and isinstance(stmt.target, ast.Name):
            ann = ast.unparse(stmt.annotation)
            if not ann.startswith(("ClassVar", "typing.ClassVar")):
                names.add(stmt.target.id)
    return names | _writes(node, _receivers(node))


def _annotated_names(ann: ast.expr) -> list[str]:
    """The class names an annotation may stand for: ``Part``, ``mod.Part``, ``"Part"``, ``Part | None``."""
    if isinstance(ann, ast.Constant) and isinstance(ann.value, str):
        try:
            return _annotated_names(ast.parse(ann.value, mode="eval").body)
        except SyntaxError:
            return []
    if isinstance(ann, ast.BinOp):
        return _annotated_names(ann.left) + _annotated_names(ann.right)
    if isinstance(ann, ast.Subscript) and _base_name(ann.value).rpartition(".")[2] == "Optional":
        return _annotated_names(ann.slice)
    return [_base_name(ann)] if isinstance(ann, ast.Name | ast.Attribute) else []


def _written_from_outside(modules: Modules = MODULES, classes: Classes = CLASSES) -> dict[str, set[str]]:
    """Attributes written on a class's objects by a function outside the class: a parameter annotated with the
    class (``def _fill(part: Part) -> None: part.x = 1``) that the function writes attributes on."""
    out: dict[str, set[str]] = {}
    for module, (_, tree) in modules.items():
        inside: set[int] = set()
        for m, cls in classes.values():
            if m == module:
                inside.update(id(n) for n in cls.body)
        for fn in ast.walk(tree):
            if not isinstance(fn, ast.FunctionDef | ast.AsyncFunctionDef):
                continue
            for arg in [*fn.args.posonlyargs, *fn.args.args, *fn.args.kwonlyargs]:
                if arg.annotation is None or (id(fn) in inside and arg is (fn.args.args or [None])[0]):
                    continue
                for written in _annotated_names(arg.annotation):
                    key = _resolve(module, written, modules, classes)
                    if key is not None and (names := _writes(fn, {arg.arg})):
                        out.setdefault(key, set()).update(names)
    return out


def _assembled(classes: Classes = CLASSES, modules: Modules = MODULES) -> dict[str, list[str]]:
    """Classes with more than one base other than a Protocol, Generic or exception, with those written with
    ``type(name, (A, B), namespace)``."""
    out = {key: [_base_name(b) for b in node.bases] for key, (_, node) in classes.items()
           if len([b for b in node.bases if _base_name(b).rpartition(".")[2] not in ALLOWED_EXTRA_BASES]) > 1}
    for module, (_, tree) in modules.items():
        for call in ast.walk(tree):
            if (isinstance(call, ast.Call) and isinstance(call.func, ast.Name) and call.func.id == "type"
                    and len(call.args) == 3 and isinstance(call.args[1], ast.Tuple)):
                bases = [_base_name(b) for b in call.args[1].elts]
                if len([b for b in bases if b.rpartition(".")[2] not in ALLOWED_EXTRA_BASES]) > 1:
                    out[f"{module}:{call.lineno}"] = bases
    return out


def _class_lines(classes: Classes = CLASSES, modules: Modules = MODULES) -> dict[str, int]:
    return {key: sum(c.end_lineno - c.lineno + 1 for c in [node, *_own_bases(node, module, modules, classes)])
            for key, (module, node) in classes.items()}


def _class_attributes(classes: Classes = CLASSES, modules: Modules = MODULES) -> dict[str, set[str]]:
    outside = _written_from_outside(modules, classes)
    out = {}
    for key, (module, node) in classes.items():
        chain = [node, *_own_bases(node, module, modules, classes)]
        names = set().union(*(_attributes(c) for c in chain))
        for other_key, (_, other) in classes.items():
            if other in chain:
                names |= outside.get(other_key, set())
        out[key] = names
    return out


def test_no_file_in_the_package_is_over_500_lines():
    long = {str(p.relative_to(PACKAGE.parent)): n for p, _ in MODULES.values()
            if (n := len(p.read_text().splitlines())) > MAX_FILE_LINES}
    assert long == {}


def test_no_class_is_assembled_from_several_bases():
    assert _assembled() == {}


def test_no_class_with_its_bases_is_over_400_lines():
    big = {key: n for key, n in _class_lines().items() if n > MAX_CLASS_LINES}
    assert big == {}


def test_no_class_with_its_bases_holds_over_25_attributes():
    crowded = {key: len(names) for key, names in _class_attributes().items()
               if len(names) > KNOWN_OVER_ATTRIBUTES.get(key, MAX_CLASS_ATTRIBUTES)}
    assert crowded == {}
    uncounted = {key: sorted(n for n in names if n.startswith("?")) for key, names in _class_attributes().items()
                 if any(n.startswith("?") for n in names)}
    assert uncounted == {}, "an attribute set under a computed name: write it out, so the check can count it"


def _imports_at_load(module: str, tree: ast.Module) -> set[str]:
    """The package's modules this one imports when it is loaded (not under TYPE_CHECKING, not inside a def)."""
    is_pkg = MODULES[module][0].name == "__init__.py"
    here = module.split(".") if is_pkg else module.split(".")[:-1]
    out: set[str] = set()

    def visit(body: list[ast.stmt]) -> None:
        for stmt in body:
            if isinstance(stmt, ast.If) and "TYPE_CHECKING" in ast.unparse(stmt.test):
                visit(stmt.orelse)
                continue
            if isinstance(stmt, (ast.If, ast.Try)):
                visit(stmt.body)
                visit(getattr(stmt, "orelse", []))
                for h in getattr(stmt, "handlers", []):
                    visit(h.body)
                continue
            if isinstance(stmt, ast.Import):
                out.update(a.name for a in stmt.names if a.name.startswith("dealerbox"))
            elif isinstance(stmt, ast.ImportFrom):
                if stmt.level:
                    base = here[: len(here) - stmt.level + 1]
                    target = ".".join(base + ([stmt.module] if stmt.module else []))
                else:
                    target = stmt.module or ""
                if not target.startswith("dealerbox"):
                    continue
                for a in stmt.names:   # `from . import x` may name a module
                    if f"{target}.{a.name}" in MODULES:
                        out.add(f"{target}.{a.name}")
                    else:
                        out.add(target)
    visit(tree.body)
    return {m for m in out if m in MODULES and m != module}


def test_no_import_cycle_between_modules():
    graph = {m: _imports_at_load(m, tree) for m, (_, tree) in MODULES.items()}
    assert _cycles(graph) == []


def _every_import(module: str, tree: ast.Module) -> set[str]:
    """The package's modules this one names in any import at all: under TYPE_CHECKING and inside a def too."""
    is_pkg = MODULES[module][0].name == "__init__.py"
    here = module.split(".") if is_pkg else module.split(".")[:-1]
    out: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = here[: len(here) - node.level + 1] if node.level else []
            target = ".".join(base + ([node.module] if node.module else []))
            out.update(f"{target}.{a.name}" if f"{target}.{a.name}" in MODULES else target for a in node.names)
    return {m for m in out if m in MODULES and m != module}


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    found: list[list[str]] = []
    state: dict[str, int] = {}
    stack: list[str] = []

    def walk(m: str) -> None:
        state[m] = 1
        stack.append(m)
        for n in sorted(graph.get(m, ())):
            if state.get(n) == 1:
                found.append(stack[stack.index(n):] + [n])
            elif n not in state:
                walk(n)
        stack.pop()
        state[m] = 2

    for m in sorted(graph):
        if m not in state:
            walk(m)
    return found


def test_no_circle_even_through_type_only_or_deferred_imports():
    # the structure drawing's circles: an import for a type or inside a def still ties two files together
    graph = {m: _every_import(m, tree) for m, (_, tree) in MODULES.items()}
    assert _cycles(graph) == []


def test_the_package_s_folders_import_one_way():
    # the drawing's arrows back up: dealerbox/record/ importing pipeline.py while pipeline.py imports record/ is no
    # module cycle, but it is a loop between the package's top-level parts (a folder, or a module beside them)
    def part(m: str) -> str:
        return ".".join(m.split(".")[:2])
    graph: dict[str, set[str]] = {}
    for m, (_, tree) in MODULES.items():
        graph.setdefault(part(m), set()).update(part(d) for d in _every_import(m, tree) if part(d) != part(m))
    assert _cycles(graph) == []


# --- one owner per fact: no part writes another's state ------------------------------------------------------
# A part changes only its own attributes (``self.x = ...``, ``self.x[k] = ...``, ``del self.x[k]``,
# ``self.x.add(k)``); to change another part's, it calls a method of that part that says what happened
# (``seating.hand_voided()``, ``hand.street_reached(s)``). Writing an attribute of an object this function built
# itself (``report = Report(); report.parts += 1``) is fine: the object is not yet anyone else's. Measured on these
# packages: assignments, ``del`` and ``setattr`` on another object's attribute (the cross writes), and calls of a
# container's mutating method on another object's attribute (the cross mutations: ``h.dead.add(seat)``). A part
# whose own method happens to share a mutator's name (``other.log.append(...)`` on a part, not a list) is
# counted too: the checker cannot tell them apart, so such a method takes a name that says what happened.
OWNED_PACKAGES = ("engine", "tournament")
# Files that still write state another object owns, each with its count today, which it may not exceed.
KNOWN_CROSS_WRITES = {
    # the table-event decorator writes the generated __init__ onto the class it decorates (metaprogramming)
    "engine/events.py": 1,
}
# A container's methods that change it in place.
MUTATORS = frozenset({
    "append", "add", "clear", "pop", "popitem", "update", "discard", "remove", "extend", "insert", "setdefault",
    "sort", "reverse", "difference_update", "intersection_update", "symmetric_difference_update",
    "__setitem__", "__delitem__", "__setattr__", "__delattr__",
})
# Files that still call a mutating method on another object's attribute, each with its count today, which it may
# not exceed (none left: the 28 found when this was first measured each became a method of the owner).
KNOWN_CROSS_MUTATIONS: dict[str, int] = {}


def _built_here(fn: ast.AST) -> set[str]:
    """Names a function binds to an object it constructs (``name = Capitalised(...)``)."""
    out = set()
    for node in ast.walk(fn):
        if (isinstance(node, ast.Assign) and isinstance(node.value, ast.Call) and len(node.targets) == 1
                and isinstance(node.targets[0], ast.Name)):
            func = node.value.func
            name = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""
            if name[:1].isupper():
                out.add(node.targets[0].id)
    return out


def _own(node: ast.expr, built: set[str]) -> bool:
    """Whether ``node`` is ``self``/``cls`` or an object this function built."""
    return isinstance(node, ast.Name) and (node.id in ("self", "cls") or node.id in built)


def _statements(tree: ast.Module) -> Iterator[tuple[set[str], ast.AST]]:
    """Every node of ``tree`` with the names its innermost enclosing function built (each node once)."""
    def inside(node: ast.AST) -> Iterator[ast.AST]:
        """``node``'s descendants, not those of a function defined in it (they are that function's)."""
        for child in ast.iter_child_nodes(node):
            yield child
            if not isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda):
                yield from inside(child)

    scopes: list[ast.AST] = [tree, *(n for n in ast.walk(tree)
                                     if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda))]
    for scope in scopes:
        built = _built_here(scope) if scope is not tree else set()
        for node in inside(scope):
            yield built, node


def _cross_writes(tree: ast.Module) -> list[str]:
    """Each assignment, ``del`` or ``setattr`` in ``tree`` whose target is an attribute (or an item of one) of
    something but ``self``."""
    out = []
    for built, stmt in _statements(tree):
        if isinstance(stmt, ast.Assign | ast.Delete):
            targets = list(stmt.targets)
        elif isinstance(stmt, ast.AugAssign | ast.AnnAssign):
            targets = [stmt.target]
        elif isinstance(stmt, ast.Call) and stmt.args and (
                (isinstance(stmt.func, ast.Name) and stmt.func.id in ("setattr", "delattr"))
                or (isinstance(stmt.func, ast.Attribute) and stmt.func.attr in ("__setattr__", "__delattr__")
                    and isinstance(stmt.func.value, ast.Name) and stmt.func.value.id == "object")):
            # setattr(other, "x", v) and object.__setattr__(other, "x", v) write other.x
            if not _own(stmt.args[0], built):
                out.append(f"line {stmt.lineno}: {ast.unparse(stmt)[:80]}")
            continue
        else:
            continue
        while targets:
            target = targets.pop()
            if isinstance(target, ast.Tuple | ast.List | ast.Starred):
                targets += target.elts if not isinstance(target, ast.Starred) else [target.value]
                continue
            if any(not _own(o, built) for o in _owners(target)):
                out.append(f"line {stmt.lineno}: {ast.unparse(stmt)[:80]}")
    return sorted(set(out))


def _owners(target: ast.expr) -> list[ast.expr]:
    """The objects whose attribute ``target`` (or an item of it) is: ``h`` for ``h.dead`` or ``h.deal.held[s]``,
    each branch's for ``(b.zone if b else self.zones[s])[k]``; none for a plain name."""
    while isinstance(target, ast.Subscript):
        target = target.value
    if isinstance(target, ast.IfExp):
        return _owners(target.body) + _owners(target.orelse)
    if isinstance(target, ast.BoolOp):
        return [o for v in target.values for o in _owners(v)]
    return [target.value] if isinstance(target, ast.Attribute) else []


def _cross_mutations(tree: ast.Module) -> list[str]:
    """Each call in ``tree`` of a mutating method on an attribute (or an item of one) of something but ``self``:
    ``h.dead.add(seat)``, ``race.chips[seat].append(n)``."""
    out = []
    for built, node in _statements(tree):
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in MUTATORS):
            continue
        if any(not _own(o, built) for o in _owners(node.func.value)):
            out.append(f"line {node.lineno}: {ast.unparse(node)[:80]}")
    return sorted(set(out))


def _measure(check: Callable[[ast.Module], list[str]]) -> dict[str, list[str]]:
    found: dict[str, list[str]] = {}
    for package in OWNED_PACKAGES:
        for path in sorted((PACKAGE / package).rglob("*.py")):
            hits = check(ast.parse(path.read_text(), str(path)))
            if hits:
                found[str(path.relative_to(PACKAGE))] = hits
    return found


def test_no_part_writes_state_another_part_owns():
    found = _measure(_cross_writes)
    over = {f: w for f, w in found.items() if len(w) > KNOWN_CROSS_WRITES.get(f, 0)}
    assert over == {}, "a part writes another's state: call a method of its owner that says what happened"
    stale = {f: n for f, n in KNOWN_CROSS_WRITES.items() if len(found.get(f, ())) < n}
    assert stale == {}, "fewer cross-part writes than KNOWN_CROSS_WRITES says: lower the count there"


def test_no_part_mutates_a_container_another_part_owns():
    found = _measure(_cross_mutations)
    over = {f: w for f, w in found.items() if len(w) > KNOWN_CROSS_MUTATIONS.get(f, 0)}
    assert over == {}, "a part changes another's container: call a method of its owner that says what happened"
    stale = {f: n for f, n in KNOWN_CROSS_MUTATIONS.items() if len(found.get(f, ())) < n}
    assert stale == {}, "fewer cross-part mutations than KNOWN_CROSS_MUTATIONS says: lower the count there"
