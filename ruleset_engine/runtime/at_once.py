"""End conditions that end the game at once (`end: [{when: ..., result: ..., at_once: true}]`).

Every end condition is checked between actions (machine.py's `endings`). One marked `at_once` is
also checked after every step that may change what it reads, wherever the step runs (setup, an
action, a procedure, a trigger, a loop block), in both modes: it is written after the step by the
function writer's `block`, and it ends the game through machine.py's `eo_I()`, which shows the condition's
`say:` and raises EndGame, as an `end: game` step does.

Which steps may change it is known from the steps' own data, each kind's `writes` fact
(ruleset/steps/kind.py): a step that only binds locals or shows a line cannot, and a set:, note:,
mark:, clear: or move: of a state variable or entity that the condition does not read cannot either.
A write through a local (an instance of a group) may touch anything the condition reads, so it is
checked. A kind whose entry says nothing of its writes is always followed by the check: a new kind
is safe before it says.
"""

from __future__ import annotations

from ruleset_engine.ruleset.walk import kind_of


def writes(step, ruleset) -> set | None:
    """The state variables and entities a step may write; None when it may write anything."""
    places = kind_of(step).writes
    if places is None:
        return None
    heads = {place[0] for place in places(step)}
    if any(h not in ruleset.state and h not in ruleset.entities for h in heads):
        return None          # a local: an instance of a group, say
    return heads


def reads(ending) -> set:
    return {path[0] for path, _ in ending.when.expr.names}


def write_checks(w, step) -> None:
    """After a step: the at-once end conditions it may make true, each tested here."""
    endings = w.program.at_once
    if not endings:
        return
    written = writes(step, w.program.ruleset)
    for i, ending, read in endings:
        if written is None or written & read:
            w.line(f"if {w.truth(ending.when)}: eo_{i}()", ending.when)

