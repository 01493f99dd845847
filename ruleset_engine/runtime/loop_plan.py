"""The loop plan: what each move of the loop machine does, level by level, as data, built once.

Two machines run a ruleset's loop: the program writer (machine.py) writes each move as a function
of the program, traced or untraced, and the lockstep backend (lockstep.py) runs it for the rows of
many games at once. Both execute this one plan, op by op, each through its own table of handlers
(machine.WRITE, lockstep.RUN), so the order of the loop (set the counter, run a block, an event,
complete a level) and of a round (the action, the triggers, the end conditions, the levels an
`end: LEVEL` ended, the loop moving on) is said once, here. For levels 0..n-1 (outermost first)
the moves are:

    start i      the level's counter is 1, none done; then the rest of begin
    next i       one more done, the counter moves on; then the rest of begin
    rest of begin  unless level i has run out (then it completes, and these games go no further
                 here), its begin:, then start i+1
    complete i   the counter back to the last iteration played (it never reads one past the end),
                 its then:; the enclosing iteration ends (its finish:) and the enclosing level moves
                 on; the outermost ends the game: done
    advance i    the current iteration of level i ends, with every level inside it (their finish:)
    round        a round of a simulation: the loop action's arguments (defaults that are formulas
                 read now), its steps, each trigger whose when: holds (its do:), in order, the end
                 conditions (a game one ends goes no further), the level an end: LEVEL ended (its
                 advance, then the end conditions again); otherwise the innermost level moves on:
                 advance of that level with its next written in place, then the end conditions
                 again when they may have changed (a block ran, or one reads a loop counter)
    turn         an action chosen at the table, and what follows it: as a round, without the
                 arguments (the table bound them) and with the innermost level's advance only when
                 the action plays that level

The ops (Op.kind), each for its level (Op.level) and, for a block or an event, its part:

    first      counter = 1, done = 0            moves_on   done = counter, counter += 1
    clock      the timers due (set: until:)      back       counter = done
    if_done    games whose level has run out complete it and stop here (part "endings": the end
               conditions are read for them after)
    event      begin or end, for the table's log (a simulation logs nothing)
    block      the level's begin:, finish: or then: (written only when the ruleset has it)
    tally      report values with per:, as an iteration of the outermost level ends
    start, next, complete   the move of that name, of the level
    end_game   the game ends: done
    endings    the end conditions, in order (part "stop": a game one ends goes no further here)
    args       the loop action's arguments bound, its defaults that are formulas read
    action     the action's steps (part "loop": the loop action; "chosen": the table's); an end:
               LEVEL in them takes the game out of the action, and ends that level's iteration
               once the triggers ran
    triggers   each trigger whose when: holds, in order, runs its do: once
    jumped     games a step's end: LEVEL took: that level's advance, the end conditions, no further
    played     (turn only) when the chosen action plays the innermost level: its advance, then the
               end conditions
"""

from __future__ import annotations

from dataclasses import dataclass

from ruleset_engine import i18n
from ruleset_engine.ruleset import model


# The plan is read where it is made (the program writer, lockstep.py), never compared, hashed or changed:
# nothing generated beyond __init__. Tens of ops a ruleset keep their slots; one plan a program needs none.
@dataclass(slots=True, eq=False, repr=False)
class Op:
    """One operation of the loop plan."""

    kind: str
    level: int = 0
    part: str = ""


@dataclass(eq=False, repr=False)
class LoopPlan:
    """The ops of each move, per level (start[i], next[i], complete[i], advance[i]), of a round of a
    simulation and of a turn at the table."""
    start: tuple
    next: tuple
    complete: tuple
    advance: tuple
    round: tuple
    turn: tuple


def plan(ruleset: model.Ruleset, timed: bool) -> LoopPlan:
    """The loop plan of a ruleset (`timed`: some step sets a value until: a point of the clock)."""
    levels = ruleset.loop
    n = len(levels)

    def block(i: int, part: str) -> list:
        return [Op("block", i, part)] if getattr(levels[i], part) else []

    def clock(i: int) -> list:
        return [Op("clock", i)] if timed else []

    def rest_of_begin(i: int, after_complete: str = "") -> list:
        ops = [Op("if_done", i, after_complete), Op("event", i, "begin")] + block(i, "begin")
        return ops + ([Op("start", i + 1)] if i + 1 < n else [])

    def moves_on(i: int) -> list:
        return [Op("moves_on", i)] + clock(i)

    def ends(j: int) -> list:
        """The iteration of level j ends: its event, its finish:, the values read per iteration."""
        tally = [Op("tally", j)] if j == 0 and ruleset.tallies else []
        return [Op("event", j, "end")] + block(j, "finish") + tally

    def complete(i: int) -> list:
        ops = [Op("back", i)] + block(i, "then")
        if i == 0:
            return ops + [Op("end_game")]
        return ops + ends(i - 1) + [Op("next", i - 1)]

    def advance(i: int) -> list:
        return [op for j in range(n - 1, i - 1, -1) for op in ends(j)] + [Op("next", i)]

    # What follows an action, in a round and in a turn alike: the triggers, the end conditions,
    # the level an end: LEVEL ended.
    follows = ([Op("triggers")] if ruleset.triggers else []) + [Op("endings", part="stop")]
    if n:
        follows.append(Op("jumped"))
    turn = [Op("action", part="chosen")] + follows + ([Op("played", n - 1)] if n else [])
    round_ops: list = []
    if n:
        inner = n - 1
        reads_loop = any(path[0] == "loop" for e in ruleset.end for path, _ in e.when.expr.names)
        level = levels[inner]
        round_ops = [Op("args"), Op("action", part="loop")] + follows
        round_ops += ends(inner) + moves_on(inner) + rest_of_begin(inner, "endings")
        # The end conditions again only when the loop's move could change them: a block ran, or
        # a condition reads a loop counter.
        if level.begin or level.finish or reads_loop:
            round_ops.append(Op("endings", inner))
    return LoopPlan(
        start=tuple(tuple([Op("first", i)] + clock(i) + rest_of_begin(i)) for i in range(n)),
        next=tuple(tuple(moves_on(i) + rest_of_begin(i)) for i in range(n)),
        complete=tuple(tuple(complete(i)) for i in range(n)),
        advance=tuple(tuple(advance(i)) for i in range(n)),
        round=tuple(round_ops),
        turn=tuple(turn),
    )


def block_where(level: model.Level, part: str) -> str:
    """The words that name a level's block, in what end: LEVEL inside it says."""
    return i18n._("{part}: of loop level {name}").format(part=part, name=repr(level.name))


def no_end_inside(ended: str, where: str) -> str:
    """What `end: LEVEL` says inside a block where no iteration runs that it could end."""
    return i18n._("end: {ended} inside the {where} is not allowed").format(ended=ended, where=where)


def no_end_in_setup(ended: str) -> str:
    return i18n._("end: {ended} is not allowed in setup: (no loop runs yet)").format(ended=ended)
