"""`dusk check`: everything that can be known about a ruleset before a game starts.

Loading finds what the file means (ruleset/checker.py), every problem at once; then writing its
program, in both modes, with its default params, finds what only the lowered form can see (a
count of dice that the params make too large, say): the first such problem, with its place.
Last, the values a game starts with are made once, with the default params and a fixed seed
(no setup: step runs, so nothing is asked): a track sized 0 by a param's default, a group past
its max:, is found here rather than at the table.
"""

from __future__ import annotations

import random

from ruleset_engine import i18n
from ruleset_engine.ruleset import Problem, RulesetError, load
from ruleset_engine.ruleset.model import Ruleset
from ruleset_engine.runtime import DEFAULT_RUN_LIMITS, resolve_params
from ruleset_engine.runtime.errors import RuleError
from ruleset_engine.runtime.program import ProgramError, build
from ruleset_engine.runtime.run import Run


def check(source: str) -> tuple[Ruleset | None, list[Problem]]:
    """(the ruleset, []) when it is sound; (None or the ruleset, every problem found) when not."""
    try:
        ruleset = load(source)
    except RulesetError as err:
        return None, err.problems
    problems = []
    params = resolve_params(ruleset, {})
    for traced in (True, False):
        try:
            program = build(ruleset, params, traced=traced, run_limits=DEFAULT_RUN_LIMITS)
        except ProgramError as err:
            problems += [Problem(p.message, p.where, p.path, p.detail) for p in err.problems]
            return ruleset, problems
    return ruleset, _starting_values(program)


def _starting_values(program) -> list[Problem]:
    """The problem of making a game's starting values with the default params, or none."""
    run = Run(traced=False, auto=True, max_steps=DEFAULT_RUN_LIMITS.max_steps,
              max_depth=DEFAULT_RUN_LIMITS.max_call_depth)
    try:
        program.bind(random.Random(0).randint, run)["init"]()
    except Exception as err:   # a rule that failed: located where the ruleset wrote it
        located = program.locate(err)
        if not isinstance(located, RuleError):
            program.reraise(err)      # a bug in dusk (or no error of the ruleset's): not a problem found
        return [Problem(i18n._("a game with the default params cannot start: {error}").format(error=located.message),
                        located.where,
                        located.path, located.detail)]
    return []
