"""The one loop machine: the end conditions, the triggers, the loop's levels, and what one turn does.

Written once, here, for both modes: the table's `perform` (one action at a time, every event
logged) and the simulation's `play` (rounds of the loop action until the game ends). A ruleset's
levels move by the loop plan (loop_plan.py: start i, next i, complete i, advance i), which
lockstep.py runs too: here each op of the plan is written as lines through the table WRITE.

A turn at the table and a round of a simulation are the plan's too (loop_plan.turn and .round: the
action's steps, where end: LEVEL ends that iteration; each trigger whose condition holds, once; the
end conditions in order; then the level a step ended, or the innermost one, moves on, and the end
conditions are checked again), written by the same WRITE handlers.
"""

from __future__ import annotations

from contextlib import contextmanager

from ruleset_engine.dice.errors import DiceTypeError
from ruleset_engine.dice.kinds import STR
from ruleset_engine.ruleset.model import Formula

from . import loop_plan
from .limits import game_too_long
from .loop_plan import block_where
from .support import reported
from .writer import FunctionWriter


def write(p) -> list:
    """The machine's functions for the program writer p."""
    out = [(_endings(p), ""), (_triggers(p), "ended")]
    out += [(_at_once(p, i, ending), "") for i, ending, _ in p.at_once]
    plan = loop_plan.plan(p.ruleset, bool(p.timed))   # the same plan lockstep.py runs
    for i in range(len(p.ruleset.loop)):
        out += [(_move(p, f"lv_start_{i}", plan.start[i]), ""), (_move(p, f"lv_next_{i}", plan.next[i]), ""),
                (_move(p, f"lv_complete_{i}", plan.complete[i]), ""),
                (_move(p, f"lv_advance_{i}", plan.advance[i]), "")]
    if p.timed:
        out.append((_timers_due(p), ""))
    out.append((_start_game(p), ""))
    out.append((_perform(p, plan), "name, args"))
    if not p.traced:
        out.append((_play(p, plan), "max_rounds"))
        out.append((_values(p), ""))
    return out


def tables(p) -> list[str]:
    """The last lines of make(): the tables the machine dispatches through, and the entry points."""
    ruleset = p.ruleset
    actions = ", ".join(f"{name!r}: a_{name}" for name in ruleset.actions)
    advance = ", ".join(f"{level.name!r}: lv_advance_{i}" for i, level in enumerate(ruleset.loop))
    entries = ["'start': start", "'report': report", "'perform': perform"]
    if not p.traced:
        entries += ["'play': play", "'values': values", "'init': init"]
    return [f"    ACTIONS = {{{actions}}}", f"    ADVANCE = {{{advance}}}",
            f"    return {{{', '.join(entries)}}}"]


def _level_block(w: FunctionWriter, p, i: int, part: str) -> None:
    level = p.ruleset.loop[i]
    if getattr(level, part):
        w.line(f"_in_level(lb_{i}_{part}, {level.name!r}, {block_where(level, part)!r})")


def _event(w: FunctionWriter, p, i: int, event: str) -> None:
    if p.traced:
        w.emit("level", level=repr(p.ruleset.loop[i].name), event=repr(event), iteration=p.counter(i))


def _done(w: FunctionWriter, p, i: int) -> str:
    """The test that level i has run all its iterations (times: is read each time it is asked)."""
    level = p.ruleset.loop[i]
    counter = p.counter(i)
    tests = []
    if level.times is not None:
        tests.append(f"{counter} > {w.number(level.times, 'times')}")
    if level.max is not None:
        tests.append(f"{counter} > {level.max}")
    return " or ".join(tests) or "False"


def _counter_cell(w: FunctionWriter, p, i: int) -> str:
    counter = p.counter(i)
    if not p.traced:
        w.cell(counter)
    return counter


def _done_cell(w: FunctionWriter, p, i: int) -> str:
    done = p.done_counter(i)
    if not p.traced:
        w.cell(done)
    return done


