"""Problems found in a ruleset, each located as `file:line:col: message (at path.to.key)`.

A RulesetError carries every problem of a file at once, so a designer fixes
them all in one pass instead of one per run.
"""

from __future__ import annotations

from ruleset_engine.i18n import _, ngettext, number

from dataclasses import dataclass, field

from ruleset_engine.errors import DuskError


# Frozen and compared by value: a place read again from remembered reads is the same place, and dusk check
# --playouts counts its findings in a dict keyed by (place, message) (analysis/playouts._seen).
@dataclass(frozen=True, slots=True)
class Position:
    """Where something was written: file, line and column, from 1."""

    file: str
    line: int      # 1-based
    column: int    # 1-based

    def __str__(self) -> str:
        return f"{self.file}:{self.line}:{self.column}"


def dotted(path) -> str:
    """('actions', 'round', 'steps', 3, 'if') -> actions.round.steps[3].if"""
    out = ""
    for part in path:
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            out += ("." if out else "") + str(part)
    return out


@dataclass(slots=True)
class Problem:
    """One thing wrong with a ruleset, with its place and path."""

    message: str
    position: Position | None = None
    path: tuple = ()
    detail: list[str] = field(default_factory=list)   # e.g. a formula and its caret

    def __str__(self) -> str:
        where = f"{self.position}: " if self.position else ""
        at = _(" (at {path})").format(path=dotted(self.path)) if self.path else ""
        return "\n".join([f"{where}{self.message}{at}", *self.detail])

    def sort_key(self):
        p = self.position
        return (p.file, p.line, p.column) if p else ("", 0, 0)


MAX_KEPT = 100     # problems kept (and shown) of one ruleset or of the sheets of one command


class Problems(list):
    """The problems found, the first MAX_KEPT of them kept and the rest only counted: a file of
    150,000 unknown fields gives 100 messages and a count, not 150,000 messages in memory."""

    more = 0

    def append(self, problem: Problem) -> None:
        if len(self) < MAX_KEPT:
            super().append(problem)
        else:
            self.more += 1

    def extend(self, problems) -> None:
        for problem in problems:
            self.append(problem)
        self.more += getattr(problems, "more", 0)

    def __iadd__(self, problems):
        self.extend(problems)
        return self

    def __add__(self, problems):
        out = Problems()
        out.extend(self)
        out.extend(problems)
        return out

    __radd__ = lambda self, problems: Problems(problems) + self   # noqa: E731 (list + Problems)

    @property
    def total(self) -> int:
        return len(self) + self.more


def kept(problems) -> Problems:
    """Any list of problems as Problems (the first MAX_KEPT, the rest counted)."""
    out = Problems()
    out.extend(problems)
    return out


def count_line(problems) -> str:
    """The last line of a list of problems: how many, and how many of them were not kept."""
    total = getattr(problems, "total", len(problems))
    line = ngettext("{n} problem", "{n} problems", total).format(n=number(total))
    return line + (_(" (the first {n} shown)").format(n=number(len(problems))) if total > len(problems) else "")


class RulesetError(DuskError):
    """A ruleset that cannot be used, with the problems found (the first MAX_KEPT, and a count)."""

    def __init__(self, problems: list[Problem]):
        found = kept(problems)
        self.problems = Problems(sorted(found, key=Problem.sort_key))
        self.problems.more = found.more
        super().__init__("\n".join(str(p) for p in self.problems))

    def __str__(self) -> str:
        return "\n".join(str(p) for p in self.problems) + "\n" + count_line(self.problems)
