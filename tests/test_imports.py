"""The engine's imports go one way: no cycles between modules, no layer importing a layer above it.

Every import statement of every module under ruleset_engine/ is read with the ast module (those
inside functions too, at any depth, and relative ones resolved), including the modules installed
inside the package from other folders of the checkout (repl/ is ruleset_engine.repl). The layers,
from the bottom:

    ruleset_engine.errors (and .textfile, which reads files, .i18n, dusk's words by language, and .cache, the user's cache folder) < .dice < .ruleset < .runtime < .analysis < (.cli, .repl, .web, .__main__)

ruleset_engine/__init__.py is the public face: it may name anything (its imports are lazy), but no
module of the engine may import it; the front ends (cli, repl, web, __main__) may. An import names the
module it reaches: `from a.b import c` reaches a.b.c when that is a module, else a.b.
"""

from __future__ import annotations

import ast
import importlib
import re
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = "ruleset_engine"
# Folders of the checkout installed inside the package (setup.py's package_dir), that hold code.
MAPPED = {"ruleset_engine.repl": ROOT / "repl", "ruleset_engine.web": ROOT / "web"}

LAYERS = [
    ("ruleset_engine.errors", "ruleset_engine.textfile", "ruleset_engine.i18n", "ruleset_engine.cache"),
    ("ruleset_engine.dice",),
    ("ruleset_engine.ruleset",),
    ("ruleset_engine.runtime",),
    ("ruleset_engine.analysis",),
    ("ruleset_engine.cli", "ruleset_engine.argparse_words", "ruleset_engine.repl", "ruleset_engine.web", "ruleset_engine.__main__"),
]
FRONT = len(LAYERS) - 1


@dataclass(frozen=True)
class Import:
    source: str      # the importing module
    target: str      # the module it reaches
    file: str
    line: int

    def __str__(self) -> str:
        return f"{self.file}:{self.line}: {self.source} imports {self.target}"


def modules() -> dict[str, Path]:
    """Every module of the package: dotted name -> file."""
    found: dict[str, Path] = {}
    roots = {PACKAGE: ROOT / PACKAGE, **MAPPED}
    for name, folder in roots.items():
        for path in sorted(folder.rglob("*.py")):
            if "__pycache__" in path.parts:
                continue
            parts = list(path.relative_to(folder).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            found[".".join([name, *parts])] = path
    return found


MODULES = modules()


def is_package(name: str) -> bool:
    return MODULES[name].name == "__init__.py"


def resolve(module: str, level: int, name: str | None) -> str:
    """The absolute name of `from <level dots><name>` written in `module`."""
    if level == 0:
        return name or ""
    base = module.split(".")
    if not is_package(module):
        base = base[:-1]
    if level > 1:
        base = base[: len(base) - (level - 1)]
    return ".".join(base + ([name] if name else []))


def reached(target: str) -> str | None:
    """The module of ours an import reaches (the longest known prefix), or None for another library."""
    parts = target.split(".")
    while parts:
        name = ".".join(parts)
        if name in MODULES:
            return name
        parts.pop()
    return None


def imports_of(module: str) -> list[Import]:
    path = MODULES[module]
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    shown = path.relative_to(ROOT).as_posix()
    out: list[Import] = []

    def add(target: str, node: ast.AST) -> None:
        found = reached(target)
        if found is not None and found != module:
            out.append(Import(module, found, shown, node.lineno))

    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                add(alias.name, node)
        elif isinstance(node, ast.ImportFrom):
            base = resolve(module, node.level, node.module)
            for alias in node.names:
                full = f"{base}.{alias.name}"
                add(full if full in MODULES else base, node)
    return out


def all_imports() -> list[Import]:
    return [found for module in sorted(MODULES) for found in imports_of(module)]


def layer(module: str) -> int | None:
    for index, prefixes in enumerate(LAYERS):
        if any(module == p or module.startswith(p + ".") for p in prefixes):
            return index
    return None


def cycles(edges: list[Import]) -> list[list[Import]]:
    """One cycle (as its imports, in order) for each group of modules that import each other."""
    graph: dict[str, dict[str, Import]] = {}
    for edge in edges:
        graph.setdefault(edge.source, {}).setdefault(edge.target, edge)
    # Tarjan's strongly connected components, iteratively.
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups: list[list[str]] = []
    counter = 0
    for start in sorted(MODULES):
        if start in index:
            continue
        work = [(start, iter(sorted(graph.get(start, {}))))]
        index[start] = low[start] = counter
        counter += 1
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            for child in children:
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph.get(child, {})))))
                    break
                if child in on_stack:
                    low[node] = min(low[node], index[child])
            else:
                work.pop()
                if work:
                    parent = work[-1][0]
                    low[parent] = min(low[parent], low[node])
                if low[node] == index[node]:
                    group = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        group.append(member)
                        if member == node:
                            break
                    if len(group) > 1:
                        groups.append(sorted(group))
    found = []
    for group in groups:
        members = set(group)
        # The shortest way from the group's first module back to itself, inside the group.
        first = group[0]
        paths = {first: []}
        queue = [first]
        cycle = None
        while queue and cycle is None:
            node = queue.pop(0)
            for child, edge in sorted(graph.get(node, {}).items()):
                if child not in members:
                    continue
                if child == first:
                    cycle = paths[node] + [edge]
                    break
                if child not in paths:
                    paths[child] = paths[node] + [edge]
                    queue.append(child)
        found.append(cycle)
    return found


