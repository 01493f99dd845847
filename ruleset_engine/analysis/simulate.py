"""`dusk simulate`: play N whole games with the `auto:` answers and summarise them as they end.

Two backends play the games. Untraced: each game runs the ruleset's program in the untraced mode
(runtime/program.py: the same lowered form the table runs, without the trace); game i draws from a
seed derived from (S, i). Lockstep (runtime/lockstep.py): thousands of games at once, a row per
game in numpy arrays; a range of games draws from a generator seeded from (S, the range's start),
the ranges fixed by -n alone. Either way the same S gives the same report whatever the number of
workers. `auto` (the default) plays lockstep when every construct the ruleset uses has a vector
form, untraced otherwise, and says which and why. Each worker loads the ruleset once (and, untraced,
writes its program once: lockstep builds its machine from the model and never runs that program,
so it is not written for it), then plays ranges of games and sends back their Totals, a running summary (counts,
sums and histograms) that merges with the others: memory does not grow with N. With records
(`--records FILE`, `records=True`: records.py) a range sends back its rows too, which the parent
writes in game order as the ranges come back.
"""

from __future__ import annotations

import hashlib
import random
import time
from collections import deque
from dataclasses import dataclass

from ruleset_engine import i18n
from ruleset_engine.errors import DuskError
from ruleset_engine.i18n import _
from ruleset_engine.ruleset import load
from ruleset_engine.ruleset.model import Ruleset
from ruleset_engine.runtime import DEFAULT_RUN_LIMITS, GameError, RuleError, resolve_params
from ruleset_engine.runtime.game_length import refuse_endless
from ruleset_engine.runtime.params import check_named
from ruleset_engine.runtime.program import Program, build
from ruleset_engine.runtime.run import Run
from ruleset_engine.runtime.signals import RoundLimit

from .paired import Paired
from .records import PairRows, Recorded, Rows, check_target, sink_for
from .summary import Totals, wilson  # noqa: F401 - wilson is part of this module's API

MAX_ROUNDS = 1_000_000
MAX_GAMES = 10**12          # more games than a machine could play: refused before the first
CHUNK = 500
LOCKSTEP_CHUNK = 50_000     # games of one lockstep range (its batch of slots is runtime/lockstep.BATCH)
BACKENDS = ("auto", "lockstep", "untraced")


