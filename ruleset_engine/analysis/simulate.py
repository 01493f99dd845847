"""`dusk simulate`: play N whole games with the `auto:` answers and summarise them as they end.

Each game runs the ruleset's program in the untraced mode (runtime/program.py: the same lowered
form the table runs, without the trace). Game i draws from a seed derived from (S, i), so the
same S gives the same report whatever the number of workers. Each worker loads the ruleset and
writes its program once, then plays ranges of games and sends back their Totals, a running summary
(counts, sums and histograms) that merges with the others: memory does not grow with N.
"""

from __future__ import annotations

import hashlib
import random
import time
from collections import deque

from ruleset_engine.errors import DuskError
from ruleset_engine.ruleset import load
from ruleset_engine.ruleset.model import Ruleset
from ruleset_engine.runtime import DEFAULT_RUN_LIMITS, GameError, RuleError, resolve_params
from ruleset_engine.runtime.program import Program, build
from ruleset_engine.runtime.run import Run
from ruleset_engine.runtime.signals import RoundLimit

from .summary import Totals, wilson  # noqa: F401 - wilson is part of this module's API

MAX_ROUNDS = 1_000_000
MAX_GAMES = 10**12          # more games than a machine could play: refused before the first
CHUNK = 500


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
    raise SimulationError(f"{ruleset.id} has no game loop to simulate (it needs a loop: section)")


def simulation_program(ruleset: Ruleset, params: dict) -> Program:
    """The untraced program a simulation plays (its loop action with its default arguments)."""
    action = ruleset.actions[loop_action(ruleset)]
    missing = [name for name, p in action.params.items() if p.default is None]
    if missing:
        raise SimulationError(f"the loop action {action.name!r} needs {missing[0]} and has no default for it, "
                              "so a simulation cannot play it")
    return build(ruleset, params, traced=False, run_limits=DEFAULT_RUN_LIMITS)


def play_game(program: Program, seed: int, max_rounds: int = MAX_ROUNDS) -> tuple[str, int, dict, object]:
    """One whole game: (result, rounds, report, the dice source at the end)."""
    rng = random.Random(seed)
    run = Run(traced=False, auto=True, max_steps=DEFAULT_RUN_LIMITS.max_steps,
              max_depth=DEFAULT_RUN_LIMITS.max_call_depth)
    entry = program.bind(rng.randint, run)
    try:
        rounds = entry["play"](max_rounds)
        report = entry["report"]()
    except RoundLimit:
        raise SimulationError(f"a game went past {max_rounds:,} rounds") from None
    except Exception as err:   # a rule that failed: located where the ruleset wrote it
        raise program.locate(err) from None
    return run.result, rounds, report, rng


_WORKER: dict = {}


def _prepare(source: str, params: dict) -> None:
    """Load the ruleset and write its program, once per process."""
    if _WORKER.get("key") != (source, repr(params)):
        ruleset = load(source)
        _WORKER.update(key=(source, repr(params)), program=simulation_program(ruleset, params))


def play_range(source: str, params: dict, seed: int, start: int, stop: int) -> Totals:
    """Games start..stop-1 (what one worker does), summarised."""
    _prepare(source, params)
    program = _WORKER["program"]
    tally = Totals()
    for i in range(start, stop):
        try:
            result, rounds, report, _ = play_game(program, game_seed(seed, i))
        except (RuleError, GameError, SimulationError) as err:
            raise SimulationError(f"game {i} (seed {game_seed(seed, i)}) stopped: {err}") from None
        tally.add(result, rounds, report)
    return tally


class Summary:
    """A finished simulation: its totals and what it was run with."""

    def __init__(self, ruleset: str, seed: int, games: int, params: dict, tally: Totals, seconds: float):
        self.ruleset = ruleset
        self.seed = seed
        self.games = games
        self.params = params
        self.tally = tally
        self.seconds = seconds

    def to_json(self) -> dict:
        data = {"ruleset": self.ruleset, "seed": self.seed, "games": self.tally.games, "params": self.params}
        data.update(self.tally.to_json())
        return data


def _ranges(games: int):
    for start in range(0, games, CHUNK):
        yield start, min(games, start + CHUNK)


def simulate(source: str, games: int, seed: int = 0, params: dict | None = None, workers: int = 1,
             progress=None) -> Summary:
    """Play `games` games of the ruleset at `source`; `progress(done)` is called as games finish."""
    if not 1 <= games <= MAX_GAMES:
        raise GameError(f"-n takes 1 to {MAX_GAMES:,} games, not {games:,}")
    ruleset = load(source)
    loop_action(ruleset)
    full_params = resolve_params(ruleset, params or {})
    # Written here, so its problems (if any) come before any game; kept for the games played here.
    _WORKER.update(key=(source, repr(full_params)), program=simulation_program(ruleset, full_params))
    started = time.perf_counter()
    tally = Totals()
    if workers <= 1:
        for start, stop in _ranges(games):
            tally.merge(play_range(source, full_params, seed, start, stop))
            if progress:
                progress(tally.games)
    else:
        import multiprocessing

        context = multiprocessing.get_context("spawn")
        with context.Pool(workers) as pool:
            pending: deque = deque()
            for start, stop in _ranges(games):
                pending.append(pool.apply_async(play_range, (source, full_params, seed, start, stop)))
                if len(pending) >= 2 * workers:   # a few ranges ahead, never the whole run at once
                    tally.merge(pending.popleft().get())
                    if progress:
                        progress(tally.games)
            while pending:
                tally.merge(pending.popleft().get())
                if progress:
                    progress(tally.games)
    return Summary(ruleset.id, seed, games, full_params, tally, time.perf_counter() - started)