# ---- the loop plan's ops, written as lines (loop_plan.py; lockstep.RUN runs the same ops) -----
# Each writer takes (w, p, op, leave): `leave` is the line that leaves the move (return in a
# function of its own, continue in play()'s round).


def _write_first(w, p, op, leave) -> None:
    w.line(f"{_counter_cell(w, p, op.level)} = 1")
    w.line(f"{_done_cell(w, p, op.level)} = 0")


def _write_moves_on(w, p, op, leave) -> None:
    """The iteration being played is done; the counter moves to the next."""
    counter = _counter_cell(w, p, op.level)
    w.line(f"{_done_cell(w, p, op.level)} = {counter}")
    w.line(f"{counter} += 1")


def _write_back(w, p, op, leave) -> None:
    w.line(f"{_counter_cell(w, p, op.level)} = {_done_cell(w, p, op.level)}")


def _write_clock(w, p, op, leave) -> None:
    w.line("tm_due()")      # the clock moved: values set until this point come back


def _write_if_done(w, p, op, leave) -> None:
    w.line(f"if {_done(w, p, op.level)}:")
    w.line(f"    lv_complete_{op.level}()")
    if op.part == "endings":
        w.line("    endings()")
    w.line(f"    {leave}")


def _write_endings(w, p, op, leave) -> None:
    """The end conditions; part "stop": a game one ended goes no further here. A simulation's round
    (play()) reads them in place, so that a round costs one call (no game is over yet there: an
    end: game left through _EndGame); elsewhere endings() reads them (and says each one's say:)."""
    if op.part != "stop":
        w.line("endings()")
        return
    if p.traced or w.name != "play":
        w.line(f"if endings(): {leave}")
        return
    for ending in p.ruleset.end:
        w.line(f"if {w.truth(ending.when)}:")
        with w.indent():
            w.line(f"C.finish({ending.result!r}{_given(w, p, ending)})")
            w.line(leave)


def _write_args(w, p, op, leave) -> None:
    """The loop action's defaults that are formulas, read as each round starts, against the state as
    it stands (the others are bound once, before the first round: _play)."""
    name, _, read_each_round = _loop_action(p)
    for key, param in read_each_round.items():
        w.line(f"_args[{key!r}] = {default_arg(w, name, param)}", param.default)


def _write_action(w, p, op, leave) -> None:
    """The action's steps; an end: LEVEL in them is kept in _ended (the triggers may end one too)."""
    w.line("_ended = None")
    w.line("try:")
    with w.indent():
        if op.part == "chosen":
            w.line("ACTIONS[name](args)")
        else:
            name = _loop_action(p)[0]
            if p.inline_action(name):
                p.write_action_body(w, name, "_args")
            else:
                w.line(f"a_{name}(_args)")
    w.line("except _EndLevel as _e:")
    w.line("    _ended = _e.level")


def _write_jumped(w, p, op, leave) -> None:
    w.line("if _ended is not None:")
    w.line("    ADVANCE[_ended]()")
    w.line("    endings()")
    w.line(f"    {leave}")


def _write_played(w, p, op, leave) -> None:
    plays = [name for name, action in p.ruleset.actions.items() if action.plays_level]
    if plays:
        w.line(f"if name == {plays[0]!r}:")
        w.line(f"    lv_advance_{op.level}()")
        w.line("    endings()")


WRITE = {
    "first": _write_first,
    "moves_on": _write_moves_on,
    "back": _write_back,
    "clock": _write_clock,
    "if_done": _write_if_done,
    "event": lambda w, p, op, leave: _event(w, p, op.level, op.part),
    "block": lambda w, p, op, leave: _level_block(w, p, op.level, op.part),
    "tally": lambda w, p, op, leave: _tally(w, p, op.level),
    "start": lambda w, p, op, leave: w.line(f"lv_start_{op.level}()"),
    "next": lambda w, p, op, leave: w.line(f"lv_next_{op.level}()"),
    "complete": lambda w, p, op, leave: w.line(f"lv_complete_{op.level}()"),
    "end_game": lambda w, p, op, leave: w.line("raise _EndGame('done')"),
    "endings": _write_endings,
    "args": _write_args,
    "action": _write_action,
    "triggers": lambda w, p, op, leave: w.line("_ended = triggers(_ended)"),
    "jumped": _write_jumped,
    "played": _write_played,
}


