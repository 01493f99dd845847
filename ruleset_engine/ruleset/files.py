"""Which files a ruleset may make dusk read: the parent an `extends:` names, the chapters of an
`include:`, the sheets of a group's `sheet: files:`. Each is a .yaml file in the folder of the file
that names it or below it (links followed, and they must land there too), so a ruleset someone sends
cannot make dusk read, and quote in its errors, a file it has no business with."""

from __future__ import annotations

from ruleset_engine.i18n import _

import os
from pathlib import Path

from .problems import Problem, RulesetError


def may_extend(source: str, path: Path, folder: Path) -> None:
    """What `extends:` may read: a bundled ruleset (found by id, above), or a ruleset file (.yaml or
    .yml) in the extending file's folder or below it, links followed. So a ruleset from elsewhere
    cannot make dusk read, and quote in its errors, a file it has no business with."""
    if not path.name.endswith((".yaml", ".yml")):
        raise RulesetError([Problem(_("names a bundled ruleset or a .yaml file, not {source!r}").format(
                                        source=source))])
    within(path, folder, _("{source!r} is outside the folder of the ruleset that extends it; a ruleset extends "
                            "a bundled one or a file in its own folder or below").format(source=source))


def may_include(source: str, path: Path, folder: Path) -> None:
    """What `include:` may read: a .yaml or .yml file in the including file's folder or below it."""
    if not path.name.endswith((".yaml", ".yml")):
        raise RulesetError([Problem(_("names a .yaml file, not {source!r}").format(source=source))])
    within(path, folder, _("{source!r} is outside the folder of the ruleset that includes it; a ruleset "
                            "includes files in its own folder or below").format(source=source))
    if not path.exists():
        raise RulesetError([Problem(_("there is no file {source!r} (a path is read from the folder of "
                                      "the file that names it)").format(
                                        source=source))])
    if path.is_dir():
        raise RulesetError([Problem(_("{source!r} is a folder, not a file").format(source=source))])


def within(path: Path, folder: Path, refusal: str) -> None:
    """Refused (with `refusal`, said in the table's language) when `path` lies outside `folder`."""
    root = os.path.realpath(folder)
    if os.path.commonpath([root, os.path.realpath(path)]) != root:
        raise RulesetError([Problem(refusal)])
