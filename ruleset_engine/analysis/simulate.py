"""`dusk simulate`: play N whole games with the `auto:` answers and summarise them.

Game i draws from a seed derived from (S, i), so the same S gives the same report
whatever the number of workers. Workers load the ruleset themselves (compiled
rulesets hold closures, which do not pickle) and return plain numbers.
"""

from __future__ import annotations

import hashlib
import math
import statistics
import time
from dataclasses import dataclass, field

from ruleset_engine.ruleset import load
from ruleset_engine.ruleset.model import Ruleset
from ruleset_engine.runtime import Game, GameError, RuleError


def game_seed(seed: int, index: int) -> int:
    """The seed of game `index` of a run seeded `seed`: independent of how games are shared out."""
    digest = hashlib.sha256(f"dusk/{seed}/{index}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


class SimulationError(Exception):
    """A game of the simulation failed; the message names the game and its seed."""


@dataclass(slots=True)
class GameRecord:
    result: str
    rounds: int
    report: dict


def loop_action(ruleset: Ruleset) -> str:
    for name, action in ruleset.actions.items():
        if action.plays_level:
            return name
    raise SimulationError(f"{ruleset.id} has no game loop to simulate (it needs a loop: section)")


def play_one(ruleset: Ruleset, params: dict, seed: int, action: str, max_rounds: int = 1_000_000,
             compiled=None) -> GameRecord:
    """One whole game: compiled when it can be, else (or when the compiled path steps aside) interpreted."""
    if compiled is not None:
        from .compiled import CompiledGame, Fallback

        from .compiled import RoundLimit

        try:
            game = CompiledGame.start_compiled(ruleset, params, seed, compiled)
            rounds = game.play_to_end(action, max_rounds)
            return GameRecord(game.result, rounds, game.report())
        except Fallback:
            pass
        except RoundLimit:
            raise SimulationError(f"a game went past {max_rounds:,} rounds") from None
    game = Game.start(ruleset, params, seed, record=False, auto=True)
    return _play(game, game.perform, action, max_rounds)


def _play(game: Game, play, action: str, max_rounds: int) -> GameRecord:
    rounds = 0
    while not game.over:
        if rounds >= max_rounds:
            raise SimulationError(f"a game went past {max_rounds:,} rounds")
        play(action)
        rounds += 1
    return GameRecord(game.result, rounds, game.report())


def play_range(source: str, params: dict, seed: int, start: int, stop: int) -> list[GameRecord]:
    """Games start..stop-1 (what one worker does)."""
    from .compiled import compile_ruleset

    ruleset = load(source)
    action = loop_action(ruleset)
    compiled = compile_ruleset(ruleset, params)
    out = []
    for i in range(start, stop):
        try:
            out.append(play_one(ruleset, params, game_seed(seed, i), action, compiled=compiled))
        except (RuleError, GameError) as err:
            raise SimulationError(f"game {i} (seed {game_seed(seed, i)}) stopped: {err}") from None
    return out


def wilson(count: int, n: int, z: float = 1.959964) -> tuple[float, float]:
    """The 95% Wilson score interval of a rate."""
    if n == 0:
        return (0.0, 0.0)
    p = count / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return (max(0.0, centre - half), min(1.0, centre + half))


def percentile(sorted_values: list, q: float):
    if not sorted_values:
        return None
    k = max(0, math.ceil(q * len(sorted_values)) - 1)
    return sorted_values[k]


def summarise_numbers(values: list) -> dict:
    ordered = sorted(values)
    return {"mean": round(statistics.fmean(ordered), 4), "median": statistics.median(ordered),
            "p90": percentile(ordered, 0.9), "min": ordered[0], "max": ordered[-1]}


@dataclass
class Summary:
    ruleset: str
    seed: int
    games: int
    params: dict
    records: list = field(default_factory=list)
    seconds: float = 0.0

    def to_json(self) -> dict:
        n = len(self.records)
        counts: dict[str, int] = {}
        for record in self.records:
            counts[record.result] = counts.get(record.result, 0) + 1
        results = {}
        for name in sorted(counts):
            lo, hi = wilson(counts[name], n)
            results[name] = {"count": counts[name], "rate": round(counts[name] / n, 6),
                             "ci95": [round(lo, 6), round(hi, 6)]}
        lengths = sorted(r.rounds for r in self.records)
        report = {}
        for key in (self.records[0].report if self.records else {}):
            values = [r.report[key] for r in self.records]
            if all(isinstance(v, bool) for v in values):
                true = sum(values)
                lo, hi = wilson(true, n)
                report[key] = {"rate": round(true / n, 6), "ci95": [round(lo, 6), round(hi, 6)]}
            else:
                report[key] = summarise_numbers(values)
        return {
            "ruleset": self.ruleset, "seed": self.seed, "games": n, "params": self.params, "results": results,
            "length": {"mean": round(statistics.fmean(lengths), 4), "median": statistics.median(lengths),
                       "p90": percentile(lengths, 0.9)},
            "report": report,
        }


def simulate(source: str, games: int, seed: int = 0, params: dict | None = None, workers: int = 1,
             progress=None) -> Summary:
    """Play `games` games of the ruleset at `source`; `progress(done)` is called as games finish."""
    from ruleset_engine.runtime import resolve_params

    ruleset = load(source)
    loop_action(ruleset)
    full_params = resolve_params(ruleset, params or {})
    started = time.perf_counter()
    records: list[GameRecord] = []
    chunk = max(1, min(500, games // (workers * 8) or 1))
    ranges = [(i, min(games, i + chunk)) for i in range(0, games, chunk)]
    if workers <= 1:
        for start, stop in ranges:
            records.extend(play_range(source, full_params, seed, start, stop))
            if progress:
                progress(len(records))
    else:
        import multiprocessing

        context = multiprocessing.get_context("spawn")
        with context.Pool(workers) as pool:
            jobs = [pool.apply_async(play_range, (source, full_params, seed, a, b)) for a, b in ranges]
            for job in jobs:   # in order: the report does not depend on which worker was quicker
                records.extend(job.get())
                if progress:
                    progress(len(records))
    summary = Summary(ruleset.id, seed, games, full_params, records, time.perf_counter() - started)
    return summary