def _write_ops(w: FunctionWriter, p, ops, leave: str = "return") -> None:
    for op in ops:
        WRITE[op.kind](w, p, op, leave)


def _move(p, name: str, ops) -> FunctionWriter:
    w = FunctionWriter(p, name)
    _write_ops(w, p, ops)
    return w


def _timers_due(p) -> FunctionWriter:
    """tm_due(): each value set: until a point the clock has reached takes back what its place held
    (ruleset/steps/timers.py), the last set first; at the table each is logged as a set."""
    w = FunctionWriter(p, "tm_due")
    ruleset = p.ruleset
    counters = "[" + ", ".join(p.counter(i) for i in range(len(ruleset.loop))) + "]"
    store = "G['_timers']" if p.traced else "tm"
    states = sorted({t[0] for step in p.timed for t, _ in step.assignments if t[0] in ruleset.state})
    w.line(f"for _w, _v, *_ in _timers_due({store}, {counters}):")
    with w.indent():
        w.line("if _w[0] == 's':")
        with w.indent():
            for k, name in enumerate(states):
                place = f"G[{name!r}]" if p.traced else w.cell(f"s_{name}")
                w.line(f"{'if' if k == 0 else 'elif'} _w[1] == {name!r}:")
                w.line(f"    {place} = _v")
            w.line("_t = _w[1]")
        w.line("else:")
        with w.indent():
            if p.traced:
                w.line("_e = G[_w[1]] if _w[2] is None else G[_w[1]][_w[2]]")
            else:
                entities = "{" + ", ".join(f"{e!r}: e_{e}" for e in ruleset.entities) + "}"
                w.line(f"_e = {entities}[_w[1]] if _w[2] is None else {entities}[_w[1]][_w[2]]")
            w.line("_e[_w[3]] = _v")
            w.line("_t = f\"{_w[1] if _w[2] is None else _e['name']}.{_w[3]}\"")
        if p.traced:
            w.emit("set", target="_t", value="_v")
        else:
            w.line("del _t")
    return w


def _tally(w: FunctionWriter, p, i: int) -> None:
    """A simulation reads each report value with per: as an iteration of the outermost level ends
    (after its finish:), kept by the run under that iteration (program.report keeps the iteration a
    game ended in). The table keeps no tallies."""
    if p.traced or i != 0:
        return
    for name in p.ruleset.tallies:
        value, _ = w.value(p.ruleset.report[name])
        w.line(f"C.tallied({name!r}, {_counter_cell(w, p, 0)}, _report_value({value}))")


def _endings(p) -> FunctionWriter:
    """endings(): True when the game is over, or the first end condition that holds ends it."""
    w = FunctionWriter(p, "endings")
    w.line("if C.over:")
    w.line("    return True")
    for ending in p.ruleset.end:
        test = w.truth(ending.when)
        w.line(f"if {test}:")
        with w.indent():
            if p.traced and ending.say is not None:
                text = w.text(ending.say)
                w.emit("say", text=f"_to_state({text})")
            w.line(f"C.finish({ending.result!r}{_given(w, p, ending)})")
            w.line("return True")
    w.line("return False")
    return w


def _at_once(p, i: int, ending) -> FunctionWriter:
    """eo_I(): the at-once end condition I holds (at_once.py): its say:, then the game ends."""
    w = FunctionWriter(p, f"eo_{i}")
    if p.traced and ending.say is not None:
        text = w.text(ending.say)
        w.emit("say", text=f"_to_state({text})")
    w.line(f"raise _EndGame({ending.result!r}{_given(w, p, ending)})")
    return w


