"""Loading a ruleset: YAML with positions, then `include:`, then `extends:`, then the schema, then the meaning.

`load(source)` takes a bundled id or a path and returns a compiled Ruleset, or
raises RulesetError with every problem found, each as `file:line:col: message
(at path)`.
"""

from __future__ import annotations

from ruleset_engine.i18n import _

import os
from pathlib import Path

from ruleset_engine.dice.remembered import remembering

from . import bundled
from .checker import RulesetChecker
from .files import may_extend as _may_extend
from .files import may_include as _may_include
from .include import Gathering
from .merge import merge_rulesets
from .problems import Position, Problem, RulesetError
from .schema import validate
from .yamlio import LDict, load_yaml_file, position_of

MAX_EXTENDS = 16


def locate(source: str, relative_to: Path | None = None) -> tuple[Path, str]:
    """(real path, name shown in messages) of a bundled id or a file path. A file that exists is a
    path, whatever its name; a name that is no file is looked for among the bundled rulesets."""
    candidate = Path(source) if relative_to is None or Path(source).is_absolute() else relative_to / source
    looks_like_path = source.endswith((".yaml", ".yml")) or os.sep in source or "/" in source or candidate.is_file()
    if looks_like_path:
        if relative_to is not None:      # a parent named by an extends:
            _may_extend(source, candidate, relative_to)
        return candidate, str(candidate) if relative_to is None else os.path.relpath(candidate)
    path = bundled.bundled_path(source)
    if path is None:
        known = ", ".join(sorted(bundled.bundled_files())) or "none"
        raise RulesetError([Problem(_("no bundled ruleset {source!r} (bundled: {known}), and no such "
                                      "file").format(source=source, known=known))])
    return path, bundled.display_name(path)


def read_merged(source: str, relative_to: Path | None = None, chain: tuple = (),
                real: dict | None = None) -> tuple[LDict, list[str]]:
    """The data of a ruleset with its parents merged in; the files, child first. `real`, when given,
    gets the path of each file by the name it is shown by (the files a ruleset lists are read beside it)."""
    path, name = locate(source, relative_to)
    real = {} if real is None else real
    real[name] = path
    resolved = Path(os.path.realpath(path))     # realpath, unlike resolve(), never raises on a loop
    if resolved in chain:
        names = " -> ".join([p.name for p in chain] + [path.name])
        raise RulesetError([Problem(_("extends: goes round in a circle: {names}").format(names=names),
                                    Position(name, 1, 1))])
    if len(chain) >= MAX_EXTENDS:
        raise RulesetError([Problem(_("extends: more than {MAX_EXTENDS} levels deep").format(
                                        MAX_EXTENDS=MAX_EXTENDS), Position(name, 1, 1))])
    data = load_yaml_file(path, name)
    if not isinstance(data, LDict):
        # Named by kind only: the file may be anything, and its contents are not ours to print.
        raise RulesetError([Problem(_("a ruleset is a mapping of keys (ruleset:, title:, ...), not "
                                      "{kind_of}").format(
                                        kind_of=_kind_of(data)), Position(name, 1, 1))])
    def read_chapter(chapter_path, shown):
        real[shown] = chapter_path
        return load_yaml_file(chapter_path, shown)

    gathering = Gathering(read_chapter, _may_include)
    data = gathering.expand(data, path, name, (resolved,))
    if gathering.problems:
        raise RulesetError(gathering.problems)
    files = [name] + gathering.files
    parent_source = data.get("extends")
    if parent_source is None:
        return data, files
    if not isinstance(parent_source, str):
        raise RulesetError([Problem(_("extends: takes a bundled id or a path"), position_of(data, ("extends",)),
                                    ("extends",))])
    try:
        parent, parent_files = read_merged(parent_source, path.parent, chain + (resolved,), real)
    except RulesetError as err:
        if len(err.problems) == 1 and err.problems[0].position is None:
            problem = err.problems[0]
            raise RulesetError([Problem(_("extends: {message}").format(message=problem.message),
                                        position_of(data, ("extends",)),
                                        ("extends",))]) from None
        raise
    merged, problems = merge_rulesets(parent, data, parent_files[0], name)
    if problems:
        raise RulesetError(problems)
    return merged, files + parent_files


def _kind_of(data) -> str:
    return _("a list") if isinstance(data, list) else _("a text") if isinstance(data, str) else _("a single value")


def _contents(paths):
    """The bytes of each file, in order (what a ruleset's remembered parses are found by)."""
    for path in paths:
        with open(path, "rb") as handle:
            yield handle.read()


def load(source: str):
    """A compiled Ruleset from a bundled id or a file; RulesetError lists every problem."""
    real: dict = {}
    data, files = read_merged(source, real=real)
    problems = validate(data)
    # What the schema refused is passed over by the meaning checks; the rest is still checked. The
    # formulas' syntax trees are remembered by the ruleset's files (dice/remembered.py: Lark unneeded).
    with remembering(_contents(real[name] for name in files if name in real)):
        checker = RulesetChecker(data, files[0], files, broken=[p.path for p in problems if p.path],
                                 refused=bool(problems), real=real)
        ruleset = checker.build()
    if ruleset is None:
        raise RulesetError(problems + checker.problems)
    return ruleset