def game_seed(seed: int, index: int) -> int:
    """The seed of game `index` of a run seeded `seed`: independent of how games are shared out."""
    digest = hashlib.sha256(f"dusk/{seed}/{index}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


class SimulationError(DuskError):
    """A game of the simulation failed; the message names the game and its seed."""


def loop_action(ruleset: Ruleset) -> str:
    for name, action in ruleset.actions.items():
        if action.plays_level:
            return name
    raise SimulationError(i18n._("{id} has no game loop to simulate (it needs a loop: section)").format(
                              id=ruleset.id))


def check_loop_action(ruleset: Ruleset) -> None:
    """A simulation plays the loop action with its default arguments: one it cannot play is refused."""
    action = ruleset.actions[loop_action(ruleset)]
    missing = [name for name, p in action.params.items() if p.default is None]
    if missing:
        raise SimulationError(i18n._("the loop action {name} needs {missing} and has no default for it, so a "
                                     "simulation cannot play it").format(name=repr(action.name), missing=missing[0]))


def simulation_program(ruleset: Ruleset, params: dict) -> Program:
    """The untraced program a simulation plays (its loop action with its default arguments)."""
    check_loop_action(ruleset)
    return build(ruleset, params, traced=False, run_limits=DEFAULT_RUN_LIMITS)


def play_game(program: Program, seed: int, max_rounds: int = MAX_ROUNDS) -> tuple[str, int, dict, object]:
    """One whole game: (result, rounds, report, the dice source at the end)."""
    return played_game(program, seed, max_rounds)[:4]


def played_game(program: Program, seed: int, max_rounds: int = MAX_ROUNDS) -> tuple:
    """play_game, and the value its result carries (an end condition's value:) or None, and the
    report values read per iteration (report: per:): name -> iteration -> value."""
    rng = random.Random(seed)
    run = Run(traced=False, auto=True, max_steps=DEFAULT_RUN_LIMITS.max_steps,
              max_depth=DEFAULT_RUN_LIMITS.max_call_depth)
    run.sheets = program.sheets     # the sheets the run brought, made as each game starts
    entry = program.bind(rng.randint, run)
    try:
        rounds = entry["play"](max_rounds)
        report = entry["report"]()
    except RoundLimit as limit:
        raise SimulationError(limit.args[0] if limit.args else i18n._("a game went past {rounds} rounds").format(
                                                                   rounds=i18n.number(max_rounds))) from None
    except Exception as err:   # a rule that failed: located where the ruleset wrote it
        program.reraise(err)
    return run.result, rounds, report, rng, run.value, run.tallies


# What a process keeps between ranges: each ruleset loaded once, and the programs of the last few
# param sets (a sweep writes one program per value, from the one ruleset loaded).
_RULESETS: dict = {}
_PROGRAMS: dict = {}
_SHEETS: dict = {}
KEPT_PROGRAMS = 8


def _ruleset(source: str) -> Ruleset:
    if source not in _RULESETS:
        _RULESETS[source] = load(source)
    return _RULESETS[source]


def cell_program(source: str, params: dict, sheets: tuple = ()) -> Program:
    """The ruleset's simulation program for these params, written once per process; `sheets`: the
    sheet files (or folders) the run brings, read and checked here, made in every game."""
    key = (source, repr(sorted(params.items())), sheets)
    if key not in _PROGRAMS:
        if len(_PROGRAMS) >= KEPT_PROGRAMS:
            _PROGRAMS.pop(next(iter(_PROGRAMS)))
        program = simulation_program(_ruleset(source), params)
        program.sheets = cell_sheets(source, sheets)
        _PROGRAMS[key] = program
    return _PROGRAMS[key]


def cell_sheets(source: str, sheets: tuple = ()) -> tuple:
    """The sheets of the files (or folders) a run brings, read and checked once per process (every
    problem of every sheet); () when it brings none."""
    if not sheets:
        return ()
    key = (source, sheets)
    if key not in _SHEETS:
        from ruleset_engine.ruleset.sheets import read_all
        _SHEETS[key] = tuple(read_all(list(sheets), _ruleset(source)))
    return _SHEETS[key]


def _played(program: Program, seed: int, i: int):
    try:
        return played_game(program, game_seed(seed, i))
    except (RuleError, GameError, SimulationError) as err:
        raise SimulationError(i18n._("game {i} (seed {seed}) stopped: {error}").format(
                                  i=i, seed=game_seed(seed, i), error=err)) from None


def play_range(source: str, params: dict, seed: int, start: int, stop: int, sheets: tuple = (),
               rows: Rows | None = None) -> Totals:
    """Games start..stop-1 (what one worker does), summarised; each game a row of `rows` if given."""
    program = cell_program(source, params, sheets)
    tally = Totals()
    for i in range(start, stop):
        result, rounds, report, _, value, tallies = _played(program, seed, i)
        tally.add(result, rounds, report, value, tallies)
        if rows is not None:
            rows.add(i, result, rounds, report, game_seed(seed, i))
    return tally


def play_pair_range(a: tuple, b: tuple, seed: int, start: int, stop: int, rows: PairRows | None = None,
                    told=None) -> Paired:
    """Games start..stop-1 of two (source, params), each game on the same seed in both: their
    summaries, and the per-game differences that make a paired comparison (untraced: `told` is
    lockstep's, unused)."""
    first, second = cell_program(*a), cell_program(*b)
    paired = Paired()
    for i in range(start, stop):
        one, two = _played(first, seed, i), _played(second, seed, i)
        paired.add((one[0], one[1], one[2]), (two[0], two[1], two[2]))
        if rows is not None:
            rows.add(i, game_seed(seed, i), one[:3], two[:3])
    return paired


def play_lockstep_range(cell: tuple, seed: int, start: int, stop: int, rows: Rows | None = None,
                        told=None) -> Totals:
    """Games start..stop-1 of one (source, params), all at once in the lockstep backend; `told(start,
    stop, rounds, limit)` as a game of them grows long (lockstep.LONG_GAME rounds, then ten times as
    many; `limit` the rounds a game may play)."""
    from ruleset_engine.runtime import lockstep

    source, params, *brought = cell
    # No untraced program is written: lockstep never runs it (its machine is built from the model).
    sheets = cell_sheets(source, *brought)
    tally = Totals()
    try:
        lockstep.play_range(_ruleset(source), params, seed, start, stop, tally, DEFAULT_RUN_LIMITS, MAX_ROUNDS,
                            rows=rows, sheets=sheets, on_long=None if told is None else
                            lambda rounds: told(start, stop, rounds, MAX_ROUNDS))
    except lockstep.RoundLimitReached as err:
        raise SimulationError(i18n._("games {start}..{last} (lockstep, seed {seed}) stopped: {error}").format(
                                  start=start, last=stop - 1, seed=seed, error=err)) from None
    except RuleError as err:
        raise SimulationError(i18n._("games {start}..{last} (lockstep, seed {seed}; --backend untraced names the "
                                     "game) stopped: {error}").format(
                                  start=start, last=stop - 1, seed=seed, error=err)) from None
    return tally


def choose_backend(ruleset: Ruleset, params: dict, backend: str) -> tuple[str, str]:
    """The backend that plays the run, and why: `lockstep` refused (an error naming the construct and
    its place) when the ruleset uses a construct without a vector form; `auto` then plays untraced."""
    from ruleset_engine.runtime import vectorizable

    if backend not in BACKENDS:
        raise GameError(i18n._("--backend takes {backends}, not {backend}").format(
                            backends=", ".join(BACKENDS), backend=repr(backend)))
    if backend == "untraced":
        return "untraced", _("asked for with --backend untraced")
    refused = vectorizable.refusal(ruleset, params)
    if refused is not None:
        if backend == "lockstep":
            raise refused.error
        return "untraced", str(refused.error)
    if backend == "lockstep":
        return "lockstep", _("asked for with --backend lockstep")
    return "lockstep", _("every construct the ruleset uses has a vector form")


@dataclass(frozen=True, slots=True)
class Task:
    """One cell of a run: a ruleset and its params (`one`), or two played on the same seeds (`pair`);
    `records`: each game a row too (records.py); `told(start, stop, rounds, limit)`: a game grown long
    (lockstep's, whose long games' rounds are slow), a function of a module so a worker can run it."""

    kind: str
    cells: tuple      # ((source, params),) or ((source, params), (source, params))
    records: bool = False
    told: object = None


def play_task(task: Task, seed: int, start: int, stop: int):
    """A range of games: its summary, and its rows (None without records)."""
    rows = ROWS[task.kind]() if task.records else None
    return PLAYERS[task.kind](*task.cells, seed, start, stop, rows=rows, told=task.told), rows


PLAYERS = {"one": lambda cell, seed, start, stop, rows, told: play_range(cell[0], cell[1], seed, start, stop,
                                                                         *cell[2:], rows=rows),
           "pair": play_pair_range, "lockstep": play_lockstep_range}
EMPTY = {"one": Totals, "pair": Paired, "lockstep": Totals}
ROWS = {"one": Rows, "pair": PairRows, "lockstep": Rows}
CHUNKS = {"one": CHUNK, "pair": CHUNK, "lockstep": LOCKSTEP_CHUNK}


class Summary(Recorded):
    """A finished simulation: its totals and what it was run with (and its records, if kept:
    `.to_frame()`, `.to_arrow()`)."""

    def __init__(self, ruleset: str, seed: int, games: int, params: dict, tally: Totals, seconds: float,
                 backend: str | None = None, reason: str = "", records=None, distributions: tuple = (),
                 result_distributions: tuple = (), tallies: dict | None = None, result_words: dict | None = None):
        self.records = records
        self.result_words = result_words or {}   # result -> its words at the table (results:), for the report
        self.backend = backend
        self.distributions = distributions     # the report values shown value by value (report: distribution:)
        self.result_distributions = result_distributions   # the results whose values are shown so (end: distribution:)
        self.tallies = tallies or {}           # report value -> the level it is read per iteration of (per:)
        self.reason = reason
        self.ruleset = ruleset
        self.seed = seed
        self.games = games
        self.params = params
        self.tally = tally
        self.seconds = seconds

    def to_json(self) -> dict:
        data = {"ruleset": self.ruleset, "seed": self.seed, "games": self.tally.games, "params": self.params}
        if self.backend is not None:
            data["backend"] = self.backend
        data.update(self.tally.to_json(self.distributions, self.result_distributions, self.tallies))
        return data


def _hold_interrupts():
    """Ctrl-C is the parent's to answer (one line, exit 130; the pool is terminated on the way out).
    While the workers start, SIGINT is ignored: a new process keeps an ignored signal through exec,
    and Python then installs no handler of its own, so no worker prints a traceback, not even one
    interrupted as it starts. It is blocked too, so that a Ctrl-C that comes meanwhile is not lost
    (Linux keeps a blocked signal pending even while it is ignored), and the pool's threads, started
    meanwhile, keep it blocked: a signal taken by a thread other than the main one can wait unseen
    while the main thread waits for a result. What to give _let_interrupts."""
    import signal
    import threading

    if threading.current_thread() is not threading.main_thread() or not hasattr(signal, "pthread_sigmask") \
            or signal.getsignal(signal.SIGINT) is None:
        return None
    # The pool's semaphores start multiprocessing's resource tracker, which unblocks SIGINT when it has
    # started (SIG_UNBLOCK, not the mask as it was): started first, it cannot undo the hold below.
    from multiprocessing import resource_tracker

    resource_tracker.ensure_running()
    mask = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    return mask, signal.signal(signal.SIGINT, signal.SIG_IGN)


def _let_interrupts(held) -> None:
    """SIGINT handled again: a Ctrl-C that came while it was held is raised here."""
    import signal

    if held is not None:
        mask, handler = held
        signal.signal(signal.SIGINT, handler)
        signal.pthread_sigmask(signal.SIG_SETMASK, mask)


def _ranges(games: int, chunk: int = CHUNK):
    for start in range(0, games, chunk):
        yield start, min(games, start + chunk)


def check_games(games: int, cells: int = 1) -> None:
    """-n, and the games of every cell together, before any work."""
    if not 1 <= games <= MAX_GAMES:
        raise GameError(i18n._("-n takes 1 to {limit} games, not {games}").format(
                            limit=i18n.number(MAX_GAMES), games=i18n.number(games)))
    if games * cells > MAX_GAMES:
        raise GameError(i18n._("{cells} cells of {games} games each is more than {limit} games in all").format(
                            cells=i18n.number(cells), games=i18n.number(games), limit=i18n.number(MAX_GAMES)))


def load_and_check(source: str, params: dict | None, sheets=()) -> tuple[Ruleset, dict]:
    """The ruleset (loaded afresh in this process) and its full params, checked for a simulation before
    any game: its loop action playable with its defaults, and a param naming an instance no sheet has
    refused (the ruleset's, or `sheets`: the files and folders brought, every problem of each found
    here). No program is written: the backend is not chosen yet, and lockstep never runs one."""
    # Read afresh here (the file may have changed since this process last read it); workers read once.
    _RULESETS[source] = ruleset = load(source)
    for cache in (_PROGRAMS, _SHEETS):
        for key in [key for key in cache if key[0] == source]:
            del cache[key]
    loop_action(ruleset)
    refuse_endless(ruleset, MAX_ROUNDS)     # every game past the limit: known now, refused before any game
    full_params = resolve_params(ruleset, params or {})
    brought = cell_sheets(source, tuple(str(path) for path in sheets))
    if any(p.names is not None for p in ruleset.params.values()):
        check_named(ruleset, full_params, brought)
    check_loop_action(ruleset)
    return ruleset, full_params


def load_and_write_program(source: str, params: dict | None, sheets=()) -> tuple[Ruleset, dict]:
    """As load_and_check, and the untraced program written here with the sheets brought (kept for the
    games this process plays), so that its problems come before any game."""
    ruleset, full_params = load_and_check(source, params, sheets)
    cell_program(source, full_params, tuple(str(path) for path in sheets))
    return ruleset, full_params


def run_tasks(tasks: list[Task], games: int, seed: int = 0, workers: int = 1, progress=None,
              on_rows=None) -> list:
    """Play games 0..games-1 of every task, on the same per-game seeds, sharing one set of workers;
    a merged summary per task. Ranges are handed out task by task, a few ahead of the results, and
    taken back in that order: `on_rows(k, rows)` gets the rows of each range of a task with
    records, in the order of the tasks and their games."""
    tallies = [EMPTY[task.kind]() for task in tasks]
    done = 0
    work = ((k, start, stop) for k in range(len(tasks)) for start, stop in _ranges(games, CHUNKS[tasks[k].kind]))

    def finished(k: int, played) -> None:
        nonlocal done
        part, rows = played
        tallies[k].merge(part)
        if rows is not None and on_rows is not None:
            on_rows(k, rows)
        done += part.games
        if progress:
            progress(done)

    if workers <= 1:
        for k, start, stop in work:
            finished(k, play_task(tasks[k], seed, start, stop))
        return tallies
    import multiprocessing

    context = multiprocessing.get_context("spawn")
    held = _hold_interrupts()       # only while the workers start: the parent answers Ctrl-C
    try:
        # A spawned worker starts in English: it takes the table's language, in which a text
        # question's auto: answers (steps/people.table_words) as one process would, and its messages.
        pool = context.Pool(workers, initializer=i18n.set_language, initargs=(i18n.language(),))
    except BaseException:
        _let_interrupts(held)
        raise
    with pool:                      # terminated on the way out, Ctrl-C included
        _let_interrupts(held)       # inside: a Ctrl-C held meanwhile still terminates the pool
        pending: deque = deque()
        for k, start, stop in work:
            pending.append((k, pool.apply_async(play_task, (tasks[k], seed, start, stop))))
            if len(pending) >= 2 * workers:   # a few ranges ahead, never the whole run at once
                k, result = pending.popleft()
                finished(k, result.get())
        while pending:
            k, result = pending.popleft()
            finished(k, result.get())
    return tallies


def recorded_run(tasks: list[Task], games: int, seed: int, workers: int, progress, sink, lay) -> list:
    """run_tasks, each range's rows laid out by `lay(k, rows)` and written to `sink` as they come;
    the file is complete only once every game is played (a failed run leaves none)."""
    if sink is None:
        return run_tasks(tasks, games, seed, workers, progress)
    try:
        tallies = run_tasks(tasks, games, seed, workers, progress, lambda k, rows: sink.write(lay(k, rows)))
        sink.done()
    except BaseException:
        sink.abandon()
        raise
    return tallies


def simulate(source: str, games: int, seed: int = 0, params: dict | None = None, workers: int = 1,
             progress=None, backend: str = "untraced", announce=None, sheets=(), records=None,
             told=None) -> Summary:
    """Play `games` games of the ruleset at `source`; `progress(done)` is called as games finish.
    `backend`: auto, lockstep or untraced (the command line gives auto); `announce(backend, reason)`
    is told the choice first. `sheets`: sheet files or folders, whose instances every game starts
    with (as `dusk play --sheets`), checked here before any game. `records`: a row per game
    (records.py), written to a file (.parquet, .csv, .jsonl) or, with True, kept for `.to_frame()`.
    `told(start, stop, rounds, limit)`: a lockstep game of start..stop-1 has played that many rounds
    and goes on (said at 10,000, then ten times as many; `limit`: MAX_ROUNDS), run where the games are
    played (a module's function)."""
    from .records import layout

    check_target(records)
    check_games(games)
    sheets = tuple(str(path) for path in sheets)
    ruleset, full_params = load_and_check(source, params, sheets)
    chosen, reason = choose_backend(ruleset, full_params, backend)
    if chosen == "untraced":
        cell_program(source, full_params, sheets)       # its problems before any game; lockstep never runs it
    if announce is not None:
        announce(chosen, reason)
    sink = sink_for(records)
    started = time.perf_counter()
    kind = "lockstep" if chosen == "lockstep" else "one"
    cell = (source, full_params, sheets) if sheets else (source, full_params)
    tally, = recorded_run([Task(kind, (cell,), sink is not None, told)], games, seed, workers, progress, sink,
                          lambda k, rows: layout(rows.columns(), full_params))
    return Summary(ruleset.id, seed, games, full_params, tally, time.perf_counter() - started, chosen, reason,
                   sink, ruleset.distributions, tuple(e.result for e in ruleset.end if e.distribution),
                   ruleset.tallies, ruleset.results)
