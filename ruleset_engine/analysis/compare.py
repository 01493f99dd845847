"""`dusk compare`: two rulesets (a game and its house rule, or two house rules) on common random numbers.

Game i of each is played on the same seed (simulate.game_seed), by the same workers, and each pair
of games gives one difference (paired.py): each result's rate in both with the difference and its
95% interval, the same for the mean length and each report value both rulesets report.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

from .paired import Paired
from .records import Recorded, check_target, pair_layout, sink_for
from .simulate import Task, check_games, load_and_write_program, recorded_run


@dataclass
class Comparison(Recorded):
    rulesets: tuple[str, str]
    params: tuple[dict, dict]
    seed: int
    games: int
    paired: Paired
    seconds: float
    records: object = None   # records.Kept with records=True (`.to_frame()`), a file's sink, or None
    result_words: dict = field(default_factory=dict)   # result -> its words at the table (results:; A's first)

    def to_json(self) -> dict:
        a, b = self.paired.a.to_json(), self.paired.b.to_json()
        results = {}
        for name in sorted(self.paired.results):
            empty = {"count": 0, "rate": 0.0, "ci95": [0.0, 0.0]}
            results[name] = {"a": a["results"].get(name, empty), "b": b["results"].get(name, empty),
                             **self.paired.results[name].to_json()}
        length = {"a": a["length"]["mean"], "b": b["length"]["mean"], **self.paired.length.to_json(4)}
        report = {}
        for key in self.paired.values:
            mean = "rate" if "rate" in a["report"][key] and "rate" in b["report"][key] else "mean"
            report[key] = {"a": a["report"][key][mean], "b": b["report"][key][mean],
                           **self.paired.values[key].to_json(4 if mean == "mean" else 6)}
            if mean == "rate":
                report[key]["rate"] = True
        return {"a": {"ruleset": self.rulesets[0], "params": self.params[0]},
                "b": {"ruleset": self.rulesets[1], "params": self.params[1]},
                "seed": self.seed, "games": self.games, "results": results, "length": length, "report": report}


def compare(source_a: str, source_b: str, games: int, seed: int = 0, params: dict | None = None,
            workers: int = 1, progress=None, records=None) -> Comparison:
    """Play games 0..games-1 of both rulesets on the same seeds; `params` (--set) apply to both.
    `records`: a row per pair of games (records.py), to a file or, with True, kept for `.to_frame()`."""
    check_target(records)
    check_games(games, 2)
    ruleset_a, params_a = load_and_write_program(source_a, params)
    ruleset_b, params_b = load_and_write_program(source_b, params)
    sink = sink_for(records)
    started = time.perf_counter()
    paired, = recorded_run([Task("pair", ((source_a, params_a), (source_b, params_b)), sink is not None)], games,
                           seed, workers, progress, sink, lambda k, rows: pair_layout(rows, (params_a, params_b)))
    return Comparison((ruleset_a.id, ruleset_b.id), (params_a, params_b), seed, games, paired,
                      time.perf_counter() - started, sink, {**ruleset_b.results, **ruleset_a.results})
