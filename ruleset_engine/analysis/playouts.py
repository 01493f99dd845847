"""`dusk check --playouts N`: play N games with random answers and report what goes wrong in play.

Each game is the ruleset's one program, written in the untraced mode with coverage on (the writer
adds a line before each step noting that it was reached; runtime/program.py), its dice drawn from
the seed of game i (simulate.game_seed) and every question answered at random, uniformly over the
answers the question allows, from a second generator seeded from the same game seed: the same
--seed gives the same findings. What it finds, each at its file:line:col:

- games stopped only by a safety bound: the step limit or the nesting of calls (BoundReached), too
  many rounds, or the outermost loop level reaching its `max:` with no result declared for it;
- run-time errors: a rule that failed on values the file allowed;
- steps, branches and procedures no game reached, table rows no lookup matched, end results no
  game gave;
- questions (`ask:`) whose answer no formula or text reads.

The first two are problems (`dusk check` exits 1); the rest are warnings to look at.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from ruleset_engine import i18n
from ruleset_engine.ruleset import load
from ruleset_engine.runtime import DEFAULT_RUN_LIMITS, RuleError, resolve_params
from ruleset_engine.runtime.errors import BoundReached
from ruleset_engine.runtime.game_length import refuse_endless
from ruleset_engine.ruleset import walk as model_walk
from ruleset_engine.runtime.program import build
from ruleset_engine.runtime.support import auto_answer

from .simulate import MAX_ROUNDS, SimulationError, game_seed, loop_action, play_game

MAX_PLAYOUTS = 1_000_000
UNBOUNDED_SPAN = 10     # a number question with one bound open: answers within this of the other


@dataclass(slots=True)
class Finding:
    kind: str               # a key of KINDS
    where: object           # a Position (file:line:col), or None
    message: str

    @property
    def problem(self) -> bool:
        return KINDS[self.kind][1]

    def __str__(self) -> str:
        head = f"{self.where}: " if self.where else ""
        return f"{head}{i18n._(KINDS[self.kind][0])}: {self.message}"


# kind -> (what it is called in the report, whether it is a problem: exit 1)
KINDS = {
    "bound": (i18n.N_("safety bound"), True),
    "error": (i18n.N_("run-time error"), True),
    "unreached": (i18n.N_("never reached"), False),
    "row": (i18n.N_("table row never matched"), False),
    "result": (i18n.N_("end result never given"), False),
    "unread": (i18n.N_("answer never read"), False),
}


class RandomAnswers:
    """Stands for the auto: answer of every question: a random valid one, from `rng`."""

    def __init__(self):
        self.rng = random.Random(0)

    def __call__(self, asked, auto):
        rng = self.rng
        if asked.kind == "yes_no":
            value = rng.random() < 0.5
        elif asked.kind in ("choice", "instance"):
            value = rng.choice(asked.choices)
        elif asked.kind == "instances":       # a random number of them within the bounds, any of them
            value = rng.sample(list(asked.choices), rng.randint(asked.min, asked.max))
        elif asked.kind == "text":      # words: the auto: text stands for any (no length is more telling)
            value = auto
        elif asked.kind == "pick":
            pool = list(asked.pool)
            low = asked.min if asked.min is not None else 0
            high = min(len(pool), asked.max if asked.max is not None else len(pool))
            value = [pool[i] for i in sorted(rng.sample(range(len(pool)), rng.randint(low, high)))] \
                if low <= high else pool
        else:       # a number: uniform between its bounds (an open one: UNBOUNDED_SPAN from the other)
            centre = auto if type(auto) is int else 0
            low = asked.min if asked.min is not None else \
                (asked.max if asked.max is not None else centre) - UNBOUNDED_SPAN
            high = asked.max if asked.max is not None else low + 2 * UNBOUNDED_SPAN if asked.min is None \
                else low + UNBOUNDED_SPAN
            value = rng.randint(low, high)
        return auto_answer(asked, value)     # checked as any answer is


class RowsMatched:
    """Stands for the lookup helper: the same lookup, noting the index of the row it matched."""

    def __init__(self, find_row):
        self.find_row = find_row
        self.matched: set = set()        # (table name, row index)
        self.looked_up: set = set()      # table names

    def __call__(self, table, keys):
        row = self.find_row(table, keys)
        self.looked_up.add(table.name)
        for i, candidate in enumerate(table.rows):
            if candidate.cells is row:
                self.matched.add((table.name, i))
                break
        return row


@dataclass(slots=True)
class Seen:
    """How often one finding of a game happened, and the first game it happened in."""

    count: int
    game: int
    seed: int


@dataclass(slots=True)
class Playouts:
    ruleset: str
    source: str
    games: int
    seed: int
    results: dict
    findings: list[Finding] = field(default_factory=list)

    @property
    def failed(self) -> bool:
        return any(f.problem for f in self.findings)

    def to_text(self) -> str:
        shown = ", ".join(f"{name} {i18n.number(count)}" for name, count in sorted(self.results.items())) \
            or i18n._("none")
        lines = [i18n._("{source}: {games} playouts (random answers), seed {seed}: {results}").format(
            source=self.source, games=i18n.number(self.games), seed=self.seed, results=shown)]
        lines += [str(f) for f in self.findings]
        problems = sum(f.problem for f in self.findings)
        warnings = len(self.findings) - problems
        lines.append(i18n._("{problems}, {warnings}").format(
            problems=i18n.ngettext("{n} problem", "{n} problems", problems).format(n=problems),
            warnings=i18n.ngettext("{n} warning", "{n} warnings", warnings).format(n=warnings)))
        return "\n".join(lines)


def playouts(source: str, games: int, seed: int = 0) -> Playouts:
    if not 1 <= games <= MAX_PLAYOUTS:
        raise SimulationError(i18n._("--playouts takes 1 to {limit} games, not {games}").format(
            limit=i18n.number(MAX_PLAYOUTS), games=i18n.number(games)))
    ruleset = load(source)
    loop_action(ruleset)
    try:
        refuse_endless(ruleset, MAX_ROUNDS)
    except RuleError as err:        # every game would play to the limit (minutes each): said, none played
        found = Playouts(ruleset.id, source, games, seed, {})
        found.findings.append(Finding("bound", err.where, err.message))
        return found
    program = build(ruleset, resolve_params(ruleset, {}), traced=False, run_limits=DEFAULT_RUN_LIMITS,
                    coverage=True)
    answers = RandomAnswers()
    rows = RowsMatched(program.namespace["_find_row"])
    program.namespace.update(_auto_answer=answers, _find_row=rows)
    results: dict = {}
    bounds: dict = {}        # (where, message) -> Seen
    errors: dict = {}
    level = ruleset.loop[0]
    open_ended = level.times is None and not any(True for _ in model_walk.steps(level.then))
    for i in range(games):
        game = game_seed(seed, i)
        answers.rng = random.Random(f"answers/{game}")
        try:
            result = play_game(program, game)[0]
        except BoundReached as err:
            _seen(bounds, (err.where, err.message), i, game)
            continue
        except SimulationError as err:       # more rounds than any simulation plays
            _seen(bounds, (level.where, str(err)), i, game)
            continue
        except RuleError as err:
            _seen(errors, (err.where, str(err).split(": ", 1)[-1] if err.where else str(err)), i, game)
            continue
        results[result] = results.get(result, 0) + 1
        if result == "done" and open_ended:
            _seen(bounds, (level.where, i18n._("the loop {name} ran to its max: {max} and no result is declared "
                                               "for it (add then: [{{end: game, result: ...}}])").format(
                name=repr(level.name), max=level.max)), i, game)
    found = Playouts(ruleset.id, source, games, seed, results)
    for kind, table in (("bound", bounds), ("error", errors)):
        for (where, message), seen in table.items():
            found.findings.append(Finding(kind, where, i18n._("{message} ({games}; first game {game}, game seed "
                                                              "{seed})").format(message=message,
                                                                                games=_games(seen.count),
                                                                                game=seen.game, seed=seen.seed)))
    found.findings += unreached(ruleset, program, games) + rows_unmatched(ruleset, rows, games) + \
        results_not_given(ruleset, results, games) + answers_unread(ruleset)
    return found


def _seen(table: dict, key: tuple, game: int, seed: int) -> None:
    if key in table:
        table[key].count += 1
    else:
        table[key] = Seen(1, game, seed)


def _games(n: int) -> str:
    return i18n.ngettext("{n} game", "{n} games", n).format(n=i18n.number(n))


def blocks(ruleset) -> list[tuple[str, list]]:
    """Every block of steps the ruleset writes at its top, named for the report."""
    return [(_block_name(block), block.steps) for block in model_walk.blocks(ruleset)]


def _block_name(block) -> str:
    if block.part == "setup":
        return i18n._("setup")
    if block.part == "action":
        return i18n._("action {name}").format(name=repr(block.owner))
    if block.part == "procedure":
        return i18n._("procedure {name}").format(name=repr(block.owner))
    if block.part == "trigger":
        return i18n._("trigger {name}").format(name=block.owner)
    return i18n._("the {part}: of loop level {name}").format(part=block.part, name=repr(block.owner))


BRANCHES = {"then": i18n.N_("the then: branch"), "otherwise": i18n.N_("the else: branch"),
            "body": i18n.N_("the loop's body")}


def unreached(ruleset, program, games: int) -> list[Finding]:
    """The first step no game reached of each block (what follows it in the block is unreached too)."""
    number = {id(step): k for k, step in enumerate(program.sites)}
    out = []

    def walk(steps: list, what: str) -> None:
        for step in steps:
            if number.get(id(step)) not in program.reached:
                whole = step is steps[0]
                out.append(Finding("unreached", step.where, i18n._("{what} in {games}").format(
                    what=what if whole else i18n._("this step"), games=_games(games))))
                return
            for attr in model_walk.kind_of(step).nested:
                walk(getattr(step, attr), i18n._(BRANCHES[attr]) if attr in BRANCHES else attr)

    for block in model_walk.blocks(ruleset):
        name, steps = _block_name(block), block.steps
        if steps:
            called = block.part == "procedure"
            what = i18n._("{name}: never called").format(name=name) if called else name
            if called and number.get(id(steps[0])) not in program.reached:
                procedure = ruleset.procedures[block.owner]
                out.append(Finding("unreached", procedure.where, i18n._("{what} in {games}").format(
                    what=what, games=_games(games))))
                continue
            walk(steps, what)
    return out


def rows_unmatched(ruleset, rows: RowsMatched, games: int) -> list[Finding]:
    out = []
    for name in sorted(rows.looked_up):
        for i, row in enumerate(ruleset.tables[name].rows):
            if (name, i) not in rows.matched:
                out.append(Finding("row", row.where, i18n._("row {i} of table {name} in {games}").format(
                    i=i, name=repr(name), games=_games(games))))
    return out


def results_not_given(ruleset, results: dict, games: int) -> list[Finding]:
    return [Finding("result", ending.where, i18n._("{result} in {games}").format(result=repr(ending.result),
                                                                                 games=_games(games)))
            for ending in ruleset.end if ending.result not in results]


def answers_unread(ruleset) -> list[Finding]:
    """Questions whose answer no formula or text of the ruleset reads (by name: a name read
    anywhere counts, so this never reports an answer that is read)."""
    read = {path[0] for expr in model_walk.expressions(ruleset, texts=True) for path, _ in expr.names}
    out = []
    for _, steps in blocks(ruleset):
        for step in model_walk.steps(steps):
            for name in model_walk.kind_of(step).answers(step):
                if name not in read:
                    out.append(Finding("unread", step.where, i18n._("the answer {name} of this question is never "
                                                                    "read by a formula or a text").format(
                                                                        name=repr(name))))
    return out
