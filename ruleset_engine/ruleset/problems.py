"""Problems found in a ruleset, each located as `file:line:col: message (at path.to.key)`.

A RulesetError carries every problem of a file at once, so a designer fixes
them all in one pass instead of one per run.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ruleset_engine.errors import DuskError


@dataclass(frozen=True, slots=True)
class Position:
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
    message: str
    position: Position | None = None
    path: tuple = ()
    detail: list[str] = field(default_factory=list)   # e.g. a formula and its caret

    def __str__(self) -> str:
        where = f"{self.position}: " if self.position else ""
        at = f" (at {dotted(self.path)})" if self.path else ""
        return "\n".join([f"{where}{self.message}{at}", *self.detail])

    def sort_key(self):
        p = self.position
        return (p.file, p.line, p.column) if p else ("", 0, 0)


class RulesetError(DuskError):
    """A ruleset that cannot be used, with every problem found."""

    def __init__(self, problems: list[Problem]):
        self.problems = sorted(problems, key=Problem.sort_key)
        super().__init__("\n".join(str(p) for p in self.problems))

    def __str__(self) -> str:
        n = len(self.problems)
        return "\n".join(str(p) for p in self.problems) + f"\n{n} problem{'s' if n != 1 else ''}"