def _given(w: FunctionWriter, p, ending) -> str:
    """The value and text an end condition gives with its result (read as it ends the game), as the
    arguments after the result of C.finish or _EndGame; "" without them."""
    if ending.value is None and ending.text is None:
        return ""
    value = "None"
    if ending.value is not None:
        value, kind = w.value(ending.value, into=w.local("value"))
        w.bound("value", kind)
        if kind == STR:
            p.problem(DiceTypeError(reported(), span=(0, len(ending.value.text))), ending.value)
        value = f"_report_value({value})"
    text = "None"
    if p.traced and ending.text is not None:
        text = f"_to_state({w.text(ending.text)})"
    return f", {value}, {text}"


def _triggers(p) -> FunctionWriter:
    """triggers(ended): each trigger whose condition holds runs once; a level a step ended, or None."""
    w = FunctionWriter(p, "triggers")
    for i, trigger in enumerate(p.ruleset.triggers):
        test = w.truth(trigger.when)
        w.line(f"if {test}:")
        with w.indent():
            if p.traced:
                w.emit("trigger", id=repr(trigger.id))
            w.line("try:")
            w.line(f"    tr_{i}()")
            w.line("except _EndLevel as _e:")
            w.line("    if ended is None:")
            w.line("        ended = _e.level")
    w.line("return ended")
    return w


def default_arg(w: FunctionWriter, action: str, param) -> str:
    """An integer parameter's default formula, held to its bounds (arguments.check_args at the table);
    an entity parameter's, the name of an instance of its group; a yes/no's, true or false; a choice's,
    one of its choices."""
    value = w.value(param.default)[0]
    what = w.const(f"{action} {param.name}: the default {param.default.text}", "t")
    if param.type == "entity":
        return f"_default_entity({value}, {w.group(param.of)}, {what})"
    if param.type == "boolean":
        return f"_default_truth({value}, {what})"
    if param.type == "choice":
        return f"_default_choice({value}, {w.const(tuple(param.choices), 'c')}, {what})"
    low = w.value(param.min)[0] if param.min is not None else "None"
    high = w.value(param.max)[0] if param.max is not None else "None"
    return f"_default_arg({value}, {low}, {high}, {what})"


@contextmanager
def _until_the_end(w: FunctionWriter):
    """Lines that may end the game: `end: game` (or the loop running out) finishes it."""
    w.line("try:")
    with w.indent():
        yield
    w.line("except _EndGame as _e:")
    w.line("    C.finish(_e.result, _e.value, _e.text)")


def _start_game(p) -> FunctionWriter:
    """start(): the values a game starts with, its setup:, the first iteration of every level."""
    w = FunctionWriter(p, "start")
    w.cell("_st")
    w.line("_st = 0")
    with _until_the_end(w):
        w.line("init()")
        if p.ruleset.setup:
            w.line("try:")
            w.line("    setup_block()")
            w.line("except _EndLevel as _e:")
            # Raised with the end: step's frames: the error is placed at that step.
            w.line(f"    raise _StepFailed({w.const(loop_plan.no_end_in_setup, 'f')}(_e.level))"
                   ".with_traceback(_e.__traceback__) from None")
        if p.ruleset.loop:
            w.line("lv_start_0()")
        w.line("endings()")
    return w


def _perform(p, plan) -> FunctionWriter:
    """perform(name, args): one action at the table, with everything that follows it."""
    w = FunctionWriter(p, "perform")
    w.cell("_st")
    w.line("_st = 0")
    with _until_the_end(w):
        # A default that is a formula, for a caller that left the argument out (the table's Game
        # reads it first, in arguments.py, with the same check).
        for action in p.ruleset.actions.values():
            read = [param for param in action.params.values() if isinstance(param.default, Formula)]
            if read:
                w.line(f"if name == {action.name!r}:")
                with w.indent():
                    for param in read:
                        w.line(f"if {param.name!r} not in args: args[{param.name!r}] = "
                               f"{default_arg(w, action.name, param)}", param.default)
        if p.traced:
            w.emit("action", name="name", args="args")
        _once_per(w, p)
        _write_ops(w, p, plan.turn)      # the action and what follows it
    return w


