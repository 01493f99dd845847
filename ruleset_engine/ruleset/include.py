"""`include:`, a ruleset in several files: chapters gathered into the file that names them.

    ruleset: chronicle
    title: A long game
    include: [chapters/characters.yaml, chapters/combat.yaml]

Each chapter is a mapping of the same sections as a ruleset (`params:`, `tables:`, `actions:`,
`end:` ...), with no `ruleset:` or `title:` of its own. Chapters are gathered in the order
named, after the including file's own sections, before `extends:` merges anything: a section
that is a map takes the keys of every file, and a key given in two files is refused with both
places (a chapter adds, it never overrides: that is what `extends:` and house rules are for);
a section that is a list (`setup:`, `loop:`, `triggers:`, `end:`) takes the items of every file,
the including file's first; a single value (`status:`) is given by one file only.

A chapter may include others (relative to its own folder); the paths follow the rule of
`extends:` (a .yaml or .yml file in the including file's folder or below it, read by the one
text-file reader). Every value keeps the file and line it came from, so each error names the
chapter it is in.
"""

from __future__ import annotations

from ruleset_engine.i18n import _

import os
from pathlib import Path

from .merge import copy_place
from .problems import Position, Problem, RulesetError, dotted
from .yamlio import LDict, LList, key_position_of, position_of

MAX_FILES = 64        # files gathered by the includes of one ruleset, all levels
MAX_DEPTH = 16        # chapters including chapters
NOT_IN_A_CHAPTER = ("ruleset", "extends")


class Gathering:
    """The includes of one ruleset file: what was read, and what went wrong."""

    def __init__(self, read, may_read):
        self.read = read              # (path, name shown) -> the file's data, an LDict
        self.may_read = may_read      # (source as written, path, folder) -> raises when not allowed
        self.files: list[str] = []
        self.problems: list[Problem] = []

    def expand(self, data: LDict, path: Path, name: str, chain: tuple = ()) -> LDict:
        """`data` (read from `path`, shown as `name`) with its chapters gathered in, recursively."""
        names = data.get("include")
        if names is None:
            return data
        where = position_of(data, ("include",))
        if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
            raise RulesetError([Problem(_("include: takes a list of files (chapters/combat.yaml)"), where,
                                        ("include",))])
        del data["include"]
        for i, source in enumerate(names):
            at = position_of(names, (i,)) or where
            chapter_path = path.parent / source
            try:
                self.may_read(source, chapter_path, path.parent)
            except RulesetError as err:
                raise RulesetError([Problem(_("include: {message}").format(message=err.problems[0].message), at,
                                            ("include", i))]) from None
            resolved = Path(os.path.realpath(chapter_path))
            if resolved in chain:
                circle = " -> ".join([p.name for p in chain] + [chapter_path.name])
                raise RulesetError([Problem(_("include: goes round in a circle: {circle}").format(circle=circle),
                                            at, ("include", i))])
            if len(chain) >= MAX_DEPTH or len(self.files) >= MAX_FILES:
                raise RulesetError([Problem(_("include: more than {MAX_FILES} files, or chapters more "
                                              "than {MAX_DEPTH} levels deep").format(
                                                MAX_FILES=MAX_FILES, MAX_DEPTH=MAX_DEPTH), at, ("include", i))])
            shown = os.path.normpath(os.path.join(os.path.dirname(name), source))   # as the user wrote it
            chapter = self.read(chapter_path, shown)
            if not isinstance(chapter, LDict):
                raise RulesetError([Problem(_("a chapter is a mapping of sections (tables:, actions:, "
                                              "...)"),
                                            Position(shown, 1, 1))])
            self.files.append(shown)
            chapter = self.expand(chapter, chapter_path, shown, chain + (resolved,))
            self.gather(data, chapter)
        return data

    def gather(self, into: LDict, chapter: LDict) -> None:
        """The sections of `chapter` added to `into`; a key given twice is a problem at both places."""
        for key, value in chapter.items():
            if key in NOT_IN_A_CHAPTER:
                self.problems.append(Problem(_("{key}: belongs to the file that includes the chapters, "
                                               "not to a chapter").format(
                                                 key=key), key_position_of(chapter, (key,)), (key,)))
            elif key not in into:
                into[key] = value
                copy_place(into, chapter, key)
            elif isinstance(into[key], LDict) and isinstance(value, LDict):
                for name, item in value.items():
                    if name in into[key]:
                        self.twice((key, name), into[key], value)
                    else:
                        into[key][name] = item
                        copy_place(into[key], value, name)
            elif isinstance(into[key], LList) and isinstance(value, LList):
                into[key].extend(value)
                into[key].item_pos.extend(value.item_pos)
            elif isinstance(into[key], (LDict, LList)) or isinstance(value, (LDict, LList)):
                there = key_position_of(into, (key,))
                self.problems.append(Problem(_("{key} is {kind} here and {kind2} at {there}: a section "
                                               "is written the same way in every file").format(
                                                 key=key, kind=_kind(value), kind2=_kind(into[key]), there=there),
                                             key_position_of(chapter, (key,)), (key,)))
            else:
                self.twice((key,), into, chapter)

    def twice(self, path: tuple, first: LDict, second: LDict) -> None:
        """The key ending `path`, given by two files: the problem at the second, naming the first."""
        there = key_position_of(first, path[-1:])
        self.problems.append(Problem(_("{path} is given twice: here and at {there} (a chapter adds to "
                                       "a ruleset; to change what another file gives, use extends:)").format(
                                         path=dotted(path), there=there),
                                     key_position_of(second, path[-1:]), path))


def _kind(value) -> str:
    return _("a map") if isinstance(value, dict) else _("a list") if isinstance(value, list) else _("a single value")
