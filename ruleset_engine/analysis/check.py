"""`dusk check`: everything that can be known about a ruleset before a game starts.

Loading finds what the file means (ruleset/checker.py), every problem at once; then writing its
program, in both modes, with its default params, finds what only the lowered form can see (a
count of dice that the params make too large, say): the first such problem, with its place.
"""

from __future__ import annotations

from ruleset_engine.ruleset import Problem, RulesetError, load
from ruleset_engine.ruleset.model import Ruleset
from ruleset_engine.runtime import DEFAULT_RUN_LIMITS, resolve_params
from ruleset_engine.runtime.program import ProgramError, build


def check(source: str) -> tuple[Ruleset | None, list[Problem]]:
    """(the ruleset, []) when it is sound; (None or the ruleset, every problem found) when not."""
    try:
        ruleset = load(source)
    except RulesetError as err:
        return None, list(err.problems)
    problems = []
    params = resolve_params(ruleset, {})
    for traced in (True, False):
        try:
            build(ruleset, params, traced=traced, run_limits=DEFAULT_RUN_LIMITS)
        except ProgramError as err:
            problems += [Problem(p.message, p.where, p.path, p.detail) for p in err.problems]
            break
    return ruleset, problems