def _once_per(w: FunctionWriter, p) -> None:
    """An action done once per iteration of a level keeps the counters of that iteration (the level's
    and those around it), as it starts: the table offers it again once they have moved on."""
    levels = [level.name for level in p.ruleset.loop]
    for action in p.ruleset.actions.values():
        if action.once_per is not None:
            i = levels.index(action.once_per)
            if not p.traced:
                w.cell("op")
            counters = ", ".join(p.counter(j) for j in range(i + 1))
            w.line(f"if name == {action.name!r}: {p.once_per_store()}[name] = [{counters}]")


def _loop_action(p) -> tuple:
    """The loop action (the one that plays the innermost level): its name, the arguments bound once
    (its defaults and the run's loop_args), and its parameters whose defaults are formulas."""
    name = next(name for name, action in p.ruleset.actions.items() if action.plays_level)
    action = p.ruleset.actions[name]
    args = {k: param.default for k, param in action.params.items()}
    args.update(p.loop_args)
    read_each_round = {k: action.params[k] for k, v in args.items() if isinstance(v, Formula)}
    return name, {k: v for k, v in args.items() if k not in read_each_round}, read_each_round


def _play(p, plan) -> FunctionWriter:
    """play(max_rounds): a whole simulated game, rounds of the loop action until it ends; the rounds
    played. Each round is the plan's (loop_plan.py, which lockstep.py runs too), written in place, so
    a round costs one call: the action's steps in place when it returns nothing, the end conditions
    tested here, the innermost level moved on here (its counter, its finish: and begin:)."""
    w = FunctionWriter(p, "play")
    w.cell("_st")
    w.line("start()")
    w.line("_rounds = 0")
    if not plan.round:      # no loop action: no rounds
        w.line("return _rounds")
        return w
    w.line(f"_args = {_loop_action(p)[1]!r}")
    w.line("_all = 0")
    w.line("while not C.over:")
    with w.indent():
        w.line("if _rounds >= max_rounds:")
        w.line("    raise _RoundLimit()")
        # The steps of the round before (of start() too, the first time): the game's in all.
        w.line("_all += _st")
        w.line(f"if _all > {p.run_limits.max_game_steps}:")
        w.line(f"    raise _RoundLimit({game_too_long(p.run_limits.max_game_steps)!r})")
        w.line("_rounds += 1")
        w.line("_st = 0")
        with _until_the_end(w):
            _write_ops(w, p, plan.round, "continue")
    w.line("return _rounds")
    return w


def _values(p) -> FunctionWriter:
    """values(): the untraced game's values as the table keeps them (for tests that hold both modes equal)."""
    w = FunctionWriter(p, "values")
    ruleset = p.ruleset
    params = {n: v for n, v in p.params.items() if n not in p.dice_params}
    w.line(f"_p = {params!r}")
    for name in p.dice_params:
        w.line(f"_p[{name!r}] = q_{name}")
    levels = list(enumerate(ruleset.loop))
    parts = ["'params': _p", "'loop': {" + ", ".join(f"{level.name!r}: l_{i}" for i, level in levels) + "}",
             "'loop_done': {" + ", ".join(f"{level.name!r}: ld_{i}" for i, level in levels) + "}",
             "'once_per': op"] + (["'_timers': tm"] if p.timed else [])
    parts += [f"{name!r}: e_{name}" for name in ruleset.entities]
    parts += [f"{name!r}: s_{name}" for name in ruleset.state]
    parts += [f"{name!r}: r_{name}" for name in ruleset.pairs]
    w.line("return {" + ", ".join(parts) + "}")
    return w
