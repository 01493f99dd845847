"""Which locals are surely set where a formula reads them (definite assignment).

A local bound inside one branch of an if:, or inside a loop that may run no time, is known after
it (a later step may read it) but set only on some ways through the block. A formula that reads it
there would find nothing on the other ways: the table would stop, the simulations would disagree.
The checker refuses such a read at its place.

Each step says what it surely sets once it has run through, by its kind's `assigns` fact
(steps/kind.py): by default the locals it binds and the one-word places it writes; a step that
holds blocks says how they run (if: one of them; repeat: with until:, at least once; for_each:
perhaps never). The checker keeps the set in its Scope (names.py) as it checks the steps in order:
each block inside a step starts from a copy (Scope.fork), and after the step the set is what it
was before plus what the step surely sets. A read of a local not in the set is refused where names
are checked (names.unset_problem).
"""

from __future__ import annotations

from .walk import kind_of


class _Every:
    """What a block surely sets when it never runs through (it ends with end: or return:): every
    name, since no step after it runs on that way."""

    def __contains__(self, name) -> bool:
        return True

    def __and__(self, other):
        return other

    __rand__ = __and__

    def __or__(self, other):
        return self

    __ror__ = __or__

    def add(self, name) -> None:
        pass

    def copy(self):
        return self

    def __repr__(self) -> str:
        return "EVERY"


EVERY = _Every()


def block_assigns(steps):
    """The locals a block of steps surely sets when it runs through (EVERY: it never does)."""
    out = set()
    for step in steps:
        out = out | step_assigns(step)
        if kind_of(step).ends_block:
            return EVERY
    return out


def step_assigns(step):
    """The locals one step surely sets once it has run through: its kind's fact, or by default what
    it binds and the one-word places it writes."""
    kind = kind_of(step)
    if kind.assigns is not None:
        return kind.assigns(step, block_assigns)
    places = kind.writes(step) if kind.writes is not None else ()
    return {name for name, _ in kind.binds(step)} | {place[0] for place in places if len(place) == 1}


def after(scope, steps):
    """The scope as it is after a block inside a step has run through (repeat's until: reads it)."""
    inner = scope.fork()
    inner.surely = inner.surely | block_assigns(steps)
    return inner