def describe(cycle: list[Import]) -> str:
    names = " -> ".join([cycle[0].source] + [edge.target for edge in cycle])
    return names + "\n" + "\n".join(f"    {edge}" for edge in cycle)


# ---- the checks of the reader itself ------------------------------------------------------------

def test_every_module_is_read():
    assert "ruleset_engine" in MODULES and "ruleset_engine.cli" in MODULES
    assert "ruleset_engine.repl.app" in MODULES and "ruleset_engine.dice.expression" in MODULES
    assert all(layer(name) is not None for name in MODULES if name != PACKAGE), \
        [name for name in MODULES if name != PACKAGE and layer(name) is None]


def test_relative_imports_and_imports_inside_functions_are_resolved():
    assert resolve("ruleset_engine.repl.app", 1, "commands") == "ruleset_engine.repl.commands"
    assert resolve("ruleset_engine.dice", 1, "errors") == "ruleset_engine.dice.errors"
    assert resolve("ruleset_engine.runtime.game", 2, "dice") == "ruleset_engine.dice"
    found = {(i.source, i.target) for i in all_imports()}
    # cli.py imports the REPL inside a function
    assert ("ruleset_engine.cli", "ruleset_engine.repl.app") in found


def test_the_cycle_finder_finds_a_cycle():
    a = Import("ruleset_engine.cli", "ruleset_engine.__main__", "x", 1)
    b = Import("ruleset_engine.__main__", "ruleset_engine.cli", "y", 2)
    assert cycles([a, b]) == [[b, a]]


# ---- the rules -------------------------------------------------------------------------------

def test_no_import_cycles():
    found = cycles(all_imports())
    assert not found, f"{len(found)} import cycle(s):\n" + "\n".join(describe(c) for c in found)


def test_layers_import_only_downwards():
    upward = []
    for edge in all_imports():
        if edge.source == PACKAGE:
            continue                  # the public face may name anything
        if edge.target == PACKAGE:
            if layer(edge.source) != FRONT:
                upward.append(f"{edge} (the public face: only the front ends may import it)")
            continue
        if layer(edge.target) > layer(edge.source):
            upward.append(f"{edge} (layer {layer(edge.source)} imports layer {layer(edge.target)})")
    assert not upward, f"{len(upward)} upward import(s):\n" + "\n".join(upward)


API_ENTRY = re.compile(r"^ruleset_engine(\.[a-z_]+)*$")


def public_api() -> dict[str, tuple[str, str]]:
    tree = ast.parse((ROOT / PACKAGE / "__init__.py").read_text(encoding="utf-8"))
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(getattr(t, "id", None) == "_API" for t in node.targets):
            return ast.literal_eval(node.value)
    raise AssertionError("no _API table in ruleset_engine/__init__.py")


def test_the_public_face_names_only_engine_modules():
    for name, (module, attribute) in public_api().items():
        assert API_ENTRY.match(module) and module in MODULES, (name, module)
        assert layer(module) < FRONT, f"{name}: the public face names the front end {module}"


@pytest.mark.parametrize("name", sorted(public_api()))
def test_every_public_name_resolves(name):
    import ruleset_engine

    module, attribute = public_api()[name]
    assert getattr(ruleset_engine, name) is getattr(importlib.import_module(module), attribute)


def test_each_module_is_imported_by_one_name():
    """The REPL is ruleset_engine.repl, never a top-level `repl` (code, tests and benchmarks)."""
    wrong = []
    for folder in ("ruleset_engine", "repl", "web", "tests", "benchmarks"):
        for path in sorted((ROOT / folder).rglob("*.py")):
            tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
            for node in ast.walk(tree):
                names = []
                if isinstance(node, ast.Import):
                    names = [alias.name for alias in node.names]
                elif isinstance(node, ast.ImportFrom) and node.level == 0:
                    names = [node.module or ""]
                for name in names:
                    if name in ("repl", "web") or name.startswith(("repl.", "web.")):
                        wrong.append(f"{path.relative_to(ROOT)}:{node.lineno}: {name}")
    assert not wrong, "import ruleset_engine.repl, not repl:\n" + "\n".join(wrong)


def test_the_runtime_does_not_import_the_load_time_checker():
    import subprocess
    import sys

    code = ("import sys, ruleset_engine.runtime.game, ruleset_engine.runtime.program; "
            "print(sorted(m for m in sys.modules if m.startswith('ruleset_engine') and m.endswith(('.checker', '.loader', '.schema', '.merge'))))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=True)
    assert out.stdout.strip() == "[]", out.stdout


def test_only_the_odds_import_icepool():
    """icepool is imported by `dusk prob` alone: `dusk roll`, the dice language with its registry (whose
    exact forms are plain functions), the rulesets, simulations and the table start without it."""
    import subprocess
    import sys

    code = ("import sys, ruleset_engine.cli, ruleset_engine.dice.functions, ruleset_engine.dice.modifiers, "
            "ruleset_engine.ruleset, ruleset_engine.runtime.game, ruleset_engine.analysis.simulate, "
            "ruleset_engine.repl.app, ruleset_engine.repl.commands; "
            "ruleset_engine.cli.main(['roll', '4d6kh3', '--seed', '1']); "
            "print('icepool' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=True)
    assert out.stdout.strip().splitlines()[-1] == "False", out.stdout
    code = "import sys, ruleset_engine.cli; ruleset_engine.cli.main(['prob', '2d6']); print('icepool' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=True)
    assert out.stdout.strip().splitlines()[-1] == "True", out.stdout


def test_icepool_is_imported_by_the_exact_translation_only():
    importers = sorted({edge.file for edge in _icepool_imports()})
    assert importers == ["ruleset_engine/analysis/exact.py"], importers


def _icepool_imports() -> list[Import]:
    found = []
    for module, path in MODULES.items():
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        for node in ast.walk(tree):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else \
                [node.module or ""] if isinstance(node, ast.ImportFrom) else []
            if any(n == "icepool" or n.startswith("icepool.") for n in names):
                found.append(Import(module, "icepool", path.relative_to(ROOT).as_posix(), node.lineno))
    return found


# What the front ends reach past the public face (docs/engine.md, "front ends"): the analysis commands'
# views and helpers, sheets, the built-in names and textfile. Another module is a new door around the
# face: export it there, or name it here and in the docs. i18n (the language every word is said in) is
# no door: every layer says its words through it, the front ends as much as the engine.
PAST_THE_FACE = {
    "ruleset_engine.analysis.compare", "ruleset_engine.analysis.compare_view", "ruleset_engine.analysis.playouts",
    "ruleset_engine.analysis.plot", "ruleset_engine.analysis.prob", "ruleset_engine.analysis.prob_view",
    "ruleset_engine.analysis.sweep", "ruleset_engine.analysis.sweep_view",
    "ruleset_engine.ruleset.names", "ruleset_engine.ruleset.sheets", "ruleset_engine.textfile",
}


def test_the_front_ends_reach_past_the_public_face_only_where_the_docs_say():
    past = [i for i in all_imports() if layer(i.source) == FRONT and layer(i.target) is not None
            and layer(i.target) < FRONT and i.target not in (PACKAGE, PACKAGE + ".i18n")]
    assert {i.target for i in past} == PAST_THE_FACE, "\n".join(str(i) for i in past if i.target not in PAST_THE_FACE)
    assert len({(i.file, i.line) for i in past}) == 11          # the count docs/engine.md gives
    docs = (ROOT / "docs" / "engine.md").read_text(encoding="utf-8")
    for name in PAST_THE_FACE:
        assert name.rsplit(".", 1)[-1] + ".py" in docs, name


# Imported by what needs them, never by a start: the table's first screen (`dusk play RULESET -c state`)
# does without them. shutil (with bz2 and lzma) came with tempfile (export) and with argparse's help
# formatter asking the terminal's width for every add_argument; the sheets' module with a start that
# brought no sheet; fill.py with the table's commands.
NOT_AT_START = ("shutil", "tempfile", "bz2", "lzma", "ruleset_engine.ruleset.sheets", "ruleset_engine.repl.fill")


def test_a_table_starts_without_what_its_first_screen_does_not_need(tmp_path):
    import os
    import subprocess
    import sys

    env = dict(os.environ, DUSK_DATA_DIR=str(tmp_path / "data"), DUSK_CACHE_DIR=str(tmp_path / "cache"))
    code = ("import sys, ruleset_engine.cli; status = ruleset_engine.cli.main(['play', 'attack-of-the-vampires', "
            "'-c', 'state']); print('IMPORTED', status, sorted(m for m in sys.modules if m in %r))" % (NOT_AT_START,))
    for _ in range(2):      # the second with the parses and reads remembered, as a start mostly is (a first
        # one reads the YAML, parses the formulas and checks the schema: those libraries import what they need)
        out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, env=env)
        assert out.returncode == 0, out.stderr
    assert out.stdout.splitlines()[-1] == "IMPORTED 0 []", out.stdout[-500:]
    # and each is there when its own work asks for it: the help, an export that replaces a file, sheets
    code = ("import sys, io, contextlib, ruleset_engine.cli; from pathlib import Path; Path('x.md').write_text('old'); "
            "f = io.StringIO(); r = contextlib.redirect_stdout(f); r.__enter__(); "
            "ruleset_engine.cli.main(['play', 'attack-of-the-vampires', '-c', 'export --force x.md']); r.__exit__(None, None, None); "
            "print('IMPORTED', sorted(m for m in sys.modules if m in ('tempfile', 'shutil')))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, env=env, cwd=tmp_path)
    assert out.stdout.splitlines()[-1] == "IMPORTED ['shutil', 'tempfile']", out.stdout[-500:] + out.stderr
    assert (tmp_path / "x.md").read_text(encoding="utf-8") != "old"


# `dusk roll` pays for what it imports on every start (issue 29: its start is measured against a bare
# interpreter's): with the parse remembered it needs neither the grammar's library nor the YAML reader,
# and the typing module (a large import) only named annotations that need no import.
NOT_FOR_A_ROLL = ("typing", "lark", "yaml", "icepool", "numpy", "jsonschema", "sqlite3", "rich")


def test_a_roll_imports_only_what_rolling_needs(tmp_path):
    import os
    import subprocess
    import sys

    env = dict(os.environ, DUSK_CACHE_DIR=str(tmp_path / "cache"))
    code = ("import sys, ruleset_engine.cli; status = ruleset_engine.cli.main(['roll', '4d6kh3+2', '--seed', '1']); "
            "print('IMPORTED', status, sorted(m for m in sys.modules if m.split('.')[0] in %r))" % (NOT_FOR_A_ROLL,))
    for _ in range(2):      # the second with the parse remembered
        out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, env=env)
        assert out.returncode == 0, out.stderr
    assert out.stdout.splitlines()[-1] == "IMPORTED 0 []", out.stdout[-500:]
